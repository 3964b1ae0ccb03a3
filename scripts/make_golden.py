"""Regenerate the golden game transcripts in tests/golden/ (run after a deliberate rule change)."""

from __future__ import annotations

import json
from pathlib import Path

from formosa_envs.tools.record import record_random_game

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden"
CASES = [("flowers", 2, 0, {}), ("flowers", 3, 1, {}), ("flowers", 4, 2, {"current_month": 7}),
         ("taiwan", 2, 3, {}), ("taiwan", 4, 4, {}), ("tea", 2, 5, {}),
         ("tea", 3, 6, {"advanced": True}), ("dadaocheng", 1, 7, {}), ("dadaocheng", 3, 8, {})]


def main() -> None:
    """Write one JSON transcript per case."""
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for game, players, seed, options in CASES:
        record = record_random_game(game, players, seed, **options)
        path = GOLDEN / f"{game}_{players}p_seed{seed}.json"
        path.write_text(json.dumps(record, indent=0) + "\n")
        print(f"wrote {path.name}: {len(record['steps'])} steps, scores {record['scores']}")


if __name__ == "__main__":
    main()
