"""Render modes of the envs: ``svg`` and ``rgb_array`` for every game and player count,
nothing drawn unless asked, and pictures as Picture objects (PNG, arrays, Jupyter)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from formosa_envs.core.errors import ConfigError, FormosaError
from formosa_envs.envs.aec import FormosaAECEnv
from formosa_envs.envs.single_agent import SingleAgentEnv
from formosa_envs.games import make_game
from formosa_envs.tools.picture import Picture, picture


def _play(env: FormosaAECEnv, moves: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if any(env.terminations.values()) or any(env.truncations.values()):
            return
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))


def test_svg_and_rgb_array(game_name: str, num_players: int) -> None:
    svg_env = FormosaAECEnv(game_name, render_mode="svg", num_players=num_players)
    rgb_env = FormosaAECEnv(game_name, render_mode="rgb_array", num_players=num_players)
    for env in (svg_env, rgb_env):
        env.reset(seed=3)
        _play(env, 15, seed=4)
    svg = svg_env.render()
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    image = rgb_env.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    assert image.shape[:2] == (round(float(root.get("height"))), round(float(root.get("width"))))
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 8  # not a blank frame


def test_nothing_is_drawn_unless_render_is_called(monkeypatch: pytest.MonkeyPatch) -> None:
    env = FormosaAECEnv("tea", render_mode="rgb_array", num_players=3)
    game = type(env.game)
    def fail(*args: object, **kwargs: object) -> str:
        raise AssertionError("drew a picture during play")
    monkeypatch.setattr(game, "render_svg", fail)
    env.reset(seed=1)
    _play(env, 50, seed=2)
    with pytest.raises(AssertionError, match="drew a picture"):
        env.render()


def test_modes_are_checked_and_text_modes_unchanged() -> None:
    with pytest.raises(ConfigError, match="render_mode must be one of"):
        FormosaAECEnv("flowers", render_mode="png")
    with pytest.raises(ConfigError, match="render_mode must be one of"):
        SingleAgentEnv("flowers", render_mode="human")
    env = FormosaAECEnv("flowers", render_mode="ansi")
    env.reset(seed=0)
    assert env.render() == env.game.render(env.engine_state)
    assert "rgb_array" in env.metadata["render_modes"] and env.metadata["render_fps"] > 0


def test_single_agent_env_draws_the_learners_view() -> None:
    env = SingleAgentEnv("flowers", render_mode="svg", num_players=2)
    env.reset(seed=5)
    assert env.render() == env.game.render_svg(env.state, env.seat)
    env = SingleAgentEnv("dadaocheng", render_mode="rgb_array", num_players=2)
    env.reset(seed=5)
    assert env.render().shape[2] == 3


def test_picture_object(tmp_path: Path) -> None:
    game = make_game("taiwan", num_players=4)
    rng = np.random.default_rng(0)
    state = game.new_initial_state()
    game.resolve_chance(state, rng)
    pic = picture(game, state, viewer=1)
    assert pic._repr_svg_() == game.render_svg(state, 1)
    png = pic.save(tmp_path / "t.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert pic.save(tmp_path / "t.svg").read_text().startswith("<svg")
    assert pic.to_array(scale=2.0).shape[0] == 2 * pic.to_array().shape[0]
    with pytest.raises(FormosaError, match="as .svg or .png"):
        pic.save(tmp_path / "t.gif")
    with pytest.raises(FormosaError, match="scale must be positive"):
        Picture(pic.svg).to_png(scale=0)


def test_gymnasium_frame_collection_works_with_rgb_array() -> None:
    """gymnasium's render wrappers (what video recorders build on) take our frames."""
    from gymnasium.wrappers import RenderCollection
    env = RenderCollection(SingleAgentEnv("flowers", render_mode="rgb_array", num_players=2))
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(3):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
    frames = env.render()
    assert len(frames) == 4 and all(f.dtype == np.uint8 and f.shape[2] == 3 for f in frames)


def test_render_before_reset_is_a_clear_error() -> None:
    for env in (FormosaAECEnv("tea", render_mode="svg"),
                SingleAgentEnv("tea", render_mode="rgb_array")):
        with pytest.raises(FormosaError, match="render\\(\\) before reset\\(\\)"):
            env.render()
