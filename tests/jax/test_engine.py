"""The JAX engine on its own: scoring tables, jit/vmap, illegal actions, card files."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from formosa_envs.games.flowers.cards import load_cards
from formosa_envs.games.flowers.scoring import score_pile as python_score
from formosa_envs.jax import TERMINAL, FlowersJax
from formosa_envs.jax.flowers.bits import pack
from formosa_envs.jax.flowers.score_tables import KEY_BITS, build_score_tables
from formosa_envs.jax.flowers.scoring import make_scorer, score_pile

from .parity import engine, jitted, run

ROOT = Path(__file__).resolve().parents[2]
DEFAULT = ROOT / "formosa_envs" / "games" / "flowers" / "data" / "cards.toml"


def _random_piles(cards: tuple, rng: np.random.Generator, count: int) -> np.ndarray:
    """Piles weighted toward icon cards (where the sets are), some with whole months."""
    icon = np.array([bool(c.icons) for c in cards])
    piles = np.zeros((count, 54), bool)
    for i in range(count):
        weight = np.where(icon, rng.uniform(1, 6), 1.0)
        size = rng.integers(0, 30)
        piles[i, rng.choice(54, size, replace=False, p=weight / weight.sum())] = True
        if i % 5 == 0:
            month = rng.integers(1, 13)
            piles[i, [c.id for c in cards if c.months == (month,)]] = True
    return piles


@pytest.mark.parametrize(("num_players", "current_month"), [(2, None), (2, 2), (3, 7),
                                                            (4, 12)])
def test_scoring_matches_the_python_scorer(num_players: int, current_month: int | None) -> None:
    cards = load_cards(None)
    scorer = make_scorer(build_score_tables(cards, num_players, current_month))
    piles = _random_piles(cards, np.random.default_rng(num_players), 3000)
    packed = pack(piles)
    vp, sets = jax.device_get(jax.jit(jax.vmap(lambda p: score_pile(scorer, p)))(packed))
    for i, pile in enumerate(piles):
        want = python_score([cards[c] for c in np.flatnonzero(pile)], num_players,
                            current_month)
        pairs = want.keys()  # the (set, tier) pairs, as a frozenset
        mask = sum(1 << KEY_BITS[k] for k in pairs)
        assert (vp[i], sets[i]) == (want.vp, mask), (np.flatnonzero(pile), want)


def test_init_and_step_jit_and_vmap() -> None:
    env = engine(2, 12)
    init, step, views = jitted(env)  # the functions the step-mode parity test uses
    keys = jax.random.split(jax.random.PRNGKey(0), 24)
    state = init(keys)
    assert state.observation.shape == (24, 442) and state.observation.dtype == jnp.float32
    assert state.legal_action_mask.shape == (24, 111) and state.legal_action_mask.dtype == bool
    assert state.rewards.shape == (24, 2) and state.scores.shape == (24, 2)
    assert np.array_equal(state.num_drawn, [24] * 24)
    assert len({tuple(d) for d in np.asarray(state.drawn)}) == 24  # different deals
    assert np.array_equal(state.drawn, init(keys).drawn)  # the key fixes the deal
    assert np.array_equal(views(state)[:, 0], state.observation)
    for k in range(20):
        actions = jnp.argmax(state.legal_action_mask, axis=1)
        state = step(state, actions, jax.random.split(jax.random.PRNGKey(k), 24))
        assert state.legal_action_mask.any(axis=1).all() and not state.illegal.any()


def test_single_game_jit_illegal_action_and_the_end() -> None:
    """Unbatched jit; an illegal action changes nothing; a game ends with TERMINAL and
    rank rewards, after which stepping changes nothing."""
    env = FlowersJax(num_players=2, target_vp=1)
    init, step = jax.jit(env.init), jax.jit(env.step)
    state = init(jax.random.PRNGKey(3))
    assert state.observation.shape == (442,)
    bad = int(np.flatnonzero(~np.asarray(state.legal_action_mask))[0])
    after = step(state, bad, jax.random.PRNGKey(4))
    assert bool(after.illegal) and int(after.num_drawn) == 0
    for name in ("hands", "field", "deck_order", "deck_next", "piles", "scores", "decisions",
                 "current_player", "observation", "legal_action_mask"):
        assert np.array_equal(getattr(after, name), getattr(state, name)), name
    rng = np.random.default_rng(0)
    while not bool(state.terminated):
        action = rng.choice(np.flatnonzero(np.asarray(state.legal_action_mask)))
        state = step(state, int(action), jax.random.PRNGKey(int(state.decisions)))
        assert not bool(state.illegal)
    assert int(state.current_player) == TERMINAL and not state.legal_action_mask.any()
    scores = np.asarray(state.scores)
    assert np.array_equal(state.rewards, np.sign(scores - scores[::-1]).astype(np.float32))
    frozen = step(state, 0, jax.random.PRNGKey(9))
    assert not frozen.rewards.any() and not bool(frozen.illegal)
    assert np.array_equal(frozen.scores, state.scores) and bool(frozen.terminated)


def _override(tmp_path: Path, edits: dict[int, list[str]]) -> str:
    """A copy of the default card file with the icons of some cards replaced."""
    text, out, card = DEFAULT.read_text(), [], None
    for line in text.splitlines():
        if line.startswith("id = "):
            card = int(line.split("=")[1])
        if line.startswith("icons = ") and card in edits:
            line = "icons = " + repr(edits[card]).replace("'", '"')
        out.append(line)
    path = tmp_path / "cards.toml"
    path.write_text("\n".join(out) + "\n")
    return str(path)


def test_a_card_file_override_keeps_parity(tmp_path: Path) -> None:
    """Two-icon cards (the 9-Night card also an Animal, per R-13), an icon on a wild card,
    and a plain card made a Typhoon-month Weather card: the tables follow the file."""
    cards = load_cards(None)
    nine_night = next(c.id for c in cards if c.months == (9,) and "night" in c.icons)
    plain_seven = next(c.id for c in cards if c.months == (7,) and not c.icons)
    edits = {nine_night: ["night", "animal"], 48: ["bird"], 52: ["weather", "night"],
             plain_seven: ["weather"], 1: ["bird", "animal"]}
    path = _override(tmp_path, edits)
    assert load_cards(path)[nine_night].icons == ("night", "animal")
    tally = run(3, 7, games=16, batch=16, seed=11, mode="vec", card_file=path)
    assert tally.games >= 16


def test_a_card_file_beyond_the_tables_is_refused(tmp_path: Path) -> None:
    icons = ["night", "bird", "animal", "weather"]
    combos = [[icons[i] for i in range(4) if m >> i & 1] for m in range(1, 16)]
    path = _override(tmp_path, {c: combos[c % 15] for c in range(54)})
    with pytest.raises(ValueError, match="card_file not supported by the JAX engine"):
        FlowersJax(num_players=2, card_file=path)


def test_nothing_outside_formosa_envs_jax_imports_jax() -> None:
    offenders = []
    for path in (ROOT / "formosa_envs").rglob("*.py"):
        if "jax" in path.relative_to(ROOT / "formosa_envs").parts[:1]:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            offenders += [f"{path}: {n}" for n in names if n.split(".")[0] == "jax"]
    assert not offenders, offenders
    code = ("import sys, formosa_envs, formosa_envs.envs, formosa_envs.games; "
            "from formosa_envs.games import make_game; make_game('flowers'); "
            "assert 'jax' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
