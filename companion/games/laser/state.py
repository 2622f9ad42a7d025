"""Laser's game state and the numbers the rulebook fixes."""

from __future__ import annotations

from dataclasses import dataclass

from .events import BoardProposed

WIN_POINTS = 15  # competitive: first to 15 wins at once
X_LIMIT = 3  # every third X becomes -6
X_PENALTY = -6
IMPOSSIBLE_POINTS = 10  # team mode
TEAM_BID_MIN, TEAM_BID_MAX = 2, 10
MAX_BID = 99
CARD_CONFIDENCE = 0.7  # camera readings below this ask a person

TIMED = {"planning", "bidding", "mixing", "demonstration", "challenge", "proof"}
CLAIM_PHASES = {"planning", "bids", "thinking", "bidding"}
JUDGED = {"mixing", "demonstration", "proof", "verdict", "proof-verdict"}  # a RoundResult ends


@dataclass(frozen=True)
class LaserState:
    mode: str
    players: tuple[str, ...]
    learning: bool = False
    phase_seconds: int = 30  # the table setting; learning mode doubles it
    n_cards: int = 2
    turns_each: int = 3  # team mode: active turns per player
    scores: tuple[int, ...] = ()
    xs: tuple[int, ...] = ()  # competitive: X marks since the last -6
    penalties: tuple[int, ...] = ()  # competitive: how many -6 each player took
    round: int = 1
    active: int = 0  # team mode: seat of the active player
    turns_done: int = 0
    phase: str = "reveal"
    cards: tuple[tuple[str, str | None], ...] = ()
    bids: tuple[int | None, ...] = ()  # team mode: this round's bids by seat
    best: tuple[int, int] | None = None  # (seat, bid): lowest competitive bid / counter-bid
    bid_log: tuple[tuple[int, int], ...] = ()  # accepted bids in order
    candidates: tuple[int, ...] = ()  # team: equally close bidders for the active player
    mate: int | None = None
    claimer: int | None = None
    claim_right: bool | None = None  # outcome waiting for the claimer's name
    board: tuple | None = None  # (tiles, floors, cat, supply) entered this round
    proposed_board: BoardProposed | None = None  # the camera's unsure reading, to check
    proposal: int | None = None  # solver's removed-figure count for the demonstrated bid
    no_solution: bool = False  # the solver found no solution of exactly that bid on the board
    serial: int = 0  # bumps on every timed phase: timer keys are unique per phase instance
    over: bool = False
    last: tuple[str, ...] = ()  # what happened in the previous round, for people
    last_board: tuple | None = None
    last_cards: tuple[tuple[str, str | None], ...] = ()
    last_bid: int | None = None
    ask_threshold: float = CARD_CONFIDENCE  # camera readings below this ask a person
    demo_result: tuple | None = None  # (success, removed) the camera proposes; "next" confirms
