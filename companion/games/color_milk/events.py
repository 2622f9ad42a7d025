"""What people tap in during a Color Milk game. Balls come as the core BallSeen/BallPassed."""

from __future__ import annotations

from companion.events import Event, event

NAMESPACE = "color-milk"


@event(NAMESPACE)
class Predict(Event):
    """A player's face-down cards, revealed: 1-5 distinct colours. `zone` is "" for a free
    prediction, or "double"/"triple" when it is one printed in the board's prediction zone."""

    player: str
    colours: tuple[str, ...]
    zone: str = ""


@event(NAMESPACE)
class Choose(Event):
    """The player takes the ball(s) at `slots` of the current row. Without a bonus: one of
    slots 0-2. Board 5 bonuses: "any1" takes any one slot, "any2" any two."""

    player: str
    slots: tuple[int, ...]
    bonus: str = ""


@event(NAMESPACE)
class Tally(Event):
    """A change the board's artwork decides: coins from areas, bonus pencils circled, pencils
    used. `item` is "coins", "pencils" or "used"; `delta` may be negative to correct."""

    player: str
    item: str
    delta: int = 1


@event(NAMESPACE)
class Count(Event):
    """A count the end bonuses need, entered or confirmed by the player: "warriors" (board 5),
    "railways" (3), "market", "camels", "ghost_towns", "treasure_cave" (6)."""

    player: str
    item: str
    value: int


@event(NAMESPACE)
class KingsTower(Event):
    """Board 5: the player finished the King's Tower in one colour."""

    player: str
    colour: str
