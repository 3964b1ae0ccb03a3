"""Helpers of the web tests: start a game, wait for a person's decision, play moves."""

from __future__ import annotations

import time
from typing import Any

GATE_KIND = "webtest_gate"


def new_game(client: Any, game: str = "flowers", seats: tuple[str, ...] = ("human", "random"),
             seed: int = 3, **extra: Any) -> dict[str, Any]:
    """Start a game through the API (201) and return its first view."""
    body = {"game": game, "num_players": len(seats), "seats": list(seats), "seed": seed,
            **extra}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def view(client: Any, game_id: str, seat: int | None = None) -> dict[str, Any]:
    """The view of ``seat`` (default: the server's choice)."""
    query = "" if seat is None else f"?seat={seat}"
    response = client.get(f"/api/games/{game_id}{query}")
    assert response.status_code == 200, response.text
    return response.json()


def settled(client: Any, game_id: str, seat: int | None = None,
            timeout: float = 30.0) -> dict[str, Any]:
    """The view once no agent is to move (a person decides, or the game is over)."""
    deadline = time.monotonic() + timeout
    while True:
        current = view(client, game_id, seat)
        if current["status"] != "playing" or current["to_move_kind"] == "human":
            return current
        assert current["error"] is None, current["error"]
        assert time.monotonic() < deadline, "the agents did not move in time"
        time.sleep(0.01)


def move(client: Any, game_id: str, current: dict[str, Any], index: int = 0,
         status: int = 200) -> dict[str, Any]:
    """Play the ``index``-th offered move of ``current`` (the deciding person's view)."""
    action = current["moves"][index]["action"]
    response = client.post(f"/api/games/{game_id}/moves",
                           json={"version": current["version"], "action": action,
                                 "seat": current["viewer"]})
    assert response.status_code == status, response.text
    return response.json()


def play_out(client: Any, game_id: str, limit: int = 2000) -> tuple[dict[str, Any], list[str]]:
    """Play the first offered move until the game ends; the final view and every body seen."""
    bodies: list[str] = []
    for _ in range(limit):
        current = settled(client, game_id)
        if current["status"] != "playing":
            return current, bodies
        response = client.post(f"/api/games/{game_id}/moves", json={
            "version": current["version"], "action": current["moves"][0]["action"]})
        assert response.status_code == 200, response.text
        bodies.append(response.text)
    raise AssertionError("the game did not end")


def register_gate_agent() -> Any:
    """An agent kind ``webtest_gate`` that thinks until the test opens its gate
    (``gate.set()``), then plays the first legal move; returns the gate."""
    import threading

    from formosa_envs.agents import StateAgent, register_agent_kind

    gate = threading.Event()

    class GateAgent(StateAgent):
        name = GATE_KIND

        def act_on_state(self, game: Any, state: Any) -> int:
            assert gate.wait(30), "the test never opened the gate"
            return game.legal_actions(state)[0]

    register_agent_kind(GATE_KIND, lambda spec, arg, game, seed: GateAgent(), GATE_KIND)
    from formosa_envs.web.seats import allow_web_kind
    allow_web_kind(GATE_KIND)  # it reads no file
    return gate


def error(response: Any, status: int, *words: str) -> str:
    """Check a JSON error answer: its status and words in its message."""
    assert response.status_code == status, response.text
    message = response.json()["error"]
    for word in words:
        assert word in message, message
    return message
