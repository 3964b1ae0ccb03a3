"""Numpy's BLAS on one thread while a network agent thinks.

An agent's forward passes are small: one observation, or a few dozen candidate rows, through
an MLP of a few hundred units. OpenBLAS splits such a product over its threads, and waking
them gains little; when the cores are oversubscribed (a tournament's worker processes and a
training run beside them) each wake-up can wait for a time slice: the shipped Taiwan
Formosa network measured 4.3 ms per decision with numpy's default threads and 0.55 ms with
one, in back-to-back runs with four busy processes on this 2-core machine (the alternated
figures at other loads are in docs/speed.md). :func:`one_blas_thread` limits BLAS to one
thread for one decision and restores the caller's setting afterwards (about 20 µs per
decision), through ``threadpoolctl``, the library scikit-learn uses for this, so nothing
outside the agent's own decision changes.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, wraps
from typing import Any, TypeVar

from threadpoolctl import ThreadpoolController

Method = TypeVar("Method", bound=Callable[..., Any])


@cache
def _controller() -> ThreadpoolController:
    """The BLAS libraries loaded in this process (numpy's among them), found once."""
    return ThreadpoolController()


def one_blas_thread(method: Method) -> Method:
    """Decorate an agent's decision method so that it runs with BLAS on one thread (the
    previous thread count is restored when it returns or raises)."""
    @wraps(method)
    def decide(*args: Any, **kwargs: Any) -> Any:
        with _controller().limit(limits=1, user_api="blas"):
            return method(*args, **kwargs)
    return decide  # type: ignore[return-value]
