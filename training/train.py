"""``formosa train GAME [--backend sb3|rllib|jax|afterstate] ...``: the training command.

It hands the run to its pipeline by ``--backend``: ``sb3`` (default) and ``rllib`` run
the PPO job (:mod:`formosa_envs.training.ppo.train`, :mod:`~formosa_envs.training.ppo.
train_rllib`), ``jax`` the jitted self-play PPO of the JAX Flowers engine
(:mod:`formosa_envs.training.jax.train`), ``afterstate`` the learned evaluator of the
heuristic's candidate moves trained on play-out labels
(:mod:`formosa_envs.training.afterstate.run`). Each reads its own flags (``-h``); the
pipeline is imported only once chosen, so a missing extra is named in one line.
"""

from __future__ import annotations

import importlib
import sys

from formosa_envs.tools.console import run_console

BACKENDS = {"sb3": "formosa_envs.training.ppo.train",
            "rllib": "formosa_envs.training.ppo.train_rllib",
            "jax": "formosa_envs.training.jax.train",
            "afterstate": "formosa_envs.training.afterstate.run"}
"""``--backend`` -> the module whose ``main(argv)`` runs the job."""


def backend_of(argv: list[str]) -> str:
    """The ``--backend`` value in ``argv`` (``sb3`` when absent; an unknown value goes
    to the sb3 parser, whose ``choices`` name the backends in its one-line error)."""
    for i, arg in enumerate(argv):
        if arg == "--backend" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--backend="):
            return arg.split("=", 1)[1]
    return "sb3"


def main(argv: list[str] | None = None) -> int:
    """Run ``formosa train`` with ``argv`` (default ``sys.argv[1:]``) on its backend."""
    args = list(argv) if argv is not None else sys.argv[1:]
    module = BACKENDS.get(backend_of(args), BACKENDS["sb3"])
    return importlib.import_module(module).main(args)


def cli(argv: list[str] | None = None) -> int:
    """``python -m formosa_envs.training.train``: :func:`main`, bad input as one line."""
    return run_console("formosa train", main, argv)


if __name__ == "__main__":
    raise SystemExit(cli())
