"""Cards and the table grid: footprints, rotations and 4-connected clusters. Pure functions."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

Cell = tuple[int, int]  # (row, col)
ROTATIONS = (0, 90, 180, 270)


def card_rows(colours: tuple[str, ...], height: int, width: int) -> tuple[tuple[str, ...], ...]:
    """A card's colours as rows, landscape as printed."""
    return tuple(tuple(colours[r * width : (r + 1) * width]) for r in range(height))


def rotate(rows: tuple[tuple[str, ...], ...], degrees: int) -> tuple[tuple[str, ...], ...]:
    """Turn a grid of colours clockwise by a multiple of 90 degrees."""
    for _ in range((degrees // 90) % 4):
        rows = tuple(zip(*rows[::-1], strict=True))
    return rows


def footprint(
    colours: tuple[str, ...], height: int, width: int, row: int, col: int, rotation: int
) -> dict[Cell, str]:
    """Table cell -> colour for a card lying with its top-left corner on (row, col)."""
    rows = rotate(card_rows(colours, height, width), rotation)
    return {
        (row + r, col + c): colour for r, line in enumerate(rows) for c, colour in enumerate(line)
    }


def distinct_rotations(colours: tuple[str, ...], height: int, width: int) -> tuple[int, ...]:
    """The rotations that give different layouts (a symmetric card has fewer)."""
    seen, out = set(), []
    base = card_rows(colours, height, width)
    for deg in ROTATIONS:
        rows = rotate(base, deg)
        if rows not in seen:
            seen.add(rows)
            out.append(deg)
    return tuple(out)


def centred_starts(table: int, card: int) -> tuple[int, ...]:
    """Where a card `card` nodes long may start on a table `table` nodes long to lie as close
    to the table's centre as it can: its centre on the table's (one start), or, when the two
    lengths differ in parity, half a node to either side (two starts, mirror images)."""
    low = (table - card) // 2
    return (low,) if (table - card) % 2 == 0 else (low, low + 1)


def neighbours(cell: Cell) -> Iterator[Cell]:
    r, c = cell
    yield (r - 1, c)
    yield (r + 1, c)
    yield (r, c - 1)
    yield (r, c + 1)


def components(cells: Iterable[Cell]) -> list[frozenset[Cell]]:
    """4-connected components of a set of cells."""
    todo = set(cells)
    out = []
    while todo:
        start = todo.pop()
        comp, stack = {start}, [start]
        while stack:
            for n in neighbours(stack.pop()):
                if n in todo:
                    todo.remove(n)
                    comp.add(n)
                    stack.append(n)
        out.append(frozenset(comp))
    return out
