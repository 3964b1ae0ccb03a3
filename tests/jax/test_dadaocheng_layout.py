"""The JAX Dadaocheng layout deal (formosa_envs.jax.dadaocheng.layout) against the Python
setup's chance nodes: every JAX layout is a sequence of outcomes the Python engine can draw
(each with positive probability), and the JAX draws follow the Python odds."""

from __future__ import annotations

import jax
import numpy as np
import pytest

from formosa_envs.core.engine import CHANCE
from formosa_envs.games.dadaocheng.config import DadaochengConfig
from formosa_envs.games.dadaocheng.game import DadaochengGame
from formosa_envs.games.dadaocheng.grid import candidates, groups_at_most_two, showing
from formosa_envs.games.dadaocheng.layouts import NON_CORNER
from formosa_envs.jax.dadaocheng.layout import deal_layout, layout_tables


def jax_layouts(game: DadaochengGame, count: int, seed: int) -> np.ndarray:
    """``count`` layouts dealt on JAX for ``game``'s setup condition."""
    tables = layout_tables(game.layout_table, game.disc_faces)
    keys = jax.random.split(jax.random.key(seed), count)
    return np.asarray(jax.jit(jax.vmap(deal_layout, in_axes=(0, None)))(keys, tables))


@pytest.mark.parametrize("players", [1, 2, 4])
def test_every_jax_layout_is_a_deal_the_python_setup_can_draw(players: int) -> None:
    game = DadaochengGame(DadaochengConfig(num_players=players))
    for cell_disc in jax_layouts(game, 200, players):
        state = game.new_initial_state()
        while -1 in state.cell_disc:
            top = state.stack[-1]
            assert top.player == CHANCE and top.kind == "place_disc"
            odds = dict(game.chance_outcomes(state))
            disc = int(cell_disc[top.ctx[0]])
            assert odds.get(disc, 0.0) > 0, (top.ctx[0], disc, odds)
            game.apply_action(state, disc)
        assert state.cell_disc == cell_disc.tolist()
        colours = showing([game.disc_faces[d] for d in state.cell_disc], 0)
        assert groups_at_most_two(colours) if players == 1 else not candidates(colours)


@pytest.mark.parametrize("players", [1, 2])
def test_the_jax_draws_follow_the_python_odds(players: int) -> None:
    """The disc of each of the first two non-corner cells, over 20,000 deals, against the
    Python chance node's probability (given the first cell's disc, for the second)."""
    game = DadaochengGame(DadaochengConfig(num_players=players))
    layouts = jax_layouts(game, 20_000, 10 + players)
    first, second = NON_CORNER[0], NON_CORNER[1]
    table, suns = game.layout_table, [faces[0] for faces in game.disc_faces]
    for disc in sorted(set(layouts[:, first].tolist())):
        check_share(np.mean(layouts[:, first] == disc), table.colour_odds(())[suns[disc]],
                    len(layouts))
    for before in sorted(set(layouts[:, first].tolist())):
        given = layouts[layouts[:, first] == before]
        odds = table.colour_odds((suns[before],))  # per disc not yet placed
        for disc in sorted(set(given[:, second].tolist())):
            check_share(np.mean(given[:, second] == disc), odds[suns[disc]], len(given))


def check_share(share: float, probability: float, samples: int) -> None:
    """``share`` lies within 5 standard errors of ``probability``."""
    error = np.sqrt(probability * (1 - probability) / samples)
    assert abs(share - probability) <= 5 * error + 1e-9, (share, probability, samples)
