"""The Laser table's board as the renderer lays it: the ring's geometry (12 tile places on an
ellipse, tile 0 at the top and the index growing clockwise, six colour cards in a column on the
right with two spare spots each, the white patch) and what stands on it (`RingBoard`: a prism
figure, nothing or the cat on each tile, 0-2 spare figures on each colour card).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass, field

RING_COLOURS = ("red", "yellow", "green", "cyan", "blue", "magenta")  # circle order
SECONDARY = ("red", "green", "blue")  # the larger figures
CAT = "cat"
TILES = 12


@dataclass(frozen=True)
class RingGeometry:
    centre: tuple[float, float]
    radii: tuple[float, float]
    tile: float  # side of a floor tile, pixels
    figure: float  # radius of a small figure, pixels
    slots: tuple[tuple[float, float], ...]  # tile centres, tile 0 at the top, clockwise
    cards: tuple[tuple[float, float, float, float], ...]  # x, y, w, h per colour card
    spots: tuple[tuple[tuple[float, float], tuple[float, float]], ...]  # two per card
    spot_radius: float
    patch: tuple[int, int, int, int]


def ring_geometry(size: tuple[int, int] = (640, 480)) -> RingGeometry:
    w, h = size
    s = w / 640
    cx, cy, rx, ry = 245 * s, 0.5 * h, 190 * s, 0.4 * h
    slots = tuple(
        (cx + rx * math.cos(a), cy + ry * math.sin(a))
        for a in (math.radians(-90 + 30 * k) for k in range(TILES))
    )
    cw, ch = 112 * s, 62 * s
    cards = tuple((500 * s, (22 + 74 * k) * h / 480, cw, ch) for k in range(6))
    spots = tuple(
        ((x + 0.27 * cw, y + 0.5 * ch), (x + 0.73 * cw, y + 0.5 * ch)) for x, y, _, _ in cards
    )
    return RingGeometry(
        (cx, cy),
        (rx, ry),
        54 * s,
        12.5 * s,
        slots,
        cards,
        spots,
        19 * s,
        (int(8 * s), int(8 * s), int(52 * s), int(36 * s)),
    )


@dataclass(frozen=True)
class RingBoard:
    tiles: tuple[str | None, ...]
    spares: Mapping[str, int] = field(default_factory=lambda: {c: 2 for c in RING_COLOURS})

    def __post_init__(self) -> None:
        if len(self.tiles) != TILES:
            raise ValueError(f"the ring has {TILES} tiles, got {len(self.tiles)}")
        for t in self.tiles:
            if t is not None and t != CAT and t not in RING_COLOURS:
                raise ValueError(f"unknown figure {t!r}")
        for c, n in self.spares.items():
            if c not in RING_COLOURS or not 0 <= n <= 2:
                raise ValueError(f"a colour card holds 0-2 figures of its colour, not {c}={n}")


def random_board(rng: random.Random) -> RingBoard:
    """The cat on one tile, most others holding a figure, cards partly refilled; at most
    four figures of a colour, as in the box."""
    pool = [c for c in RING_COLOURS for _ in range(4)]
    rng.shuffle(pool)
    tiles: list[str | None] = [None] * TILES
    cat = rng.randrange(TILES)
    tiles[cat] = CAT
    free = [t for t in range(TILES) if t != cat]
    rng.shuffle(free)
    for t in free[rng.choice((0, 0, 1, 2, 3, 4)) :]:
        tiles[t] = pool.pop()
    spares = dict.fromkeys(RING_COLOURS, 0)
    for c in pool:
        if spares[c] < 2 and rng.random() < 0.75:
            spares[c] += 1
    return RingBoard(tuple(tiles), spares)


EMPTY_BOARD = RingBoard((None,) * TILES, dict.fromkeys(RING_COLOURS, 0))
