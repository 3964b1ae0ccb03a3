"""``formosa play`` as a person reads it: every game and player count, scripted human.

Seeded sessions of :func:`play_session` with a human seat that answers from a stream,
checked screen by screen: the decision is asked in words before the numbered moves,
chance is told one line per kind of event (never one line per draw), the table names
its zones instead of printing raw vectors, and nothing another seat hides (a hand, the
deck) reaches the human's screen or the chance narration.
"""

from __future__ import annotations

import io
import re
from typing import Any

import numpy as np
import pytest
from formosa_envs.agents import make_agent

from formosa_envs.core.engine import CHANCE
from formosa_envs.games import GAMES, make_game
from formosa_envs.tools.narrate import ChanceNarrator, decision_prompt, wording_of
from formosa_envs.tools.play import HumanSeat, play_session

CASES = [(name, n) for name, info in GAMES.items()
         for n in range(info.min_players, info.max_players + 1)]
ZONES = {
    "flowers": ("Deck:", "Field:", "hand", "captured", "sets worth", "VP"),
    "taiwan": ("Buildings for sale", "Landmarks face up", "Regions", "hand:", "coins", "VP"),
    "tea": ("Plantation", "Processing tracks", "Merchants", "Global Market", "Basket",
            "Factories", "Warehouse", "VP"),
    "dadaocheng": ("Disc grid", "Storehouses", "Ships for sale", "Buildings:", "hand:", "PP"),
}
RAW_VECTOR = re.compile(r"\[-?\d+, -?\d+")
MOVE_LINE = re.compile(r"^ +\d+: ")


class RecordingHuman(HumanSeat):
    """A scripted person who also keeps, for each decision, the screen it was shown and
    what the other seats hid at that moment."""

    def __init__(self, answers: int, out: io.StringIO) -> None:
        # 0, 1, 2, 0, 1, 2, ...: an answer past the last move is refused and the next read
        super().__init__(io.StringIO("".join(f"{k % 3}\n" for k in range(answers))), out)
        self.screens: list[tuple[Any, str]] = []

    def act_on_state(self, game: Any, state: Any) -> int:
        """Answer as a HumanSeat does; remember the state and the screen."""
        start = len(self.out.getvalue())
        seen = game.clone(state)
        try:
            return super().act_on_state(game, state)
        finally:
            self.screens.append((seen, self.out.getvalue()[start:]))


def _session(game_name: str, n: int, seed: int, answers: int = 40
             ) -> tuple[Any, int, RecordingHuman, str]:
    out = io.StringIO()
    seat = seed % n
    human = RecordingHuman(answers, out)
    seats: list[Any] = [make_agent("random", game_name, seed + i) for i in range(n)]
    seats[seat] = human
    play_session(game_name, n, seats, seed, out=out)
    return make_game(game_name, num_players=n), seat, human, out.getvalue()


def chance_problems(text: str) -> list[str]:
    """Chance narration that is not a summary: two lines of one kind in a row, or a raw
    outcome id (``merchant_draw -> 4``)."""
    problems, previous = [], None
    for line in text.splitlines():
        if not line.startswith("chance: "):
            previous = None
            continue
        kind = line[len("chance: "):].split(":")[0]
        if kind == previous:
            problems.append(f"two lines of one kind in a row: {kind!r}")
        if "->" in line:
            problems.append(f"raw outcome: {line!r}")
        previous = kind
    return problems


def hidden_names(game: Any, state: Any, seat: int) -> list[str]:
    """The names of the cards the other seats hold in hand (Flowers; nothing elsewhere)."""
    if game.name != "flowers":
        return []
    return [game.names[c] for p, hand in enumerate(state.hands) if p != seat for c in hand]


def leaks(names: list[str], text: str) -> list[str]:
    """Which of ``names`` appear in ``text`` as a whole card name."""
    found = []
    for name in names:
        pattern = rf"(?<![\w/]){re.escape(name)}(?![\w+/]| \(card)"
        if re.search(pattern, text):
            found.append(name)
    return found


@pytest.mark.parametrize(("game_name", "n"), CASES)
@pytest.mark.parametrize("seed", [1, 2])
def test_a_person_can_read_every_screen(game_name: str, n: int, seed: int) -> None:
    game, seat, human, text = _session(game_name, n, seed)
    assert human.screens, "the human was never asked"
    for state, screen in human.screens:
        lines = screen.splitlines()
        first_move = next(i for i, line in enumerate(lines) if MOVE_LINE.match(line))
        asked = decision_prompt(game, state)
        assert lines[first_move - 1] == f">> {asked}", screen
        assert asked.startswith(f"Player {seat}") and game.decision_description(state) \
            not in asked, asked
        table = "\n".join(lines[:first_move - 1])
        missing = [zone for zone in ZONES[game_name] if zone not in table]
        assert not missing, f"zones {missing} not named in:\n{table}"
        assert not RAW_VECTOR.search(table), f"a raw vector in the table:\n{table}"
        assert f"Player {seat} (you" in table
    assert not chance_problems(text), chance_problems(text)
    assert sum(line.startswith("chance: ") for line in text.splitlines()) < 12 * len(
        human.screens) + 12


@pytest.mark.parametrize(("game_name", "n"), CASES)
def test_nothing_hidden_reaches_the_human(game_name: str, n: int) -> None:
    """At every human decision no card another seat holds appears on the screen or in the
    narration since the round's deal (a new round deals cards seen before), and the screen
    is the same whatever the hidden cards are (the seat's view of a resampled state)."""
    game, seat, human, text = _session(game_name, n, seed=3, answers=25)
    rng = np.random.default_rng(0)
    shown_so_far = 0
    for state, screen in human.screens:
        shown_so_far = text.index(screen, shown_so_far) + len(screen)
        this_round = max(text.rfind("chance: cards dealt", 0, shown_so_far), 0)
        assert not leaks(hidden_names(game, state, seat), text[this_round:shown_so_far])
        other = game.determinize(state, seat, rng)
        assert game.render(other, seat) == game.render(state, seat)
        assert decision_prompt(game, other) == decision_prompt(game, state)


def test_the_checks_catch_leaks_and_unsummarised_chance() -> None:
    """Negative controls: a spectator's table shows the hands the human must not see, and
    one line per draw is caught."""
    game, seat, human, _ = _session("flowers", 3, seed=4, answers=3)
    state, _ = human.screens[0]
    assert leaks(hidden_names(game, state, seat), game.render(state, None))
    assert not leaks(hidden_names(game, state, seat), game.render(state, seat))
    assert chance_problems("chance: merchant_draw -> 4\nchance: merchant_draw -> 9\n")
    assert chance_problems("chance: dice: a\nchance: dice: b\n")
    assert not chance_problems("chance: dice: a\nplayer 1 (random): x\nchance: dice: b\n")


def test_flowers_deals_are_counted_never_named() -> None:
    """A deal tells how many cards each hand and the field got, no card names."""
    game = make_game("flowers", num_players=3)
    narrator = ChanceNarrator(game, viewer=1)
    state = game.new_initial_state()
    rng = np.random.default_rng(5)
    while game.current_player(state) == CHANCE:
        action = game.sample_chance(state, rng)
        narrator.note(state, action)
        game.apply_action(state, action)
    lines = narrator.flush()
    assert lines == [f"chance: cards dealt: {game.hand_size} to each hand (hidden), "
                     f"{game.config.field_size} face up on the field"]
    assert narrator.flush() == []


def test_chance_runs_are_one_line_per_kind_with_names() -> None:
    """Tea's setup (about eighty draws) is a handful of lines naming what was drawn."""
    _, _, _, text = _session("tea", 2, seed=1, answers=1)
    setup = text[:text.index("\nFormosa Tea - round")].splitlines()
    assert all(line.startswith("chance: ") for line in setup) and len(setup) <= 10, setup
    assert any("merchant cards drawn for the display: S1-" in line for line in setup)
    assert any(line.startswith("chance: buds placed on the plantation (12)") for line in setup)


def _out_of_turn_states(game_name: str, n: int, seed: int, limit: int = 3000) -> list[Any]:
    """States of random games where a seat is asked outside its own turn."""
    game = make_game(game_name, num_players=n)
    words = wording_of(game)
    rng = np.random.default_rng(seed)
    state, found = game.new_initial_state(), []
    for _ in range(limit):
        if game.is_terminal(state):
            break
        player = game.current_player(state)
        if player == CHANCE:
            action = game.sample_chance(state, rng)
        else:
            turn = words.whose_turn(game, state)
            if turn is not None and turn != player:
                found.append(game.clone(state))
            legal = game.legal_actions(state)
            action = legal[int(rng.integers(len(legal)))]
        game.apply_action(state, action)
    return found


@pytest.mark.parametrize("n", [2, 3, 4])
def test_tea_master_advances_asked_out_of_turn_name_the_seat(n: int) -> None:
    """A harvest moves other players' Tea Masters: their owners choose A or B, and the
    prompt names them and says whose turn it is."""
    states = [s for seed in range(3) for s in _out_of_turn_states("tea", n, seed)]
    assert states, "no out-of-turn decision in three random games"
    game = make_game("tea", num_players=n)
    for state in states:
        seat, turn = game.current_player(state), state.turn
        asked = decision_prompt(game, state)
        assert asked.startswith(f"Player {seat} (out of turn: it is player {turn}'s turn), "), \
            asked
        assert state.stack[-1].kind != "advance_mode" or "Tea Master" in asked


def test_dadaocheng_full_house_and_gifts_out_of_turn_name_the_seat() -> None:
    """Player 1's turn: players 1, 2 and 0 take Full House rewards in turn order; player 2
    then returns a cube over the cap; a loop gives others a gift. Each prompt names the
    seat asked and, when it is not theirs, whose turn it is."""
    from formosa_envs.core.decisions import Decision
    from formosa_envs.games.dadaocheng import actions as A
    from formosa_envs.games.dadaocheng.scenario import scenario, space
    game = make_game("dadaocheng", num_players=3)
    cubes = ([1, 0, 0, 0, 0], [0, 1, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 1, 0])
    store = {space(side, k): list(c) for side in "SWN" for k, c in enumerate(cubes)}
    s = scenario(game, phase="full_house", turn=1, storehouse=store,
                 hands=[[0] * 5, [0, 6, 0, 0, 0], [0, 0, 6, 0, 0]])
    asked = []
    while s.stack[-1].kind in ("full_house", "discard"):
        asked.append((game.current_player(s), decision_prompt(game, s)))
        game.apply_action(s, game.legal_actions(s)[0])
    assert [seat for seat, _ in asked] == [1, 2, 2, 0]
    assert asked[0][1].startswith("Player 1, Full House")
    assert asked[1][1].startswith("Player 2 (out of turn: it is player 1's turn), Full House")
    assert asked[2][1].startswith("Player 2 (out of turn: it is player 1's turn), you hold 7 "
                                  "cubes, more than the hand limit of 6")
    assert asked[3][1].startswith("Player 0 (out of turn: it is player 1's turn), Full House")
    s.stack.append(Decision("loop_gift", 2, count=2))
    assert decision_prompt(game, s) == (
        "Player 2 (out of turn: it is player 1's turn), player 1's cascade ended in a loop: "
        "take a cube of any colour (2 to take)")
    assert game.legal_actions(s) == [A.COLOUR0 + c for c in range(5)]


@pytest.mark.parametrize(("game_name", "n"), [("flowers", 3), ("taiwan", 3), ("tea", 2),
                                              ("tea", 4), ("dadaocheng", 1),
                                              ("dadaocheng", 3)])
def test_every_decision_kind_has_its_own_words(game_name: str, n: int) -> None:
    """Whole random games: each decision met is worded by the game, not by the engine's
    generic description, and the table renders at every step for every seat."""
    game = make_game(game_name, num_players=n)
    words = wording_of(game)
    kinds: set[str] = set()
    for seed in range(2):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        while not game.is_terminal(state) and state.decisions < 1500:
            if game.current_player(state) == CHANCE:
                game.apply_action(state, game.sample_chance(state, rng))
                continue
            kinds.add(state.stack[-1].kind)
            assert words.prompt(game, state) != game.decision_description(state)
            if state.decisions % 25 == 0:
                assert game.render(state, game.current_player(state))
            legal = game.legal_actions(state)
            game.apply_action(state, legal[int(rng.integers(len(legal)))])
    assert len(kinds) >= 3, kinds


def test_a_game_without_wording_falls_back_on_the_engine() -> None:
    """A game package with no ``wording`` module still gets a prompt naming the seat and
    one chance line per kind, hidden outcomes only counted."""
    from formosa_envs.games.flowers.game import FlowersGame

    class Plain(FlowersGame):
        """Flowers seen from a package that has no wording module."""

    game = Plain()
    assert wording_of(game) is None
    narrator = ChanceNarrator(game, viewer=0)
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    while game.current_player(state) == CHANCE:
        action = game.sample_chance(state, rng)
        narrator.note(state, action)
        game.apply_action(state, action)
    assert narrator.flush() == [f"chance: deal: {game.deal_total} hidden outcomes"]
    assert decision_prompt(game, state) == (
        "Player 0, it is your decision: player 0 is choosing a card to play")
