"""Random but plausible Laser positions: for the benchmark, the property tests and demos."""

from __future__ import annotations

import random

from ..board import (
    CARD_CAPACITY,
    COMPETITIVE,
    FIGURES_PER_COLOUR,
    TEAM,
    TILES,
    Card,
    Position,
)


def random_position(
    rng: random.Random, mode: str = TEAM, cards: int = 2, empties: int | None = None
) -> Position:
    """A table as it may look in any round: the cat on a tile, most other tiles holding a
    figure, the colour cards partly refilled, and `cards` prism cards from the deck."""
    cat = rng.randrange(TILES)
    pool = [c for c in range(6) for _ in range(FIGURES_PER_COLOUR)]
    rng.shuffle(pool)
    if empties is None:
        empties = rng.choice((0, 0, 1, 2, 3))
    tiles: list[int | None] = [None] * TILES
    free = [t for t in range(TILES) if t != cat]
    rng.shuffle(free)
    for t in free[empties:]:
        tiles[t] = pool.pop()
    supply = [0] * 6
    for c in pool:
        if supply[c] < CARD_CAPACITY and rng.random() < 0.8:
            supply[c] += 1
    floors = None
    if mode == COMPETITIVE:
        fl = [f for f in range(3) for _ in range(TILES // 3)]
        rng.shuffle(fl)
        floors = tuple(fl)
        deck = [Card(c, f) for c in range(6) for f in range(3) for _ in range(2)]
    else:
        deck = [Card(c) for c in range(6) for _ in range(2)]
    picked = rng.sample(deck, cards)
    return Position(mode, tuple(tiles), cat, tuple(supply), tuple(picked), floors)
