"""What is on Laser's table: the prism cards revealed each round (tapped or read by the
camera), the board entered for the referee, the refill checked before the reveal. Steps
`(state, event) -> (state, cues)` that rules.STEPS dispatches to."""

from __future__ import annotations

from dataclasses import replace

from companion.cues import Announce, AskHuman, Cue
from companion.errors import IllegalMove, UsageError
from companion.events import CardSeen

from .board import (
    CARD_CAPACITY,
    COLOURS,
    COMPETITIVE,
    FLOORS,
    TEAM,
    TILES,
    colour_index,
    floor_index,
)
from .events import BoardEntered, BoardProposed, CardRevealed, RefillSeen, TypedBoardKept
from .flow import current_player, started, timed
from .proposal import judged_bid, position, proposal, proposal_cues
from .state import JUDGED, LaserState

CAT, EMPTY = "cat", "empty"  # what a ring reading may say of a tile besides a colour


# prism cards ----------------------------------------------------------------------------
def card_seen(state: LaserState, ev: CardSeen):
    """The camera's prism card: unsure readings ask a person (in any phase), sure ones are
    revealed as a tap would be."""
    zone = ev.zone.lower()
    if not (zone.startswith("centre") or zone.startswith("center")):
        raise IllegalMove(f"Laser reads cards in the centre, not in {ev.zone!r}")
    floor = zone.split(":", 1)[1] if ":" in zone else None
    if ev.confidence < state.ask_threshold:
        return state, [AskHuman(f"Is this prism card {ev.colour}? Tap the right colour.", COLOURS)]
    if state.mode == COMPETITIVE and floor is None:
        return state, [AskHuman(f"Which floor is on the {ev.colour} card?", FLOORS)]
    if state.phase != "reveal":
        return refuse_card(state, ev)
    return _reveal(state, ev.colour, floor)


def reveal_card(state: LaserState, ev: CardRevealed):
    return _reveal(state, ev.colour, ev.floor)


def refuse_card(state: LaserState, ev) -> None:
    raise IllegalMove(f"all {state.n_cards} prism cards are already revealed")


def _reveal(state: LaserState, colour: str, floor: str | None):
    try:
        colour = COLOURS[colour_index(colour)]
        if state.mode == COMPETITIVE:
            if floor is None:
                raise IllegalMove("a competitive prism card needs its floor")
            floor = FLOORS[floor_index(floor)]
        else:
            floor = None
    except UsageError as exc:
        raise IllegalMove(str(exc)) from None
    card = (colour, floor)
    if state.cards.count(card) >= 2:
        label = colour if floor is None else f"{colour} on {floor}"
        raise IllegalMove(f"the deck has only two {label} cards")
    cards = state.cards + (card,)
    label = colour if floor is None else f"{colour} on {floor}"
    cues: list[Cue] = [Announce(f"Prism card: {label}")]
    if len(cards) < state.n_cards:
        return replace(state, cards=cards), cues
    if state.mode == TEAM:
        new = timed(state, "planning", cards=cards)
        cues += [started(new, new.active), Announce("Plan in silence. No touching!")]
    else:
        new = replace(state, phase="thinking", cards=cards)
        cues += [started(new), Announce("First idea? Say your number of steps.")]
    return new, cues


# the board ------------------------------------------------------------------------------
def enter_board(state: LaserState, ev: BoardEntered):
    """The board typed in (or confirmed from the camera's reading), in any phase but who."""
    if state.phase in ("who",):
        raise IllegalMove("name who grabbed the cat first")
    floors = ev.floors
    if state.mode == TEAM:
        floors = None
    board = (
        tuple(ev.tiles),
        None if floors is None else tuple(floors),
        ev.cat,
        tuple(ev.supply),
    )
    try:
        pos_cards = state.cards or (("red", None if state.mode == TEAM else "wood"),)
        position(state, board, pos_cards)
        for t in ev.tiles:
            if t is not None and t not in COLOURS:
                raise UsageError(f"unknown colour {t!r}")
    except (UsageError, ValueError, TypeError) as exc:
        raise IllegalMove(f"that board cannot be right: {exc}") from None
    new = replace(state, board=board, proposed_board=None)
    cues: list[Cue] = [Announce("Board saved for the referee.")]
    if state.phase in JUDGED:
        # entered late: the proposal and the solver's checks follow the new board
        bid = judged_bid(state)
        new = replace(new, **proposal(new, bid))
        cues += proposal_cues(new, current_player(state) or "The demonstrator", bid)
    return new, cues


def propose_board(state: LaserState, ev: BoardProposed):
    """The camera's unsure reading of the ring, kept for the board editor to show."""
    if state.board is not None:
        raise IllegalMove("the board is already entered this round")
    if state.phase in ("who",):
        raise IllegalMove("name who grabbed the cat first")
    what = (*COLOURS, CAT, None)
    if len(ev.tiles) != TILES or any(t not in what for t in ev.tiles):
        raise IllegalMove(f"a ring reading is {TILES} tiles of {', '.join(COLOURS)}, cat or none")
    if ev.candidates and (
        len(ev.candidates) != TILES
        or any(c not in (*COLOURS, CAT, EMPTY) for cs in ev.candidates for c in cs)
    ):
        raise IllegalMove("the likely answers are colours, cat or empty, per tile")
    if any(not isinstance(i, int) or not -1 <= i < TILES for i in ev.unsure):
        raise IllegalMove(f"tiles to check are 0-{TILES - 1}, or -1 for the spare figures")
    if ev.supply and (
        len(ev.supply) != len(COLOURS)
        or any(not isinstance(n, int) or not 0 <= n <= CARD_CAPACITY for n in ev.supply)
    ):
        raise IllegalMove(f"each colour card holds 0-{CARD_CAPACITY} spare figures")
    if ev.floors is not None and (
        len(ev.floors) != TILES or any(f not in FLOORS for f in ev.floors)
    ):
        raise IllegalMove(f"floors are {', '.join(FLOORS)}, one per tile")
    question = ev.question or "The camera is unsure of the board: check it"
    return replace(state, proposed_board=ev), [AskHuman(question)]


def typed_board_kept(state: LaserState, ev: TypedBoardKept):
    return state, [Announce(typed_kept_text(ev))]


# the refill -----------------------------------------------------------------------------
def refill_seen(state: LaserState, ev: RefillSeen):
    """Only words for people: the refill is the table's, not the game's state."""
    lines = tuple(str(line) for line in ev.lines)
    if ev.status == "plan":
        return state, [Announce("Refill: " + "; ".join(lines) + ".")]
    if ev.status == "misplaced" and lines:
        text = ". ".join(line[0].upper() + line[1:] for line in lines)
        return state, [AskHuman(f"{text}. Put it right; the camera checks again.", ())]
    if ev.status == "unverified":
        return state, [
            AskHuman(
                "The camera did not see the table as the round ended, so it cannot check "
                "the refill: please check it by eye, then reveal the prism cards.",
                (),
            )
        ]
    if ev.status == "unsure" and lines:
        return state, [
            AskHuman(
                f"The camera is not sure of {', '.join(lines)}: check the refill there "
                "by eye, then tap the prism cards in.",
                (),
            )
        ]
    if ev.status == "ready":
        return state, [Announce("The table is refilled: reveal the prism cards.")]
    raise IllegalMove(f"unknown refill status {ev.status!r}")


def refuse_refill(state: LaserState, ev: RefillSeen) -> None:
    raise IllegalMove("the refill is checked only before the prism cards are revealed")


def typed_kept_text(ev) -> str:
    """The notice for a TypedBoardKept: where the camera reads otherwise than the typed board."""
    places = []
    if ev.tiles:
        places.append(f"tile{'s' if len(ev.tiles) > 1 else ''} {_and(map(str, ev.tiles))}")
    if ev.cards:
        places.append(f"the {_and(ev.cards)} card{'s' if len(ev.cards) > 1 else ''}")
    return (
        f"The camera reads {_and(places)} otherwise than the board typed in: the typed "
        "board stands there until the table changes (retype it if the camera is right)."
    )


def _and(words) -> str:
    words = list(words)
    return ", ".join(words[:-1]) + (" and " if len(words) > 1 else "") + words[-1]
