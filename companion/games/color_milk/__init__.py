"""Color Milk (Red Cat Games, 2025): predict the balls that roll out of the colour mill."""

from companion.games.color_milk.rules import ColorMilk, MilkState, PlayerState

GAME = ColorMilk()

__all__ = ["GAME", "ColorMilk", "MilkState", "PlayerState"]
