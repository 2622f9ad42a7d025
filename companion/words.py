"""Words for people: counts with the right plural, and a game's refusal of an event it has
no use for said without the code's names."""

from __future__ import annotations


def plural(n: int, one: str, many: str | None = None) -> str:
    """'1 node', '2 nodes', '0 nodes'; `many` for irregular words ('1 paintbrush')."""
    return f"{n} {one if n == 1 else many or one + 's'}"


# What each shared event is, to a person at the table.
_EVENTS = {
    "core.TimerExpired": "a timer",
    "core.BallPassed": "balls through the chute",
    "core.BallSeen": "balls in the tray",
    "core.CardSeen": "cards read by the camera",
}


def not_used(game: str, event) -> str:
    """The refusal of an event `game` has no use for: 'Elios has no use for balls through
    the chute; ignored.'"""
    what = _EVENTS.get(getattr(event, "type_name", ""))
    if what is None and getattr(event, "type_name", "") == "core.ButtonPressed":
        what = f"the {event.button} button"
    return f"{game} has no use for {what or 'that'}; ignored."
