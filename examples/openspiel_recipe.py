"""OpenSpiel recipe: load a formosa game in pyspiel, check it, play OpenSpiel's MCTS bot
against the formosa heuristic, and train one of OpenSpiel's own RL agents (needs the
``[spiel]`` extra; docs/openspiel.md quotes this file and ``tests/spiel/test_recipe.py``
runs it).

Learning (:func:`train_agent`): OpenSpiel's own loop and learner. ``rl_environment.Environment``
plays ``formosa_flowers`` (2 players); the learner, OpenSpiel's PyTorch policy-gradient
agent (A2C loss, Adam; ``learner="dqn"`` for its PyTorch DQN), sits in one seat and
OpenSpiel's ``RandomAgent`` in the others, the seats alternating every episode. The
agent's ``info_state`` is the bridge's observation tensor, which is the env's observation
vector (``Game.observe``), so the returned ``act(observation, mask)`` plays
``learner_env``/``evaluate_learner`` directly (``tests/spiel/test_recipe.py`` checks the
two views of one game are equal). Each training deal is seeded below 1,000,000
(``env.seed``; evaluation deals are 7,000,000 and up). Measured (seed 0, 180 CPU-seconds,
about 2,500 games; ``benchmarks/ecosystem_learning.py --clients openspiel``): 81.5% wins
against random over 400 games (untrained: 9.5%), 3% against the heuristic. On validation
deals, 180 CPU-seconds of A2C with Adam and a policy update per critic update won 79.5%,
with OpenSpiel's default schedule 76%, with its SGD defaults 55%; QPG 74%; DQN 68%.

Pitfalls for a user who copies it:

* the learners are ``open_spiel.python.pytorch.{policy_gradient,dqn,nfsp}`` (CPU torch and,
  for DQN/NFSP, ``dm-tree``: both in ``[spiel]``); OpenSpiel 2.0 has no TensorFlow
  ``open_spiel.python.algorithms.dqn``/``nfsp``/``policy_gradient`` any more, and the JAX
  ones need flax, orbax, etils (DQN, NFSP) or haiku and rlax (policy gradient);
* OpenSpiel's agents draw from numpy's global generator and torch's default one, and the
  DQN/NFSP constructors re-seed both (``seed=42`` by default): the training here runs
  inside :func:`private_global_rngs`, which seeds them and puts them back afterwards;
* an agent acts as ``player_id`` and reads ``observations[...][player_id]``: to rotate the
  learner's seat, set ``agent.player_id`` between episodes (after its last step, which
  ends the episode's bookkeeping), and step every agent on the last time step;
* ``PolicyGradient``'s defaults (plain SGD, one policy update per 8 critic updates of 16
  episodes) barely learn in 3 CPU-minutes: use Adam and a policy update per critic update;
  its softmax and loss cover every action (the legal ones are picked only when it samples),
  so a greedy policy must take the argmax over the legal actions, as :func:`greedy_policy`.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import evaluate_bots, mcts

import formosa_envs.spiel as formosa_spiel  # registers formosa_flowers, formosa_tea, ...

Policy = Callable[[np.ndarray, np.ndarray], int]
"""``act(observation, mask) -> action``, as ``formosa_envs.envs.evaluate_learner`` calls it."""
LEARNERS = ("a2c", "dqn")
"""The OpenSpiel learners :func:`make_learner` builds."""


def check_game(name: str = "formosa_tea", params: dict | None = None) -> pyspiel.Game:
    """Load a game with parameters and run OpenSpiel's random simulation test on it."""
    game = pyspiel.load_game(name, params or {"players": 3, "advanced": True})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    return game


def mcts_against_heuristic(games: int = 2, simulations: int = 20,
                           seed: int = 0) -> list[list[float]]:
    """Returns of OpenSpiel's MCTSBot (random rollouts) against our heuristic in Flowers,
    seats alternating; chance is drawn by ``evaluate_bots`` from its own generator."""
    game = pyspiel.load_game("formosa_flowers", {"players": 2})
    results = []
    for g in range(games):
        rng = np.random.RandomState(seed + g)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        searcher = mcts.MCTSBot(game, uct_c=2.0, max_simulations=simulations,
                                evaluator=evaluator, random_state=rng, solve=False)
        heuristic = formosa_spiel.bot_from_spec("heuristic", game, seed=seed + g)
        bots = [searcher, heuristic] if g % 2 == 0 else [heuristic, searcher]
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        results.append(returns if g % 2 == 0 else returns[::-1])   # MCTS first
    return results


def env_game_through_pyspiel(seed: int = 7) -> str:
    """The env's game for ``reset(seed=seed)``: chance drawn with the env's generator."""
    state = pyspiel.load_game("formosa_flowers").new_initial_state()
    chance, pick = np.random.default_rng(seed), np.random.default_rng(seed + 1)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(formosa_spiel.sample_chance(state, chance))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(pick.integers(len(legal)))])
    return state.engine.to_json(state.engine_state)


@contextlib.contextmanager
def private_global_rngs(seed: int) -> Iterator[None]:
    """Seed numpy's global generator and torch's default one for OpenSpiel's agents (they
    draw from both), and restore both on exit, so training leaves no global RNG changed."""
    import torch
    saved = np.random.get_state()
    with torch.random.fork_rng(devices=[]):
        np.random.seed(seed)
        torch.manual_seed(seed)
        try:
            yield
        finally:
            np.random.set_state(saved)


def make_learner(learner: str, obs_size: int, num_actions: int, seed: int) -> Any:
    """OpenSpiel's PyTorch learner: ``a2c`` (policy gradient, Adam) or ``dqn``."""
    if learner == "a2c":
        from open_spiel.python.pytorch import policy_gradient
        return policy_gradient.PolicyGradient(
            0, obs_size, num_actions, loss_str="a2c", hidden_layers_sizes=(128,),
            batch_size=16, optimizer_str="adam", critic_learning_rate=1e-3,
            pi_learning_rate=1e-3, entropy_cost=0.01, num_critic_before_pi=1)
    if learner == "dqn":
        from open_spiel.python.pytorch import dqn
        return dqn.DQN(0, obs_size, num_actions, hidden_layers_sizes=(128,),
                       replay_buffer_capacity=50_000, batch_size=64, learning_rate=1e-3,
                       optimizer_str="adam", learn_every=4, min_buffer_size_to_learn=1_000,
                       update_target_network_every=500, weight_update_coeff=0.0,
                       epsilon_decay_duration=100_000, epsilon_decay_schedule_str="linear",
                       seed=seed)
    raise ValueError(f"learner must be one of {LEARNERS}, got {learner!r}")


def greedy_policy(agent: Any) -> Policy:
    """``act(observation, mask)``: the legal action with the highest policy logit (A2C) or
    Q-value (DQN) of the agent's network; no randomness."""
    import torch
    network = (agent.policy_logits_network if hasattr(agent, "policy_logits_network")
               else agent._q_network)      # DQN's Q-network has no public name

    def act(observation: np.ndarray, mask: np.ndarray) -> int:
        with torch.no_grad():
            x = torch.as_tensor(np.asarray(observation, np.float32)).unsqueeze(0)
            scores = network(x)[0].numpy()
        legal = np.flatnonzero(mask)
        return int(legal[np.argmax(scores[legal])])
    return act


def play_episode(env: Any, agents: list[Any]) -> list[float]:
    """One game of OpenSpiel's RL loop: the mover's agent steps, every agent sees the end."""
    time_step = env.reset()
    while not time_step.last():
        mover = time_step.observations["current_player"]
        time_step = env.step([agents[mover].step(time_step).action])
    for agent in agents:
        agent.step(time_step)
    return list(time_step.rewards)


def train_loop(env: Any, agent: Any, seed: int, cpu_seconds: float, progress: bool = True,
               max_episodes: int | None = None) -> int:
    """OpenSpiel's RL loop: ``agent`` in seat ``episode % players``, ``RandomAgent`` in the
    others, one deal per episode seeded below 1,000,000, until ``cpu_seconds`` of CPU time
    are spent (or ``max_episodes`` played); returns the number of episodes. Run it inside
    :func:`private_global_rngs`."""
    from open_spiel.python.algorithms import random_agent
    from tqdm import tqdm
    players, num_actions = env.num_players, env.action_spec()["num_actions"]
    randoms = [random_agent.RandomAgent(p, num_actions) for p in range(players)]
    deals, start, episode, wins = np.random.default_rng(seed), time.process_time(), 0, 0
    with tqdm(total=cpu_seconds, unit="cpu-s", disable=not progress, desc="openspiel") as bar:
        while time.process_time() - start < cpu_seconds and episode != max_episodes:
            agent.player_id = seat = episode % players
            env.seed(int(deals.integers(1_000_000)))
            agents = [agent if p == seat else randoms[p] for p in range(players)]
            wins += play_episode(env, agents)[seat] > 0
            episode += 1
            bar.update(int(min(time.process_time() - start, cpu_seconds)) - bar.n)
            bar.set_postfix(episodes=episode, won=f"{wins / episode:.2f}", refresh=False)
    return episode


def train_agent(game: str = "flowers", num_players: int = 2, seed: int = 0,
                cpu_seconds: float = 180.0, progress: bool = True, learner: str = "a2c",
                max_episodes: int | None = None) -> Policy:
    """Train OpenSpiel's ``learner`` (:data:`LEARNERS`) against OpenSpiel's random agents for
    at most ``cpu_seconds`` of this process's CPU time (the seat rotating every episode)
    and return its greedy ``act(observation, mask)``; ``cpu_seconds=0``: untrained. The same
    ``seed`` and number of episodes train the same agent; a CPU budget alone decides that
    number by the machine's speed, so fix ``max_episodes`` too to reproduce a run exactly."""
    import torch
    from open_spiel.python import rl_environment
    env = rl_environment.Environment(f"formosa_{game}", players=num_players)
    size = env.observation_spec()["info_state"][0]
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        with private_global_rngs(seed):
            agent = make_learner(learner, size, env.action_spec()["num_actions"], seed)
            train_loop(env, agent, seed, cpu_seconds, progress, max_episodes)
    finally:
        torch.set_num_threads(threads)
    return greedy_policy(agent)


if __name__ == "__main__":
    from formosa_envs.envs import evaluate_learner
    print(check_game())
    print(mcts_against_heuristic())
    print("trained vs random:", evaluate_learner(train_agent(cpu_seconds=30.0), games=100))
