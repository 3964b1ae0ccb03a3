"""Load-then-play fuzz over mutated saves, shared by the setup and mid-game consistency tests.

A mutated save that ``from_json`` accepts must never lead, by legal play, to a state
``check_invariants`` refuses: :func:`fuzz` mutates real saves (each test module brings
its own ``mutate``), loads them and plays random steps, collecting every such hole.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import numpy as np

from formosa_envs import make_game
from formosa_envs.core.contract import step_random
from formosa_envs.core.errors import FormosaError, StateFormatError

PLAY_STEPS = 40
"""Random steps played from each mutated save that loads."""
_GAMES: dict[str, Any] = {}


def game_of(name: str, n: int, opts: dict[str, Any]) -> Any:
    """One engine per configuration."""
    key = f"{name}{n}{sorted(opts.items())}"
    if key not in _GAMES:
        _GAMES[key] = make_game(name, num_players=n, **opts)
    return _GAMES[key]


def fuzz(game: Any, saves: list[str], trials: int, seed: int,
         mutate: Callable[[dict[str, Any], random.Random], str]) -> list[str]:
    """Mutated saves that load but lead to a state ``check_invariants`` refuses.

    ``mutate`` changes a save's state dict in place and says what it changed.
    """
    rng, found = random.Random(seed), []
    for trial in range(trials):
        payload = json.loads(rng.choice(saves))
        what = mutate(payload["state"], rng)
        try:
            state = game.from_json(json.dumps(payload))
        except FormosaError:
            continue
        dice = np.random.default_rng(trial)
        try:
            for _ in range(PLAY_STEPS):
                if game.is_terminal(state):
                    break
                step_random(game, state, dice)
                game.check_invariants(state)
        except StateFormatError as exc:
            found.append(f"{what}: loaded, then {exc}")
    return found
