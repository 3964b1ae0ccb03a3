"""The games on JAX: pure functional, batched engines (optional ``jax`` extra).

One package per game (:mod:`.flowers`: Formosa Flowers), and the pieces they share in one
place: :mod:`.sample` (uniform random legal actions for a batch of masks), :mod:`.bench`
(the throughput harness, ``formosa bench GAME --backend jax``) and :mod:`.vec` (what the
vector envs share). The Flowers names are
re-exported here (``from formosa_envs.jax import FlowersJax``). Nothing outside this
package imports JAX.
"""

from __future__ import annotations

try:
    import jax  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("formosa_envs.jax needs JAX: pip install 'formosa_envs[jax]' "
                      "(jax==0.10.2, jaxlib==0.10.2)") from exc

from .flowers import TERMINAL, FlowersJax, FlowersVecEnv, NumpyFlowersVecEnv, State, VecStep

__all__ = ["TERMINAL", "FlowersJax", "FlowersVecEnv", "NumpyFlowersVecEnv", "State", "VecStep"]
