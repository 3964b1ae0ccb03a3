"""What a new game's request may ask for, checked before anything is built.

A request is a JSON object::

    {"game": "flowers", "num_players": 2, "options": {"target_vp": 30},
     "seats": ["human", "mcts:200"], "seed": 7}

``options`` and ``seed`` may be left out (a fresh seed is drawn). Every option key
must be one of the game's declared options (:func:`option_specs`), then the values
are checked by the game's own configuration (its message names the option); options
naming data files on the server's disk are refused. Every seat is ``human`` or an
agent spec the web may seat (:mod:`.seats`: no kind that reads a file of the server,
search budgets within the server's limits), built once here so that a bad spec is
refused with its message.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from formosa_envs.core.config import option_specs
from formosa_envs.core.errors import FormosaError
from formosa_envs.games import GAMES, make_game

from .errors import bad_request, clip
from .seats import DIR_KINDS, HUMAN, WEB_KINDS, ServeLimits, agent_files, build_agent

REQUEST_KEYS = ("game", "num_players", "options", "seats", "seed")
SEED_LIMIT = 2**31
SPEC_EXAMPLES = (HUMAN, "random", "heuristic", "mcts:100", "mcts:400", "pretrained")


@dataclass(frozen=True)
class GameSpec:
    """A checked request: the game, its player count and options, the seats, the seed."""

    game: str
    num_players: int
    options: dict[str, Any] = field(default_factory=dict)
    seats: tuple[str, ...] = ()
    seed: int = 0

    @property
    def humans(self) -> list[int]:
        """The seats played by people at the screen."""
        return [seat for seat, spec in enumerate(self.seats) if spec == HUMAN]


def parse_new_game(body: Any, limits: ServeLimits | None = None) -> GameSpec:
    """The :class:`GameSpec` of a request body (seats within ``limits``, default the
    server's defaults); a 400 :class:`WebError` names the fault."""
    if not isinstance(body, dict):
        raise bad_request(f"a new game is a JSON object with {', '.join(REQUEST_KEYS)}; "
                          f"got {type(body).__name__}")
    unknown = sorted(set(body) - set(REQUEST_KEYS))
    if unknown:
        raise bad_request(f"unknown field(s) {clip(repr(unknown), 80)}; a new game takes "
                          f"{list(REQUEST_KEYS)}")
    name = body.get("game")
    if not isinstance(name, str) or name not in GAMES:
        raise bad_request(f"unknown game {name!r:.40}; available: {sorted(GAMES)}")
    players = _players(name, body.get("num_players"))
    options = _options(name, players, body.get("options", {}))
    seats = _seats(name, players, body.get("seats"), limits or ServeLimits())
    return GameSpec(name, players, options, seats, _seed(body.get("seed")))


def _players(name: str, value: Any) -> int:
    info = GAMES[name]
    if isinstance(value, bool) or not isinstance(value, int) or \
            not info.min_players <= value <= info.max_players:
        raise bad_request(f"num_players: {info.title} is played by {info.min_players}-"
                          f"{info.max_players} players, got {value!r:.40}")
    return value


def _options(name: str, players: int, options: Any) -> dict[str, Any]:
    """The options, checked by building the game with them."""
    if not isinstance(options, dict):
        raise bad_request(f"options must be a JSON object of option: value, got {options!r:.60}")
    specs = option_specs(config_class(name))
    known = [key for key in specs if key != "num_players"]
    for key in options:
        if key == "num_players":
            raise bad_request("option 'num_players': give the player count as num_players, "
                              "outside options")
        if key not in known:
            raise bad_request(f"unknown option {clip(repr(key), 40)} for {name}; its options "
                              f"are {known}")
        if specs[key].kind == "path":
            raise bad_request(f"option {key!r} names a data file on the server; the web app "
                              "plays the packaged data (use formosa play for data files)")
    try:
        make_game(name, num_players=players, **options)
    except FormosaError as exc:
        raise bad_request(clip(str(exc))) from None
    return dict(options)


def _seats(name: str, players: int, seats: Any, limits: ServeLimits) -> tuple[str, ...]:
    """One spec per seat: ``human`` or an agent spec the web may seat, that builds."""
    if not isinstance(seats, list) or len(seats) != players or \
            not all(isinstance(s, str) and s.strip() for s in seats):
        raise bad_request(f"seats must list {players} seat(s) ('human' or an agent spec such "
                          f"as 'random'), got {seats!r:.80}")
    for seat, spec in enumerate(seats):
        if spec.strip() != HUMAN:
            build_agent(spec.strip(), name, seat, 0, limits)
    return tuple(s.strip() for s in seats)


def _seed(value: Any) -> int:
    if value is None:
        return int(np.random.SeedSequence().generate_state(1)[0]) % SEED_LIMIT
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < SEED_LIMIT:
        raise bad_request(f"seed must be an integer from 0 to {SEED_LIMIT - 1}, got "
                          f"{value!r:.40}")
    return value


def config_class(name: str) -> type:
    """The configuration dataclass of game ``name``."""
    info = GAMES[name]
    return type(make_game(name, num_players=info.min_players).config)


def catalogue(limits: ServeLimits | None = None) -> dict[str, Any]:
    """The games a new game may be, with their player counts and options, the agent
    kinds and files a seat may name and the server's limits (for the form)."""
    limits = limits or ServeLimits()
    games = []
    for info in GAMES.values():
        cls = config_class(info.name)
        defaults = {f.name: f.default for f in dataclasses.fields(cls)}
        options = [_option_row(key, spec, defaults[key])
                   for key, spec in option_specs(cls).items()
                   if key != "num_players" and spec.kind != "path"]
        games.append({"name": info.name, "title": info.title, "min_players": info.min_players,
                      "max_players": info.max_players, "options": options})
    files = agent_files(limits)
    kinds = sorted(WEB_KINDS) + (list(DIR_KINDS) if limits.agents_dir is not None else [])
    examples = list(SPEC_EXAMPLES) + [f"{k}:{f}" for f in files for k in DIR_KINDS]
    return {"games": games, "seat_examples": examples, "agent_kinds": kinds,
            "agent_files": files, "limits": limits.public()}


def _option_row(key: str, spec: Any, default: Any) -> dict[str, Any]:
    row = {"name": key, "kind": spec.kind, "default": default, "none_ok": spec.none_ok,
           "allowed": spec.allowed()}
    if spec.kind == "int":
        row.update(min=spec.lo, max=spec.hi)
    if spec.kind == "choice":
        row["choices"] = list(spec.choices)
    if spec.players is not None:
        row["players"] = list(spec.players)
    return row
