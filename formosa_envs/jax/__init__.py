"""Formosa Flowers on JAX: a pure functional, batched engine (optional ``jax`` extra).

:class:`FlowersJax` is the engine (``init`` / ``step`` / ``observe``, all pure and
jittable); :class:`FlowersVecEnv` steps a batch with auto-reset and
:class:`NumpyFlowersVecEnv` wraps it with numpy in and out. Nothing outside this
package imports JAX.
"""

from __future__ import annotations

try:
    import jax  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("formosa_envs.jax needs JAX: pip install 'formosa_envs[jax]' "
                      "(jax==0.10.2, jaxlib==0.10.2)") from exc

from .engine import FlowersJax
from .state import TERMINAL, State
from .vec_env import FlowersVecEnv, NumpyFlowersVecEnv, VecStep

__all__ = ["TERMINAL", "FlowersJax", "FlowersVecEnv", "NumpyFlowersVecEnv", "State", "VecStep"]
