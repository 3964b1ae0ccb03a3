"""The smoke suite of an installed formosa_envs wheel (run by ``tests/test_wheel.py``).

It runs in a fresh virtual environment that holds the wheel and its core dependencies
only (no torch), from a folder outside the checkout that has its own ``agents/`` package
and ``training.py`` (as research projects do), with this file copied there::

    python check_wheel.py --version 0.2.0 --resources resources.json

It checks, printing one line per check and exiting non-zero at the first failure:

- the folder's own ``agents`` and ``training`` stay the folder's, beside formosa_envs;
- ``formosa_envs.__version__`` is the wheel's version;
- ``import formosa_envs.training`` (and every training config loader) needs no torch;
- every game at every player count plays a random game to its end through
  ``pettingzoo.make("aec", env_id, ...)`` (PettingZoo's registry);
- every packaged data file loads through its loader: each game's ``data/*.toml`` and the
  training configs ``training/configs/*.toml``; a file no loader is known for fails;
- every package resource the checkout ships (``--resources``: the web page's static
  files, the replay page, the pretrained networks) is readable with importlib.resources;
- ``pretrained`` plays every game at every player count.
"""

from __future__ import annotations

import argparse
import importlib.resources
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent


def say(line: str) -> None:
    """One progress line (the test prints them when a check fails)."""
    print(f"check_wheel: {line}", flush=True)


def check_own_folders_first() -> None:
    """The folder's ``agents`` package and ``training`` module are the ones imported."""
    import agents
    import training

    for module in (agents, training):
        origin = Path(module.__file__).resolve()
        if not getattr(module, "MINE", False) or HERE not in origin.parents:
            raise AssertionError(f"import {module.__name__} gave {origin}, not this folder's")
    say("the folder's own agents/ and training.py import as the folder's")


def check_version(expected: str) -> None:
    """``formosa_envs.__version__`` is the version of the wheel installed."""
    import formosa_envs

    if formosa_envs.__version__ != expected:
        raise AssertionError(f"formosa_envs.__version__ is {formosa_envs.__version__!r}, "
                             f"the wheel's version is {expected!r}")
    say(f"formosa_envs.__version__ == {expected}")


def check_no_torch(where: str) -> None:
    """Nothing imported so far pulled in torch (which is not installed either)."""
    heavy = sorted(m for m in ("torch", "stable_baselines3", "sb3_contrib") if m in sys.modules)
    if heavy:
        raise AssertionError(f"{where} imported {heavy}")


def random_game(env: Any, rng: np.random.Generator) -> int:
    """Play ``env`` (reset) to its end with masked random moves; the number of steps."""
    steps = 0
    for _ in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps


def check_registry_games() -> None:
    """Every game at every player count plays to the end through ``pettingzoo.make``."""
    import pettingzoo

    import formosa_envs

    if not formosa_envs.REGISTERED:
        raise AssertionError(f"pettingzoo {pettingzoo.__version__}: formosa_envs registered "
                             "no env id")
    rng = np.random.default_rng(0)
    for info in formosa_envs.GAMES.values():
        for players in range(info.min_players, info.max_players + 1):
            env = pettingzoo.make("aec", info.env_id, num_players=players)
            env.reset(seed=players)
            moves = random_game(env, rng)
            if env.agents or moves == 0:
                raise AssertionError(f"{info.env_id} with {players} players did not end "
                                     f"({moves} moves, agents left {env.agents})")
        say(f"{info.env_id}: a random game to the end with "
            f"{info.min_players}..{info.max_players} players (pettingzoo.make)")


def only_default(loader: Callable[[], Any], default: Path) -> Callable[[Path], Any]:
    """A loader of one fixed file (it takes no path) as a loader of ``path``: the file it
    reads must be ``path``."""
    def load(path: Path) -> Any:
        if Path(default).resolve() != path.resolve():
            raise AssertionError(f"{loader.__qualname__} reads {default}, not {path}")
        return loader()
    return load


def game_loaders() -> dict[str, dict[str, Callable[[Path], Any]]]:
    """Per game, the loader of each of its data files (by file name)."""
    from formosa_envs.games.dadaocheng import content as dadaocheng
    from formosa_envs.games.flowers import cards as flowers
    from formosa_envs.games.taiwan import cards as taiwan
    from formosa_envs.games.tea import content as tea

    return {
        "flowers": {"cards.toml": flowers.load_cards},
        "taiwan": {"buildings.toml": taiwan.load_buildings,
                   "landmarks.toml": taiwan.load_landmarks},
        "tea": {"board.toml": tea.load_board, "merchants.toml": tea.load_merchants,
                "events.toml": only_default(tea.load_events, tea.EVENT_FILE)},
        "dadaocheng": {"board.toml": dadaocheng.load_temple,
                       "buildings.toml": dadaocheng.load_buildings,
                       "discs.toml": dadaocheng.load_discs,
                       "ships.toml": dadaocheng.load_ships,
                       "events.toml": only_default(dadaocheng.load_events,
                                                   dadaocheng.DATA_DIR / "events.toml")},
    }


def check_game_data() -> None:
    """Every game's installed ``data/*`` file loads through its loader (none unknown)."""
    import formosa_envs

    loaders = game_loaders()
    for name in formosa_envs.GAMES:
        folder = importlib.resources.files(f"formosa_envs.games.{name}") / "data"
        files = sorted(f.name for f in folder.iterdir() if f.is_file())
        known = loaders.get(name, {})
        if sorted(known) != files:
            raise AssertionError(f"{name}: the wheel's data files are {files}, the loaders "
                                 f"known are for {sorted(known)}")
        for file in files:
            with importlib.resources.as_file(folder / file) as path:
                if not known[file](Path(path)):
                    raise AssertionError(f"{name}: data/{file} loaded as nothing")
        say(f"{name}: data/{', data/'.join(files)} load")


def check_training_configs() -> None:
    """Every installed ``training/configs/*.toml`` loads through its config loader."""
    import formosa_envs.training
    from formosa_envs.training.afterstate.config import load_afterstate_config
    from formosa_envs.training.imitation.config import load_bc_config
    from formosa_envs.training.jax.config import load_jax_config
    from formosa_envs.training.jax.gumbel_train import load_gumbel_config
    from formosa_envs.training.ppo.config import load_config
    from formosa_envs.training.xit.config import load_xit_config

    check_no_torch("import formosa_envs.training and its config loaders")
    by_kind = {"bc": load_bc_config, "xit": load_xit_config, "jax": load_jax_config,
               "afterstate": load_afterstate_config}
    folder = importlib.resources.files(formosa_envs.training) / "configs"
    files = sorted(f.name for f in folder.iterdir() if f.name.endswith(".toml"))
    if not files:
        raise AssertionError("the wheel has no training/configs/*.toml")
    for file in files:
        stem = file.removesuffix(".toml")  # GAME[_NAME...][_KIND]: the kind is the last part
        game, kind = stem.partition("_")[0], stem.rpartition("_")[2]
        if "_jax" in stem or stem.startswith("flowers_gumbel"):  # the JAX backend's runs
            kind = "gumbel" if "gumbel" in stem else "jax"
        with importlib.resources.as_file(folder / file) as path:
            loader = {**by_kind, "gumbel": load_gumbel_config}.get(kind)
            config = loader(path) if loader else load_config(game, path)
        if config is None:
            raise AssertionError(f"training/configs/{file} loaded as nothing")
    check_no_torch("loading the training configs")
    say(f"{len(files)} training configs load, torch not imported")


def check_resources(listed: list[str]) -> None:
    """Each ``package/relative/path`` of ``listed`` is a non-empty package resource."""
    for entry in listed:
        package, _, relative = entry.partition(":")
        resource = importlib.resources.files(package).joinpath(*relative.split("/"))
        if not resource.is_file() or not resource.read_bytes():
            raise AssertionError(f"package resource {package}:{relative} is missing or empty")
    say(f"{len(listed)} package resources (web static files, replay page, networks) read")


def check_pretrained() -> None:
    """The shipped agent of every game plays every player count to the end (driven on the
    engine: Tea's ``pretrained`` is the afterstate agent, which decides from the state)."""
    from formosa_envs.agents import make_agent

    import formosa_envs
    from formosa_envs.tools.simulate import play_game

    for name, info in formosa_envs.GAMES.items():
        agent = make_agent("pretrained", name, seed=0)
        for players in range(info.min_players, info.max_players + 1):
            game = formosa_envs.make_game(name, num_players=players)
            record = play_game(game, [agent] * players, seed=players)
            if record.truncated:
                raise AssertionError(f"pretrained {name} with {players} players did not end")
        say(f"pretrained plays {name} with {info.min_players}..{info.max_players} players")


def main(argv: list[str] | None = None) -> int:
    """Run every check in order (see the module docstring); 0 when all pass."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--version", required=True, help="the wheel's version")
    parser.add_argument("--resources", required=True, type=Path,
                        help="JSON list of 'package:relative/path' resources to read")
    args = parser.parse_args(argv)
    check_own_folders_first()
    check_version(args.version)
    check_registry_games()
    check_game_data()
    check_training_configs()
    check_resources(json.loads(args.resources.read_text()))
    check_pretrained()
    check_no_torch("the smoke suite")
    import agents

    if not agents.MINE:
        raise AssertionError("formosa_envs replaced the folder's own agents package")
    say("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
