"""Recipes for using the formosa envs with other RL libraries (docs/ecosystem.md, "Use with other
libraries"). Each module is a small runnable function that ``tests/ecosystem`` runs
(marker ``ecosystem``); the libraries come from the ``[ecosystem]`` extra, installed in
``.venv-eco`` with ``constraints/ecosystem.txt`` so that torch stays the CPU build.

* :mod:`.torchrl_recipe`: TorchRL's ``PettingZooWrapper`` and a masked policy;
* :mod:`.tianshou_recipe`: a Tianshou multi-agent collection with the final-reward fix;
* :mod:`.parallel_recipe`: PettingZoo's ``turn_based_aec_to_parallel``;
* :mod:`.supersuit_recipe`: SuperSuit observation, reward and vector wrappers;
* :mod:`.agilerl_recipe`: AgileRL's masked action selection on the flat view.
"""
