"""The SVG picture of Taiwan Formosa states (``TaiwanGame.render_svg``).

Shapes are counted by CSS class: ``region`` (4), ``marker`` (every placed marker,
the 2-player neutral's included, in placement order), ``landmark`` (one per
landmark card), ``card`` (face-up cards: pile tops, face-up landmarks, cards on
time tracks, completed cards; ``data-card`` holds the card code), ``card-back``
(face-down landmarks for a seat viewer), ``deck-card`` (the same cards, named, for
the spectator), ``time-pawn`` (one per player on the score track) and ``seat``.
Taiwan Formosa has no private hands: only the face-down landmarks are hidden.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from formosa_envs.agents import make_agent

from formosa_envs.core.engine import CHANCE
from formosa_envs.games.taiwan import make_game
from formosa_envs.games.taiwan.picture import caption_text
from formosa_envs.games.taiwan.state import LANDMARK0
from tests import picture_checks as pc


def play(n: int, seed: int, moves: int):
    """A seeded game after ``moves`` random player decisions (chance resolved)."""
    game = make_game(num_players=n)
    rng = np.random.default_rng(seed)
    s = game.new_initial_state()
    game.resolve_chance(s, rng)
    done = 0
    while done < moves and not game.is_terminal(s):
        game.apply_action(s, int(rng.choice(game.legal_actions(s))))
        done += 1
        if not game.is_terminal(s) and game.current_player(s) == CHANCE:
            game.resolve_chance(s, rng)
    return game, s


def heuristic(n: int, seed: int, moves: int):
    """A heuristic self-play game after ``moves`` decisions: landmarks get bought."""
    game = make_game(num_players=n)
    agents = [make_agent("heuristic", "taiwan", seed=10 * seed + p) for p in range(n)]
    rng = np.random.default_rng(seed)
    s = game.new_initial_state()
    game.resolve_chance(s, rng)
    for _ in range(moves):
        if game.is_terminal(s):
            break
        game.apply_action(s, agents[game.current_player(s)].act_on_state(game, s))
        if not game.is_terminal(s) and game.current_player(s) == CHANCE:
            game.resolve_chance(s, rng)
    return game, s


STATES = {
    "start2": lambda: play(2, 1, 0),
    "start5": lambda: play(5, 2, 0),
    "mid2": lambda: play(2, 3, 200),
    "mid3": lambda: play(3, 4, 400),
    "mid4": lambda: play(4, 1, 650),
    "heur5": lambda: heuristic(5, 3, 250),
    "over2": lambda: play(2, 5, 10**6),
    "over5": lambda: heuristic(5, 3, 10**6),
}
_CACHE: dict[str, tuple] = {}


def state(key: str):
    if key not in _CACHE:
        _CACHE[key] = STATES[key]()
    return _CACHE[key]


def shown_cards(s) -> Counter:
    """Codes of every face-up card: pile tops, face-up landmarks, tracks, tableaux."""
    cards = [t for t in range(18) if s.in_game[t] and s.piles[t] > 0]
    cards += [LANDMARK0 + up for up in s.face_up if up >= 0]
    for p in range(s.num_players):
        cards += [code for code, _space in s.track[p]] + s.built[p]
    return Counter(cards)


def landmark_places(s) -> Counter:
    places = Counter(market=sum(up >= 0 for up in s.face_up),
                     deck=sum(len(d) for d in s.decks))
    for p in range(s.num_players):
        places["track"] += sum(code >= LANDMARK0 for code, _sp in s.track[p])
        places["built"] += sum(code >= LANDMARK0 for code in s.built[p])
    return +places


@pytest.mark.parametrize("key", sorted(STATES))
def test_svg_parses_with_positive_size(key):
    game, s = state(key)
    pc.assert_svg(pc.parse(game.render_svg(s)), max_width=1200)


@pytest.mark.parametrize("viewer", [None, 0, 1])
@pytest.mark.parametrize("key", sorted(STATES))
def test_component_counts_match_the_state(key, viewer):
    game, s = state(key)
    root = pc.parse(game.render_svg(s, viewer))
    assert len(pc.with_class(root, "region")) == 4
    markers = pc.with_class(root, "marker")
    assert [int(e.get("data-owner")) for e in markers] == [o for r in s.regions for o in r]
    assert len(markers) == sum(len(r) for r in s.regions)
    assert Counter(int(e.get("data-card")) for e in pc.with_class(root, "card")) == shown_cards(s)
    pills = pc.with_class(root, "landmark")
    assert len(pills) == len(game.landmarks)
    assert Counter(e.get("data-place") for e in pills) == landmark_places(s)
    pawns = pc.with_class(root, "time-pawn")
    assert sorted(int(e.get("data-owner")) for e in pawns) == list(range(s.num_players))
    assert len(pc.with_class(root, "seat")) == s.num_players
    face_down = sum(len(d) for d in s.decks)
    assert len(pc.with_class(root, "card-back")) == (0 if viewer is None else face_down)
    assert len(pc.with_class(root, "deck-card")) == (face_down if viewer is None else 0)


def test_the_heuristic_state_has_landmarks_on_tracks_and_built():
    """The landmark statuses (bought, building, built) are all drawn somewhere."""
    _game, s = state("heur5")
    places = landmark_places(s)
    assert places["track"] > 0 and places["built"] > 0 and places["deck"] > 0


@pytest.mark.parametrize("key", ["start2", "start5", "mid3", "heur5"])
def test_seat_viewers_see_no_face_down_landmark(key):
    game, s = state(key)
    hidden = {game.landmarks[c].name for d in s.decks for c in d}
    assert hidden
    for viewer in range(s.num_players):
        root = pc.parse(game.render_svg(s, viewer))
        words = " | ".join(pc.texts(root))
        assert not [name for name in hidden if name[:8] in words]  # clipped names too
        assert len(pc.with_class(root, "card-back")) == sum(len(d) for d in s.decks)
    root = pc.parse(game.render_svg(s, None))
    named = {e.text for e in pc.with_class(root, "deck-card")}
    assert named == hidden
    assert not pc.with_class(root, "card-back")


@pytest.mark.parametrize("key", ["start5", "mid4", "heur5"])
def test_viewer_and_acting_seat_are_marked(key):
    game, s = state(key)
    acting = game.current_player(s)
    for viewer in (None, *range(s.num_players)):
        root = pc.parse(game.render_svg(s, viewer))
        seats = pc.with_class(root, "seat")
        for p, seat in enumerate(seats):
            words = pc.texts(seat)
            assert (f"Player {p} (you)" in words) == (p == viewer)
            assert bool(pc.with_class(seat, "to-act")) == (p == acting)


@pytest.mark.parametrize("key", ["start2", "mid2", "mid3", "mid4", "heur5"])
def test_caption_names_the_pending_decision(key):
    game, s = state(key)
    text = pc.caption(pc.parse(game.render_svg(s, 0)))
    assert game.decision_description(s) in text
    assert text == caption_text(game, s)
    assert text.startswith(f"Round {s.round} - ")


@pytest.mark.parametrize("key", ["over2", "over5"])
def test_caption_gives_the_final_scores(key):
    game, s = state(key)
    assert game.is_terminal(s)
    text = pc.caption(pc.parse(game.render_svg(s)))
    assert text.startswith("Game over - final scores")
    for p in range(s.num_players):
        assert f"P{p} {s.vp[p]} VP" in text
    best = max(zip(s.vp, s.coins, strict=True))
    winners = [p for p in range(s.num_players) if (s.vp[p], s.coins[p]) == best]
    assert text.endswith("won by " + " and ".join(f"P{p}" for p in winners))


@pytest.mark.parametrize("key", ["mid4", "over5"])
def test_rasterised_picture_matches_the_svg(key):
    game, s = state(key)
    pc.assert_rasterises(game, s, 0, min_colours=21)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_whole_random_game_renders(players):
    """Every 10th state of a random game draws, for the spectator or a seat in turn."""
    game = make_game(num_players=players)
    for step, s in pc.sampled_states(game, 100 + players):
        viewer = None if step // 10 % 2 else step // 20 % players
        root = pc.parse(game.render_svg(s, viewer))
        assert pc.count(root, "marker") == sum(len(r) for r in s.regions)
        assert pc.count(root, "card") == sum(shown_cards(s).values())
    assert game.is_terminal(s)
