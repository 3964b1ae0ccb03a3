"""``--address``: a tournament and a training run on a separately started Ray cluster.

The cluster is a real ``ray start --head`` in its own process group (stopped at the
end); the commands run as subprocesses, since this test process already holds the
``ray_session`` local instance.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """The address of a one-node Ray cluster started with ``ray start --head --block``."""
    folder = Path(tempfile.mkdtemp(prefix="frc", dir="/tmp"))
    port = _free_port()
    env = {**os.environ, "RAY_AUTH_MODE": "disabled"}
    head = subprocess.Popen(
        [str(BIN / "ray"), "start", "--head", "--block", f"--port={port}", "--num-cpus=2",
         f"--temp-dir={folder}", "--include-dashboard=false", "--disable-usage-stats"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, start_new_session=True)
    try:
        _wait_for(port, head)
        yield f"127.0.0.1:{port}"
    finally:
        os.killpg(head.pid, signal.SIGKILL)  # the whole cluster: head, raylet, workers
        head.wait(timeout=60)
        shutil.rmtree(folder, ignore_errors=True)


def _wait_for(port: int, head: subprocess.Popen) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if head.poll() is not None:
            raise RuntimeError(f"ray start exited with {head.returncode}")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                time.sleep(2)  # the GCS listens before the node has registered
                return
        time.sleep(0.5)
    raise TimeoutError("the Ray head did not come up in 90 s")


def formosa(*args: str, cwd: Path) -> str:
    """Run the formosa CLI in a subprocess; its stdout (fails on a non-zero exit)."""
    env = {**os.environ, "RAY_AUTH_MODE": "disabled"}
    done = subprocess.run([str(BIN / "formosa"), *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_tournament_and_training_on_a_cluster(cluster: str, tmp_path: Path) -> None:
    common = ["tournament", "flowers", "--agents", "random,heuristic", "--games", "4",
              "--seed", "9", "--quiet"]
    on_cluster = formosa(*common, "--backend", "ray", "--address", cluster, "--workers", "2",
                         cwd=tmp_path)
    assert on_cluster == formosa(*common, cwd=tmp_path)
    out = tmp_path / "run"
    formosa("train", "flowers", "--backend", "rllib", "--address", cluster, "--runners", "1",
            "--timesteps", "600", "--n-steps", "75", "--n-envs", "4", "--batch-size", "100",
            "--eval-every", "600", "--eval-games", "2", "--final-games", "2", "--quiet",
            "--out", str(out), cwd=tmp_path)
    assert (out / "summary.json").exists() and (out / "checkpoints" / "latest").is_dir()
