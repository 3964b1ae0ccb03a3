"""The networks shipped as ``pretrained`` (agents/pretrained.py, agents/pretrained/)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
import tomllib
from formosa_envs.agents import AgentSpecError, make_agent
from formosa_envs.agents.pretrained import (
    MANIFEST,
    PretrainedError,
    file_sha256,
    load_network,
    package_root,
    read_manifest,
)

from formosa_envs.core.engine import CHANCE
from formosa_envs.games import GAMES, make_game

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = Path(str(package_root()))


def player_counts(game: str) -> range:
    info = GAMES[game]
    return range(info.min_players, info.max_players + 1)


def play_whole_game(game: str, players: int, specs: list[str], seed: int) -> int:
    """Play one game with ``specs`` (in turn per seat); assert every move is legal."""
    engine = make_game(game, num_players=players)
    agents = [make_agent(specs[i % len(specs)], game, seed + i) for i in range(players)]
    rng = np.random.default_rng(seed)
    state = engine.new_initial_state()
    while not engine.is_terminal(state) and state.decisions < engine.max_game_length:
        seat = engine.current_player(state)
        if seat == CHANCE:
            engine.resolve_chance(state, rng)
            continue
        action = int(agents[seat].act_on_state(engine, state))
        assert action in engine.legal_actions(state), (game, players, action)
        engine.apply_action(state, action)
    return int(state.decisions)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_manifest_matches_shipped_files(game: str) -> None:
    entry = read_manifest()["games"][game]
    path = SHIPPED / entry["file"]
    assert file_sha256(path.read_bytes()) == entry["sha256"]
    assert path.stat().st_size == entry["bytes"] < 5_000_000  # Taiwan: 512x512, 4.1 MB
    assert entry["env_id"] == GAMES[game].env_id
    for n in player_counts(game):  # one network serves every player count
        built = make_game(game, num_players=n)
        assert (built.observation_size, built.num_actions) == \
            (entry["observation_size"], entry["num_actions"])
    trained = entry["trained_players"]  # one count, or the counts of a player_counts run
    trained = trained if isinstance(trained, list) else [trained]
    assert 2 in trained and set(trained) <= set(player_counts(game))
    assert entry["serves_players"] == list(player_counts(game))
    for opponent in ("vs_random", "vs_heuristic"):
        result = entry["evaluation"][opponent]
        low, high = result["win_rate_ci95"]
        assert result["games"] >= 200 and low <= result["win_rate"] <= high
    assert entry["float16"]["agreement_float16"] > 0
    net = load_network(game)
    assert net.layers[0][0].dtype == np.float32 and net.has_value  # upcast on load


def test_package_data_declares_the_shipped_files() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = config["tool"]["setuptools"]["package-data"]["formosa_envs.agents"]
    files = {p.name for p in SHIPPED.iterdir() if not p.name.startswith(".")}
    entries = read_manifest()["games"]
    parts = {f"{g}_afterstate.npz" for g, e in entries.items() if "afterstate" in e}
    parts |= {p["file"] for e in entries.values() for p in e.get("afterstate_at", {}).values()}
    parts |= {p["file"] for e in entries.values() for p in e.get("residual_at", {}).values()
              if "file" in p}  # a residual part with a network of its own
    assert files == {MANIFEST} | {f"{g}.npz" for g in GAMES} | parts
    assert all(any(Path("pretrained", f).match(g) for g in globs) for f in files)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_pretrained_plays_legal_whole_games_at_every_player_count(game: str) -> None:
    for n in player_counts(game):
        for seed in (0, 1):
            assert play_whole_game(game, n, ["pretrained", "random"], seed)


@pytest.mark.parametrize("game", ["flowers", "tea"])
def test_pretrained_with_search_plays_legally(game: str) -> None:
    agent = make_agent("pretrained:az:3", game, 0)
    assert agent.simulations == 3 and agent.network.has_value
    play_whole_game(game, 2, [f"pretrained:{game}:az:3", "random"], 0)


def test_explicit_game_must_be_the_game_played() -> None:
    assert make_agent("pretrained:flowers", "flowers", 0).name == "pretrained:flowers"
    with pytest.raises(AgentSpecError, match="Formosa Tea network, but this game is flowers"):
        make_agent("pretrained:tea", "flowers", 0)


@pytest.mark.parametrize("spec, message", [
    ("pretrained:chess", "'chess' is not a game"),
    ("pretrained:az:x", "positive integer"),
    ("pretrained:az:", "positive integer after 'az:'"),
    ("pretrained:flowers:uct", "expected pretrained"),
    ("pretrained:mcts:", "positive integer after 'mcts:'"),
    ("pretrained:mcts:0", "positive integer"),
    ("pretrained:mcts:9:9", "expected pretrained"),
    ("pretrained:az:3:4", "expected pretrained"),
])
def test_bad_specs_are_named(spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError, match=message):
        make_agent(spec, "flowers", 0)


@pytest.fixture
def copy_root(tmp_path: Path) -> Path:
    root = tmp_path / "pretrained"
    shutil.copytree(SHIPPED, root)
    return root


def edit_manifest(root: Path, game: str, **changes: object) -> None:
    path = root / MANIFEST
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest["games"][game].update(changes)
    path.write_text(json.dumps(manifest), encoding="utf-8")


def test_tea_ships_its_afterstate_agent_and_the_network_alone() -> None:
    """pretrained in Tea plays the shipped evaluator over the heuristic's candidates (the
    strongest shipped Tea player); pretrained:net the network; its manifest part records
    the final evaluation that the docs report."""
    from formosa_envs.agents.afterstate import AfterstateAgent
    from formosa_envs.agents.policy import PolicyAgent
    assert isinstance(make_agent("pretrained", "tea", 0), AfterstateAgent)
    assert isinstance(make_agent("pretrained:tea", "tea", 0), AfterstateAgent)
    assert isinstance(make_agent("pretrained:tea:net", "tea", 0), PolicyAgent)
    flowers = make_agent("pretrained", "flowers", 0)  # the network alone at 2 players
    assert isinstance(flowers.pick(2), PolicyAgent) and not flowers.pick(2).kinds
    assert isinstance(make_agent("pretrained:flowers:net", "flowers", 0), PolicyAgent)
    part = read_manifest()["games"]["tea"]["afterstate"]
    assert file_sha256((SHIPPED / part["file"]).read_bytes()) == part["sha256"]
    final = part["final_evaluation"]["vs_heuristic"]
    assert final["games"] == 400 and final["win_low"] > 0.5 and final["seed"] == 7_000_000
    assert play_whole_game("tea", 3, ["pretrained", "heuristic"], 5) > 0


def test_dadaocheng_ships_its_afterstate_agent_and_the_network_alone() -> None:
    """pretrained in Dadaocheng plays the shipped plan evaluator (it reads the next seat's
    reply; its manifest records the final evaluation the docs report: above the heuristic
    over 400 games, within twice its time per decision)."""
    from formosa_envs.agents.afterstate import AfterstateAgent
    from formosa_envs.agents.policy import PolicyAgent
    assert isinstance(make_agent("pretrained", "dadaocheng", 0), AfterstateAgent)
    assert isinstance(make_agent("pretrained:dadaocheng:net", "dadaocheng", 0), PolicyAgent)
    part = read_manifest()["games"]["dadaocheng"]["afterstate"]
    assert file_sha256((SHIPPED / part["file"]).read_bytes()) == part["sha256"]
    final = part["final_evaluation"]
    assert final["vs_heuristic"]["games"] == 400 and final["vs_heuristic"]["seed"] == 7_000_000
    assert final["vs_heuristic"]["win_low"] > 0.5 and final["timing"]["ratio"] <= 2.0
    assert make_agent("pretrained", "dadaocheng", 0).evaluator.info.reply
    assert play_whole_game("dadaocheng", 2, ["pretrained", "heuristic"], 5) > 0
    solo = read_manifest()["games"]["dadaocheng"]["afterstate_at"]["1"]  # trained on solo
    agent = make_agent("pretrained", "dadaocheng", 0)
    assert agent.evaluator_for(1).info.feature_size == solo["feature_size"]
    assert agent.evaluator_for(1) is not agent.evaluator_for(2)
    assert solo["config"]["num_players"] == 1 and solo["final_evaluation"]["solo"][
        "vs_heuristic_scores"]["games"] == 200
    paired = solo["final_evaluation"]["solo"]["vs_heuristic_scores"]
    assert paired["difference_ci95"][0] > 0 and solo["final_evaluation"]["solo"][
        "win_rate"] >= 0.5 and solo["final_evaluation"]["timing"]["ratio_to_control"] <= 2.0


def test_an_evaluator_part_for_a_seat_count_is_loaded_and_checked(copy_root: Path) -> None:
    """afterstate_at: a part per seat count, checked like the main part (sha256, key)."""
    from formosa_envs.agents.pretrained import build_pretrained
    part = dict(read_manifest(copy_root)["games"]["dadaocheng"]["afterstate"])
    edit_manifest(copy_root, "dadaocheng", afterstate_at={"1": part})
    agent = build_pretrained("pretrained", "", "dadaocheng", 0, root=copy_root)
    assert set(agent.by_players) == {1}
    for bad, message in (({"9": part}, "key '9'"), ({"one": part}, "key 'one'"),
                         ([part], "afterstate_at must map seat counts"),
                         ({"1": {**part, "sha256": "0" * 64}}, "does not match its manifest")):
        edit_manifest(copy_root, "dadaocheng", afterstate_at=bad)
        with pytest.raises(PretrainedError, match=message):
            build_pretrained("pretrained", "", "dadaocheng", 0, root=copy_root)


def test_a_tampered_evaluator_is_refused(copy_root: Path) -> None:
    from formosa_envs.agents.pretrained import build_pretrained
    path = copy_root / "tea_afterstate.npz"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(PretrainedError, match="does not match its manifest"):
        build_pretrained("pretrained", "", "tea", 0, root=copy_root)
    assert build_pretrained("pretrained:net", "net", "tea", 0, root=copy_root) is not None


def test_a_tampered_file_is_refused(copy_root: Path) -> None:
    path = copy_root / "flowers.npz"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(PretrainedError, match="does not match its manifest.*make_pretrained"):
        load_network("flowers", copy_root)
    assert load_network("tea", copy_root).has_value  # the other games still load


def test_a_missing_file_or_entry_or_manifest_is_refused(copy_root: Path) -> None:
    (copy_root / "tea.npz").unlink()
    with pytest.raises(PretrainedError, match="tea.npz is missing"):
        load_network("tea", copy_root)
    manifest = json.loads((copy_root / MANIFEST).read_text(encoding="utf-8"))
    del manifest["games"]["taiwan"]
    (copy_root / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(PretrainedError, match="no pretrained network for taiwan"):
        load_network("taiwan", copy_root)
    (copy_root / MANIFEST).unlink()
    with pytest.raises(PretrainedError, match="manifest.json is missing"):
        load_network("flowers", copy_root)


def test_a_stale_network_is_refused(copy_root: Path) -> None:
    size = read_manifest(copy_root)["games"]["dadaocheng"]["observation_size"]
    edit_manifest(copy_root, "dadaocheng", observation_size=size + 1)
    with pytest.raises(PretrainedError, match=f"stale.*observation_size {size + 1}"):
        load_network("dadaocheng", copy_root)
    edit_manifest(copy_root, "dadaocheng", observation_size=size, env_id="formosa/dadaocheng-v0")
    with pytest.raises(PretrainedError, match="stale.*env_id"):
        load_network("dadaocheng", copy_root)


def test_a_network_of_other_sizes_than_its_manifest_is_refused(copy_root: Path) -> None:
    shutil.copyfile(copy_root / "tea.npz", copy_root / "flowers.npz")  # right sha, wrong net
    edit_manifest(copy_root, "flowers", sha256=file_sha256((copy_root / "tea.npz").read_bytes()))
    with pytest.raises(PretrainedError, match="takes 979 values"):
        load_network("flowers", copy_root)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_simulate_command_plays_pretrained(game: str, capsys: pytest.CaptureFixture) -> None:
    from formosa_envs.cli import main
    assert main(["simulate", game, "--agents", "pretrained,random", "--games", "2"]) == 0


def load_script():  # scripts/ is not a package: load the file as a module
    import importlib.util
    spec = importlib.util.spec_from_file_location("make_pretrained",
                                                  ROOT / "scripts" / "make_pretrained.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_make_pretrained_tiny_run_ships_a_loadable_network_and_resumes(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    script = load_script()
    argv = ["--games", "flowers", "--data-games", "12", "--max-epochs", "1", "--eval-games",
            "2", "--work", str(tmp_path / "work"), "--out", str(tmp_path / "out")]
    assert script.cli(argv) == 0
    entry = read_manifest(tmp_path / "out")["games"]["flowers"]
    assert entry["data"]["games"] == 12 and entry["evaluation"]["vs_random"]["games"] == 2
    assert entry["evaluation"]["vs_heuristic"]["seed"] == script.EVAL_SEED
    assert len(entry["commit"]) == 40 or entry["commit"] == "unknown"
    play_whole_game("flowers", 2, ["random"], 0)  # sanity of the helper itself
    agent_net = load_network("flowers", tmp_path / "out")
    assert agent_net.input_size == entry["observation_size"]
    assert script.cli(argv) == 0  # resumed: every stage is read back, same file
    assert read_manifest(tmp_path / "out")["games"]["flowers"]["sha256"] == entry["sha256"]


def test_make_pretrained_bad_input_is_one_line(capsys: pytest.CaptureFixture) -> None:
    script = load_script()
    assert script.cli(["--games", "chess"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "--games must be a comma-separated list" in err


def test_residual_parts_make_the_heuristic_overruled_at_their_seat_counts(
        copy_root: Path) -> None:
    """residual_at: at those seat counts the network overrules the heuristic by a margin;
    elsewhere the network plays alone; a bad part is refused naming the key."""
    from formosa_envs.agents.pretrained import build_pretrained
    from formosa_envs.agents.residual import ResidualAgent
    edit_manifest(copy_root, "taiwan", residual_at={"5": {"margin": 1.5}})
    agent = build_pretrained("pretrained", "", "taiwan", 0, root=copy_root)
    assert isinstance(agent, ResidualAgent) and agent.at_players == {5: 1.5}
    net = build_pretrained("pretrained:net", "net", "taiwan", 0, root=copy_root)
    assert not isinstance(net, ResidualAgent)
    for players in (2, 5):
        engine = make_game("taiwan", num_players=players)
        rng, state = np.random.default_rng(3), engine.new_initial_state()
        while engine.current_player(state) == CHANCE or len(engine.legal_actions(state)) < 2:
            if engine.current_player(state) == CHANCE:
                engine.resolve_chance(state, rng)
            else:
                engine.apply_action(state, engine.legal_actions(state)[0])
        before = agent.choices
        move = agent.act_on_state(engine, state)
        assert (agent.choices > before) == (players == 5)
        if players == 2:  # the network alone
            assert move == net.act_on_state(engine, state)
    for bad, message in (({"5": {"margin": -1}}, "margin >= 0"),
                         ({"5": {}}, "margin >= 0"), ({"9": {"margin": 1}}, "key '9'"),
                         ([1], "residual_at must map seat counts")):
        edit_manifest(copy_root, "taiwan", residual_at=bad)
        with pytest.raises(PretrainedError, match=message):
            build_pretrained("pretrained", "", "taiwan", 0, root=copy_root)


def test_taiwan_ships_the_residual_agent_at_three_to_five_players() -> None:
    """The recorded evaluations of the shipped residual parts: above the fair share at the
    tournament seed, within the fair-compute limit; 2 players keep the network alone."""
    from formosa_envs.agents.residual import ResidualAgent
    parts = read_manifest()["games"]["taiwan"]["residual_at"]
    assert sorted(parts) == ["3", "4", "5"]
    for count, part in parts.items():
        n = int(count)
        final = part["final_evaluation"][0][f"fair_share_{n}p"]
        assert final["seed"] == 7_000_000 and final["games"] >= 600
        assert final["win_low"] > 1 / n
        assert part["timing"]["timing"]["ratio"] <= 2.0
    agent = make_agent("pretrained", "taiwan", 0)
    assert isinstance(agent, ResidualAgent) and agent.at_players == {3: 3.0, 4: 3.0, 5: 3.0}
    assert play_whole_game("taiwan", 5, ["pretrained", "heuristic"], 4) > 0


def test_flowers_at_four_players_ships_its_own_residual_network() -> None:
    """At 4 seats pretrained is the heuristic overruled by the JAX network of
    flowers_jax_4p_play_cash.toml at the cards played and the keep-or-cash choices."""
    from formosa_envs.agents.residual import ResidualAgent
    part = read_manifest()["games"]["flowers"]["residual_at"]["4"]
    assert file_sha256((SHIPPED / part["file"]).read_bytes()) == part["sha256"]
    assert set(part["kinds"]) == {"keep_or_cash", "play"} and part["margin"] == 0
    final = part["final_evaluation"][0]["fair_share_4p"]
    assert final["games"] == 1000 and final["seed"] == 7_000_000
    assert final["win_low"] > 0.25
    four = make_agent("pretrained", "flowers", 0).pick(4)
    assert isinstance(four, ResidualAgent) and four.margin == 0
    assert set(four.policy.kinds) == {"play", "keep_or_cash"}
