"""PPO self-play, the pipeline behind ``formosa train GAME``: one job, two learners.

:mod:`.train` runs a whole job with sb3-contrib's MaskablePPO (warm start, PPO against
the heuristic and snapshots, evaluation), :mod:`.train_rllib` the same job with Ray
RLlib (``--backend rllib``, the ``[rllib]`` extra); :mod:`.config` holds its settings
(``training/configs/<game>.toml``),
:mod:`.opponents` the opponent pool, :mod:`.warm_start` the cloning stage in front of PPO,
:mod:`.callbacks` checkpoints and progress, :mod:`.export` the numpy actor, :mod:`.report`
the learning curve.
"""
