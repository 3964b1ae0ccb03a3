"""Each game's conservation laws (``check_conservation``).

Real mid-game states are corrupted one law at a time (a component moved to a second
zone, duplicated within one zone, dropped, a count beyond what the rules allow,
``over`` set mid-game); each corruption must raise ``StateFormatError`` naming the
field, both from ``check_conservation`` and from ``from_json`` of the saved state.
States reached by random and heuristic play pass at every step.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from formosa_envs.agents import make_agent

from formosa_envs.core.engine import CHANCE
from formosa_envs.core.errors import StateFormatError
from formosa_envs.core.invariants import check_total, check_zones, require
from formosa_envs.games import make_game

PLAYER_COUNTS = {"flowers": (2, 3, 4), "taiwan": (2, 3, 4, 5), "tea": (2, 3, 4),
                 "dadaocheng": (1, 2, 3, 4)}


def _step(game: Any, s: Any, rng: np.random.Generator, agent: Any = None) -> None:
    if game.current_player(s) == CHANCE:
        game.apply_action(s, game.sample_chance(s, rng))
    elif agent is not None:
        game.apply_action(s, agent.act_on_state(game, s))
    else:
        legal = game.legal_actions(s)
        game.apply_action(s, legal[int(rng.integers(len(legal)))])


def _mid_game(name: str, n: int, ready: Callable[[Any], bool], seed: int = 3) -> tuple[Any, Any]:
    """A real state from random play: the first player decision after ``ready`` holds."""
    game = make_game(name, num_players=n)
    rng = np.random.default_rng(seed)
    s = game.new_initial_state()
    while not (ready(s) and game.current_player(s) >= 0):
        assert not game.is_terminal(s), "the game ended before the wanted position"
        _step(game, s, rng)
    game.check_conservation(s)
    return game, s


def _field_of(exc: StateFormatError) -> str:
    found = re.match(r"field '([^']*)'", str(exc))
    assert found, f"the message does not start by naming the field: {exc}"
    return found.group(1)


def _expect_broken(game: Any, s: Any, corrupt: Callable[[Any], None], *fields: str) -> None:
    """``corrupt`` a clone of ``s``: both checks raise StateFormatError naming a field."""
    bad = s.clone()
    corrupt(bad)
    with pytest.raises(StateFormatError) as info:
        game.check_conservation(bad)
    assert _field_of(info.value) in fields, f"named the wrong field: {info.value}"
    with pytest.raises(StateFormatError):
        game.from_json(game.to_json(bad))
    game.check_conservation(s)  # the original is untouched and still valid


# ----- the shared mechanism ------------------------------------------------------------

def test_check_zones_names_each_kind_of_fault() -> None:
    ok = {"deck": [0, 1], "hand": [2]}
    check_zones("cards", ok, range(3), item="card")
    cases = [({"deck": [0, 1, 1], "hand": [2]}, "deck", "appears 2 times"),
             ({"deck": [0, 1], "hand": [2, 1]}, "hand", "also in deck"),
             ({"deck": [0, 1], "hand": [2, 7]}, "hand", "unknown card 7"),
             ({"deck": [0], "hand": [2]}, "cards", "[1] are in no zone")]
    for zones, field, words in cases:
        with pytest.raises(StateFormatError, match=re.escape(words)) as info:
            check_zones("cards", zones, range(3), item="card")
        assert _field_of(info.value) == field


def test_check_total_and_require() -> None:
    check_total("tokens", {"supply": 7, "tokens[0]": 2}, 9)
    with pytest.raises(StateFormatError, match="field 'tokens'"):
        check_total("tokens", {"supply": 8, "tokens[0]": 2}, 9)
    with pytest.raises(StateFormatError, match="field 'tokens\\[0\\]'.*negative"):
        check_total("tokens", {"supply": 11, "tokens[0]": -2}, 9)
    with pytest.raises(StateFormatError, match="field 'x': broken"):
        require(False, "x", "broken")


# ----- Flowers ---------------------------------------------------------------------------

@pytest.mark.parametrize("n", PLAYER_COUNTS["flowers"])
def test_flowers_corruptions(n: int) -> None:
    game, s = _mid_game("flowers", n, lambda s: s.round == 1 and s.phase != 0
                        and all(s.piles) and s.decisions >= 2 * n)
    hand0 = s.hands[s.turn][0]

    def move_to_two_zones(t: Any) -> None:
        t.field.append(hand0)

    def over_mid_game(t: Any) -> None:
        t.over, t.stack = True, []

    cases = [
        (lambda t: t.deck.append(t.deck[0]), ("deck",)),          # the 55-card deck
        (move_to_two_zones, (f"hands[{s.turn}]", "field")),
        (lambda t: t.deck.pop(), ("cards",)),
        (lambda t: t.tokens.__setitem__(0, t.tokens[0] + 1), ("tokens",)),
        (lambda t: t.scores.__setitem__(1, -4), ("scores[1]",)),
        (lambda t: t.pile_vp.__setitem__(0, t.pile_vp[0] + 3), ("pile_vp[0]",)),
        (lambda t: setattr(t, "round_start", (t.round_start + 1) % n), ("round_start",)),
        (over_mid_game, ("over",)),
        (lambda t: setattr(t, "turn", (t.turn + 1) % n), ("stack",)),
        (lambda t: t.hands[0].extend(t.deck[:game.hand_size]) or t.deck.__delitem__(
            slice(0, game.hand_size)), ("hands[0]",)),
    ]
    for corrupt, fields in cases:
        _expect_broken(game, s, corrupt, *fields)


def test_flowers_deal_and_pending_agree() -> None:
    """Mid-deal (a chance node): hands hold what was dealt; no card pending."""
    game = make_game("flowers", num_players=3)
    s = game.new_initial_state()
    rng = np.random.default_rng(0)
    for _ in range(5):
        _step(game, s, rng)
    game.check_conservation(s)
    _expect_broken(game, s, lambda t: t.hands[1].append(t.deck.pop()), "hands[1]")
    _expect_broken(game, s, lambda t: setattr(t, "pending", t.deck[0]), "deck", "pending")


# ----- Taiwan ----------------------------------------------------------------------------

@pytest.mark.parametrize("n", PLAYER_COUNTS["taiwan"])
def test_taiwan_corruptions(n: int) -> None:
    game, s = _mid_game("taiwan", n, lambda s: s.round >= 3 and any(s.built))
    t_in = s.in_game.index(True)
    deck = next(d for d in range(5) if s.decks[d])

    def phantom_purchase(t: Any) -> None:
        t.piles[t_in] -= 1
        t.bought[0][t_in] += 1

    def over_mid_game(t: Any) -> None:
        t.over, t.stack = True, []

    cases = [
        (lambda t: t.piles.__setitem__(t_in, t.piles[t_in] + 1), (f"piles[{t_in}]",)),
        (phantom_purchase, (f"bought[0][{t_in}]", f"piles[{t_in}]")),
        (lambda t: t.decks[deck].append(t.decks[deck][0]), (f"decks[{deck}]",)),
        (lambda t: t.built[0].append(18 + t.decks[deck][0]), ("built[0]",)),
        (lambda t: t.decks[deck].pop(), ("landmarks",)),
        (lambda t: t.markers.__setitem__(0, t.markers[0] - 1), ("markers[0]",)),
        (lambda t: t.vp.__setitem__(0, -3), ("vp[0]",)),
        (lambda t: t.tribal.__setitem__(1, -1), ("tribal[1]",)),
        (lambda t: t.exclusive.__setitem__(0, n), ("exclusive[0]",)),
        (lambda t: t.temple_used.__setitem__(0, 9), ("temple_used[0]",)),
        (over_mid_game, ("over",)),
    ]
    for corrupt, fields in cases:
        _expect_broken(game, s, corrupt, *fields)


# ----- Tea -------------------------------------------------------------------------------

@pytest.mark.parametrize("n", PLAYER_COUNTS["tea"])
def test_tea_corruptions(n: int) -> None:
    game, s = _mid_game("tea", n, lambda s: s.round >= 2 and s.phase == 2)
    slot = next(i for i, c in enumerate(s.display[0]) if c >= 0)

    def overfill_basket(t: Any) -> None:
        t.bag[0] -= 9
        t.basket[0][1] += 9

    def over_mid_game(t: Any) -> None:
        t.over, t.stack = True, []

    cases = [
        (lambda t: t.events.append(t.events[0]), ("events",)),      # a duplicated event
        (lambda t: t.event_pool.pop(), ("events",)),
        (lambda t: t.bag.__setitem__(0, t.bag[0] + 1), ("bag",)),
        (lambda t: t.kept[0].append(t.display[0][slot]), ("kept[0]",)),
        (lambda t: t.deck_pools[-1].append(t.deck_pools[-1][0]), (f"deck_pools[{2}]",)),
        (lambda t: t.vp.__setitem__(0, -1), ("vp[0]",)),
        (lambda t: t.weather.__setitem__(1, t.weather[0]), ("weather",)),
        (lambda t: t.farmers.__setitem__(0, t.farmers[0] + 1), ("farmers[0]",)),
        (overfill_basket, ("basket[0]",)),
        (lambda t: t.bud_pool.__setitem__(2, t.bud_pool[2] + 1), ("bud_pool",)),
        (lambda t: t.tech_supply.__setitem__(1, t.tech_supply[1] - 1), ("tech_supply",)),
        (over_mid_game, ("over",)),
    ]
    for corrupt, fields in cases:
        _expect_broken(game, s, corrupt, *fields)


# ----- Dadaocheng ------------------------------------------------------------------------

@pytest.mark.parametrize("n", PLAYER_COUNTS["dadaocheng"])
def test_dadaocheng_corruptions(n: int) -> None:
    game, s = _mid_game("dadaocheng", n, lambda s: s.round >= 2 and s.phase == 1)
    other = (s.turn + 1) % n

    def over_mid_game(t: Any) -> None:
        t.over, t.stack = True, []

    cases = [
        (lambda t: t.cell_disc.__setitem__(0, t.cell_disc[1]), ("cell_disc",)),
        (lambda t: t.ship_pool[0].append(t.ship_up[0]), ("ship_pool[0]", "ship_up")),
        (lambda t: t.ship_pool[1].append(t.ship_pool[0].pop()), ("ship_pool[1]",)),
        (lambda t: t.piles.__setitem__(0, t.piles[0] + 1), ("piles[0]",)),
        (lambda t: t.credit.__setitem__(0, t.credit[0] + 2), ("credit[0]",)),
        (lambda t: t.storehouse[4 * t.sides_of[0]].__setitem__(0, 3),
         (f"storehouse[{4 * s.sides_of[0]}]",)),
        (lambda t: t.revealed.__setitem__(2, t.revealed[2] + 1), ("revealed[2]",)),
        (over_mid_game, ("over",)),
    ]
    if n > 1:
        cases += [
            (lambda t: t.hand.__setitem__(other, [999, 0, 0, 0, 0]), (f"hand[{other}]",)),
            (lambda t: t.events.append(t.events[0]), ("events",)),
            (lambda t: t.events.append(t.event_pool.pop()), ("events",)),
        ]
    for corrupt, fields in cases:
        _expect_broken(game, s, corrupt, *fields)


# ----- reached states always pass --------------------------------------------------------

HEURISTIC_STEPS = 200
CASES = [(name, n) for name, counts in PLAYER_COUNTS.items() for n in counts]


@pytest.mark.parametrize(("name", "n"), CASES)
def test_played_states_pass_at_every_step(name: str, n: int) -> None:
    """Whole random games and the opening of a heuristic game (its agent is slow; whole
    heuristic games were checked outside the suite), checked after every step."""
    game = make_game(name, num_players=n)
    runs = [(n, None, game.max_game_length)]
    runs.append((n + 10, make_agent("heuristic", name, seed=n), HEURISTIC_STEPS))
    for seed, agent, limit in runs:
        rng = np.random.default_rng(seed)
        s = game.new_initial_state()
        game.check_conservation(s)
        steps = 0
        while not game.is_terminal(s) and steps < limit:
            _step(game, s, rng, agent)
            game.check_conservation(s)
            steps += 1
        game.check_conservation(game.from_json(game.to_json(s)))


# ----- Taiwan: holdings backed by completed cards, exactly 12 types ----------------------

@pytest.mark.parametrize("n", PLAYER_COUNTS["taiwan"])
def test_taiwan_card_backed_laws(n: int) -> None:
    """T-9.7/T-9.8: stored workers and resources never exceed 3 per completed Tribal
    Village / Warehouse; T-9.9: a red type's owner completed one; T-2.1: exactly 12 types."""
    game, s = _mid_game("taiwan", n, lambda s: s.round >= 2)
    village, store = game.type_id["tribal_village"], game.type_id["warehouse"]
    court = game.type_id["judicial_court"]
    stranger = next(p for p in range(n) if court not in s.built[p])
    out = s.in_game.index(False)
    kept = next(t for t in range(len(s.in_game))
                if s.in_game[t] and not any(b[t] for b in s.bought))

    def extra_type(t: Any) -> None:
        t.in_game[out], t.piles[out] = True, game.buildings[out].copies

    def dropped_type(t: Any) -> None:
        t.in_game[kept], t.piles[kept] = False, 0

    cases = [
        (lambda t: t.tribal.__setitem__(0, 3 * t.built[0].count(village) + 1), ("tribal[0]",)),
        (lambda t: t.warehouse[0].__setitem__(1, 3 * t.built[0].count(store) + 1),
         ("warehouse[0]",)),
        (lambda t: t.exclusive.__setitem__(0, stranger), ("exclusive[0]",)),
        (extra_type, ("in_game",)),
        (dropped_type, ("in_game",)),
    ]
    for corrupt, fields in cases:
        _expect_broken(game, s, corrupt, *fields)


# ----- Taiwan: the last round; Dadaocheng: the phase agrees with the stack ----------------

def _load_names(game: Any, bad: Any, field: str) -> None:
    """Both ``check_conservation`` and ``from_json`` of ``bad`` refuse it, naming ``field``."""
    with pytest.raises(StateFormatError) as info:
        game.check_conservation(bad)
    assert _field_of(info.value) == field, f"named the wrong field: {info.value}"
    with pytest.raises(StateFormatError) as info:
        game.from_json(game.to_json(bad))
    assert _field_of(info.value) == field, f"named the wrong field: {info.value}"


def _taiwan_empty(s: Any) -> int:
    piles = sum(1 for t, pile in enumerate(s.piles) if s.in_game[t] and pile == 0)
    return piles + sum(1 for d, up in enumerate(s.face_up) if up < 0 and not s.decks[d])


@pytest.mark.parametrize("n", PLAYER_COUNTS["taiwan"])
def test_taiwan_final_round_needs_the_end_trigger(n: int) -> None:
    """T-7.4, R-19: the last round starts only after a round ended with at least N empty
    piles/decks, so ``final_round`` in round 1, or with fewer than N empty, is refused."""
    game, s = _mid_game("taiwan", n, lambda s: s.phase == 2)  # round 1, an action turn
    assert s.round == 1 and not s.final_round
    bad = s.clone()
    bad.final_round = True
    _load_names(game, bad, "final_round")
    game, s = _mid_game("taiwan", n, lambda s: s.round >= 2 and s.phase == 2 and
                        _taiwan_empty(s) < n)
    bad = s.clone()
    bad.final_round = True
    _load_names(game, bad, "final_round")


@pytest.mark.parametrize("n", PLAYER_COUNTS["taiwan"])
def test_taiwan_triggered_end_must_be_flagged_in_the_dice_phase(n: int) -> None:
    """T-7.4: the dice phase changes no pile or deck, so N empty there were empty at the
    last round end: flow set ``final_round`` then, and a save without it is refused."""
    game, s = _mid_game("taiwan", n, lambda s: s.final_round and s.phase == 1)
    assert _taiwan_empty(s) >= n
    game.from_json(game.to_json(s))  # the real state loads
    bad = s.clone()
    bad.final_round = False
    _load_names(game, bad, "final_round")


def _ddc_game(n: int, sides: str | None = None) -> Any:
    return make_game("dadaocheng", num_players=n,
                     **({"two_player_sides": sides} if sides else {}))


DDC_SETUPS = [(n, None) for n in PLAYER_COUNTS["dadaocheng"]] + [(2, "adjacent")]


@pytest.mark.parametrize(("n", "sides"), DDC_SETUPS)
def test_dadaocheng_phase_agrees_with_the_stack(n: int, sides: str | None) -> None:
    """DDC-2, DDC-3: a mid-game save switched to SETUP (its stack holds turn frames), and a
    setup save switched to TURNS (its stack holds setup frames only), are refused."""
    game, rng = _ddc_game(n, sides), np.random.default_rng(5)
    s = game.new_initial_state()
    while s.phase == 0:
        assert s.setup_step in (1, 2)
        bad = s.clone()
        bad.phase = 1
        _load_names(game, bad, "phase")
        _step(game, s, rng)
    while not (s.round >= 5 and game.current_player(s) >= 0
               and (n == 1 or "purchase" in [d.kind for d in s.stack])):  # solo: rarely
        assert not game.is_terminal(s)
        _step(game, s, rng)
    game.from_json(game.to_json(s))  # the real state loads
    bad = s.clone()
    bad.phase = 0
    _load_names(game, bad, "phase")
