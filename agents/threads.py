"""Numpy's BLAS on one thread while a network agent thinks.

An agent's forward passes are small: one observation, or a few dozen candidate rows, through
an MLP of a few hundred units. OpenBLAS splits such a matrix-vector product over its
threads, and waking them costs more than it saves; when the cores are busy (a tournament's
worker processes, a training run beside it) each wake-up waits for a time slice, and the
shipped Taiwan Formosa network measured 4.3 ms per decision instead of 0.55 ms with one
thread (docs/speed.md). :func:`one_blas_thread` limits BLAS to one thread for the duration
of one decision and restores the caller's setting afterwards, through ``threadpoolctl``
(the library scikit-learn and numpy's own tests use for this), so nothing outside the
agent's own decision changes.
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
