"""Dice Golf, a test-only game where the lowest score wins: three holes, each player rolls
the strokes a hole took them; the fewest strokes over the round win."""

from .rules import GAME

BLURB = "Three holes; the fewest strokes win."
SHELF = 7

__all__ = ["BLURB", "GAME", "SHELF"]
