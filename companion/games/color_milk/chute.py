"""The chute board's colour sensor, numbered into the round's tray slots.

The sensor reads each ball as it leaves the mill (`hardware.BallSensed`, numbered by the
board since it was switched on). Only the game knows where its round starts, so the k-th
reading of a round becomes `BallSeen(colour, k, confidence)`. The balls emptied before a
remix pass the chute too; they are not this round's and are left out. The count so far is
the sensor memory the runtime keeps for the game: `(round, readings this round)`.
"""

from __future__ import annotations

from companion.events import BallSeen
from companion.games.color_milk.mill import BALLS_PER_ROUND, COLOURS
from companion.games.color_milk.rules import READING_PHASES, SENSOR_MAX, MilkState

SENSED_TYPE = "hardware.BallSensed"
ChuteCount = tuple[int, int]  # (round, readings of that round so far)


def chute_slot(
    state: MilkState, count: ChuteCount | None, colour: str | None, confidence: float
) -> tuple[BallSeen | None, ChuteCount | None]:
    """The reading as a tray slot (None when it is not one of this round's five), and the
    count after it."""
    if state.phase not in READING_PHASES:
        return None, count
    seen = count[1] if count is not None and count[0] == state.round else 0
    count = (state.round, seen + 1)
    if colour not in COLOURS or seen >= BALLS_PER_ROUND:
        return None, count  # too dark to tell (a person taps it in), or an extra ball
    return BallSeen(colour, seen, min(float(confidence), SENSOR_MAX)), count
