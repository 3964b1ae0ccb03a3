"""The OpenSpiel bridge is an optional extra: the core package never imports pyspiel, and
importing the bridge without it says what to install."""

from __future__ import annotations

import subprocess
import sys


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)


def test_the_core_package_does_not_import_open_spiel() -> None:
    done = _run("import sys, formosa_envs, formosa_envs.envs, formosa_envs.games\n"
                "assert 'pyspiel' not in sys.modules, 'pyspiel was imported'")
    assert done.returncode == 0, done.stderr


def test_the_bridge_without_open_spiel_names_the_extra() -> None:
    done = _run("import sys\nsys.modules['pyspiel'] = None\n"
                "try:\n    import formosa_envs.spiel\nexcept ImportError as exc:\n"
                "    print(exc)\nelse:\n    raise SystemExit('imported without pyspiel')")
    assert done.returncode == 0, done.stderr
    assert "formosa_envs[spiel]" in done.stdout
