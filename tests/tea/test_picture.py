"""The SVG picture of Formosa Tea (``TeaGame.render_svg``, ``games/tea/picture.py``).

Shapes are counted by CSS class and compared with the engine state: every tea cube
outside the bag, every bud, every Tea Master on a track, every face-up merchant card.
"""

from __future__ import annotations

from functools import cache
from xml.etree import ElementTree as ET

import numpy as np
import pytest

from formosa_envs.games.tea import TeaGame, make_game
from formosa_envs.games.tea.content import CHARACTER_NAMES
from formosa_envs.games.tea.picture import caption_text
from formosa_envs.games.tea.state import CUBES, TeaState
from tests import picture_checks as pc


@cache
def _game(n: int = 3, advanced: bool = False) -> TeaGame:
    return make_game(num_players=n, advanced=advanced)


def play(game: TeaGame, seed: int, moves: int | None = None) -> TeaState:
    """Resolve chance, then ``moves`` random legal moves (``None``: to the end), one rng."""
    rng = np.random.default_rng(seed)
    s = game.new_initial_state()
    game.resolve_chance(s, rng)
    done = 0
    while not s.over and (moves is None or done < moves):
        game.apply_action(s, int(rng.choice(game.legal_actions(s))))
        game.resolve_chance(s, rng)
        done += 1
    return s


def words(root: ET.Element) -> str:
    """All text of the picture, one string."""
    return "\n".join(pc.texts(root))


def states() -> list[tuple[str, TeaGame, TeaState]]:
    """Seeded states: setup done, mid-game (basic and advanced), finished."""
    basic, advanced = _game(3), _game(3, True)
    return [("start", basic, play(basic, 0, 0)), ("mid", basic, play(basic, 1, 90)),
            ("mid-advanced", advanced, play(advanced, 184, 130)),
            ("four", _game(4), play(_game(4), 2, 60)), ("end", basic, play(basic, 3))]


STATES = states()
IDS = [name for name, _, _ in STATES]


def expected_counts(game: TeaGame, s: TeaState) -> dict[str, int]:
    """Component counts straight from the state."""
    n = s.num_players
    counts = {"cube": sum(CUBES) - sum(s.bag), "seat": n, "event": len(s.events),
              "merchant": sum(1 for row in s.display for c in row if c >= 0),
              "master": sum(1 for p in range(n) for pos in s.master_pos[p] if pos >= 0),
              "bud": sum(1 for sp in range(16) if s.bud[sp] >= 0)
              + sum(map(sum, s.buds)) + sum(sum(sc[2:]) for sc in s.scent),
              "kept-card": sum(len(k) for k in s.kept),
              "card-back": sum(1 for pile in (*s.deck_pools, s.deck_tail) if pile),
              "character": sum(1 for c in s.character if c >= 0) + len(s.draft_pool)}
    for t, tea in enumerate(("oolong", "black", "green")):
        drawn = sum(c[t] for c in s.cubes) + sum(
            sum(s.basket[p][3 * t:3 * t + 3]) + sum(s.factory[p][4 * t:4 * t + 4])
            + sum(s.warehouse[p][3 * t:3 * t + 3]) + (s.scent[p][1] if s.scent[p][0] == t
                                                      else 0) for p in range(n))
        counts["cube-" + tea] = drawn
    masters = 3 if n == 2 else 2
    counts["worker"] = n * (2 + masters) - counts["master"]
    return counts


@pytest.mark.parametrize(("name", "game", "state"), STATES, ids=IDS)
def test_the_svg_parses_with_a_positive_size(name: str, game: TeaGame,
                                             state: TeaState) -> None:
    pc.assert_svg(pc.parse(game.render_svg(state)), max_width=1200)


@pytest.mark.parametrize("viewer", [None, 0, 1])
@pytest.mark.parametrize(("name", "game", "state"), STATES, ids=IDS)
def test_every_component_is_drawn_once(name: str, game: TeaGame, state: TeaState,
                                       viewer: int | None) -> None:
    found = pc.class_counts(pc.parse(game.render_svg(state, viewer)))
    for cls, count in expected_counts(game, state).items():
        assert found[cls] == count, f"{cls}: drawn {found[cls]}, state holds {count}"
    assert found["cube"] + sum(state.bag) == sum(CUBES)


def test_a_mid_game_state_has_pieces_everywhere() -> None:
    """The counting test above is not vacuous: the states hold every kind of piece."""
    _, game, s = STATES[2]
    counts = expected_counts(game, s)
    assert min(counts["cube"], counts["bud"], counts["master"], counts["merchant"],
               counts["kept-card"], counts["character"]) > 0
    assert sum(map(sum, s.warehouse)) > 0 and any(o >= 0 for o in s.occupant)


def test_the_deck_is_face_down_and_the_open_table_is_shown_to_every_viewer() -> None:
    _, game, s = STATES[1]
    spectator = game.render_svg(s)
    deck = [game.merchants[c].code for pile in (*s.deck_pools, s.deck_tail) for c in pile]
    assert deck, "the state should still have a deck"
    for viewer in (None, *range(s.num_players)):
        svg = game.render_svg(s, viewer)
        root = pc.parse(svg)
        assert not [code for code in deck if code in svg], "a deck card's face is shown"
        backs = pc.with_class(root, "card-back")
        assert sum(int(el.get("data-count")) for el in backs) == len(deck)
        faces = [el.get("data-card") for el in pc.with_class(root, "merchant")]
        assert sorted(faces) == sorted(game.merchants[c].code for row in s.display
                                       for c in row if c >= 0)
        you = words(root).count("(you)")
        assert you == (0 if viewer is None else 1)
        if viewer is not None:
            assert f"Player {viewer} (you)" in words(root)
        # nothing is private in Formosa Tea: a seat sees the spectator's table
        assert pc.class_counts(root) == pc.class_counts(pc.parse(spectator))


def test_characters_are_shown_in_the_advanced_game() -> None:
    game = _game(3, True)
    rng = np.random.default_rng(4)
    s = game.new_initial_state()
    game.resolve_chance(s, rng)
    while s.stack[-1].kind != "draft":
        game.apply_action(s, int(rng.choice(game.legal_actions(s))))
        game.resolve_chance(s, rng)
    root = pc.parse(game.render_svg(s))
    assert "Characters to draft" in words(root)
    assert pc.class_counts(root)["draft"] == len(s.draft_pool) == 4
    _, game, mid = STATES[2]
    shown = words(pc.parse(game.render_svg(mid)))
    assert all(CHARACTER_NAMES[c] in shown for c in mid.character)


@pytest.mark.parametrize(("name", "game", "state"), STATES[1:3], ids=IDS[1:3])
def test_the_caption_names_the_pending_decision(name: str, game: TeaGame,
                                                state: TeaState) -> None:
    text = pc.caption(pc.parse(game.render_svg(state, 0)))
    assert game.decision_description(state) in text
    assert text == caption_text(game, state)
    assert text.startswith(f"Round {state.round}/")


def test_the_caption_gives_the_final_scores() -> None:
    _, game, s = STATES[-1]
    assert s.over
    text = pc.caption(pc.parse(game.render_svg(s)))
    assert text.startswith("Game over - final scores")
    for p, score in enumerate(game.scores(s)):
        assert f"P{p} {int(score)} VP" in text


def test_the_seat_to_act_is_marked() -> None:
    _, game, s = STATES[1]
    acting = game.current_player(s)
    assert acting >= 0
    root = pc.parse(game.render_svg(s))
    marked = [el for el in root.iter() if el.get("class") == "to-act"]
    assert len(marked) == 1
    seats = [el for el in root.iter() if el.get("class") == "seat"]
    assert seats[acting].get("data-seat") == str(acting)
    assert any(el.get("class") == "to-act" for el in seats[acting].iter())


def test_the_picture_rasterises() -> None:
    _, game, s = STATES[2]
    pc.assert_rasterises(game, s, viewer=1, min_colours=21)


@pytest.mark.parametrize(("players", "advanced"), [(2, False), (3, True), (4, False),
                                                   (4, True)])
def test_a_whole_game_draws_at_every_player_count(players: int, advanced: bool) -> None:
    game = _game(players, advanced)
    for step, s in pc.sampled_states(game, players):
        root = pc.parse(game.render_svg(s, step % players))
        found = pc.class_counts(root)
        for cls, count in expected_counts(game, s).items():
            assert found[cls] == count, f"step {step}, {cls}"
    assert s.over
    assert "Game over" in pc.caption(root)
