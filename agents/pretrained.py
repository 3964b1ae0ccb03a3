"""Networks shipped with the package: the ``pretrained`` agent spec.

Specs (the network of the game being played; ``GAME`` names it explicitly and must be
that game):

=============================  ======================================================
``pretrained``                 the game's shipped network, masked argmax (numpy only)
``pretrained:GAME``            the same, refused unless ``GAME`` is the game played
``pretrained[:GAME]:az[:N]``   PUCT search (:mod:`formosa_envs.agents.az`) guided by that network's
                               prior and value head, ``N`` simulations (default 100)
``pretrained[:GAME]:mcts[:N]`` ``mcts:N:heuristic`` whose play-outs cut at the round's end
                               are valued half by the score gain, half by that network's
                               value head (:mod:`formosa_envs.agents.pretrained_parts`;
                               ``N`` default 160)
``pretrained[:GAME]:net``      the network alone (masked argmax), also where the game
                               ships an afterstate evaluator
=============================  ======================================================

Where the manifest entry of a game has an ``afterstate`` part (a file of
:mod:`formosa_envs.agents.afterstate`, with its own sha256), ``pretrained`` plays that
agent: the heuristic's candidate moves ranked by the shipped evaluator, which is the
strongest shipped player of that game; ``pretrained:net`` still names the network. The
entry's ``afterstate_at`` parts (keyed by a seat count; Dadaocheng's ``"1"``, trained on
solo games) replace that evaluator at tables of their seat count. Its ``residual_at``
parts (seat count -> ``{"margin": M, ...}``) make ``pretrained`` the residual agent
(:mod:`formosa_envs.agents.residual`: the heuristic, overruled by the network where the
network's move leads by more than ``M``) at tables of those seat counts, and the network
alone at the others; a part with its own ``file`` (and ``sha256``, checked the same way)
overrules the heuristic with that network instead (one trained for that seat count, e.g.
at some decision kinds only).

The files are package data in ``agents/pretrained/``: one ``<game>.npz`` per game (the
format of :mod:`formosa_envs.training.common.network_export`, weights stored as float16 and upcast
to
float32 on load) and ``manifest.json`` (format :data:`FORMAT`), which records per game
the file, its sha256 and size, the observation size and action count, the env id, the
player count it was trained at, the data, training and evaluation that produced it,
and the commit. They are read with :mod:`importlib.resources`, so they load from an
installed wheel too. ``scripts/make_pretrained.py`` regenerates a network cloned from the
heuristic, ``scripts/ship_run.py`` ships a finished ``formosa train`` run (the manifest
entry records the method and its config).

Before a network is played it is checked against its manifest entry (sha256, array
shapes) and against the game as built now (observation size, action count, env id): a
missing, tampered or stale file is a :class:`PretrainedError` (an ``AgentSpecError``)
naming the game, the file and what to do. One network serves every player count: the
observation is padded to the game's maximum seat count, so its size and the action
count do not depend on the number of players.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import zipfile
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from formosa_envs.games import GAMES, make_game

from .base import Agent
from .files import AgentFileError, read_agent_file
from .specs import AgentSpecError, int_arg

FORMAT = "formosa-pretrained/1"
MANIFEST = "manifest.json"
FOLDER = "pretrained"
REGENERATE = ("python scripts/make_pretrained.py --games {game} (a cloned network) or "
              "formosa train {game} then python scripts/ship_run.py {game} RUN_DIR (a trained "
              "one; the manifest records which)")
DEFAULT_SIMULATIONS = 100
MODES = ("net", "az", "mcts")

Root = Any
"""A folder holding the files: a ``Path`` or an ``importlib.resources`` Traversable."""


class PretrainedError(AgentSpecError):
    """A shipped network that cannot be played: missing, tampered with or stale."""


def package_root() -> Root:
    """The package-data folder ``agents/pretrained`` (works from an installed wheel)."""
    return resources.files("formosa_envs.agents") / FOLDER


def file_sha256(data: bytes) -> str:
    """The hex sha256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def read_manifest(root: Root | None = None) -> dict[str, Any]:
    """The checked manifest of ``root`` (default: the package's); :class:`PretrainedError`
    if it is missing, unreadable or of another format."""
    root = package_root() if root is None else root
    path = root / MANIFEST
    if not path.is_file():
        raise PretrainedError(f"no pretrained networks: {path} is missing (regenerate them "
                              "with python scripts/make_pretrained.py)")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PretrainedError(f"pretrained manifest {path}: cannot be read as JSON ({exc})"
                              ) from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT \
            or not isinstance(manifest.get("games"), dict):
        raise PretrainedError(f"pretrained manifest {path}: format must be {FORMAT!r} with a "
                              "'games' table (regenerate it with python "
                              "scripts/make_pretrained.py)")
    return manifest


def manifest_entry(game: str, root: Root | None = None) -> dict[str, Any]:
    """The manifest entry of ``game`` (:class:`PretrainedError` if it has none)."""
    _check_game(game)
    entries = read_manifest(root)["games"]
    if game not in entries or not isinstance(entries[game], dict):
        shipped = ", ".join(sorted(entries)) or "none"
        raise PretrainedError(f"no pretrained network for {game} (shipped: {shipped}); "
                              f"make one with {REGENERATE.format(game=game)}")
    return entries[game]


def load_network(game: str, root: Root | None = None) -> Any:
    """The shipped network of ``game`` as an :class:`formosa_envs.agents.network.Network` (float32).

    Checks, each failing with a :class:`PretrainedError` that names the file: the manifest
    entry exists, the file exists, its sha256 is the manifest's, it is a valid network
    whose sizes are the manifest's, and the manifest's observation size, action count
    and env id are those of the game as built now (else the file is stale).
    """
    from .network import Network

    entry = manifest_entry(game, root)
    root = package_root() if root is None else root
    path = root / str(entry.get("file", f"{game}.npz"))
    data = _read_checked(game, path, entry)
    _check_current(game, path, entry)
    network = _cached_network(entry["sha256"], data, str(path), Network)
    sizes = (network.input_size, network.output_size)
    if sizes != (entry["observation_size"], entry["num_actions"]) or not network.has_value:
        raise PretrainedError(f"pretrained network for {game}: {path} takes {sizes[0]} "
                              f"values and scores {sizes[1]} actions, but its manifest says "
                              f"{entry['observation_size']} and {entry['num_actions']} (and a "
                              f"value head); run {REGENERATE.format(game=game)}")
    return network


_CACHE: dict[tuple[str, str], Any] = {}


def _cached_network(sha: str, data: bytes, name: str, network_cls: Any) -> Any:
    """One network per file and content (keyed by its sha256: a changed file reloads)."""
    key = (sha, name)
    if key not in _CACHE:
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
                upcast = {k: (arrays[k].astype(np.float32) if arrays[k].dtype.kind == "f"
                              else arrays[k]) for k in arrays.files}
        except (ValueError, OSError, EOFError, zipfile.BadZipFile) as exc:
            raise PretrainedError(f"pretrained network {name}: the .npz archive cannot be "
                                  f"read ({exc})") from None
        _CACHE[key] = network_cls.from_arrays(upcast, name)
    return _CACHE[key]


def _read_checked(game: str, path: Any, entry: dict[str, Any]) -> bytes:
    """The file's bytes, after its presence and sha256 are checked against ``entry``."""
    redo = REGENERATE.format(game=game)
    present = os.path.lexists(path) if isinstance(path, Path) else path.is_file()
    if not present:  # anything else at a Path (a FIFO, a device) is refused unread below
        raise PretrainedError(f"pretrained network for {game}: {path} is missing (the "
                              f"manifest lists it; reinstall the package or run {redo})")
    data = _read_bytes(game, path)
    if file_sha256(data) != entry.get("sha256"):
        raise PretrainedError(f"pretrained network for {game}: {path} does not match its "
                              f"manifest (sha256 {file_sha256(data)[:12]}..., the manifest "
                              f"says {str(entry.get('sha256'))[:12]}...); the file was changed "
                              f"or is stale: run {redo}")
    if not zipfile.is_zipfile(io.BytesIO(data)):
        raise PretrainedError(f"pretrained network for {game}: {path} is not an .npz archive")
    return data


def _read_bytes(game: str, path: Any) -> bytes:
    """The bytes of ``path``; a folder given as ``root`` is read as every agent file is
    (:func:`formosa_envs.agents.files.read_agent_file`: a regular file within the cap, opened
    non-blocking), package data in a zip through ``importlib.resources``."""
    if not isinstance(path, Path):
        return path.read_bytes()
    try:
        return read_agent_file(path, f"pretrained network for {game}:")
    except AgentFileError as exc:
        raise PretrainedError(str(exc)) from None


def _check_current(game: str, path: Any, entry: dict[str, Any]) -> None:
    """The manifest's sizes and env id must be those of ``game`` as built now."""
    built = make_game(game, num_players=GAMES[game].min_players)
    now = {"observation_size": int(built.observation_size),
           "num_actions": int(built.num_actions), "env_id": GAMES[game].env_id}
    for key, value in now.items():
        if entry.get(key) != value:
            raise PretrainedError(
                f"pretrained network for {game}: {path} is stale: it was made for "
                f"{key} {entry.get(key)!r} (env id {entry.get('env_id')!r}, formosa_envs "
                f"{entry.get('formosa_envs_version', 'before 0.2')}), but {game} now has "
                f"{value!r} (the observation or action layout changed); run "
                f"{REGENERATE.format(game=game)}")


def _check_game(game: str) -> None:
    if game not in GAMES:
        raise PretrainedError(f"unknown game {game!r} for a pretrained network; games: "
                              f"{', '.join(sorted(GAMES))}")


def parse_spec(spec: str, arg: str, game: str) -> tuple[str, str | None, int]:
    """``[GAME][:net|:az[:N]|:mcts[:N]]`` -> ``(game, mode, simulations)``: mode None for
    the default agent (simulations 0), ``net``, ``az`` or ``mcts``; :class:`AgentSpecError`
    naming ``spec`` on bad syntax or a network of another game."""
    usage = "pretrained[:GAME][:net|:az[:N]|:mcts[:N]]"
    parts = arg.split(":") if arg else []
    named = parts.pop(0) if parts and parts[0] not in MODES else None
    if named is not None and named not in GAMES:
        raise AgentSpecError(f"agent spec {spec!r}: {named!r} is not a game ({usage}; games: "
                             f"{', '.join(sorted(GAMES))})")
    if named is not None and named != game:
        raise AgentSpecError(f"agent spec {spec!r} is the {GAMES[named].title} network, but "
                             f"this game is {game}: use pretrained or pretrained:{game}")
    if not parts:
        return game, None, 0
    if parts == ["net"]:
        return game, "net", 0
    if parts[0] not in ("az", "mcts") or len(parts) > 2:
        raise AgentSpecError(f"agent spec {spec!r}: expected {usage} (e.g. pretrained, "
                             f"pretrained:{game}, pretrained:az:200, pretrained:mcts:160)")
    budget = parts[1] if len(parts) == 2 else ""
    if len(parts) == 2 and not budget:
        raise AgentSpecError(f"agent spec {spec!r}: expected a positive integer after "
                             f"'{parts[0]}:'")
    from .pretrained_parts import DEFAULT_MCTS_SIMULATIONS
    default = DEFAULT_SIMULATIONS if parts[0] == "az" else DEFAULT_MCTS_SIMULATIONS
    return game, parts[0], int_arg(spec, budget, default)


def build_pretrained(spec: str, arg: str, game: str, seed: int | None,
                     root: Root | None = None) -> Agent:
    """The agent of spec ``pretrained[:GAME][:net|:az[:N]|:mcts[:N]]`` for ``game`` (module
    docstring)."""
    if game not in GAMES:
        raise AgentSpecError(f"agent spec {spec!r}: unknown game {game!r}; games: "
                             f"{', '.join(sorted(GAMES))}")
    game, mode, simulations = parse_spec(spec, arg, game)
    entry = manifest_entry(game, root)
    if mode is None and "afterstate" in entry:
        agent: Any = load_afterstate_agent(game, seed, root)
        agent.name = spec
        return agent
    network = load_network(game, root)
    if mode is None and "residual_at" in entry:
        from .pretrained_parts import seat_count_agent
        return seat_count_agent(spec, game, network, seed, root)
    if mode == "az":
        from .az import AZAgent
        agent = AZAgent(network, simulations=simulations, seed=seed)
    elif mode == "mcts":
        agent = _value_mcts(spec, network, simulations, seed)
    else:
        agent = network_alone(network, seed)
    agent.name = spec
    return agent


def network_alone(network: Any, seed: int | None) -> Agent:
    """``network`` as a :class:`~formosa_envs.agents.policy.PolicyAgent` (masked argmax)."""
    from .policy import PolicyAgent
    agent = PolicyAgent(network.layers, network.activation, seed=seed)
    agent.path = network.path
    return agent


def _value_mcts(spec: str, network: Any, simulations: int, seed: int | None) -> Agent:
    from .pretrained_parts import value_mcts
    if not network.has_value:
        raise PretrainedError(f"agent spec {spec!r}: the shipped network {network.path} has "
                              "no value head, which the search reads")
    return value_mcts(network, simulations, seed)


def load_afterstate_agent(game: str, seed: int | None, root: Root | None = None) -> Agent:
    """The shipped afterstate agent of ``game``: the manifest's ``afterstate`` part, and the
    evaluators of its ``afterstate_at`` parts (keyed by a seat count, e.g. ``"1"`` for
    one trained on solo games) at tables of those counts. Each part is checked like a
    network: the file present, its sha256, its feature size against the game now."""
    from .afterstate import AfterstateAgent

    entry = manifest_entry(game, root)
    by_players = {}
    for count, part in _seat_count_parts(game, entry).items():
        by_players[count] = _load_evaluator(game, part, root)
    return AfterstateAgent(game, _load_evaluator(game, entry["afterstate"], root), seed=seed,
                           by_players=by_players)


def _seat_count_parts(game: str, entry: dict[str, Any], key: str = "afterstate_at"
                      ) -> dict[int, dict[str, Any]]:
    """The entry's ``key`` parts (``afterstate_at``, ``residual_at``) by seat count
    (:class:`PretrainedError` for a key that is no seat count of the game)."""
    parts = entry.get(key, {})
    info, out = GAMES[game], {}
    items = parts.items() if isinstance(parts, dict) else [(repr(parts), None)]
    for count, part in items:
        if not (count.isdigit() and info.min_players <= int(count) <= info.max_players
                and isinstance(part, dict)):
            raise PretrainedError(f"pretrained manifest for {game}: {key} must map "
                                  f"seat counts ({info.min_players}-{info.max_players}) to "
                                  f"parts, got key {count!r}; run "
                                  f"{REGENERATE.format(game=game)}")
        out[int(count)] = part
    return out


def _load_evaluator(game: str, part: dict[str, Any], root: Root | None) -> Any:
    """One checked evaluator part of ``game``'s manifest entry."""
    from .afterstate import AfterstateEvaluator, feature_size

    entry = manifest_entry(game, root)
    root = package_root() if root is None else root
    path = root / str(part.get("file", f"{game}_afterstate.npz"))
    data = _read_checked(game, path, part)
    _check_current(game, path, entry)
    evaluator = AfterstateEvaluator.from_bytes(data, str(path))
    built = make_game(game, num_players=GAMES[game].min_players)
    size = feature_size(built, evaluator.info.reply)
    if evaluator.info.feature_size != size:
        raise PretrainedError(f"pretrained evaluator for {game}: {path} takes "
                              f"{evaluator.info.feature_size} features, {game} now gives "
                              f"{size}; run {REGENERATE.format(game=game)}")
    return evaluator


def shipped_games(root: Root | None = None) -> list[str]:
    """The games the manifest of ``root`` (default: the package's) has networks for."""
    return sorted(read_manifest(root)["games"])


def manifest_path() -> Path:
    """The package manifest as a filesystem path (for the regeneration script)."""
    return Path(str(package_root() / MANIFEST))
