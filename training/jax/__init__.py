"""Jitted self-play PPO on the JAX Flowers engine (``formosa train flowers --backend
jax``): :mod:`.ppo` the compiled update, :mod:`.selfplay` the opponent blocks, :mod:`.nets`
the network, :mod:`.config` its settings, :mod:`.train` the command. Needs the ``[jax]``
extra."""
