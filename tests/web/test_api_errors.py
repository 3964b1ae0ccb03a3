"""Bad requests get a 4xx with a JSON message naming the fault; nothing is applied twice
and the server keeps serving."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .helpers import GATE_KIND, error, new_game, register_gate_agent, settled, view

NEW = {"game": "flowers", "num_players": 2, "seats": ["human", "random"]}




@pytest.mark.parametrize(("body", "words"), [
    ({**NEW, "game": "chess"}, ["unknown game 'chess'", "flowers"]),
    ({**NEW, "num_players": 9}, ["num_players", "2-4"]),
    ({**NEW, "num_players": "2"}, ["num_players"]),
    ({**NEW, "options": {"bogus": 1}}, ["bogus", "target_vp"]),
    ({**NEW, "options": {"target_vp": 0}}, ["target_vp=0", "from 1"]),
    ({**NEW, "options": {"target_vp": True}}, ["target_vp"]),
    ({**NEW, "options": {"card_file": "/etc/passwd"}}, ["card_file", "data file"]),
    ({**NEW, "options": {"num_players": 3}}, ["num_players"]),
    ({**NEW, "options": [1]}, ["options"]),
    ({**NEW, "seats": ["human"]}, ["seats", "2 seat"]),
    ({**NEW, "seats": ["human", "grandmaster"]}, ["seat 1", "grandmaster", "human"]),
    ({**NEW, "seats": ["human", "policy:/no/such.npz"]}, ["seat 1", "/no/such.npz"]),
    ({**NEW, "seats": ["human", "mcts:x"]}, ["seat 1", "positive integer"]),
    ({**NEW, "seed": -1}, ["seed"]),
    ({**NEW, "speed": "fast"}, ["unknown field", "speed"]),
    ({"num_players": 2}, ["unknown game None"]),
])
def test_a_bad_new_game_is_refused_naming_the_fault(client: Any, body: dict,
                                                    words: list[str]) -> None:
    error(client.post("/api/games", json=body), 400, *words)
    assert client.get("/api/games").json()["games"] == []


@pytest.mark.parametrize(("raw", "words"), [
    (b"{not json", ["not JSON"]), (b"[1, 2]", ["JSON object", "list"]),
    (b"", ["JSON object", "NoneType"]), (b"\xff\xfe", ["not JSON"]),
])
def test_a_malformed_body_is_a_400(client: Any, raw: bytes, words: list[str]) -> None:
    error(client.post("/api/games", content=raw), 400, *words)
    game_id = new_game(client)["id"]
    error(client.post(f"/api/games/{game_id}/moves", content=raw), 400, *words)


def test_a_body_too_large_is_a_413(client: Any) -> None:
    error(client.post("/api/games", content=b"{" + b" " * 70_000 + b"}"), 413, "at most")


def test_unknown_games_paths_and_methods(client: Any) -> None:
    error(client.get("/api/games/0123456789ab"), 404, "no game with id '0123456789ab'")
    error(client.post("/api/games/nope/moves", json={"version": 1, "action": 0}), 404, "nope")
    error(client.get("/api/games/nope/record"), 404)
    error(client.get("/api/nothing"), 404, "no such path")
    error(client.delete("/api/games"), 405, "DELETE")
    error(client.get("/api/games/x/moves"), 405)


def test_stale_repeated_illegal_and_malformed_moves(client: Any) -> None:
    first = new_game(client)
    game_id, action = first["id"], first["moves"][0]["action"]
    url = f"/api/games/{game_id}/moves"
    error(client.post(url, json={"version": first["version"]}), 400, "'action'")
    error(client.post(url, json={"version": "1", "action": action}), 400, "'version'")
    error(client.post(url, json={"version": first["version"], "action": True}), 400, "'action'")
    error(client.post(url, json={"version": first["version"], "action": 110}), 422,
          "not a legal move")
    error(client.post(url, json={"version": first["version"], "action": 10**9}), 422)
    error(client.post(url, json={"version": first["version"], "action": action, "seat": 1}),
          403, "seat 1", "random")
    error(client.post(url, json={"version": first["version"], "action": action, "seat": 7}),
          400, "seat must be 0-1")
    ok = client.post(url, json={"version": first["version"], "action": action})
    assert ok.status_code == 200
    made = ok.json()["moves_made"]
    error(client.post(url, json={"version": first["version"], "action": action}), 409,
          "stale", f"version {first['version']}")
    assert view(client, game_id)["moves_made"] >= made  # the repeat was not applied
    session = client.app.state.store.get(game_id)
    assert [s[1] for s in session.steps if s[0] == 0].count(action) == 1


def test_out_of_turn_and_agent_seats(client: Any) -> None:
    gate = register_gate_agent()
    first = new_game(client, seats=("human", GATE_KIND), seed=1)
    current = settled(client, first["id"])
    while current["to_move"] == 0:
        body = {"version": current["version"], "action": current["moves"][0]["action"]}
        current = client.post(f"/api/games/{first['id']}/moves", json=body).json()
    assert current["to_move"] == 1 and current["to_move_kind"] == "agent"
    error(client.post(f"/api/games/{first['id']}/moves",
                      json={"version": current["version"], "action": 0}), 409,
          "player 1", GATE_KIND)
    error(client.get(f"/api/games/{first['id']}?seat=1"), 403, "only a person's seat")
    error(client.get(f"/api/games/{first['id']}?seat=x"), 400, "seat must be an integer")
    error(client.get(f"/api/games/{first['id']}/record"), 409, "finished or abandoned")
    gate.set()


def test_undo_and_abandon_refusals(client: Any) -> None:
    first = new_game(client)
    game_id = first["id"]
    error(client.post(f"/api/games/{game_id}/undo", json={"version": first["version"]}), 409,
          "no move of a person")
    error(client.post(f"/api/games/{game_id}/undo", json={}), 400, "'version'")
    error(client.post(f"/api/games/{game_id}/abandon", json={"version": 999}), 409, "stale")
    over = client.post(f"/api/games/{game_id}/abandon", json={"version": first["version"]})
    assert over.status_code == 200
    version = over.json()["version"]
    error(client.post(f"/api/games/{game_id}/abandon", json={"version": version}), 409,
          "abandoned")
    error(client.post(f"/api/games/{game_id}/moves",
                      json={"version": version, "action": first["moves"][0]["action"]}),
          409, "the game is abandoned")
    error(client.post(f"/api/games/{game_id}/undo", json={"version": version}), 409)


def test_a_failing_agent_is_reported_and_the_server_goes_on(client: Any,
                                                            monkeypatch: Any) -> None:
    from formosa_envs.agents.random_agent import RandomAgent

    def broken(self: Any, game: Any, state: Any) -> int:
        raise RuntimeError("out of ideas")

    monkeypatch.setattr(RandomAgent, "act_on_state", broken)
    first = new_game(client, seats=("random", "human"))
    for _ in range(500):
        current = view(client, first["id"])
        if current["error"]:
            break
        time.sleep(0.01)
    assert "seat 0 (random) failed: RuntimeError: out of ideas" in current["error"]
    assert current["status"] == "playing" and client.get("/api/catalogue").status_code == 200
