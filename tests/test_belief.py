"""FlowersPlayBelief: the other seats' plays weigh the deals of a determinized search, and
every driver's move reaches the agents (``Agent.inform``)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from formosa_envs.agents import make_agent
from formosa_envs.agents.base import SeatCountAgent
from formosa_envs.agents.belief import FlowersPlayBelief, SeenPlay
from formosa_envs.agents.heuristics.flowers import play_values
from formosa_envs.agents.mcts import MCTSAgent
from formosa_envs.agents.random_agent import RandomAgent

from formosa_envs.core.engine import CHANCE
from formosa_envs.games import make_game
from formosa_envs.games.flowers.actions import PLAY0
from formosa_envs.games.flowers.rules import PLAY
from formosa_envs.tools.simulate import play_game


def heuristic_game(seed: int, belief: FlowersPlayBelief, until: int = 10_000):
    """A 2-player heuristic game from ``seed`` whose moves ``belief`` is told, stopped at
    the first play decision of seat 0 after ``until`` decisions (or at the end)."""
    game = make_game("flowers", num_players=2)
    rng = np.random.default_rng(seed)
    agent = make_agent("heuristic", "flowers", seed=seed)
    state = game.new_initial_state()
    while not game.is_terminal(state):
        player = game.current_player(state)
        if player == CHANCE:
            game.resolve_chance(state, rng)
            continue
        if player == 0 and state.decisions >= until and state.stack[-1].kind == PLAY:
            break
        action = agent.act_on_state(game, state)
        belief.inform(game, state, player, action)
        game.apply_action(state, action)
    return game, state


def test_only_this_rounds_plays_are_kept() -> None:
    belief = FlowersPlayBelief()
    game, state = heuristic_game(1, belief)
    assert game.is_terminal(state) and state.round >= 2
    assert belief.plays and {p.round for p in belief.plays} == {state.round}


def test_the_preferred_mask_is_the_heuristics_order() -> None:
    game = make_game("flowers", num_players=2)
    rng = np.random.default_rng(4)
    state = game.new_initial_state()
    game.resolve_chance(state, rng)
    while game.current_player(state) != 1 or state.stack[-1].kind != PLAY:
        game.apply_action(state, make_agent("heuristic", "flowers", seed=0)
                          .act_on_state(game, state))
        if game.current_player(state) == CHANCE:
            game.resolve_chance(state, rng)
    card = state.hands[1][0]
    belief = FlowersPlayBelief()
    belief.inform(game, state, 1, PLAY0 + card)
    open_cards = set(state.field) | {c for pile in state.piles for c in pile}
    hidden = [c for c in range(len(game.cards)) if c not in open_cards and c != card]
    value, others = play_values(game, state, 1, card, hidden)
    expected = {c for c, v in zip(hidden, others, strict=True) if v > value + 1e-9}
    got = {c for c in range(len(game.cards)) if belief.plays[0].preferred >> c & 1}
    assert got == expected
    assert belief.plays[0].card == card and belief.plays[0].seat == 1


def test_the_mask_reads_nothing_hidden() -> None:
    """Two states that differ only in which hidden cards are in the hand and which in the
    deck give the same seen play."""
    game = make_game("flowers", num_players=2)
    state = game.new_initial_state()
    game.resolve_chance(state, np.random.default_rng(9))
    while game.current_player(state) != 1:
        game.apply_action(state, game.legal_actions(state)[0])
        if game.current_player(state) == CHANCE:
            game.resolve_chance(state, np.random.default_rng(9))
    card = state.hands[1][0]
    other = game.clone(state)
    swap_out, swap_in = other.hands[1][1], other.deck[0]
    other.hands[1][1], other.deck[0] = swap_in, swap_out
    seen = []
    for s in (state, other):
        belief = FlowersPlayBelief()
        belief.inform(game, s, 1, PLAY0 + card)
        seen.append(belief.plays[0])
    assert seen[0] == seen[1]


def test_constraints_skip_the_viewer_and_plays_the_seat_later_contradicted() -> None:
    """Seat 1 played card 10 preferring card 20, then played 20: the model did not hold at
    the first play, which is dropped; the viewer's own plays are never constraints."""
    belief = FlowersPlayBelief()
    belief.plays = [SeenPlay(3, 1, 10, 1 << 20), SeenPlay(3, 0, 11, 1 << 5),
                    SeenPlay(3, 1, 20, 1 << 7), SeenPlay(2, 0, 30, 1 << 6)]
    now = SimpleNamespace(round=3)
    assert belief.constraints(now, viewer=0) == [(1, 1 << 7)]
    assert belief.constraints(now, viewer=1) == [(0, 1 << 5)]


def test_deals_respect_the_plays_when_they_can() -> None:
    """With a tiny eps and many redraws every deal breaks no kept play (the true deal
    breaks none: the heuristic made those plays); without constraints the deal is the
    game's own, drawn from the same generator."""
    belief = FlowersPlayBelief(eps=1e-12, redraws=500)
    game, state = heuristic_game(3, belief, until=25)
    kept = belief.constraints(state, viewer=0)
    assert kept, "this deal should have plays of seat 1 to weigh"
    assert not any(_holds(state.hands[1], mask) for _, mask in kept)
    rng = np.random.default_rng(0)
    for _ in range(20):
        world = belief.determinize(game, state, 0, rng)
        assert not any(_holds(world.hands[1], mask) for _, mask in kept)
        assert world.hands[0] == state.hands[0]
        assert sorted(world.deck + world.hands[1]) == sorted(state.deck + state.hands[1])
    empty = FlowersPlayBelief()
    a = empty.determinize(game, state, 0, np.random.default_rng(5))
    b = game.determinize(state, 0, np.random.default_rng(5))
    assert a.hands == b.hands and a.deck == b.deck


def _holds(hand: list[int], mask: int) -> bool:
    return any(mask >> c & 1 for c in hand)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"eps": 0}, "eps must be a number in"), ({"eps": 1.5}, "eps must be a number in"),
    ({"eps": True}, "eps must be"), ({"redraws": -1}, "redraws must be a whole number"),
    ({"redraws": 2.0}, "redraws must be"),
])
def test_bad_settings_are_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        FlowersPlayBelief(**kwargs)


def test_mcts_refuses_a_belief_without_determinize() -> None:
    with pytest.raises(ValueError, match="belief must have determinize"):
        MCTSAgent(5, belief=object())


class Recorder(RandomAgent):
    """Plays at random and writes down every move it is told of."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed=seed)
        self.told: list[tuple[int, int]] = []

    def inform(self, game, state, player, action) -> None:
        self.told.append((player, action))


def test_play_game_tells_every_agent_every_move_in_order() -> None:
    game = make_game("flowers", num_players=3)
    agents = [Recorder(0), RandomAgent(seed=1), Recorder(2)]
    steps: list = []
    record = play_game(game, agents, seed=6, steps=steps)
    moves = [(p, a) for p, a, _ in steps if p >= 0]
    assert agents[0].told == moves == agents[2].told
    assert len(moves) == record.decisions


def test_mcts_hands_moves_to_its_belief_and_forgets_them_on_reset() -> None:
    belief = FlowersPlayBelief()
    agent = MCTSAgent(4, seed=0, rollout="heuristic", belief=belief)
    seat_count = SeatCountAgent({2: agent}, RandomAgent(seed=0))
    game = make_game("flowers", num_players=2)
    play_game(game, [seat_count, make_agent("heuristic", "flowers", seed=1)], seed=2)
    assert belief.plays
    seat_count.reset()
    assert belief.plays == []


def test_the_terminal_game_tells_every_agent_every_move(tmp_path) -> None:
    """``formosa play`` (play_session) informs its agents as play_game does."""
    import io

    from formosa_envs.tools.play import play_session
    from formosa_envs.tools.record import load_record
    agents = [Recorder(0), Recorder(1)]
    path = tmp_path / "game.json"
    play_session("flowers", 2, agents, seed=3, out=io.StringIO(), record_path=str(path))
    moves = [(p, a) for p, a, _ in load_record(path)["steps"] if p >= 0]
    assert moves and agents[0].told == moves == agents[1].told


def test_the_diagnostic_counts_what_the_plays_say() -> None:
    """benchmarks/flowers_belief.py: against the heuristic its own model nearly always
    holds for the true hand, far less often for a uniform deal."""
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "flowers_belief.py"
    spec = importlib.util.spec_from_file_location("flowers_belief", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    counts = module.diagnose("heuristic", games=4, seed=5_000_000)
    assert counts["decisions"] > 20 and counts["kept_plays_per_decision"] >= 1
    assert counts["true_hand_breaks_none"] > 0.9 > 0.7 > counts["uniform_deal_breaks_none"]
    assert module.broken([3, 7], [(1, 1 << 7), (1, 1 << 9), (0, 1 << 3)], 1) == 1


def test_timed_games_still_tell_the_agents() -> None:
    """think_times wraps each agent to time it; the wrapper hands every move on (a
    belief timed there would otherwise be told nothing and its cost not counted)."""
    from formosa_envs.evaluation.timing import think_times
    built: list[Recorder] = []

    def factory(spec: str, game: str, seed: int) -> Recorder:
        built.append(Recorder(seed))
        return built[-1]

    times = think_times("flowers", "a", 1, seed=4, opponent="b", agent_factory=factory)
    assert times["agent_decisions"] > 0 and len(built) == 4
    assert all(agent.told and agent.told == built[0].told for agent in built[:2])
