"""The chute board's colour sensor, numbered into the round's tray slots.

The sensor reads each ball as it leaves the mill (`hardware.BallSensed`, numbered by the
board since it was switched on). Only the game knows where its round starts, so the k-th
reading of a round becomes `BallSeen(colour, k, confidence)`. The balls emptied before a
remix pass the chute too; they are not this round's and are left out.
"""

from __future__ import annotations

from companion.events import BallSeen
from companion.games.color_milk.mill import BALLS_PER_ROUND, COLOURS
from companion.games.color_milk.rules import READING_PHASES, SENSOR_MAX, MilkState

SENSED_TYPE = "hardware.BallSensed"


class ChuteSlots:
    def __init__(self) -> None:
        self.round: int | None = None
        self.count = 0

    def to_seen(self, state: MilkState, colour: str | None, confidence: float) -> BallSeen | None:
        """The reading as a tray slot, or None when it is not one of this round's five."""
        if state.phase not in READING_PHASES:
            return None
        if state.round != self.round:
            self.round, self.count = state.round, 0
        slot, self.count = self.count, self.count + 1
        if colour not in COLOURS or slot >= BALLS_PER_ROUND:
            return None  # too dark to tell (a person taps it in), or an extra ball
        return BallSeen(colour, slot, min(float(confidence), SENSOR_MAX))
