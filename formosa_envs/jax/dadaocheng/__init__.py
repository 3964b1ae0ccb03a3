"""Dadaocheng on JAX (issue #29, in progress): the rules as a pure, batched engine with the
Python engine as the reference.

:class:`~.engine.DadaochengJax` holds one configuration's tables; ``init`` / ``step`` (chance
drawn from the key) and ``advance`` (chance outcomes given, for the differential tests) are
pure and jittable; :class:`~.vec_env.DadaochengVecEnv` steps a batch with auto-reset. The
pieces: :mod:`.grid` (candidate lines, whether a cascade can end), :mod:`.cascade` (Stage 2),
:mod:`.layout` (the setup's disc layout), :mod:`.flow` and :mod:`.shop` (the handlers of
every frame kind), :mod:`.legal` (legal masks), :mod:`.scoring` (prestige, returns). Not
built yet: the observation vector.
"""

from __future__ import annotations

from .engine import DadaochengJax
from .vec_env import DadaochengVecEnv, NumpyDadaochengVecEnv, VecStep

__all__ = ["DadaochengJax", "DadaochengVecEnv", "NumpyDadaochengVecEnv", "VecStep"]
