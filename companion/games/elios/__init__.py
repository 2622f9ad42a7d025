"""Elios: turn order, rule checks and the sun's bookkeeping."""

from .events import AddDisc, Pass, PlaceGroup, Ready, SplitGroup
from .rules import GAME, JOKER, Elios, EliosState, Hand

BLURB = "Be first to place all your beams on the sun."  # the home screen's line
SHELF = 4  # its place on the home screen

__all__ = [
    "BLURB",
    "GAME",
    "SHELF",
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
