"""The docs' JAX code blocks (``# needs: jax``, docs/jax.md) run as written."""

from __future__ import annotations

from tests.docs_blocks import run_block, tagged


def test_the_jax_blocks_run() -> None:
    blocks = tagged("jax")
    assert blocks, "no '# needs: jax' block in the docs"
    scopes = [run_block(block) for block in blocks]
    flowers = [scope for scope in scopes if "FlowersJax" in scope]
    assert flowers, "the FlowersJax example is gone from the docs"
    state = flowers[0]["state"]
    assert state.observation.shape == (3, 442)
    assert bool(state.legal_action_mask.any(axis=1).all())
    dadaocheng = [scope for scope in scopes if "DadaochengJax" in scope]
    assert dadaocheng, "the DadaochengJax example is gone from the docs"
    state = dadaocheng[0]["state"]
    assert int(state.decisions) == 1 and not bool(state.over)
    assert dadaocheng[0]["vec"].num_envs == 1024
