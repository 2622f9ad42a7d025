"""What every step of Laser's rules shares: seats, clocks, the phase a step starts, X marks
and the round's end. Plain functions over the frozen state; the steps (table.py, team.py,
competitive.py, impossible.py, judging.py) import them, and nothing here imports a step."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, NoReturn

from companion.cues import Announce, Cue, PhaseStarted, Scored, TimeUp
from companion.errors import IllegalMove
from companion.events import ButtonPressed, TimerExpired
from companion.game import TimerSpec

from .board import TEAM
from .events import BidPlaced
from .state import MAX_BID, TIMED, WIN_POINTS, X_LIMIT, X_PENALTY, LaserState

__all__ = [
    "bid_seat",
    "current_player",
    "end_round",
    "open_bid_seat",
    "refuse_bid",
    "refuse_button",
    "refuse_timer",
    "seat",
    "seconds",
    "started",
    "take_x",
    "time_up",
    "timed",
    "timer",
]


# who ------------------------------------------------------------------------------------
def seat(state: LaserState, name: str | None) -> int:
    if name not in state.players:
        raise IllegalMove(f"no player called {name!r}")
    return state.players.index(name)


def bid_seat(state: LaserState, ev: BidPlaced) -> int:
    """The bidder's seat, once the bid is a whole number (every bid, in every phase)."""
    at = seat(state, ev.player)
    if not isinstance(ev.bid, int) or isinstance(ev.bid, bool):
        raise IllegalMove("a bid is a whole number of steps")
    return at


def open_bid_seat(state: LaserState, ev: BidPlaced) -> int:
    """The bidder's seat for a bid said aloud (competitive, counter-bids): 1-99 steps."""
    at = bid_seat(state, ev)
    if not 1 <= ev.bid <= MAX_BID:
        raise IllegalMove(f"a bid is 1-{MAX_BID} steps")
    return at


def current_player(state: LaserState) -> str | None:
    """Who demonstrates, chooses or mixes now; None during simultaneous phases."""
    if state.over:
        return None
    if state.phase in ("demonstration", "proof", "verdict", "proof-verdict"):
        if state.phase == "verdict" and state.mode == TEAM:
            return state.players[state.active]
        return state.players[state.best[0]] if state.best else None
    if state.mode == TEAM and state.phase in ("choosing", "mixing"):
        return state.players[state.active]
    return None


# clocks ---------------------------------------------------------------------------------
def seconds(state: LaserState) -> int:
    """Every timed phase's length: the table setting, doubled in learning mode."""
    return state.phase_seconds * (2 if state.learning else 1)


def timer(state: LaserState) -> TimerSpec | None:
    if state.over or state.phase not in TIMED:
        return None
    return TimerSpec(f"laser:{state.phase}:{state.serial}", seconds(state))


def time_up(state: LaserState, ev: TimerExpired) -> list[Cue]:
    """The cues of the running clock's end; refuses a timer that is not this phase's."""
    spec = timer(state)
    if spec is None or spec.key != ev.key:
        refuse_timer(state, ev)
    return [TimeUp(ev.key)]


# refusals: the steps of rules.STEPS for an event in a phase that takes none of its kind
def refuse_timer(state: LaserState, ev: TimerExpired) -> NoReturn:
    raise IllegalMove(f"timer {ev.key!r} is not running")


def refuse_bid(state: LaserState, ev: BidPlaced) -> NoReturn:
    open_bid_seat(state, ev)  # a wrong bid is refused for what it is first
    raise IllegalMove(f"no bids are taken during {state.phase}")


def refuse_button(state: LaserState, ev: ButtonPressed) -> NoReturn:
    raise IllegalMove(f"the {ev.button!r} button does nothing in {state.phase}")


def timed(state: LaserState, phase: str, **kw: Any) -> LaserState:
    """A timed phase begins: the serial bump gives its clock a key of its own."""
    return replace(state, phase=phase, serial=state.serial + 1, **kw)


def started(state: LaserState, player: int | None = None) -> PhaseStarted:
    name = state.players[player] if player is not None else None
    return PhaseStarted(state.phase, name)


# scoring and the round's end ------------------------------------------------------------
def take_x(players, at: int, scores: list[int], xs: list[int], pens: list[int]) -> list[Cue]:
    """One X for seat `at`; the third becomes -6 and the count starts again."""
    xs[at] += 1
    if xs[at] >= X_LIMIT:
        xs[at] = 0
        pens[at] += 1
        scores[at] += X_PENALTY
        return [Announce(f"{players[at]}: third X, -6 instead"), Scored(players[at], X_PENALTY)]
    return [Announce(f"{players[at]} takes an X ({xs[at]} of {X_LIMIT})")]


def end_round(state: LaserState, cues: list[Cue], summary: tuple[str, ...]):
    """The round is scored: clear it, keep what the referee reads, pass the active seat
    (team) or see whether someone reached 15 (competitive)."""
    n = len(state.players)
    common = dict(
        round=state.round + 1,
        phase="reveal",
        cards=(),
        bids=(None,) * n,
        best=None,
        bid_log=(),
        candidates=(),
        mate=None,
        claimer=None,
        claim_right=None,
        board=None,
        proposed_board=None,
        proposal=None,
        demo_result=None,
        no_solution=False,
        last=summary,
        last_board=state.board,
        last_cards=state.cards,
        last_bid=(
            state.best[1]
            if state.best
            else (state.bids[state.active] if state.mode == TEAM else None)
        ),
    )
    if state.mode == TEAM:
        done = state.turns_done + 1
        over = done >= state.turns_each * n
        new = replace(state, turns_done=done, active=(state.active + 1) % n, over=over, **common)
    else:
        over = any(s >= WIN_POINTS for s in state.scores)
        new = replace(state, over=over, **common)
    if not over:
        cues = cues + [
            PhaseStarted("reveal", new.players[new.active] if new.mode == TEAM else None),
            Announce("Refill the colour cards, then reveal new prism cards."),
        ]
    return new, cues
