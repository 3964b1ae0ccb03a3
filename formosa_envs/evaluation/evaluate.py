"""Round-robin tournaments between agents: seat rotation, confidence intervals, ratings.

Example: ``python -m formosa_envs.evaluation.evaluate flowers --agents random,heuristic --players 2
--games 200 --seed 0 --workers 2 --out runs/tournament`` (or ``formosa tournament ...``).

Backends (``--backend``; the results are identical whichever runs the games):

* ``serial`` (default with ``--workers 1``): one loop in this process, for
  small runs, debugging and profiling.
* ``process`` (default with more workers): ``--workers`` processes, for the
  cores of one machine.
* ``ray``: Ray tasks, for a cluster (``[rllib]`` extra, and this project
  installed on every node). Start the cluster with ``ray start --head`` (then
  ``ray start --address HEAD:6379`` on the other machines) and pass
  ``--address auto`` on the head, or ``--address ray://HEAD:10001`` from
  elsewhere; without ``--address`` a local Ray is started.

Rules (all of them deterministic, whatever the number of workers):

* **Tables.** With at least as many agents as seats, one table per combination
  of ``num_players`` distinct agents. With fewer agents than seats, every table
  seats every agent once and fills the spare seats with each multiset of extra
  copies: ``["mcts", "random"]`` for 3 players gives ``(mcts, mcts, random)``
  and ``(mcts, random, random)``. A table of one agent alone is never played.
* **Games.** ``games`` is the number of games *per table*, rounded up to a
  multiple of the ``num_players`` seat rotations. Game ``g`` of a table uses
  rotation ``r = g % num_players``: seat ``i`` gets the table's agent
  ``(i + r) % num_players`` (for 2 players these are all the permutations), so
  every agent of a table sits in every seat equally often.
* **Deals.** The games of one rotation cycle (``deal = g // num_players``) share
  one chance seed: each agent plays every deal from every seat, which takes
  much of the luck out of the comparison.
* **Seeds.** Chance: ``SeedSequence([seed, table, deal, 0])``; agents:
  ``SeedSequence([seed, table, g, 1])``, built fresh from their specs per game.
* **Statistics** count seat appearances (two copies at a table play two "games"
  there). Ranks and wins follow the game's own ordering with its tie-breaks
  (``Game.ranks`` / ``Game.win_shares``: Taiwan Formosa's coins, Dadaocheng's
  credit); a victory the rules leave shared among k seats counts 1/k, and the
  ratings are fed the same ranks. Games are numbered
  round by round (game 0 of every table, then game 1, ...): records and
  ratings follow that order.
"""

from __future__ import annotations

import argparse
import itertools
import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from formosa_envs.agents import Agent, agent_label, make_agent
from formosa_envs.core.errors import ConfigError
from formosa_envs.evaluation import ratings as rt
from formosa_envs.evaluation.backends import BACKENDS, resolve_backend, run_tasks
from formosa_envs.evaluation.ratings import AgentStats
from formosa_envs.evaluation.report import CSV_FIELDS, plot_result, save_result  # noqa: F401 (re-exported)
from formosa_envs.games import GAMES, make_game
from formosa_envs.tools.console import run_console
from formosa_envs.tools.usage import (
    MAX_GAMES,
    MAX_WORKERS,
    OneLineParser,
    check_output_folder,
    int_at_least,
    int_between,
    non_negative_int,
)

PROG = "python -m formosa_envs.evaluation.evaluate"

AgentFactory = Callable[[str, str, int], Agent]


@dataclass
class MatchRecord:
    """One tournament game: who sat where, its seeds and (once played) its results.

    Lists are indexed by seat. The workers receive records with empty results
    (they pickle, agents may not) and send them back filled in.
    """

    index: int
    table: int
    game: int
    seats: list[str]
    specs: list[str]
    chance_seed: int
    agent_seeds: list[int]
    scores: list[float] = field(default_factory=list)
    ranks: list[float] = field(default_factory=list)
    wins: list[float] = field(default_factory=list)
    decisions: int = 0
    truncated: bool = False
    steps: list[list[Any]] | None = None  # [player, action, label] when games are recorded


@dataclass
class TournamentResult:
    """Configuration, per-game records and per-agent statistics of a tournament."""

    config: dict[str, Any]
    tables: list[list[str]]
    records: list[MatchRecord]
    agents: dict[str, AgentStats]
    head_to_head: dict[str, dict[str, dict[str, float]]]
    seat_win_rates: list[float]
    elapsed: float = 0.0
    workers: int = 1
    backend: str = "serial"

    def ranking(self) -> list[AgentStats]:
        """The agents sorted by conservative rating (mu - 3 sigma), best first."""
        return sorted(self.agents.values(), key=lambda a: (-a.ordinal, -a.win_rate, a.name))

    def to_dict(self) -> dict[str, Any]:
        """Everything as JSON-friendly data (agents in ranking order)."""
        runtime = {"elapsed_s": self.elapsed, "workers": self.workers, "backend": self.backend}
        return {"config": self.config, "runtime": runtime,
                "agents": [asdict(a) for a in self.ranking()],
                "head_to_head": self.head_to_head, "seat_win_rates": self.seat_win_rates,
                "tables": self.tables,
                "records": [{k: v for k, v in asdict(r).items() if k != "steps"}
                            for r in self.records]}


def run_tournament(game: str, agents: list[str], num_players: int, games: int, seed: int = 0,
                   workers: int = 1, show_progress: bool = True,
                   agent_factory: AgentFactory = make_agent, backend: str | None = None,
                   address: str | None = None, record_games: bool = False,
                   **options: Any) -> TournamentResult:
    """Play a seat-rotated round robin between the agent specs ``agents`` (module docstring).

    ``games`` counts games per table (rounded up to a multiple of
    ``num_players``). ``agent_factory(spec, game, seed)`` builds the agents (a
    module-level function, so it pickles to the worker processes); ``options``
    are game options. ``backend`` (``serial``, ``process`` or ``ray``; default
    ``serial`` for one worker, else ``process``) says where the games run and
    ``address`` which Ray cluster the ``ray`` backend joins: the result is the
    same whatever the backend. With ``record_games`` every record keeps its
    ``steps`` (see :func:`save_game_records`). Raises :class:`ConfigError` or
    :class:`AgentSpecError` on bad input.
    """
    _validate(game, agents, num_players, games, seed, workers)
    backend = resolve_backend(backend, workers, address)
    make_game(game, num_players=num_players, **options)  # bad options fail here, early
    for spec in agents:
        agent_factory(spec, game, 0)  # unknown specs fail here with make_agent's message
    names = entrant_names(agents)
    tables = make_tables(len(agents), num_players)
    per_table = math.ceil(games / num_players) * num_players
    tasks = _tasks(agents, names, tables, per_table, seed)
    setup = (game, num_players, options, agent_factory, record_games)
    start = time.perf_counter()
    records = run_tasks(setup, tasks, workers, backend, address, show_progress)
    config = {"game": game, "agents": list(agents), "names": names, "num_players": num_players,
              "games_requested": games, "games_per_table": per_table, "seed": seed,
              "options": options, "total_games": len(records)}
    return summarize(config, [[names[i] for i in t] for t in tables], records,
                     elapsed=time.perf_counter() - start, workers=workers, backend=backend)


def _validate(game: str, specs: list[str], num_players: int, games: int, seed: int,
              workers: int) -> None:
    if game not in GAMES:
        raise ConfigError(f"unknown game {game!r}; available: {sorted(GAMES)}")
    low, high = GAMES[game].min_players, GAMES[game].max_players
    checks = [(low <= num_players <= high, f"{game} is played by {low}-{high} players, "
                                           f"got {num_players}"),
              (num_players >= 2, "a tournament seats at least 2 players per table (ratings "
                                 f"compare players), got {num_players}; evaluate a solo "
                                 "agent with formosa train or "
                                 "formosa_envs.evaluation.solo.solo_share"),
              (games >= 1, f"games must be at least 1, got {games}"),
              (len(specs) >= 2, f"a tournament needs at least two agents, got {list(specs)}"),
              (seed >= 0, f"seed must be non-negative, got {seed}"),
              (workers >= 1, f"workers must be at least 1, got {workers}")]
    for ok, message in checks:
        if not ok:
            raise ConfigError(message)


def entrant_names(specs: list[str]) -> list[str]:
    """Display names of the entrants: ``agent_label``, with ``#2``, ``#3`` on repeats."""
    names: list[str] = []
    for spec in specs:
        base, k = agent_label(spec), 1
        name = base
        while name in names:
            k += 1
            name = f"{base}#{k}"
        names.append(name)
    return names


def make_tables(num_agents: int, num_players: int) -> list[tuple[int, ...]]:
    """Agent indices of each table (see the module docstring for the rule)."""
    if num_agents >= num_players:
        return list(itertools.combinations(range(num_agents), num_players))
    extras = itertools.combinations_with_replacement(range(num_agents),
                                                     num_players - num_agents)
    return [tuple(sorted((*range(num_agents), *extra))) for extra in extras]


def _tasks(specs: list[str], names: list[str], tables: list[tuple[int, ...]],
           per_table: int, seed: int) -> list[MatchRecord]:
    tasks = []
    for g, (t, table) in itertools.product(range(per_table), enumerate(tables)):
        n = len(table)
        seats = [table[(i + g) % n] for i in range(n)]
        chance = np.random.SeedSequence([seed, t, g // n, 0]).generate_state(1)[0]
        agent_seeds = np.random.SeedSequence([seed, t, g, 1]).generate_state(n)
        tasks.append(MatchRecord(len(tasks), t, g, [names[i] for i in seats],
                                 [specs[i] for i in seats], int(chance),
                                 [int(s) for s in agent_seeds]))
    return tasks


def summarize(config: dict[str, Any], tables: list[list[str]], records: list[MatchRecord],
              elapsed: float = 0.0, workers: int = 1, backend: str = "serial"
              ) -> TournamentResult:
    """Aggregate per-game records (in schedule order) into a :class:`TournamentResult`."""
    n = config["num_players"]
    stats = {}
    for name, spec in zip(config["names"], config["agents"], strict=True):
        seen = [(r.scores[i], r.ranks[i], r.wins[i], i) for r in records
                for i, seat in enumerate(r.seats) if seat == name]
        stats[name] = rt.agent_stats(name, spec, seen, n)
    skill = rt.openskill_from_ranks([(r.seats, r.ranks) for r in records])
    for name, (mu, sigma) in skill.items():
        stats[name].mu, stats[name].sigma, stats[name].ordinal = mu, sigma, mu - 3 * sigma
    seat_wins = np.array([r.wins for r in records]).mean(axis=0) if records else np.zeros(n)
    config = {**config, "truncated_games": sum(r.truncated for r in records)}
    h2h = rt.head_to_head([(r.seats, r.wins) for r in records]) if n == 2 else {}
    return TournamentResult(config, tables, records, stats, h2h,
                            [float(x) for x in seat_wins], elapsed, workers, backend)


def win_share(result: TournamentResult, agent: str, against: str | None = None
              ) -> dict[str, float]:
    """``agent``'s win share (games, wins, win_rate, win_low, win_high) over its seats.

    ``agent`` and ``against`` are specs or names; with ``against``, only the
    games where that other agent also sits count.
    """
    games, wins = 0, 0.0
    for r in result.records:
        if against is not None and not any(against in (name, spec) and agent not in (name, spec)
                                           for name, spec in zip(r.seats, r.specs, strict=True)):
            continue
        for i, (name, spec) in enumerate(zip(r.seats, r.specs, strict=True)):
            if agent in (name, spec):
                games, wins = games + 1, wins + r.wins[i]
    low, high = rt.wilson_interval(wins, games)
    return {"games": games, "wins": wins, "win_rate": wins / games if games else 0.0,
            "win_low": low, "win_high": high}


def format_table(result: TournamentResult) -> str:
    """A fixed-width report: one row per agent, best rating first, then head-to-head."""
    cfg = result.config
    width = max(12, *(len(a.name) for a in result.ranking()))
    lines = [f"{cfg['game']}, {cfg['num_players']} players: {len(result.tables)} table(s) x "
             f"{cfg['games_per_table']} games = {cfg['total_games']} games "
             f"({cfg['truncated_games']} truncated), seed {cfg['seed']}",
             f"{'#':>2} {'agent':<{width}} {'games':>6} {'win rate [95% CI]':>22} "
             f"{'mean score +/- CI':>18} {'rank':>5} {'mu':>6} {'sigma':>6} {'mu-3s':>7}"]
    for pos, a in enumerate(result.ranking(), 1):
        ci = f"{a.win_rate:6.1%} [{a.win_low:5.1%},{a.win_high:6.1%}]"
        score = f"{a.mean_score:8.1f} +/- {a.score_high - a.mean_score:5.1f}"
        lines.append(f"{pos:>2} {a.name:<{width}} {a.games:>6} {ci:>22} {score:>18} "
                     f"{a.mean_rank:>5.2f} {a.mu:>6.2f} {a.sigma:>6.2f} {a.ordinal:>7.2f}")
    lines.append("seat win rates: " + "  ".join(
        f"seat {i} {w:.1%}" for i, w in enumerate(result.seat_win_rates)))
    return "\n".join(lines + _h2h_lines(result, width))


def _h2h_lines(result: TournamentResult, width: int) -> list[str]:
    if not result.head_to_head:
        return []
    order = [a.name for a in result.ranking()]
    cols = [name[:10] for name in order]
    lines = ["head-to-head (row's win rate against column):",
             " " * (width + 3) + " ".join(f"{c:>10}" for c in cols)]
    for a in order:
        cells = [result.head_to_head.get(a, {}).get(b) for b in order]
        lines.append(f"   {a:<{width}}" + " ".join(
            f"{c['win_rate']:>10.1%}" if c else f"{'-':>10}" for c in cells))
    return lines


def build_parser(prog: str = PROG) -> argparse.ArgumentParser:
    """Command-line arguments of ``python -m formosa_envs.evaluation.evaluate`` (``prog``:
    the name usage and errors print, ``formosa tournament`` from the CLI)."""
    p = OneLineParser(prog=prog, description="Seat-rotated round-robin tournament between agents.")
    p.add_argument("game", help=f"game name: {', '.join(sorted(GAMES))}")
    p.add_argument("--agents", required=True,
                   help="comma-separated agent specs, e.g. random,heuristic,mcts:200,policy:m.npz")
    p.add_argument("--players", type=int_at_least(2), default=2,
                   help="seats per table, >= 2 and within the game's player range (default 2)")
    p.add_argument("--games", type=int_between(1, MAX_GAMES), default=100,
                   help="games PER TABLE (one table per combination of agents), rounded up to "
                        "a multiple of --players so every seat rotation is played equally "
                        f"(1 to {MAX_GAMES:,}; default 100)")
    p.add_argument("--seed", type=non_negative_int, default=0,
                   help="master seed, a whole number >= 0 (default 0)")
    p.add_argument("--workers", type=int_between(1, MAX_WORKERS), default=1,
                   help="worker processes of --backend process; with --backend ray it only "
                        "sizes the chunks of games (about 8 per worker): Ray runs as many "
                        f"chunks at once as the cluster has CPUs (1 to {MAX_WORKERS}; default 1)")
    p.add_argument("--backend", choices=BACKENDS, default=None,
                   help="where games run: serial (this process: small runs, debugging), "
                        "process (--workers processes: one machine's cores), ray (Ray tasks: "
                        "a cluster, needs the [rllib] extra) (default: serial with --workers 1, "
                        "else process)")
    p.add_argument("--address", default=None,
                   help="Ray cluster to join, only with --backend ray: 'auto' for the cluster "
                        "started on this machine with 'ray start --head', or ray://HOST:10001 "
                        "(default: start a local Ray)")
    p.add_argument("--out", default=None, help="folder for tournament.csv/.json/.png")
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                   help="game option, e.g. -o current_month=5 (repeatable)")
    p.add_argument("--record", default=None, metavar="DIR",
                   help="save every game as a JSON record in DIR (formosa replay FILE)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def run(argv: list[str] | None = None, prog: str = PROG) -> int:
    """Run a tournament from the command line, print the table, optionally save files.

    A bad command line exits with status 2 (one line); bad options, agent specs and
    unusable ``--out``/``--record`` folders raise a :class:`FormosaError` before any game
    is played (:func:`main` prints those as one line, status 2; ``formosa tournament``
    prints them under its own name).
    """
    from formosa_envs.cli import parse_options
    args = build_parser(prog).parse_args(argv)
    specs = [s.strip() for s in args.agents.split(",") if s.strip()]
    options = parse_options(args.option)
    _check_destinations(args)
    try:
        result = run_tournament(args.game, specs, args.players, args.games, seed=args.seed,
                                workers=args.workers, show_progress=not args.quiet,
                                backend=args.backend, address=args.address,
                                record_games=bool(args.record), **options)
    except (ImportError, ConnectionError) as exc:  # no Ray, or its cluster is unreachable
        where = f"--backend {args.backend}: " if args.backend else ""
        raise ConfigError(f"{where}{exc}") from None
    print(format_table(result))
    if args.record:  # first: the games are the costliest output
        paths = save_game_records(result, args.record)
        print(f"wrote {len(paths)} game records to {args.record}")
    if args.out:
        for path in save_result(result, args.out).values():
            print(f"wrote {path}")
    return 0


def _check_destinations(args: argparse.Namespace) -> None:
    """``--record`` and ``--out`` must be usable folders, checked before any game."""
    from formosa_envs.tools.record import check_record_folder
    if args.record:
        check_record_folder(args.record)
    if args.out:
        check_output_folder(args.out, "--out")


def main(argv: list[str] | None = None) -> int:
    """``python -m formosa_envs.evaluation.evaluate``: :func:`run`, bad input as one line and
    status 2."""
    return run_console(PROG, run, argv)


cli = main  # the same name as the other training entry points


def save_game_records(result: TournamentResult, folder: str | Path) -> list[Path]:
    """Write each recorded game as ``game_<index>.json`` (needs ``record_games=True``)."""
    from formosa_envs.tools.record import new_record, save_record
    cfg, paths = result.config, []
    for r in result.records:
        if r.steps is None:
            raise ConfigError("the tournament was run without record_games=True")
        record = new_record(cfg["game"], cfg["num_players"], cfg["options"], r.chance_seed,
                            r.specs, r.steps, r.scores, r.truncated)
        paths.append(save_record(record, Path(folder) / f"game_{r.index:05d}.json"))
    return paths


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
