"""``formosa replay FILE``: a game record as one self-contained HTML page.

The page holds a picture of the table before the game and after every move
(a run of chance steps, such as a deal, makes one frame), the move's label, the
scores so far and, at the end, the final scores. Buttons and keys step through
it: Left/Right (previous/next), Home/End (first/last), Space (play/pause), or
the slider. Frames are gzip-compressed and base64-embedded; the page unpacks
them with the browser's ``DecompressionStream``, so it needs no network and no
other file.
"""

from __future__ import annotations

import base64
import gzip
import html
import json
from pathlib import Path
from typing import Any

from .record import RecordError, load_record, replay_states

TEMPLATE = Path(__file__).with_name("replay_page.html")


def replay_frames(record: dict[str, Any], viewer: int | None = None) -> list[dict[str, Any]]:
    """One frame per player move (chance runs merged), plus the opening frame.

    Each frame: ``svg``, ``label`` (what led to it), ``player`` (-1 chance, None
    for the opening), ``step`` (the record's step index) and ``scores``.
    """
    frames: list[dict[str, Any]] = []
    steps = record["steps"]
    pending: list[str] = []
    for index, game, state in replay_states(record):
        if index >= 0:
            player, _action, label = steps[index]
            pending.append(f"player {player}: {label}" if player >= 0 else f"chance: {label}")
            next_is_chance = index + 1 < len(steps) and steps[index + 1][0] < 0
            if player < 0 and next_is_chance:
                continue  # merge a run of chance steps into one frame
        frames.append({"svg": game.render_svg(state, viewer),
                       "label": "; ".join(pending) if pending else "start of the game",
                       "player": None if index < 0 else steps[index][0], "step": index,
                       "scores": [float(s) for s in game.scores(state)]})
        pending = []
    return frames


def replay_html(record: dict[str, Any], viewer: int | None = None,
                title: str | None = None) -> str:
    """The HTML page of a record (see the module docstring)."""
    frames = replay_frames(record, viewer)
    packed = base64.b64encode(gzip.compress(json.dumps(frames).encode("utf-8"), 6))
    meta = {"game": record["game"], "num_players": record["num_players"],
            "seed": record.get("seed"), "agents": record.get("agents", []),
            "final_scores": [float(s) for s in record["scores"]],
            "truncated": bool(record.get("truncated", False)), "frames": len(frames),
            "viewer": viewer}
    heading = title or (f"{record['game']} - {record['num_players']} players - "
                        f"seed {record.get('seed')}")
    page = TEMPLATE.read_text(encoding="utf-8")
    return (page.replace("__TITLE__", html.escape(heading))
            .replace("__META__", json.dumps(meta).replace("</", "<\\/"))
            .replace("__FRAMES__", packed.decode("ascii")))


def write_replay(record_path: str | Path, out: str | Path | None = None,
                 viewer: int | None = None) -> Path:
    """Read a record file and write its replay page (default: beside it, ``.html``)."""
    record = load_record(record_path)
    if viewer is not None and not 0 <= viewer < record["num_players"]:
        raise RecordError(f"--viewer must be a seat 0..{record['num_players'] - 1}, "
                          f"got {viewer}")
    target = Path(out) if out else Path(record_path).with_suffix(".html")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(replay_html(record, viewer), encoding="utf-8")
    return target
