"""A Laser demonstration as the camera sees it: rendered frames of a move list played out.

Every position of the round (before the first move and after each move) is rendered with
`vision.render.ring` under one light, with the figures standing a little differently after
each move. Between two positions a hand carries the figure: one frame with the hand over the
table while the moving figure (or the cat) is lifted off its tile, and sometimes a second
one as the hand leaves over the new position. At rest the camera gives `rest` frames that
differ only in their noise. The light (its direction, where a shadow falls) is `seed`'s for
the whole demonstration (or `light_seed`'s), as one lamp over a round: the ring reader
compares each frame with the empty ring under that light (`empty_ring`).

    demonstration_shots(pos, moves, light, seed) -> [Shot(frame, board, hand), ...]
    empty_ring(light, seed) -> the ring with nothing on it, under the same light
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from companion.games.laser.board import COLOURS, Position
from companion.games.laser.sensing.decode import Table, start, tables
from companion.games.laser.solver.moves import Move
from vision.render.ring import render_ring
from vision.render.ring_board import CAT, EMPTY_BOARD, RingBoard


@dataclass(frozen=True)
class Shot:
    frame: np.ndarray
    board: RingBoard  # what stands on the table in this frame
    hand: bool  # a hand is in view


def ring_board(table: Table, lifted: int | None = None) -> RingBoard:
    """The table to render; `lifted`: a tile whose figure (or cat) is in the hand."""
    tiles = [None if t is None else COLOURS[t] for t in table.tiles]
    tiles[table.cat] = CAT
    if lifted is not None:
        tiles[lifted] = None
    spares = dict(zip(COLOURS, table.supply, strict=True))
    return RingBoard(tuple(tiles), spares)


def demonstration_shots(
    pos: Position,
    moves: Sequence[Move],
    light: str,
    seed: int,
    *,
    rest: int = 3,
    size: tuple[int, int] = (640, 480),
    light_seed: int | None = None,
) -> list[Shot]:
    """The frames of a whole demonstration, in order (see the module's docstring);
    `light_seed` (default `seed`) sets the light."""
    rng = random.Random(seed)
    lit = seed if light_seed is None else light_seed
    views = [start(pos).table] + tables(pos, moves)
    shots: list[Shot] = []
    for k, view in enumerate(views):
        layout = seed * 64 + k  # the figures stand a little elsewhere after each move
        board = ring_board(view)
        if k:
            lifted = ring_board(views[k - 1], lifted=moves[k - 1].src)
            frame = render_ring(lifted, light, layout - 1, size, hand=True, light_seed=lit)
            shots.append(Shot(frame, lifted, True))
            if rng.random() < 0.5:
                frame = render_ring(board, light, layout, size, hand=True, light_seed=lit)
                shots.append(Shot(frame, board, True))
        for f in range(rest):
            frame = render_ring(board, light, layout, size, frame=f, light_seed=lit)
            shots.append(Shot(frame, board, False))
    return shots


def empty_ring(light: str, seed: int, size: tuple[int, int] = (640, 480)) -> np.ndarray:
    """The empty ring under the light of `demonstration_shots(..., light, seed)`."""
    return render_ring(EMPTY_BOARD, light, seed, size, light_seed=seed)
