"""The SVG picture of Formosa Flowers states (``FlowersGame.render_svg``).

Shapes are counted by CSS class: ``card`` (face-up cards: field, the card being
matched, scoring piles, shown hands), ``card-back`` (hidden hand cards),
``deck`` (one shape), ``token`` (every Keep Playing token, supply and held),
``seat`` and ``pile-set`` (one group per completed set, plus loose cards).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from formosa_envs.games.flowers import make_game
from formosa_envs.games.flowers.picture_parts import split_pile
from formosa_envs.games.flowers.state import TOKEN_SUPPLY
from formosa_envs.tools.simulate import random_position
from tests import picture_checks as pc


def new(n: int = 2, **options):
    options.setdefault("current_month", None)
    return make_game(num_players=n, **options)


def play(n: int, seed: int, moves: int):
    """A seeded game after ``moves`` random player decisions (chance resolved)."""
    game = new(n)
    return game, random_position(game, seed, moves)


def pending_state():
    """A 2-player state where a capture choice is open (a card is being matched)."""
    for moves in range(1, 60):
        game, s = play(2, 1, moves)
        if s.pending >= 0:
            return game, s
    raise AssertionError("no capture choice found")


STATES = {
    "start2": lambda: play(2, 1, 0),
    "mid2": lambda: play(2, 1, 14),
    "mid3": lambda: play(3, 2, 16),
    "mid4": lambda: play(4, 26, 58),
    "pending": pending_state,
    "over2": lambda: play(2, 5, 10**6),
    "over4": lambda: play(4, 7, 10**6),
}


def shown_cards(s, viewer: int | None) -> list[int]:
    cards = s.field + [c for pile in s.piles for c in pile]
    cards += [s.pending] if s.pending >= 0 else []
    return cards + [c for p, h in enumerate(s.hands) if viewer in (None, p) for c in h]


@pytest.mark.parametrize("key", sorted(STATES))
def test_svg_parses_with_positive_size(key):
    game, s = STATES[key]()
    pc.assert_svg(pc.parse(game.render_svg(s)), max_width=1200)


@pytest.mark.parametrize("viewer", [None, 0, 1])
@pytest.mark.parametrize("key", sorted(STATES))
def test_component_counts_match_the_state(key, viewer):
    game, s = STATES[key]()
    root = pc.parse(game.render_svg(s, viewer))
    faces = Counter(int(e.get("data-card")) for e in pc.with_class(root, "card"))
    assert faces == Counter(shown_cards(s, viewer))
    hidden = sum(len(h) for p, h in enumerate(s.hands) if viewer not in (None, p))
    assert len(pc.with_class(root, "card-back")) == hidden
    assert len(pc.with_class(root, "seat")) == s.num_players
    assert len(pc.with_class(root, "token")) == TOKEN_SUPPLY == s.supply + sum(s.tokens)
    deck = pc.with_class(root, "deck")
    assert len(deck) == 1
    assert [e.text for e in pc.with_class(root, "deck-count")] == [str(len(s.deck))]
    groups = sum(len(game.score_cards(p).sets) + (len(split_pile(game, p)) >
                 len(game.score_cards(p).sets)) for p in s.piles)
    assert len(pc.with_class(root, "pile-set")) == groups


@pytest.mark.parametrize("key", ["start2", "mid3", "mid4", "pending"])
def test_seat_viewer_sees_no_other_hand(key):
    game, s = STATES[key]()
    unique = {c.short for c in game.cards if sum(d.short == c.short for d in game.cards) == 1}
    for viewer in range(s.num_players):
        root = pc.parse(game.render_svg(s, viewer))
        seen = {int(e.get("data-card")) for e in pc.with_class(root, "card")}
        words = " ".join(pc.texts(root))
        for seat in root.iter(pc.NS + "g"):
            if seat.get("class") != "seat":
                continue
            p = int(seat.get("data-seat"))
            backs = pc.with_class(seat, "card-back")
            faces = pc.with_class(seat, "card")
            if p == viewer:
                assert not backs
                assert set(s.hands[p]) <= seen
                continue
            assert len(backs) == len(s.hands[p])
            assert not set(s.hands[p]) & seen
            assert {int(e.get("data-card")) for e in faces} == set(s.piles[p])
            for c in s.hands[p]:
                if game.names[c] in unique:
                    assert game.names[c] not in words, (viewer, p, game.names[c])


def test_spectator_sees_every_hand():
    game, s = STATES["mid4"]()
    root = pc.parse(game.render_svg(s))
    words = " ".join(pc.texts(root))
    assert not pc.with_class(root, "card-back")
    for hand in s.hands:
        for c in hand:
            assert game.names[c] in words


@pytest.mark.parametrize("key", ["start2", "mid3", "pending"])
def test_caption_names_the_pending_decision(key):
    game, s = STATES[key]()
    text = pc.caption(pc.parse(game.render_svg(s, 0)))
    assert game.decision_description(s) in text
    assert text == f"Round {s.round} - {game.decision_description(s)}"


def test_pending_card_is_drawn_and_named():
    game, s = STATES["pending"]()
    root = pc.parse(game.render_svg(s, 1))
    pending = pc.with_class(root, "pending")
    assert len(pending) == 1
    assert [int(e.get("data-card")) for e in pc.with_class(pending[0], "card")] == [s.pending]
    assert game.cards[s.pending].short in pc.caption(root)
    assert "(card " not in pc.caption(root)  # named as the table shows it, not by id


@pytest.mark.parametrize("key", ["over2", "over4"])
def test_caption_gives_final_scores(key):
    game, s = STATES[key]()
    assert game.is_terminal(s)
    text = pc.caption(pc.parse(game.render_svg(s)))
    assert text.startswith("Game over")
    for p, v in enumerate(s.scores):
        assert f"P{p} {v} VP" in text
    leader = max(range(s.num_players), key=lambda p: s.scores[p])
    assert f"P{leader}" in text.split(" - ")[-1]


def test_split_pile_groups_cards_as_scoring_counts_them():
    game = new(2)
    t2, t10, t12, a4, a7, a8 = 4, 37, 45, 12, 24, 28
    groups = {name: cards for name, _, cards in split_pile(game, [a7, t10, a4, t2, a8, t12])}
    assert sorted(groups["treasure"]) == [t2, t10, t12]
    assert sorted(groups["animal"]) == [a4, a7, a8]
    month = new(2, current_month=5)
    groups = {name: cards for name, _, cards in split_pile(month, [16, 17, 18, 19, 0])}
    assert sorted(groups["current_month"]) == [16, 17, 18, 19]
    assert groups["loose"] == [0]


@pytest.mark.parametrize("key", ["mid2", "mid4", "over2"])
def test_split_pile_matches_the_best_scoring(key):
    game, s = STATES[key]()
    for pile in s.piles:
        groups = split_pile(game, pile)
        assert sorted(c for _, _, cards in groups for c in cards) == sorted(pile)
        sets = game.score_cards(pile).sets
        assert [(x.name, x.cards, x.vp) for x in sets] == [
            (name, len(cards), vp) for name, vp, cards in groups if name != "loose"]


def test_rasterises_to_a_coloured_image():
    game, s = STATES["mid3"]()
    pc.assert_rasterises(game, s, min_colours=21)


def assert_seat_heads(game, s, root: ET.Element) -> None:
    """Each seat shows its score, tokens and its pile's set VP now (captures included)."""
    for seat in pc.with_class(root, "seat"):
        p = int(seat.get("data-seat"))
        words = " ".join(pc.texts(seat))
        assert f"score {s.scores[p]} VP" in words
        assert f"sets {game.score_cards(s.piles[p]).vp} VP" in words
        assert len(pc.with_class(seat, "token")) == s.tokens[p]


@pytest.mark.parametrize("key", sorted(STATES))
def test_seat_heads_show_score_tokens_and_set_vp(key):
    game, s = STATES[key]()
    assert_seat_heads(game, s, pc.parse(game.render_svg(s, 0)))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_whole_game_renders_for_every_player_count(n):
    game = new(n)
    for _step, s in pc.sampled_states(game, 100 + n):
        seat = game.current_player(s)
        for viewer in (None, seat if seat >= 0 else 0):
            root = pc.parse(game.render_svg(s, viewer))
            faces = len(pc.with_class(root, "card"))
            backs = len(pc.with_class(root, "card-back"))
            assert faces + backs + len(s.deck) == 54
            assert_seat_heads(game, s, root)
    assert game.is_terminal(s)
    assert "Game over" in pc.caption(pc.parse(game.render_svg(s)))
