"""Taiwan Formosa content data: defaults, rulebook values, validation and economy."""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from formosa_envs.core.errors import DataError
from formosa_envs.games.taiwan.cards import (
    BUILDING_KEYS,
    BUILDING_KINDS,
    KINDS,
    REGIONS,
    RESOURCES,
    BuildingType,
    Landmark,
    load_buildings,
    load_landmarks,
)

BUILDINGS = load_buildings()
LANDMARKS = load_landmarks()
BY_KEY = {b.key: b for b in BUILDINGS}
BY_NAME = {lm.name: lm for lm in LANDMARKS}
RULEBOOK_ROWS = {"train_station", "Sansiantai"}
_counter = itertools.count()


# --- helpers ---------------------------------------------------------------------------

def _rows(rows: tuple[Any, ...]) -> list[dict[str, Any]]:
    return [dataclasses.asdict(row) for row in rows]


def _dump(table: str, rows: list[dict[str, Any]]) -> str:
    lines: list[str] = []
    for row in rows:
        lines.append(f"[[{table}]]")
        lines += [f"{key} = {json.dumps(value)}" for key, value in row.items()]
        lines.append("")
    return "\n".join(lines)


def _write(tmp_path: Path, table: str, rows: list[dict[str, Any]]) -> Path:
    # a fresh name each time: the loaders are cached by path
    path = tmp_path / f"{table}_{next(_counter)}.toml"
    path.write_text(_dump(table, rows), encoding="utf-8")
    return path


def _cost_units(card: BuildingType | Landmark) -> float:
    """Outlay in cost units: the purchase worker + resources + coins / 9."""
    return 1 + sum(card.resource_cost) + card.coins / 9


# --- defaults and rulebook values ------------------------------------------------------

def test_defaults_load_and_are_cached() -> None:
    assert len(BUILDINGS) == 18 and len(LANDMARKS) == 16
    assert all(isinstance(b, BuildingType) for b in BUILDINGS)
    assert all(isinstance(lm, Landmark) for lm in LANDMARKS)
    assert load_buildings() is BUILDINGS and load_landmarks() is LANDMARKS
    with pytest.raises(dataclasses.FrozenInstanceError):
        BUILDINGS[0].vp = 9  # type: ignore[misc]


def test_building_keys_ids_and_kinds() -> None:
    assert tuple(b.key for b in BUILDINGS) == BUILDING_KEYS
    assert [b.id for b in BUILDINGS] == list(range(18))
    assert all(b.kind == BUILDING_KINDS[b.key] for b in BUILDINGS)
    assert Counter(b.kind for b in BUILDINGS) == {
        "basic": 10, "exclusive": 4, "global": 2, "minor_landmark": 2}
    assert set(KINDS) == set(BUILDING_KINDS.values())
    assert len({b.name for b in BUILDINGS}) == 18


def test_rulebook_values() -> None:
    train = BY_KEY["train_station"]
    assert (train.name, train.kind) == ("Train Station", "global")
    assert train.cost == (0, 2, 2, 0, 0) and train.time == 3
    sansiantai = BY_NAME["Sansiantai"]
    assert sansiantai.cost == (0, 0, 0, 5, 0)
    assert (sansiantai.time, sansiantai.region) == (4, "east")


def test_sources_and_placeholders() -> None:
    for row in (*BUILDINGS, *LANDMARKS):
        label = getattr(row, "key", row.name)
        assert row.note.strip(), label
        if label in RULEBOOK_ROWS:
            assert row.source == "rulebook", label
            assert "placeholder" in row.note, label  # its VP is designed
        else:
            assert row.source == "placeholder", label


def test_counts() -> None:
    assert all(b.copies == 4 for b in BUILDINGS)
    assert sum(b.copies for b in BUILDINGS) == 72
    decks = Counter(lm.deck for lm in LANDMARKS)
    assert sorted(decks) == [0, 1, 2, 3, 4]
    assert sorted(decks.values()) == [3, 3, 3, 3, 4]
    assert Counter(lm.region for lm in LANDMARKS) == {r: 4 for r in REGIONS}
    assert len({lm.name for lm in LANDMARKS}) == 16


def test_cost_properties() -> None:
    hotel = BY_KEY["hot_spring_hotel"]
    assert hotel.cost == (hotel.wood, hotel.brick, hotel.steel, hotel.stone, hotel.coins)
    assert hotel.resource_cost == hotel.cost[:4]
    assert RESOURCES == ("wood", "brick", "steel", "stone")
    assert BY_NAME["Sansiantai"].resource_cost == (0, 0, 0, 5)


# --- validation of override files ------------------------------------------------------

def test_valid_override_loads(tmp_path: Path) -> None:
    rows = _rows(BUILDINGS)
    rows[0]["coins"] = 3
    assert load_buildings(_write(tmp_path, "building", rows))[0].coins == 3
    lm_rows = _rows(LANDMARKS)
    lm_rows[5]["vp"] = 8
    assert load_landmarks(str(_write(tmp_path, "landmark", lm_rows)))[5].vp == 8


def _edit(rows: list[dict[str, Any]], index: int, **changes: Any) -> list[dict[str, Any]]:
    rows = [dict(r) for r in rows]
    rows[index].update(changes)
    return rows


def _drop_key(rows: list[dict[str, Any]], index: int, key: str) -> list[dict[str, Any]]:
    rows = [dict(r) for r in rows]
    del rows[index][key]
    return rows


def _building_cases() -> dict[str, list[dict[str, Any]]]:
    base = _rows(BUILDINGS)
    swapped = [dict(r) for r in base]
    swapped[0]["id"], swapped[1]["id"] = 1, 0
    swapped[0], swapped[1] = swapped[1], swapped[0]
    return {
        "unknown building key": _edit(base, 0, key="casino"),
        r"unknown key\(s\) \['colour'\]": _edit(base, 2, colour="red"),
        "missing required key 'source'": _drop_key(base, 3, "source"),
        "'source' must be one of": _edit(base, 3, source="guess"),
        "unknown kind 'purple'": _edit(base, 4, kind="purple"),
        "kind must be 'global'": _edit(base, 14, kind="basic"),
        "duplicate building key 'sawmill'": _edit(base, 1, key="sawmill"),
        r"'time' must be between 1 and 5, got 0": _edit(base, 5, time=0),
        r"'time' must be between 1 and 5, got 6": _edit(base, 5, time=6),
        "'steel' must not be negative": _edit(base, 6, steel=-1),
        "'vp' must not be negative": _edit(base, 6, vp=-2),
        "'copies' must be at least 1": _edit(base, 7, copies=0),
        "'name' must not be empty": _edit(base, 7, name=" "),
        r"missing building key\(s\) \['hot_spring_hotel'\]": base[:-1],
        "ids must be 0..17": _edit(base, 17, id=18),
        "is bound to key 'sawmill'": swapped,
        "expected int": _edit(base, 8, wood="1"),
    }


@pytest.mark.parametrize("needle", list(_building_cases()))
def test_bad_building_files(tmp_path: Path, needle: str) -> None:
    path = _write(tmp_path, "building", _building_cases()[needle])
    with pytest.raises(DataError, match=needle) as info:
        load_buildings(path)
    assert path.name in str(info.value)


def test_building_errors_name_the_row(tmp_path: Path) -> None:
    path = _write(tmp_path, "building", _edit(_rows(BUILDINGS), 5, time=0))
    with pytest.raises(DataError, match="id=5 key='baseball_field'"):
        load_buildings(path)


def _landmark_cases() -> dict[str, list[dict[str, Any]]]:
    base = _rows(LANDMARKS)
    no_deck_4 = [dict(r, deck=3) if r["deck"] == 4 else dict(r) for r in base]
    return {
        "ids must be 0..15": base[:-1],
        "unknown region 'west'": _edit(base, 2, region="west"),
        "'deck' must be between 0 and 4, got 5": _edit(base, 2, deck=5),
        r"deck\(s\) \[4\] have no cards": no_deck_4,
        "duplicate landmark name": _edit(base, 1, name=base[0]["name"]),
        r"'time' must be between 1 and 5, got 0": _edit(base, 3, time=0),
        "'coins' must not be negative": _edit(base, 3, coins=-4),
        "missing required key 'source'": _drop_key(base, 4, "source"),
        r"unknown key\(s\) \['colour'\]": _edit(base, 4, colour="green"),
    }


@pytest.mark.parametrize("needle", list(_landmark_cases()))
def test_bad_landmark_files(tmp_path: Path, needle: str) -> None:
    path = _write(tmp_path, "landmark", _landmark_cases()[needle])
    with pytest.raises(DataError, match=needle) as info:
        load_landmarks(path)
    assert path.name in str(info.value)


def test_missing_file_raises(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="not found"):
        load_buildings(tmp_path / "nope.toml")
    with pytest.raises(DataError, match="not found"):
        load_landmarks(tmp_path / "nope.toml")


# --- economy sanity (mirrors the headers of data/buildings.toml and data/landmarks.toml)

# Value of each building's ability in VP (= cost units). Per-round abilities give
# gain x (6 - time) uses; red ones already carry the 0.6 "contested" factor. Lottery
# Office, Judicial Court, Convenience Store and Hot Spring Hotel carry the estimates
# revised by the balance pass (buildings.toml header, item 8).
PER_ROUND_GAIN = {
    "sawmill": 0.2, "stone_factory": 0.2, "brickworks": 0.2, "steelworks": 0.2,
    "temple": 2 - 2 / 9,
    "lottery_office": 4 / 6 * 4 / 9,  # ~4 dice a round, 1 in 6 a merchant, 4 coins each
    "night_market": 3 / 9,
    "judicial_court": 0.75 * 0.6,  # 3 victims x ~0.5 cu, counted half, contested
    "urban_development_bureau": 0.55 * 0.6,
    "demolition_company": 0.6 * 0.6, "tax_bureau": 0.5 * 0.6,
    "convenience_store": 4 / 9,  # stores sell out: ~3 completed, 4 coins each
}
FIXED_VALUE = {
    "baseball_field": 6.0, "tribal_village": 3.5, "warehouse": 3.5,
    "train_station": 3.0, "public_art_installation": 4.5,
    "hot_spring_hotel": 2.5 + 2 * 3.5,  # its marker + 2 VP for ~3.5 markers already there
}
MARKER = 2.5
# each region's charity resource, which landmarks there mostly cost
REGION_RESOURCE = {"north": "steel", "central": "brick", "south": "wood", "east": "stone"}


def _ability_value(building: BuildingType) -> float:
    if building.key in FIXED_VALUE:
        return FIXED_VALUE[building.key]
    return PER_ROUND_GAIN[building.key] * (6 - building.time)


def _time_rule(outlay: float) -> int:
    return min(5, max(1, int(outlay + 0.5) - 2))


def test_every_building_has_an_ability_value() -> None:
    assert set(PER_ROUND_GAIN) | set(FIXED_VALUE) == set(BUILDING_KEYS)
    assert not set(PER_ROUND_GAIN) & set(FIXED_VALUE)


@pytest.mark.parametrize("key", BUILDING_KEYS)
def test_building_value_matches_cost(key: str) -> None:
    building = BY_KEY[key]
    outlay = _cost_units(building)
    ratio = (building.vp + _ability_value(building)) / outlay
    assert 0.85 <= ratio <= 1.20, f"{key}: (vp + ability) / cost = {ratio:.2f}"
    assert abs(building.time - _time_rule(outlay)) <= 1, f"{key}: time off the size rule"


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_landmark_value_matches_cost(name: str) -> None:
    landmark = BY_NAME[name]
    outlay = _cost_units(landmark)
    ratio = (landmark.vp + MARKER) / outlay
    assert 1.15 <= ratio <= 1.40, f"{name}: (vp + marker) / cost = {ratio:.2f}"
    assert landmark.time == 4, f"{name}: every landmark takes 4 (Sansiantai's time)"
    main = REGION_RESOURCE[landmark.region]
    main_amount = getattr(landmark, main)
    others = [getattr(landmark, r) for r in RESOURCES if r != main]
    assert main_amount >= 4 and main_amount > max(others), f"{name}: main resource"


def test_landmarks_are_bigger_than_buildings() -> None:
    assert min(lm.vp for lm in LANDMARKS) > max(b.vp for b in BUILDINGS)
    assert min(lm.time for lm in LANDMARKS) >= max(b.time for b in BUILDINGS)
    assert (sum(map(_cost_units, LANDMARKS)) / len(LANDMARKS)
            > 1.5 * sum(map(_cost_units, BUILDINGS)) / len(BUILDINGS))


def test_regions_and_decks_are_balanced() -> None:
    vp_by_region = Counter()
    for lm in LANDMARKS:
        vp_by_region[lm.region] += lm.vp
    assert max(vp_by_region.values()) - min(vp_by_region.values()) <= 2
    for deck in range(5):
        regions = [lm.region for lm in LANDMARKS if lm.deck == deck]
        assert len(regions) == len(set(regions)), f"deck {deck} repeats a region"
        assert len({lm.vp for lm in LANDMARKS if lm.deck == deck}) == len(regions)
    for region in REGIONS:
        assert len({lm.deck for lm in LANDMARKS if lm.region == region}) == 4


def test_resource_demand_is_balanced_and_coins_are_used() -> None:
    for cards in (BUILDINGS, LANDMARKS):
        demand = [sum(getattr(c, r) for c in cards) for r in RESOURCES]
        assert max(demand) - min(demand) <= 2, demand
    # the factories turn a resource into a coin, so most costs must include coins
    assert sum(b.coins > 0 for b in BUILDINGS) >= 15
    assert sum(lm.coins > 0 for lm in LANDMARKS) >= 10
