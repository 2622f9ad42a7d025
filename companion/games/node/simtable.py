"""The simulated Node table: cards laid by hand, a little off the grid, as the camera sees them.

Used by `companion demo node`, the placement reader's benchmark and its tests. A card laid
here lies up to a third of a node off its grid position and up to 10 degrees askew; a turn's
frames show the hand reaching in and laying it, then the table held still. The camera may
have been nudged since the set-up (`camera`: the mat lies elsewhere in the frame than where
the calibration saw it).
"""

from __future__ import annotations

import numpy as np

from vision.node.watch import STEADY
from vision.render.node import (
    Hand,
    LaidCard,
    TableLayout,
    default_layout,
    nudged,
    render_node_table,
)

from .events import Discard, PlaceCard
from .geometry import card_rows, footprint, rotate

MAX_OFFSET = 1 / 3  # nodes
MAX_ANGLE = 10.0  # degrees
# how far a camera arm gets nudged between game nights: pixels, degrees, zoom
NUDGE = (10.0, 5.0, (0.94, 1.05))


def nudge(rng) -> tuple[float, float, float, float]:
    """A camera nudged at random within `NUDGE`: (dx, dy, turn, scale)."""
    shift, turn, (lo, hi) = NUDGE
    return (
        float(rng.uniform(-shift, shift)),
        float(rng.uniform(-shift, shift)),
        float(rng.uniform(-turn, turn)),
        float(rng.uniform(lo, hi)),
    )


class SimulatedNodeTable:
    def __init__(
        self,
        light: str = "daylight",
        seed: int = 0,
        layout: TableLayout | None = None,
        camera: tuple[float, float, float, float] | None = None,
    ) -> None:
        self.light, self.seed = light, seed
        self.set_up = layout or default_layout()  # where the calibration saw the lattice
        self.layout = nudged(self.set_up, *camera) if camera else self.set_up  # ... and now
        self.rng = np.random.default_rng([seed, 21])
        self.cards: list[LaidCard] = []
        self.frames = 0

    def lay(self, colours, row: int, col: int, rotation: int, height: int = 2, width: int = 3):
        """Lay a card (as PlaceCard describes it) a little off the grid; returns it."""
        rows = rotate(card_rows(tuple(colours), height, width), rotation)
        r = self.rng
        card = LaidCard(
            rows,
            row,
            col,
            float(r.uniform(-MAX_OFFSET, MAX_OFFSET)),
            float(r.uniform(-MAX_OFFSET, MAX_OFFSET)),
            float(r.uniform(-MAX_ANGLE, MAX_ANGLE)),
        )
        self.cards.append(card)
        return card

    def frame(self, hand: Hand | None = None, cards=None):
        self.frames += 1
        cards = self.cards if cards is None else cards
        return render_node_table(
            cards, self.light, self.seed, self.layout, frame=self.frames, hand=hand
        )

    def turn(self, hand: bool = True) -> list:
        """The frames of the last card's turn: a hand reaching in, laying the card and
        leaving (when `hand`), then the table held still."""
        out = []
        if hand:
            card = self.cards[-1]
            h, w = card.shape
            ((x, y),) = self.layout.project(card.to_table([[w / 2, h / 2]]))
            side = ("bottom", "top", "left", "right")[int(self.rng.integers(4))]
            mx, my = np.mean(self.layout.corners, axis=0)  # on its way from the middle
            reaching = Hand((x * 0.6 + mx * 0.4, y * 0.6 + my * 0.4), side)
            out.append(self.frame(reaching, self.cards[:-1]))
            out.append(self.frame(Hand((x, y), side)))
            out.append(self.frame(Hand((x + 15, y + 25), side)))
        out += [self.frame() for _ in range(STEADY + 1)]
        return out


def truth(colours, row, col, rotation, height=2, width=3) -> dict:
    """Table cell -> colour of a card as PlaceCard describes it."""
    return footprint(tuple(colours), height, width, row, col, rotation)


def random_placements(count: int, seed: int = 0, *, deck: int = 24, lights=None):
    """`count` legal placements from seeded random games of Node on the simulated table
    (a new game, under the next light and with the camera nudged anew, every `deck` cards):
    yields (table, state before, the PlaceCard, the card as it lies). The card is already
    laid on `table`."""
    import random

    from companion.game import GameConfig
    from vision.render.tray import LIGHTS

    from .rules import GAME

    lights = tuple(lights or LIGHTS)
    done, game = 0, 0
    while done < count:
        rng = random.Random(seed * 100_003 + game)
        camera = nudge(np.random.default_rng([seed, game, 7]))
        table = SimulatedNodeTable(lights[game % len(lights)], seed * 1000 + game, camera=camera)
        cols, rows = table.layout.grid
        config = GameConfig(("a", "b"), {"table_width": cols, "table_height": rows, "deck": deck})
        state = GAME.initial_state(config)
        game += 1
        while done < count and not state.over:
            card = tuple(rng.choice(state.colours) for _ in range(6))
            spots = GAME.legal_placements(state, card)
            if not spots:
                state, _ = GAME.apply(state, Discard(state.current))
                continue
            row, col, rot = rng.choice(spots)
            want = PlaceCard(state.current, card, row, col, rot)
            laid = table.lay(card, row, col, rot)
            yield table, state, want, laid
            state, _ = GAME.apply(state, want)
            done += 1
