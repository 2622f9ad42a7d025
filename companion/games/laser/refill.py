"""The end-of-round refill, as the rulebook says: the removed figures go back onto their
colour cards first (each card holds two), the rest onto the empty tiles starting from the
cat and going clockwise (tile index upwards), until all are filled; whatever is left is put
aside until the next round.

Figures are placed in the order given: figures put aside last round first (they have waited
longest), then this round's removed figures in the order they left the board. The rulebook
does not fix an order; this one lets a family follow the list on screen figure by figure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.errors import UsageError

from .board import CARD_CAPACITY, COLOURS, FIGURES_PER_COLOUR, TILES, colour_index


@dataclass(frozen=True)
class Table:
    """What the refill needs of the table: 12 tiles clockwise (colour index or None), the
    cat's tile, the spare figures on each colour card (circle order)."""

    tiles: tuple[int | None, ...]
    cat: int
    supply: tuple[int, ...]


@dataclass(frozen=True)
class Placement:
    """One figure's way back: onto its colour card (tile None) or onto a tile."""

    colour: int
    tile: int | None


@dataclass(frozen=True)
class Refill:
    table: Table
    placements: tuple[Placement, ...]
    aside: tuple[int, ...]  # colours that found no place this round


def refill(table: Table, figures: Sequence[int]) -> Refill:
    """Put `figures` (colour indices) back on the table; pure, the input is not changed."""
    supply = list(table.supply)
    tiles = list(table.tiles)
    placements: list[Placement] = []
    rest: list[int] = []
    for c in figures:
        if supply[c] < CARD_CAPACITY:
            supply[c] += 1
            placements.append(Placement(c, None))
        else:
            rest.append(c)
    empty = [
        t
        for t in ((table.cat + k) % TILES for k in range(1, TILES))
        if tiles[t] is None  # the cat's own tile is never filled: it stands there
    ]
    for c, t in zip(rest, empty, strict=False):
        tiles[t] = c
        placements.append(Placement(c, t))
    aside = tuple(rest[len(empty) :])
    return Refill(Table(tuple(tiles), table.cat, tuple(supply)), tuple(placements), aside)


# JSON ----------------------------------------------------------------------------------


def _colours(raw: Any, what: str) -> tuple[int, ...]:
    if not isinstance(raw, Sequence) or isinstance(raw, str):
        raise UsageError(f'{what} must be a list of colour names like ["red", "cyan"]')
    return tuple(colour_index(c, f"colour in {what}:") for c in raw)


def request_from_json(data: Any) -> tuple[Table, tuple[int, ...]]:
    """Parse `{"tiles", "cat", "supply", "removed", "aside"}`; every mistake is one line."""
    if not isinstance(data, Mapping):
        raise UsageError("the refill request must be a JSON object")
    for key in ("tiles", "cat", "removed"):
        if key not in data:
            raise UsageError(f"missing field {key!r}")
    raw_tiles = data["tiles"]
    if not isinstance(raw_tiles, Sequence) or isinstance(raw_tiles, str):
        raise UsageError(f"tiles must be a list of {TILES} colour names or null")
    if len(raw_tiles) != TILES:
        raise UsageError(f"the board has {TILES} tiles, got {len(raw_tiles)}")
    tiles = tuple(
        None if t is None else colour_index(t, f"colour on tile {i}:")
        for i, t in enumerate(raw_tiles)
    )
    cat = data["cat"]
    if not isinstance(cat, int) or isinstance(cat, bool) or not 0 <= cat < TILES:
        raise UsageError(f"cat must be a tile index 0-{TILES - 1}, not {cat!r}")
    if tiles[cat] is not None:
        raise UsageError(f"tile {cat} holds a figure under the cat; the cat stands alone")
    raw_supply = data.get("supply", {c: CARD_CAPACITY for c in COLOURS})
    if not isinstance(raw_supply, Mapping):
        raise UsageError('supply must be an object like {"red": 2, ...}')
    supply = [0] * 6
    for name, n in raw_supply.items():
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= CARD_CAPACITY:
            raise UsageError(f"the {name} card holds 0-{CARD_CAPACITY} figures, not {n!r}")
        supply[colour_index(name, "supply colour")] = n
    figures = _colours(data.get("aside", []), "aside") + _colours(data["removed"], "removed")
    for c in range(6):
        n = tiles.count(c) + supply[c] + figures.count(c)
        if n > FIGURES_PER_COLOUR:
            raise UsageError(
                f"{n} {COLOURS[c]} figures (board, card, removed and aside); "
                f"the game has only {FIGURES_PER_COLOUR}"
            )
    return Table(tiles, cat, tuple(supply)), figures


def refill_to_json(result: Refill) -> dict[str, Any]:
    t = result.table
    return {
        "tiles": [None if c is None else COLOURS[c] for c in t.tiles],
        "cat": t.cat,
        "supply": {COLOURS[i]: n for i, n in enumerate(t.supply)},
        "placed": [
            {"colour": COLOURS[p.colour], "to": "card" if p.tile is None else p.tile}
            for p in result.placements
        ],
        "aside": [COLOURS[c] for c in result.aside],
    }
