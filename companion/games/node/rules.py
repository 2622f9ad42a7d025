"""Node (Level Zero Games): grow the largest cluster of each colour.

The table is a bounded grid of nodes. A placed card only ever adds nodes (covered nodes keep
their colour), so clusters only grow and merge: the state keeps them incrementally, each with
its owner (the player whose avatar stands on it).

Node's rules as one flow: one phase, the players' turns, until someone controls all five
colours or the cards run out (over). STEPS is the one table that says which step takes each
event in each phase. The steps are plain functions `(state, event) -> (state, cues)` over the
frozen NodeState (state.py), in turns.py; where a card may lie is placing.py, what it does to
the clusters clusters.py.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.cues import Cue
from companion.errors import IllegalMove, UsageError
from companion.events import Event
from companion.game import GameBase, GameConfig
from companion.words import not_used

from . import placing, turns
from .events import CardProposed, Discard, NoCardsLeft, PlaceCard
from .state import DEFAULT_COLOURS, DEFAULTS, Cluster, NodeState, Placement, phase, scores

Step = Callable[[NodeState, Any], tuple[NodeState, list[Cue]]]
ANY = "any phase"  # a row for the phases that have none of their own for that event

# (phase, event type) -> the step that takes it. Rows are tried for the phase, then for ANY.
STEPS: dict[tuple[str, type], Step] = {
    ("turns", PlaceCard): turns.place,
    ("turns", Discard): turns.discard,
    ("turns", CardProposed): turns.camera_question,  # the camera's reading, for a person
    ("turns", NoCardsLeft): turns.no_cards_left,  # the players say so (deck not counted)
}


def step_for(state: NodeState, event: Event) -> Step | None:
    for key in ((phase(state), type(event)), (ANY, type(event))):
        if key in STEPS:
            return STEPS[key]
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
        return placing.check_placement(state, colours, row, col, rotation)

    def legal_placements(
        self, state: NodeState, colours: tuple[str, ...]
    ) -> list[tuple[int, int, int]]:
        """Every (row, col, rotation) where the card fits; one rotation per distinct layout."""
        return placing.legal_placements(state, colours)

    # changing ------------------------------------------------------------------------
    def apply(self, state: NodeState, event: Event) -> tuple[NodeState, list[Cue]]:
        if state.over:
            raise IllegalMove("the game is over")
        step = step_for(state, event)
        if step is None:
            raise IllegalMove(not_used("Node", event))
        return step(state, event)

    # queries -------------------------------------------------------------------------
    def current_player(self, state: NodeState) -> str | None:
        return None if state.over else state.current

    def scores(self, state: NodeState) -> dict[str, int]:
        """Controlled clusters per player."""
        return scores(state)

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


GAME = Node()

__all__ = [
    "DEFAULT_COLOURS",
    "DEFAULTS",
    "GAME",
    "STEPS",
    "Cluster",
    "Node",
    "NodeState",
    "Placement",
]
