"""Playing against the web app as someone who wants more than the game gives: agents that
think without end, games left behind, and undo used to see the cards to come."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from .helpers import move, new_game, settled, view
from .test_attacks import app_client

LONG_THINKER = "mcts:2000:heuristic"


# ----- 2. agents stop thinking ------------------------------------------------------------
def timed_move(agent: Any, game: Any, state: Any, limit: float) -> float:
    """Seconds ``agent`` took to move (a daemon thread: a search that does not stop
    fails the test after ``limit`` seconds instead of hanging it)."""
    done: list[int] = []
    worker = threading.Thread(target=lambda: done.append(agent.act_on_state(game, state)),
                              daemon=True)
    start = time.monotonic()
    worker.start()
    worker.join(limit)
    assert done and done[0] in game.legal_actions(state), f"no move within {limit} s"
    return time.monotonic() - start


def test_an_mcts_search_stops_when_asked_and_at_its_time_cap() -> None:
    from formosa_envs.agents.mcts import MCTSAgent

    from formosa_envs.games import make_game
    game = make_game("tea", num_players=3)
    state = game.new_initial_state()
    while game.current_player(state) < 0:
        game.apply_action(state, game.chance_outcomes(state)[0][0])
    agent = MCTSAgent(simulations=10**6, seed=1, rollout="heuristic")
    agent.max_seconds = 0.3
    assert timed_move(agent, game, state, 3) < 1.5
    calls: list[int] = []
    agent.max_seconds = None
    agent.should_stop = lambda: calls.append(1) or len(calls) > 5
    assert timed_move(agent, game, state, 3) < 1.5 and len(calls) == 6


def test_an_agent_thinks_no_longer_than_the_servers_cap(tmp_path: Path) -> None:
    with app_client(tmp_path / "games", max_think_seconds=0.4) as client:
        first = new_game(client, game="tea", seats=(LONG_THINKER, "human", LONG_THINKER),
                         seed=2)
        start = time.monotonic()
        current = settled(client, first["id"], timeout=20)
        agent_moves = sum(1 for row in current["log"] if row["player"] in (0, 2))
        assert agent_moves >= 1
        assert time.monotonic() - start < 1.0 + 0.6 * agent_moves
        assert client.get("/api/catalogue").json()["limits"]["max_think_seconds"] == 0.4


def thinking(client: Any, game_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        current = view(client, game_id)
        if current["thinking"]:
            return current
        time.sleep(0.01)
    raise AssertionError("the agent never started thinking")


def test_abandoning_a_game_stops_its_agent(tmp_path: Path) -> None:
    with app_client(tmp_path / "games", max_think_seconds=60) as client:
        first = new_game(client, game="tea", seats=(LONG_THINKER, "human", "random"), seed=3)
        current = thinking(client, first["id"])
        session = client.app.state.store.get(first["id"])
        client.post(f"/api/games/{first['id']}/abandon", json={"version": current["version"]})
        start = time.monotonic()
        assert session.wait_idle(3), "the agent kept thinking after the game was abandoned"
        assert time.monotonic() - start < 2
        assert view(client, first["id"])["moves_made"] == current["moves_made"]


def test_an_undo_stops_the_thought_it_made_stale(tmp_path: Path) -> None:
    with app_client(tmp_path / "games", max_think_seconds=60) as client:
        first = new_game(client, game="tea", seats=("human", LONG_THINKER, "random"), seed=3)
        game_id = first["id"]
        current = first
        while not (current["thinking"] and current["to_move"] == 1):
            if current["to_move_kind"] == "human":
                move(client, game_id, current)
            current = view(client, game_id)
        session = client.app.state.store.get(game_id)
        worker = session._worker
        client.post(f"/api/games/{game_id}/undo", json={"version": current["version"]})
        worker.join(3)
        assert not worker.is_alive(), "the stale thought went on"


def test_stopping_the_server_stops_every_agent_at_once(tmp_path: Path) -> None:
    with app_client(tmp_path / "games", max_think_seconds=60) as client:
        games = [new_game(client, game="tea", seats=(LONG_THINKER,) * 3,
                          seed=seed)["id"] for seed in range(4)]
        for game_id in games:
            thinking(client, game_id)
        store = client.app.state.store
        sessions = [store.get(g) for g in games]
        start = time.monotonic()
        store.close()
        assert time.monotonic() - start < 3
        assert all(s.wait_idle(0.5) for s in sessions)


# ----- 6. undo does not show the future ------------------------------------------------------
def drawn_after_move(client: Any, game_id: str, current: dict[str, Any]) -> list[Any] | None:
    """Play the first offered moves until chance is drawn; that chance step (None when
    an agent moved before it: then the draw could differ for another reason)."""
    session = client.app.state.store.get(game_id)
    start = current["moves_made"]
    while True:
        move(client, game_id, current)
        current = settled(client, game_id)
        after = session.steps[start:]
        if any(step[0] == -1 for step in after):
            break
    first = next(i for i, step in enumerate(after) if step[0] == -1)
    return after[first] if all(step[0] == 0 for step in after[:first]) else None


def undo_to(client: Any, game_id: str, moves_made: int) -> dict[str, Any]:
    """Undo (one person's decision at a time) back to ``moves_made`` steps."""
    current = settled(client, game_id)
    while current["moves_made"] > moves_made:
        reply = client.post(f"/api/games/{game_id}/undo", json={"version": current["version"]})
        assert reply.status_code == 200, reply.text
        current = reply.json()
    assert current["moves_made"] == moves_made
    return current


def test_after_an_undo_chance_is_drawn_afresh(tmp_path: Path) -> None:
    """Flowers: the card drawn after the person's move, then again after undoing it and
    making the same move: a different card in most of 30 games (the same card every
    time today: an undo told the person what comes next)."""
    differ = usable = 0
    with app_client(tmp_path / "games") as client:
        for seed in range(30):
            first = new_game(client, seed=seed)
            game_id = first["id"]
            before = drawn_after_move(client, game_id, first)
            back = undo_to(client, game_id, first["moves_made"])
            assert back["svg"] == first["svg"] and back["moves"] == first["moves"]
            again = drawn_after_move(client, game_id, back)
            usable += before is not None and again is not None
            differ += before is not None and again is not None and again != before
            session = client.app.state.store.get(game_id)
            record = client.post(f"/api/games/{game_id}/abandon", json={}) and \
                client.get(f"/api/games/{game_id}/record").json()
            assert record["steps"] == session.steps  # the record keeps what was drawn
            assert record["web"]["undos"] >= 1
    assert usable >= 25 and differ >= 0.7 * usable, f"{differ} of {usable} redraws differ"


def test_a_resumed_game_keeps_drawing_afresh_after_its_undos(tmp_path: Path) -> None:
    """The undo count is saved: undo, restart the server, make the same move: the draw
    differs from the one first seen (a server that forgot its undos would repeat it)."""
    differ = usable = 0
    for seed in range(12):
        folder = tmp_path / f"games{seed}"
        with app_client(folder) as client:
            first = new_game(client, seed=seed)
            before = drawn_after_move(client, first["id"], first)
            undo_to(client, first["id"], first["moves_made"])
        saved = json.loads((folder / f"{first['id']}.json").read_text())
        assert saved["web"]["undos"] >= 1
        with app_client(folder) as client:
            again = drawn_after_move(client, first["id"], view(client, first["id"]))
        usable += before is not None and again is not None
        differ += before is not None and again is not None and again != before
    assert usable >= 10 and differ >= 0.7 * usable, f"{differ} of {usable} redraws differ"


def test_undo_goes_back_one_decision_at_a_time(client: Any) -> None:
    # the random seat moves first in this deal: start from the settled view, not the
    # first one (the agent may or may not have moved when the first view is drawn)
    game_id, seen = new_game(client, game="taiwan", seats=("human", "random"), seed=6)["id"], []
    current = settled(client, game_id)
    for _ in range(4):
        seen.append(current)
        move(client, game_id, current)
        current = settled(client, game_id)
    for expected in reversed(seen):
        back = client.post(f"/api/games/{game_id}/undo", json={"version": current["version"]})
        assert back.status_code == 200, back.text
        current = back.json()
        assert (current["moves_made"], current["svg"], current["moves"]) == \
            (expected["moves_made"], expected["svg"], expected["moves"])
    assert not current["can_undo"]


@pytest.mark.parametrize("web", [{"id": "0123456789ab", "status": "playing"},
                                 {"id": "0123456789ab", "status": "playing", "version": 7,
                                  "created": "2024-01-01T00:00:00+00:00"}])
def test_older_records_without_the_new_fields_resume(tmp_path: Path, web: dict) -> None:
    folder = tmp_path / "games"
    with app_client(folder) as client:
        first = new_game(client, seed=4)
        move(client, first["id"], first)
        settled(client, first["id"])
    record = json.loads((folder / f"{first['id']}.json").read_text())
    record["web"] = web
    (folder / f"{first['id']}.json").unlink()
    (folder / "0123456789ab.json").write_text(json.dumps(record))
    with app_client(folder) as client:
        resumed = view(client, "0123456789ab")
        assert resumed["status"] == "playing" and resumed["moves"]
        assert move(client, "0123456789ab", resumed)["moves_made"] > resumed["moves_made"]
