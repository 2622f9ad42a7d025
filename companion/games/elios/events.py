"""What people enter at an Elios table: one event per step, so every step undoes alone."""

from __future__ import annotations

from companion.events import Event, event


@event("elios")
class Ready(Event):
    """A player has finished grouping. `groups` are the sizes of their groups (1-3 each)."""

    player: str
    groups: tuple[int, ...]


@event("elios")
class PlaceGroup(Event):
    """A group goes onto the sun: one (ray, colour) pair per beam.

    A ray is named by the colour of its sunbeam at the bottom; `colour` is the placed beam's
    colour ("white" for a joker).
    """

    player: str
    beams: tuple[tuple[str, str], ...]


@event("elios")
class AddDisc(Event):
    player: str


@event("elios")
class SplitGroup(Event):
    """A group of `size` beams (2 or 3) becomes two smaller groups (size-1 and 1)."""

    player: str
    size: int


@event("elios")
class Pass(Event):
    """The player can carry out none of the three actions: every disc is out, every group is a
    single beam, and none fits on the sun. Refused when the table shows a beam that fits
    (passing.pass_refusal); the rulebook is silent on passing, and the turn passes on."""

    player: str
