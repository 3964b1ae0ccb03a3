"""The declared PettingZoo floor (``pettingzoo>=1.25`` in pyproject.toml) really works.

PettingZoo's env registry (``pettingzoo.register``, ``aec_registry``) appeared in 1.27;
on 1.25 and 1.26 ``import formosa_envs`` must still work, with the envs coming from
``formosa_envs.env()`` / ``raw_env()`` and nothing registered.

The fast tests hide the registry of the installed PettingZoo; the ``slow`` test builds
a fresh virtual environment with the oldest declared PettingZoo (it needs the package
index: run it with ``pytest -m slow tests/test_pettingzoo_floor.py``).
"""

from __future__ import annotations

import re
import subprocess
import sys
import venv
from pathlib import Path

import pettingzoo
import pytest

import formosa_envs
from formosa_envs.envs import register_all

ROOT = Path(__file__).resolve().parents[1]

# Plays one wrapped-env game of each title at random; argv[1] says whether the registry
# is to be hidden first (as on PettingZoo 1.25/1.26), argv[2] the expected major.minor.
EPISODE = """
import sys
import numpy as np
import pettingzoo
if sys.argv[1] == "hide":
    del pettingzoo.aec_registry, pettingzoo.register
has_registry = hasattr(pettingzoo, "aec_registry")
version = getattr(pettingzoo, "__version__", "")
assert sys.argv[2] == "any" or version.startswith(sys.argv[2]), version
import formosa_envs
assert formosa_envs.REGISTERED is has_registry, (formosa_envs.REGISTERED, version)
rng = np.random.default_rng(0)
for game in formosa_envs.GAMES:
    env = formosa_envs.env(game, num_players=2)
    env.reset(seed=1)
    steps = 0
    for agent in env.agent_iter():
        obs, reward, done, cut, info = env.last()
        env.step(None if done or cut else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert steps > 10 and not env.agents, (game, steps)
if sys.argv[1] == "api":
    from pettingzoo.test import api_test
    api_test(formosa_envs.raw_env("flowers", num_players=3), num_cycles=200)
print("ok", version, has_registry)
"""


def _run(python: str, *args: str, timeout: int = 120) -> subprocess.CompletedProcess:
    return subprocess.run([python, "-c", EPISODE, *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout, env={"PYTHONPATH": str(ROOT),
                                                           "PATH": "/usr/bin:/bin"})


def test_register_all_without_a_registry_registers_nothing(monkeypatch) -> None:
    monkeypatch.delattr(pettingzoo, "aec_registry")
    assert register_all() is False


def test_register_all_with_a_registry_registers_every_game() -> None:
    assert register_all() is True and formosa_envs.REGISTERED is True
    for info in formosa_envs.GAMES.values():
        assert info.env_id in pettingzoo.aec_registry
    made = pettingzoo.make("aec", formosa_envs.GAMES["tea"].env_id, num_players=3)
    made.reset(seed=0)
    assert len(made.agents) == 3


def test_import_and_play_without_a_registry() -> None:
    """PettingZoo 1.25/1.26 simulated: the registry is removed before the import."""
    done = _run(sys.executable, "hide", "any")
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.splitlines()[-1].startswith("ok") and done.stdout.split()[-1] == "False"


def declared_floor() -> str:
    """The ``X.Y`` of the ``pettingzoo>=X.Y`` requirement in pyproject.toml."""
    text = (ROOT / "pyproject.toml").read_text()
    found = re.search(r'"pettingzoo>=(\d+\.\d+)[^"]*"', text)
    assert found, "pyproject.toml declares no pettingzoo floor"
    return found.group(1)


def _requirements(pin: str) -> list[str]:
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    return [d for d in deps if not d.startswith("pettingzoo")] + [f"pettingzoo=={pin}.*"]


@pytest.mark.slow
@pytest.mark.parametrize("pin", [declared_floor(), "1.26"])
def test_a_fresh_venv_with_an_old_pettingzoo_imports_and_plays(tmp_path: Path, pin: str) -> None:
    """Build a venv with ``pettingzoo==<pin>.*`` (the declared floor, and the last release
    without a registry), then import formosa_envs, play every game and run api_test."""
    venv.create(tmp_path / "venv", with_pip=True)
    python = str(tmp_path / "venv" / "bin" / "python")
    install = subprocess.run([python, "-m", "pip", "install", "-q", *_requirements(pin)],
                             capture_output=True, text=True, timeout=600)
    assert install.returncode == 0, install.stderr[-3000:]
    done = _run(python, "api", pin, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    last = done.stdout.splitlines()[-1]
    assert last.startswith(f"ok {pin}.") and last.endswith(" False"), last
