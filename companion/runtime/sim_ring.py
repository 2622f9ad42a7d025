"""The simulated Laser table: the ring of floor tiles as the camera sees it
(vision.render_ring), with the round's prism cards in its middle.

A game starts on a random board (the cat on one tile, at most four figures of a colour); each
new round's board follows the rulebook's refill (companion.games.laser.refill) after a few
figures were taken off, as a demonstration would. The picture is drawn again only when the
board or the cards changed.
"""

from __future__ import annotations

import random
import threading

from companion.games.laser.board import COLOURS
from companion.games.laser.refill import Table, refill

CARD_SIZE = (44, 62)  # pixels of a prism card in the ring's middle (display only)


class SimulatedRing:
    def __init__(self, light: str = "daylight", seed: int = 0) -> None:
        self.light = light
        self.rng = random.Random(seed)
        self.board = None  # vision.render_ring.RingBoard
        self.cards: tuple[str, ...] = ()  # the prism cards revealed this round ("colour[:floor]")
        self.round: int | None = None
        self.aside: tuple[int, ...] = ()  # figures the refill found no place for (colour index)
        self._lock = threading.Lock()
        self._drawn = None
        self._picture = None

    def start(self, number: int = 1) -> None:
        """A game comes to the table at round `number`: a random board, no cards."""
        from vision.render_ring import random_board

        with self._lock:
            self.board, self.cards, self.round = random_board(self.rng), (), number
            self.aside = ()

    def next_round(self, number: int) -> None:
        """Round `number` begins: some figures came off in the demonstration and went back
        as the refill says; the cards are gathered."""
        from vision.render_ring import CAT, RingBoard

        with self._lock:
            tiles = list(self.board.tiles)
            standing = [t for t, what in enumerate(tiles) if what not in (None, CAT)]
            taken = self.rng.sample(standing, min(len(standing), self.rng.randint(2, 4)))
            removed = [COLOURS.index(tiles[t]) for t in taken]
            for t in taken:
                tiles[t] = None
            cat = tiles.index(CAT)
            before = Table(
                tuple(None if t in (None, CAT) else COLOURS.index(t) for t in tiles),
                cat,
                tuple(self.board.spares.get(c, 0) for c in COLOURS),
            )
            done = refill(before, self.aside + tuple(removed))  # who waited longest goes first
            after, self.aside = done.table, done.aside
            tiles = [None if c is None else COLOURS[c] for c in after.tiles]
            tiles[cat] = CAT
            spares = dict(zip(COLOURS, after.supply, strict=True))
            self.board, self.cards, self.round = RingBoard(tuple(tiles), spares), (), number

    def reveal(self, colour: str) -> None:
        with self._lock:
            self.cards += (colour,)

    def frame(self, i: int):
        """The ring as the camera sees it, drawn again only when the board or the cards
        changed; the renderer's caches are let go after each drawing (see SimulatedTray)."""
        from vision.render import clear_caches
        from vision.render_ring import render_ring

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

    from vision.render import PALETTE_SRGB, WHITE_SRGB
    from vision.render_ring import ring_geometry

    (cx, cy), (w, h) = ring_geometry(picture.shape[1::-1]).centre, CARD_SIZE
    x = cx - len(cards) * (w + 8) / 2
    for card in cards:
        r, g, b = PALETTE_SRGB[card.split(":")[0]]  # "colour" or "colour:floor"
        top, left = int(cy - h / 2), int(x)
        cv2.rectangle(picture, (left, top), (left + w, top + h), WHITE_SRGB[::-1], -1)
        cv2.rectangle(picture, (left + 4, top + 4), (left + w - 4, top + h - 4), (b, g, r), -1)
        x += w + 8
