"""The one-way import rule of DESIGN.md section 1, checked on the source files."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RL_LIBS = {"pettingzoo", "gymnasium", "torch", "stable_baselines3", "sb3_contrib", "ray", "pyspiel",
           "open_spiel", "jax", "torchrl", "tianshou", "supersuit", "agilerl"}
ENGINES = {"formosa_envs.core", "formosa_envs.games"}
BELOW_PIPELINES = ENGINES | {"formosa_envs.envs", "formosa_envs.agents", "formosa_envs.tools",
                             "formosa_envs.evaluation", "formosa_envs.training.common",
                             "formosa_envs", "formosa_envs.jax"}
# layer -> project packages it may import (besides itself)
ALLOWED = {
    "formosa_envs.core": set(),
    "formosa_envs.games": {"formosa_envs.core"},
    "formosa_envs.envs": ENGINES,
    "formosa_envs.agents": ENGINES,
    # the OpenSpiel bridge: the engines, and agents as bots (bot_from_spec, inside a function)
    "formosa_envs.spiel": ENGINES | {"formosa_envs.agents"},
    # tournaments, ratings, the solo objective: agents on the engines, no learner (the Ray
    # backend shares the RLlib bridge's Ray start-up settings, envs/rllib_config.py)
    "formosa_envs.evaluation": ENGINES | {"formosa_envs.agents", "formosa_envs.tools",
                                          "formosa_envs", "formosa_envs.envs"},
    # the pipelines: everything below them, never each other, except that the PPO
    # pipeline's warm start runs the imitation pipeline as its first stage
    "formosa_envs.training.ppo": BELOW_PIPELINES | {"formosa_envs.training.imitation"},
    "formosa_envs.training.imitation": BELOW_PIPELINES,
    "formosa_envs.training.xit": BELOW_PIPELINES,
    "formosa_envs.training.jax": BELOW_PIPELINES,
    "formosa_envs.training.common": ENGINES | {"formosa_envs.agents", "formosa_envs.tools"},
}
THIRD_PARTY_OK = {
    "formosa_envs.core": {"numpy", "tomli"},
    "formosa_envs.games": {"numpy"},
    "formosa_envs.agents": {"numpy"},
}
FOLDERS = {"agents": "formosa_envs.agents", "training": "formosa_envs.training"}
"""Repository folders installed under another name (pyproject's package-dir)."""


def module_of(path: Path) -> str:
    """The dotted module name a source file is installed as."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[0] in FOLDERS:
        parts[0:1] = FOLDERS[parts[0]].split(".")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def folder_of(package: str) -> Path:
    """The repository folder holding ``package``."""
    for folder, name in FOLDERS.items():
        if package == name or package.startswith(name + "."):
            return ROOT.joinpath(folder, *package[len(name) + 1:].split(".")) \
                if package != name else ROOT / folder
    return ROOT.joinpath(*package.split("."))


def imports_of(path: Path) -> set[str]:
    """Absolute module names imported by a file (relative imports resolved)."""
    module = module_of(path) + (".__init__" if path.name == "__init__.py" else "")
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")[: -node.level]
                names.add(".".join(base + ([node.module] if node.module else [])))
            else:
                names.add(node.module or "")
    return names


def layer_of(module: str) -> str | None:
    for layer in sorted(ALLOWED, key=len, reverse=True):
        if module == layer or module.startswith(layer + "."):
            return layer
    return None


def test_layers_import_only_downwards() -> None:
    problems = []
    for layer in ALLOWED:
        folder = folder_of(layer)
        for path in folder.rglob("*.py"):
            for name in imports_of(path):
                target = layer_of(name)
                top = name.split(".")[0]
                if target and target != layer and target not in ALLOWED[layer] \
                        and not _bridge_exception(path, name, target):
                    problems.append(f"{path.relative_to(ROOT)} imports {name}")
                if layer in THIRD_PARTY_OK and top in RL_LIBS:
                    problems.append(f"{path.relative_to(ROOT)} imports RL library {name}")
                if layer == "formosa_envs.core" and top not in (
                        THIRD_PARTY_OK[layer] | {"formosa_envs", "__future__"}) \
                        and not _is_stdlib(top):
                    problems.append(f"{path.relative_to(ROOT)} imports non-stdlib {name}")
    assert not problems, "\n".join(problems)


def test_rl_libraries_only_in_envs_and_training() -> None:
    offenders = []
    for path in ROOT.joinpath("formosa_envs").rglob("*.py"):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("formosa_envs/envs/") or rel.startswith("formosa_envs/tools/bench") \
                or rel.startswith(("formosa_envs/spiel/", "formosa_envs/jax/")) \
                or rel == "formosa_envs/evaluation/backends.py":  # Ray, inside a function
            continue
        tops = {n.split(".")[0] for n in imports_of(path)}
        if tops & RL_LIBS:
            offenders.append(rel)
    assert not offenders, offenders


def test_evaluation_needs_no_learner() -> None:
    """Tournaments, ratings and the solo objective run on the core install: no torch,
    stable-baselines3, JAX or training code, not even inside a function."""
    learners = {"torch", "stable_baselines3", "sb3_contrib", "jax", "optax"}
    offenders = [f"{path.relative_to(ROOT)} imports {name}"
                 for path in sorted(ROOT.joinpath("formosa_envs", "evaluation").rglob("*.py"))
                 for name in imports_of(path)
                 if name.split(".")[0] in learners or name.startswith("formosa_envs.training")]
    assert not offenders, offenders


def test_each_training_folder_is_a_package_the_build_installs() -> None:
    """Every folder of agents/ and training/ with modules is a package listed in
    pyproject (the list is explicit because of the package-dir mapping)."""
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "packages"])
    folders = {path.parent for top in ("agents", "training", "formosa_envs")
               for path in ROOT.joinpath(top).rglob("*.py") if "__pycache__" not in path.parts}
    for folder in sorted(folders):
        assert (folder / "__init__.py").is_file(), f"{folder.relative_to(ROOT)} has no __init__"
        assert module_of(folder / "__init__.py") in listed, f"{folder.relative_to(ROOT)} not listed"


def test_the_checker_detects_a_violation(tmp_path: Path) -> None:
    """Negative control: a forbidden import is found by imports_of."""
    bad = ROOT / "formosa_envs" / "core" / "engine.py"
    assert "formosa_envs.core.actions" in imports_of(bad)
    assert layer_of("formosa_envs.envs.aec") == "formosa_envs.envs"
    assert layer_of("formosa_envs.training.xit.selfplay") == "formosa_envs.training.xit"
    assert "formosa_envs.training.ppo" not in ALLOWED["formosa_envs.training.xit"]
    assert module_of(ROOT / "training" / "ppo" / "train.py") == "formosa_envs.training.ppo.train"


def _bridge_exception(path: Path, name: str, target: str) -> bool:
    """The RLlib bridge (``envs/rllib*.py``) plays scripted agents inside its
    env and registers the ``rllib:`` agent spec; the learner view for client libraries
    (``envs/learner.py``) builds its opponents from agent specs, inside functions: these
    alone of the envs may import agents. Agents never import envs (the ``rllib:`` kind is
    declared by name in the agent-spec registry, and the bridge registers its builder when
    imported)."""
    return path.parent.name == "envs" and (path.name.startswith("rllib")
                                           or path.name == "learner.py") and \
        target == "formosa_envs.agents"


def test_agents_never_import_the_rl_side() -> None:
    """``agents/`` imports only ``formosa_envs.core`` / ``formosa_envs.games`` of the
    package: never ``formosa_envs.envs`` (nor the package root, tools or the CLI), not
    even inside a function."""
    offenders = []
    for path in sorted(ROOT.joinpath("agents").rglob("*.py")):
        for name in imports_of(path):
            if (name == "formosa_envs" or name.startswith("formosa_envs.")) and \
                    layer_of(name) not in ("formosa_envs.core", "formosa_envs.games",
                                           "formosa_envs.agents") and \
                    name != "formosa_envs._legacy":  # the old top-level name's alias
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not offenders, offenders


def test_agent_specs_do_not_load_the_bridge_until_asked() -> None:
    """Building every numpy agent leaves the RLlib bridge unimported; the bridge, once
    imported, owns the ``rllib`` kind's builder."""
    import subprocess
    import sys
    script = (
        "import sys\n"
        "import formosa_envs.agents\n"
        "for spec in ('random', 'heuristic', 'mcts:5'):\n"
        "    formosa_envs.agents.make_agent(spec, 'tea', seed=0)\n"
        "assert 'rllib' in formosa_envs.agents.agent_kinds()\n"
        "label = formosa_envs.agents.agent_label('rllib:runs/a/latest@learner')\n"
        "assert label == 'rllib:latest@learner'\n"
        "assert 'formosa_envs.envs.rllib' not in sys.modules\n"
        "assert not [m for m in sys.modules if m == 'ray' or m.startswith('ray.')]\n"
        "print('ok')\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]


def test_core_works_without_ray(tmp_path: Path) -> None:
    """With ``ray`` unimportable: the packages import, a tournament runs, and an
    ``rllib:`` agent spec names the missing extra."""
    import subprocess
    import sys
    script = tmp_path / "no_ray.py"
    script.write_text(
        "import sys\n"
        "sys.modules['ray'] = None  # any 'import ray' now raises ImportError\n"
        "import formosa_envs, formosa_envs.agents, formosa_envs.evaluation.evaluate\n"
        "from formosa_envs.evaluation.evaluate import run_tournament\n"
        "r = run_tournament('flowers', ['random', 'heuristic'], 2, 2, show_progress=False)\n"
        "assert len(r.records) == 2\n"
        "from formosa_envs.agents import AgentSpecError, make_agent\n"
        "try:\n"
        "    make_agent('rllib:somewhere', 'flowers')\n"
        "except AgentSpecError as exc:\n"
        "    assert '[rllib] extra' in str(exc), exc\n"
        "else:\n"
        "    raise SystemExit('no error')\n"
        "from formosa_envs.training.train import main as train\n"
        "try:\n"
        "    train(['flowers', '--backend', 'rllib'])\n"
        "except ValueError as exc:\n"
        "    assert '[rllib] extra' in str(exc), exc\n"
        "else:\n"
        "    raise SystemExit('no error')\n"
        "assert not [m for m in sys.modules if m.startswith('ray.')]\n")
    done = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]


def _is_stdlib(name: str) -> bool:
    import sys
    return name in sys.stdlib_module_names


def test_every_data_folder_ships_in_the_wheel() -> None:
    """A game's data/*.toml (and the replay page) must be package data, or a
    non-editable install would miss them."""
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"]
    for folder in sorted(ROOT.joinpath("formosa_envs", "games").glob("*/data")):
        package = f"formosa_envs.games.{folder.parent.name}"
        assert "data/*.toml" in declared.get(package, []), f"{package} data not declared"
    assert "*.html" in declared.get("formosa_envs.tools", [])
