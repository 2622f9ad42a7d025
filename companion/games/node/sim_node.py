"""The simulated Node table of the app's simulated camera (Node's part of it: camera.py), as
the camera sees it (simtable.py), with a scripted hand of cards for each player: "lay card"
puts the current player's next card that fits where the rules allow it, a little off the
grid and askew as people lay cards. Each game the camera has been nudged a little since the
set-up (the reader finds the mat anew). The picture is drawn again only when a card was
laid."""

from __future__ import annotations

import random
import threading

HAND = 5  # cards in each scripted hand
CARD = (2, 3)  # nodes down and across: the only card the simulated table draws


class SimulatedNode:
    own_camera = True  # nudged anew each game by the table itself (see start)

    def __init__(self, light: str = "daylight", seed: int = 0) -> None:
        from vision.render.node import default_layout

        self.light, self.seed = light, seed
        self.layout = default_layout()
        self.rng = random.Random(seed)
        self.table = None  # simtable.SimulatedNodeTable
        self.hands: dict[str, list[tuple[str, ...]]] = {}
        self.games = 0  # games started: a new table is drawn afresh
        self._lock = threading.Lock()
        self._drawn = None
        self._picture = None

    def start(self, state) -> None:
        """A new game: an empty table of the game's size, a fresh hand for everyone."""
        import numpy as np

        from vision.render.node import default_layout

        from .simtable import SimulatedNodeTable, nudge

        with self._lock:
            self.layout = default_layout(state.width, state.height)  # as set up
            camera = nudge(np.random.default_rng([self.seed, self.games, 11]))
            self.table = SimulatedNodeTable(self.light, self.seed, self.layout, camera)
            self.games += 1
            self.hands = {p: [self._card(state) for _ in range(HAND)] for p in state.players}

    def lay(self, state) -> str:
        """Lay the current player's next card that fits; what happened, for people."""
        from .rules import GAME

        if state.over:
            return "The game is over: no more cards to lay."
        if (state.card_height, state.card_width) != CARD or self.table is None:
            return "The simulated table only lays 2 x 3 cards."
        with self._lock:
            hand = self.hands.setdefault(state.current, [])
            for card in self.rng.sample(hand, len(hand)):
                spots = GAME.legal_placements(state, card)
                if spots:
                    row, col, rotation = self.rng.choice(spots)
                    self.table.lay(card, row, col, rotation)
                    hand.remove(card)
                    hand.append(self._card(state))
                    return f"{state.current} lays {'/'.join(card)} on the table"
        return f"No card in {state.current}'s hand fits: discard one on the screen."

    def laid(self) -> int:
        """How many cards lie on the table."""
        with self._lock:
            return len(self.table.cards) if self.table is not None else 0

    def picture(self, laid: int):
        """The table with only its first `laid` cards (drawn for the occasion)."""
        from vision.render.node import render_node_table

        with self._lock:
            cards = list(self.table.cards[:laid]) if self.table is not None else []
        return render_node_table(cards, self.light, self.seed, self._drawn_layout())

    def frame(self, i: int):
        from vision.render.node import render_node_table
        from vision.render.tray import clear_caches

        with self._lock:
            table = self.table
            key = (self.games, len(table.cards) if table else 0)
        if key != self._drawn:
            cards = list(table.cards) if table else []
            self._picture = render_node_table(
                cards, self.light, self.seed, self._drawn_layout(), frame=i
            )
            self._drawn = key
            clear_caches()  # as SimulatedTray: the next drawing builds what it needs
        return self._picture

    def _drawn_layout(self):
        """Where the mat lies in the camera's view this game."""
        return self.table.layout if self.table is not None else self.layout

    def _card(self, state) -> tuple[str, ...]:
        return tuple(self.rng.choice(state.colours) for _ in range(CARD[0] * CARD[1]))
