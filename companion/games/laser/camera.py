"""Laser at the camera (see companion.games): the ring's reader, and Laser's part of the
simulated table, the ring with the round's board (sim/ring.py) and the prism cards revealed
in the centre of the tray, where the card reader looks while they are being revealed."""

from __future__ import annotations

from collections import Counter

from companion.runtime.sim_scene import ScenePart

from .board import COLOURS, FLOORS, TEAM
from .read_ring import RingAdapter
from .sensing.cards import CENTRE, COPIES
from .sim.ring import Demonstrated, SimulatedRing

READERS = {"ring": RingAdapter}
DEMONSTRATING = ("mixing", "demonstration", "proof")  # the figures are moved


class LaserScene(ScenePart):
    def __init__(self, scene) -> None:
        super().__init__(scene)
        self.ring = SimulatedRing(scene.light)

    def play(self, state) -> None:
        super().play(state)
        self.ring.start(state.round)

    def follow(self, state, kinds: set[str]) -> None:
        ring, tray = self.ring, self.scene.tray
        if ring.round is not None and state.round > ring.round:
            ring.next_round(state.round)
            tray.lay(CENTRE, ())
        elif state.phase in DEMONSTRATING and ring.demonstrated is None:
            ring.demonstrate(_demonstrated(state))
        # Before a later round's cards, people refill the ring (the camera checks it),
        # then reveal: the picture turns to the centre with the first card.
        refilling = "ring" in kinds and not ring.cards
        self.scene.view = tray if "cards" in kinds and not refilling else ring

    def act(self, what: str, state, kinds: set[str]) -> str | None:
        return self._reveal_prism(state, kinds) if what == "reveal" else None

    def _reveal_prism(self, state, kinds: set[str]) -> str:
        if "cards" not in kinds:
            return "The prism cards are revealed at the start of a round."
        laid = self.ring.cards
        if len(laid) >= state.n_cards:
            return f"All {state.n_cards} prism cards are revealed."
        rng = self.scene.rng
        if state.mode == TEAM:
            counts = Counter(laid)
            card = rng.choice([c for c in COLOURS if counts[c] < COPIES])
        else:  # competitive cards show their floor too: "colour:floor", each card once
            card = rng.choice(
                [f"{c}:{f}" for c in COLOURS for f in FLOORS if f"{c}:{f}" not in laid]
            )
        self.ring.reveal(card)
        self.scene.tray.lay(CENTRE, self.ring.cards)
        self.scene.view = self.scene.tray  # the camera turns to the centre, where it lies
        return f"A {card.replace(':', ' on ')} prism card is revealed"


def _demonstrated(state) -> Demonstrated:
    """What the players set out to do: the round's cards, on the floors entered."""
    board = state.board or state.last_board
    floors = board[1] if board is not None else None
    return Demonstrated(state.mode, tuple(state.cards), None if floors is None else tuple(floors))


SCENE_PART = LaserScene
