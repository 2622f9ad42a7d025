"""What the simulated table's camera looks at: the game in play, as it is being played.

Color Milk: the tray with the balls dropped down the simulated chute and the prediction
cards in front of the seats. Laser: the ring with the round's board and prism cards (while
the prism cards are being revealed, the centre of the table where the card reader looks).
Node: the table with the cards laid. The simulated strip and keys act on it ("lay", "reveal")
as people would at the table; the readers see it through the same camera link as a real
table. Each picture is drawn again only when something on it changed.
"""

from __future__ import annotations

import math
import random

from companion.runtime.sim_node import SimulatedNode
from companion.runtime.sim_ring import SimulatedRing
from companion.runtime.sim_tray import BALL_COLOURS, SimulatedTray
from hardware.sim_hands import SIM_KEYS

CENTRE = "centre"  # the card zone where Laser's prism cards are revealed
BACK = "back"  # a card lying face down (vision.card_zones.BACK)
SEATS = 5  # card zones in front of the seats
ACTIONS = ("lay", "reveal")  # what the strip's "Lay card" and "Reveal" do
DEMONSTRATING = ("mixing", "demonstration", "proof")  # Laser: the figures are moved
# How far the camera arm gets nudged between games: shift (pixels), turn (degrees), zoom.
NUDGE = (8.0, 3.0, 0.03)


class SimulatedScene:
    """`nudge`: the camera is knocked a little each time a game comes to the table, as a
    real camera arm is, and the readers must find the table again."""

    def __init__(
        self, light: str = "daylight", tray: SimulatedTray | None = None, nudge: bool = False
    ) -> None:
        self.tray = tray or SimulatedTray(light)
        self.ring = SimulatedRing(light)
        self.node = SimulatedNode(light)
        self.game = ""
        self.rng = random.Random()
        self.nudge = nudge
        self.camera = None  # the nudge in force: a 2x3 affine map of the frame, or None
        self._warped: tuple = (None, None, None)  # (picture, nudge, the picture seen) last
        self._view = self.tray
        self._round = None

    def frame(self, i: int):
        if self._view is self.node:
            return self._view.frame(i)  # the Node table nudges its own camera each game
        return self._seen(self._view.frame(i))

    def empty_tray(self):
        """The tray before this round's balls, as the camera sees it."""
        return self._seen(self.tray.frame(0, empty=True))

    def _seen(self, frame):
        """The picture through the nudged camera: warped once per picture, as each picture
        is drawn once (the camera takes five frames a second of the same picture)."""
        camera = self.camera
        if camera is None:
            return frame
        picture, nudge, seen = self._warped
        if picture is frame and nudge is camera:
            return seen
        import cv2

        h, w = frame.shape[:2]
        seen = cv2.warpAffine(frame, camera, (w, h), borderMode=cv2.BORDER_REPLICATE)
        self._warped = (frame, camera, seen)
        return seen

    def play(self, game: str, state) -> None:
        """A game comes to the table: its own pieces, nothing left from the one before."""
        if self.nudge:
            self._knock()
        self.game, self._round = game, getattr(state, "round", None)
        self.tray.clear_cards()
        if game == "color-milk":
            self.tray.restore(self._balls_logged(state))
        if game == "laser":
            self.ring.start(state.round)
        elif game == "node":
            self.node.start(state)

    def _balls_logged(self, state) -> list[str]:
        """Color Milk: the balls this round's log holds lie in the tray still (a game
        resumed mid-round, after a restart): in slot order, an unread one of any colour."""
        from companion.games.color_milk.state import READING_PHASES

        if state.phase not in READING_PHASES:
            return []
        slots = list(state.tray)
        while slots and not slots[-1]:
            slots.pop()
        return [c or self.rng.choice(BALL_COLOURS) for c in slots]

    def _knock(self) -> None:
        import numpy as np

        shift, turn, zoom = NUDGE
        a = math.radians(self.rng.uniform(-turn, turn))
        k = 1 + self.rng.uniform(-zoom, zoom)
        w, h = 640, 480  # the frames' size: the nudge turns about their centre
        c, s = k * math.cos(a), k * math.sin(a)
        dx, dy = (self.rng.uniform(-shift, shift) for _ in range(2))
        self.camera = np.array(
            [[c, -s, (1 - c) * w / 2 + s * h / 2 + dx], [s, c, (1 - c) * h / 2 - s * w / 2 + dy]]
        )

    def follow(self, state, kinds: set[str]) -> None:
        """The state changed (`kinds`: the readers it wants): a new round clears the table
        as people would, and the camera looks where the readers do."""
        if self.game == "laser":
            if self.ring.round is not None and state.round > self.ring.round:
                self.ring.next_round(state.round)
                self.tray.lay(CENTRE, ())
            elif state.phase in DEMONSTRATING and self.ring.demonstrated is None:
                self.ring.demonstrate(_demonstrated(state))
            # Before a later round's cards, people refill the ring (the camera checks it),
            # then reveal: the picture turns to the centre with the first card.
            refilling = "ring" in kinds and not self.ring.cards
            self._view = self.tray if "cards" in kinds and not refilling else self.ring
        elif self.game == "node":
            self._view = self.node
        else:
            if getattr(state, "round", None) != self._round:
                self._round = state.round
                self.tray.clear_cards()
            self._view = self.tray

    def act(self, what: str, state, kinds: set[str]) -> str:
        """Lay or reveal what the game in play lays next; what happened, for people."""
        if what == "lay" and self.game == "color-milk":
            return self._lay_prediction(state)
        if what == "lay" and self.game == "node":
            return self.node.lay(state)
        if what == "reveal" and self.game == "color-milk":
            return self._reveal_predictions()
        if what == "reveal" and self.game == "laser":
            return self._reveal_prism(state, kinds)
        return "Nothing to lay or reveal on the table now."

    def _lay_prediction(self, state) -> str:
        for i, player in enumerate(state.players[:SEATS]):
            zone = f"seat{i + 1}"
            if not player.prediction and not self.tray.laid(zone):
                self.tray.lay(zone, (BACK,))
                return f"{player.name} lays a prediction card face down"
        return "Every player has a prediction card laid."

    def _reveal_predictions(self) -> str:
        turned = 0
        for i in range(SEATS):
            zone = f"seat{i + 1}"
            cards = self.tray.laid(zone)
            if BACK in cards:
                shown = [c for c in cards if c != BACK]
                free = [c for c in BALL_COLOURS if c not in shown]
                up = self.rng.sample(free, cards.count(BACK))
                self.tray.lay(zone, [c if c != BACK else up.pop() for c in cards])
                turned += 1
        return f"{turned} prediction{'s' * (turned != 1)} turned face up"

    def _reveal_prism(self, state, kinds: set[str]) -> str:
        from collections import Counter

        from companion.games.laser.board import COLOURS, FLOORS, TEAM
        from companion.games.laser.sensing.cards import COPIES

        if "cards" not in kinds:
            return "The prism cards are revealed at the start of a round."
        laid = self.ring.cards
        if len(laid) >= state.n_cards:
            return f"All {state.n_cards} prism cards are revealed."
        if state.mode == TEAM:
            counts = Counter(laid)
            card = self.rng.choice([c for c in COLOURS if counts[c] < COPIES])
        else:  # competitive cards show their floor too: "colour:floor", each card once
            card = self.rng.choice(
                [f"{c}:{f}" for c in COLOURS for f in FLOORS if f"{c}:{f}" not in laid]
            )
        self.ring.reveal(card)
        self.tray.lay(CENTRE, self.ring.cards)
        self._view = self.tray  # the camera turns to the centre, where the card lies
        return f"A {card.replace(':', ' on ')} prism card is revealed"


def _demonstrated(state):
    """What the Laser players set out to do: the round's cards, on the floors entered."""
    from companion.runtime.sim_ring import Demonstrated

    board = state.board or state.last_board
    floors = board[1] if board is not None else None
    return Demonstrated(state.mode, tuple(state.cards), None if floors is None else tuple(floors))


class HandsWithScene:
    """The simulated table's hands (hardware.sim_hands.SimulatedHands), a ball they drop also
    rolling into the rendered tray and the "lay"/"reveal" keys acting on the scene. `draw()`
    picks the colour of a ball dropped without one (None: any colour); `act(what)` does what
    the strip's table buttons do."""

    def __init__(self, hands, scene: SimulatedScene, draw=None, act=None) -> None:
        self._hands, self.scene, self._draw, self._act = hands, scene, draw, act
        self.pins = hands.pins

    def press(self, button: str, seconds: float | None = None):
        return self._hands.press(button, seconds)

    def hold_down(self, button: str) -> None:
        self._hands.hold_down(button)

    def let_go(self, button: str):
        return self._hands.let_go(button)

    def drop_ball(self, colour: str | None = None):
        # a ball always has a colour, and one that could be in there
        colour = colour or (self._draw and self._draw()) or random.choice(BALL_COLOURS)
        self.scene.tray.add(colour)
        return self._hands.drop_ball(colour)

    def act(self, what: str) -> None:
        if self._act is not None:
            self._act(what)

    def handle_key(self, key: str, down: bool = True) -> bool:
        what = SIM_KEYS.get(key.lower())
        if what == "ball" or what in ACTIONS:
            if down:
                self.drop_ball() if what == "ball" else self.act(what)
            return True
        return self._hands.handle_key(key, down)
