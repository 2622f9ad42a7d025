"""Colour Race: roll the colour die in turn; each colour is worth its points; 10 wins."""

from .rules import GAME, ColourRace, RaceState

BLURB = "Roll the colour die; first to 10 points wins."
SHELF = 6

__all__ = ["BLURB", "GAME", "SHELF", "ColourRace", "RaceState"]
