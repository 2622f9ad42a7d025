"""Laser (A-games, 2019): timers, bids, teams, scoring, Impossible! and an exact solver."""

from companion.game import Option

from .rules import GAME, LaserGame, LaserState

OPTIONS = (
    Option(
        "mode",
        "Mode",
        ("auto", "team", "competitive"),
        "auto",
        "Team mode (3-10 players: bids, teammates, grey floors) or competitive mode "
        "(lowest bid demonstrates, patterned floors, first to 15). Auto: team from 3 players.",
    ),
    Option(
        "cards",
        "Prism cards",
        (2, 3, 4),
        2,
        "How many prism cards each round; 3 or more is the rulebook's harder game.",
    ),
)

BLURB = "Bid the fewest moves to mix the colours."  # the home screen's line
SHELF = 2  # its place on the home screen

__all__ = ["BLURB", "GAME", "SHELF", "OPTIONS", "LaserGame", "LaserState"]
