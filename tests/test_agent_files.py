"""Agent files: only regular files of a bounded size are opened.

A FIFO named as a policy blocked ``open()`` forever; ``/dev/zero`` and ``/dev/urandom`` were
read until memory ran out. Every loader that takes a path (the ``policy:`` and ``az:``
specs, the direct loaders, the training entry points) must refuse a FIFO, a device, a
socket, a folder, a symlink to a device and an over-size file at once, with an error
naming the path and what it is. Each call runs in a daemon thread joined with a timeout,
so that a loader which blocks or reads forever fails the test instead of hanging it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import tempfile
import threading
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from formosa_envs.agents import AgentSpecError, make_agent
from formosa_envs.agents.network import Network
from formosa_envs.agents.policy import PolicyAgent, PolicyFileError, PolicyNotFoundError
from formosa_envs.training.common.network_export import load_value_layers
from formosa_envs.training.imitation.bc import CHECKPOINT, train_bc
from formosa_envs.training.ppo.export import load_checkpoint
from formosa_envs.training.ppo.warm_start import check_init
from formosa_envs.training.xit.expert_iteration import run_xit

from formosa_envs.games import make_game

SECONDS = 3.0
"""A refusal is a stat and a message: far below this even on a loaded machine (the
training modules are imported above, so no import runs inside the timed call)."""


def within(call: Callable[[], Any], seconds: float = SECONDS) -> tuple[Any, BaseException | None]:
    """``call()`` in a daemon thread; fail if it has not returned after ``seconds``."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["result"] = call()
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            box["error"] = exc
    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), (f"still running after {seconds} s: the loader blocks "
                                   "or reads without end")
    return box.get("result"), box.get("error")


@pytest.fixture
def short_dir() -> Iterator[Path]:
    """A folder with a short path (a Unix socket's path must fit in 108 bytes)."""
    folder = Path(tempfile.mkdtemp(prefix="af", dir="/tmp"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class Kinds:
    """Builders of the paths every loader must refuse: ``name -> (path, words)``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.fifos: list[Path] = []
        self.sockets: list[socket.socket] = []

    def make(self, kind: str) -> tuple[Path, list[str]]:
        """The path of ``kind`` and the words its refusal must contain."""
        return getattr(self, kind)()

    def fifo(self) -> tuple[Path, list[str]]:
        path = self.folder / "pipe.npz"
        os.mkfifo(path)
        self.fifos.append(path)
        return path, ["FIFO", "not a regular file"]

    def dev_zero(self) -> tuple[Path, list[str]]:
        return Path("/dev/zero"), ["character device", "not a regular file"]

    def dev_urandom(self) -> tuple[Path, list[str]]:
        return Path("/dev/urandom"), ["character device", "not a regular file"]

    def folder_(self) -> tuple[Path, list[str]]:
        path = self.folder / "net.npz"
        path.mkdir()
        return path, ["folder", "not a regular file"]

    def socket_(self) -> tuple[Path, list[str]]:
        path = self.folder / "s.npz"
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(str(path))
        self.sockets.append(server)
        return path, ["socket", "not a regular file"]

    def link_to_dev_zero(self) -> tuple[Path, list[str]]:
        path = self.folder / "link.npz"
        path.symlink_to("/dev/zero")
        return path, ["/dev/zero", "character device", "not a regular file"]

    def oversize(self) -> tuple[Path, list[str]]:
        from formosa_envs.agents.files import MAX_AGENT_FILE_BYTES
        path = self.folder / "huge.npz"
        with path.open("wb") as handle:
            handle.truncate(MAX_AGENT_FILE_BYTES + 1)   # sparse: no disk is used
        return path, ["larger than", f"{MAX_AGENT_FILE_BYTES // 2**20} MiB"]

    def close(self) -> None:
        """Unblock a reader stuck on a FIFO (today's code) and close the sockets."""
        for path in self.fifos:
            with contextlib.suppress(OSError):   # no reader waiting: nothing to unblock
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        for server in self.sockets:
            server.close()


KINDS = ["fifo", "dev_zero", "dev_urandom", "folder_", "socket_", "link_to_dev_zero",
         "oversize"]


@pytest.fixture
def kinds(short_dir: Path) -> Iterator[Kinds]:
    made = Kinds(short_dir)
    try:
        yield made
    finally:
        made.close()


def _warm_start(path: Path, folder: Path) -> Any:
    return check_init(path)


def _export(path: Path, folder: Path) -> Any:
    return load_checkpoint(path)


def _value_layers(path: Path, folder: Path) -> Any:
    return load_value_layers(path)


def _xit(path: Path, folder: Path) -> Any:
    return run_xit("flowers", folder / "xit", init=path, show_progress=False,
                   log=lambda *_: None)


LOADERS: dict[str, Callable[[Path, Path], Any]] = {
    "policy_spec": lambda p, _: make_agent(f"policy:{p}", "flowers"),
    "az_spec": lambda p, _: make_agent(f"az:{p}:2", "flowers"),
    "PolicyAgent.load": lambda p, _: PolicyAgent.load(p),
    "Network.load": lambda p, _: Network.load(p),
    "warm_start.check_init": _warm_start,
    "export.load_checkpoint": _export,
    "network_export.load_value_layers": _value_layers,
    "expert_iteration.run_xit": _xit,
}
AGENT_LOADERS = ("policy_spec", "az_spec", "PolicyAgent.load", "Network.load",
                 "network_export.load_value_layers")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("loader", list(LOADERS))
def test_every_loader_refuses_what_is_not_a_small_regular_file(kinds: Kinds, loader: str,
                                                               kind: str) -> None:
    path, words = kinds.make(kind)
    result, error = within(lambda: LOADERS[loader](path, kinds.folder))
    assert error is not None, f"{loader} loaded {path} ({kind}): {result!r}"
    assert isinstance(error, ValueError), f"{loader}: {type(error).__name__}: {error}"
    if loader in AGENT_LOADERS:
        assert isinstance(error, AgentSpecError), f"{loader}: {type(error).__name__}"
    message = str(error)
    assert str(path) in message, message
    for word in words:
        assert word in message, (word, message)


def test_bc_resume_refuses_a_checkpoint_that_is_not_a_regular_file(kinds: Kinds) -> None:
    run = kinds.folder / "run"
    run.mkdir()
    for kind in ("fifo", "link_to_dev_zero"):
        path, words = kinds.make(kind)
        target = run / CHECKPOINT
        target.unlink(missing_ok=True)
        if kind == "fifo":
            os.rename(path, target)
            kinds.fifos.append(target)
        else:
            target.symlink_to("/dev/zero")
        _, error = within(lambda: train_bc(kinds.folder / "no-data", run, resume=True,
                                           log=lambda *_: None))
        assert isinstance(error, ValueError) and "not a regular file" in str(error), error
        assert str(target) in str(error)


@pytest.mark.parametrize("kind", ["fifo", "link_to_dev_zero", "folder_"])
def test_pretrained_from_a_folder_refuses_what_is_not_a_regular_file(kinds: Kinds,
                                                                     kind: str) -> None:
    from formosa_envs.agents.pretrained import MANIFEST, build_pretrained, package_root
    root = kinds.folder / "root"
    root.mkdir()
    shutil.copyfile(Path(str(package_root() / MANIFEST)), root / MANIFEST)
    path, words = kinds.make(kind)
    os.rename(path, root / "flowers.npz")
    kinds.fifos.append(root / "flowers.npz")
    _, error = within(lambda: build_pretrained("pretrained", "", "flowers", 0, root=root))
    assert isinstance(error, AgentSpecError), error
    assert str(root / "flowers.npz") in str(error) and "not a regular file" in str(error)


# ----- the checks themselves ---------------------------------------------------------------

def write_policy(path: Path, compressed: bool = False) -> Path:
    """A small valid policy of the Flowers sizes (one hidden layer of 8)."""
    game = make_game("flowers", num_players=2)
    rng = np.random.default_rng(0)
    arrays = {"w0": rng.normal(size=(8, game.observation_size)).astype(np.float32),
              "b0": np.zeros(8, np.float32),
              "w_out": rng.normal(size=(game.num_actions, 8)).astype(np.float32),
              "b_out": np.zeros(game.num_actions, np.float32), "activation": np.array("tanh")}
    (np.savez_compressed if compressed else np.savez)(path, **arrays)
    return path


def test_regular_files_still_load(tmp_path: Path) -> None:
    from formosa_envs.agents.pretrained import package_root
    path = write_policy(tmp_path / "p.npz")
    link = tmp_path / "link.npz"
    link.symlink_to(path)
    for p in (path, link):
        assert make_agent(f"policy:{p}", "flowers").path == str(p)
        assert PolicyAgent.load(p).input_size == make_game("flowers").observation_size
    shipped = Path(str(package_root() / "flowers.npz"))
    assert make_agent(f"az:{shipped}:2", "flowers").network.has_value
    assert Network.load(shipped).has_value


def test_cap_is_generous_for_the_shipped_networks() -> None:
    from formosa_envs.agents.files import MAX_AGENT_FILE_BYTES
    from formosa_envs.agents.pretrained import package_root
    largest = max(Path(str(package_root() / f"{g}.npz")).stat().st_size
                  for g in ("flowers", "taiwan", "tea", "dadaocheng"))
    assert 32 * largest < MAX_AGENT_FILE_BYTES <= 1024 * 2**20


def test_checked_agent_file_boundaries(tmp_path: Path) -> None:
    from formosa_envs.agents.files import AgentFileError, checked_agent_file, read_agent_file
    path = tmp_path / "ten.bin"
    path.write_bytes(b"0123456789")
    assert checked_agent_file(path, max_bytes=10) == path
    assert read_agent_file(path, max_bytes=10) == b"0123456789"
    with pytest.raises(AgentFileError, match="larger than"):
        checked_agent_file(path, "network", max_bytes=9)
    with pytest.raises(AgentFileError, match="larger than"):
        read_agent_file(path, max_bytes=9)
    with pytest.raises(AgentSpecError, match="not found") as info:
        checked_agent_file(tmp_path / "none.npz")
    assert isinstance(info.value, FileNotFoundError)


def test_a_file_larger_than_its_stat_says_is_cut_off() -> None:
    """``/proc`` files report size 0 but hold text: the reader stops at the cap anyway
    (as it would for a file that grows between the stat and the read)."""
    from formosa_envs.agents.files import AgentFileError, read_agent_file
    status = Path("/proc/self/status")
    assert status.stat().st_size == 0
    with pytest.raises(AgentFileError, match="larger than 16 bytes"):
        read_agent_file(status, max_bytes=16)


def test_archive_that_unpacks_past_the_cap_is_refused(tmp_path: Path, monkeypatch) -> None:
    """A compressed ``.npz`` is small on disk but may unpack to gigabytes: its unpacked
    size counts against the cap too, before any array is read."""
    import formosa_envs.agents.files as files
    path = tmp_path / "bomb.npz"
    np.savez_compressed(path, w0=np.zeros((512, 512), np.float32))
    assert path.stat().st_size < 64 * 1024
    monkeypatch.setattr(files, "MAX_AGENT_FILE_BYTES", 256 * 1024)
    for load in (PolicyAgent.load, Network.load):
        with pytest.raises(PolicyFileError, match="unpacks to more than") as info:
            load(path)
        assert str(path) in str(info.value)
    normal = write_policy(tmp_path / "small.npz", compressed=True)
    assert zipfile.is_zipfile(normal) and PolicyAgent.load(normal).output_size > 0


def test_missing_policy_is_still_a_file_not_found(tmp_path: Path) -> None:
    with pytest.raises(PolicyNotFoundError):
        Network.load(tmp_path / "none.npz")
    with pytest.raises(AgentSpecError, match="not found"):
        make_agent(f"az:{tmp_path / 'none.npz'}", "flowers")
