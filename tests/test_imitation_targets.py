"""Visit-share (soft) cloning targets: training/imitation/targets.py, ``--visit-targets``
in training/imitation/data.py and the soft cross-entropy of training/imitation/bc.py."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from formosa_envs.training.imitation.config import BCConfig, load_bc_config
from formosa_envs.training.imitation.data import DataSettings, generate, load_data
from formosa_envs.training.imitation.targets import visit_shares

from formosa_envs.core.errors import ConfigError, DataError

SEARCH = "mcts:12:heuristic"


@pytest.fixture(scope="module")
def visits(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four 2-player Flowers games: a small search labels its seat with visit shares."""
    out = tmp_path_factory.mktemp("visits")
    settings = DataSettings("flowers", 4, teacher=SEARCH, opponents=["heuristic"], seed=3,
                            chunk=2, visit_targets=True)
    generate(settings, out, workers=1, show_progress=False)
    return out


def test_targets_are_the_searchs_visit_shares(visits: Path) -> None:
    data = load_data(visits)
    assert data.target is not None and data.target.shape == data.mask.shape
    assert data.target.dtype == np.float16
    np.testing.assert_allclose(data.target.astype(np.float32).sum(axis=1), 1.0, atol=2e-3)
    assert not data.target[~data.mask].any()
    searched = data.mask.sum(axis=1) > 1
    soft = data.target[searched].max(axis=1) < 1.0
    assert soft.mean() > 0.5  # most searched decisions spread their visits
    # forced decisions are one-hot; the recorded move has the most visits (ties aside)
    forced = ~searched
    assert (data.target[forced].argmax(axis=1) == data.action[forced]).all()
    top = data.target[searched].max(axis=1)
    chosen = data.target[searched][np.arange(int(searched.sum())), data.action[searched]]
    assert (chosen == top).mean() > 0.9


def test_visit_shares_fall_back_to_one_hot() -> None:
    class Searched:
        last_search = {3: (6, 0.1), 5: (2, -0.2), 7: (0, 0.0)}

    class NotSearched:
        last_search: dict = {}

    np.testing.assert_allclose(visit_shares(Searched(), 3, 9)[[3, 5, 7]], [0.75, 0.25, 0.0])
    assert visit_shares(NotSearched(), 4, 9).tolist() == [0, 0, 0, 0, 1, 0, 0, 0, 0]


def test_visit_targets_need_a_search_teacher(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="root statistics"):
        generate(DataSettings("flowers", 1, visit_targets=True), tmp_path / "x",
                 show_progress=False)
    assert not (tmp_path / "x" / "manifest.json").exists()


def test_a_target_on_an_illegal_action_is_refused(visits: Path, tmp_path: Path) -> None:
    import shutil
    bad = tmp_path / "bad"
    shutil.copytree(visits, bad)
    shard = sorted((bad / "shards").glob("*.npz"))[0]
    with np.load(shard) as z:
        arrays = {k: z[k] for k in z.files}
    mask = np.unpackbits(arrays["mask"], axis=1, count=arrays["target"].shape[1]).astype(bool)
    arrays["target"][0, np.flatnonzero(~mask[0])[0]] = 0.5
    np.savez_compressed(shard, **arrays)
    with pytest.raises(DataError, match="soft targets"):
        load_data(bad)


TINY = BCConfig(hidden=[16], value_hidden=[8], epochs=2, batch_size=32, seed=0, threads=1)


@pytest.fixture
def bc() -> ModuleType:
    """The cloning module; its tests skip without the [train] extra (torch), the data
    tests above do not."""
    pytest.importorskip("torch")
    from formosa_envs.training.imitation import bc as module
    return module


def test_soft_cross_entropy_of_one_hot_targets_is_the_hard_one(visits: Path,
                                                               bc: ModuleType) -> None:
    import torch
    data = load_data(visits)
    net = bc.CloneNet(data.obs.shape[1], data.mask.shape[1], TINY)
    tensors = bc.Tensors(data)
    rows = torch.arange(len(data))
    hard = bc.losses(net, tensors.batch(rows)[:4])[0]
    soft = bc.losses(net, tensors.batch(rows))[0]
    assert not torch.allclose(hard, soft)  # the visit shares are not the argmax
    onehot = torch.nn.functional.one_hot(tensors.action, data.mask.shape[1]).float()
    same = bc.losses(net, (*tensors.batch(rows)[:4], onehot))[0]
    torch.testing.assert_close(same, hard)


def test_soft_and_hard_data_join_and_train(visits: Path, tmp_path: Path,
                                            bc: ModuleType) -> None:
    hard = tmp_path / "hard"
    generate(DataSettings("flowers", 3, seed=9), hard, workers=1, show_progress=False)
    joined = bc.load_datasets([visits, hard])
    first = len(load_data(visits))
    assert joined.target is not None and joined.target.shape == joined.mask.shape
    rest = joined.target[first:]
    assert (rest.max(axis=1) == 1).all()
    assert (rest.argmax(axis=1) == joined.action[first:]).all()
    report = bc.train_bc([visits, hard], tmp_path / "run", TINY, log=lambda *_: None)
    assert np.isfinite(report["best"]["held_ce"]) and (tmp_path / "run" / "best.npz").is_file()


def test_filter_script_keeps_play_decisions(visits: Path, tmp_path: Path, bc: ModuleType,
                                            script: Callable) -> None:
    script = script("filter_imitation")
    assert script.main([str(tmp_path / "play"), str(visits), "--actions", "0:54"]) == 0
    assert script.main([str(tmp_path / "hard"), str(visits), "--hard"]) == 0
    whole, play = load_data(visits), load_data(tmp_path / "play")
    hard = load_data(tmp_path / "hard")
    chosen = whole.mask[:, :54].any(axis=1) & (whole.mask.sum(axis=1) > 1)
    assert 0 < len(play) == int(chosen.sum()) < len(whole)
    np.testing.assert_array_equal(play.obs, whole.obs[chosen])
    np.testing.assert_array_equal(play.target, whole.target[chosen])
    assert hard.target is None and len(hard) == len(whole)
    for bad in (["--actions", "5:2"], ["--actions", "0:200"]):
        with pytest.raises(SystemExit):
            script.main([str(tmp_path / "x"), str(visits), *bad])
    with pytest.raises(SystemExit):
        script.main([str(tmp_path / "x"), str(tmp_path / "no_data")])
    with pytest.raises(SystemExit):  # the folder exists already
        script.main([str(tmp_path / "play"), str(visits)])
    assert not (tmp_path / "x").exists()


def test_the_distillation_config_loads() -> None:
    path = Path(__file__).resolve().parent.parent / "training" / "configs"
    config = load_bc_config(path / "flowers_4p_distill_bc.toml")
    assert config.learning_rate == 1e-4 and config.hidden == [256, 256]
