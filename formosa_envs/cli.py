"""The ``formosa`` command: list, info, play, serve, simulate, replay, train, tournament,
bench.

Examples::

    formosa list
    formosa info flowers --players 3
    formosa play flowers --players 2 --seats human,random
    formosa serve                              # play in the browser ([web] extra)
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

from formosa_envs.agents import AgentSpecError
from formosa_envs.agents import make_agent as build_agent
from formosa_envs.cli_handover import cmd_tournament, cmd_train, exit_status
from formosa_envs.core.errors import FormosaError
from formosa_envs.games import GAMES, make_game
from formosa_envs.tools.usage import (
    MAX_GAMES,
    USAGE_ERROR,
    OneLineParser,
    UsageError,
    check_output_folder,
    int_between,
    non_negative_int,
    one_line,
    positive_float,
    positive_int,
)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``formosa`` console script.

    Bad input (arguments, options, agent specs, files and folders) ends with one
    line on stderr, ``formosa CMD: error: ...``, and exit status 2; a genuine bug
    still raises with its traceback.
    """
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = _parse(parser, argv)
    except SystemExit as exc:  # argparse: -h (0) or a bad command line (2)
        return exit_status(exc)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    try:
        return int(args.run(args) or 0)
    except (FormosaError, AgentSpecError) as exc:
        return _fail(args.command, str(exc))
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (formosa ... | head): stop quietly
        _silence_stdout()
        return 1
    except OSError as exc:  # a file or folder named on the command line
        if exc.filename is None:
            raise
        return _fail(args.command, f"{exc.filename}: {exc.strerror or exc}")


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so Python's final flush does not fail a second time."""
    import os
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def _parse(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    if argv and argv[0] in ("train", "tournament"):  # these parse their own flags
        return argparse.Namespace(command=argv[0], rest=argv[1:],
                                  run=cmd_train if argv[0] == "train" else cmd_tournament)
    return parser.parse_args(argv)


def _fail(command: str, message: str) -> int:
    """Print ``formosa CMD: error: MESSAGE`` as one line; the CLI's usage-error status."""
    print(f"formosa {command}: error: {one_line(message)}", file=sys.stderr)
    return USAGE_ERROR


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with one sub-command per tool."""
    parser = OneLineParser(prog="formosa", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("list", help="list the games").set_defaults(run=cmd_list)
    info = _game_parser(sub, "info", "show a game's action segments and observation pieces")
    info.set_defaults(run=cmd_info)
    play = _game_parser(sub, "play", "play in the terminal (human and agent seats)")
    play.add_argument("--seats", default="human,random", help=_seats_help())
    play.add_argument("--compact", action="store_true", default=True,
                      help="after your first decision show only what changed on the table "
                           "since your last one; t at the prompt shows it all (default)")
    play.add_argument("--full", dest="compact", action="store_false",
                      help="reprint the whole table at every decision")
    play.add_argument("--seed", type=non_negative_int, default=None,
                      help="seed for chance and agents (>= 0)")
    play.add_argument("--record", default=None, metavar="FILE",
                      help="save the finished game as a JSON record (formosa replay FILE); "
                           "checked before the game starts")
    play.set_defaults(run=cmd_play)
    _serve_parser(sub)
    sim = _game_parser(sub, "simulate", "simulate random games and summarise them")
    sim.add_argument("--games", type=int_between(1, MAX_GAMES), default=1000,
                     help=f"number of games, 1 to {MAX_GAMES:,} (default 1000)")
    sim.add_argument("--seed", type=non_negative_int, default=0, help="master seed (>= 0)")
    sim.add_argument("--agents", default="random",
                     help="agent spec per seat, comma-separated (one spec for all seats)")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.add_argument("--record", default=None, metavar="DIR",
                     help="save every game as a JSON record in DIR (game_00000.json, ...)")
    sim.set_defaults(run=cmd_simulate)
    replay = sub.add_parser("replay", help="write a game record as an HTML replay page")
    replay.add_argument("record", help="a game record (.json) from --record")
    replay.add_argument("--out", default=None, help="the page to write (default: FILE.html)")
    replay.add_argument("--viewer", type=non_negative_int, default=None,
                        help="show the table as this seat sees it (default: everything)")
    replay.set_defaults(run=cmd_replay)
    train = sub.add_parser("train", help="train an agent: MaskablePPO ([train] extra), or "
                           "--backend rllib ([rllib]), jax ([jax]) or afterstate",
                           add_help=False)
    train.set_defaults(run=cmd_train)
    tour = sub.add_parser("tournament", help="agents vs agents, seats rotated, with ratings",
                          add_help=False)
    tour.set_defaults(run=cmd_tournament)
    bench = _game_parser(sub, "bench", "decisions/s vs PettingZoo connect_four_v3")
    bench.add_argument("--seconds", type=positive_float, default=6.0,
                       help="total time per contender (seconds, > 0)")
    bench.add_argument("--backend", choices=("python", "jax"), default="python",
                       help="python: the engines and env() (default); jax: the batched JAX "
                            "Flowers engine vs PGX connect four, or Dadaocheng vs PGX sparrow "
                            "mahjong and Leduc hold'em ([jax] extra)")
    bench.add_argument("--batch", type=int_between(1, 1 << 20), nargs="+", default=[1024],
                       help="--backend jax: games played at once (default 1024)")
    bench.set_defaults(run=cmd_bench)
    return parser


def _seats_help() -> str:
    """The --seats help, generated from the agent registry so no kind is left out."""
    from formosa_envs.agents import agent_kinds, agent_usage
    usages = [agent_usage(kind) for kind in agent_kinds()]
    return ("comma-separated, one seat per player: human (a person at this terminal; moves "
            "are numbered from 1) or an agent: " + ", ".join(usages) +
            " (default human,random)")


def _serve_parser(sub: Any) -> None:
    """``formosa serve [--host H] [--port P] [--games-dir DIR] [--agents-dir DIR] [caps]``."""
    serve = sub.add_parser("serve", help="play against the agents in a browser (a local web "
                           "app; needs the [web] extra)")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: this machine only; any "
                            "other address lets anyone who can reach the port start and play "
                            "games, and turns the Host check off)")
    serve.add_argument("--port", type=int_between(0, 65535), default=8000,
                       help="port to listen on (default 8000)")
    serve.add_argument("--games-dir", default="formosa-games", metavar="DIR",
                       help="folder of the game records, written after every move; games "
                            "in progress there are resumed on start. A record of a game in "
                            "progress holds every draw to come: the folder is made 0700 and "
                            "the records 0600 (default formosa-games)")
    serve.add_argument("--agents-dir", metavar="DIR",
                       help="offer the agent files of DIR: a seat may then be policy:NAME or "
                            "az:NAME[:N], NAME a regular file of DIR (chosen by name, never by "
                            "path). Without it a request may seat only agents that read no "
                            "file (human, random, heuristic, mcts, pretrained). rllib: is "
                            "never offered: loading an RLlib checkpoint unpickles it, which "
                            "runs any code the files hold")
    caps = [("--max-simulations", int_between(1, 1_000_000), 2000,
             "the most search simulations per move a seat may ask for (default 2000)"),
            ("--max-think-seconds", positive_float, 10.0,
             "wall-clock cap of one agent move's search (default 10)"),
            ("--max-games", int_between(1, 100_000), 100,
             "games in progress held at once; one more is refused (503) (default 100)"),
            ("--header-timeout", positive_float, 10.0,
             "seconds a connection may take to send a request, headers and body "
             "(default 10)")]
    for flag, kind, default, text in caps:
        serve.add_argument(flag, type=kind, default=default, help=text)
    serve.set_defaults(run=cmd_serve)


def _game_parser(sub: Any, name: str, help_text: str) -> argparse.ArgumentParser:
    p = sub.add_parser(name, help=help_text)
    p.add_argument("game", choices=sorted(GAMES), help="game name")
    p.add_argument("--players", type=positive_int, default=2, help="number of players")
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                   help="game option, e.g. -o current_month=5 (repeatable)")
    return p


def parse_options(items: list[str]) -> dict[str, Any]:
    """Turn ``["current_month=5", "card_file=x.toml"]`` into typed keyword options."""
    options: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"-o {item!r}: an option must look like KEY=VALUE")
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


def game_from_args(args: argparse.Namespace) -> tuple[Any, dict[str, Any]]:
    """The game of ``args`` (``--players``, ``-o``) and its options, built to check them
    (and the data files they name) before any other work."""
    options = parse_options(args.option)
    return make_game(args.game, num_players=args.players, **options), options


def make_agent(spec: str, game: str, seed: int | None, flag: str = "--agents") -> Any:
    """An agent from its spec (random, heuristic, mcts:N, policy:PATH), seeded; a spec
    that cannot be built (unknown kind, missing or foreign file) is a usage error."""
    try:
        return build_agent(spec, game, seed=seed)
    except (ValueError, OSError) as exc:  # AgentSpecError, or a file that is no policy
        text = str(exc) if not isinstance(exc, OSError) or not exc.filename else \
            f"{exc.filename}: {exc.strerror}"
        if flag == "--seats" and "unknown agent" in text:
            text += "; a seat may also be human (a person at this terminal)"
        raise UsageError(f"{flag} {spec!r}: {text}") from None


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
    game, _ = game_from_args(args)
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
    """Play one game in the terminal (the --record destination is checked first)."""
    from formosa_envs.tools.play import HumanSeat, play_session
    from formosa_envs.tools.usage import check_output_file
    _, options = game_from_args(args)
    names = [n.strip() for n in args.seats.split(",")]
    if len(names) != args.players or not all(names):
        raise UsageError(f"--seats {args.seats!r}: name one seat per player ({args.players} "
                         "for --players), e.g. human,random")
    if args.record:
        check_output_file(args.record, "--record")
    seats = [HumanSeat(compact=args.compact) if n == "human" else
             make_agent(n, args.game, None if args.seed is None else args.seed + i, "--seats")
             for i, n in enumerate(names)]
    play_session(args.game, args.players, seats, args.seed, record_path=args.record,
                 names=names, **options)
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve the browser app (the [web] extra) until interrupted."""
    from pathlib import Path

    from formosa_envs.web import WEB_HINT, missing_web_modules
    if missing_web_modules():
        raise FormosaError(f"{WEB_HINT} ({', '.join(missing_web_modules())} missing)")
    check_output_folder(args.games_dir, "--games-dir")
    agents_dir = None if args.agents_dir is None else Path(args.agents_dir)
    if agents_dir is not None and not agents_dir.is_dir():
        raise UsageError(f"--agents-dir {args.agents_dir}: not a folder")
    from formosa_envs.web.seats import ServeLimits
    from formosa_envs.web.server import serve
    limits = ServeLimits(agents_dir, args.max_simulations, args.max_think_seconds,
                         args.max_games)
    return serve(args.host, args.port, args.games_dir, limits=limits,
                 header_timeout=args.header_timeout)


def cmd_simulate(args: argparse.Namespace) -> int:
    """Simulate games and print the summary (--record checked before the first game)."""
    from formosa_envs.tools.simulate import simulate, summarize
    _, options = game_from_args(args)
    names = [n.strip() for n in args.agents.split(",")]
    names = names * args.players if len(names) == 1 else names
    if len(names) != args.players or not all(names):
        raise UsageError(f"--agents {args.agents!r}: give one spec for all seats or one per "
                         f"seat ({args.players} for --players)")
    agents = [make_agent(n, args.game, args.seed + 1000 * (i + 1)) for i, n in enumerate(names)]
    summary = simulate(args.game, args.players, args.games, args.seed, agents,
                       show_progress=not args.quiet, record_dir=args.record, names=names,
                       **options)
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


def cmd_bench(args: argparse.Namespace) -> int:
    """Measure and print decisions per second."""
    from formosa_envs.tools.bench import format_bench, run_bench
    _, options = game_from_args(args)
    if args.backend == "jax":
        return _bench_jax(args, options)
    results = run_bench(args.game, args.players, args.seconds, **options)
    print(format_bench(results, args.game, args.players))
    return 0


def _bench_jax(args: argparse.Namespace, options: dict) -> int:
    """``formosa bench flowers|dadaocheng --backend jax``: the batched JAX engine (compile
    time apart)."""
    import importlib.util
    if args.game not in ("flowers", "dadaocheng"):
        raise FormosaError(f"--backend jax: flowers and dadaocheng have JAX engines, got "
                           f"{args.game}")
    if options:
        raise FormosaError(f"--backend jax: game options are not supported here, got "
                           f"{sorted(options)}")
    if importlib.util.find_spec("jax") is None:
        raise FormosaError("--backend jax needs the [jax] extra: pip install -e '.[jax]'")
    from formosa_envs.jax import bench
    if args.game == "dadaocheng":
        steps = 20
        rows = bench.dadaocheng_rows(args.batch, args.players, steps)
        print(bench.format_dadaocheng(rows, args.players, steps))
        return 0
    steps = 200
    print(bench.format_rows(bench.bench_rows(args.batch, args.players, steps), args.players,
                            steps))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
