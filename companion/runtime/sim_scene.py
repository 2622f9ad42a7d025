"""What the simulated table's camera looks at: the game in play, as it is being played.

Color Milk: the tray with the balls dropped down the simulated chute and the prediction
cards in front of the seats. Laser: the ring with the round's board and prism cards (while
the prism cards are being revealed, the centre of the table where the card reader looks).
Node: the table with the cards laid. The simulated strip and keys act on it ("lay", "reveal")
as people would at the table; the readers see it through the same camera link as a real
table. Each picture is drawn again only when something on it changed.
"""

from __future__ import annotations

import random

from companion.runtime.sim_node import SimulatedNode
from companion.runtime.sim_ring import SimulatedRing
from companion.runtime.sim_tray import BALL_COLOURS, SimulatedTray

CENTRE = "centre"  # the card zone where Laser's prism cards are revealed
BACK = "back"  # a card lying face down (vision.card_zones.BACK)
SEATS = 5  # card zones in front of the seats
ACTIONS = ("lay", "reveal")  # what the strip's "Lay card" and "Reveal" do


class SimulatedScene:
    def __init__(self, light: str = "daylight", tray: SimulatedTray | None = None) -> None:
        self.tray = tray or SimulatedTray(light)
        self.ring = SimulatedRing(light)
        self.node = SimulatedNode(light)
        self.game = ""
        self.rng = random.Random()
        self._view = self.tray
        self._round = None

    def frame(self, i: int):
        return self._view.frame(i)

    def play(self, game: str, state) -> None:
        """A game comes to the table: its own pieces, nothing left from the one before."""
        self.game, self._round = game, getattr(state, "round", None)
        self.tray.clear_cards()
        if game == "laser":
            self.ring.start(state.round)
        elif game == "node":
            self.node.start(state)

    def follow(self, state, kinds: set[str]) -> None:
        """The state changed (`kinds`: the readers it wants): a new round clears the table
        as people would, and the camera looks where the readers do."""
        if self.game == "laser":
            if self.ring.round is not None and state.round > self.ring.round:
                self.ring.next_round(state.round)
                self.tray.lay(CENTRE, ())
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
        from companion.games.laser.card_sensing import COPIES

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


class TableWithScene:
    """The simulated table, its dropped balls also rolling into the rendered tray and its
    "lay"/"reveal" keys acting on the scene. `draw()` picks the colour of a ball dropped
    without one (None: any colour); `act(what)` does what the strip's table buttons do."""

    def __init__(self, table, scene: SimulatedScene, draw=None, act=None) -> None:
        self._table, self.scene, self._draw, self._act = table, scene, draw, act

    def drop_ball(self, colour: str | None = None):
        # a ball always has a colour, and one that could be in there
        colour = colour or (self._draw and self._draw()) or random.choice(BALL_COLOURS)
        self.scene.tray.add(colour)
        return self._table.drop_ball(colour)

    def act(self, what: str) -> None:
        if self._act is not None:
            self._act(what)

    def handle_key(self, key: str, down: bool = True) -> bool:
        from hardware.table import SIM_KEYS

        what = SIM_KEYS.get(key.lower())
        if what == "ball" or what in ACTIONS:
            if down:
                self.drop_ball() if what == "ball" else self.act(what)
            return True
        return self._table.handle_key(key, down)

    def __getattr__(self, name):
        return getattr(self._table, name)
