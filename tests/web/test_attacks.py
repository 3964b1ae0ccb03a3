"""The web app tried as an attacker would, through its HTTP API: seat specs that name
files on the server, thinking budgets without end, option keys that are no options,
records left readable by others, pages framed by other sites, and a flood of games."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import ROOT
from .helpers import error, new_game, settled, view

NEW = {"game": "flowers", "num_players": 2, "seats": ["human", "random"]}
NETWORK = ROOT / "agents" / "pretrained" / "flowers.npz"


def app_client(folder: Path, **limits: Any) -> Any:
    """A TestClient over an app with ``limits`` (a :class:`ServeLimits`'s fields)."""
    from starlette.testclient import TestClient

    from formosa_envs.web.app import create_app
    from formosa_envs.web.seats import ServeLimits
    return TestClient(create_app(folder, limits=ServeLimits(**limits)))


@pytest.fixture()
def agents_dir(tmp_path: Path) -> Path:
    """A folder of agent files: a network, a FIFO, a sub-folder, a hidden file, a link
    inside and a link out of it."""
    folder = tmp_path / "agents"
    folder.mkdir()
    shutil.copy(NETWORK, folder / "mine.npz")
    shutil.copy(NETWORK, tmp_path / "outside.npz")
    shutil.copy(NETWORK, folder / ".hidden.npz")
    os.mkfifo(folder / "pipe.npz")
    (folder / "sub").mkdir()
    shutil.copy(NETWORK, folder / "sub" / "deep.npz")
    (folder / "alias.npz").symlink_to(folder / "mine.npz")
    (folder / "escape.npz").symlink_to(tmp_path / "outside.npz")
    return folder


@pytest.fixture()
def with_dir(tmp_path: Path, agents_dir: Path) -> Iterator[Any]:
    with app_client(tmp_path / "games", agents_dir=agents_dir) as test_client:
        yield test_client


def seat_error(client: Any, spec: str) -> str:
    return error(client.post("/api/games", json={**NEW, "seats": ["human", spec]}), 400,
                 "seat 1")


# ----- 1. seat specs that name files ---------------------------------------------------------
FILE_SPECS = ["policy:/no/such.npz", "policy:/etc", "policy:/etc/passwd", "az:/no/such.npz:3",
              "az:/etc", "az:/etc/passwd:2", "policy:mine.npz", "policy:../x.npz"]
DEVICE_SPECS = ["policy:{fifo}", "az:{fifo}", "az:{fifo}:5", "policy:/dev/zero", "az:/dev/zero",
                "az:/dev/urandom"]
BOUNDED = """
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
from starlette.testclient import TestClient
from formosa_envs.web.app import create_app
client = TestClient(create_app(sys.argv[1]), raise_server_exceptions=False)
for spec in sys.argv[2:]:
    reply = client.post("/api/games", json={"game": "flowers", "num_players": 2,
                                            "seats": ["human", spec]})
    print(json.dumps([reply.status_code, reply.text]), flush=True)
"""


def normalised(message: str, spec: str) -> str:
    """``message`` after the seat and spec, with the spec's kind blanked out."""
    return message.split(": ", 1)[1].replace(repr(spec.split(":")[0]), "KIND")


def check_file_refusal(message: str, spec: str, reference: str) -> None:
    """One message naming the rule, telling nothing about the path."""
    assert "read no file" in message and "human, random, heuristic, mcts" in message
    assert "--agents-dir" in message
    rest = normalised(message, spec)
    assert not any(word in rest.lower() for word in ("no such", "exist", "directory",
                                                     "permission", "errno"))
    assert rest == normalised(reference, "policy:/no/such.npz")


@pytest.mark.parametrize("spec", FILE_SPECS)
def test_a_request_cannot_name_a_file_on_the_server(client: Any, spec: str) -> None:
    """One 400 naming the rule, the same whatever the path is (missing, a folder, a
    file): it tells nothing about the server's disk."""
    check_file_refusal(seat_error(client, spec), spec,
                       seat_error(client, "policy:/no/such.npz"))
    assert client.get("/api/games").json()["games"] == []


def test_a_device_or_a_fifo_is_refused_before_it_is_opened(client: Any,
                                                           tmp_path: Path) -> None:
    """A FIFO (open() blocks for ever) and /dev/zero (read for ever) as seats: each a
    400 at once. Run in a process with 3 GiB of address space and 60 s, so that a server
    that opens them fails this test instead of hanging it or eating the machine."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    specs = [spec.format(fifo=fifo) for spec in DEVICE_SPECS]
    try:
        done = subprocess.run([sys.executable, "-c", BOUNDED, str(tmp_path / "g"), *specs],
                              cwd=ROOT, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired as exc:
        raise AssertionError(f"the server hung on a seat spec: {exc.stdout!r:.300}") from None
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(replies) == len(specs), done.stderr[-600:]
    reference = seat_error(client, "policy:/no/such.npz")
    for spec, (status, text) in zip(specs, replies, strict=True):
        assert status == 400, f"{spec}: {status} {text[:200]}"
        check_file_refusal(json.loads(text)["error"], spec, reference)


@pytest.mark.parametrize("spec", ["rllib:/tmp", "rllib:/no/such", "rllib:x@learner"])
def test_rllib_checkpoints_are_never_loaded_from_the_web(client: Any, spec: str) -> None:
    message = seat_error(client, spec)
    assert "rllib" in message and "pickle" in message
    assert normalised(message, spec) == normalised(seat_error(client, "rllib:/tmp"),
                                                   "rllib:/tmp")


@pytest.mark.parametrize("name", ["mine.npz", "alias.npz"])
def test_an_agents_dir_offers_its_files_by_name(with_dir: Any, name: str) -> None:
    for spec in (f"policy:{name}", f"az:{name}:3"):
        first = new_game(with_dir, seats=("human", spec))
        assert first["seats"] == ["human", spec]
    catalogue = with_dir.get("/api/catalogue").json()
    assert catalogue["agent_files"] == ["alias.npz", "mine.npz"]


@pytest.mark.parametrize("spec", [
    "policy:../outside.npz", "policy:/etc/passwd", "policy:sub/deep.npz", "az:sub/deep.npz:3",
    "policy:.hidden.npz", "policy:pipe.npz", "az:pipe.npz", "policy:escape.npz",
    "policy:sub", "policy:..", "policy:.", "policy:", "policy:missing.npz",
    "policy:mine.npz\x00", "rllib:mine.npz", "az:escape.npz:3",
])
def test_an_agents_dir_gives_nothing_but_its_own_files(with_dir: Any, spec: str) -> None:
    message = seat_error(with_dir, spec)
    assert "mine.npz" in message or "rllib" in message, message
    assert with_dir.get("/api/games").json()["games"] == []


def test_the_agents_dir_catalogue_lists_only_regular_files_inside(with_dir: Any) -> None:
    listed = with_dir.get("/api/catalogue").json()
    assert ".hidden.npz" not in listed["agent_files"] and "pipe.npz" not in listed["agent_files"]
    assert "policy:mine.npz" in listed["seat_examples"]
    assert "policy" in listed["agent_kinds"] and "rllib" not in listed["agent_kinds"]


# ----- 2. thinking budgets --------------------------------------------------------------------
@pytest.mark.parametrize("spec", ["mcts:1000000", "mcts:2001", "mcts:5000:heuristic",
                                  "pretrained:az:100000", "pretrained:mcts:2001"])
def test_a_search_budget_over_the_cap_is_refused_stating_it(client: Any, spec: str) -> None:
    message = seat_error(client, spec)
    assert "at most 2,000 simulations" in message and "--max-simulations" in message


def test_the_cap_is_the_servers_own(tmp_path: Path) -> None:
    with app_client(tmp_path / "games", max_simulations=50) as small:
        assert "at most 50 simulations" in seat_error(small, "mcts:51")
        assert new_game(small, seats=("human", "mcts:50"))["status"] == "playing"
        assert small.get("/api/catalogue").json()["limits"]["max_simulations"] == 50


# ----- 4. option keys that are no options ----------------------------------------------------
@pytest.mark.parametrize("key", ["name", "game", "cls", "seed", "num_players_x", "__class__",
                                 "options"])
def test_an_option_key_that_is_no_option_is_a_400(client: Any, key: str) -> None:
    body = {**NEW, "options": {key: 1}}
    message = error(client.post("/api/games", json=body), 400, repr(key), "target_vp")
    assert "unknown option" in message


# ----- 3. records on disk ---------------------------------------------------------------------
def test_records_of_games_in_progress_are_owner_only(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir(mode=0o755)
    old = folder / "notes.txt"
    old.write_text("x")
    mask = os.umask(0)
    try:
        with app_client(folder) as test_client:
            first = new_game(test_client)
            record = folder / f"{first['id']}.json"
            assert stat.S_IMODE(record.stat().st_mode) == 0o600
            assert stat.S_IMODE(folder.stat().st_mode) == 0o700
            new_game(test_client, seats=("human", "human"))
    finally:
        os.umask(mask)
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in folder.glob("*.json"))


def test_a_games_folder_it_creates_is_owner_only(tmp_path: Path) -> None:
    mask = os.umask(0o002)
    try:
        with app_client(tmp_path / "a" / "games"):
            pass
    finally:
        os.umask(mask)
    assert stat.S_IMODE((tmp_path / "a" / "games").stat().st_mode) == 0o700


# ----- 5. headers and the number of games -----------------------------------------------------
@pytest.mark.parametrize("path", ["/", "/play/0123456789ab", "/static/play.js", "/api/catalogue",
                                  "/api/games", "/api/nothing"])
def test_every_answer_forbids_framing_and_sniffing(client: Any, path: str) -> None:
    headers = client.get(path).headers
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"
    policy = headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "default-src 'self'" in policy


def test_games_in_progress_are_capped(tmp_path: Path) -> None:
    with app_client(tmp_path / "games", max_games=2) as test_client:
        first, second = new_game(test_client), new_game(test_client)
        body = {**NEW, "seed": 1}
        message = error(test_client.post("/api/games", json=body), 503, "2 games in progress")
        assert "--max-games" in message
        test_client.post(f"/api/games/{first['id']}/abandon", json={})
        assert new_game(test_client)["status"] == "playing"
        assert second["id"] in {g["id"] for g in test_client.get("/api/games").json()["games"]}


def test_games_over_leave_memory_but_stay_listed_and_downloadable(tmp_path: Path) -> None:
    from formosa_envs.web.store import KEPT_OVER
    folder = tmp_path / "games"
    with app_client(folder, max_games=3) as test_client:
        store = test_client.app.state.store
        over = []
        for seed in range(KEPT_OVER + 4):
            game = new_game(test_client, seed=seed)
            test_client.post(f"/api/games/{game['id']}/abandon", json={})
            over.append(game["id"])
        assert len(store.sessions) <= KEPT_OVER
        listed = {g["id"]: g for g in test_client.get("/api/games").json()["games"]}
        assert set(over) <= set(listed) and listed[over[0]]["status"] == "abandoned"
        for game_id in over:
            record = test_client.get(f"/api/games/{game_id}/record")
            assert record.status_code == 200, record.text
            assert record.json() == json.loads((folder / f"{game_id}.json").read_text())
        again = view(test_client, over[0])
        assert again["status"] == "abandoned" and again["svg"].startswith("<svg")
        assert len(store.sessions) <= KEPT_OVER


def test_a_finished_game_is_dropped_from_memory(tmp_path: Path) -> None:
    from .helpers import play_out
    with app_client(tmp_path / "games") as test_client:
        game = new_game(test_client, game="dadaocheng", seats=("human",), seed=2)
        play_out(test_client, game["id"])
        store = test_client.app.state.store
        assert game["id"] not in store.live()
        assert settled(test_client, game["id"])["status"] == "finished"
