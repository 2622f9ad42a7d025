"""A player's cards as JSON (the `score` tool, the score entry screen), checked strictly.

    {"cyan": 4, "magenta": 6, "yellow": 5, "wild": 0,
     "point_kritters": [{"colour": "red", "points": 3}, {"colour": "blue", "points": 4}],
     "paintbrushes": 1, "palettes": 2, "paint_buckets": 0,
     "variant": "standard", "triad_bonus": false}

Missing keys mean 0, false and "standard". Counts above what two copies of the game (with
every expansion) contain are refused: they are typing mistakes, not collections.
"""

from __future__ import annotations

from typing import Any

from companion.errors import UsageError
from companion.games.kritters.scoring import (
    PRIMARIES,
    SECONDARIES,
    VARIANTS,
    Collection,
    PointKritter,
    Rules,
)

# The most of each a player can hold with two copies of the base game and all expansions
# (18 singles, 12 doubles, 6 super singles per colour, plus start cards; 18 wild and 18 super
# wild; 30 point kritters; 24 paintbrushes, 12 palettes, 12 paint buckets), rounded up.
LIMITS = {
    "cyan": 60,
    "magenta": 60,
    "yellow": 60,
    "wild": 40,
    "paintbrushes": 24,
    "palettes": 12,
    "paint_buckets": 12,
}
MAX_POINT_KRITTERS = 30
POINT_VALUES = (2, 3, 4, 5, 6)  # 3-5 in the base game, 2 and 6 from More Points
KEYS = (*LIMITS, "point_kritters", "variant", "triad_bonus")


def _count(data: dict[str, Any], key: str) -> int:
    value = data.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int):
        raise UsageError(f"{key} must be a whole number, not {value!r}")
    if value < 0:
        raise UsageError(f"{key} cannot be negative ({value})")
    if value > LIMITS[key]:
        raise UsageError(
            f"{key}: {value} is more than two copies of the game hold (at most {LIMITS[key]})"
        )
    return value


def _point_kritter(item: Any) -> PointKritter:
    if not isinstance(item, dict) or set(item) != {"colour", "points"}:
        raise UsageError(f'each point kritter is {{"colour": ..., "points": ...}}, not {item!r}')
    colour, points = item["colour"], item["points"]
    if colour not in SECONDARIES:
        raise UsageError(
            f"point kritter colour must be one of {', '.join(SECONDARIES)}, not {colour!r}"
        )
    if isinstance(points, bool) or points not in POINT_VALUES:
        raise UsageError(
            f"point kritters are worth {', '.join(map(str, POINT_VALUES))} points, not {points!r}"
        )
    return PointKritter(colour, points)


def parse(data: Any) -> tuple[Collection, Rules]:
    """The collection and rules a JSON document describes; UsageError if it is wrong."""
    if not isinstance(data, dict):
        raise UsageError('expected a JSON object such as {"cyan": 4, "paintbrushes": 1}')
    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        raise UsageError(f"unknown key {unknown[0]!r} (known: {', '.join(KEYS)})")
    counts = {key: _count(data, key) for key in LIMITS}
    raw = data.get("point_kritters", [])
    if not isinstance(raw, list):
        raise UsageError('point_kritters must be a list of {"colour", "points"} objects')
    if len(raw) > MAX_POINT_KRITTERS:
        raise UsageError(
            f"{len(raw)} point kritters is more than two copies of the game hold "
            f"(at most {MAX_POINT_KRITTERS})"
        )
    point_kritters = tuple(_point_kritter(item) for item in raw)
    variant = data.get("variant", "standard")
    if variant not in VARIANTS:
        raise UsageError(f"variant must be one of {', '.join(VARIANTS)}, not {variant!r}")
    triad = data.get("triad_bonus", False)
    if not isinstance(triad, bool):
        raise UsageError(f"triad_bonus must be true or false, not {triad!r}")
    if variant == "junior":
        items = [k for k in ("paintbrushes", "palettes", "paint_buckets") if counts[k]]
        if items:
            raise UsageError(f"Junior games use no items, but {items[0]} is {counts[items[0]]}")
        if triad:
            raise UsageError(
                "the Colour Triad bonus needs paintbrushes and palettes, "
                "which Junior games do not use"
            )
    collection = Collection(
        **{c: counts[c] for c in PRIMARIES},
        wild=counts["wild"],
        point_kritters=point_kritters,
        paintbrushes=counts["paintbrushes"],
        palettes=counts["palettes"],
        paint_buckets=counts["paint_buckets"],
    )
    return collection, Rules(variant=variant, triad_bonus=triad)


def to_json(col: Collection, rules: Rules) -> dict[str, Any]:
    """The document `parse` reads back to the same collection and rules."""
    out: dict[str, Any] = {c: col.count(c) for c in PRIMARIES}
    out.update(
        wild=col.wild,
        point_kritters=[{"colour": p.colour, "points": p.points} for p in col.point_kritters],
        paintbrushes=col.paintbrushes,
        palettes=col.palettes,
        paint_buckets=col.paint_buckets,
        variant=rules.variant,
        triad_bonus=rules.triad_bonus,
    )
    return out
