"""Expert iteration (training/xit/expert_iteration.py, xit_selfplay.py,
xit_config.py): tiny runs that save, resume and play legally; the soft-target loss; the
value target's sign; named configuration errors."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from formosa_envs.agents import make_agent
from formosa_envs.agents.network import Network
from formosa_envs.training.common.network_export import save_network_npz
from formosa_envs.training.xit.config import XitConfig, load_xit_config
from formosa_envs.training.xit.selfplay import SelfPlayTask, play_selfplay_game, selfplay_seeds

from formosa_envs.core.errors import ConfigError
from formosa_envs.games import make_game
from formosa_envs.tools.simulate import play_game

pytest.importorskip("torch")  # the [train] extra
from formosa_envs.training.xit import expert_iteration as xit  # noqa: E402

TINY = XitConfig(iterations=2, games=3, simulations=4, chunk=2, eval_games=2, epochs=2,
                 batch_size=64, threads=1, league=["heuristic", "past"], league_fraction=0.34,
                 temperature_moves=6)
TIMES = ("selfplay_s", "train_s", "eval_s", "seconds", "wall_s")


def tiny_network(path: Path, observations: int, actions: int, value: bool = True,
                 seed: int = 0) -> Path:
    """A random relu network (16 hidden; value head of 8) written as an exported .npz."""
    rng = np.random.default_rng(seed)

    def layer(inputs: int, outputs: int) -> tuple[np.ndarray, np.ndarray]:
        return (rng.normal(0, 0.3, (outputs, inputs)).astype(np.float32),
                rng.normal(0, 0.1, outputs).astype(np.float32))
    heads = [layer(observations, 8), layer(8, 1)] if value else None
    return save_network_npz([layer(observations, 16), layer(16, actions)], heads, "relu", path)


def init_for(game: str, folder: Path) -> Path:
    engine = make_game(game, num_players=2)
    return tiny_network(folder / f"{game}-init.npz", engine.observation_size,
                        engine.num_actions)


def _stable(history: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A run's history without wall times (everything else is fixed by the seeds)."""
    out = []
    for report in history:
        r = {k: v for k, v in report.items() if k not in TIMES}
        r["evaluation"] = {k: {f: x for f, x in e.items() if f != "seconds"}
                           for k, e in r["evaluation"].items()}
        out.append(r)
    return out


# Taiwan's games are longer: fewer games and simulations keep the test short
SMALLER = {"flowers": TINY, "taiwan": replace(TINY, games=2, simulations=2, league_fraction=0.5)}


@pytest.mark.parametrize("game", ["flowers", "taiwan"])
def test_tiny_run_saves_resumes_and_plays_legally(game: str, tmp_path: Path) -> None:
    init = init_for(game, tmp_path)
    config = SMALLER[game]
    whole = xit.run_xit(game, tmp_path / "whole", init, config, workers=1, show_progress=False,
                        log=lambda *_: None)
    first = xit.run_xit(game, tmp_path / "split", init, replace(config, iterations=1), workers=1,
                        show_progress=False, log=lambda *_: None)
    assert first["iteration"] == 1
    resumed = xit.run_xit(game, tmp_path / "split", None, config, resume=True, workers=2,
                          show_progress=False, log=lambda *_: None)
    assert resumed["iteration"] == whole["iteration"] == 2
    assert _stable(resumed["history"]) == _stable(whole["history"])
    for name in ["networks/iter-0001.npz", "networks/iter-0002.npz", "data/iter-0002.npz",
                 "best.npz", "latest.npz"]:
        with np.load(tmp_path / "whole" / name) as a, np.load(tmp_path / "split" / name) as b:
            assert a.files == b.files
            for key in a.files:
                np.testing.assert_array_equal(a[key], b[key], err_msg=f"{name} {key}")
    history = json.loads((tmp_path / "whole" / "history.json").read_text())
    assert [h["iteration"] for h in history] == [1, 2] and history[1]["wall_s"] > 0
    assert all(h["games"] == config.games and h["samples"] > 0 for h in history)
    assert set(history[0]["evaluation"]) == {"az_vs_incumbent", "az_vs_heuristic",
                                              "raw_vs_heuristic"}
    # training moved the weights away from the init
    before, after = Network.load(init), Network.load(tmp_path / "whole/networks/iter-0002.npz")
    assert not np.array_equal(before.layers[0][0], after.layers[0][0])
    engine = make_game(game, num_players=2)
    net = tmp_path / "whole" / "latest.npz"
    for spec in [f"policy:{net}", f"az:{net}:4"]:  # apply_action refuses an illegal move
        record = play_game(engine, [make_agent(spec, game, 1), make_agent("random", game, 2)], 3)
        assert not record.truncated


def test_selfplay_samples_are_search_distributions(tmp_path: Path) -> None:
    init = init_for("flowers", tmp_path)
    xit.run_xit("flowers", tmp_path / "run", init, replace(TINY, iterations=1, eval_games=0),
                workers=1, show_progress=False, log=lambda *_: None)
    with np.load(tmp_path / "run/data/iter-0001.npz") as data:
        policy, mask = data["policy"], np.unpackbits(data["mask"], axis=1, count=111)
        ret, seat, games = data["ret"], data["seat"], data["game"]
    np.testing.assert_allclose(policy.sum(axis=1), 1.0, rtol=1e-5)
    assert (policy[~mask.astype(bool)] == 0).all()          # mass only on legal actions
    assert (mask.sum(axis=1) > 1).all()                     # forced moves are not recorded
    # game 0 is a league game: the heuristic's seat (0) is not recorded
    assert 0 not in set(seat[games == 0].tolist()) and set(games.tolist()) == {0, 1, 2}
    assert set(np.unique(ret).tolist()) <= {-1.0, 0.0, 1.0}


def test_selfplay_seeds_never_meet_tournament_seeds() -> None:
    chance, agents = selfplay_seeds(0, 1, 0, 2)
    assert chance >= 2**63 and len(agents) == 3
    assert selfplay_seeds(0, 2, 0, 2)[0] != chance != selfplay_seeds(0, 1, 1, 2)[0]


# ----- the loss and the value target ------------------------------------------------------

def test_soft_target_loss_decreases_on_a_fixed_batch(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    net = xit.XitNet(Network.load(tiny_network(tmp_path / "n.npz", 10, 6)))
    mask = rng.random((64, 6)) < 0.7
    mask[:, 0] = True
    target = rng.random((64, 6)) * mask
    target /= target.sum(axis=1, keepdims=True)
    samples = {"obs": rng.normal(size=(64, 10)).astype(np.float32),
               "mask": np.packbits(mask, axis=1), "policy": target.astype(np.float32),
               "ret": rng.choice([-1.0, 1.0], 64).astype(np.float32)}
    config = XitConfig(epochs=40, batch_size=16, learning_rate=1e-2, threads=1)
    report = xit.train_network(net, samples, config, 1, 6)
    assert report["policy_ce"] < report["policy_ce_first"] - 0.05
    assert report["value_mse"] < report["value_mse_first"] - 0.1
    # the soft cross-entropy is minimised by the target itself (its entropy), not beyond
    import torch
    t = torch.from_numpy(target.astype(np.float32))
    at_target = xit.soft_cross_entropy(torch.log(t.clamp_min(1e-30)), torch.from_numpy(mask), t)
    entropy = -(t * torch.log(t.clamp_min(1e-30))).sum(dim=1)
    torch.testing.assert_close(at_target, entropy)
    assert report["policy_ce"] >= float(entropy.mean()) - 1e-4


class _State:
    def __init__(self) -> None:
        self.moves: list[int] = []

    @property
    def decisions(self) -> int:
        return len(self.moves)


class MatchGame:
    """Seat 0 picks 0 or 1, then seat 1 picks; seat 1 wins if it matched seat 0's pick."""

    name, observation_size, num_actions, max_game_length, num_players = "match", 3, 2, 4, 2

    def new_initial_state(self) -> _State:
        self.real = _State()   # the game's own state (searches work on determinized copies)
        return self.real

    def current_player(self, s: _State) -> int:
        return -4 if self.is_terminal(s) else len(s.moves)

    def is_terminal(self, s: _State) -> bool:
        return len(s.moves) == 2

    def legal_actions(self, s: _State) -> list[int]:
        return [] if self.is_terminal(s) else [0, 1]

    def legal_mask(self, s: _State) -> np.ndarray:
        return np.ones(2, np.int8) * (not self.is_terminal(s))

    def apply_action(self, s: _State, action: int) -> None:
        s.moves.append(action)

    def returns(self, s: _State) -> list[float]:
        if not self.is_terminal(s):
            return [0.0, 0.0]
        one_wins = s.moves[0] == s.moves[1]
        return [-1.0, 1.0] if one_wins else [1.0, -1.0]

    def observe(self, s: _State, seat: int) -> np.ndarray:
        return np.array([len(s.moves), seat, s.moves[0] if s.moves else -1], np.float32)

    def determinize(self, s: _State, viewer: int, rng: np.random.Generator) -> _State:
        copy = _State()
        copy.moves = list(s.moves)
        return copy

    def decision_description(self, s: _State) -> str:
        return f"match game after {s.moves}"


def test_value_target_is_the_deciding_seats_own_return(tmp_path: Path) -> None:
    game = MatchGame()
    network = Network.load(tiny_network(tmp_path / "m.npz", 3, 2))
    config = replace(TINY, temperature=1.0, temperature_moves=2, league_fraction=0.0)
    task = SelfPlayTask("match", {}, config, 1, 0, 1, str(tmp_path / "m.npz"))
    outcomes = set()
    for g in range(12):
        rows, decisions = play_selfplay_game(game, task, network, g)
        final = game.returns(game.real)
        assert rows["seat"] == [0, 1] and decisions == 2
        assert rows["ret"] == [final[0], final[1]] and final[0] == -final[1]
        outcomes.add(final[0])
    assert outcomes == {1.0, -1.0}  # both signs occur, each seat gets its own


# ----- errors -------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "words"), [
    ("[xit]\nsimulations = 1\n", "simulations must be a whole number from 2"),
    ("[xit]\nlearning_rate = -1.0\n", "learning_rate must be a number"),
    ("[xit]\nleague = [3]\n", "league must be a list"),
    ("[xit]\nleague_fraction = 0.5\n", "league_fraction is 0.5 but league is empty"),
    ("[xit]\nnum_players = 1\n", "num_players must be a whole number from 2"),
    ("[xit]\nsimulatoins = 8\n", "unknown expert-iteration option 'simulatoins'"),
    ("games = 3\n[xit]\ngames = 4\n", "'games' is set twice"),
    ("[xit\n", "not a readable TOML file")])
def test_bad_config_errors_name_the_key(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=words):
        load_xit_config(path)


def test_shipped_configs_load() -> None:
    for game in ["flowers", "taiwan", "tea", "dadaocheng"]:
        load_xit_config(Path("training/configs") / f"{game}_xit.toml")


def test_bad_runs_fail_before_any_game(tmp_path: Path) -> None:
    init = init_for("flowers", tmp_path)
    no_value = tiny_network(tmp_path / "nv.npz", 442, 111, value=False)
    quiet: dict[str, Any] = {"workers": 1, "show_progress": False, "log": lambda *_: None}
    with pytest.raises(ConfigError, match="no value head"):
        xit.run_xit("flowers", tmp_path / "a", no_value, TINY, **quiet)
    with pytest.raises(ConfigError, match="--init is required"):
        xit.run_xit("flowers", tmp_path / "b", None, TINY, **quiet)
    with pytest.raises(ConfigError, match="no expert-iteration run"):
        xit.run_xit("flowers", tmp_path / "c", None, TINY, resume=True, **quiet)
    with pytest.raises(Exception, match="nope"):
        xit.run_xit("flowers", tmp_path / "d", init, replace(TINY, league=["nope"]), **quiet)
    with pytest.raises(Exception, match="does not fit"):
        xit.run_xit("taiwan", tmp_path / "e", init, TINY, **quiet)
    with pytest.raises(ConfigError, match="workers"):
        xit.run_xit("flowers", tmp_path / "f", init, TINY, workers=0)
    assert not any((tmp_path / n).exists() for n in "abcdef")
    xit.run_xit("flowers", tmp_path / "g", init, replace(TINY, iterations=1, eval_games=0),
                **quiet)
    with pytest.raises(ConfigError, match="not empty"):
        xit.run_xit("flowers", tmp_path / "g", init, TINY, **quiet)
    with pytest.raises(ConfigError, match="another simulations"):
        xit.run_xit("flowers", tmp_path / "g", None, replace(TINY, simulations=5, eval_games=0),
                    resume=True, **quiet)
    with pytest.raises(ConfigError, match="is not the network the run"):
        xit.run_xit("flowers", tmp_path / "g", tiny_network(tmp_path / "o.npz", 442, 111, seed=1),
                    replace(TINY, eval_games=0), resume=True, **quiet)


def test_console_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert xit.cli(["flowers", "--init", str(tmp_path / "missing.npz"),
                    "--out", str(tmp_path / "r")]) == 2
    assert xit.cli(["flowers", "--out", str(tmp_path / "r"), "--iterations", "0"]) == 2
    bad = tmp_path / "bad.toml"
    bad.write_text("[xit]\nepochs = 0\n")
    assert xit.cli(["flowers", "--init", "x.npz", "--out", str(tmp_path / "r"),
                    "--config", str(bad)]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 3 and all(" error: " in line for line in lines)
    assert "not found" in lines[0] and "epochs must be" in lines[2]
