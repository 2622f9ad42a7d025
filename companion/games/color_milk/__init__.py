"""Color Milk (Red Cat Games, 2025): predict the balls that roll out of the colour mill."""

from companion.game import Option
from companion.games.color_milk import sensing
from companion.games.color_milk.boards import BOARDS
from companion.games.color_milk.rules import ColorMilk, MilkState, PlayerState

# What the sensors mean lives beside the rules (sensing.py), as pure hooks of the game.
ColorMilk.interpret = staticmethod(sensing.interpret)
ColorMilk.readers = staticmethod(sensing.readers)
ColorMilk.sim_pool = staticmethod(sensing.sim_pool)

GAME = ColorMilk()

OPTIONS = (
    Option("board", "Board", tuple(BOARDS), 1, "Which of the six boards everyone plays."),
    Option(
        "failed_pencil_every",
        "Misses per pencil",
        (3, 2, 4, 5, 0),
        3,
        "The failed-prediction track gives a bonus pencil at every Nth miss (0: never). "
        "A guess: the rulebook shows the track only as artwork; set it to match your board.",
    ),
)

BLURB = "Predict the balls that roll out of the mill."  # the home screen's line
SHELF = 1  # its place on the home screen

__all__ = ["BLURB", "GAME", "SHELF", "OPTIONS", "ColorMilk", "MilkState", "PlayerState"]
