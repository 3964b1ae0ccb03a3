"""Level-3 golden games: seeded transcripts must replay to the same labels and scores.

Regenerate with ``make golden`` only after a deliberate rule change, and say so
in the commit message.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from formosa_envs.tools.record import record_random_game, replay_record

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def test_golden_files_exist() -> None:
    assert len(GOLDEN) >= 3


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_game_replays_exactly(path: Path) -> None:
    record = json.loads(path.read_text())
    labels, scores = replay_record(record)
    assert labels == [step[2] for step in record["steps"]]
    assert scores == record["scores"]


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_game_is_what_the_seed_produces_today(path: Path) -> None:
    record = json.loads(path.read_text())
    fresh = record_random_game(record["game"], record["num_players"], record["seed"],
                               **record["options"])
    assert fresh == record
