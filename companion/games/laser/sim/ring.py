"""The simulated Laser table of the app's simulated camera (Laser's part of it: camera.py):
the ring of floor tiles as the camera sees it (vision.render.ring), with the round's prism
cards in its middle.

A game starts as the rulebook sets it up (full colour cards, a figure on every tile but the
cat's). The table changes only as people would change it: in a round with a demonstration
(the team's mixing, the lowest bidder's demonstration, the proof of an Impossible! claim)
the players play the cheapest solution of the round's prism cards by the rules (none if the
cards cannot be done), and the figures removed go back as the rulebook's refill says
(refill.py). A round without one (an Impossible! claim nobody disputed) leaves the table as
it was. The picture is drawn again only when the board or the cards changed.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass

from ..board import (
    CARD_CAPACITY,
    COLOURS,
    COMPETITIVE,
    FIGURES_PER_COLOUR,
    FLOORS,
    TILES,
)
from ..refill import Table, refill

CARD_SIZE = (44, 62)  # pixels of a prism card in the ring's middle (display only)
# Competitive floors when the game has none entered yet: the box's four of each, in a row.
DEFAULT_FLOORS = tuple(FLOORS[t // 4] for t in range(TILES))


@dataclass(frozen=True)
class Demonstrated:
    """What the players set out to do this round: the prism cards (colour, floor or None)
    and the tiles' floors (competitive)."""

    mode: str
    cards: tuple[tuple[str, str | None], ...]
    floors: tuple[str, ...] | None = None


class SimulatedRing:
    def __init__(self, light: str = "daylight", seed: int = 0) -> None:
        self.light = light
        self.rng = random.Random(seed)
        self.board = None  # vision.render.ring_board.RingBoard
        self.cards: tuple[str, ...] = ()  # the prism cards revealed this round ("colour[:floor]")
        self.round: int | None = None
        self.aside: tuple[int, ...] = ()  # figures the refill found no place for (colour index)
        self.demonstrated: Demonstrated | None = None  # this round's demonstration, if any
        self._lock = threading.Lock()
        self._drawn = None
        self._picture = None

    def start(self, number: int = 1) -> None:
        """A game comes to the table at round `number`, set up as the rulebook says: two
        figures on each colour card, a random figure on every tile but the cat's (the one
        figure left over stays in the box), no cards."""
        from vision.render.ring_board import CAT, RingBoard

        with self._lock:
            pool = [c for c in COLOURS for _ in range(FIGURES_PER_COLOUR - CARD_CAPACITY)]
            self.rng.shuffle(pool)
            tiles = [pool.pop() for _ in range(TILES)]
            tiles[self.rng.randrange(TILES)] = CAT
            spares = dict.fromkeys(COLOURS, CARD_CAPACITY)
            self.board, self.cards, self.round = RingBoard(tuple(tiles), spares), (), number
            self.aside, self.demonstrated = (), None

    def demonstrate(self, what: Demonstrated) -> None:
        """A demonstration (or a proof) is under way this round: its moves are played as
        the round ends."""
        with self._lock:
            self.demonstrated = what

    def next_round(self, number: int) -> None:
        """Round `number` begins: the demonstration's moves were played (if there was one),
        the figures removed went back as the refill says; the cards are gathered."""
        from vision.render.ring_board import CAT, RingBoard

        with self._lock:
            cat = self.board.tiles.index(CAT)
            before = Table(
                tuple(None if t in (None, CAT) else COLOURS.index(t) for t in self.board.tiles),
                cat,
                tuple(self.board.spares.get(c, 0) for c in COLOURS),
            )
            before, removed = _played(before, self.demonstrated)
            done = refill(before, self.aside + tuple(removed))  # who waited longest goes first
            after, self.aside = done.table, done.aside
            tiles = [None if c is None else COLOURS[c] for c in after.tiles]
            tiles[after.cat] = CAT
            spares = dict(zip(COLOURS, after.supply, strict=True))
            self.board, self.cards, self.round = RingBoard(tuple(tiles), spares), (), number
            self.demonstrated = None

    def reveal(self, colour: str) -> None:
        with self._lock:
            self.cards += (colour,)

    def empty_frame(self):
        """The ring with nothing on it, under the same light: where the camera finds it."""
        from vision.render.ring import render_ring
        from vision.render.ring_board import EMPTY_BOARD

        return render_ring(EMPTY_BOARD, self.light)

    def frame(self, i: int):
        """The ring as the camera sees it, drawn again only when the board or the cards
        changed; the renderer's caches are let go after each drawing (see SimulatedTray)."""
        from vision.render.ring import render_ring
        from vision.render.tray import clear_caches

        with self._lock:
            key = (self.board, self.cards)
        if key != self._drawn:
            picture = render_ring(key[0], self.light, frame=i)
            _lay_cards(picture, key[1])
            self._picture, self._drawn = picture, key
            clear_caches()
        return self._picture


def _lay_cards(picture, cards) -> None:
    """The prism cards in a row in the ring's middle, where no reader looks: for people
    watching the simulated camera."""
    import cv2

    from vision.render.ring_board import ring_geometry
    from vision.render.tray import PALETTE_SRGB, WHITE_SRGB

    (cx, cy), (w, h) = ring_geometry(picture.shape[1::-1]).centre, CARD_SIZE
    x = cx - len(cards) * (w + 8) / 2
    for card in cards:
        r, g, b = PALETTE_SRGB[card.split(":")[0]]  # "colour" or "colour:floor"
        top, left = int(cy - h / 2), int(x)
        cv2.rectangle(picture, (left, top), (left + w, top + h), WHITE_SRGB[::-1], -1)
        cv2.rectangle(picture, (left + 4, top + 4), (left + w - 4, top + h - 4), (b, g, r), -1)
        x += w + 8


def _played(table: Table, what: Demonstrated | None) -> tuple[Table, list[int]]:
    """The table after the demonstration's moves, and the figures they removed in order."""
    from companion.errors import UsageError

    from ..board import Card, Position
    from ..competitive import PROPOSAL_WORK
    from ..solver import solve
    from ..solver.limit import Limit

    if what is None or not what.cards:
        return table, []
    floors = None
    if what.mode == COMPETITIVE:
        floors = tuple(FLOORS.index(f) for f in (what.floors or DEFAULT_FLOORS))
    try:
        pos = Position(
            what.mode,
            table.tiles,
            table.cat,
            table.supply,
            tuple(
                Card(COLOURS.index(c), None if f is None else FLOORS.index(f))
                for c, f in what.cards
            ),
            floors,
        )
    except UsageError:
        return table, []  # cards the table cannot hold (tapped in wrong): nobody moves
    moves = solve(pos, totals=False, limit=Limit(work=PROPOSAL_WORK)).moves  # () if none
    tiles, supply, cat, removed = list(table.tiles), list(table.supply), table.cat, []
    for m in moves:
        if m.kind == "cat":
            removed.append(tiles[m.dst])
            tiles[m.dst], cat = None, m.dst
            continue
        removed += [tiles[m.src], tiles[m.dst]]
        tiles[m.src] = tiles[m.dst] = None
        if supply[m.makes] > 0:  # the mixed figure comes from its colour card, if any is left
            supply[m.makes] -= 1
            tiles[m.dst] = m.makes
    return Table(tuple(tiles), cat, tuple(supply)), removed
