"""Learning pipelines, one subpackage each; installed as ``formosa_envs.training``.

* :mod:`~formosa_envs.training.ppo` - PPO self-play (``formosa train GAME``): one job
  description (settings, opponents, the warm start from a cloned heuristic, evaluation,
  export, report) and two learners, sb3-contrib's MaskablePPO and Ray RLlib
  (``--backend rllib``).
* :mod:`~formosa_envs.training.imitation` - teacher data from the heuristics and
  behaviour cloning into a network with a value head.
* :mod:`~formosa_envs.training.xit` - expert iteration: search-guided self-play that
  distils the search's visit counts back into the network.
* :mod:`~formosa_envs.training.jax` - the jitted PPO (against the JAX heuristic, random
  players and snapshots) and Gumbel MuZero self-play on the JAX Flowers engine
  (``formosa train flowers --backend jax [--method gumbel]``).
* :mod:`~formosa_envs.training.common` - what several pipelines share: TOML settings and
  the numpy network format every pipeline exports to.

:mod:`~formosa_envs.training.train` is the ``formosa train`` command: it hands a run to
its pipeline by ``--backend``. Pipelines import each other only through ``common``, with
one exception: the PPO pipeline's warm start runs the imitation pipeline as its first
stage. Evaluation (tournaments, ratings, the solo objective),
which needs no learner, is :mod:`formosa_envs.evaluation`. The repository keeps this
folder at its top (``training/``); the build installs it below ``formosa_envs``.
"""

if __name__ == "training":  # the old top-level name, from a checkout: see _legacy
    import formosa_envs._legacy as _legacy

    _legacy.alias_in_place(__name__)
