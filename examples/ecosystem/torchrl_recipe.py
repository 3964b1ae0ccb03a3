"""TorchRL: a formosa env in ``torchrl.envs.PettingZooWrapper`` and a masked policy.

The formosa envs are turn-based AEC envs, so the wrapper needs ``use_mask=True``; it
makes one group per seat (``player_0``, ...), each with ``"mask"`` (whether that seat
acts on this step) and ``"action_mask"`` (its legal actions: the Dict observation's mask,
or ``infos[agent]["action_mask"]`` of the flat view). Only the acting seat's action is
applied. Every seat's final reward is in ``("next", seat, "reward")`` of the last step.

Run: ``python -m examples.ecosystem.torchrl_recipe``.
"""

from __future__ import annotations

import torch
from tensordict import TensorDictBase
from torchrl.data import Composite
from torchrl.envs import PettingZooWrapper
from torchrl.envs.utils import check_env_specs
from torchrl.modules import MaskedCategorical

from formosa_envs.envs import env, flat_env


def make_torchrl_env(game: str = "tea", num_players: int = 3, seed: int = 0,
                     flat: bool = False) -> PettingZooWrapper:
    """The game as a TorchRL env (the Dict env, or the flat view with ``flat=True``),
    seeded, with the global state (``return_state=True``) for centralised critics."""
    pz_env = flat_env(game, num_players=num_players) if flat else env(game,
                                                                      num_players=num_players)
    return PettingZooWrapper(pz_env, use_mask=True, return_state=True, seed=seed)


def observation_key(torchrl_env: PettingZooWrapper, group: str) -> tuple[str, ...]:
    """Where a group's observation vector lies: ``(group, "observation", "observation")``
    for the Dict env (the mask is taken out of it), ``(group, "observation")`` for the
    flat view."""
    if isinstance(torchrl_env.observation_spec[group, "observation"], Composite):
        return (group, "observation", "observation")
    return (group, "observation")


class MaskedLinearPolicy(torch.nn.Module):
    """One linear layer shared by every seat, sampling from ``MaskedCategorical`` with its
    own seeded ``torch.Generator`` (no global random state is used)."""

    def __init__(self, torchrl_env: PettingZooWrapper, seed: int = 0) -> None:
        super().__init__()
        self.groups = list(torchrl_env.group_map)
        self.keys = {g: observation_key(torchrl_env, g) for g in self.groups}
        obs_size = torchrl_env.observation_spec[self.keys[self.groups[0]]].shape[-1]
        num_actions = torchrl_env.full_action_spec[self.groups[0], "action"].space.n
        self.generator = torch.Generator().manual_seed(seed)
        self.linear = torch.nn.Linear(obs_size, num_actions)
        with torch.no_grad():
            self.linear.weight.copy_(0.1 * torch.randn(self.linear.weight.shape,
                                                       generator=self.generator))
            self.linear.bias.zero_()

    def forward(self, tensordict: TensorDictBase) -> TensorDictBase:
        """Write every group's ``"action"``: a legal action for the acting seat."""
        for group in self.groups:
            logits = self.linear(tensordict[self.keys[group]])
            dist = MaskedCategorical(logits=logits, mask=tensordict[group, "action_mask"])
            tensordict[group, "action"] = torch.multinomial(
                dist.probs, 1, generator=self.generator).squeeze(-1)
        return tensordict


def torchrl_rollout(game: str = "tea", num_players: int = 3, seed: int = 0,
                    flat: bool = False, max_steps: int = 10_000) -> TensorDictBase:
    """Check the wrapped env's specs, then play one whole game with the masked policy;
    returns the rollout (one row per env step)."""
    torchrl_env = make_torchrl_env(game, num_players, seed, flat)
    check_env_specs(torchrl_env, seed=seed)
    torchrl_env.set_seed(seed)
    policy = MaskedLinearPolicy(torchrl_env, seed)
    with torch.no_grad():
        return torchrl_env.rollout(max_steps, policy=policy, break_when_any_done=True)


if __name__ == "__main__":
    rollout = torchrl_rollout()
    final = {g: float(rollout["next", g, "reward"][-1]) for g in ("player_0", "player_1",
                                                                  "player_2")}
    print(f"{rollout.batch_size[0]} env steps; final rewards {final}")
