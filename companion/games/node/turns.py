"""Node's turns: a card placed (growing and capturing clusters) or discarded, the camera's
question about a card, and the end (all five colours, or the last card). Plain functions
`(state, event) -> (state, cues)` over the frozen NodeState: the steps of rules.STEPS."""

from __future__ import annotations

from dataclasses import replace

from companion.cues import Announce, AskHuman, Cue, PhaseStarted
from companion.errors import IllegalMove

from .clusters import capture_cues, grow
from .events import CardProposed, Discard, NoCardsLeft, PlaceCard
from .placing import check_placement, legal_placements
from .state import NodeState, scores


def _players_turn(state: NodeState, e: PlaceCard | Discard) -> NodeState:
    """The state the player's card is played on, once it is their turn: a card played
    answers the camera's question."""
    if e.player not in state.players:
        raise IllegalMove(f"no player called {e.player!r}")
    if e.player != state.current:
        raise IllegalMove(f"it is {state.current}'s turn, not {e.player}'s")
    return replace(state, proposal=None, asked=None)


def place(state: NodeState, e: PlaceCard) -> tuple[NodeState, list[Cue]]:
    state = _players_turn(state, e)
    placement = check_placement(state, e.colours, e.row, e.col, e.rotation)
    grid = [list(line) for line in state.grid]
    for (r, c), colour in placement.cells.items():
        grid[r][c] = colour
    clusters, grown = grow(state, placement)
    captured = [
        m
        for m in grown
        if all(m.size > k.size for k in clusters if k.colour == m.colour and k is not m)
    ]
    cues: list[Cue] = []
    for m in captured:
        cues += capture_cues(state, m, e.player)
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
    return _next_turn(new, cues)


def discard(state: NodeState, e: Discard) -> tuple[NodeState, list[Cue]]:
    state = _players_turn(state, e)
    if state.empty:
        raise IllegalMove("the first card can always go in the middle: place it")
    for card in e.hand:
        spots = legal_placements(state, tuple(card))
        if spots:
            r, c, rot = spots[0]
            raise IllegalMove(
                f"the {'/'.join(card)} card fits (row {r + 1}, column {c + 1}, "
                f"turned {rot}°): it must be placed"
            )
    new = replace(state, discarded=state.discarded + 1, last=())
    return _next_turn(new, [Announce(f"{e.player} cannot place a card and discards one")])


def camera_question(state: NodeState, event: CardProposed) -> tuple[NodeState, list[Cue]]:
    """A camera reading that needs a person: keep the placement to confirm, ask."""
    placement = None
    if event.colours and not event.refused:
        placement = PlaceCard(event.player, event.colours, event.row, event.col, event.rotation)
    return replace(state, proposal=placement, asked=event), [AskHuman(event.question)]


def no_cards_left(state: NodeState, event: NoCardsLeft) -> tuple[NodeState, list[Cue]]:
    return _finish(state, [Announce("No cards left: final count")])


def _next_turn(state: NodeState, cues: list[Cue]) -> tuple[NodeState, list[Cue]]:
    if state.cards_left == 0:
        return _finish(state, [*cues, Announce("The last card is played: final count")])
    nxt = state.players[1 - state.players.index(state.current)]
    return replace(state, current=nxt), [*cues, PhaseStarted("turn", nxt)]


def _finish(state: NodeState, cues: list[Cue]) -> tuple[NodeState, list[Cue]]:
    counts = scores(state)
    best = max(counts.values())
    winners = tuple(p for p in state.players if counts[p] == best)
    return replace(state, over=True, winners=winners), cues
