"""Node (Level Zero Games): grow the largest cluster of each colour.

The table is a bounded grid of nodes. A placed card only ever adds nodes (covered nodes keep
their colour), so clusters only grow and merge: the state keeps them incrementally, each with
its owner (the player whose avatar stands on it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from companion.cues import Announce, AskHuman, Cue, PhaseStarted, Scored
from companion.errors import IllegalMove, UsageError
from companion.events import Event
from companion.game import GameBase, GameConfig
from companion.words import not_used, plural

from .events import CardProposed, Discard, NoCardsLeft, PlaceCard
from .geometry import (
    Cell,
    card_rows,
    centred_starts,
    components,
    distinct_rotations,
    footprint,
    neighbours,
    rotate,
)

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


def _int_option(opts: Mapping, key: str, low: int) -> int:
    value = opts.get(key, DEFAULTS[key])
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise UsageError(f"{key} must be a whole number of nodes, at least {low}")
    return value


class Node(GameBase):
    name = "node"
    title = "Node"
    min_players = 2
    max_players = 2

    # setup ---------------------------------------------------------------------------
    def initial_state(self, config: GameConfig) -> NodeState:
        if len(config.players) != 2 or len(set(config.players)) != 2:
            raise UsageError("Node is for 2 players with different names")
        opts: Mapping = config.options or {}
        colours = tuple(opts.get("colours", DEFAULT_COLOURS))
        if len(colours) != 5 or len(set(colours)) != 5:
            raise UsageError("Node needs 5 different colours")
        cw, ch = _int_option(opts, "card_width", 1), _int_option(opts, "card_height", 1)
        w = _int_option(opts, "table_width", max(cw, ch))
        h = _int_option(opts, "table_height", max(cw, ch))
        deck = opts.get("deck")
        if deck is not None and (not isinstance(deck, int) or deck < 1):
            raise UsageError("deck must be the number of cards in play (or absent)")
        return NodeState(
            players=tuple(config.players),
            colours=colours,
            width=w,
            height=h,
            card_width=cw,
            card_height=ch,
            grid=tuple((None,) * w for _ in range(h)),
            current=config.players[0],
            deck=deck,
        )

    # checks --------------------------------------------------------------------------
    def check_placement(
        self, state: NodeState, colours: tuple[str, ...], row: int, col: int, rotation: int
    ) -> Placement:
        """Where the card would lie, or IllegalMove with the reason it cannot."""
        colours = tuple(colours)
        _check_card(state, colours)
        if any(not isinstance(v, int) or isinstance(v, bool) for v in (row, col, rotation)):
            raise IllegalMove("a card's row, column and rotation are whole numbers")
        if rotation not in (0, 90, 180, 270):
            raise IllegalMove("a card turns by 0, 90, 180 or 270 degrees")
        cells = footprint(colours, state.card_height, state.card_width, row, col, rotation)
        if any(not (0 <= r < state.height and 0 <= c < state.width) for r, c in cells):
            raise IllegalMove("the card hangs over the edge of the table")
        covered = [cell for cell in cells if state.at(cell) is not None]
        if state.empty:
            h, w = state.card_height, state.card_width
            _check_centred(state, row, col, *((w, h) if rotation in (90, 270) else (h, w)))
        elif not covered:
            raise IllegalMove("the card must cover at least one node already on the table")
        for cell in covered:
            if state.at(cell) != cells[cell]:
                raise IllegalMove(
                    f"a {cells[cell]} node cannot cover a {state.at(cell)} node "
                    f"(row {cell[0] + 1}, column {cell[1] + 1})"
                )
        return Placement(cells, frozenset(cells) - frozenset(covered))

    def legal_placements(
        self, state: NodeState, colours: tuple[str, ...]
    ) -> list[tuple[int, int, int]]:
        """Every (row, col, rotation) where the card fits; one rotation per distinct layout.
        The same checks as check_placement, inlined: this runs for every discard check."""
        colours = tuple(colours)
        _check_card(state, colours)
        grid, out = state.grid, []
        for rot in distinct_rotations(colours, state.card_height, state.card_width):
            rows = rotate(card_rows(colours, state.card_height, state.card_width), rot)
            h, w = len(rows), len(rows[0])
            nodes = [(r, c, colour) for r, line in enumerate(rows) for c, colour in enumerate(line)]
            mid_rows, mid_cols = centred_starts(state.height, h), centred_starts(state.width, w)
            for row in range(state.height - h + 1):
                for col in range(state.width - w + 1):
                    covers = False
                    for r, c, colour in nodes:
                        below = grid[row + r][col + c]
                        if below is not None:
                            if below != colour:
                                break
                            covers = True
                    else:
                        if state.empty:
                            covers = row in mid_rows and col in mid_cols
                        if covers:
                            out.append((row, col, rot))
        return out

    # events --------------------------------------------------------------------------
    def _proposed(self, state: NodeState, event: CardProposed) -> tuple[NodeState, list[Cue]]:
        """A camera reading that needs a person: keep the placement to confirm, ask."""
        placement = None
        if event.colours and not event.refused:
            placement = PlaceCard(event.player, event.colours, event.row, event.col, event.rotation)
        return replace(state, proposal=placement, asked=event), [AskHuman(event.question)]

    def apply(self, state: NodeState, event: Event) -> tuple[NodeState, list[Cue]]:
        if state.over:
            raise IllegalMove("the game is over")
        if isinstance(event, NoCardsLeft):
            return self._finish(state, [Announce("No cards left: final count")])
        if isinstance(event, CardProposed):
            return self._proposed(state, event)
        if not isinstance(event, (PlaceCard, Discard)):
            raise IllegalMove(not_used("Node", event))
        if event.player not in state.players:
            raise IllegalMove(f"no player called {event.player!r}")
        if event.player != state.current:
            raise IllegalMove(f"it is {state.current}'s turn, not {event.player}'s")
        state = replace(state, proposal=None, asked=None)  # a card played answers the camera
        if isinstance(event, Discard):
            return self._discard(state, event)
        return self._place(state, event)

    def _place(self, state: NodeState, e: PlaceCard) -> tuple[NodeState, list[Cue]]:
        placement = self.check_placement(state, e.colours, e.row, e.col, e.rotation)
        grid = [list(line) for line in state.grid]
        for (r, c), colour in placement.cells.items():
            grid[r][c] = colour
        clusters, grown = _grow(state, placement)
        captured = [
            m
            for m in grown
            if all(m.size > k.size for k in clusters if k.colour == m.colour and k is not m)
        ]
        cues: list[Cue] = []
        for m in captured:
            cues += _capture_cues(state, m, e.player)
        won = {m.colour for m in captured}
        clusters = [
            replace(k, owner=e.player if any(k is m for m in captured) else None)
            if k.colour in won
            else k
            for k in clusters
        ]
        new = replace(
            state,
            grid=tuple(tuple(line) for line in grid),
            clusters=tuple(sorted(clusters, key=lambda k: (k.colour, k.anchor))),
            played=state.played + 1,
            last=tuple(sorted(placement.cells)),
        )
        mine = {k.colour for k in new.controlled(e.player)}
        if mine == set(state.colours):
            return replace(new, over=True, winners=(e.player,)), [
                *cues,
                Announce(f"{e.player} controls all five colours and wins!"),
            ]
        return self._next(new, cues)

    def _discard(self, state: NodeState, e: Discard) -> tuple[NodeState, list[Cue]]:
        if state.empty:
            raise IllegalMove("the first card can always go in the middle: place it")
        for card in e.hand:
            spots = self.legal_placements(state, tuple(card))
            if spots:
                r, c, rot = spots[0]
                raise IllegalMove(
                    f"the {'/'.join(card)} card fits (row {r + 1}, column {c + 1}, "
                    f"turned {rot}°): it must be placed"
                )
        new = replace(state, discarded=state.discarded + 1, last=())
        return self._next(new, [Announce(f"{e.player} cannot place a card and discards one")])

    def _next(self, state: NodeState, cues: list[Cue]) -> tuple[NodeState, list[Cue]]:
        if state.cards_left == 0:
            return self._finish(state, [*cues, Announce("The last card is played: final count")])
        nxt = state.players[1 - state.players.index(state.current)]
        return replace(state, current=nxt), [*cues, PhaseStarted("turn", nxt)]

    def _finish(self, state: NodeState, cues: list[Cue]) -> tuple[NodeState, list[Cue]]:
        counts = self.scores(state)
        best = max(counts.values())
        winners = tuple(p for p in state.players if counts[p] == best)
        return replace(state, over=True, winners=winners), cues

    # queries -------------------------------------------------------------------------
    def current_player(self, state: NodeState) -> str | None:
        return None if state.over else state.current

    def scores(self, state: NodeState) -> dict[str, int]:
        """Controlled clusters per player."""
        return {p: len(state.controlled(p)) for p in state.players}

    def is_over(self, state: NodeState) -> bool:
        return state.over

    def winners(self, state: NodeState) -> tuple[str, ...]:
        return state.winners

    def describe(self, state: NodeState) -> str:
        if state.over:
            return f"{' and '.join(state.winners)} won"
        left = "" if state.cards_left is None else f" ({state.cards_left} cards left)"
        first = " (first card: the middle)" if state.empty else ""
        return f"{state.current}'s turn{first}{left}"


def _check_centred(state: NodeState, row: int, col: int, h: int, w: int) -> None:
    """The first card "in the middle of the table": as close to the table's centre as its
    shape allows, in the way round it lies (h x w nodes). The rulebook says no more."""
    moves = []
    for at, table, card, back, forth in (
        (row, state.height, h, "up", "down"),
        (col, state.width, w, "left", "right"),
    ):
        best = min(centred_starts(table, card), key=lambda start: abs(start - at))
        if best != at:
            n = abs(best - at)
            moves.append(f"{n} node{'s' if n > 1 else ''} {back if best < at else forth}")
    if moves:
        raise IllegalMove(
            f"the first card goes in the middle of the table: {' and '.join(moves)} from here"
        )


def _check_card(state: NodeState, colours: tuple[str, ...]) -> None:
    need = state.card_width * state.card_height
    if len(colours) != need:
        raise IllegalMove(f"a card has {need} nodes, not {len(colours)}")
    for c in colours:
        if c not in state.colours:
            raise IllegalMove(f"{c!r} is not a Node colour ({', '.join(state.colours)})")


def _grow(state: NodeState, placement: Placement) -> tuple[list[Cluster], list[Cluster]]:
    """Clusters after the placement, and those that gained nodes (each at least one node
    bigger than the largest cluster it absorbed)."""
    by_cell = {cell: k for k in state.clusters for cell in k.cells}
    clusters = list(state.clusters)
    grown: list[Cluster] = []
    for colour in sorted({placement.cells[c] for c in placement.new}):
        fresh = [c for c in placement.new if placement.cells[c] == colour]
        for comp in components(fresh):
            absorbed = {
                id(by_cell[n]): by_cell[n]
                for cell in comp
                for n in neighbours(cell)
                if n in by_cell and by_cell[n].colour == colour
            }
            cells = set(comp)
            for k in absorbed.values():
                cells |= k.cells
            owners = {k.owner for k in absorbed.values() if k.owner}
            merged = Cluster(colour, frozenset(cells), owners.pop() if owners else None)
            clusters = [k for k in clusters if id(k) not in absorbed] + [merged]
            for cell in merged.cells:
                by_cell[cell] = merged
            grown.append(merged)
    # Two fresh components may have been joined through the same old cluster: keep only
    # clusters still current.
    grown = [k for k in grown if any(k is c for c in clusters)]
    return clusters, grown


def _capture_cues(state: NodeState, cluster: Cluster, player: str) -> list[Cue]:
    before = state.owner_of(cluster.colour)
    cues: list[Cue] = [
        Announce(f"{player} captures the {cluster.colour} cluster ({plural(cluster.size, 'node')})")
    ]
    if before != player:
        cues.append(Scored(player, 1))
    if before and before != player:
        cues += [Scored(before, -1), Announce(f"{before} loses {cluster.colour}")]
    return cues


GAME = Node()
