"""The web app's endpoints through Starlette's TestClient: the page, the catalogue, new
games, views, moves, undo, abandoning, the record (``formosa replay`` reads it)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from formosa_envs.tools.record import load_record
from formosa_envs.tools.replay import replay_frames

from .helpers import move, new_game, play_out, settled, view


def test_the_page_and_its_files_are_served(client: Any) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert '<script src="/static/play.js">' in page.text
    assert client.get("/play/0123456789ab").text == page.text
    assert "function render(view)" in client.get("/static/play.js").text
    assert "#board .target" in client.get("/static/play.css").text


def test_the_catalogue_lists_games_options_and_seats(client: Any) -> None:
    data = client.get("/api/catalogue").json()
    games = {g["name"]: g for g in data["games"]}
    assert set(games) == {"flowers", "taiwan", "tea", "dadaocheng"}
    assert (games["dadaocheng"]["min_players"], games["taiwan"]["max_players"]) == (1, 5)
    target = next(o for o in games["flowers"]["options"] if o["name"] == "target_vp")
    assert (target["kind"], target["default"], target["min"]) == ("int", 60, 1)
    assert not any(o["kind"] == "path" for g in games.values() for o in g["options"])
    assert "human" in data["seat_examples"] and "mcts" in data["agent_kinds"]


def test_a_new_game_starts_at_the_persons_first_decision(client: Any) -> None:
    first = new_game(client, options={"target_vp": 20})
    assert first["status"] == "playing" and first["options"] == {"target_vp": 20}
    assert (first["viewer"], first["to_move"], first["to_move_kind"]) == (0, 0, "human")
    assert first["svg"].startswith("<svg") and first["moves"]
    assert all(m["label"].startswith("play ") for m in first["moves"])
    assert 'data-action="' in first["svg"] and first["can_undo"] is False
    listed = client.get("/api/games").json()["games"]
    assert [g["id"] for g in listed] == [first["id"]] and "svg" not in listed[0]


def test_a_move_answers_with_the_new_view_and_the_log(client: Any) -> None:
    first = new_game(client)
    after = move(client, first["id"], first)
    assert after["version"] > first["version"]
    mine = [row for row in after["log"] if row["player"] == 0]
    assert mine[-1]["text"] == first["moves"][0]["label"]
    current = settled(client, first["id"])
    while not any(row["player"] == 1 for row in current["log"]):
        move(client, first["id"], current)
        current = settled(client, first["id"])
    assert current["can_undo"] and current["log"][-1]["step"] < current["moves_made"]


def test_undo_goes_back_to_the_persons_previous_decision(client: Any) -> None:
    first = new_game(client)
    game_id = first["id"]
    session = client.app.state.store.get(game_id)
    move(client, game_id, first)
    current = settled(client, game_id)
    drawn = session.steps[first["moves_made"] + 1]  # the draw right after the move
    response = client.post(f"/api/games/{game_id}/undo", json={"version": current["version"]})
    assert response.status_code == 200
    back = response.json()
    assert back["moves"] == first["moves"] and back["svg"] == first["svg"]
    assert back["version"] > current["version"] and not back["can_undo"]
    move(client, game_id, back)
    settled(client, game_id)
    assert drawn[0] == -1 and session.undos == 1  # drawn afresh after an undo (not replayed)


def test_a_whole_game_ends_with_scores_and_a_replayable_record(client: Any,
                                                              tmp_path: Path) -> None:
    first = new_game(client, options={"target_vp": 20})
    final, _ = play_out(client, first["id"])
    assert final["status"] == "finished" and final["moves"] == []
    assert len(final["result"]["scores"]) == 2 and final["result"]["winners"]
    record = client.get(final["record_url"])
    assert record.status_code == 200 and "attachment" in record.headers["content-disposition"]
    data = record.json()
    assert data["format"] == "formosa-game-record" and data["agents"] == ["human", "random"]
    assert data["scores"] == final["result"]["scores"] and data["truncated"] is False
    saved = tmp_path / "games" / f"{first['id']}.json"
    assert load_record(saved)["steps"] == data["steps"]
    assert replay_frames(data)[-1]["scores"] == final["result"]["scores"]


def test_abandoning_saves_a_cut_off_record(client: Any) -> None:
    first = new_game(client, game="tea", seats=("heuristic", "human"))
    current = settled(client, first["id"])
    response = client.post(f"/api/games/{first['id']}/abandon",
                           json={"version": current["version"]})
    assert response.status_code == 200
    over = response.json()
    assert over["status"] == "abandoned" and over["moves"] == [] and not over["can_undo"]
    record = client.get(over["record_url"]).json()
    assert record["truncated"] is True and record["web"]["status"] == "abandoned"
    assert replay_frames(record)[-1]["scores"] == record["scores"]


def test_hot_seat_shows_the_deciding_seat_and_each_seat_its_own_view(client: Any) -> None:
    first = new_game(client, seats=("human", "human"), seed=5)
    assert first["humans"] == [0, 1] and first["viewer"] == first["to_move"] == 0
    other = view(client, first["id"], seat=1)
    assert other["viewer"] == 1 and other["moves"] == [] and other["svg"] != first["svg"]
    after = move(client, first["id"], first)
    while after["to_move"] == 0:
        after = move(client, first["id"], view(client, first["id"], seat=0))
    assert view(client, first["id"])["viewer"] == 1


def test_an_out_of_turn_decision_goes_to_the_right_seat(client: Any) -> None:
    """Tea: another player's processing moves this person's Tea Master (seed found by
    playing the last offered move)."""
    first = new_game(client, game="tea", seats=("human", "random"), seed=3)
    current = move(client, first["id"], first, index=len(first["moves"]) - 1)
    current = settled(client, first["id"])
    assert current["to_move"] == 0 and current["out_of_turn"] and current["turn"] == 1
    assert "Tea Master" in current["prompt"] and "out of turn" in current["prompt"]
    labels = [m["label"] for m in current["moves"]]
    assert any("(A)" in label for label in labels)
    assert move(client, first["id"], current)["version"] > current["version"]


def test_records_are_written_after_every_change(client: Any, tmp_path: Path) -> None:
    first = new_game(client, game="dadaocheng", seats=("human",), seed=2)
    path = tmp_path / "games" / f"{first['id']}.json"
    for _ in range(3):
        current = settled(client, first["id"])
        move(client, first["id"], current)
        saved = json.loads(path.read_text())
        assert saved["web"] == {"id": first["id"], "status": "playing",
                                "created": saved["web"]["created"],
                                "version": saved["web"]["version"], "undos": 0}
        assert len(saved["steps"]) == view(client, first["id"])["moves_made"]
        assert saved["truncated"] is True  # cut off until it ends: formosa replay reads it
