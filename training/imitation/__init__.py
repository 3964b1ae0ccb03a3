"""Imitation: teacher data from heuristic games (:mod:`.data`) and behaviour cloning
(:mod:`.bc`, settings in :mod:`.config`) into a policy with a value head, exported in the
numpy network format (:mod:`formosa_envs.training.common.network_export`)."""
