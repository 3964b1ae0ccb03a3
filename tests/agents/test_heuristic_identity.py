"""The Dadaocheng and Tea heuristics still choose exactly the recorded moves.

``data/heuristic_transcripts.json`` holds whole games recorded before the heuristics were
made faster (fixed seeds, heuristic self-play and heuristic against random, 1-4 players,
the solo challenges); replaying them must give the same action at every step, so a speed-up
that changes a single decision fails here.

The Dadaocheng games were re-recorded for ``formosa/dadaocheng-v2`` (a swap names its lower
cell first). Before that, the heuristic-only games were replayed against the old recording:
identical once the forced second cell after ``SWAP[14]`` (no longer a decision) is removed,
except the 4-player game from step 1,100, where the heuristic re-plans a swap among fewer
candidate pairs. The games with a random seat were recorded anew (its legal sets changed).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.agents.heuristic_transcripts import CASES, DATA, play_transcript

RECORDED: list[dict[str, Any]] = json.loads(DATA.read_text())


def _name(row: dict[str, Any]) -> str:
    options = "-".join(str(v) for v in row["options"].values())
    return f"{row['game']}-{options}-{'/'.join(row['seats'])}-{row['seed']}"


def test_the_recording_covers_every_case() -> None:
    """The data file holds exactly the cases the recorder defines (none lost or stale)."""
    assert [{k: v for k, v in row.items() if k != "actions"} for row in RECORDED] == CASES


@pytest.mark.parametrize("row", RECORDED, ids=_name)
def test_heuristic_replays_the_recorded_actions(row: dict[str, Any]) -> None:
    """Same seeds, same agents: the same action at every step, up to the recorded length."""
    actions = play_transcript(row, limit=len(row["actions"]))
    first = next((i for i, (a, b) in enumerate(zip(actions, row["actions"], strict=False))
                  if a != b), None)
    assert first is None and len(actions) == len(row["actions"]), (
        f"diverges at step {first}: got {actions[first:first + 5] if first is not None else []}"
        f", recorded {row['actions'][first:first + 5] if first is not None else []}")
