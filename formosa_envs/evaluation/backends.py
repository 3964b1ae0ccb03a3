"""Where tournament games run: in this process, in a process pool, or on a Ray cluster.

* ``serial`` — one loop in this process: small runs, debugging, profiling.
* ``process`` — a :class:`~concurrent.futures.ProcessPoolExecutor` of
  ``workers`` processes: all the cores of one machine (never more processes than
  chunks of games, nor more than ``MAX_WORKERS`` = 256).
* ``ray`` — Ray tasks (``[rllib]`` extra): a cluster of machines. Start one
  with ``ray start --head`` (and ``ray start --address HEAD:6379`` on the
  others) and pass ``address="auto"``, or a ``ray://host:10001`` client
  address; without an address a local Ray is started. Every node needs this
  project installed (``pip install -e '.[rllib]'``).

``process`` and ``ray`` play the same chunks of games (:func:`chunk_tasks`) and
sort the records by index, so every backend returns the same records in the
same order: each game's seeds are fixed by the schedule, not by who plays it.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from formosa_envs.core.errors import ConfigError
from formosa_envs.games import make_game
from formosa_envs.tools.progress import progress
from formosa_envs.tools.simulate import play_game
from formosa_envs.tools.usage import MAX_WORKERS

if TYPE_CHECKING:
    from formosa_envs.evaluation.evaluate import MatchRecord

BACKENDS = ("serial", "process", "ray")
RAY_HINT = "the ray backend needs the [rllib] extra: pip install -e '.[rllib]'"


def resolve_backend(backend: str | None, workers: int, address: str | None = None) -> str:
    """The backend to use: ``backend``, or by default ``serial`` for one worker else ``process``.

    Raises :class:`ConfigError` for an unknown name, ``serial`` with more than
    one worker, or an ``address`` without the ``ray`` backend.
    """
    check_workers(workers)
    if backend is None:
        backend = "serial" if workers == 1 else "process"
    if backend not in BACKENDS:
        raise ConfigError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if backend == "serial" and workers != 1:
        raise ConfigError(f"backend 'serial' runs one worker; got workers={workers} "
                          "(use backend 'process' or 'ray')")
    if address is not None and backend != "ray":
        raise ConfigError(f"address {address!r} is a Ray cluster address: it needs backend "
                          f"'ray', got {backend!r}")
    return backend


def check_workers(workers: int) -> int:
    """``workers`` if it is a whole number >= 1, else :class:`ConfigError`."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ConfigError(f"workers must be a whole number >= 1, got {workers!r}")
    return workers


def chunk_tasks(tasks: list[MatchRecord], workers: int) -> list[list[MatchRecord]]:
    """Split ``tasks`` into consecutive chunks: about 8 per worker, 1 to 64 games each."""
    check_workers(workers)
    size = max(1, min(64, math.ceil(len(tasks) / (workers * 8))))
    return [tasks[i:i + size] for i in range(0, len(tasks), size)]


def run_tasks(setup: tuple, tasks: list[MatchRecord], workers: int = 1, backend: str = "serial",
              address: str | None = None, show_progress: bool = True) -> list[MatchRecord]:
    """Play ``tasks`` on ``backend`` (already resolved); the records come back in index order.

    ``setup`` is ``(game, num_players, options, agent_factory, record_games)``; it and the
    tasks must pickle for the ``process`` and ``ray`` backends.
    """
    check_workers(workers)
    label = f"tournament {setup[0]}"
    if backend == "serial":
        return list(progress(play_iter(setup, tasks), len(tasks), label, enabled=show_progress))
    chunks = chunk_tasks(tasks, workers)
    if backend == "process":
        records = _run_process(setup, chunks, workers, label, show_progress)
    else:
        records = _run_ray(setup, chunks, address, label, show_progress)
    return sorted(records, key=lambda r: r.index)


def _run_process(setup: tuple, chunks: list[list[MatchRecord]], workers: int, label: str,
                 show_progress: bool) -> list[MatchRecord]:
    total = sum(len(c) for c in chunks)
    if not chunks:
        return []
    # never more processes than chunks: --workers 1000000 for 10 games starts 10, not a million
    with ProcessPoolExecutor(max_workers=min(workers, len(chunks), MAX_WORKERS)) as pool:
        futures = [pool.submit(play_chunk, setup, chunk) for chunk in chunks]
        try:
            return list(progress(_completed(futures), total, label, enabled=show_progress))
        except BaseException:
            for future in futures:
                future.cancel()
            raise


def _completed(futures: list[Future]) -> Iterator[MatchRecord]:
    for future in as_completed(futures):
        yield from future.result()


def _run_ray(setup: tuple, chunks: list[list[MatchRecord]], address: str | None, label: str,
             show_progress: bool) -> list[MatchRecord]:
    ray = connect_ray(address)
    remote = ray.remote(play_chunk)
    setup_ref = ray.put(setup)
    refs = [remote.remote(setup_ref, chunk) for chunk in chunks]
    total = sum(len(c) for c in chunks)
    try:
        return list(progress(_ray_completed(ray, refs), total, label, enabled=show_progress))
    except BaseException:
        for ref in refs:
            ray.cancel(ref)
        raise


def _ray_completed(ray: Any, refs: list[Any]) -> Iterator[MatchRecord]:
    pending = list(refs)
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            yield from ray.get(ref)


def connect_ray(address: str | None = None) -> Any:
    """The ``ray`` module, connected: an existing connection is kept (``address`` unused),
    else :func:`formosa_envs.envs.rllib_config.start_ray` joins ``address`` or starts a
    local Ray. Raises :class:`ConfigError` when Ray is not installed."""
    try:
        import ray
    except ImportError as exc:
        raise ConfigError(RAY_HINT) from exc
    if not ray.is_initialized():
        try:
            from formosa_envs.envs.rllib_config import start_ray
        except ImportError as exc:  # ray without RLlib's dependencies
            raise ConfigError(RAY_HINT) from exc
        start_ray(address=address)
    return ray


def play_chunk(setup: tuple, tasks: list[MatchRecord]) -> list[MatchRecord]:
    """Play a chunk of games in a worker (agents are built there, from their specs)."""
    return list(play_iter(setup, tasks))


def play_iter(setup: tuple, tasks: list[MatchRecord]) -> Iterator[MatchRecord]:
    """Play ``tasks`` one by one, yielding each record with its results filled in."""
    game_name, num_players, options, factory, record_games = setup
    game = make_game(game_name, num_players=num_players, **options)
    for task in tasks:
        agents = [factory(spec, game_name, seed)
                  for spec, seed in zip(task.specs, task.agent_seeds, strict=True)]
        steps: list[list[Any]] | None = [] if record_games else None
        rec = play_game(game, agents, task.chance_seed, steps=steps)
        scores = [float(s) for s in rec.scores]
        yield replace(task, scores=scores, ranks=rec.ranks, wins=rec.wins,
                      decisions=rec.decisions, truncated=rec.truncated, steps=steps)
