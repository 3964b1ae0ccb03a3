"""Winners and ranks come from one place, the game's ordering with its tie-breaks
(``Game.ranking_keys``), for every reward mode, the single-agent view, the picture's
caption and the tournament.

Tie-breaks by rulebook: Taiwan Formosa (VP, then coins; T-8.4, R-22), Dadaocheng
(prestige, then credit; DDC-13.9, R-35); Formosa Flowers (F-6.2) and Formosa Tea (R-33)
have none: tied leaders share the victory.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import formosa_envs
from formosa_envs.core.errors import ConfigError
from formosa_envs.envs import SingleAgentEnv
from formosa_envs.envs.aec import REWARD_MODES, final_rewards
from formosa_envs.evaluation import ratings as rt
from formosa_envs.evaluation.evaluate import MatchRecord, run_tournament, summarize, win_share
from formosa_envs.games import make_game
from formosa_envs.games.dadaocheng import actions as DA
from formosa_envs.games.dadaocheng.scenario import act
from formosa_envs.games.dadaocheng.scenario import scenario as ddc_scenario
from formosa_envs.games.taiwan.scenario import scenario as taiwan_scenario
from tests.dadaocheng.common import hand
from tests.test_lifecycle import finished

TAIWAN = make_game("taiwan", num_players=2)


def taiwan_tie(vp: list[int], coins: list[int]) -> Any:
    """A finished Taiwan Formosa state with these VP and coins (the game flag set)."""
    game = make_game("taiwan", num_players=len(vp))
    s = taiwan_scenario(game, in_game=list(range(12)), vp=vp, coins=coins)
    s.over = True
    return game, s


def test_taiwan_vp_tie_is_broken_by_coins_in_every_outcome() -> None:
    game, s = taiwan_tie([10, 10], [3, 7])
    assert game.ranking_keys(s) == [(10.0, 3.0), (10.0, 7.0)]
    assert game.winners(s) == [1] and game.win_shares(s) == [0.0, 1.0]
    assert game.ranks(s) == [2.0, 1.0] and game.returns(s) == [-1.0, 1.0]
    assert final_rewards(game, s, "win") == [0.0, 1.0]      # was [0.5, 0.5] (VP alone)
    assert final_rewards(game, s, "rank") == [-1.0, 1.0]
    assert final_rewards(game, s, "score") == [10.0, 10.0]  # the score stays the VP


def test_taiwan_three_players_and_a_full_tie() -> None:
    game, s = taiwan_tie([10, 10, 5], [3, 7, 50])
    assert game.winners(s) == [1] and game.ranks(s) == [2.0, 1.0, 3.0]
    assert final_rewards(game, s, "win") == [0.0, 1.0, 0.0]
    game, s = taiwan_tie([10, 10, 5], [7, 7, 50])
    assert game.winners(s) == [0, 1] and game.ranks(s) == [1.5, 1.5, 3.0]
    assert final_rewards(game, s, "win") == [0.5, 0.5, 0.0]
    assert game.returns(s) == [0.5, 0.5, -1.0]


@pytest.mark.parametrize("mode", REWARD_MODES)
def test_single_agent_view_pays_the_tie_break(mode: str) -> None:
    game, s = taiwan_tie([10, 10], [3, 7])
    env = SingleAgentEnv("taiwan", num_players=2, reward_mode=mode)
    env.reset(seed=0)
    env.state = s
    paid = []
    for seat in (0, 1):
        env.seat = seat
        paid.append(env.learner_reward())
    assert paid == {"win": [0.0, 1.0], "rank": [-1.0, 1.0], "score": [10.0, 10.0]}[mode]


def env_at_a_tied_last_step(mode: str, seed: int) -> tuple[Any, int]:
    """A raw Taiwan env one step from the end, its state adjusted so that the game ends
    tied on VP with seat 1 ahead on coins; and that last action."""
    env = formosa_envs.raw_env("taiwan", num_players=2, reward_mode=mode)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    actions = []
    while not env.game.is_terminal(env.engine_state):
        mask = env.observe(env.agent_selection)["action_mask"]
        actions.append(int(rng.choice(np.flatnonzero(mask))))
        env.step(actions[-1])
    env.reset(seed=seed)  # the same chance draws: replay up to the last decision
    for action in actions[:-1]:
        env.step(action)
    state, game = env.engine_state, env.game
    probe = game.clone(state)
    game.apply_action(probe, actions[-1])
    for p in (0, 1):
        state.vp[p] += max(probe.vp) - probe.vp[p]
    state.coins[1] += max(0, probe.coins[0] - probe.coins[1] + 1)
    probe = game.clone(state)
    game.apply_action(probe, actions[-1])
    assert game.is_terminal(probe) and probe.vp[0] == probe.vp[1]
    assert probe.coins[1] > probe.coins[0]
    return env, actions[-1]


@pytest.mark.parametrize("mode", REWARD_MODES)
def test_aec_env_pays_the_tie_break_at_the_end(mode: str) -> None:
    env, last = env_at_a_tied_last_step(mode, seed=3)
    env.step(last)
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        _, reward, term, trunc, _ = env.last()
        assert term and not trunc
        totals[agent] += reward
        env.step(None)
    vp = env.game.scores(env.engine_state)
    expected = {"win": [0.0, 1.0], "rank": [-1.0, 1.0], "score": vp}[mode]
    assert [totals[a] for a in env.possible_agents] == expected


def test_picture_caption_names_the_tie_break_winner() -> None:
    game, s = taiwan_tie([10, 10], [3, 7])
    svg = game.render_svg(s)
    assert "won by P1" in svg and "P0 and P1" not in svg


def test_tournament_statistics_and_ratings_follow_the_tie_break() -> None:
    """Agent b, in seat 0, always finishes tied on VP with more coins: b wins every game
    outright, and the ratings (fed the game's ranks, not the VP) say so."""
    game, s = taiwan_tie([10, 10], [7, 3])
    keys = game.ranking_keys(s)
    assert rt.rank_of(keys) == game.ranks(s) == [1.0, 2.0]
    assert rt.win_shares(keys) == game.win_shares(s) == [1.0, 0.0]
    assert rt.win_shares(game.scores(s)) == [0.5, 0.5]  # the VP alone would share it
    records = [MatchRecord(g, 0, g, ["b", "a"], ["b", "a"], 0, [0, 0], scores=game.scores(s),
                           ranks=game.ranks(s), wins=game.win_shares(s)) for g in range(4)]
    config = {"game": "taiwan", "agents": ["a", "b"], "names": ["a", "b"], "num_players": 2,
              "games_requested": 4, "games_per_table": 4, "seed": 0, "options": {},
              "total_games": 4}
    result = summarize(config, [["a", "b"]], records)
    assert win_share(result, "b")["win_rate"] == 1.0 and win_share(result, "a")["wins"] == 0
    assert result.agents["b"].mean_rank == 1.0 and result.agents["a"].mean_rank == 2.0
    assert result.agents["b"].mu > result.agents["a"].mu  # equal before: rated on the VP
    assert [a.name for a in result.ranking()] == ["b", "a"]
    assert result.seat_win_rates == [1.0, 0.0]


def test_ratings_from_ranks_need_two_seats() -> None:
    with pytest.raises(ConfigError, match="at least two seats"):
        rt.openskill_from_ranks([(["solo"], [1.0])])


def test_one_player_tournament_is_refused_up_front() -> None:
    with pytest.raises(ConfigError, match="at least 2 players per table"):
        run_tournament("dadaocheng", ["random", "random"], 1, 2, show_progress=False)


# ----- Dadaocheng: credit breaks a prestige tie; the solo objective ---------------------------
def ddc_end(n: int = 2, **kw: Any) -> tuple[Any, Any]:
    """The last turn of a Dadaocheng game (round 10, seat n-1) ended with DONE."""
    game = make_game("dadaocheng", num_players=n)
    s = ddc_scenario(game, turn=n - 1, round_no=10, event="e1891", **kw)
    act(game, s, DA.DONE)
    assert game.is_terminal(s)
    return game, s


def test_dadaocheng_prestige_tie_is_broken_by_credit() -> None:
    """J04 + J05 (2 PP, credit 4) against J01 (2 PP, credit 1)."""
    game, s = ddc_end(ships=[["J04", "J05"], ["J01"]], hands=[[], hand(r=2)])
    assert game.scores(s) == [2.0, 2.0] and game.winners(s) == [0]
    assert final_rewards(game, s, "win") == [1.0, 0.0]  # was [0.5, 0.5]
    assert game.ranks(s) == [1.0, 2.0]
    assert "won by P0" in game.render_svg(s) and "P0 and P1" not in game.render_svg(s)
    game, s = ddc_end(ships=[["J01"], ["J02"]], hands=[[], hand(r=2)])  # tie on both
    assert game.winners(s) == [0, 1] and final_rewards(game, s, "win") == [0.5, 0.5]


def test_dadaocheng_solo_win_share_is_the_objective() -> None:
    """DDC-14.9: a solo game is won at ``solo_target`` PP; a missed objective is no win
    (the win mode paid 1.0 for any solo game before)."""
    game = make_game("dadaocheng", num_players=1)
    s = finished(game)
    won = game.solo_result(s)["won"]
    assert game.winners(s) == ([0] if won else [])
    assert final_rewards(game, s, "win") == [1.0 if won else 0.0]
    assert game.returns(s) == [1.0 if won else -1.0]
    assert not won  # random play misses 50 PP: the case that was paid as a win


# ----- no tie-break: Flowers and Tea share a tie --------------------------------------------
@pytest.mark.parametrize("name", ["flowers", "tea"])
def test_games_without_a_tie_break_share_a_tie(name: str) -> None:
    game = make_game(name, num_players=3)
    s = finished(game)
    field = "scores" if name == "flowers" else "vp"
    values = getattr(s, field)
    values[:] = [40, 40, 12]
    assert game.ranking_keys(s) == [(40.0,), (40.0,), (12.0,)]
    assert game.winners(s) == [0, 1] and game.ranks(s) == [1.5, 1.5, 3.0]
    assert final_rewards(game, s, "win") == [0.5, 0.5, 0.0]
    assert game.returns(s) == [0.5, 0.5, -1.0]


def test_tournament_games_are_ranked_by_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tournament records take wins and ranks from the game's ordering, not the VP: with
    every VP forced to 0, Taiwan's coin tie-break still names winners."""
    from formosa_envs.games.taiwan.game import TaiwanGame
    monkeypatch.setattr(TaiwanGame, "scores", lambda self, s: [0.0] * s.num_players)
    result = run_tournament("taiwan", ["random", "random"], 2, 4, seed=0, show_progress=False)
    for r in result.records:
        assert r.scores == [0.0, 0.0] and sorted(r.wins) in ([0.0, 1.0], [0.5, 0.5])
    assert any(sorted(r.wins) == [0.0, 1.0] for r in result.records)


def test_terminal_play_names_winners_by_the_tie_break(monkeypatch: pytest.MonkeyPatch) -> None:
    """`formosa play` printed every top scorer (VP alone) and a lost solo game's seat."""
    import io

    from formosa_envs.tools import play
    _, tied = taiwan_tie([10, 10], [3, 7])
    monkeypatch.setattr(play, "_play_out", lambda *args: tied)
    out = io.StringIO()
    play.play_session("taiwan", 2, [object(), object()], seed=0, out=out)
    assert "winner(s): [1]" in out.getvalue()
    monkeypatch.undo()
    from formosa_envs.agents import make_agent
    out = io.StringIO()  # a random solo player misses the 50 PP objective: nobody wins
    scores = play.play_session("dadaocheng", 1, [make_agent("random", "dadaocheng", seed=0)],
                               seed=0, out=out)
    assert scores is not None and scores[0] < 50
    assert "winner(s): none (the objective was not reached)" in out.getvalue()
