"""``formosa bench``: decisions per second, engine-only and through ``env()``.

Both formosa rates are measured side by side with PettingZoo's
``connect_four_v3`` in the same run, so the printed ratio is robust to how
busy the (shared) machine is. Only player decisions are counted; chance
events (deals, draws) are resolved inside and are not counted.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from formosa_envs.core.engine import CHANCE
from formosa_envs.core.errors import ConfigError
from formosa_envs.games import make_game


@dataclass
class BenchResult:
    """One measured rate."""

    name: str
    decisions: int
    seconds: float

    @property
    def rate(self) -> float:
        """Decisions per second."""
        return self.decisions / self.seconds if self.seconds else 0.0


def bench_engine(game: Any, seconds: float, seed: int = 0) -> BenchResult:
    """Random play on the raw engine (legal_actions + apply_action, chance sampled)."""
    rng = np.random.default_rng(seed)
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not game.is_terminal(state) and state.decisions < game.max_game_length:
            if game.current_player(state) == CHANCE:
                game.resolve_chance(state, rng)
            else:
                legal = game.legal_actions(state)
                game.apply_action(state, legal[int(rng.integers(len(legal)))])
                count += 1
    return BenchResult(f"{game.name} engine", count, time.perf_counter() - start)


def bench_aec(env: Any, name: str, seconds: float, seed: int = 0) -> BenchResult:
    """Masked random play through a PettingZoo AEC env's ``agent_iter`` loop."""
    rng = np.random.default_rng(seed)
    count, episode, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed + episode)
        episode += 1
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(rng.integers(legal.size))]))
            count += 1
    return BenchResult(name, count, time.perf_counter() - start)


def run_bench(game_name: str, num_players: int, seconds: float,
              **options: Any) -> list[BenchResult]:
    """Measure connect_four_v3, the formosa env and the raw engine, interleaved twice.

    ``seconds`` (the time per contender) must be a finite number above zero;
    ``options`` are the game's options.
    """
    import formosa_envs
    if not (isinstance(seconds, (int, float)) and math.isfinite(seconds) and seconds > 0):
        raise ConfigError(f"seconds must be a finite number > 0, got {seconds!r}")
    game = make_game(game_name, num_players=num_players, **options)
    try:
        from pettingzoo.classic import connect_four_v3  # works below pettingzoo 1.27 too
        c4 = connect_four_v3.env()
    except ImportError:  # pragma: no cover - depends on the install
        raise ConfigError("formosa bench needs pettingzoo[classic] for the comparison: "
                          "pip install 'formosa_envs[dev]'") from None
    env = formosa_envs.env(game_name, num_players=num_players, **options)
    half = seconds / 2
    results: dict[str, BenchResult] = {}
    for _ in range(2):  # interleave so drifting machine load hits all three alike
        for res in (bench_aec(c4, "connect_four_v3 env()", half),
                    bench_aec(env, f"{game_name} env()", half),
                    bench_engine(game, half)):
            prev = results.get(res.name)
            results[res.name] = res if prev is None else BenchResult(
                res.name, prev.decisions + res.decisions, prev.seconds + res.seconds)
    return list(results.values())


def format_bench(results: list[BenchResult], game_name: str, num_players: int) -> str:
    """A table of rates and the ratios docs/speed.md quotes."""
    by_name = {r.name: r for r in results}
    c4 = by_name["connect_four_v3 env()"].rate
    lines = [f"formosa bench: {game_name}, {num_players} players, random play, one core",
             f"{'':26}{'decisions/s':>14}{'vs connect_four env()':>24}"]
    for r in results:  # too short a run may count no connect_four decision at all
        ratio = f"{r.rate / c4:23.2f}x" if c4 > 0 else f"{'n/a':>24}"
        lines.append(f"{r.name:26}{r.rate:14,.0f}{ratio}")
    return "\n".join(lines)
