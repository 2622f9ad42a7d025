"""Color Milk at the camera (see companion.games): the shared readers (the balls in the tray,
the prediction cards in its seats' zones) and Color Milk's part of the simulated table: the
balls a resumed round left in the tray, the prediction cards laid face down in front of the
seats and turned face up."""

from __future__ import annotations

from companion.runtime.sim_scene import BACK, SEATS, ScenePart
from companion.runtime.sim_tray import BALL_COLOURS

from .state import READING_PHASES

READERS: dict = {}  # the tray's balls and cards are read by the shared readers


class MilkScene(ScenePart):
    def play(self, state) -> None:
        super().play(state)
        self.scene.tray.restore(self._balls_logged(state))

    def act(self, what: str, state, kinds: set[str]) -> str | None:
        if what == "lay":
            return self._lay_prediction(state)
        if what == "reveal":
            return self._reveal_predictions()
        return None

    def _balls_logged(self, state) -> list[str]:
        """The balls this round's log holds lie in the tray still (a game resumed mid-round,
        after a restart): in slot order, an unread one of any colour."""
        if state.phase not in READING_PHASES:
            return []
        slots = list(state.tray)
        while slots and not slots[-1]:
            slots.pop()
        return [c or self.scene.rng.choice(BALL_COLOURS) for c in slots]

    def _lay_prediction(self, state) -> str:
        tray = self.scene.tray
        for i, player in enumerate(state.players[:SEATS]):
            zone = f"seat{i + 1}"
            if not player.prediction and not tray.laid(zone):
                tray.lay(zone, (BACK,))
                return f"{player.name} lays a prediction card face down"
        return "Every player has a prediction card laid."

    def _reveal_predictions(self) -> str:
        tray, turned = self.scene.tray, 0
        for i in range(SEATS):
            zone = f"seat{i + 1}"
            cards = tray.laid(zone)
            if BACK in cards:
                shown = [c for c in cards if c != BACK]
                free = [c for c in BALL_COLOURS if c not in shown]
                up = self.scene.rng.sample(free, cards.count(BACK))
                tray.lay(zone, [c if c != BACK else up.pop() for c in cards])
                turned += 1
        return f"{turned} prediction{'s' * (turned != 1)} turned face up"


SCENE_PART = MilkScene
