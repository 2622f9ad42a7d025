"""Laser (A-games, 2019): timers, bids, teams, scoring, Impossible! and an exact solver."""

from .rules import GAME, LaserGame, LaserState

__all__ = ["GAME", "LaserGame", "LaserState"]
