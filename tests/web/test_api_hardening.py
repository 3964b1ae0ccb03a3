"""An adversarial pass over the web API: junk bodies, fields, content types, ids and
query strings get a 4xx naming the fault (never a 500, never a change to the game);
cross-site posts are refused; corrupt files in the games folder are skipped at
start; the records the server saves load and replay; a seat's view never depends on
what that seat cannot see."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from formosa_envs.tools.record import load_record, replay_record

from .conftest import ROOT
from .helpers import GATE_KIND, error, new_game, play_out, register_gate_agent, settled, view

JSON = {"content-type": "application/json"}
FIELDS = {"moves": ("version", "action", "seat"), "undo": ("version", "seat"),
          "abandon": ("version", "seat")}




def untouched(client: Any, game_id: str, before: dict[str, Any]) -> None:
    """The game did not change (same version, same number of steps)."""
    now = view(client, game_id)
    assert (now["version"], now["moves_made"]) == (before["version"], before["moves_made"])


# ----- bodies -------------------------------------------------------------------------------
@pytest.mark.parametrize(("raw", "words"), [
    (b'{"version": ' + b"9" * 5000 + b', "action": 1}', ["not JSON", "digits"]),
    (b"[" * 3000 + b"]" * 3000, ["nested too deeply"]),
    (b'{"a": ' * 3000 + b"1" + b"}" * 3000, ["nested too deeply"]),
    (b'{"version": 1, "action": 1', ["not JSON"]),
    (b'"\\ud800"', ["JSON object", "str"]),
    (b"\xef\xbb\xbf", ["not JSON"]),
])
def test_bodies_json_cannot_hold_are_400_not_500(client: Any, raw: bytes,
                                                 words: list[str]) -> None:
    first = new_game(client)
    error(client.post("/api/games", content=raw, headers=JSON), 400, *words)
    for what in FIELDS:
        error(client.post(f"/api/games/{first['id']}/{what}", content=raw, headers=JSON), 400,
              *words)
    untouched(client, first["id"], first)


def test_a_huge_body_is_refused_before_it_is_read_whole(client: Any) -> None:
    def chunks() -> Any:
        for _ in range(200):
            yield b" " * 1024

    error(client.post("/api/games", content=chunks(), headers=JSON), 413, "at most 65536")
    error(client.post("/api/games", content=b"{}", headers={**JSON, "content-length": "9" * 30}),
          413, "at most")


@pytest.mark.parametrize("kind", ["text/plain", "text/plain;charset=UTF-8",
                                  "application/x-www-form-urlencoded",
                                  "multipart/form-data; boundary=x", "application/xml", ""])
def test_a_body_that_says_it_is_not_json_is_a_415(client: Any, kind: str) -> None:
    first = new_game(client)
    body = json.dumps({"version": first["version"], "action": first["moves"][0]["action"]})
    error(client.post(f"/api/games/{first['id']}/moves", content=body,
                      headers={"content-type": kind}), 415, "application/json")
    error(client.post("/api/games", content=json.dumps(
        {"game": "flowers", "num_players": 2, "seats": ["human", "random"]}),
        headers={"content-type": kind}), 415, "Content-Type")
    untouched(client, first["id"], first)
    assert len(client.get("/api/games").json()["games"]) == 1


def test_json_content_types_with_parameters_are_accepted(client: Any) -> None:
    first = new_game(client)
    body = json.dumps({"version": first["version"], "action": first["moves"][0]["action"]})
    done = client.post(f"/api/games/{first['id']}/moves", content=body,
                       headers={"content-type": "Application/JSON; charset=utf-8"})
    assert done.status_code == 200, done.text


def test_a_post_from_another_site_is_refused(client: Any) -> None:
    """A page on another site cannot drive the local server from the person's browser."""
    first = new_game(client)
    body = {"version": first["version"], "action": first["moves"][0]["action"]}
    url = f"/api/games/{first['id']}/moves"
    for origin in ("http://evil.example", "http://127.0.0.1:9999", "null"):
        error(client.post(url, json=body, headers={"origin": origin}), 403, "cross-site",
              origin)
        error(client.post(f"/api/games/{first['id']}/abandon", json={},
                          headers={"origin": origin}), 403, "cross-site")
    untouched(client, first["id"], first)
    same = client.post(url, json=body, headers={"origin": "http://testserver"})
    assert same.status_code == 200, same.text


# ----- fields -------------------------------------------------------------------------------
@pytest.mark.parametrize("what", sorted(FIELDS))
def test_extra_fields_are_refused_naming_them(client: Any, what: str) -> None:
    first = new_game(client)
    body = {"version": first["version"], "seat": 0, "colour": "red"}
    if what == "moves":
        body["action"] = first["moves"][0]["action"]
    error(client.post(f"/api/games/{first['id']}/{what}", json=body), 400, "'colour'",
          *FIELDS[what])
    untouched(client, first["id"], first)


JUNK = ["1", "", 1.5, 1.0, True, False, [1], {"n": 1}, float("nan"), 10**30, -(10**30),
        10**4000, "\u202e\ufeff\U0001f4a9", "x" * 20_000]


@pytest.mark.parametrize("field", ["version", "action", "seat"])
@pytest.mark.parametrize("value", JUNK, ids=[repr(v)[:12] for v in JUNK])
def test_junk_in_a_field_is_a_4xx_naming_the_field(client: Any, field: str,
                                                   value: Any) -> None:
    first = new_game(client)
    body = {"version": first["version"], "action": first["moves"][0]["action"], "seat": 0,
            field: value}
    response = client.post(f"/api/games/{first['id']}/moves", content=json.dumps(body),
                           headers=JSON)
    assert 400 <= response.status_code < 500, response.text
    message = response.json()["error"]
    assert field in message and len(message) < 300, message
    untouched(client, first["id"], first)


@pytest.mark.parametrize("what", sorted(FIELDS))
def test_a_missing_field_is_named(client: Any, what: str) -> None:
    first = new_game(client)
    response = client.post(f"/api/games/{first['id']}/{what}", json={"seat": 0})
    if what == "abandon":  # the version is optional there
        assert response.status_code == 200, response.text
    else:
        error(response, 400, "missing", "'version'")
    if what == "moves":
        error(client.post(f"/api/games/{first['id']}/moves",
                          json={"version": first["version"]}), 400, "missing", "'action'")


@pytest.mark.parametrize("raw", ["\u0661", "\u00b2", "1e0", "0x1", "9" * 5000, "9" * 4000,
                                 "%00", "%20",
                                 "1.0", "true", "%E2%80%AE1"])
def test_a_seat_in_the_query_must_be_plain_digits(client: Any, raw: str) -> None:
    first = new_game(client)
    message = error(client.get(f"/api/games/{first['id']}?seat={raw}"), 400, "seat")
    assert len(message) < 200, message


@pytest.mark.parametrize("game_id", ["..", "../x", "..%2Fx", "%2e%2e%2f%2e%2e%2fetc",
                                     "..%5C..%5Cx", "a" * 5000, "%00", "%F0%9F%92%A9",
                                     "%FF", "0123456789AB", "0123456789ab.json"])
def test_unknown_and_traversal_like_ids_are_404(client: Any, tmp_path: Path,
                                                game_id: str) -> None:
    base = f"/api/games/{game_id}"
    for response in (client.get(base), client.get(base + "/record"),
                     client.post(base + "/moves", json={"version": 1, "action": 0}),
                     client.post(base + "/undo", json={"version": 1}),
                     client.post(base + "/abandon", json={})):
        assert response.status_code in (404, 405), response.text
        assert response.json()["error"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games"]


def test_a_long_unknown_path_is_not_echoed_whole(client: Any) -> None:
    for response in (client.get("/api/" + "x" * 8000), client.put("/api/games/" + "y" * 8000)):
        message = error(response, response.status_code, "/api/")
        assert response.status_code in (404, 405) and len(message) < 300, message[:300]


# ----- moves ----------------------------------------------------------------------------------
def test_the_same_move_sent_at_once_from_many_threads_is_applied_once(client: Any) -> None:
    gate = register_gate_agent()
    first = new_game(client, seats=("human", GATE_KIND), seed=5)
    body = {"version": first["version"], "action": first["moves"][0]["action"], "seat": 0}
    codes: list[int] = []
    threads = [threading.Thread(target=lambda: codes.append(client.post(
        f"/api/games/{first['id']}/moves", json=body).status_code)) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    session = client.app.state.store.get(first["id"])
    assert sorted(codes) == [200] + [409] * 11
    assert [s[0] for s in session.steps].count(0) == 1
    gate.set()


def test_a_seats_view_is_the_same_whatever_it_cannot_see(client: Any) -> None:
    """Flowers, 3 players: at each of the person's decisions the view (picture, moves,
    prompt, log) is unchanged when the other hands and the deck are reshuffled."""
    first = new_game(client, seats=("human", "random", "random"), seed=8)
    session = client.app.state.store.get(first["id"])
    from formosa_envs.web.views import game_view
    for turn in range(12):
        current = settled(client, first["id"])
        if current["status"] != "playing":
            break
        with session.lock:
            real = session.state
            try:
                for k in range(3):
                    session.state = session.game.determinize(real, 0, np.random.default_rng(k))
                    assert game_view(session, 0) == current, f"decision {turn}, shuffle {k}"
            finally:
                session.state = real
        client.post(f"/api/games/{first['id']}/moves", json={
            "version": current["version"], "action": current["moves"][-1]["action"]})


# ----- the games folder -----------------------------------------------------------------------
def test_corrupt_and_foreign_files_are_skipped_at_start(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from formosa_envs.web.app import create_app
    folder = tmp_path / "games"
    with TestClient(create_app(folder)) as first_client:
        game_id = new_game(first_client)["id"]
        first_client.app.state.store.get(game_id).wait_idle()
    good = json.loads((folder / f"{game_id}.json").read_text())
    odd = json.loads(json.dumps(good))
    odd["web"].update(id="00000000000a", created=5, version=10**30)
    (folder / "00000000000a.json").write_text(json.dumps(odd))
    (folder / "00000000000b.json").write_text("[" * 50_000 + "]" * 50_000)
    (folder / "00000000000c.json").write_bytes(b"\xff\xfe\x00junk")
    (folder / "00000000000d.json").mkdir()
    (folder / "package.json").write_text('{"name": "not a game"}')
    with TestClient(create_app(folder)) as client:
        listed = client.get("/api/games")
        assert listed.status_code == 200, listed.text
        assert {g["id"] for g in listed.json()["games"]} == {game_id, "00000000000a"}
        skipped = " | ".join(client.app.state.store.skipped)
        for name in ("00000000000b.json", "00000000000c.json", "00000000000d.json",
                     "package.json"):
            assert name in skipped, skipped
        assert "nested too deeply" in skipped
        resumed = view(client, "00000000000a")
        assert resumed["version"] < 2**53 and resumed["moves"]
        assert client.post("/api/games/00000000000a/moves", json={
            "version": resumed["version"], "action": resumed["moves"][0]["action"]}).is_success


def test_saved_records_load_and_replay(client: Any, tmp_path: Path) -> None:
    """A finished, an abandoned and an in-progress game: their files load as game
    records and replay to the scores written; ``formosa replay`` writes their pages."""
    from formosa_envs.cli import main
    done = new_game(client, game="dadaocheng", seats=("human",), seed=2)
    final, _ = play_out(client, done["id"])
    assert final["status"] == "finished"
    quit_at_once = new_game(client, seats=("human", "random"), seed=4)
    client.post(f"/api/games/{quit_at_once['id']}/abandon", json={})
    running = new_game(client, game="tea", seats=("random", "human", "heuristic"), seed=6)
    settled(client, running["id"])
    client.app.state.store.close()
    for game_id in (done["id"], quit_at_once["id"], running["id"]):
        path = tmp_path / "games" / f"{game_id}.json"
        record = load_record(path)
        _, scores = replay_record(record)
        assert [float(s) for s in scores] == record["scores"]
        page = tmp_path / f"{game_id}.html"
        assert main(["replay", str(path), "--out", str(page)]) == 0 and page.stat().st_size
    assert load_record(tmp_path / "games" / f"{done['id']}.json")["truncated"] is False


# ----- formosa serve --------------------------------------------------------------------------
@pytest.mark.parametrize(("flags", "words"), [
    (["--port", "99999"], ["--port", "65,535"]),
    (["--port", "abc"], ["--port", "whole number"]),
    (["--port", "-1"], ["--port"]),
    (["--port", "0"], ["--port 0", "1 to 65535"]),
    (["--games-dir", "/proc/formosa-games"], ["--games-dir", "cannot create"]),
    (["--games-dir", str(ROOT / "pyproject.toml")], ["--games-dir", "not a folder"]),
    (["--games-dir", str(ROOT / "pyproject.toml" / "games")], ["--games-dir", "is a file"]),
])
def test_bad_serve_flags_fail_in_one_line(monkeypatch: Any, capsys: Any, flags: list[str],
                                          words: list[str]) -> None:
    import uvicorn

    from formosa_envs.cli import main

    def never(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the server was started")

    monkeypatch.setattr(uvicorn, "run", never)
    assert main(["serve", *flags]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and err.startswith("formosa serve: error: ")
    for word in words:
        assert word in err, err


def test_serve_help(capsys: Any) -> None:
    from formosa_envs.cli import main
    assert main(["serve", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--host" in out and "127.0.0.1" in out and "--games-dir" in out


LONG = "\u00e9" * 20_000
NEW = {"game": "flowers", "num_players": 2, "seats": ["human", "random"]}


@pytest.mark.parametrize(("body", "word"), [
    ({**NEW, "game": LONG}, "unknown game"), ({**NEW, "num_players": LONG}, "num_players"),
    ({**NEW, "seed": LONG}, "seed"), ({**NEW, "seed": 10**4000}, "seed"),
    ({**NEW, LONG: 1}, "unknown field"), ({**NEW, "options": {LONG: 1}}, "unknown option"),
    ({**NEW, "options": {"target_vp": LONG}}, "target_vp"),
    ({**NEW, "seats": ["human", LONG]}, "seat 1"),
    ({**NEW, "seats": ["human", "mcts:" + "9" * 4000 + "x"]}, "seat 1"),
    ({**NEW, "seats": ["human", "policy:/" + "a" * 20_000]}, "seat 1"),
])
def test_a_long_value_in_a_new_game_is_named_not_echoed(client: Any, body: dict,
                                                        word: str) -> None:
    message = error(client.post("/api/games", json=body), 400, word)
    assert len(message) < 500, f"{len(message)} characters: {message[:200]}..."


def test_a_server_for_this_machine_answers_only_its_own_names(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from formosa_envs.web.app import create_app
    from formosa_envs.web.server import LOOPBACK_NAMES
    app = create_app(tmp_path / "games", allowed_hosts=LOOPBACK_NAMES)
    with TestClient(app, base_url="http://attacker.example") as rebound:
        reply = rebound.get("/api/catalogue")
        assert reply.status_code == 400 and "host" in reply.text.lower()
    with TestClient(app, base_url="http://localhost:8000") as own:
        assert own.get("/api/catalogue").status_code == 200
    with TestClient(app, base_url="http://127.0.0.1:8000") as own:
        assert own.get("/api/catalogue").status_code == 200


def test_a_served_page_refuses_a_foreign_host_header(served: Any) -> None:
    import httpx2 as http
    reply = http.get(f"{served.url}/api/catalogue", headers={"Host": "attacker.example"})
    assert reply.status_code == 400
    assert http.get(f"{served.url}/api/catalogue").status_code == 200
