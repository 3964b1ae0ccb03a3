"""Afterstate evaluators trained on play-out labels of sibling moves (rollout policy
improvement, Tesauro & Galperin 1996, distilled): ``formosa train GAME --backend afterstate``.

:mod:`.config` holds the settings (``training/configs/<game>_afterstate.toml``),
:mod:`.data` plays heuristic games and labels the heuristic's candidate afterstates by
heuristic play-outs, :mod:`.fit` trains the two-headed network (score margin and win) and
exports it, :mod:`.run` chains them and evaluates the agent (``afterstate:PATH``) against
the heuristic on seeds never used in training.
"""
