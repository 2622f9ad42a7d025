"""The colour mill: 20 balls in five colours, counted as a tuple in COLOURS order."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

# Most common first; this is also the "rarity" order of board 5's Alchemist.
COLOURS: tuple[str, ...] = ("blue", "green", "orange", "pink", "purple")
FULL_MILL: tuple[int, ...] = (6, 5, 4, 3, 2)
TOTAL_BALLS = sum(FULL_MILL)  # 20
BALLS_PER_ROUND = 5
ROUNDS_PER_CYCLE = 3  # after the third round the last 5 roll out and all 20 go back
LETTERS = {"blue": "B", "green": "G", "orange": "O", "pink": "K", "purple": "P"}


def index(colour: str) -> int:
    try:
        return COLOURS.index(colour)
    except ValueError:
        raise ValueError(f"unknown colour {colour!r} (the mill has {', '.join(COLOURS)})") from None


def counts_of(colours: Iterable[str]) -> tuple[int, ...]:
    """How many balls of each colour are in `colours` (a row, a hand)."""
    c = Counter(colours)
    for name in c:
        index(name)
    return tuple(c.get(name, 0) for name in COLOURS)


def as_mapping(counts: tuple[int, ...]) -> dict[str, int]:
    return dict(zip(COLOURS, counts, strict=True))


def from_mapping(data: Mapping[str, int]) -> tuple[int, ...]:
    for name in data:
        index(name)
    return tuple(int(data.get(name, 0)) for name in COLOURS)


def minus(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x - y for x, y in zip(a, b, strict=True))


def fits(row: Iterable[str], mill: tuple[int, ...]) -> bool:
    """Could these balls all have come out of a mill holding `mill`?"""
    return all(n <= have for n, have in zip(counts_of(row), mill, strict=True))


def possible(mill: tuple[int, ...]) -> bool:
    """A count the physical mill can hold: no negatives, no more than the box has."""
    return all(0 <= n <= full for n, full in zip(mill, FULL_MILL, strict=True))
