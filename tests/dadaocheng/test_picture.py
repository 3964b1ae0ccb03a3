"""The Dadaocheng SVG picture: well-formed, one shape per component of the state, the
face-down piles drawn as backs with their counts, the caption, and rasterising."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from functools import cache

import numpy as np
import pytest

from formosa_envs.games.dadaocheng import DadaochengGame, make_game
from formosa_envs.games.dadaocheng.content import COLOURS
from formosa_envs.games.dadaocheng.grid import candidates, showing
from formosa_envs.games.dadaocheng.picture_parts import ships_left
from formosa_envs.games.dadaocheng.state import DadaochengState
from tests import picture_checks as pc


@cache
def _game(n: int) -> DadaochengGame:
    return make_game(num_players=n)


def _play(n: int, seed: int, moves: int | None) -> tuple[DadaochengGame, DadaochengState]:
    """A seeded random game after ``moves`` decisions (``None``: to the end)."""
    game = _game(n)
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    game.resolve_chance(state, rng)
    done = 0
    while not game.is_terminal(state) and (moves is None or done < moves):
        game.apply_action(state, int(rng.choice(game.legal_actions(state))))
        game.resolve_chance(state, rng)
        done += 1
    return game, state


def _states() -> list[tuple[str, int, int, int | None]]:
    return [("start", 2, 1, 0), ("mid3", 3, 5, 60), ("mid4", 4, 2, 90), ("solo", 1, 3, 25),
            ("end2", 2, 4, None), ("end4", 4, 6, None)]


def _parse(svg: str) -> ET.Element:
    """The picture's root, checked to be an ``<svg>`` of positive size."""
    return pc.assert_svg(pc.parse(svg))


def _texts(root: ET.Element) -> str:
    """All text of the picture, one string."""
    return " ".join(pc.texts(root))


def _expected(game: DadaochengGame, s: DadaochengState) -> dict[str, int]:
    discs = sum(d >= 0 for d in s.cell_disc)
    backs = sum(ships_left(game, s, level) > 0 for level in range(3)) + bool(s.event_pool)
    counts = {"disc": discs, "disc-face": 2 * discs, "storehouse": 16,
              "ship": sum(up >= 0 for up in s.ship_up), "seat": s.num_players,
              "card": sum(len(x) for x in s.ships) + sum(sum(b) for b in s.buildings),
              "card-back": backs,
              "cube": sum(map(sum, s.hand)) + sum(map(sum, s.storehouse)) + sum(s.sign)}
    for c, name in enumerate(COLOURS):
        held = sum(h[c] for h in s.hand) + sum(x[c] for x in s.storehouse)
        counts[f"cube-{name}"] = held + (sum(s.sign) if name == "yellow" else 0)
    return counts


@pytest.mark.parametrize(("name", "n", "seed", "moves"), _states())
def test_picture_counts_every_component(name: str, n: int, seed: int, moves: int | None) -> None:
    """Discs, faces, cubes by colour, storehouse spaces, ships, cards, backs and seats
    match the state, for the spectator and for every seat."""
    game, state = _play(n, seed, moves)
    want = _expected(game, state)
    assert want["disc"] == 16
    for viewer in (None, *range(n)):
        root = _parse(game.render_svg(state, viewer))
        got = {cls: pc.count(root, cls) for cls in want}
        assert got == want, (name, viewer)


def test_counts_follow_a_changed_state() -> None:
    """Counts come from the state: a huge hand, full storehouses, sign cubes, a half-set
    grid and sold-out piles are all drawn as they are."""
    game, state = _play(4, 8, 40)
    s = state.clone()
    s.hand[1] = [7, 6, 5, 6, 6]
    s.storehouse = [[1, 0, 0, 0, 1] for _ in range(16)]
    s.sign = [0, 3, 1, 0]
    s.cell_disc[5] = s.cell_disc[9] = -1
    s.ship_up[0], s.ship_pool[0] = -1, []
    s.revealed[1] = game.ships_per_level - 1        # one face-down ship left on level 2
    s.event_pool = []
    root = _parse(game.render_svg(s, 2))
    want = _expected(game, s)
    assert want["disc"] == 14 and want["ship"] == _expected(game, state)["ship"] - 1
    assert ships_left(game, s, 1) == 1 and want["card-back"] == 2
    assert {cls: pc.count(root, cls) for cls in want} == want


def test_open_information_and_face_down_piles() -> None:
    """Everything a seat owns is open (DDC-1.9): every viewer sees every seat's ship codes;
    the face-down piles show only backs and counts, never a card still inside them."""
    game, state = _play(3, 11, 80)
    for p in range(3):             # every seat owns a ship taken from a face-down pile
        state.ships[p].append(state.ship_pool[p].pop())
        state.revealed[p] += 1
    owned = [game.ships[i].code for p in range(3) for i in state.ships[p]]
    hidden = [game.ships[i].code for pool in state.ship_pool for i in pool]
    unseen = [game.events[e].name for e in state.event_pool]
    for viewer in (None, 0, 1, 2):
        root = _parse(game.render_svg(state, viewer))
        words = set(re.findall(r"[A-Z]\d\d", _texts(root)))
        assert set(owned) <= words
        assert not set(hidden) & words
        assert not any(name in _texts(root) for name in unseen)
        backs = [e for e in root.iter() if "card-back" in (e.get("class") or "")]
        assert len(backs) == _expected(game, state)["card-back"]
        for level in range(3):
            if ships_left(game, state, level):
                assert str(ships_left(game, state, level)) in _texts(root)


def test_viewer_is_marked() -> None:
    """The viewer's seat carries the "you" tag; the spectator view has none."""
    game, state = _play(3, 5, 60)
    assert "you" not in _texts(_parse(game.render_svg(state, None))).split()
    for viewer in range(3):
        root = _parse(game.render_svg(state, viewer))
        seats = [e for e in root.iter() if e.get("class") == "seat"]
        marked = [k for k, g in enumerate(seats) if "you" in " ".join(g.itertext()).split()]
        assert marked == [viewer]


def _caption(svg: str) -> str:
    return pc.caption(_parse(svg))


def test_caption_names_the_decision_and_final_scores() -> None:
    """Mid-game the caption is the round and the decision description (the XML parser
    undoes the escaping); at the end it lists the final scores."""
    for n, seed, moves in ((3, 5, 60), (4, 2, 90), (1, 3, 25)):
        game, state = _play(n, seed, moves)
        assert not game.is_terminal(state)
        want = f"Round {state.round} - {game.decision_description(state)}"
        assert _caption(game.render_svg(state)) == want
        assert _caption(game.render_svg(state, 0)) == want
    game, state = _play(2, 4, None)
    caption = _caption(game.render_svg(state, 0))
    assert caption.startswith("Game over - final scores")
    for p, pp in enumerate(game.prestige(state)):
        assert f"P{p} {pp} PP" in caption
    game, state = _play(1, 3, None)
    assert f"tier {game.solo_result(state)['tier']}" in _caption(game.render_svg(state))


def test_line_candidates_and_swap_pick_are_framed() -> None:
    """Every line of 3-4 equal colours gets a dashed frame; a pending swap frames the
    cell picked first."""
    game, state = _play(4, 2, 90)
    s = state.clone()
    while s.stack[-1].kind != "move":
        game.apply_action(s, game.legal_actions(s)[0])
    assert pc.count(_parse(game.render_svg(s)), "swap-pick") == 0
    game.apply_action(s, next(a for a in game.legal_actions(s)
                              if "swap" in game.action_label(s, a)))
    assert s.stack[-1].kind == "swap_to"
    assert pc.count(_parse(game.render_svg(s)), "swap-pick") == 1
    faces = [game.discs[d].faces for d in s.cell_disc]
    for bits in range(0, 1 << 16, 4099):
        s.flipped = [(bits >> c) & 1 for c in range(16)]
        want = len(candidates(showing(faces, bits)))
        assert pc.count(_parse(game.render_svg(s)), "line-candidate") == want


def test_rasterises_to_an_rgb_array() -> None:
    """The picture rasterises to an (H, W, 3) uint8 image of the SVG's size, not blank."""
    game, state = _play(3, 5, 60)
    pc.assert_rasterises(game, state, 1, min_colours=21)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_whole_games_render(n: int) -> None:
    """Every 10th state of a random game renders for the spectator and the seat to act."""
    game = _game(n)
    for step, state in pc.sampled_states(game, 100 + n):
        viewer = game.current_player(state)
        for v in (None, viewer if viewer >= 0 else 0):
            root = _parse(game.render_svg(state, v))
            assert pc.count(root, "seat") == n
        if game.is_terminal(state):
            assert step > 20
    assert game.is_terminal(state)


def test_final_caption_follows_the_credit_tie_break(monkeypatch: pytest.MonkeyPatch) -> None:
    """Equal prestige: the caption names the winner by credit, as the returns do."""
    from formosa_envs.games.dadaocheng.picture import caption_text
    game, state = _play(2, 4, None)
    monkeypatch.setattr(game, "prestige", lambda s: [12, 12])
    state.credit = [5, 9]
    assert game.returns(state)[1] > game.returns(state)[0]
    assert caption_text(game, state) == "Game over - final scores: P0 12 PP, P1 12 PP - won by P1"
