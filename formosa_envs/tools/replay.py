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
from .usage import check_output_file, make_folder

TEMPLATE = Path(__file__).with_name("replay_page.html")


def replay_frames(record: dict[str, Any], viewer: int | None = None) -> list[dict[str, Any]]:
    """One frame per player move (chance runs merged), plus the opening frame.

    Each frame: ``svg``, ``label`` (what led to it), ``player`` (-1 chance, None
    for the opening), ``step`` (the record's step index) and ``scores``. With a
    ``viewer``, the pictures and the labels show only what that seat saw (a deal
    into other hands is not narrated). Raises :class:`RecordError` when the
    record does not replay to its own final scores.
    """
    frames: list[dict[str, Any]] = []
    steps = record["steps"]
    pending: list[str] = []
    told: str | None = None  # how the next step is narrated, from the state before it
    for index, game, state in replay_states(record):
        if index >= 0:
            player = steps[index][0]
            if told is not None:
                pending.append(f"player {player}: {told}" if player >= 0 else f"chance: {told}")
            if player < 0 and index + 1 < len(steps) and steps[index + 1][0] < 0:
                told = _narrate(game, state, steps, index + 1, viewer)
                continue  # merge a run of chance steps into one frame
        frames.append(_frame(game, state, viewer, index, steps, pending))
        pending = []
        told = _narrate(game, state, steps, index + 1, viewer)
    check_final_scores(record, frames[-1]["scores"], game.is_terminal(state))
    return frames


def _narrate(game: Any, state: Any, steps: list[list[Any]], index: int,
             viewer: int | None) -> str | None:
    """The label of step ``index`` as ``viewer`` hears it (None: not narrated)."""
    if index >= len(steps):
        return None
    if viewer is None:
        return steps[index][2]
    return game.public_label(state, steps[index][1], viewer)


def _frame(game: Any, state: Any, viewer: int | None, index: int, steps: list[list[Any]],
           pending: list[str]) -> dict[str, Any]:
    if index < 0:
        label = "start of the game"
    else:
        label = "; ".join(pending) or "chance (not shown to this seat)"
    return {"svg": game.render_svg(state, viewer), "label": label,
            "player": None if index < 0 else steps[index][0], "step": index,
            "scores": [float(s) for s in game.scores(state)]}


def check_final_scores(record: dict[str, Any], scores: list[float], finished: bool) -> None:
    """Raise :class:`RecordError` unless the replay ends as the record says it does."""
    if [float(s) for s in record["scores"]] != [float(s) for s in scores]:
        raise RecordError(f"the record says the final scores are {record['scores']}, its "
                          f"steps lead to {scores}")
    if not finished and not record.get("truncated", False):
        raise RecordError("the record's steps stop before the game ends, and it is not "
                          "marked truncated")


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
    """Read a record file and write its replay page (default: beside it, ``.html``).

    The destination is checked (not a folder, writable) before the page is drawn.
    """
    record = load_record(record_path)
    if viewer is not None and not 0 <= viewer < record["num_players"]:
        raise RecordError(f"--viewer must be a seat 0..{record['num_players'] - 1}, "
                          f"got {viewer}")
    target = check_output_file(Path(out) if out else Path(record_path).with_suffix(".html"),
                               "--out")
    make_folder(target.parent, "--out")
    target.write_text(replay_html(record, viewer), encoding="utf-8")
    return target
