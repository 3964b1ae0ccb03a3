"""Games played by a teacher, recorded for behaviour cloning.

``python -m formosa_envs.training.imitation.data flowers --games 6000 --teacher heuristic --out
data/flowers``
plays ``--games`` games in worker processes and writes, for every decision taken by a seat
played by the **teacher** spec, what that seat saw and what the teacher chose.

Seats: in game ``g`` the teacher sits in seat ``g % num_players``; the other seats get
the ``--opponents`` specs in turn (default: the teacher again, so every seat is recorded).
Every seat whose spec equals the teacher's is recorded (its action is the teacher's).
With ``--learner SPEC`` (DAgger) the learner plays the teacher's seat instead and only
that seat is recorded, each state with the move the teacher would have made there;
``python -m formosa_envs.training.imitation.bc`` takes several data folders, so a DAgger round is
cloned
together with the teacher's own games.

Data folder (format ``formosa-imitation/1``)::

    manifest.json        game, options, players, teacher, opponents, seed, seed scheme,
                         counts (games, decisions), shard list, elapsed seconds
    shards/shard-00000.npz ...   one compressed shard per chunk of ``chunk`` games

Each shard holds one row per recorded decision, in game order:

============  ==================  ===================================================
``obs``       float32 (D, O)      ``game.observe(state, seat)`` of the deciding seat
``mask``      uint8 (D, ceil(A/8)) legal mask, ``np.packbits(mask, axis=1)``
``action``    int32 (D,)          the teacher's action
``seat``      int8 (D,)           the deciding seat
``game``      int32 (D,)          the game's index ``g`` (splits are made by game)
``ret``       float32 (D,)        the seat's final return, ``Game.returns`` (in [-1, 1];
                                  0 for a game cut at ``max_game_length``)
``target``    float16 (D, A)      only with ``--visit-targets`` (the share of the
                                  teacher's root visits per action) or ``--value-targets
                                  T`` (a softmax of its root values over T; :mod:`.targets`)
============  ==================  ===================================================

Seeds: game ``g`` takes its chance seed from
``SeedSequence(seed, spawn_key=(DATA_STREAM, g, 0))`` as a 64-bit number with bit 63
set, so it can never equal a tournament's (``formosa_envs.evaluation.evaluate``) chance seed, which
is
a 32-bit number; the agents' seeds come from ``spawn_key=(DATA_STREAM, g, 1)``. The data
depends only on the arguments, never on the number of workers (each chunk's games and
seeds are fixed by their indices).
"""

from __future__ import annotations

import json
import math
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from formosa_envs.agents import make_agent
from formosa_envs.training.imitation.dataset import (
    FORMAT,
    SHARD_KEYS,
    ImitationData,
    has_soft_targets,
    load_data,
    read_manifest,
    shard_keys,
)
from formosa_envs.training.imitation.targets import (
    has_root_statistics,
    value_shares,
    visit_shares,
)

from formosa_envs.core.engine import CHANCE
from formosa_envs.core.errors import ConfigError
from formosa_envs.games import GAMES, make_game
from formosa_envs.tools.console import run_console
from formosa_envs.tools.progress import ProgressBar
from formosa_envs.tools.usage import (
    MAX_GAMES,
    MAX_WORKERS,
    OneLineParser,
    check_output_folder,
    int_between,
    non_negative_int,
    positive_float,
)

PROG = "python -m formosa_envs.training.imitation.data"
DATA_STREAM = 0x1417  # spawn-key tag of the data seeds (any fixed value; kept so data reproduce)
MAX_DATA_SEED = 2**63 - 1
MAX_CHUNK = 10_000


@dataclass
class DataSettings:
    """What :func:`generate` plays: the game, its options, the agents and the seeds."""

    game: str
    games: int
    teacher: str = "heuristic"
    opponents: list[str] = field(default_factory=list)
    num_players: int = 2
    seed: int = 0
    chunk: int = 50
    options: dict[str, Any] = field(default_factory=dict)
    learner: str = ""
    """DAgger: when set, this spec *plays* the teacher's seat and the teacher only labels
    the states it reaches (the recorded action is the teacher's choice there); only that
    seat is recorded."""
    visit_targets: bool = False
    """Also record the teacher's root visit shares (``target``); the teacher must be a
    search that keeps them (``mcts``)."""
    value_temperature: float = 0.0
    """When positive, record a softmax of the teacher's root mean values over this
    temperature as ``target`` (a teacher that values every move alike: ``flat``)."""
    kinds: list[str] = field(default_factory=list)
    """When set, record only decisions of these kinds (``state.stack[-1].kind``, e.g.
    Flowers' ``keep_or_cash``); with a ``learner``, the teacher is asked only there."""

    @property
    def soft_targets(self) -> bool:
        """Whether the shards record ``target``."""
        return bool(self.visit_targets or self.value_temperature)

    def validate(self) -> None:
        """Raise :class:`ConfigError` naming the first bad argument and what is allowed."""
        if not isinstance(self.game, str) or self.game not in GAMES:
            raise ConfigError(f"game must be one of {', '.join(sorted(GAMES))}, "
                              f"got {self.game!r}")
        info = GAMES[self.game]
        _check_int("games", self.games, 1, MAX_GAMES)
        _check_int("num_players", self.num_players, info.min_players, info.max_players,
                   f" for {self.game}")
        _check_int("seed", self.seed, 0, MAX_DATA_SEED)
        _check_int("chunk", self.chunk, 1, MAX_CHUNK)
        if not isinstance(self.opponents, list):
            raise ConfigError(f"opponents must be a list of agent specs, got {self.opponents!r}")
        if not isinstance(self.options, dict) or "num_players" in self.options:
            raise ConfigError("options must be a dict of game options without num_players "
                              f"(pass num_players itself), got {self.options!r}")
        make_game(self.game, num_players=self.num_players, **self.options)
        if not isinstance(self.learner, str):
            raise ConfigError(f"learner must be an agent spec (text), got {self.learner!r}")
        for spec in [self.teacher, *self.opponents] + ([self.learner] if self.learner else []):
            make_agent(spec, self.game, 0)  # AgentSpecError names a bad spec
        self._validate_targets()
        self._validate_kinds()

    def _validate_kinds(self) -> None:
        known = sorted(make_game(self.game, num_players=self.num_players,
                                 **self.options).handlers)
        if not isinstance(self.kinds, list) or not all(isinstance(k, str) for k in self.kinds):
            raise ConfigError(f"kinds must be a list of decision kinds, got {self.kinds!r}")
        unknown = [k for k in self.kinds if k not in known]
        if unknown:
            raise ConfigError(f"unknown decision kind {unknown[0]!r} for {self.game}; its "
                              f"kinds: {', '.join(known)}")

    def records(self, state: Any) -> bool:
        """Whether a decision in ``state`` is of a recorded kind."""
        return not self.kinds or state.stack[-1].kind in self.kinds

    def _validate_targets(self) -> None:
        temperature = self.value_temperature
        if isinstance(temperature, bool) or not isinstance(temperature, (int, float)) \
                or not math.isfinite(temperature) or temperature < 0:
            raise ConfigError("value_temperature must be a finite number >= 0 (0: no value "
                              f"targets), got {temperature!r}")
        if self.visit_targets and temperature:
            raise ConfigError("choose visit targets or value targets, not both")
        if self.soft_targets and not has_root_statistics(make_agent(self.teacher, self.game)):
            raise ConfigError(f"visit and value targets need a teacher that keeps its root "
                              f"statistics (mcts:N:..., flat:M), got {self.teacher!r}")

    def seat_specs(self, g: int) -> list[str]:
        """The agent spec of each seat in game ``g`` (teacher in seat ``g % n``)."""
        n = self.num_players
        others = self.opponents or [self.teacher]
        specs = [others[(g + k) % len(others)] for k in range(n)]
        specs[g % n] = self.teacher
        return specs


def _check_int(name: str, value: Any, low: int, high: int, where: str = "") -> None:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
            or not low <= value <= high:
        raise ConfigError(f"{name} must be a whole number from {low:,} to {high:,}{where}, "
                          f"got {value!r}")


def game_seeds(seed: int, g: int, num_players: int) -> tuple[int, list[int]]:
    """Game ``g``'s chance seed (64-bit, bit 63 set) and its seats' agent seeds."""
    chance = np.random.SeedSequence(seed, spawn_key=(DATA_STREAM, g, 0))
    agents = np.random.SeedSequence(seed, spawn_key=(DATA_STREAM, g, 1))
    value = int(chance.generate_state(1, np.uint64)[0]) | (1 << 63)
    return value, [int(s) for s in agents.generate_state(num_players)]


def play_recorded(game: Any, settings: DataSettings, g: int) -> tuple[dict[str, list], int]:
    """Play game ``g``; the teacher seats' decisions as lists, and the decision count."""
    chance_seed, agent_seeds = game_seeds(settings.seed, g, game.num_players)
    specs = settings.seat_specs(g)
    agents = [make_agent(s, settings.game, a) for s, a in zip(specs, agent_seeds, strict=True)]
    recorded = {i for i, s in enumerate(specs) if s == settings.teacher}
    labeller = None
    if settings.learner:  # DAgger: the learner plays the teacher's seat, the teacher labels
        seat = g % game.num_players
        labeller, recorded = agents[seat], {seat}
        agents[seat] = make_agent(settings.learner, settings.game, agent_seeds[seat])
    rng = np.random.default_rng(chance_seed)
    state = game.new_initial_state()
    rows: dict[str, list] = {k: [] for k in ("obs", "mask", "action", "seat", "target")}
    while not game.is_terminal(state) and state.decisions < game.max_game_length:
        seat = game.current_player(state)
        if seat == CHANCE:
            game.resolve_chance(state, rng)
            continue
        action = int(agents[seat].act_on_state(game, state))
        if seat in recorded and settings.records(state):
            label = action if labeller is None else int(labeller.act_on_state(game, state))
            rows["obs"].append(np.asarray(game.observe(state, seat), dtype=np.float32))
            rows["mask"].append(np.packbits(np.asarray(game.legal_mask(state), dtype=bool)))
            rows["action"].append(label)
            rows["seat"].append(seat)
            if settings.soft_targets:
                rows["target"].append(_soft_target(
                    agents[seat] if labeller is None else labeller, label, game, settings))
        game.apply_action(state, action)
    returns = game.returns(state)
    rows["ret"] = [returns[s] for s in rows["seat"]]
    rows["game"] = [g] * len(rows["seat"])
    return rows, int(state.decisions)


def _soft_target(teacher: Any, label: int, game: Any, settings: DataSettings) -> np.ndarray:
    """The recorded decision's visit-share or value-softmax target (:mod:`.targets`)."""
    if settings.value_temperature:
        return value_shares(teacher, label, game.num_actions, settings.value_temperature)
    return visit_shares(teacher, label, game.num_actions)


def play_chunk(settings: DataSettings, index: int, out: str) -> dict[str, Any]:
    """Play chunk ``index`` (games ``index*chunk ...``) and write its shard; its counts."""
    game = make_game(settings.game, num_players=settings.num_players, **settings.options)
    first = index * settings.chunk
    games = range(first, min(first + settings.chunk, settings.games))
    keys = shard_keys(settings.soft_targets)
    rows: dict[str, list] = {k: [] for k in keys}
    decisions = 0
    for g in games:
        one, count = play_recorded(game, settings, g)
        decisions += count
        for key in keys:
            rows[key].extend(one[key])
    width = math.ceil(game.num_actions / 8)
    arrays = {
        "obs": np.asarray(rows["obs"], np.float32).reshape(-1, game.observation_size),
        "mask": np.asarray(rows["mask"], np.uint8).reshape(-1, width),
        "action": np.asarray(rows["action"], np.int32), "seat": np.asarray(rows["seat"], np.int8),
        "game": np.asarray(rows["game"], np.int32), "ret": np.asarray(rows["ret"], np.float32)}
    if settings.soft_targets:
        arrays["target"] = np.asarray(rows["target"], np.float16).reshape(-1, game.num_actions)
    name = f"shard-{index:05d}.npz"
    path = Path(out) / "shards" / name
    tmp = path.with_name(f".{name}.tmp.npz")
    np.savez_compressed(tmp, **arrays)
    tmp.replace(path)
    return {"file": f"shards/{name}", "games": len(games), "rows": int(len(arrays["action"])),
            "decisions": decisions}


def generate(settings: DataSettings, out: str | Path, workers: int | None = None,
             show_progress: bool = True) -> dict[str, Any]:
    """Play ``settings.games`` games in ``workers`` processes (default: every CPU) and
    write the data folder ``out`` (module docstring); returns the manifest.

    Everything is checked before the first game: a bad argument is a
    :class:`ConfigError` / ``AgentSpecError``, an unusable ``out`` a ``UsageError``.
    """
    settings.validate()
    workers = (os.cpu_count() or 1) if workers is None else workers
    _check_int("workers", workers, 1, MAX_WORKERS)
    folder = _prepare_folder(out)
    chunks = math.ceil(settings.games / settings.chunk)
    start = time.perf_counter()
    shards = _run_chunks(settings, str(folder), chunks, min(workers, chunks), show_progress)
    manifest = _manifest(settings, shards, workers, time.perf_counter() - start)
    tmp = folder / ".manifest.json.tmp"
    tmp.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    tmp.replace(folder / "manifest.json")
    return manifest


def _prepare_folder(out: str | Path) -> Path:
    folder = check_output_folder(out, "--out")
    if folder.exists() and any(folder.iterdir()):
        raise ConfigError(f"--out {folder}: the folder is not empty; give a new folder "
                          "(data is never written over)")
    (folder / "shards").mkdir(parents=True, exist_ok=True)
    return folder


def _run_chunks(settings: DataSettings, out: str, chunks: int, workers: int,
                show_progress: bool) -> list[dict[str, Any]]:
    bar = ProgressBar(settings.games, f"{settings.game} imitation games", enabled=show_progress)
    done: dict[int, dict[str, Any]] = {}
    try:
        if workers == 1:
            for i in range(chunks):
                done[i] = play_chunk(settings, i, out)
                bar.update(sum(d["games"] for d in done.values()))
        else:
            with ProcessPoolExecutor(max_workers=workers) as pool:
                futures = {pool.submit(play_chunk, settings, i, out): i for i in range(chunks)}
                for future in as_completed(futures):
                    done[futures[future]] = future.result()
                    bar.update(sum(d["games"] for d in done.values()))
    finally:
        bar.close()
    return [done[i] for i in range(chunks)]


def _manifest(settings: DataSettings, shards: list[dict[str, Any]], workers: int,
              elapsed: float) -> dict[str, Any]:
    game = make_game(settings.game, num_players=settings.num_players, **settings.options)
    return {"format": FORMAT, **asdict(settings),
            "players": "game g: teacher in seat g % num_players, opponents in turn elsewhere",
            "recorded": ("the teacher's labels of the learner's states in the teacher's "
                         "seat (DAgger)") if settings.learner else
                        "decisions of every seat whose spec is the teacher's",
            "seed_scheme": f"chance: SeedSequence(seed, spawn_key=({DATA_STREAM}, g, 0)) "
                           "64-bit with bit 63 set; agents: spawn_key=(..., g, 1)",
            "observation_size": int(game.observation_size),
            "num_actions": int(game.num_actions),
            "rows": sum(s["rows"] for s in shards),
            "decisions": sum(s["decisions"] for s in shards),
            "shards": shards, "workers": workers, "elapsed_s": round(elapsed, 3),
            "created": time.strftime("%Y-%m-%dT%H:%M:%S%z")}


def main(argv: list[str] | None = None) -> int:
    """``python -m formosa_envs.training.imitation.data GAME --games N --out DIR``: write imitation
    data."""
    p = OneLineParser(prog=PROG, description="Record a teacher's decisions for cloning.")
    p.add_argument("game", choices=sorted(GAMES), help="the game")
    p.add_argument("--games", type=int_between(1, MAX_GAMES), required=True,
                   help="games to play")
    p.add_argument("--teacher", default="heuristic", help="the teacher's agent spec "
                   "(default heuristic; e.g. mcts:200:heuristic)")
    p.add_argument("--opponents", default="", help="comma-separated specs of the other "
                   "seats, taken in turn (default: the teacher)")
    p.add_argument("--players", type=int_between(1, 6), default=2, help="players (default 2)")
    p.add_argument("--seed", type=non_negative_int, default=0, help="base seed (default 0)")
    p.add_argument("--chunk", type=int_between(1, MAX_CHUNK), default=50,
                   help="games per shard (default 50)")
    p.add_argument("--workers", type=int_between(1, MAX_WORKERS), default=None,
                   help="worker processes (default: every CPU)")
    p.add_argument("--learner", default="", help="DAgger: this spec (e.g. policy:BC.npz) "
                   "plays the teacher's seat and the teacher labels the states it reaches")
    p.add_argument("--visit-targets", action="store_true", help="also record the "
                   "teacher's root visit shares as soft targets (an mcts teacher)")
    p.add_argument("--value-targets", type=positive_float, default=0.0, metavar="T",
                   help="also record a softmax of the teacher's root values over "
                   "temperature T as soft targets (a flat:M teacher)")
    p.add_argument("--kinds", default="", help="comma-separated decision kinds: record "
                   "only those decisions (e.g. keep_or_cash; default: every decision)")
    p.add_argument("--out", required=True, help="a new (or empty) folder for the data")
    args = p.parse_args(argv)
    opponents = [s.strip() for s in args.opponents.split(",")] if args.opponents else []
    settings = DataSettings(args.game, args.games, args.teacher, opponents, args.players,
                            args.seed, args.chunk, learner=args.learner,
                            visit_targets=args.visit_targets,
                            value_temperature=args.value_targets,
                            kinds=[k.strip() for k in args.kinds.split(",") if k.strip()])
    m = generate(settings, args.out, args.workers)
    print(f"wrote {m['rows']:,} decisions of {m['games']:,} {args.game} games to {args.out} "
          f"in {m['elapsed_s']:.1f} s")
    return 0


def cli(argv: list[str] | None = None) -> int:
    """:func:`main` with bad input reported as one line and status 2."""
    return run_console(PROG, main, argv)


if __name__ == "__main__":
    raise SystemExit(cli())


__all__ = ["FORMAT", "SHARD_KEYS", "DataSettings", "ImitationData", "generate",
           "has_soft_targets", "load_data", "read_manifest", "shard_keys"]
