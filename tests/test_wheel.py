"""The package as users install it: the wheel and the sdist of this checkout.

Marked ``wheel`` (not in the default run; ``make test`` runs ``pytest -m wheel -s
tests/test_wheel.py``, ``-s`` to show the progress lines). It needs ``python -m build``
(the ``build`` package of the dev extra) and the package index (or pip's cache) for the
isolated build's setuptools and for the core dependencies.

The checkout's files (tracked and untracked, not ignored: what git would see) are copied
to a temporary folder, built there into a wheel and an sdist (so no ``build/`` folder of
the checkout can leak stale files in), and the wheel is installed with its core
dependencies only into a fresh venv outside the checkout, torch forbidden. There,
``scripts/check_wheel.py`` runs from a folder with its own ``agents/`` and
``training.py``; the ``formosa`` command plays a tournament and writes a replay page;
then the ``[web]`` extra is added and ``formosa serve`` serves the play page. The sdist
must hold the whole repository (tests, configs, data, docs) and rebuild the same wheel.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import time
import urllib.error
import urllib.request
import venv
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from formosa_envs import GAMES

ROOT = Path(__file__).resolve().parents[1]
pytestmark = [pytest.mark.wheel, pytest.mark.timeout(900)]

PACKAGE_FOLDERS = {"formosa_envs": "formosa_envs", "agents": "formosa_envs/agents",
                   "training": "formosa_envs/training"}
"""The checkout's package folders and where the wheel puts them (pyproject's package-dir)."""

SDIST_FILES = ("pyproject.toml", "README.md", "LICENSE", "CHANGELOG.md", "Makefile", "MANIFEST.in",
               "mkdocs.yml")
SDIST_FOLDERS = ("formosa_envs", "agents", "training", "tests", "seeds", "docs", "notebooks",
                 "examples", "scripts", "benchmarks", "constraints")
NOT_IN_SDIST = (".ci/", ".gitignore", "site/")
"""What the sdist holds of the repository (every file; MANIFEST.in names them), and what
it leaves out: the CI entry, git's ignore list, the built documentation site."""

NO_TORCH = "torch<0\nstable-baselines3<0\nsb3-contrib<0\n"
"""pip constraints no release satisfies: the core install must not need these."""

SDIST_MADE = ("PKG-INFO", "setup.cfg", "formosa_envs.egg-info/")
"""Files the build adds to an sdist."""


def say(line: str) -> None:
    """A progress line (shown with ``pytest -s``)."""
    print(f"[wheel] {line}", flush=True)


def run(args: list[str | Path], *, cwd: Path, env: dict[str, str] | None = None,
        timeout: int = 300) -> subprocess.CompletedProcess:
    """Run a command; a non-zero exit fails the test with the command and its output."""
    done = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout)
    if done.returncode != 0:
        pytest.fail(f"{' '.join(map(str, args))} (in {cwd}) exited {done.returncode}:\n"
                    f"{done.stdout[-4000:]}\n{done.stderr[-4000:]}")
    return done


def source_files() -> list[str]:
    """The checkout's files as git sees them: tracked, and untracked but not ignored."""
    listed = run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT).stdout
    return sorted(p for p in listed.split("\0") if p and (ROOT / p).is_file())


def wheel_path(source: str) -> str | None:
    """Where the wheel installs checkout file ``source`` (None: not a package file)."""
    top, _, rest = source.partition("/")
    return f"{PACKAGE_FOLDERS[top]}/{rest}" if top in PACKAGE_FOLDERS and rest else None


def build(source: Path, out: Path, *kinds: str) -> str:
    """``python -m build`` (isolated) of ``source`` into ``out``: kinds sdist / wheel.
    Returns the build's output."""
    if importlib.util.find_spec("build") is None:
        pytest.fail("python -m build is missing: install the dev extra (pip install -e "
                    "'.[dev]'), which has the 'build' package")
    started = time.monotonic()
    done = run([sys.executable, "-m", "build", *(f"--{k}" for k in kinds), "--outdir", out,
                source], cwd=source, timeout=600)
    say(f"built {' and '.join(kinds)} of {source} in {time.monotonic() - started:.0f} s")
    return done.stdout + done.stderr


def clean_env(venv_dir: Path) -> dict[str, str]:
    """The environment of a command run with ``venv_dir`` active and no checkout path."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP")}
    env["PATH"] = f"{venv_dir / 'bin'}{os.pathsep}{env.get('PATH', '/usr/bin:/bin')}"
    env["VIRTUAL_ENV"] = str(venv_dir)
    return env


def members(archive: Path) -> list[str]:
    """The file names in a wheel (zip) or an sdist (tar.gz, its top folder removed)."""
    if archive.suffix == ".whl":
        with zipfile.ZipFile(archive) as whl:
            return sorted(n for n in whl.namelist() if not n.endswith("/"))
    with tarfile.open(archive) as tar:
        return sorted(m.name.partition("/")[2] for m in tar.getmembers() if m.isfile())


def wheel_hashes(archive: Path) -> dict[str, str]:
    """sha256 of every file of a wheel but its RECORD (which lists those hashes)."""
    with zipfile.ZipFile(archive) as whl:
        return {n: hashlib.sha256(whl.read(n)).hexdigest() for n in whl.namelist()
                if not n.endswith(("/", ".dist-info/RECORD"))}


class Dists:
    """The wheel and the sdist built from a copy of the checkout."""

    def __init__(self, folder: Path, log: str) -> None:
        self.log = log
        (self.wheel,) = folder.glob("*.whl")
        (self.sdist,) = folder.glob("*.tar.gz")
        with zipfile.ZipFile(self.wheel) as whl:
            meta = next(n for n in whl.namelist() if n.endswith(".dist-info/METADATA"))
            text = whl.read(meta).decode()
        self.version = re.search(r"^Version: (\S+)$", text, re.M).group(1)


@pytest.fixture(scope="module")
def files() -> list[str]:
    return source_files()


@pytest.fixture(scope="module")
def dists(tmp_path_factory: pytest.TempPathFactory, files: list[str]) -> Dists:
    """Copy the checkout's files to a temporary folder, build the sdist and the wheel."""
    source = tmp_path_factory.mktemp("source") / "formosa_envs"
    for name in files:
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, source / name)
    say(f"copied {len(files)} files of the checkout to {source}")
    out = tmp_path_factory.mktemp("dist")
    return Dists(out, build(source, out, "sdist", "wheel"))


@pytest.fixture(scope="module")
def core_venv(tmp_path_factory: pytest.TempPathFactory, dists: Dists) -> Path:
    """A fresh venv outside the checkout holding the wheel and its core dependencies."""
    folder = tmp_path_factory.mktemp("venv") / "core"
    started = time.monotonic()
    venv.create(folder, with_pip=True, clear=True)
    constraints = folder / "no-torch.txt"
    constraints.write_text(NO_TORCH)
    run([folder / "bin" / "python", "-m", "pip", "install", "-q", "-c", constraints,
         dists.wheel], cwd=folder, env=clean_env(folder), timeout=600)
    say(f"fresh venv with {dists.wheel.name} (core) in {time.monotonic() - started:.0f} s")
    return folder


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A user's folder outside the checkout, with its own ``agents/`` and ``training.py``."""
    folder = tmp_path_factory.mktemp("project")
    (folder / "agents").mkdir()
    (folder / "agents" / "__init__.py").write_text("MINE = True\n")
    (folder / "training.py").write_text("MINE = True\n")
    assert ROOT not in folder.parents
    return folder


def formosa(core_venv: Path, project: Path, *args: str) -> subprocess.CompletedProcess:
    """The venv's ``formosa`` command run in the project folder."""
    return run([core_venv / "bin" / "formosa", *args], cwd=project,
               env=clean_env(core_venv), timeout=300)


def test_every_file_of_the_package_folders_is_in_the_wheel(dists: Dists,
                                                             files: list[str]) -> None:
    """formosa_envs/, agents/ and training/ ship whole: a data file added outside the
    package-data globs (or a package left out of the list) fails here, not for users."""
    shipped = set(members(dists.wheel))
    wanted = {wheel_path(f): f for f in files if wheel_path(f)}
    missing = sorted(source for target, source in wanted.items() if target not in shipped)
    assert not missing, (f"{len(missing)} file(s) of the checkout are not in the wheel: "
                         f"{missing[:20]}; add them to [tool.setuptools] packages or "
                         "package-data in pyproject.toml")
    data = [f for f in wanted.values() if not f.endswith(".py")]
    assert len(data) >= 30, data
    say(f"the wheel holds all {len(wanted)} files of the package folders ({len(data)} data)")


def test_the_build_warns_of_nothing(dists: Dists) -> None:
    """The backend's warnings (``build`` prints them as ``WARNING ...`` lines) are
    deprecations that become errors on a later setuptools, or files it would drop."""
    warned = sorted({line for line in dists.log.splitlines() if line.startswith("WARNING")})
    assert not warned, "the build warns:\n" + "\n".join(warned)


def test_the_wheel_installs_formosa_envs_only(dists: Dists) -> None:
    """No top-level ``agents`` or ``training`` (or anything else) beside formosa_envs."""
    tops = {name.split("/")[0] for name in members(dists.wheel)}
    assert tops == {"formosa_envs", f"formosa_envs-{dists.version}.dist-info"}, tops
    with zipfile.ZipFile(dists.wheel) as whl:
        record = whl.read(f"formosa_envs-{dists.version}.dist-info/RECORD").decode()
    stray = [line for line in record.splitlines()
             if line.startswith(("agents/", "training/"))]
    assert not stray, stray[:10]


def test_the_core_install_has_no_torch(core_venv: Path) -> None:
    listed = run([core_venv / "bin" / "python", "-m", "pip", "list", "--format", "json"],
                 cwd=core_venv, env=clean_env(core_venv))
    names = {p["name"].lower().replace("_", "-") for p in json.loads(listed.stdout)}
    assert {"formosa-envs", "numpy", "gymnasium", "pettingzoo", "tqdm", "openskill"} <= names
    assert not names & {"torch", "stable-baselines3", "sb3-contrib", "starlette"}, names


def test_no_top_level_agents_or_training_is_installed(core_venv: Path,
                                                      tmp_path: Path) -> None:
    """From an empty folder, before and after ``import formosa_envs``."""
    script = ("import importlib.util as u\n"
              "before = [u.find_spec(n) for n in ('agents', 'training')]\n"
              "import formosa_envs\n"
              "after = [u.find_spec(n) for n in ('agents', 'training')]\n"
              "print(before + after)\n")
    done = run([core_venv / "bin" / "python", "-c", script], cwd=tmp_path,
               env=clean_env(core_venv))
    assert done.stdout.strip() == "[None, None, None, None]", done.stdout


def test_the_smoke_suite_passes_outside_the_checkout(core_venv: Path, project: Path,
                                                     dists: Dists, files: list[str]) -> None:
    """scripts/check_wheel.py in the project folder: games through pettingzoo.make, data
    files through their loaders, package resources, pretrained on every game."""
    resources = [f"{PACKAGE_FOLDERS[top].replace('/', '.')}:{rest}"
                 for top, _, rest in (f.partition("/") for f in files)
                 if top in PACKAGE_FOLDERS and not rest.endswith(".py")]
    (project / "resources.json").write_text(json.dumps(resources))
    shutil.copy(ROOT / "scripts" / "check_wheel.py", project / "check_wheel.py")
    started = time.monotonic()
    done = run([core_venv / "bin" / "python", "check_wheel.py", "--version", dists.version,
                "--resources", "resources.json"], cwd=project, env=clean_env(core_venv))
    for line in done.stdout.splitlines():
        say(line)
    assert done.stdout.splitlines()[-1].endswith("all checks passed"), done.stdout
    say(f"smoke suite in {time.monotonic() - started:.0f} s")


def test_the_project_s_own_agents_win_after_importing_formosa_envs(core_venv: Path,
                                                                   project: Path) -> None:
    script = ("import formosa_envs, formosa_envs.agents, formosa_envs.training\n"
              "import agents, training\n"
              "print(agents.MINE and training.MINE)\n")
    done = run([core_venv / "bin" / "python", "-c", script], cwd=project,
               env=clean_env(core_venv))
    assert done.stdout.strip() == "True", done.stdout


def test_a_tournament_rates_the_agents_without_torch(core_venv: Path, project: Path) -> None:
    done = formosa(core_venv, project, "tournament", "flowers", "--agents",
                   "pretrained,heuristic", "--games", "4", "--out", "rated")
    written = sorted(p.name for p in (project / "rated").iterdir())
    assert written == ["tournament.csv", "tournament.json"], written  # no chart: no matplotlib
    lines = done.stdout.splitlines()
    header = next((line for line in lines if "mu" in line.split()), None)
    assert header and "sigma" in header.split(), done.stdout
    for agent in ("pretrained", "heuristic"):
        row = next((line for line in lines if re.match(rf"\s*\d+\s+{agent}\s", line)), "")
        assert row, f"no rating row for {agent}:\n{done.stdout}"
        mu, sigma, _ = (float(v) for v in row.split()[-3:])
        assert 0 < sigma < 25 / 3 and mu > 0, row
    say("formosa tournament flowers --agents pretrained,heuristic --games 4: rated")


def test_replay_writes_its_page_for_a_simulated_record(core_venv: Path, project: Path) -> None:
    formosa(core_venv, project, "simulate", "tea", "--players", "3", "--games", "1",
            "--record", "records", "--quiet")
    (record,) = (project / "records").glob("*.json")
    formosa(core_venv, project, "replay", str(record), "--out", "replay.html")
    page = (project / "replay.html").read_text(encoding="utf-8")
    found = re.search(r'<script id="meta" type="application/json">(.*?)</script>', page)
    assert page.startswith("<!DOCTYPE html>") and found, page[:300]
    meta, game = json.loads(found.group(1)), json.loads(record.read_text())
    assert (meta["game"], meta["num_players"]) == ("tea", 3), meta
    assert meta["final_scores"] == game["scores"] and meta["frames"] > 1, meta
    say(f"formosa replay wrote a {meta['frames']}-frame page for a simulated tea game")


def test_the_sdist_holds_the_repository(dists: Dists, files: list[str]) -> None:
    """Every file a rebuild or the test suite needs: pyproject, README, CHANGELOG, the
    packages, configs, data, networks, web files, tests, seeds, docs, notebooks..."""
    held = members(dists.sdist)
    unplaced = [f for f in files if not f.startswith(NOT_IN_SDIST) and f not in SDIST_FILES
                and f.split("/")[0] not in SDIST_FOLDERS]
    assert not unplaced, (f"files neither in the sdist's folders nor left out: {unplaced}; "
                          "add their folder to SDIST_FOLDERS and MANIFEST.in, or to "
                          "NOT_IN_SDIST")
    wanted = {f for f in files if not f.startswith(NOT_IN_SDIST)}
    missing = sorted(wanted - set(held))
    assert not missing, f"{len(missing)} file(s) missing from the sdist: {missing[:20]}"
    extra = sorted(f for f in set(held) - wanted if not f.startswith(SDIST_MADE))
    assert not extra, f"the sdist holds files that are not the repository's: {extra[:20]}"
    say(f"the sdist holds all {len(wanted)} files of the repository")


def test_a_wheel_built_from_the_sdist_is_the_same(dists: Dists,
                                                  tmp_path_factory: pytest.TempPathFactory
                                                  ) -> None:
    unpacked = tmp_path_factory.mktemp("unpacked")
    with tarfile.open(dists.sdist) as tar:
        tar.extractall(unpacked, filter="data")
    (source,) = unpacked.iterdir()
    out = tmp_path_factory.mktemp("rebuilt")
    build(source, out, "wheel")
    (again,) = out.glob("*.whl")
    assert again.name == dists.wheel.name
    assert members(again) == members(dists.wheel)
    first, second = wheel_hashes(dists.wheel), wheel_hashes(again)
    differ = sorted(n for n in first if first[n] != second[n])
    assert not differ, f"the rebuilt wheel's files differ: {differ}"


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def fetch(url: str) -> tuple[int, bytes]:
    """Status and body of a GET (an HTTP error status is returned, not raised)."""
    try:
        with urllib.request.urlopen(url, timeout=10) as reply:
            return reply.status, reply.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


@pytest.fixture()
def server(core_venv: Path, project: Path, dists: Dists) -> Iterator[str]:
    """``formosa serve`` of the venv with the ``[web]`` extra added, on a free port."""
    run([core_venv / "bin" / "python", "-m", "pip", "install", "-q", "-c",
         core_venv / "no-torch.txt", f"{dists.wheel}[web]"], cwd=core_venv,
        env=clean_env(core_venv), timeout=600)
    port = free_port()
    log = (project / "serve.log").open("w")
    proc = subprocess.Popen([core_venv / "bin" / "formosa", "serve", "--port", str(port),
                             "--games-dir", "served-games"], cwd=project,
                            env=clean_env(core_venv), stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            try:
                fetch(base + "/api/catalogue")
                break
            except OSError:
                time.sleep(0.3)
        assert proc.poll() is None, (project / "serve.log").read_text()
        yield base
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            code = proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            code = "still running 20 s after SIGTERM (killed)"
        log.close()
    said = (project / "serve.log").read_text()
    # uvicorn shuts down gracefully, then re-raises the signal it caught: -SIGTERM
    assert code in (0, -signal.SIGTERM), f"formosa serve exited {code} on SIGTERM:\n{said}"


def test_formosa_serve_serves_the_play_page(server: str) -> None:
    """The last test: it adds ``[web]`` to the venv."""
    static = ROOT / "formosa_envs" / "web" / "static"
    status, page = fetch(server + "/")
    assert status == 200 and page == (static / "play.html").read_bytes(), (status, page[:300])
    status, script = fetch(server + "/static/play.js")
    assert status == 200 and script == (static / "play.js").read_bytes(), status
    status, body = fetch(server + "/api/catalogue")
    assert status == 200, (status, body[:300])
    assert [g["name"] for g in json.loads(body)["games"]] == list(GAMES)
    say(f"formosa serve ([web]) served /, /static/play.js and /api/catalogue at {server}")
