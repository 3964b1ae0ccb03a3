"""``formosa train flowers --backend jax --method gumbel``: Gumbel MuZero self-play.

Each iteration plays ``steps`` searched decisions in ``num_envs`` self-play games
(:func:`.gumbel.self_play`, auto-reset; every seat is the search), then trains the network
for ``epochs`` passes over the decisions whose game ended inside the window (the policy
toward the search's improved policy, the value toward the final rank return). Runs until
``iterations`` or ``minutes`` (compile excluded), then exports ``network.npz`` and
evaluates, on seeds never trained on:

* the network alone (``policy:``) against random and the Python heuristic;
* the network with the Python search (``az:network.npz:N``, the CLI's spec);
* the network with the same Gumbel search it trained with (``eval_simulations``, no Gumbel
  noise) against the JAX heuristic (which decides as the Python one does), seats
  rotated, and the time per decision of both, batched.

Run folder: ``config.json``, ``metrics.csv``, ``network.npz``, ``summary.json``.
"""

from __future__ import annotations

import csv
import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from formosa_envs.training.common.toml_config import bounds_problem, check_fields, load_toml_config

from formosa_envs.core.errors import ConfigError

CONFIG_PATH = Path(__file__).parent.parent / "configs" / "flowers_gumbel.toml"
INT_BOUNDS = {"num_envs": (1, 1 << 16), "steps": (1, 10_000), "simulations": (2, 1024),
              "considered": (2, 111), "epochs": (1, 100), "minibatches": (1, 1024),
              "hidden_size": (1, 4096), "hidden_layers": (1, 8),
              "iterations": (1, 10_000_000), "seed": (0, 2**31 - 1),
              "eval_games": (0, 1_000_000), "eval_seed": (0, 2**31 - 1),
              "eval_simulations": (2, 1024), "az_games": (0, 1_000_000)}
FLOAT_BOUNDS = {"learning_rate": (1e-8, 1.0), "minutes": (0.0, 10_000.0)}


@dataclass
class GumbelConfig:
    """Every knob of the Gumbel MuZero run (``training/configs/flowers_gumbel.toml``)."""

    num_envs: int = 128
    steps: int = 128
    """Searched decisions per game per iteration (a game of 2 players takes about 70)."""
    simulations: int = 16
    considered: int = 16
    """Root actions kept by Gumbel top-k (sequential halving among them)."""
    epochs: int = 2
    minibatches: int = 8
    learning_rate: float = 1e-3
    hidden_size: int = 128
    hidden_layers: int = 2
    activation: str = "relu"
    iterations: int = 1_000_000
    minutes: float = 20.0
    seed: int = 0
    eval_games: int = 400
    eval_seed: int = 7_000_000
    eval_simulations: int = 16
    az_games: int = 200
    """Games of ``az:network.npz:eval_simulations`` against the Python heuristic."""

    def validate(self, where: str = "") -> None:
        """Raise :class:`ConfigError` naming the first bad field."""
        check_fields(self, _problem, "gumbel training option", where)
        if self.eval_games and self.eval_games % 2:
            raise ConfigError(f"gumbel training option eval_games must be even (seats "
                              f"rotate), got {self.eval_games}{where}")

    @property
    def hidden(self) -> tuple[int, ...]:
        """The hidden layer sizes."""
        return (self.hidden_size,) * self.hidden_layers


def _problem(name: str, value: Any) -> str:
    problem = bounds_problem(name, value, INT_BOUNDS, FLOAT_BOUNDS)
    if problem is not None:
        return problem
    return "" if value in ("relu", "tanh") else f"must be relu or tanh, got {value!r}"


def load_gumbel_config(path: str | Path | None = None, **overrides: Any) -> GumbelConfig:
    """The settings of TOML file ``path`` (table ``[gumbel]``; default the packaged
    ``flowers_gumbel.toml``), then ``overrides`` that are not None; validated."""
    def unknown(values: Any, extra: Any, known: set[str], where: str) -> None:
        for key in sorted(set(values) | set(extra)):
            if key not in known:
                raise ConfigError(f"unknown gumbel training option {key!r}"
                                  f"{where if key in values else ''}; known: "
                                  f"{', '.join(sorted(known))}")
    return load_toml_config(GumbelConfig, path or CONFIG_PATH, "gumbel", overrides, unknown)


def make_iteration(config: GumbelConfig) -> tuple[Any, Any, Any]:
    """``(vec, init, iterate)``: ``init(key) -> (params, opt_state, games)`` and
    ``iterate(params, opt_state, games, key)`` -> the same and the iteration's metrics."""
    import jax
    import jax.numpy as jnp
    import optax

    from formosa_envs.jax.flowers.vec_env import FlowersVecEnv

    from . import gumbel
    from .nets import init_params

    vec = FlowersVecEnv(config.num_envs, num_players=2)
    optimizer = optax.adam(config.learning_rate)

    def init(key: jax.Array) -> tuple[Any, Any, Any]:
        k_params, k_games = jax.random.split(key)
        params = init_params(k_params, vec.observation_size, vec.num_actions, config.hidden)
        return params, optimizer.init(params), vec._reset(k_games).state

    def iterate(params: Any, opt_state: Any, games: Any, key: jax.Array) -> tuple:
        k_play, k_perm = jax.random.split(key)
        games, samples = gumbel.self_play(vec, params, games, k_play, config.steps,
                                          config.simulations, config.activation)
        targets, known = gumbel.value_targets(samples)
        flat = [x.reshape((-1,) + x.shape[2:]) for x in
                (samples.obs, samples.mask, samples.policy, targets, known)]
        size = flat[0].shape[0] // config.minibatches

        def step(carry: tuple, order: jax.Array) -> tuple[tuple, Any]:
            p, o = carry
            batch = [x[order] for x in flat]
            (_, parts), grads = jax.value_and_grad(gumbel.loss, has_aux=True)(
                p, *batch, config.activation)
            updates, o = optimizer.update(grads, o, p)
            return (optax.apply_updates(p, updates), o), parts

        orders = jnp.concatenate([jax.random.permutation(k, flat[0].shape[0])[
            :size * config.minibatches] for k in jax.random.split(k_perm, config.epochs)])
        (params, opt_state), (policy_loss, value_loss) = jax.lax.scan(
            step, (params, opt_state), orders.reshape(-1, size))
        metrics = {"policy_loss": policy_loss.mean(), "value_loss": value_loss.mean(),
                   "games": samples.done.sum(), "known": known.mean()}
        return params, opt_state, games, metrics

    return vec, init, iterate


def run(config: GumbelConfig, out: str | Path, show_progress: bool = True) -> dict[str, Any]:
    """Train, export and evaluate; returns the summary (also written to ``out``)."""
    import jax

    from formosa_envs.tools.progress import ProgressBar

    from .nets import export_params

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_text(json.dumps(asdict(config), indent=2))
    vec, init, iterate = make_iteration(config)
    iterate = jax.jit(iterate)
    key = jax.random.PRNGKey(config.seed)
    key, sub = jax.random.split(key)
    started = time.perf_counter()
    params, opt_state, games = jax.jit(init)(sub)
    compiled = iterate.lower(params, opt_state, games, sub).compile()
    compile_s = time.perf_counter() - started
    rows: list[dict[str, Any]] = []
    budget = config.minutes * 60 if config.minutes > 0 else float("inf")
    bar = ProgressBar(int(budget) if budget < float("inf") else config.iterations,
                      "gumbel self-play", enabled=show_progress)
    started = time.perf_counter()
    while len(rows) < config.iterations and time.perf_counter() - started < budget:
        key, sub = jax.random.split(key)
        params, opt_state, games, metrics = compiled(params, opt_state, games, sub)
        wall = time.perf_counter() - started
        rows.append({"iteration": len(rows) + 1, "wall_s": round(wall, 1),
                     **{k: float(v) for k, v in jax.device_get(metrics).items()}})
        bar.update(int(wall) if budget < float("inf") else len(rows),
                   f"iteration {len(rows)}, policy loss {rows[-1]['policy_loss']:.3f}, "
                   f"value loss {rows[-1]['value_loss']:.3f}")
    bar.close()
    train_s = time.perf_counter() - started
    _write_rows(out / "metrics.csv", rows)
    network = export_params(params, config.activation, out / "network.npz")
    decisions = len(rows) * config.steps * config.num_envs
    summary = {"compile_s": round(compile_s, 1), "train_s": round(train_s, 1),
               "iterations": len(rows), "searched_decisions": decisions,
               "decisions_per_s": round(decisions / train_s) if train_s else 0,
               "network": str(network),
               **_evaluate(config, vec, params, network, show_progress)}
    (out / "summary.json").write_text(json.dumps(summary, indent=2))
    return summary


def _write_rows(path: Path, rows: list[dict[str, Any]]) -> None:
    if rows:
        with path.open("w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)


def _evaluate(config: GumbelConfig, vec: Any, params: Any, network: Path,
              show_progress: bool) -> dict[str, Any]:
    """The network alone and with search (see the module docstring)."""
    if not config.eval_games:
        return {}
    from formosa_envs.evaluation.evaluate import run_tournament, win_share

    from .gumbel_eval import search_against_heuristic

    results: dict[str, Any] = {}
    spec = f"policy:{network}"
    for opponent in ("random", "heuristic"):
        result = run_tournament("flowers", [spec, opponent], 2, config.eval_games,
                                seed=config.eval_seed, show_progress=show_progress)
        results[f"network_vs_{opponent}"] = win_share(result, spec, opponent)
    if config.az_games:
        az = f"az:{network}:{config.eval_simulations}"
        result = run_tournament("flowers", [az, "heuristic"], 2, config.az_games,
                                seed=config.eval_seed, show_progress=show_progress)
        results["az_vs_heuristic"] = win_share(result, az, "heuristic")
    results["search_vs_heuristic"] = search_against_heuristic(
        vec.engine, params, config, config.eval_games, config.eval_seed)
    return results
