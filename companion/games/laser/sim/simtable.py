"""The simulated Laser table for `companion demo laser`: what really lies on it (the ring, the
colour cards, the figures put aside, the prism cards revealed) and what the camera sees of
it (`vision.render.ring` for the ring, `vision.render.cards` for the centre).

It changes only as people at a table would: the prism cards are drawn from a shuffled deck
and laid one by one, a solution's moves are played figure by figure, and the refill is laid
as the app lists it, with a figure now and then put on the wrong tile (`lay_refill(slip=True)`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..board import CARD_CAPACITY, COLOURS, FLOORS, TEAM, TILES
from ..refill import Refill, Table, refill
from ..solver.moves import Move

CAT = "cat"


@dataclass(frozen=True)
class Slip:
    """A figure of the refill not where the app said (`meant`: a tile, None for its colour
    card): "wrong tile", on the empty `tile` the refill leaves alone; "wrong figure", on the
    refill's `tile` instead of the `displaced` figure meant there (left aside), a colour no
    order of the refill puts there; "forgotten", left on the prism card."""

    kind: str
    colour: int
    meant: int | None
    tile: int | None = None
    displaced: int | None = None


class SimulatedLaserTable:
    def __init__(self, mode: str, light: str, seed: int) -> None:
        self.mode, self.light, self.seed = mode, light, seed
        self.rng = random.Random(seed)
        pool = [c for c in range(6) for _ in range(4 - CARD_CAPACITY)]  # two of each are spare
        self.rng.shuffle(pool)
        self.cat = self.rng.randrange(TILES)
        tiles: list[int | None] = [None] * TILES
        for t in range(TILES):
            if t != self.cat:
                tiles[t] = pool.pop()
        self.tiles = tiles
        self.supply = [CARD_CAPACITY] * 6
        self.aside: list[int] = []  # put aside until the next refill (the box keeps `pool`)
        self.floors = tuple(FLOORS[t % 3] for t in range(TILES)) if mode != TEAM else None
        self.cards: list[tuple[str, str | None]] = []
        self.scene = 0  # a new scene (the figures stand a little elsewhere) for each round
        self.light_seed = seed * 100  # one lamp over the whole game
        self.frames = 0

    # what lies on the table --------------------------------------------------------------
    def table(self) -> Table:
        return Table(tuple(self.tiles), self.cat, tuple(self.supply))

    def ring(self) -> tuple[str | None, ...]:
        return tuple(
            CAT if t == self.cat else None if c is None else COLOURS[c]
            for t, c in enumerate(self.tiles)
        )

    def draw_cards(self, n: int) -> list[tuple[str, str | None]]:
        """Shuffle the deck (two of each card) and draw `n` for the round."""
        floors = (None,) if self.mode == TEAM else FLOORS
        deck = [(c, f) for c in COLOURS for f in floors for _ in range(2)]
        self.rng.shuffle(deck)
        self.cards = []
        self.scene += 1
        return deck[:n]

    # the round ---------------------------------------------------------------------------
    def play(self, moves: tuple[Move, ...]) -> list[int]:
        """Play a solution's moves; the figures that left the board, in order."""
        removed: list[int] = []
        for m in moves:
            if m.kind == "cat":
                removed.append(self.tiles[m.dst])
                self.tiles[m.dst] = None
                self.cat = m.dst
                continue
            removed += [self.tiles[m.src], self.tiles[m.dst]]
            self.tiles[m.src] = self.tiles[m.dst] = None
            if self.supply[m.makes] > 0:
                self.supply[m.makes] -= 1
                self.tiles[m.dst] = m.makes
        return removed

    def lay_refill(self, removed: list[int], slip: bool) -> tuple[Refill, Slip | None]:
        """Lay the refill as the app lists it (refill.py; figures aside first, then the removed
        ones in circle order, as the app cannot know the order they left); with `slip`, one figure
        goes wrong: onto a tile the refill leaves empty, else onto another figure's tile, else
        (every such slip would still be a legal refill) it is forgotten."""
        plan = refill(self.table(), self.aside + sorted(removed))
        self.tiles, self.supply = list(plan.table.tiles), list(plan.table.supply)
        self.aside = list(plan.aside)
        self.scene += 1
        if not slip or not plan.placements:
            return plan, None
        spare = [t for t in range(TILES) if self.tiles[t] is None and t != self.cat]
        onto = [p for p in plan.placements if p.tile is not None]
        # a colour that goes to no tile and is not aside cannot stand on a refilled tile
        free = {p.colour for p in onto} | set(plan.aside)
        to_card = [p for p in plan.placements if p.tile is None and p.colour not in free]
        if spare:
            p = self.rng.choice(plan.placements)
            s = Slip("wrong tile", p.colour, p.tile, self.rng.choice(spare))
        elif onto and to_card:
            p, q = self.rng.choice(to_card), self.rng.choice(onto)
            s = Slip("wrong figure", p.colour, None, q.tile, q.colour)
        else:
            p = self.rng.choice(plan.placements)
            s = Slip("forgotten", p.colour, p.tile)
        self._move(s, undo=False)
        return plan, s

    def undo_slip(self, slip: Slip) -> None:
        self._move(slip, undo=True)

    def _move(self, s: Slip, undo: bool) -> None:
        """Make the slip (take the figure from where it was meant to go) or put it right."""
        step = 1 if undo else -1
        if s.meant is None:
            self.supply[s.colour] += step
        else:
            self.tiles[s.meant] = s.colour if undo else None
        if s.kind == "wrong tile":
            self.tiles[s.tile] = None if undo else s.colour
        if s.kind == "wrong figure":
            self.tiles[s.tile] = s.displaced if undo else s.colour
            if undo:
                self.aside.remove(s.displaced)
            else:
                self.aside.append(s.displaced)

    # what the camera sees ------------------------------------------------------------------
    def ring_frame(self, hand: bool = False):
        from vision.render.ring import render_ring
        from vision.render.ring_board import RingBoard

        self.frames += 1
        board = RingBoard(self.ring(), dict(zip(COLOURS, self.supply, strict=True)))
        return render_ring(
            board,
            self.light,
            self.seed * 100 + self.scene,
            frame=self.frames,
            hand=hand,
            light_seed=self.light_seed,
        )

    def empty_ring(self):
        """The ring before the figures were set up: where the camera finds it each game."""
        from companion.games.laser.sim.demonstration_frames import empty_ring

        return empty_ring(self.light, self.light_seed)

    def demonstration_frames(self, pos, moves: tuple[Move, ...], hands: bool) -> list:
        """What the camera sees as the players make `moves` from `pos` (the table's position):
        every position at rest, a hand carrying each figure between two
        (demonstration_frames.py); `hands=False` leaves the hands out. `play` makes them."""
        from companion.games.laser.sim.demonstration_frames import demonstration_shots

        shots = demonstration_shots(
            pos, moves, self.light, self.seed * 100 + self.scene, light_seed=self.light_seed
        )
        frames = [s.frame for s in shots if hands or not s.hand]
        self.frames += len(frames)
        return frames

    def centre_frame(self, hand: bool = False):
        from vision.render.cards import CENTRE, render_seats

        self.frames += 1
        cards = [c for c, _ in self.cards]
        return render_seats(
            {CENTRE: cards},
            self.light,
            self.seed * 100 + self.scene,
            frame=self.frames,
            angle=15,
            hand=CENTRE if hand else None,
        )

    def empty_centre(self):
        from vision.render.cards import empty_table

        return empty_table(self.light, self.seed * 100 + self.scene)
