"""One import namespace: formosa_envs works from a folder that has its own ``agents/``
and ``training.py`` (as research projects do), and the old top-level names of a checkout
still import, deprecated, as the very modules of the new ones."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PLAY_AND_TRAIN = """
import agents, training                      # the project's own, not formosa_envs'
assert agents.MINE and training.MINE
import formosa_envs
from formosa_envs.agents import make_agent
from formosa_envs.evaluation.evaluate import run_tournament
from formosa_envs.training.train import main as train
env = formosa_envs.env("tea", num_players=2)
env.reset(seed=0)
result = run_tournament("flowers", ["random", "heuristic"], 2, 2, show_progress=False)
assert len(result.records) == 2 and make_agent("heuristic", "tea") is not None
assert train(["flowers", "--out", "run", "--timesteps", "512", "--clone-games", "0",
              "--n-envs", "2", "--n-steps", "128", "--batch-size", "128", "--eval-every",
              "256", "--eval-games", "2", "--final-games", "2", "--snapshot-every", "256",
              "--checkpoint-every", "256", "--workers", "1", "--quiet"]) == 0
import agents as again
assert again.MINE and sys.modules["agents"].__file__.startswith(str(HERE))
print("ok")
"""


def test_a_project_with_its_own_agents_and_training_still_plays_and_trains(
        tmp_path: Path) -> None:
    """A folder with ``agents/__init__.py`` and ``training.py`` of its own: both stay the
    project's, and formosa_envs plays, runs a tournament and trains beside them."""
    (tmp_path / "agents").mkdir()
    (tmp_path / "agents" / "__init__.py").write_text("MINE = True\n")
    (tmp_path / "training.py").write_text("MINE = True\n")
    script = tmp_path / "run.py"
    script.write_text(f"import sys\nfrom pathlib import Path\nHERE = Path({str(tmp_path)!r})\n"
                      + PLAY_AND_TRAIN)
    done = subprocess.run([sys.executable, "-W", "error::DeprecationWarning:formosa_envs",
                           str(script)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), done.stderr[-3000:]
    assert (tmp_path / "run" / "policy.npz").is_file()


def test_the_old_names_of_a_checkout_are_the_new_modules() -> None:
    """``import agents`` / ``training.evaluate`` from the repository root: deprecated
    aliases of the new modules (one registry, one set of classes)."""
    script = (
        "import warnings\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    import agents\n"
        "    from agents.mcts import MCTSAgent\n"
        "    from training.evaluate import run_tournament\n"
        "    import training.train\n"
        "import formosa_envs.agents, formosa_envs.agents.mcts, formosa_envs.evaluation.evaluate\n"
        "import formosa_envs.training.ppo.train\n"
        "assert agents is formosa_envs.agents\n"
        "assert MCTSAgent is formosa_envs.agents.mcts.MCTSAgent\n"
        "assert run_tournament is formosa_envs.evaluation.evaluate.run_tournament\n"
        "assert training.train is formosa_envs.training.ppo.train\n"
        "texts = [str(w.message) for w in caught if w.category is DeprecationWarning]\n"
        "assert any(\"'agents' is deprecated\" in t for t in texts), texts\n"
        "assert any('formosa_envs.evaluation.evaluate' in t for t in texts), texts\n"
        "print('ok')\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-3000:]


def test_new_names_import_without_a_deprecation_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        import formosa_envs.agents  # noqa: F401

        import formosa_envs.evaluation.evaluate  # noqa: F401
    assert "agents" not in sys.modules or sys.modules["agents"] is sys.modules[
        "formosa_envs.agents"]


def test_legacy_names_map_every_old_training_module() -> None:
    """Every module of the old flat ``training`` package has a new home that imports."""
    import importlib

    from formosa_envs._legacy import OLD_TRAINING, new_name
    light = {k: v for k, v in OLD_TRAINING.items()
             if not v.startswith(("training.jax", "training.ppo.train_rllib"))}
    for old in light:
        target = new_name(f"training.{old}")
        assert target is not None and importlib.util.find_spec(target) is not None, old
    assert new_name("numpy") is None and new_name("agents.mcts") == "formosa_envs.agents.mcts"
