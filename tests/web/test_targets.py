"""The pictures' click targets: ``data-action`` on the drawn counterparts of moves.

The play page makes the legal ones clickable. Checked over random games, from the
deciding seat's chair: every id lies in the action space; the moves with a drawn
counterpart all have a target, on the right thing (Flowers: the very card; the other
games: the card, cell or pile the label names); Flowers never marks a hidden card;
the invisible boxes stay invisible. Needs only the engines (no web extra).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from formosa_envs.core.engine import CHANCE
from formosa_envs.games import make_game
from tests.picture_checks import NS, with_class

TARGETED = {
    "flowers": {"PLAY_CARD", "CAPTURE", "LEAVE_ON_FIELD"},
    "tea": {"HARVEST", "SPACE", "PROCESS", "COMPLETE", "GLOBAL_MARKET", "DOMESTIC",
            "MERCHANT", "CHARACTER"},
    "taiwan": {"BUY_BUILDING", "BUY_LANDMARK", "CHARITY", "REGION"},
    "dadaocheng": {"FLIP", "SWAP", "SWAP_TO", "LINE", "SHIP", "BUILDING"},
}


def decisions(game: Any, seed: int, every: int = 3) -> Iterator[tuple[int, Any]]:
    """Every ``every``-th decision of a random game: ``(deciding seat, state)``."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    count = 0
    while not game.is_terminal(state):
        player = game.current_player(state)
        if player == CHANCE:
            game.apply_action(state, game.sample_chance(state, rng))
            continue
        if count % every == 0:
            yield player, state
        count += 1
        game.apply_action(state, int(rng.choice(game.legal_actions(state))))


def targets(svg: str) -> dict[int, list[ET.Element]]:
    """Action id -> the elements that stand for it."""
    found: dict[int, list[ET.Element]] = {}
    for element in ET.fromstring(svg).iter():
        for token in (element.get("data-action") or "").split():
            found.setdefault(int(token), []).append(element)
    return found


def words(element: ET.Element) -> str:
    """The text and tooltips under ``element``."""
    return " ".join(e.text or "" for e in element.iter()
                    if e.tag in (NS + "text", NS + "title"))


def cards_under(element: ET.Element) -> set[int]:
    """The ``data-card`` values under ``element`` (itself included)."""
    return {int(e.get("data-card")) for e in element.iter() if e.get("data-card") is not None}


@pytest.mark.parametrize(("name", "players"), [("flowers", 2), ("flowers", 4), ("tea", 3),
                                               ("taiwan", 2), ("dadaocheng", 2),
                                               ("dadaocheng", 1)])
def test_moves_with_a_drawn_counterpart_have_a_target(name: str, players: int) -> None:
    game = make_game(name, num_players=players)
    seen: set[str] = set()
    for seat, state in decisions(game, seed=players, every=2):
        found = targets(game.render_svg(state, seat))
        assert all(0 <= a < game.num_actions for a in found)
        for action in game.legal_actions(state):
            segment, _ = game.action_space.decode(action)
            if segment in TARGETED[name]:
                assert action in found, (segment, game.action_label(state, action))
                seen.add(segment)
                check_target(game, state, action, found[action])
    assert len(seen) >= 2, seen


def check_target(game: Any, state: Any, action: int, elements: list[ET.Element]) -> None:
    """The target is drawn where the move's label says (per game)."""
    segment, index = game.action_space.decode(action)
    label = game.action_label(state, action)
    if game.name == "flowers":
        card = state.pending if segment == "LEAVE_ON_FIELD" else index
        assert [cards_under(e) for e in elements] == [{card}]
    elif segment in ("MERCHANT", "BUY_BUILDING", "BUY_LANDMARK"):
        assert len(elements) == 1 and words(elements[0]).split(":")[0] in label
    elif segment in ("FLIP", "SWAP", "SWAP_TO"):
        assert len(elements) == 1 and f"cell {index}" in label
        assert words(elements[0]).split()[0] == str(index)
    elif segment == "CHARACTER":
        assert elements[0].get("data-character") == str(index)


def test_flowers_marks_only_the_viewers_hand_and_never_a_hidden_card() -> None:
    from formosa_envs.games.flowers.actions import PLAY0
    game = make_game("flowers", num_players=3)
    for seat, state in decisions(game, seed=1, every=5):
        viewer = (seat + 1) % 3
        found = targets(game.render_svg(state, viewer))
        plays = {a - PLAY0 for a in found if PLAY0 <= a < PLAY0 + len(game.cards)}
        assert plays == set(state.hands[viewer])
        for back in with_class(ET.fromstring(game.render_svg(state, viewer)), "card-back"):
            assert back.get("data-action") is None and back.get("data-card") is None


def test_invisible_boxes_stay_invisible() -> None:
    game = make_game("tea", num_players=2)
    seat, state = next(decisions(game, seed=0))
    boxes = with_class(ET.fromstring(game.render_svg(state, seat)), "hit")
    assert len(boxes) >= 4 + 4 + 3 + 1
    for box in boxes:
        assert box.get("fill-opacity") == "0" and box.get("stroke") is None


def clickable_share(name: str, players: int, seeds: range) -> tuple[float, float]:
    """Over random games: the share of decisions whose every legal move has a target on
    the deciding seat's picture, and the share with none (buttons only)."""
    game = make_game(name, num_players=players)
    total = every = none = 0
    for seed in seeds:
        for seat, state in decisions(game, seed, every=1):
            found = targets(game.render_svg(state, seat))
            legal = game.legal_actions(state)
            total += 1
            every += all(a in found for a in legal)
            none += not any(a in found for a in legal)
    return every / total, none / total


@pytest.mark.parametrize(("name", "players", "least_every", "most_none"),
                         [("taiwan", 2, 0.35, 0.3), ("tea", 2, 0.45, 0.45),
                          ("dadaocheng", 2, 0.7, 0.05), ("dadaocheng", 1, 0.7, 0.05),
                          ("flowers", 2, 0.85, 0.15)])
def test_most_decisions_can_be_made_on_the_picture(name: str, players: int,
                                                   least_every: float,
                                                   most_none: float) -> None:
    """Dice-free decisions of Taiwan (paying, discarding, exchanging), Tea's workers and
    Dadaocheng's cube colours, Temple, event and storehouse spaces have targets (before the
    targets were added:
    Taiwan 0% / 77% buttons only, Tea 35% / 56%, Dadaocheng 57% / 35%)."""
    every, none = clickable_share(name, players, range(2))
    assert every >= least_every and none <= most_none, (every, none)
