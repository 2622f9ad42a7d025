"""Elios: turn order, rule checks and the sun's bookkeeping."""

from .events import AddDisc, Pass, PlaceGroup, Ready, SplitGroup
from .rules import GAME, JOKER, Elios, EliosState, Hand

__all__ = [
    "GAME",
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
