"""What is on Laser's table: the prism cards revealed each round (tapped or read by the
camera) and the board entered for the referee, which the solver reads as a position."""

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
    Card,
    Position,
    colour_index,
    floor_index,
)
from .competitive import proposal_cues
from .events import BoardEntered, BoardProposed, RefillSeen
from .state import LaserState

CAT, EMPTY = "cat", "empty"  # what a ring reading may say of a tile besides a colour


class CardsAndBoard:
    """LaserGame's card and board steps (it supplies _timed and _started)."""

    def position(self, state: LaserState, board=None, cards=None) -> Position | None:
        """The entered board with this round's cards as a solver position, if complete."""
        board = state.board if board is None else board
        cards = state.cards if cards is None else cards
        if board is None or not cards:
            return None
        tiles, floors, cat, supply = board
        return Position(
            state.mode,
            tuple(None if t is None else COLOURS.index(t) for t in tiles),
            cat,
            tuple(supply),
            tuple(Card(COLOURS.index(c), None if f is None else FLOORS.index(f)) for c, f in cards),
            None if floors is None else tuple(FLOORS.index(f) for f in floors),
        )

    def _card_seen(self, state: LaserState, ev: CardSeen):
        zone = ev.zone.lower()
        if not (zone.startswith("centre") or zone.startswith("center")):
            raise IllegalMove(f"Laser reads cards in the centre, not in {ev.zone!r}")
        floor = zone.split(":", 1)[1] if ":" in zone else None
        if ev.confidence < state.ask_threshold:
            return state, [
                AskHuman(f"Is this prism card {ev.colour}? Tap the right colour.", COLOURS)
            ]
        if state.mode == COMPETITIVE and floor is None:
            return state, [AskHuman(f"Which floor is on the {ev.colour} card?", FLOORS)]
        return self._reveal(state, ev.colour, floor)

    def _reveal(self, state: LaserState, colour: str, floor: str | None):
        if state.phase != "reveal":
            raise IllegalMove(f"all {state.n_cards} prism cards are already revealed")
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
            new = self._timed(state, "planning", cards=cards)
            cues += [self._started(new, new.active), Announce("Plan in silence. No touching!")]
        else:
            new = replace(state, phase="thinking", cards=cards)
            cues += [self._started(new), Announce("First idea? Say your number of steps.")]
        return new, cues

    def _board(self, state: LaserState, ev: BoardEntered):
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
            self.position(state, board, pos_cards)
            for t in ev.tiles:
                if t is not None and t not in COLOURS:
                    raise UsageError(f"unknown colour {t!r}")
        except (UsageError, ValueError, TypeError) as exc:
            raise IllegalMove(f"that board cannot be right: {exc}") from None
        new = replace(state, board=board, proposed_board=None)
        cues: list[Cue] = [Announce("Board saved for the referee.")]
        if state.mode == COMPETITIVE and state.phase in ("demonstration", "verdict"):
            # entered late: the proposal and the removed-figure check follow the new board
            seat, bid = state.best
            new = replace(new, **self._proposal(new, bid))
            cues += proposal_cues(new, state.players[seat], bid)
        return new, cues

    def _board_proposed(self, state: LaserState, ev: BoardProposed):
        """The camera's unsure reading of the ring, kept for the board editor to show."""
        if state.board is not None:
            raise IllegalMove("the board is already entered this round")
        if state.phase in ("who",):
            raise IllegalMove("name who grabbed the cat first")
        what = (*COLOURS, CAT, None)
        if len(ev.tiles) != TILES or any(t not in what for t in ev.tiles):
            raise IllegalMove(
                f"a ring reading is {TILES} tiles of {', '.join(COLOURS)}, cat or none"
            )
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

    def _refill_seen(self, state: LaserState, ev: RefillSeen):
        """Only words for people: the refill is the table's, not the game's state."""
        if state.phase != "reveal":
            raise IllegalMove("the refill is checked only before the prism cards are revealed")
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
                    "the refill: please check it by eye.",
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
