"""The web app is an optional extra: the package never imports Starlette or uvicorn
outside ``formosa_envs.web.app``/``.server``, and ``formosa serve`` without them says,
in one line, which extra to install. Runs with or without the extra."""

from __future__ import annotations

import subprocess
import sys

from formosa_envs.cli import build_parser


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)


def test_the_package_does_not_import_the_web_libraries() -> None:
    done = _run("import sys, formosa_envs, formosa_envs.cli, formosa_envs.envs\n"
                "import formosa_envs.web, formosa_envs.web.store, formosa_envs.web.views\n"
                "from formosa_envs.games import make_game\n"
                "make_game('flowers', num_players=2)\n"
                "bad = {'starlette', 'uvicorn'} & set(sys.modules)\n"
                "assert not bad, bad")
    assert done.returncode == 0, done.stderr


def test_serve_without_the_extra_names_it_in_one_line() -> None:
    done = _run("import sys\n"
                "sys.modules['starlette'] = sys.modules['uvicorn'] = None\n"
                "from formosa_envs.cli import main\n"
                "raise SystemExit(main(['serve', '--port', '8123']))")
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("formosa serve: error: ")
    assert "[web] extra" in lines[0] and "pip install -e '.[web]'" in lines[0]
    assert done.stdout == ""


def test_serve_flags_and_defaults() -> None:
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.games_dir) == ("127.0.0.1", 8000, "formosa-games")
    args = build_parser().parse_args(["serve", "--host", "0.0.0.0", "--port", "9000",
                                      "--games-dir", "g"])
    assert (args.host, args.port, args.games_dir) == ("0.0.0.0", 9000, "g")
