"""Game records: a seeded game written down move by move (chance included).

A record is a JSON object::

    {"format": "formosa-game-record", "version": 1,
     "game": "tea", "num_players": 3, "options": {...}, "seed": 17,
     "agents": ["heuristic", "random", "policy:runs/tea/policy.npz"],
     "steps": [[player, action, label], ...],     # player -1 = chance
     "scores": [..], "truncated": false}

``formosa simulate/tournament/play --record`` write them, ``formosa replay``
turns one into an HTML page, and the golden-game tests replay them to catch
any unintended rule change (golden records predate ``format``/``version``
and are read the same way). :func:`load_record` checks a file thoroughly and
raises :class:`RecordError` naming what is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from formosa_envs.agents import RandomAgent
from formosa_envs.core.errors import FormosaError
from formosa_envs.games import GAMES, make_game

from .simulate import play_game
from .usage import UsageError, check_output_folder, make_folder

RECORD_FORMAT = "formosa-game-record"
RECORD_VERSION = 1


class RecordError(FormosaError):
    """A game record that cannot be read or does not replay."""


def new_record(game_name: str, num_players: int, options: dict[str, Any], seed: int,
               agents: list[str], steps: list[list[Any]], scores: list[float],
               truncated: bool) -> dict[str, Any]:
    """A record in the current format (see the module docstring)."""
    return {"format": RECORD_FORMAT, "version": RECORD_VERSION, "game": game_name,
            "num_players": num_players, "options": dict(options), "seed": seed,
            "agents": list(agents), "steps": steps, "scores": [float(s) for s in scores],
            "truncated": bool(truncated)}


def record_game(game_name: str, agents: list[Any], seed: int, names: list[str] | None = None,
                **options: Any) -> dict[str, Any]:
    """Play one game (chance from ``seed``, as ``play_game``) and return its record."""
    game = make_game(game_name, num_players=len(agents), **options)
    steps: list[list[Any]] = []
    result = play_game(game, agents, seed, steps=steps)
    return new_record(game_name, len(agents), options, seed,
                      names or [getattr(a, "name", type(a).__name__) for a in agents],
                      steps, result.scores, result.truncated)


def record_random_game(game_name: str, num_players: int, seed: int,
                       **options: Any) -> dict[str, Any]:
    """A random game (chance seed ``seed``, agent seeds ``seed + 1 + seat``), golden format."""
    agents = [RandomAgent(seed + 1 + seat) for seat in range(num_players)]
    record = record_game(game_name, agents, seed, **options)
    return {k: record[k] for k in ("game", "num_players", "options", "seed", "steps",
                                   "scores")}


def save_record(record: dict[str, Any], path: str | Path) -> Path:
    """Write ``record`` as JSON (its folder created if missing, never the folders above)."""
    target = Path(path)
    make_folder(target.parent, "record")
    target.write_text(json.dumps(record, separators=(",", ":")) + "\n", encoding="utf-8")
    return target


def check_record_folder(folder: str | Path, flag: str = "--record") -> Path:
    """A folder for ``--record``, checked before any game is played: refused if it is a
    file, cannot be created or written, or already holds game records (a second run
    would overwrite some of them and leave the rest mixed in)."""
    target = Path(folder)
    if target.exists() and not target.is_dir():
        raise RecordError(f"{flag} {target}: not a folder")
    if target.is_dir() and any(target.glob("game_*.json")):
        raise RecordError(f"{flag} {target} already holds game records; choose an empty "
                          "or new folder")
    try:
        check_output_folder(target, flag)
    except UsageError as exc:
        raise RecordError(str(exc)) from None
    return target


def load_record(path: str | Path) -> dict[str, Any]:
    """Read and check a record file; raises :class:`RecordError` naming the problem."""
    source = Path(path)
    if source.is_dir():
        raise RecordError(f"{source} is a folder, not a game record file")
    if not source.is_file():
        raise RecordError(f"game record not found: {source}")
    try:
        record = json.loads(source.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordError(f"{source} is not a JSON game record: {exc}") from None
    check_record(record, str(source))
    return record


def check_record(record: Any, where: str = "record") -> None:
    """Raise :class:`RecordError` unless ``record`` has the record's shape."""
    if not isinstance(record, dict):
        raise RecordError(f"{where}: a game record is a JSON object, got "
                          f"{type(record).__name__}")
    if record.get("format", RECORD_FORMAT) != RECORD_FORMAT or \
            record.get("version", RECORD_VERSION) != RECORD_VERSION:
        raise RecordError(f"{where}: not a {RECORD_FORMAT} version {RECORD_VERSION} "
                          f"(format {record.get('format')!r}, version "
                          f"{record.get('version')!r})")
    for key, kind in (("game", str), ("num_players", int), ("options", dict),
                      ("steps", list), ("scores", list)):
        if not isinstance(record.get(key), kind):
            raise RecordError(f"{where}: field {key!r} must be a {kind.__name__}, got "
                              f"{record.get(key)!r:.60}")
    if record["game"] not in GAMES:
        raise RecordError(f"{where}: unknown game {record['game']!r}; known: {sorted(GAMES)}")
    _check_fields(record, where)
    for index, step in enumerate(record["steps"]):
        if not (isinstance(step, list) and len(step) == 3 and isinstance(step[0], int)
                and isinstance(step[1], int) and isinstance(step[2], str)):
            raise RecordError(f"{where}: step {index} must be [player, action, label], "
                              f"got {step!r:.80}")


def _check_fields(record: dict[str, Any], where: str) -> None:
    """Scores (one number per player), agents, seed and the truncated flag."""
    n = record["num_players"]
    scores = record["scores"]
    if len(scores) != n or not all(_is_number(x) for x in scores):
        raise RecordError(f"{where}: 'scores' must hold {n} numbers, got {scores!r:.80}")
    agents = record.get("agents", [])
    if not isinstance(agents, list) or not all(isinstance(a, str) for a in agents):
        raise RecordError(f"{where}: 'agents' must be a list of agent names, got "
                          f"{agents!r:.80}")
    if not isinstance(record.get("truncated", False), bool):
        raise RecordError(f"{where}: 'truncated' must be true or false")
    seed = record.get("seed")
    if seed is not None and not (isinstance(seed, int) and not isinstance(seed, bool)):
        raise RecordError(f"{where}: 'seed' must be an integer, got {seed!r:.40}")


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def replay_states(record: dict[str, Any]) -> Iterator[tuple[int, Any, Any]]:
    """Yield ``(index, game, state)`` before step 0 (index -1) and after every step.

    The state is one object updated in place: use it before the next item.
    Raises :class:`RecordError` when a step does not fit the game.
    """
    check_record(record)
    try:
        game = make_game(record["game"], num_players=record["num_players"],
                         **record["options"])
    except FormosaError as exc:
        raise RecordError(f"record's game cannot be built: {exc}") from None
    state = game.new_initial_state()
    yield -1, game, state
    for index, (player, action, _label) in enumerate(record["steps"]):
        if game.current_player(state) != player:
            raise RecordError(f"record step {index} expects player {player} to move, the "
                              f"engine says {game.current_player(state)}")
        try:
            game.apply_action(state, action)
        except FormosaError as exc:
            raise RecordError(f"record step {index} ({action}) does not replay: {exc}") \
                from None
        yield index, game, state


def replay_record(record: dict[str, Any]) -> tuple[list[str], list[float]]:
    """Re-apply a record's actions; return the labels seen and the final scores."""
    labels: list[str] = []
    game = state = None
    steps = record["steps"] if isinstance(record, dict) else []
    for index, game, state in replay_states(record):
        if index + 1 < len(steps) and _fits(game, state, steps[index + 1]):
            labels.append(game.action_label(state, steps[index + 1][1]))
    return labels, game.scores(state)


def _fits(game: Any, state: Any, step: list[Any]) -> bool:
    """Whether ``step`` is a legal step here (else the replay stops on it, with a message)."""
    player, action = step[0], step[1]
    if game.current_player(state) != player:
        return False
    if player >= 0:
        return action in game.legal_actions(state)
    return any(outcome == action for outcome, _ in game.chance_outcomes(state))
