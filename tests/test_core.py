"""Unit tests of the shared core: action segments, observer pieces, data, serialisation."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from formosa_envs.core.actions import ActionSpace, Segment
from formosa_envs.core.config import build_config
from formosa_envs.core.data import load_rows
from formosa_envs.core.decisions import Decision
from formosa_envs.core.engine import rank_returns
from formosa_envs.core.errors import ConfigError, DataError, StateFormatError
from formosa_envs.core.observer import ObservationLayout, Piece, relative_seat, seat_order
from formosa_envs.core.serialize import state_from_dict, state_to_dict


def test_action_space_encode_decode_round_trip() -> None:
    space = ActionSpace([Segment("PLAY", 5), Segment("PASS", 1), Segment("TAKE", 3)])
    assert space.size == 9
    assert space.encode("PASS") == 5 and space.encode("TAKE", 2) == 8
    assert [space.encode(*space.decode(a)) for a in range(9)] == list(range(9))
    with pytest.raises(IndexError):
        space.encode("PLAY", 5)
    with pytest.raises(IndexError):
        space.decode(9)
    with pytest.raises(ConfigError):
        ActionSpace([Segment("A", 1), Segment("A", 2)])


def test_observation_layout_views_write_into_the_vector() -> None:
    layout = ObservationLayout([Piece("a", (3,)), Piece("b", (2, 4)), Piece("c", (1,))])
    assert layout.size == 12 and layout.offsets == {"a": 0, "b": 3, "c": 11}
    vec = layout.new_vector()
    layout.view(vec, "b")[1, 2] = 1.0
    assert vec[3 + 4 + 2] == 1.0 and vec.sum() == 1.0
    buf, views = layout.buffer()
    views["c"][0] = 7.0
    assert buf[11] == 7.0


def test_egocentric_seat_order() -> None:
    assert seat_order(2, 4) == [2, 3, 0, 1]
    assert [relative_seat(s, 2, 4) for s in seat_order(2, 4)] == [0, 1, 2, 3]


def test_rank_returns_are_zero_sum_and_share_ties() -> None:
    assert rank_returns([10, 3]) == [1.0, -1.0]
    assert rank_returns([5, 5]) == [0.0, 0.0]
    r = rank_returns([9, 9, 1])
    assert r == [0.5, 0.5, -1.0] and sum(r) == 0


@dataclass(frozen=True)
class Row:
    id: int
    cost: tuple[int, ...]
    source: str
    note: str = ""


def write(tmp_path, text: str):
    path = tmp_path / "rows.toml"
    path.write_text(text)
    return path


def test_data_loader_validates_rows(tmp_path) -> None:
    good = write(tmp_path, '[[row]]\nid = 1\ncost = [1, 2]\nsource = "placeholder"\n')
    assert load_rows(good, "row", Row) == [Row(1, (1, 2), "placeholder")]
    cases = {
        '[[row]]\nid = 1\ncost = [1]\n': "missing required key 'source'",
        '[[row]]\nid = 1\ncost = [1]\nsource = "guess"\n': "'source' must be one of",
        '[[row]]\nid = 1\ncost = [1]\nsource = "found"\ncolour = 2\n': "unknown key",
        '[[row]]\ncost = [1]\nsource = "found"\n': "missing required key 'id'",
        '[[row]]\nid = "x"\ncost = [1]\nsource = "found"\n': "expected int",
        '[[row]]\nid = 1\ncost = 3\nsource = "found"\n': "expected a list",
        'id = 1\n': "non-empty \\[\\[row\\]\\]",
        '[[row]\n': "not valid TOML",
    }
    for text, needle in cases.items():
        with pytest.raises(DataError, match=needle):
            load_rows(write(tmp_path, text), "row", Row)
    with pytest.raises(DataError, match="not found"):
        load_rows(tmp_path / "missing.toml", "row", Row)


@dataclass
class Toy:
    n: int
    cards: list[list[int]]
    flag: bool
    stack: list[Decision]


def test_serialize_round_trip_and_errors() -> None:
    toy = Toy(2, [[1, 2], []], True, [Decision("play", 0, ctx=(3,))])
    data = state_to_dict(toy)
    assert state_from_dict(Toy, data) == toy
    for field, bad in [("n", "2"), ("cards", [[1, "x"]]), ("flag", 1),
                       ("stack", [["play", 0, 1, False]])]:
        broken = dict(data, **{field: bad})
        with pytest.raises(StateFormatError, match=field):
            state_from_dict(Toy, broken)
    with pytest.raises(StateFormatError, match="missing"):
        state_from_dict(Toy, {"n": 1})


@dataclass(frozen=True)
class ToyConfig:
    num_players: int = 2
    speed: int = 1


def test_build_config_rejects_unknown_options() -> None:
    assert build_config(ToyConfig, "toy", speed=3).speed == 3
    with pytest.raises(ConfigError, match="unknown option.*'sped'.*valid options"):
        build_config(ToyConfig, "toy", sped=3)


def test_decision_is_immutable_and_serialisable() -> None:
    d = Decision("capture", 1, ctx=(4, 5))
    assert Decision.from_list(d.to_list()) == d
    with pytest.raises(AttributeError):
        d.player = 2  # type: ignore[misc]
    assert np.array_equal(np.array(d.ctx), [4, 5])


def test_copy_state_copies_nested_lists_at_every_level() -> None:
    from dataclasses import dataclass

    from formosa_envs.core.serialize import copy_state

    @dataclass(slots=True)
    class Deep:
        grid: list[list[list[int]]]
        flat: list[int]
        name: str

    a = Deep([[[1, 2], [3]], [[4]]], [5, 6], "x")
    b = copy_state(a)
    b.grid[0][0][0] = 9
    b.grid[1].append([7])
    b.flat[0] = 0
    assert a == Deep([[[1, 2], [3]], [[4]]], [5, 6], "x") and b.name == "x"
