"""Numpy's BLAS on one thread while an agent with a large network decides.

An agent's forward passes are small: one observation, or a few dozen candidate rows, through
an MLP of a few hundred units. OpenBLAS splits such products over its threads. On an idle
machine that gains up to a quarter; when other processes keep the cores busy (a
tournament's workers, a training run) each wake-up of a thread waits for a time slice, and
with two busy processes on this 2-core machine the shipped Taiwan Formosa network took 4.04
ms per decision on numpy's threads and 0.37 ms on one (``benchmarks/bench_blas_threads.py``,
docs/speed.md). The smaller networks lost nothing to the threads under load.
:func:`one_blas_thread` therefore limits BLAS to one thread for one decision of an agent
whose network is large (:data:`LARGE_LAYER`) and restores the caller's setting afterwards
(about 3 µs: the libraries are found once through ``threadpoolctl``, the library
scikit-learn uses for this, and set directly), so nothing outside that decision changes.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, wraps
from typing import Any, TypeVar

from threadpoolctl import ThreadpoolController

Method = TypeVar("Method", bound=Callable[..., Any])


@cache
def _blas_libraries() -> tuple[Any, ...]:
    """The BLAS libraries loaded in this process (numpy's among them), found once."""
    return tuple(ThreadpoolController().select(user_api="blas").lib_controllers)


LARGE_LAYER = 1 << 18
"""Weights in a network's largest layer from which its agent decides on one BLAS thread.

Measured (docs/speed.md): the Taiwan Formosa network (831,488 weights in its first layer)
is 6-11x slower on numpy's threads when two or three other processes keep the 2-core
machine busy, and up to 26% faster on them when it is idle; the Flowers network (113,152)
and the Tea afterstate evaluator (278,784, batched over candidates, which this module
does not decorate) differ by less than the noise either way."""


def large(layers: list[tuple[Any, Any]]) -> bool:
    """Whether a network's largest weight matrix holds at least :data:`LARGE_LAYER` values."""
    return max(int(w.size) for w, _ in layers) >= LARGE_LAYER


def one_blas_thread(method: Method) -> Method:
    """Decorate an agent's decision method so that, when the agent's ``single_blas_thread``
    attribute is true, it runs with BLAS on one thread (each library's previous thread
    count is restored when it returns or raises)."""
    @wraps(method)
    def decide(self: Any, *args: Any, **kwargs: Any) -> Any:
        if not getattr(self, "single_blas_thread", True):
            return method(self, *args, **kwargs)
        libraries = _blas_libraries()
        before = [library.get_num_threads() for library in libraries]
        for library in libraries:
            library.set_num_threads(1)
        try:
            return method(self, *args, **kwargs)
        finally:
            for library, threads in zip(libraries, before, strict=True):
                if threads is not None:
                    library.set_num_threads(threads)
    return decide  # type: ignore[return-value]
