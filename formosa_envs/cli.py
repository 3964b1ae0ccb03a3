"""The ``formosa`` command: list, info, play, simulate, replay, train, tournament, bench.

Examples::

    formosa list
    formosa info flowers --players 3
    formosa play flowers --players 2 --seats human,random
    formosa simulate flowers --players 3 --games 1000 --seed 0
    formosa bench flowers --players 2 --seconds 10
    formosa simulate tea --games 5 --agents heuristic --record games/   # JSON game records
    formosa replay games/game_00000.json       # a self-contained HTML replay page
    formosa train flowers                      # needs the [train] extra
    formosa train tea --backend rllib --runners 2   # Ray RLlib, needs the [rllib] extra
    formosa tournament flowers --agents random,heuristic,mcts:50 --games 100
    formosa tournament flowers --agents random,heuristic --backend ray --workers 4
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from agents import AGENT_KINDS, AgentSpecError
from agents import make_agent as build_agent
from formosa_envs.core.errors import FormosaError
from formosa_envs.games import GAMES, make_game


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``formosa`` console script."""
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in ("train", "tournament"):  # these parse their own flags
        args = argparse.Namespace(command=argv[0], rest=argv[1:],
                                  run=cmd_train if argv[0] == "train" else cmd_tournament)
    else:
        args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    try:
        return int(args.run(args) or 0)
    except FormosaError as exc:
        print(f"formosa: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with one sub-command per tool."""
    parser = argparse.ArgumentParser(prog="formosa", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("list", help="list the games").set_defaults(run=cmd_list)
    info = _game_parser(sub, "info", "show a game's action segments and observation pieces")
    info.set_defaults(run=cmd_info)
    play = _game_parser(sub, "play", "play in the terminal (human and agent seats)")
    play.add_argument("--seats", default="human,random",
                      help="comma-separated seats: human, random, heuristic, mcts[:N], "
                           "policy:PATH.npz, rllib:CHECKPOINT[@MODULE]")
    play.add_argument("--seed", type=int, default=None, help="seed for chance and agents")
    play.add_argument("--record", default=None, metavar="FILE",
                      help="save the finished game as a JSON record (formosa replay FILE)")
    play.set_defaults(run=cmd_play)
    sim = _game_parser(sub, "simulate", "simulate random games and summarise them")
    sim.add_argument("--games", type=int, default=1000)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--agents", default="random",
                     help="agent spec per seat, comma-separated (one spec for all seats)")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.add_argument("--record", default=None, metavar="DIR",
                     help="save every game as a JSON record in DIR (game_00000.json, ...)")
    sim.set_defaults(run=cmd_simulate)
    replay = sub.add_parser("replay", help="write a game record as an HTML replay page")
    replay.add_argument("record", help="a game record (.json) from --record")
    replay.add_argument("--out", default=None, help="the page to write (default: FILE.html)")
    replay.add_argument("--viewer", type=int, default=None,
                        help="show the table as this seat sees it (default: everything)")
    replay.set_defaults(run=cmd_replay)
    train = sub.add_parser("train", help="self-play training: MaskablePPO ([train] extra) or "
                           "--backend rllib ([rllib] extra)",
                           add_help=False)
    train.set_defaults(run=cmd_train)
    tour = sub.add_parser("tournament", help="agents vs agents, seats rotated, with ratings",
                          add_help=False)
    tour.set_defaults(run=cmd_tournament)
    bench = _game_parser(sub, "bench", "decisions/s vs PettingZoo connect_four_v3")
    bench.add_argument("--seconds", type=float, default=6.0, help="total time per contender")
    bench.set_defaults(run=cmd_bench)
    return parser


def _game_parser(sub: Any, name: str, help_text: str) -> argparse.ArgumentParser:
    p = sub.add_parser(name, help=help_text)
    p.add_argument("game", choices=sorted(GAMES), help="game name")
    p.add_argument("--players", type=int, default=2, help="number of players")
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                   help="game option, e.g. -o current_month=5 (repeatable)")
    return p


def parse_options(items: list[str]) -> dict[str, Any]:
    """Turn ``["current_month=5", "card_file=x.toml"]`` into typed keyword options."""
    options: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise FormosaError(f"option {item!r} must look like KEY=VALUE")
        options[key.strip()] = _typed(raw.strip())
    return options


def _typed(raw: str) -> Any:
    if raw.lower() in ("none", "null"):
        return None
    if raw.lower() in ("true", "false"):
        return raw.lower() == "true"
    try:
        return int(raw)
    except ValueError:
        return raw


def make_agent(spec: str, game: str, seed: int | None) -> Any:
    """An agent from its spec (random, heuristic, mcts:N, policy:PATH), seeded."""
    try:
        return build_agent(spec, game, seed=seed)
    except (AgentSpecError, FileNotFoundError) as exc:
        raise FormosaError(f"{exc} (kinds: {', '.join(AGENT_KINDS)}, or human in play)") \
            from None


def cmd_list(args: argparse.Namespace) -> int:
    """Print the game catalogue."""
    for info in GAMES.values():
        game = make_game(info.name, num_players=info.min_players)
        print(f"{info.name:10} {info.env_id:22} {info.title:18} "
              f"{info.min_players}-{info.max_players} players  actions {game.num_actions}  "
              f"observation {game.observation_size}")
    return 0


def cmd_info(args: argparse.Namespace) -> int:
    """Print action segments and observation pieces of one game."""
    game = make_game(args.game, num_players=args.players, **parse_options(args.option))
    print(f"{args.game}: {game.num_actions} actions, observation {game.observation_size}, "
          f"state {game.state_size}, max_game_length {game.max_game_length}")
    print("options (-o KEY=VALUE):")
    for key, value in game.config_dict().items():
        print(f"  {key} = {value!r}")
    print("actions:")
    for name, first, size, doc in game.action_space.describe():
        print(f"  {first:>5}..{first + size - 1:<5} {name}[{size}]  {doc}")
    print("observation pieces:")
    for name, offset, shape, doc in game.observation_pieces():
        print(f"  {offset:>5} {name}{list(shape)}  {doc}")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """Play one game in the terminal."""
    from formosa_envs.tools.play import HumanSeat, play_session
    names = [n.strip() for n in args.seats.split(",") if n.strip()]
    if len(names) != args.players:
        raise FormosaError(f"--seats names {len(names)} seat(s) but --players is "
                           f"{args.players}")
    seats = [HumanSeat() if n == "human" else
             make_agent(n, args.game, None if args.seed is None else args.seed + i)
             for i, n in enumerate(names)]
    play_session(args.game, args.players, seats, args.seed, record_path=args.record,
                 names=names, **parse_options(args.option))
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    """Simulate games and print the summary."""
    from formosa_envs.tools.simulate import simulate, summarize
    if args.games < 1:
        raise FormosaError(f"--games must be at least 1, got {args.games}")
    names = args.agents.split(",")
    names = names * args.players if len(names) == 1 else names
    if len(names) != args.players:
        raise FormosaError(f"--agents names {len(names)} agents for {args.players} players")
    agents = [make_agent(n, args.game, args.seed + 1000 * (i + 1)) for i, n in enumerate(names)]
    if args.record:
        from formosa_envs.tools.record import check_record_folder
        check_record_folder(args.record)
    summary = simulate(args.game, args.players, args.games, args.seed, agents,
                       show_progress=not args.quiet, record_dir=args.record, names=names,
                       **parse_options(args.option))
    print(summarize(summary))
    if args.record:
        print(f"wrote {args.games} game records to {args.record}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Write the HTML replay page of one game record."""
    from formosa_envs.tools.replay import write_replay
    path = write_replay(args.record, args.out, args.viewer)
    print(f"wrote {path} (open it in a browser: arrow keys, Home/End, Space)")
    return 0


def _extra(module: str) -> Any:
    """Import a training module, or explain which extra to install."""
    import importlib
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise FormosaError(f"this command needs the training extras ({exc.name} is missing): "
                           "pip install -e '.[train]'") from None


def cmd_train(args: argparse.Namespace) -> int:
    """Hand over to ``training.train`` (its own flags: ``formosa train -h``)."""
    return _hand_over("training.train", args.rest)


def cmd_tournament(args: argparse.Namespace) -> int:
    """Hand over to ``training.evaluate`` (its own flags: ``formosa tournament -h``)."""
    return _hand_over("training.evaluate", args.rest)


def _hand_over(module: str, argv: list[str]) -> int:
    main_fn = _extra(module).main
    try:
        return int(main_fn(argv) or 0)
    except (ValueError, FileNotFoundError) as exc:  # bad options, specs, files
        raise FormosaError(str(exc)) from None


def cmd_bench(args: argparse.Namespace) -> int:
    """Measure and print decisions per second."""
    from formosa_envs.tools.bench import format_bench, run_bench
    results = run_bench(args.game, args.players, args.seconds)
    print(format_bench(results, args.game, args.players))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
