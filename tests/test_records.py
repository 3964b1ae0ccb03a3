"""Game records: recording changes nothing, files round-trip, bad files are named,
and the CLI's --record options write records that replay to the same scores."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from formosa_envs.agents import make_agent

from formosa_envs.cli import main as formosa
from formosa_envs.games import make_game
from formosa_envs.tools.record import (
    RecordError,
    load_record,
    record_game,
    replay_record,
    save_record,
)
from formosa_envs.tools.simulate import play_game


def test_recording_plays_the_same_game(game_name: str, num_players: int) -> None:
    """Step-wise chance (recorded) and resolve_chance (unrecorded) draw the same game."""
    game = make_game(game_name, num_players=num_players)
    for seed in (1, 2):
        agents = [make_agent("random", game_name, seed=10 * seed + p)
                  for p in range(num_players)]
        plain = play_game(game, agents, seed)
        agents = [make_agent("random", game_name, seed=10 * seed + p)
                  for p in range(num_players)]
        steps: list[list] = []
        recorded = play_game(game, agents, seed, steps=steps)
        assert (recorded.scores, recorded.decisions) == (plain.scores, plain.decisions)
        assert sum(1 for p, _, _ in steps if p >= 0) == plain.decisions


def test_record_round_trip(tmp_path: Path) -> None:
    agents = [make_agent("heuristic", "tea", seed=1), make_agent("random", "tea", seed=2)]
    record = record_game("tea", agents, seed=5, names=["heuristic", "random"])
    path = save_record(record, tmp_path / "sub" / "game.json")
    loaded = load_record(path)
    assert loaded == json.loads(json.dumps(record))
    labels, scores = replay_record(loaded)
    assert scores == record["scores"] and len(labels) == len(record["steps"])
    assert loaded["agents"] == ["heuristic", "random"] and loaded["format"]


@pytest.mark.parametrize(("content", "message"), [
    ("{not json", "is not a JSON game record"),
    ("[1, 2]", "is a JSON object"),
    ('{"format": "other"}', "not a formosa-game-record"),
    ('{"game": "tea", "num_players": "2", "options": {}, "steps": [], "scores": []}',
     "'num_players' must be a int"),
    ('{"game": "chess", "num_players": 2, "options": {}, "steps": [], "scores": []}',
     "unknown game 'chess'"),
    ('{"game": "tea", "num_players": 2, "options": {}, "steps": [[0, 1]], "scores": [0, 0]}',
     "step 0 must be \\[player, action, label\\]"),
    ('{"game": "tea", "num_players": 2, "options": {}, "steps": [], "scores": ["a", 1]}',
     "'scores' must hold 2 numbers"),
    ('{"game": "tea", "num_players": 2, "options": {}, "steps": [], "scores": [1]}',
     "'scores' must hold 2 numbers"),
    ('{"game": "tea", "num_players": 2, "options": {}, "steps": [], "scores": [1, 2], '
     '"agents": "xx"}', "'agents' must be a list"),
    ('{"game": "tea", "num_players": 2, "options": {}, "steps": [], "scores": [1, 2], '
     '"truncated": "no"}', "'truncated' must be true or false"),
    ('{"game": "tea", "num_players": 2, "options": {}, "steps": [], "scores": [1, 2], '
     '"seed": "7"}', "'seed' must be an integer"),
])
def test_corrupt_records_are_named(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(RecordError, match=message):
        load_record(path)


def test_a_record_that_does_not_replay_names_the_step(tmp_path: Path) -> None:
    record = record_game("flowers", [make_agent("random", "flowers", seed=s) for s in (1, 2)],
                         seed=3)
    player_steps = [i for i, (p, _, _) in enumerate(record["steps"]) if p >= 0]
    k = player_steps[2]
    record["steps"][k][1] = 10_000
    with pytest.raises(RecordError, match=f"step {k} \\(10000\\) does not replay"):
        replay_record(record)
    record["steps"][k][0] = 1 - record["steps"][k][0]
    with pytest.raises(RecordError, match=f"step {k} expects player"):
        replay_record(record)
    with pytest.raises(RecordError, match="not found"):
        load_record(tmp_path / "missing.json")


def _replays_to_its_scores(path: Path) -> dict:
    record = load_record(path)
    assert replay_record(record)[1] == record["scores"]
    return record


def test_cli_simulate_play_and_tournament_record(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert formosa(["simulate", "dadaocheng", "--players", "2", "--games", "3",
                    "--agents", "heuristic,random", "--record", str(tmp_path / "sim"),
                    "--quiet"]) == 0
    files = sorted((tmp_path / "sim").glob("game_*.json"))
    assert len(files) == 3
    assert _replays_to_its_scores(files[0])["agents"] == ["heuristic", "random"]

    assert formosa(["play", "flowers", "--seats", "random,heuristic", "--seed", "4",
                    "--record", str(tmp_path / "play.json")]) == 0
    assert _replays_to_its_scores(tmp_path / "play.json")["seed"] == 4

    assert formosa(["tournament", "taiwan", "--agents", "random,heuristic", "--games", "2",
                    "--record", str(tmp_path / "tour"), "--quiet"]) == 0
    assert "wrote 2 game records" in capsys.readouterr().out
    tour = json.loads((tmp_path / "tour" / "game_00000.json").read_text())
    assert _replays_to_its_scores(tmp_path / "tour" / "game_00000.json") == tour


def test_record_folder_with_records_is_refused(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "flowers", "--games", "2", "--record", str(tmp_path / "r"), "--quiet"]
    assert formosa(args) == 0
    assert formosa(args) == 2
    assert "already holds game records" in capsys.readouterr().err
    assert formosa(["tournament", "flowers", "--agents", "random,heuristic", "--games", "2",
                    "--record", str(tmp_path / "r"), "--quiet"]) == 2
    assert "already holds game records" in capsys.readouterr().err
