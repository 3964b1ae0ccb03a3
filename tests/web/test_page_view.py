"""The play page's view speaks as the terminal does: the question
asked, the move log's chance rows, setup outside any turn, and the end of a game
(scores with their breakdown, every hand shown, the replay page)."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

from formosa_envs.tools.narrate import decision_prompt
from formosa_envs.web.views import replay_endpoint

from .helpers import error, move, new_game, play_out, settled

MACHINE_CHANCE = re.compile(r"^\w+ -> \d+$")


def play_to_log(client: Any, game: str, seats: tuple[str, ...], seed: int,
                moves: int) -> dict[str, Any]:
    """A game with a person at seat 0, ``moves`` of its first offered moves made."""
    current = new_game(client, game=game, seats=seats, seed=seed)
    for _ in range(moves):
        current = settled(client, current["id"])
        if current["status"] != "playing":
            break
        move(client, current["id"], current)
    return settled(client, current["id"])


def test_the_question_is_the_terminals(client: Any) -> None:
    first = new_game(client, game="tea", seats=("human", "random"), seed=3)
    session = client.app.state.store.get(first["id"])
    assert first["prompt"] == decision_prompt(session.game, session.state)
    assert first["prompt"] != session.game.decision_description(session.state)


@pytest.mark.parametrize(("game", "seats"), [("tea", ("human", "random")),
                                             ("dadaocheng", ("human", "random")),
                                             ("taiwan", ("human", "random"))])
def test_chance_rows_are_narrated_never_machine_labels(client: Any, game: str,
                                                      seats: tuple[str, ...]) -> None:
    current = play_to_log(client, game, seats, seed=5, moves=12)
    chance = [row["text"] for row in current["log"] if row["player"] == -1]
    assert chance and not [t for t in chance if MACHINE_CHANCE.match(t)], chance
    assert not [t for t in chance if t.startswith("chance:")]
    session = client.app.state.store.get(current["id"])
    raw = sum(1 for step in session.steps if step[0] == -1)
    assert len(chance) < raw  # a run of chance between two moves is told in few rows


def test_dadaocheng_dice_are_named_by_what_they_give(client: Any) -> None:
    """Temple dice: colours, as the legend shows them, not ``die -> 2``."""
    rng = np.random.default_rng(0)
    current = new_game(client, game="dadaocheng", seats=("human",), seed=2)
    for _ in range(300):
        current = settled(client, current["id"])
        texts = [row["text"] for row in current["log"]]
        if any(t.startswith("Temple dice") for t in texts) or current["status"] != "playing":
            break
        temple = [m for m in current["moves"] if m["label"].startswith("Temple")]
        move(client, current["id"], current, current["moves"].index(temple[0]) if temple
             else int(rng.integers(len(current["moves"]))))
    assert any(t.startswith("Temple dice for player 0:") for t in texts), texts[-10:]
    assert not any(t.startswith("die ->") for t in texts)


def test_a_swap_is_one_row(client: Any) -> None:
    current = new_game(client, game="dadaocheng", seats=("human",), seed=2)
    swap = next(m for m in current["moves"] if m["label"].startswith("swap cell"))
    current = move(client, current["id"], current, current["moves"].index(swap))
    second = current["moves"][0]
    assert second["label"].startswith(swap["label"].split(" with")[0] + " with cell")
    after = move(client, current["id"], current)
    rows = [row for row in after["log"] if row["player"] == 0]
    assert [row["text"] for row in rows] == [second["label"]]


def test_setup_decisions_are_not_out_of_turn(client: Any) -> None:
    """Tea's advanced setup: every player takes a starting leaf, outside any turn."""
    current = new_game(client, game="tea", seats=("human", "human"), seed=1,
                       options={"advanced": True})
    seen = 0
    from formosa_envs.games.tea.state import Phase
    while client.app.state.store.get(current["id"]).state.phase < Phase.ACTIONS and seen < 12:
        assert current["out_of_turn"] is False and current["turn"] is None, current["prompt"]
        assert "out of turn" not in current["prompt"]
        current = move(client, current["id"], settled(client, current["id"]))
        seen += 1
    assert seen >= 2


def test_the_end_shows_scores_with_their_breakdown_and_every_hand(client: Any) -> None:
    first = new_game(client, seats=("human", "random"), seed=4, options={"target_vp": 20})
    final, _ = play_out(client, first["id"])
    result = final["result"]
    assert [sum(p["points"] for p in parts) for parts in result["breakdown"]] == \
        result["scores"]
    session = client.app.state.store.get(first["id"])
    assert final["svg"] == session.game.render_svg(session.state, None)
    assert final["replay_url"] == f"/api/games/{first['id']}/replay"


@pytest.mark.parametrize("game", ["tea", "taiwan", "dadaocheng"])
def test_breakdowns_add_up(client: Any, game: str) -> None:
    from formosa_envs.games import make_game
    from formosa_envs.tools.record import record_random_game
    from formosa_envs.web.final import breakdown
    record = record_random_game(game, 3, 1)
    rules = make_game(game, num_players=3)
    state = rules.new_initial_state()
    for step in record["steps"]:
        rules.apply_action(state, step[1])
    parts = breakdown(rules, state)
    assert [sum(p["points"] for p in seat) for seat in parts] == record["scores"]
    assert any(len(seat) >= 2 for seat in parts)  # a part besides play itself


def test_the_replay_page_is_served_once_the_game_is_over(client: Any) -> None:
    client.app.add_route("/api/games/{game_id}/replay", replay_endpoint)
    first = new_game(client, seats=("human", "random"), seed=4, options={"target_vp": 20})
    error(client.get(f"/api/games/{first['id']}/replay"), 409, "once the game is finished")
    final, _ = play_out(client, first["id"])
    page = client.get(final["replay_url"])
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "<script" in page.text and "Formosa Flowers" in page.text
