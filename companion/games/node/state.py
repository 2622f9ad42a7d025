"""Node's game state: the grid of nodes, its clusters with their owners, whose turn it is
and the camera's reading waiting for a person."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .events import CardProposed, PlaceCard
from .geometry import Cell

# The rulebook names no colours; these are the defaults of the "colours" option.
DEFAULT_COLOURS = ("red", "yellow", "green", "blue", "purple")
DEFAULTS = {"table_width": 20, "table_height": 14, "card_width": 3, "card_height": 2}


@dataclass(frozen=True)
class Cluster:
    colour: str
    cells: frozenset[Cell]
    owner: str | None = None

    @property
    def size(self) -> int:
        return len(self.cells)

    @property
    def anchor(self) -> Cell:
        """A stable cell to label the cluster by (its top-left-most node)."""
        return min(self.cells)


@dataclass(frozen=True)
class Placement:
    """A checked card placement: the cells it lies on and the nodes it adds."""

    cells: Mapping[Cell, str]
    new: frozenset[Cell]


@dataclass(frozen=True)
class NodeState:
    players: tuple[str, ...]
    colours: tuple[str, ...]
    width: int  # table size in nodes
    height: int
    card_width: int
    card_height: int
    grid: tuple[tuple[str | None, ...], ...]  # grid[row][col]
    clusters: tuple[Cluster, ...] = ()
    current: str = ""
    played: int = 0  # cards placed
    discarded: int = 0
    deck: int | None = None  # cards in play (half the box), when the table counts them
    last: tuple[Cell, ...] = ()  # cells of the last card placed
    over: bool = False
    winners: tuple[str, ...] = ()
    proposal: PlaceCard | None = None  # a camera reading waiting for a person (sensing.py)
    asked: CardProposed | None = None  # the camera's question, shown until a card is played

    @property
    def middle(self) -> Cell:
        """The node at the table's centre, or up and left of it when the centre lies between
        nodes: a card whose centre node (rounded up and left too) is here lies centred."""
        return ((self.height - 1) // 2, (self.width - 1) // 2)

    @property
    def empty(self) -> bool:
        return self.played == 0

    @property
    def cards_left(self) -> int | None:
        return None if self.deck is None else self.deck - self.played - self.discarded

    def at(self, cell: Cell) -> str | None:
        r, c = cell
        return self.grid[r][c]

    def controlled(self, player: str) -> tuple[Cluster, ...]:
        return tuple(k for k in self.clusters if k.owner == player)

    def owner_of(self, colour: str) -> str | None:
        for k in self.clusters:
            if k.colour == colour and k.owner:
                return k.owner
        return None

    def cluster_at(self, cell: Cell) -> Cluster | None:
        for k in self.clusters:
            if cell in k.cells:
                return k
        return None


def phase(state: NodeState) -> str:
    """Node has one phase, the players' turns, until the game is over. (Not a property of
    the state: what reads a state's phase would then see one where it saw none.)"""
    return "over" if state.over else "turns"


def scores(state: NodeState) -> dict[str, int]:
    """Controlled clusters per player."""
    return {p: len(state.controlled(p)) for p in state.players}
