"""Expert iteration: AZ-style search (``formosa_envs.agents.az``) plays itself (:mod:`.selfplay`),
the
network is trained on the search's visit counts and results, and a new network replaces
the incumbent only when it wins a gate match (:mod:`.expert_iteration`, settings in
:mod:`.config`)."""
