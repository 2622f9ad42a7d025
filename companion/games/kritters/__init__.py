"""Colour MY Kritters: the best end-of-game score for any hand, and the game's clockwork."""

from companion.games.kritters.rules import Kritters

GAME = Kritters()

__all__ = ["GAME", "Kritters"]
