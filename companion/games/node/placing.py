"""Where a Node card may lie: over no edge, covering at least one node of its own colour
(the first card: in the middle of the table), never a node of another colour."""

from __future__ import annotations

from companion.errors import IllegalMove

from .geometry import card_rows, centred_starts, distinct_rotations, footprint, rotate
from .state import NodeState, Placement


def check_placement(
    state: NodeState, colours: tuple[str, ...], row: int, col: int, rotation: int
) -> Placement:
    """Where the card would lie, or IllegalMove with the reason it cannot."""
    colours = tuple(colours)
    check_card(state, colours)
    if any(not isinstance(v, int) or isinstance(v, bool) for v in (row, col, rotation)):
        raise IllegalMove("a card's row, column and rotation are whole numbers")
    if rotation not in (0, 90, 180, 270):
        raise IllegalMove("a card turns by 0, 90, 180 or 270 degrees")
    cells = footprint(colours, state.card_height, state.card_width, row, col, rotation)
    if any(not (0 <= r < state.height and 0 <= c < state.width) for r, c in cells):
        raise IllegalMove("the card hangs over the edge of the table")
    covered = [cell for cell in cells if state.at(cell) is not None]
    if state.empty:
        h, w = state.card_height, state.card_width
        _check_centred(state, row, col, *((w, h) if rotation in (90, 270) else (h, w)))
    elif not covered:
        raise IllegalMove("the card must cover at least one node already on the table")
    for cell in covered:
        if state.at(cell) != cells[cell]:
            raise IllegalMove(
                f"a {cells[cell]} node cannot cover a {state.at(cell)} node "
                f"(row {cell[0] + 1}, column {cell[1] + 1})"
            )
    return Placement(cells, frozenset(cells) - frozenset(covered))


def legal_placements(state: NodeState, colours: tuple[str, ...]) -> list[tuple[int, int, int]]:
    """Every (row, col, rotation) where the card fits; one rotation per distinct layout.
    The same checks as check_placement, inlined: this runs for every discard check."""
    colours = tuple(colours)
    check_card(state, colours)
    grid, out = state.grid, []
    for rot in distinct_rotations(colours, state.card_height, state.card_width):
        rows = rotate(card_rows(colours, state.card_height, state.card_width), rot)
        h, w = len(rows), len(rows[0])
        nodes = [(r, c, colour) for r, line in enumerate(rows) for c, colour in enumerate(line)]
        mid_rows, mid_cols = centred_starts(state.height, h), centred_starts(state.width, w)
        for row in range(state.height - h + 1):
            for col in range(state.width - w + 1):
                covers = False
                for r, c, colour in nodes:
                    below = grid[row + r][col + c]
                    if below is not None:
                        if below != colour:
                            break
                        covers = True
                else:
                    if state.empty:
                        covers = row in mid_rows and col in mid_cols
                    if covers:
                        out.append((row, col, rot))
    return out


def check_card(state: NodeState, colours: tuple[str, ...]) -> None:
    need = state.card_width * state.card_height
    if len(colours) != need:
        raise IllegalMove(f"a card has {need} nodes, not {len(colours)}")
    for c in colours:
        if c not in state.colours:
            raise IllegalMove(f"{c!r} is not a Node colour ({', '.join(state.colours)})")


def _check_centred(state: NodeState, row: int, col: int, h: int, w: int) -> None:
    """The first card "in the middle of the table": as close to the table's centre as its
    shape allows, in the way round it lies (h x w nodes). The rulebook says no more."""
    moves = []
    for at, table, card, back, forth in (
        (row, state.height, h, "up", "down"),
        (col, state.width, w, "left", "right"),
    ):
        best = min(centred_starts(table, card), key=lambda start: abs(start - at))
        if best != at:
            n = abs(best - at)
            moves.append(f"{n} node{'s' if n > 1 else ''} {back if best < at else forth}")
    if moves:
        raise IllegalMove(
            f"the first card goes in the middle of the table: {' and '.join(moves)} from here"
        )
