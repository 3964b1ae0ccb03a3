"""Games over time: nothing hidden leaks to a person's seat, agents think in the
background, games survive a restart exactly, several games run at once."""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from typing import Any

from .helpers import GATE_KIND, move, new_game, register_gate_agent, settled, view


def hidden_after(game: Any, steps: list[list[Any]], viewer: int) -> list[set[int]]:
    """Flowers cards ``viewer`` cannot see after each number of ``steps`` (0, 1, ...):
    the other hands and the deck."""
    state = game.new_initial_state()
    hidden = []
    for n in range(len(steps) + 1):
        hidden.append({c for p, hand in enumerate(state.hands) if p != viewer for c in hand}
                      | set(state.deck))
        if n < len(steps):
            game.apply_action(state, steps[n][1])
    return hidden


def leaks(text: str, game: Any, cards: set[int]) -> list[str]:
    """Names, ids or tooltips of ``cards`` found in a response ``text``."""
    found = []
    for card in cards:
        name = re.escape(game.names[card])
        patterns = (rf'data-card=\\?"{card}\\?"', rf"\(card {card}\)",
                    rf"(?<![\d/]){name}(?![\d/])")
        found += [f"card {card} ({game.names[card]}): {p}" for p in patterns
                  if re.search(p, text)]
    return found


def test_no_hidden_card_reaches_the_persons_seat(client: Any) -> None:
    """A whole Flowers game against random: every answer (views, moves, the games list)
    is searched for the names, ids and tooltips of the cards in the other hand and the
    deck when it was written (a log row: just after its step); no seed, state or record
    while the game runs."""
    first = new_game(client, options={"target_vp": 25}, seed=11)
    game_id = first["id"]
    texts = [json.dumps(first)]
    while True:
        current = settled(client, game_id)
        texts += [client.get(f"/api/games/{game_id}").text, client.get("/api/games").text]
        if current["status"] != "playing":
            break
        texts.append(client.post(f"/api/games/{game_id}/moves", json={
            "version": current["version"], "action": current["moves"][-1]["action"]}).text)
    session = client.app.state.store.get(game_id)
    hidden = hidden_after(session.game, session.steps, viewer=0)
    for text in texts[:-2]:  # those written while the game ran
        assert '"seed"' not in text and '"steps"' not in text and '"hands"' not in text
        data = json.loads(text)
        for shown in data.get("games", [data]):
            if shown["status"] != "playing":
                continue  # the game is over: its views may show every hand
            for row in shown.pop("log", []):
                assert not leaks(row["text"], session.game, hidden[row["step"] + 1]), row
            rest = json.dumps(shown)
            assert not leaks(rest, session.game, hidden[shown["moves_made"]])
    assert len(texts) > 60 and current["status"] == "finished"
    opening = session.game.new_initial_state()  # negative control: the checker finds
    for _, action, _ in session.steps[:first["moves_made"]]:  # cards in a spectator's view
        session.game.apply_action(opening, action)
    assert leaks(session.game.render_svg(opening, None), session.game,
                 hidden[first["moves_made"]])
    assert client.get(f"/api/games/{game_id}/record").json()["seed"] == 11


def test_agents_think_in_the_background(client: Any) -> None:
    """While an agent thinks, the server answers at once (thinking shown); an undo during
    the thought drops the agent's move."""
    gate = register_gate_agent()
    first = new_game(client, game="dadaocheng", seats=("human", GATE_KIND), seed=1)
    current = first
    assert current["to_move"] == 0
    while current["to_move"] == 0:
        current = move(client, first["id"], view(client, first["id"], seat=0))
    for _ in range(100):
        current = view(client, first["id"])
        if current["thinking"]:
            break
    assert current["thinking"] and current["to_move"] == 1
    assert current["to_move_kind"] == "agent" and current["moves"] == []
    undone = client.post(f"/api/games/{first['id']}/undo", json={"version": current["version"]})
    assert undone.status_code == 200 and undone.json()["to_move"] == 0
    gate.set()
    session = client.app.state.store.get(first["id"])
    assert session.wait_idle(10)
    after = view(client, first["id"])
    assert after["to_move"] == 0 and after["moves_made"] == undone.json()["moves_made"]


def test_a_game_in_progress_survives_a_restart_exactly(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from formosa_envs.web.app import create_app
    with TestClient(create_app(tmp_path / "games")) as first_client:
        start = new_game(first_client, game="tea", seats=("human", "heuristic", "random"))
        game_id = start["id"]
        for _ in range(6):
            move(first_client, game_id, settled(first_client, game_id))
        before = settled(first_client, game_id)
        finished = new_game(first_client, game="dadaocheng", seats=("human",))
        first_client.post(f"/api/games/{finished['id']}/abandon", json={})
        steps = first_client.app.state.store.get(game_id).steps
    with TestClient(create_app(tmp_path / "games")) as client:
        after = view(client, game_id)
        assert client.app.state.store.get(game_id).steps == steps
        assert (after["svg"], after["moves"], after["log"]) == \
            (before["svg"], before["moves"], before["log"])
        assert after["version"] > before["version"]  # an old page gets 409, then reloads
        stale = client.post(f"/api/games/{game_id}/moves", json={
            "version": before["version"], "action": before["moves"][0]["action"]})
        assert stale.status_code == 409
        assert move(client, game_id, after)["moves_made"] > after["moves_made"]
        assert view(client, finished["id"])["status"] == "abandoned"


def test_records_that_do_not_resume_are_skipped(tmp_path: Path) -> None:
    from formosa_envs.web.store import GameStore
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "notes.json").write_text("{not json")
    (folder / "0123456789ab.json").write_text(
        '{"game": "flowers", "num_players": 2, "options": {}, "seed": 1, "scores": [0, 0], '
        '"agents": ["human", "random"], "steps": [[0, 5, "play"]], "truncated": true, '
        '"web": {"id": "0123456789ab", "status": "playing"}}')
    store = GameStore(folder)
    assert store.load() == 0 and len(store.skipped) == 2
    assert "does not fit the game" in " ".join(store.skipped)


def test_several_games_at_once(client: Any) -> None:
    """Four games of different kinds played from four threads at the same time, and a
    burst of the same move sent at once to one game: exactly one is applied."""
    setups = [("flowers", ("human", "random")), ("tea", ("random", "human")),
              ("taiwan", ("human", "random")), ("dadaocheng", ("human",))]
    games = [new_game(client, game=g, seats=s, seed=i)["id"] for i, (g, s) in enumerate(setups)]
    problems: list[str] = []

    def play(game_id: str) -> None:
        try:
            for _ in range(8):
                move(client, game_id, settled(client, game_id))
        except AssertionError as exc:
            problems.append(f"{game_id}: {exc}")

    threads = [threading.Thread(target=play, args=(g,)) for g in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert problems == []
    assert {view(client, g)["game"] for g in games} == {g for g, _ in setups}
    current = settled(client, games[0])
    body = {"version": current["version"], "action": current["moves"][0]["action"]}
    codes: list[int] = []
    burst = [threading.Thread(target=lambda: codes.append(
        client.post(f"/api/games/{games[0]}/moves", json=body).status_code))
        for _ in range(6)]
    for thread in burst:
        thread.start()
    for thread in burst:
        thread.join(30)
    assert sorted(codes) == [200] + [409] * 5
