"""The network-guided search agent (``az:PATH[:N]``, agents/az.py) and its network file
(agents/network.py): terminal returns decide, a wrong prior is overridden, legal play in
every game, no use of hidden information, training targets, and clear errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from formosa_envs.agents import AgentSpecError, agent_label, make_agent
from formosa_envs.agents.az import AZAgent
from formosa_envs.agents.network import Network
from formosa_envs.agents.policy import (
    PolicyAgent,
    PolicyFileError,
    PolicyMismatchError,
    PolicyNotFoundError,
)

from formosa_envs.core.engine import CHANCE
from formosa_envs.core.errors import ArgumentError
from formosa_envs.games import make_game
from formosa_envs.games.flowers.actions import CASH, KEEP, PLAY0
from formosa_envs.games.flowers.scenario import cid, scenario
from tests import toy_game

HIDDEN = 16


def net_arrays(game: Any, *, value: str | None = "random", seed: int = 0,
               favour: int | None = None) -> dict[str, np.ndarray]:
    """Arrays of a tiny exported network for ``game``.

    ``value``: ``"random"`` weights, ``"zero"`` (the value head says 0 everywhere) or None
    (no value head). ``favour``: the prior is uniform except that action, which gets
    (almost) all the mass; without it, with ``value="zero"``, the prior is uniform too.
    """
    rng = np.random.default_rng(seed)
    obs, actions = int(game.observation_size), int(game.num_actions)
    flat = value == "zero" or favour is not None
    scale = 0.0 if flat else 0.3
    out = {"w0": rng.normal(0, 0.3, (HIDDEN, obs)), "b0": rng.normal(0, 0.1, HIDDEN),
           "w_out": rng.normal(0, scale, (actions, HIDDEN)), "b_out": np.zeros(actions),
           "activation": np.array("tanh")}
    if favour is not None:
        out["b_out"][favour] = 60.0
    if value is not None:
        vscale = 0.0 if value == "zero" else 0.3
        out |= {"vw0": rng.normal(0, 0.3, (HIDDEN, obs)), "vb0": np.zeros(HIDDEN),
                "vw_out": rng.normal(0, vscale, (1, HIDDEN)), "vb_out": np.zeros(1)}
    return {k: v.astype(np.float32) if v.dtype.kind == "f" else v for k, v in out.items()}


def save(tmp_path: Path, arrays: dict[str, np.ndarray], name: str = "net") -> Path:
    path = tmp_path / f"{name}.npz"
    np.savez(path, **arrays)
    return path


def az(game: Any, simulations: int, seed: int = 0, **arrays_options: Any) -> AZAgent:
    return AZAgent(Network.from_arrays(net_arrays(game, **arrays_options)),
                   simulations=simulations, seed=seed)


def cash_position(scores: list[int], second_set: bool = False) -> tuple[Any, Any]:
    """Flowers 2p: seat 0 completes Treasure (10 VP) and must choose Keep or Cash Out;
    cashing out ends the round, and the game when a score reaches 60 (F-4, F-5, F-6).

    With ``second_set`` seat 0 also holds N9 and the field a plain 9: keeping on lets it
    complete Night 3 next turn and cash out both sets with a token (x2).
    """
    game = make_game("flowers", num_players=2, current_month=None)
    t2, t10, t12 = (cid(game, m, "animal") for m in (2, 10, 12))
    n1, n6, n9 = (cid(game, m, "night") for m in (1, 6, 9))
    hand, field, pile = [t12, cid(game, 4)], [cid(game, 12)], [t2, t10]
    if second_set:
        hand, field, pile = [t12, n9], [cid(game, 12), cid(game, 9)], [t2, t10, n1, n6]
    s = scenario(game, hands=[hand, [cid(game, 6)]], field=field, piles=[pile, []],
                 scores=scores)
    game.apply_action(s, PLAY0 + t12)
    game.apply_action(s, cid(game, 8))      # reveal a plain 8: it matches nothing
    assert game.top(s).kind == "keep_or_cash" and game.legal_actions(s) == [KEEP, CASH]
    return game, s


def terminal_return(game: Any, state: Any, action: int, me: int) -> float | None:
    """``me``'s return if ``action`` ends the game at once, else None."""
    t = game.clone(state)
    game.apply_action(t, action)
    return game.returns(t)[me] if game.is_terminal(t) else None


def decisive_position(name: str, need_loss: bool) -> tuple[Any, Any, set[int], set[int]]:
    """The first decision of seeded random 2-player games where some action ends the game
    with a win for the mover in the state and in 3 of its determinizations (whatever is
    hidden), and another does not win (with ``need_loss``: ends it with a loss)."""
    game = make_game(name, num_players=2)
    for seed in range(60):
        rng = np.random.default_rng(seed)
        s = game.new_initial_state()
        while not game.is_terminal(s) and s.decisions < game.max_game_length:
            if game.current_player(s) == CHANCE:
                game.apply_action(s, game.sample_chance(s, rng))
                continue
            legal, me = game.legal_actions(s), game.current_player(s)
            if len(legal) > 1:
                views = [s] + [game.determinize(s, me, np.random.default_rng(k))
                               for k in range(3)] if game.hidden_information else [s]
                outcomes = {a: {terminal_return(game, v, a, me) for v in views} for a in legal}
                wins = {a for a, o in outcomes.items() if o == {1.0}}
                losses = {a for a, o in outcomes.items() if o == {-1.0}}
                if wins and (losses if need_loss else set(legal) - wins):
                    return game, s, wins, losses
            game.apply_action(s, legal[int(rng.integers(len(legal)))])
    raise AssertionError(f"no decisive position in 60 random {name} games")


# ----- (1) terminal returns decide ------------------------------------------------------

def test_search_cashes_out_to_win_with_a_flat_network() -> None:
    game, s = cash_position(scores=[55, 0])
    agent = az(game, simulations=30, value="zero")
    assert agent.act_on_state(game, s) == CASH
    visits, mean, _ = agent.last_root[CASH]
    assert mean == 1.0 and visits > agent.last_root[KEEP][0], agent.last_root


@pytest.mark.parametrize("name", ["taiwan", "tea", "dadaocheng"])
def test_search_finds_the_winning_move_with_a_flat_network(name: str) -> None:
    game, s, wins, _ = decisive_position(name, need_loss=False)
    agent = az(game, simulations=len(game.legal_actions(s)) + 40, value="zero")
    assert agent.act_on_state(game, s) in wins, (game.decision_description(s), agent.last_root)


# ----- (2) a wrong prior is overridden ---------------------------------------------------

def test_search_overrides_a_prior_on_the_losing_cash_out() -> None:
    """Cashing out makes 60 VP and ends the game, but the opponent has 61: a sure loss;
    keeping on usually completes a second set worth twice as much."""
    game, s = cash_position(scores=[50, 61], second_set=True)
    assert terminal_return(game, s, CASH, 0) == -1.0
    blind = az(game, simulations=2, value="zero", favour=CASH)
    assert blind.act_on_state(game, s) == CASH, "the prior should rule a tiny search"
    agent = az(game, simulations=60, value="zero", favour=CASH)
    assert agent.act_on_state(game, s) == KEEP, agent.last_root
    assert agent.last_root[CASH][2] > 0.99 and agent.last_root[CASH][1] == -1.0
    assert agent.last_root[KEEP][1] > 0


def test_search_overrides_a_prior_on_a_losing_move_in_dadaocheng() -> None:
    game, s, wins, losses = decisive_position("dadaocheng", need_loss=True)
    agent = az(game, simulations=60, value="zero", favour=min(losses))
    choice = agent.act_on_state(game, s)
    visits, mean, _ = agent.last_root[choice]
    # an immediate win, or a move every simulation of which won (a win a step later)
    assert choice not in losses and (choice in wins or (visits > 10 and mean == 1.0)), (
        choice, agent.last_root)


class TrapGame:
    """A two-move game on the engine contract: seat 0 picks SAFE (everyone gets 0) or
    TRAP; after TRAP seat 1 picks between its own win (+1, seat 0 -1) and seat 0's win.
    Other seats get 0. Only a search that backs up each seat's own return avoids TRAP."""

    name, observation_size, num_actions, max_game_length = "trap", 3, 2, 4
    SAFE, TRAP = 0, 1
    ONE_WINS, ZERO_WINS = 0, 1

    def __init__(self, num_players: int) -> None:
        self.num_players = num_players

    def new_initial_state(self) -> list[int]:
        return []

    def current_player(self, s: list[int]) -> int:
        return -4 if self.is_terminal(s) else len(s)

    def is_terminal(self, s: list[int]) -> bool:
        return s == [self.SAFE] or len(s) == 2

    def legal_actions(self, s: list[int]) -> list[int]:
        return [] if self.is_terminal(s) else [0, 1]

    def apply_action(self, s: list[int], action: int) -> None:
        s.append(action)

    def returns(self, s: list[int]) -> list[float]:
        out = [0.0] * self.num_players
        if len(s) == 2:
            winner = 1 if s[1] == self.ONE_WINS else 0
            out[winner], out[1 - winner] = 1.0, -1.0
        return out

    def observe(self, s: list[int], seat: int) -> np.ndarray:
        return np.array([len(s), seat, s[0] if s else -1], dtype=np.float32)

    def determinize(self, s: list[int], viewer: int, rng: np.random.Generator) -> list[int]:
        return list(s)

    def clone(self, s: list[int]) -> list[int]:
        return list(s)

    def decision_description(self, s: list[int]) -> str:
        return f"trap game after {s}"


@pytest.mark.parametrize("players", [2, 3])
def test_each_seat_backs_up_its_own_return(players: int) -> None:
    """Seat 1 takes its win after TRAP, so seat 0 must play SAFE (a negative control: a
    search backing up seat 0's return everywhere plays TRAP)."""
    game = TrapGame(players)
    agent = az(game, simulations=40, value="zero")
    assert agent.act_on_state(game, []) == TrapGame.SAFE, agent.last_root
    assert agent.last_root[TrapGame.TRAP][1] < -0.5


# ----- (3) legal play over whole games ----------------------------------------------------

@pytest.mark.parametrize(("name", "players", "simulations"), [
    ("flowers", 2, 8), ("flowers", 4, 8), ("taiwan", 2, 4), ("taiwan", 3, 4),
    ("tea", 2, 8), ("tea", 3, 8), ("dadaocheng", 2, 8), ("dadaocheng", 1, 8)])
def test_az_acts_legally_over_whole_games(name: str, players: int, simulations: int) -> None:
    """Seat 0 plays as at play time; seat 1 has no value head (rollout leaves); seats 1+
    use the self-play options (root noise, temperature 1), which also keeps Taiwan, whose
    game only ends once players buy, from stalling."""
    game = make_game(name, num_players=players)
    agents = [az(game, simulations, seed=i, value=None if i == 1 else "random")
              for i in range(players)]
    for agent in agents[1:]:
        agent.temperature, agent.dirichlet_fraction = 1.0, 0.75
    play_checked(game, agents, seed=players)
    assert agents[0].simulations_run > 0 and agents[0].simulations_per_second > 0


def test_az_without_a_value_head_rolls_out_or_uses_zero() -> None:
    game = make_game("flowers", num_players=3, target_vp=25)
    network = Network.from_arrays(net_arrays(game, value=None))
    assert not network.has_value and AZAgent(network).leaf == "rollout"
    agents = [AZAgent(network, 6, seed=i, leaf=leaf)
              for i, leaf in enumerate(["rollout", "zero", "rollout"])]
    play_checked(game, agents, seed=1)


def play_checked(game: Any, agents: list[AZAgent], seed: int) -> None:
    """Play a whole game; every move legal, deciding never changes the state."""
    rng = np.random.default_rng(seed)
    s = game.new_initial_state()
    while not game.is_terminal(s) and s.decisions < game.max_game_length:
        if game.current_player(s) == CHANCE:
            game.apply_action(s, game.sample_chance(s, rng))
            continue
        before = game.to_json(s) if s.decisions % 10 == 0 else None
        action = agents[game.current_player(s)].act_on_state(game, s)
        assert action in game.legal_actions(s), game.decision_description(s)
        assert before is None or game.to_json(s) == before, "the search changed the state"
        game.apply_action(s, action)
    assert game.is_terminal(s), "the game was truncated"


# ----- (4) no hidden information ----------------------------------------------------------

def hidden_swaps(game: Any, seed: int, count: int) -> list[tuple[Any, Any]]:
    """Pairs (state, the same state with what the mover cannot see resampled)."""
    rng = np.random.default_rng(seed)
    s, pairs = game.new_initial_state(), []
    while not game.is_terminal(s) and len(pairs) < count:
        if game.current_player(s) == CHANCE:
            game.apply_action(s, game.sample_chance(s, rng))
            continue
        legal = game.legal_actions(s)
        if len(legal) > 1 and rng.random() < 0.3:
            other = game.determinize(s, game.current_player(s), rng)
            if game.to_json(other) != game.to_json(s):
                pairs.append((game.clone(s), other))
        game.apply_action(s, legal[int(rng.integers(len(legal)))])
    assert pairs, "the swaps never changed hidden information"
    return pairs


def outcome(game: Any, state: Any, seed: int) -> tuple[int, list[int], float]:
    agent = az(game, simulations=25, seed=seed)
    move = agent.act_on_state(game, state)
    visits, value = agent.search(game, state)
    return move, visits.tolist(), value


@pytest.mark.parametrize("game", [make_game("flowers", num_players=2),
                                  make_game("flowers", num_players=3),
                                  toy_game.make_game(num_players=3)], ids=["2p", "3p", "toy"])
def test_search_ignores_what_the_mover_cannot_see(game: Any) -> None:
    """Only Flowers (and the toy game) hide anything; the other games' determinize is a copy."""
    for k, (state, other) in enumerate(hidden_swaps(game, seed=game.num_players, count=5)):
        assert outcome(game, state, k) == outcome(game, other, k)
    game, s = cash_position(scores=[20, 0])
    other = game.determinize(s, 0, np.random.default_rng(3))
    assert other.hands[1] != s.hands[1]
    assert outcome(game, s, 0) == outcome(game, other, 0)


def test_the_check_catches_a_peeking_search() -> None:
    """Negative control: a search that skips determinization fails the check above."""
    game = make_game("flowers", num_players=2)
    pairs = hidden_swaps(game, seed=2, count=5)
    game.determinize = lambda state, viewer, rng: state.clone()  # type: ignore[method-assign]
    assert any(outcome(game, a, k) != outcome(game, b, k) for k, (a, b) in enumerate(pairs))


# ----- training targets, options, determinism ---------------------------------------------------

def test_search_returns_visit_counts_and_the_root_value() -> None:
    game, s = cash_position(scores=[55, 0])
    agent = az(game, simulations=30, value="zero")
    visits, value = agent.search(game, s)
    assert visits.shape == (game.num_actions,) and visits.dtype == np.int64
    assert visits.sum() == 29 and set(np.flatnonzero(visits)) <= {KEEP, CASH}
    assert 0.0 < value <= 1.0
    t = game.clone(s)
    game.apply_action(t, CASH)
    with pytest.raises(ArgumentError, match="player decision"):
        agent.search(game, t)


def test_self_play_options_are_seeded_and_legal() -> None:
    game = make_game("flowers", num_players=2, target_vp=25)
    network = Network.from_arrays(net_arrays(game))
    runs = []
    for _ in range(2):
        agents = [AZAgent(network, 8, seed=i, dirichlet_fraction=0.25, temperature=0.01 + i)
                  for i in range(2)]
        play_checked(game, agents, seed=0)
        runs.append([a.rng.random() for a in agents])
    assert runs[0] == runs[1]


def test_network_matches_the_policy_forward_pass(tmp_path: Path) -> None:
    game = make_game("tea", num_players=2)
    arrays = net_arrays(game)
    path = save(tmp_path, arrays)
    x = np.random.default_rng(0).random((3, game.observation_size)).astype(np.float32)
    network = Network.load(path)
    policy = PolicyAgent.load(path)
    assert np.allclose(network.logits(x[0]), policy.logits(x[0]), atol=1e-5)
    hidden = np.tanh(x @ arrays["vw0"].T + arrays["vb0"])
    expected = np.tanh(hidden @ arrays["vw_out"].T + arrays["vb_out"])[:, 0]
    assert np.allclose(network.values(x), expected, atol=1e-5)
    assert network.values(x[0]).shape == ()


@pytest.mark.parametrize(("options", "word"), [
    ({"simulations": 0}, "simulations"), ({"c_puct": 0}, "c_puct"),
    ({"leaf": "greedy"}, "leaf"), ({"temperature": -1}, "temperature"),
    ({"dirichlet_fraction": 2}, "dirichlet_fraction"), ({"dirichlet_alpha": 0}, "alpha")])
def test_bad_search_options_are_clear_errors(options: dict[str, Any], word: str) -> None:
    game = make_game("flowers", num_players=2)
    with pytest.raises(ArgumentError, match=word):
        AZAgent(Network.from_arrays(net_arrays(game)), **options)
    with pytest.raises(ArgumentError, match="value head"):
        AZAgent(Network.from_arrays(net_arrays(game, value=None)), leaf="value")
    with pytest.raises(ArgumentError, match="network must be"):
        AZAgent("net.npz")  # type: ignore[arg-type]


# ----- (5) specs and files ----------------------------------------------------------------

def test_spec_builds_the_search(tmp_path: Path) -> None:
    game = make_game("flowers", num_players=2)
    path = save(tmp_path, net_arrays(game))
    agent = make_agent(f"az:{path}", seed=1)
    assert isinstance(agent, AZAgent) and agent.simulations == 100
    assert agent.dirichlet_fraction == 0 and agent.temperature == 0
    assert make_agent(f"az:{path}:7", seed=1).simulations == 7
    assert agent_label(f"az:{path}:7") == "az:net:7" and agent_label(f"az:{path}") == "az:net:100"
    tea = make_game("tea", num_players=2)
    s = tea.new_initial_state()
    while tea.current_player(s) == CHANCE:
        tea.apply_action(s, tea.sample_chance(s, np.random.default_rng(0)))
    with pytest.raises(PolicyMismatchError, match="tea with 2 players"):
        agent.act_on_state(tea, s)


@pytest.mark.parametrize(("arg", "error", "words"), [
    ("", AgentSpecError, "needs a network"),
    ("{net}:0", AgentSpecError, "positive integer"),
    ("{net}:many", AgentSpecError, "positive integer"),
    ("{net}:-3", AgentSpecError, "positive integer"),
    ("{net}:", AgentSpecError, "positive integer after the last"),
    ("{dir}/model.zip", AgentSpecError, "training checkpoint"),
    ("{dir}/missing.npz", PolicyNotFoundError, "not found"),
    ("{dir}", PolicyFileError, "folder"),
    ("{dir}/text.npz", PolicyFileError, "not an .npz"),
])
def test_bad_specs_name_the_problem(tmp_path: Path, arg: str, error: type, words: str) -> None:
    net = save(tmp_path, net_arrays(make_game("flowers", num_players=2)))
    (tmp_path / "text.npz").write_text("hello", encoding="utf-8")
    spec = "az:" + arg.format(net=net, dir=tmp_path)
    with pytest.raises(error, match=words) as info:
        make_agent(spec)
    assert isinstance(info.value, AgentSpecError)
    assert spec in str(info.value) or str(tmp_path) in str(info.value)


@pytest.mark.parametrize(("change", "words"), [
    ({"vw_out": np.zeros((2, HIDDEN), np.float32), "vb_out": np.zeros(2, np.float32)},
     r"vw_out must have shape \(1, hidden\)"),
    ({"vw0": np.zeros((HIDDEN, 5), np.float32)}, "vw0 has shape"),
    ({"vb_out": None}, "missing vb_out"),
    ({"vw7": np.zeros((1, HIDDEN), np.float32)}, "unexpected vw7"),
    ({"vb0": np.zeros(HIDDEN, np.int64)}, "float arrays"),
])
def test_bad_value_heads_are_refused(tmp_path: Path, change: dict[str, Any], words: str) -> None:
    arrays = net_arrays(make_game("flowers", num_players=2))
    for key, value in change.items():
        if value is None:
            del arrays[key]
        else:
            arrays[key] = value
    path = save(tmp_path, arrays, "bad")
    with pytest.raises(PolicyFileError, match=words) as info:
        make_agent(f"az:{path}:5")
    assert str(path) in str(info.value)


@pytest.mark.parametrize("name", ["flowers", "tea", "dadaocheng"])
def test_policy_leaves_roll_out_with_the_networks_own_moves(name: str) -> None:
    """leaf='policy': rollouts play the network's most likely legal move (checked on
    every rollout move against the masked argmax), and whole games stay legal."""
    game = make_game(name, num_players=2)
    network = Network.from_arrays(net_arrays(game, value=None, seed=3))
    agents = [AZAgent(network, 4, seed=i, leaf="policy") for i in range(2)]
    moves: list[tuple[Any, int]] = []
    chooser = agents[0]._network_move

    def spy(g: Any, s: Any, rng: np.random.Generator) -> int:
        action = chooser(g, s, rng)
        moves.append((g.clone(s), action))
        return action
    agents[0]._rollouts.rollout_chooser = spy
    play_checked(game, agents, seed=5)
    assert moves
    for s, action in moves[:200]:
        legal = game.legal_actions(s)
        logits = network.logits(game.observe(s, game.current_player(s)))
        assert action == legal[int(np.argmax(logits[legal]))]


def test_search_stops_when_told_or_out_of_time() -> None:
    """``should_stop`` and ``max_seconds`` end a search early (the web app's caps)."""
    game, state = cash_position([20, 10])
    agent = az(game, simulations=500)
    calls = []
    agent.should_stop = lambda: calls.append(1) or len(calls) >= 3
    agent.search(game, state)
    assert agent.simulations_run == 3
    agent.should_stop, agent.max_seconds = None, 0.0
    agent.search(game, state)
    assert agent.simulations_run == 4, "a search out of time still runs one simulation"
    legal = game.legal_actions(state)
    assert agent.act_on_state(game, state) in legal
