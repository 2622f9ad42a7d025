"""Node: the table as a grid of coloured nodes, placement checks, clusters and captures."""

from .events import Discard, NoCardsLeft, PlaceCard
from .rules import GAME, Cluster, Node, NodeState

__all__ = ["GAME", "Cluster", "Discard", "NoCardsLeft", "Node", "NodeState", "PlaceCard"]
