"""Node: the table as a grid of coloured nodes, placement checks, clusters and captures."""

from companion.game import Option

from . import sensing
from .events import Discard, NoCardsLeft, PlaceCard
from .rules import GAME, Cluster, Node, NodeState

# What the camera means lives beside the rules (sensing.py), as pure hooks of the game.
Node.interpret = staticmethod(sensing.interpret)
Node.readers = staticmethod(sensing.readers)

OPTIONS = (
    Option(
        "table_width",
        "Table width (nodes)",
        (12, 16, 20, 24, 30),
        20,
        "How many nodes fit across the table; no card may hang over the edge.",
    ),
    Option(
        "table_height",
        "Table height (nodes)",
        (10, 12, 14, 16, 20),
        14,
        "How many nodes fit from front to back.",
    ),
    Option(
        "deck",
        "Cards in play",
        (None, 20, 24, 30, 36, 40),
        None,
        "Half the deck. Counted: the game ends by itself with the last card; "
        "None: the players say when the cards run out.",
    ),
)

BLURB = "Grow the largest cluster of each colour."  # the home screen's line
SHELF = 5  # its place on the home screen

__all__ = [
    "BLURB",
    "GAME",
    "SHELF",
    "OPTIONS",
    "Cluster",
    "Discard",
    "NoCardsLeft",
    "Node",
    "NodeState",
    "PlaceCard",
]
