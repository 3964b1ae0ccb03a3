"""Game options: type, range and combination with the player count.

The issue's examples first, then a systematic battery over every declared option of every
game (from ``core.config.option_specs``): wrong types and values just outside the range are
refused with a ``ConfigError`` naming the option and what is allowed, before any data file
is read; the bounds themselves and the defaults are accepted; docs/data-files.md lists
every option with its allowed values.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from formosa_envs.core.config import Option, option_specs
from formosa_envs.core.errors import ConfigError
from formosa_envs.games import make_game
from formosa_envs.games.dadaocheng.config import DadaochengConfig
from formosa_envs.games.flowers.config import FlowersConfig
from formosa_envs.games.taiwan.config import TaiwanConfig
from formosa_envs.games.tea.config import TeaConfig

DOCS = Path(__file__).parent.parent / "docs" / "data-files.md"
CONFIGS: dict[str, type] = {"flowers": FlowersConfig, "taiwan": TaiwanConfig,
                            "tea": TeaConfig, "dadaocheng": DadaochengConfig}
PLAYERS = {"flowers": (2, 4), "taiwan": (2, 5), "tea": (2, 4), "dadaocheng": (1, 4)}


@pytest.mark.parametrize(("game", "options", "needle"), [
    ("flowers", {"target_vp": 10**9}, "target_vp=1000000000 .*from 1 to 120"),
    ("flowers", {"target_vp": 0}, "target_vp"),
    ("tea", {"merchant_cards": 28.0}, "merchant_cards=28.0 .*one of 28, 24"),
    ("tea", {"merchant_cards": True}, "merchant_cards=True"),
    ("tea", {"merchant_cards": 27}, "merchant_cards=27"),
    ("dadaocheng", {"num_players": 1, "solo_target": -1}, "solo_target=-1"),
    ("dadaocheng", {"num_players": 1, "solo_target": 0}, "solo_target=0"),
    ("dadaocheng", {"num_players": 1, "solo_target": 10**6}, "solo_target=1000000"),
    ("dadaocheng", {"num_players": 2, "solo_challenge": "ships"},
     "solo_challenge='ships' .*only allowed with 1 player.*num_players=2"),
    ("dadaocheng", {"num_players": 3, "two_player_sides": "adjacent"},
     "two_player_sides='adjacent' .*only allowed with 2 player.*num_players=3"),
    ("dadaocheng", {"num_players": 2, "solo_target": 60}, "solo_target=60 .*only allowed with 1"),
    ("flowers", {"current_month": 13}, "current_month=13 .*from 1 to 12 or None"),
    ("flowers", {"card_file": ""}, "card_file='' .*path"),
    ("taiwan", {"building_file": 5}, "building_file=5"),
])
def test_the_issues_examples_are_refused(game: str, options: dict[str, Any],
                                         needle: str) -> None:
    with pytest.raises(ConfigError, match=needle):
        make_game(game, **options)


def test_options_are_checked_before_any_data_file_is_read(tmp_path: Path) -> None:
    """A bad option wins over a bad file: nothing is loaded or built first."""
    missing = str(tmp_path / "missing.toml")
    with pytest.raises(ConfigError, match="merchant_cards"):
        make_game("tea", merchant_cards=28.0, merchant_file=missing)
    with pytest.raises(ConfigError, match="target_vp"):
        make_game("flowers", target_vp=10**9, card_file=missing)


def test_valid_combinations_are_accepted() -> None:
    assert make_game("dadaocheng", num_players=1, solo_target=70,
                     solo_challenge="ships").config.solo_target == 70
    assert make_game("dadaocheng", num_players=2, two_player_sides="adjacent").sides == (0, 1)
    assert make_game("dadaocheng", num_players=1, chronological_events=True).solo
    assert make_game("tea", merchant_cards=24).config.merchant_cards == 24
    assert make_game("flowers", target_vp=120).config.target_vp == 120


def _wrong(spec: Option) -> list[Any]:
    """Values of the wrong type or outside the range for ``spec``."""
    bad: list[Any] = [[], {}, 1.5, object()]
    if spec.kind == "int":
        bad += ["3", True, float(spec.lo), spec.lo - 1, spec.hi + 1, 10**9, -(10**9)]
    elif spec.kind == "bool":
        bad += [0, 1, "yes", "True"]
    elif spec.kind == "choice":
        bad += ["nope", *(str(c) for c in spec.choices if not isinstance(c, str)),
                *(float(c) for c in spec.choices if isinstance(c, int)),
                *(c.upper() for c in spec.choices if isinstance(c, str))]
    else:
        bad += [3, "", "   ", b"file.toml", Path("x.toml")]
    if not spec.none_ok:
        bad.append(None)
    return bad


def _battery() -> list[tuple[str, str, Option]]:
    return [(game, name, spec) for game, cls in CONFIGS.items()
            for name, spec in option_specs(cls).items()]


def _players_for(game: str, spec: Option) -> int:
    return spec.players[0] if spec.players else PLAYERS[game][0]


@pytest.mark.parametrize(("game", "name", "spec"), _battery(),
                         ids=[f"{g}-{n}" for g, n, _ in _battery()])
def test_every_option_refuses_bad_types_and_ranges(game: str, name: str, spec: Option) -> None:
    cls = CONFIGS[game]
    base = {} if name == "num_players" else {"num_players": _players_for(game, spec)}
    for value in _wrong(spec):
        with pytest.raises(ConfigError, match=name):
            cls(**{**base, name: value})


@pytest.mark.parametrize(("game", "name", "spec"), _battery(),
                         ids=[f"{g}-{n}" for g, n, _ in _battery()])
def test_every_option_accepts_its_bounds_and_default(game: str, name: str, spec: Option) -> None:
    cls = CONFIGS[game]
    base = {} if name == "num_players" else {"num_players": _players_for(game, spec)}
    good: list[Any] = {"int": [spec.lo, spec.hi], "bool": [True, False],
                       "choice": list(spec.choices), "path": ["some/file.toml"]}[spec.kind]
    for value in [*good, *([None] if spec.none_ok else [])]:
        assert getattr(cls(**{**base, name: value}), name) == value
    assert cls(**base) is not None


@pytest.mark.parametrize(("game", "name", "spec"),
                         [case for case in _battery() if case[2].players])
def test_player_bound_options_refuse_other_player_counts(game: str, name: str,
                                                         spec: Option) -> None:
    cls = CONFIGS[game]
    default = {f.name: f.default for f in dataclasses.fields(cls)}[name]
    other = next(v for v in (spec.choices or (spec.lo, spec.hi)) if v != default)
    lo, hi = PLAYERS[game]
    for n in range(lo, hi + 1):
        if n in spec.players:
            assert getattr(cls(num_players=n, **{name: other}), name) == other
            continue
        with pytest.raises(ConfigError, match=f"{name}=.*only allowed"):
            cls(num_players=n, **{name: other})
        assert getattr(cls(num_players=n, **{name: default}), name) == default


def test_num_players_refuses_floats_and_bools() -> None:
    for game in CONFIGS:
        for bad in (2.0, True, "2", 0, 9):
            with pytest.raises(ConfigError, match="num_players|players"):
                make_game(game, num_players=bad)


def test_docs_list_every_option_with_its_allowed_values() -> None:
    docs = DOCS.read_text(encoding="utf-8")
    for game, cls in CONFIGS.items():
        defaults = {f.name: f.default for f in dataclasses.fields(cls)}
        for name, spec in option_specs(cls).items():
            row = f"| {game} | `{name}` | `{defaults[name]!r}` | {spec.allowed()} |"
            assert row in docs, row


def test_numpy_integers_and_booleans_are_plain_options() -> None:
    """A sweep driven by numpy values: np.int64 / np.bool_ options act as int / bool (they
    were refused as "must be an integer"), and the config holds plain Python values."""
    import numpy as np
    game = make_game("tea", num_players=np.int64(3), merchant_cards=np.int64(24),
                     advanced=np.bool_(True))
    assert game.config.num_players == 3 and type(game.config.num_players) is int
    assert game.config.merchant_cards == 24 and game.config.advanced is True
    flowers = make_game("flowers", num_players=np.int8(2), current_month=np.int16(5))
    assert type(flowers.config.current_month) is int
    with pytest.raises(ConfigError, match="must be an integer from 1 to 120"):
        make_game("flowers", target_vp=np.int64(10**9))


@pytest.mark.parametrize("name", [["flowers"], None, 3, "Flowers"])
def test_a_game_name_that_is_not_a_known_string(name: Any) -> None:
    """make_game(['x']) raised TypeError (unhashable); every bad name is a ConfigError."""
    with pytest.raises(ConfigError, match="unknown game"):
        make_game(name)
