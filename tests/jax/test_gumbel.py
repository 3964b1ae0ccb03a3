"""Gumbel MuZero self-play (``formosa train flowers --backend jax --method gumbel``): the
root determinization hides exactly what the seat cannot see, value targets come from the
game's end, and a tiny run trains, exports and evaluates."""

from __future__ import annotations

import json

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from formosa_envs.training.jax.gumbel import Sample, determinize, value_targets
from formosa_envs.training.jax.gumbel_train import load_gumbel_config
from formosa_envs.training.train import main as train_main

from formosa_envs.core.errors import ConfigError
from formosa_envs.jax import FlowersVecEnv
from formosa_envs.jax.flowers import bits


def _midgame(players: int, batch: int = 8) -> tuple[FlowersVecEnv, object]:
    vec = FlowersVecEnv(batch, players)
    state = vec.reset(jax.random.PRNGKey(0)).state
    for i in range(7):
        first = [np.flatnonzero(m)[0] for m in np.asarray(state.legal_action_mask)]
        state = vec.step(state, jnp.asarray(first), jax.random.PRNGKey(i)).state
    return vec, state


@pytest.mark.parametrize("players", [2, 3])
def test_determinize_redeals_only_what_the_seat_cannot_see(players: int) -> None:
    vec, state = _midgame(players)
    dealt = jax.vmap(determinize, in_axes=(None, 0, 0))(
        vec.engine, state, jax.random.split(jax.random.PRNGKey(5), 8))
    before, after = np.asarray(bits.unpack(state.hands)), np.asarray(bits.unpack(dealt.hands))
    me, nxt = np.asarray(state.current_player), np.asarray(state.deck_next)
    moved = 0
    for b in range(8):
        assert (before[b].sum(1) == after[b].sum(1)).all()           # every hand's size
        assert (before[b, me[b]] == after[b, me[b]]).all()          # the seat's own hand
        old, new = np.asarray(state.deck_order[b]), np.asarray(dealt.deck_order[b])
        assert (old[:nxt[b]] == new[:nxt[b]]).all()                 # what was dealt
        assert len(set(new[nxt[b]:].tolist())) == 54 - nxt[b]      # a deck of distinct cards

        def hidden(hands: np.ndarray, deck: np.ndarray, b: int = b) -> set[int]:
            others = hands.sum(0) - hands[me[b]]
            return set(np.flatnonzero(others).tolist()) | set(deck[nxt[b]:].tolist())
        assert hidden(before[b], old) == hidden(after[b], new)      # the same hidden cards
        moved += int((before[b] != after[b]).sum())
    for name in ("field", "piles", "scores", "observation", "legal_action_mask"):
        assert np.array_equal(getattr(state, name), getattr(dealt, name)), name
    assert moved > 0


def test_value_targets_are_each_seats_final_return_and_unknown_after_the_last_end() -> None:
    def column(values: list) -> jnp.ndarray:
        return jnp.asarray(values)[:, None]
    rewards = jnp.zeros((4, 1, 2)).at[1, 0].set(jnp.asarray([1.0, -1.0]))
    samples = Sample(obs=jnp.zeros((4, 1, 1)), mask=jnp.zeros((4, 1, 1)),
                     policy=jnp.zeros((4, 1, 1)), player=column([0, 1, 0, 1]),
                     rewards=rewards, done=column([False, True, False, False]))
    targets, known = value_targets(samples)
    assert targets[:2, 0].tolist() == [1.0, -1.0]
    assert known[:, 0].tolist() == [1.0, 1.0, 0.0, 0.0]   # the next game has not ended


def test_a_tiny_gumbel_run_trains_exports_and_evaluates(tmp_path) -> None:
    config = tmp_path / "tiny.toml"
    config.write_text("[gumbel]\nnum_envs = 8\nsteps = 16\nsimulations = 4\nconsidered = 4\n"
                      "minibatches = 2\nhidden_size = 16\niterations = 2\nminutes = 0.0\n"
                      "eval_games = 4\naz_games = 2\neval_simulations = 4\n")
    assert train_main(["flowers", "--backend", "jax", "--method", "gumbel", "--config",
                       str(config), "--out", str(tmp_path / "run"), "--quiet"]) == 0
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["iterations"] == 2 and summary["searched_decisions"] == 2 * 16 * 8
    assert summary["search_vs_heuristic"]["games"] == 4
    assert summary["search_vs_heuristic"]["search_ms_per_decision"] > 0
    assert summary["az_vs_heuristic"]["games"] == 2
    assert (tmp_path / "run" / "network.npz").is_file()


def test_gumbel_options_are_checked() -> None:
    with pytest.raises(ConfigError, match="simulations"):
        load_gumbel_config(None, simulations=1)
    with pytest.raises(ConfigError, match="2 players"):
        train_main(["flowers", "--backend", "jax", "--method", "gumbel", "--players", "3"])
