"""Elios: turn order, rule checks and the sun's bookkeeping."""

from companion.game import Option

from .events import AddDisc, Pass, PlaceGroup, Ready, SplitGroup
from .rules import GAME, Elios
from .state import BLOCKED_SUN, JOKER, EliosState, Hand

OPTIONS = (
    Option(
        "blocked_sun",
        "Blocked sun",
        BLOCKED_SUN,
        BLOCKED_SUN[0],
        "The rulebook does not say who wins when nobody can act any more (every disc out, "
        "every group one beam, none fits). Fewest beams: the player or team with the fewest "
        "beams left wins. Draw: everyone shares the result.",
    ),
)

BLURB = "Be first to place all your beams on the sun."  # the home screen's line
SHELF = 4  # its place on the home screen

__all__ = [
    "BLURB",
    "GAME",
    "SHELF",
    "OPTIONS",
    "JOKER",
    "AddDisc",
    "Elios",
    "EliosState",
    "Hand",
    "Pass",
    "PlaceGroup",
    "Ready",
    "SplitGroup",
]
