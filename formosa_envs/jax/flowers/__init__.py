"""Formosa Flowers on JAX: the engine, its vec envs and the heuristic.

:class:`FlowersJax` is the engine (``init`` / ``step`` / ``observe``, all pure and
jittable); :class:`FlowersVecEnv` steps a batch with auto-reset and
:class:`NumpyFlowersVecEnv` wraps it with numpy in and out;
:mod:`.heuristic` is the Flowers heuristic as a pure, vmap-able function. Card sets are
two ``uint32`` words (:mod:`.bits`).
"""

from __future__ import annotations

from .engine import FlowersJax
from .state import TERMINAL, State
from .vec_env import FlowersVecEnv, NumpyFlowersVecEnv, VecStep

__all__ = ["TERMINAL", "FlowersJax", "FlowersVecEnv", "NumpyFlowersVecEnv", "State", "VecStep"]
