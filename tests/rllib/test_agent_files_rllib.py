"""RLlib checkpoints: a folder of regular files within the cap, checked before Ray reads it.

``rllib:PATH`` hands a folder to ``RLModule.from_checkpoint``, which opens every file in
it: a FIFO there blocked the loader forever and a link to ``/dev/zero`` was read as a
pickle. The loader must refuse, at once and naming the entry, a checkpoint that is not a
folder or holds anything but regular files and folders, or more than the cap. Calls run
in a daemon thread joined with a timeout (see ``tests/test_agent_files.py``).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from formosa_envs.agents import AgentSpecError, make_agent

from formosa_envs.envs.rllib import load_rllib_agent
from formosa_envs.envs.rllib_config import module_spec
from tests.test_agent_files import Kinds, within

pytestmark = pytest.mark.rllib

LOADERS: dict[str, Callable[[Path], Any]] = {
    "load_rllib_agent": load_rllib_agent,
    "rllib_spec": lambda p: make_agent(f"rllib:{p}", "flowers"),
}


@pytest.fixture(scope="module")
def module_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real (untrained) masked PPO module saved as an RLlib module checkpoint."""
    folder = tmp_path_factory.mktemp("rl") / "module"
    module_spec({"game": "flowers", "num_players": 2}, net_arch=(8,)).build() \
        .save_to_path(str(folder))
    return folder


@pytest.fixture
def kinds() -> Any:
    import tempfile
    folder = Path(tempfile.mkdtemp(prefix="ar", dir="/tmp"))
    made = Kinds(folder)
    try:
        yield made
    finally:
        made.close()
        shutil.rmtree(folder, ignore_errors=True)


def _copy(module_folder: Path, kinds: Kinds, layout: str) -> tuple[Path, Path]:
    """A copy of the module checkpoint: ``(path to load, module folder in it)``."""
    if layout == "module":
        target = kinds.folder / "ckpt"
        shutil.copytree(module_folder, target)
        return target, target
    root = kinds.folder / "algo"
    target = root / "learner_group" / "learner" / "rl_module" / "learner"
    shutil.copytree(module_folder, target)
    return root, target


def _check(error: BaseException | None, loader: str, words: list[str]) -> None:
    assert isinstance(error, ValueError), f"{type(error).__name__}: {error}"
    if loader == "rllib_spec":
        assert isinstance(error, AgentSpecError)
    for word in words:
        assert word in str(error), (word, str(error))


@pytest.mark.parametrize("layout", ["module", "algorithm"])
@pytest.mark.parametrize(("entry", "kind"), [
    ("class_and_ctor_args.pkl", "fifo"), ("module_state.pkl", "fifo"),
    ("class_and_ctor_args.pkl", "link_to_dev_zero"), ("metadata.json", "socket_"),
    ("module_state.pkl", "oversize"), ("extra", "dev_urandom")])
@pytest.mark.parametrize("loader", list(LOADERS))
def test_a_checkpoint_holding_a_special_file_is_refused(module_folder: Path, kinds: Kinds,
                                                        loader: str, entry: str, kind: str,
                                                        layout: str) -> None:
    path, inside = _copy(module_folder, kinds, layout)
    made, words = kinds.make(kind)
    target = inside / entry
    target.unlink(missing_ok=True)
    if kind == "dev_urandom":
        target.symlink_to(made)
    else:
        os.rename(made, target)
        kinds.fifos.append(target)
    _, error = within(lambda: LOADERS[loader](path))
    _check(error, loader, [str(target), *words])


@pytest.mark.parametrize("kind", ["fifo", "dev_zero", "link_to_dev_zero", "oversize"])
@pytest.mark.parametrize("loader", list(LOADERS))
def test_a_checkpoint_that_is_not_a_folder_is_refused(kinds: Kinds, loader: str,
                                                      kind: str) -> None:
    path, _ = kinds.make(kind)
    _, error = within(lambda: LOADERS[loader](path))
    _check(error, loader, [str(path), "not a folder"])


def test_a_real_checkpoint_still_loads(module_folder: Path, kinds: Kinds) -> None:
    path, _ = _copy(module_folder, kinds, "algorithm")
    agent, error = within(lambda: make_agent(f"rllib:{path}", "flowers"), seconds=60)
    assert error is None, error
    assert agent.layers[0][0].shape[0] == 8
    agent, error = within(lambda: load_rllib_agent(module_folder), seconds=60)
    assert error is None and agent.layers[0][0].shape[0] == 8, error
