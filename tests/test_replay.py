"""``formosa replay``: the page's frames, its self-containment and its errors (the page
in a real browser: tests/test_replay_browser.py)."""

from __future__ import annotations

import base64
import gzip
import json
import re
from pathlib import Path

import pytest
from formosa_envs.agents import make_agent

from formosa_envs.cli import main as formosa
from formosa_envs.tools.record import RecordError, record_game, replay_record, save_record
from formosa_envs.tools.replay import replay_frames, replay_html, write_replay


def _record(game: str = "dadaocheng", players: int = 2, seed: int = 2) -> dict:
    agents = [make_agent("random", game, seed=seed + p) for p in range(players)]
    return record_game(game, agents, seed, names=["random"] * players)


def test_frames_one_per_move_chance_runs_merged() -> None:
    record = _record()
    frames = replay_frames(record)
    steps = record["steps"]
    moves = sum(1 for p, _, _ in steps if p >= 0)
    chance_runs = sum(1 for i, (p, _, _) in enumerate(steps)
                      if p < 0 and (i + 1 == len(steps) or steps[i + 1][0] >= 0))
    assert len(frames) == 1 + moves + chance_runs
    assert frames[0]["label"] == "start of the game" and frames[0]["step"] == -1
    assert frames[-1]["scores"] == record["scores"]
    assert all(f["svg"].startswith("<svg") for f in frames)
    deal = next(f for f in frames if f["player"] == -1)
    assert deal["label"].count("chance:") > 1  # the 16-disc setup is one frame


def test_page_is_self_contained_and_carries_the_frames() -> None:
    record = _record("taiwan", 3, seed=5)
    page = replay_html(record)
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "<link" not in page and "@import" not in page
    packed = re.search(r'const PACKED = "([A-Za-z0-9+/=]+)"', page).group(1)
    frames = json.loads(gzip.decompress(base64.b64decode(packed)))
    assert frames == json.loads(json.dumps(replay_frames(record)))
    meta = json.loads(re.search(r'<script id="meta" type="application/json">(.*?)</script>',
                                page, re.S).group(1))
    assert meta["final_scores"] == record["scores"] and meta["frames"] == len(frames)


def test_viewer_hides_what_the_seat_cannot_see() -> None:
    record = _record("flowers", 2, seed=4)
    spectator, seat = replay_frames(record), replay_frames(record, viewer=0)
    assert seat[5]["svg"] != spectator[5]["svg"] and "card-back" in seat[5]["svg"]
    deals = sum(1 for p, _, label in record["steps"] if p < 0 and "deal" in label)
    assert deals > 10 and sum(f["label"].count("deal") for f in spectator) == deals
    # the seat hears no deal: the dealt cards (other hands included) are not named
    assert not any("deal" in f["label"] for f in seat)
    assert [f["scores"] for f in seat] == [f["scores"] for f in spectator]


def test_a_record_that_lies_about_its_end_is_refused() -> None:
    record = _record("tea", 2, seed=3)
    cut = {**record, "steps": record["steps"][:40]}
    with pytest.raises(RecordError, match="its steps lead to"):
        replay_frames(cut)
    with pytest.raises(RecordError, match="stop before the game ends"):
        replay_frames({**cut, "scores": replay_record(cut)[1]})
    assert replay_frames({**cut, "scores": replay_record(cut)[1], "truncated": True})


def test_cli_replay_and_its_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = save_record(_record("tea", 2, seed=1), tmp_path / "tea.json")
    assert formosa(["replay", str(path)]) == 0
    assert (tmp_path / "tea.html").stat().st_size > 1000
    assert formosa(["replay", str(path), "--out", str(tmp_path / "x" / "p.html"),
                    "--viewer", "1"]) == 0
    assert (tmp_path / "x" / "p.html").exists()
    capsys.readouterr()
    assert formosa(["replay", str(path), "--viewer", "5"]) == 2
    assert "--viewer must be a seat 0..1" in capsys.readouterr().err
    (tmp_path / "bad.json").write_text("{}")
    assert formosa(["replay", str(tmp_path / "bad.json")]) == 2
    assert "field 'game' must be a str" in capsys.readouterr().err
    with pytest.raises(RecordError, match="not found"):
        write_replay(tmp_path / "none.json")
