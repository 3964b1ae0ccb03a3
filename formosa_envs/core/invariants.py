"""Conservation checks shared by every game's ``check_conservation``.

A saved or reached state is only valid when every physical component of the game is
somewhere, exactly once: cards in one zone each, cube and token counts adding up to the
box, markers on the board plus in the supply. These helpers state such laws once, for all
four games, and raise :class:`~formosa_envs.core.errors.StateFormatError` naming the
state field that breaks them::

    require(state.supply >= 0, "supply", "must not be negative")
    check_zones("cards", {"deck": s.deck, "field": s.field}, range(54), item="card")
    check_total("tokens", {"supply": s.supply, "tokens[0]": s.tokens[0]}, 9, item="token")

Never ``assert``: the checks must also run under ``python -O``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from .errors import StateFormatError


def require(condition: bool, field: str, message: str) -> None:
    """Raise ``StateFormatError("field 'F': message")`` unless ``condition`` holds."""
    if not condition:
        raise StateFormatError(f"field {field!r}: {message}")


def check_zones(law: str, zones: Mapping[str, Iterable[int]], expected: Iterable[int],
                item: str = "component") -> None:
    """Every id of ``expected`` lies in exactly one of ``zones``, once; nothing else does.

    ``zones`` maps a field name (``"deck"``, ``"hands[1]"``) to the ids it holds. The
    error names the zone of the first fault: an id twice in one zone, an id in two
    zones, an id that does not exist, or (naming ``law``) an id that is nowhere.
    """
    wanted = Counter(expected)
    seen: dict[int, str] = {}
    for zone, ids in zones.items():
        counts = Counter(ids)
        for ident, k in counts.items():
            require(k == 1, zone, f"{item} {ident!r} appears {k} times")
            require(ident in wanted, zone, f"holds unknown {item} {ident!r}")
            require(ident not in seen, zone, f"{item} {ident!r} is also in {seen.get(ident)}")
            seen[ident] = zone
    missing = sorted(i for i in wanted if i not in seen)
    require(not missing, law, f"{item}(s) {missing} are in no zone "
            f"(looked in {', '.join(zones) or 'nothing'})")


def check_total(law: str, parts: Mapping[str, int], total: int,
                item: str = "component") -> None:
    """Counts of one fungible component over ``parts`` are non-negative and sum to ``total``.

    ``parts`` maps a field name to how many of the component it holds.
    """
    for name, count in parts.items():
        require(count >= 0, name, f"holds {count} {item}(s), a count cannot be negative")
    found = sum(parts.values())
    require(found == total, law, f"{found} {item}(s) in {', '.join(parts)}; "
            f"the game has exactly {total}")


def check_between(field: str, value: int, low: int, high: int, why: str = "") -> None:
    """``low <= value <= high``, a bound that depends on other fields (``why`` says which)."""
    reason = f" ({why})" if why else ""
    require(low <= value <= high, field, f"is {value!r}; allowed {low}..{high}{reason}")


def check_each(field: str, values: Iterable[int], low: int, high: int, why: str = "") -> None:
    """:func:`check_between` for each entry of a per-seat list, naming ``field[i]``."""
    for i, value in enumerate(values):
        check_between(f"{field}[{i}]", value, low, high, why)


def check_distinct(field: str, values: Iterable[int], item: str = "entry",
                   ignore: Iterable[int] = (-1,)) -> None:
    """No id appears twice in ``values`` (entries in ``ignore``, e.g. ``-1``, may repeat)."""
    skip = set(ignore)
    counts = Counter(v for v in values if v not in skip)
    twice = sorted(v for v, k in counts.items() if k > 1)
    require(not twice, field, f"{item}(s) {twice} appear more than once")
