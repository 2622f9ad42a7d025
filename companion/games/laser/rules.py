"""Laser's rules as one flow: the phases below, and STEPS, the one table that says which step
takes each event in each phase. The steps are plain functions `(state, event) -> (state,
cues)` over the frozen LaserState, in modules by concern: table.py (prism cards, the board,
the refill), team.py, competitive.py, impossible.py (each mode's and the challenge's steps)
and judging.py (what every demonstration shares). They share flow.py (seats, clocks, the
round's end) and proposal.py (the solver's word on a bid), which import no step.

Team mode:        reveal -> planning (30 s) -> bids -> [choosing] -> mixing (30 s) -> [verdict]
Competitive mode: reveal -> thinking -> bidding (30 s from the first bid) -> demonstration
                  (30 s) -> [verdict]
Impossible!:      (planning / bids / thinking / bidding) -> challenge (30 s counter-bids)
                  -> proof (30 s) -> [proof-verdict] -> [who]
Bracketed phases wait for people: a verdict after the clock ran out, the active player's
pick between equally close bidders, the name of whoever grabbed the cat.
Learning mode doubles every clock to 60 s.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from companion.cues import Cue
from companion.errors import IllegalMove, UsageError
from companion.events import ButtonPressed, CardSeen, Event, TimerExpired
from companion.game import GameBase, GameConfig, TimerSpec
from companion.words import not_used

from . import competitive, flow, impossible, judging, sensing, table, team
from .board import COLOURS, COMPETITIVE, FLOORS, MODES, TEAM, TILES, Position, chosen_mode
from .events import (
    BidPlaced,
    BoardEntered,
    BoardProposed,
    CardRevealed,
    ClaimerNamed,
    ImpossibleClaimed,
    RefillSeen,
    ResultProposed,
    RoundResult,
    TeammateChosen,
    TypedBoardKept,
)
from .proposal import PROPOSAL_SLACK, most_removable, position, propose_removed
from .state import (
    CARD_CONFIDENCE,
    CLAIM_PHASES,
    JUDGED,
    TEAM_BID_MAX,
    TEAM_BID_MIN,
    WIN_POINTS,
    LaserState,
)

Step = Callable[[LaserState, Any], tuple[LaserState, list[Cue]]]
ANY = "any phase"  # a row for the phases that have none of their own for that event
NEXT, BID, IMPOSSIBLE = ButtonPressed("next"), ButtonPressed("bid"), ButtonPressed("impossible")


def by_mode(team_step: Step, competitive_step: Step) -> Step:
    """One phase both modes reach (the verdict): each scores the result its own way."""

    def step(state: LaserState, event: Any):
        return (team_step if state.mode == TEAM else competitive_step)(state, event)

    return step


# (phase, event) -> the step that takes it. A button is keyed by which button it is, any
# other event by its type. Rows are tried for the phase, then for ANY.
STEPS: dict[tuple[str, Any], Step] = {
    # the table: prism cards and the refill before a round, the board at any time
    ("reveal", CardRevealed): table.reveal_card,
    ("reveal", RefillSeen): table.refill_seen,
    (ANY, CardSeen): table.card_seen,  # an unsure reading asks in any phase
    (ANY, BoardEntered): table.enter_board,
    (ANY, BoardProposed): table.propose_board,
    (ANY, TypedBoardKept): table.typed_board_kept,
    # team mode
    ("planning", TimerExpired): team.planning_over,
    ("planning", NEXT): team.planning_ended_early,
    ("planning", BidPlaced): team.refuse_early_bid,
    ("bids", BidPlaced): team.place_bid,
    ("choosing", TeammateChosen): team.choose,
    ("mixing", TimerExpired): judging.time_for_verdict,
    ("mixing", RoundResult): team.result,
    # competitive mode
    ("thinking", BID): competitive.bid_button,
    ("thinking", BidPlaced): competitive.place_bid,
    ("bidding", BidPlaced): competitive.place_bid,
    ("bidding", TimerExpired): competitive.bidding_over,
    ("demonstration", TimerExpired): judging.time_for_verdict,
    ("demonstration", RoundResult): competitive.result,
    # after either mode's clock ran out
    ("verdict", RoundResult): by_mode(team.result, competitive.result),
    # Impossible!: called before anyone mixes, then counter-bids, the proof and the claimer
    **{(phase, ImpossibleClaimed): impossible.claim for phase in CLAIM_PHASES},
    **{(phase, IMPOSSIBLE): impossible.claim_by_button for phase in CLAIM_PHASES},
    ("challenge", BidPlaced): impossible.counter_bid,
    ("challenge", TimerExpired): impossible.challenge_over,
    ("proof", TimerExpired): judging.time_for_verdict,
    ("proof", RoundResult): impossible.proof_result,
    ("proof-verdict", RoundResult): impossible.proof_result,
    **{
        (phase, ClaimerNamed): impossible.name_claimer
        for phase in ("challenge", "proof", "proof-verdict", "who")
    },
    # the camera's word on any demonstration, for a person to confirm
    **{(phase, ResultProposed): judging.result_proposed for phase in JUDGED},
    # refused in every other phase, with the reason
    (ANY, TimerExpired): flow.refuse_timer,
    (ANY, CardRevealed): table.refuse_card,
    (ANY, RefillSeen): table.refuse_refill,
    (ANY, BidPlaced): flow.refuse_bid,
    (ANY, TeammateChosen): team.refuse_choice,
    (ANY, BID): competitive.refuse_bid_button,
    (ANY, ImpossibleClaimed): impossible.refuse_claim,
    (ANY, IMPOSSIBLE): impossible.refuse_claim,
    (ANY, ClaimerNamed): impossible.refuse_naming,
    (ANY, RoundResult): judging.refuse_result,
    (ANY, ResultProposed): judging.refuse_proposed_result,
    (ANY, ButtonPressed): flow.refuse_button,  # any other button
}


def step_for(state: LaserState, event: Event) -> Step | None:
    kind = event if isinstance(event, ButtonPressed) else type(event)
    for key in ((state.phase, kind), (ANY, kind), (ANY, type(event))):
        if key in STEPS:
            return STEPS[key]
    return None


def _players_check(config: GameConfig, mode: str) -> None:
    n = len(config.players)
    if len(set(config.players)) != n:
        raise UsageError("player names must be different")
    if mode == TEAM and not 3 <= n <= 10:
        raise UsageError("team mode needs 3-10 players (2 players: competitive mode)")
    if mode == COMPETITIVE and not 2 <= n <= 10:
        raise UsageError("Laser is for 2-10 players")


class LaserGame(GameBase):
    name = "laser"
    title = "Laser"
    min_players = 2
    max_players = 10

    # what the camera reads (the prism cards, the ring) means, as pure hooks of the game
    interpret = staticmethod(sensing.interpret)
    readers = staticmethod(sensing.readers)

    # set-up ---------------------------------------------------------------------------
    def initial_state(self, config: GameConfig) -> LaserState:
        opts = dict(config.options)
        mode = chosen_mode(opts.get("mode", "auto"), len(config.players))
        if mode not in MODES:
            raise UsageError(f"mode must be 'team' or 'competitive', not {mode!r}")
        _players_check(config, mode)
        n_cards = opts.get("cards", 2)
        if not isinstance(n_cards, int) or isinstance(n_cards, bool) or not 2 <= n_cards <= 6:
            raise UsageError("cards must be a whole number 2-6 (3+ is the harder game)")
        learning = bool(opts.get("learning", False))
        threshold = opts.get("ask_threshold", CARD_CONFIDENCE)
        if not isinstance(threshold, (int, float)) or not 0 <= threshold <= 1:
            raise UsageError("ask_threshold must be a number 0-1")
        first = opts.get("first", 0)
        if isinstance(first, str):
            if first not in config.players:
                raise UsageError(f"no player called {first!r}")
            first = config.players.index(first)
        n = len(config.players)
        return LaserState(
            mode=mode,
            players=tuple(config.players),
            learning=learning,
            phase_seconds=int(opts.get("phase_seconds", 30)),
            n_cards=n_cards,
            turns_each=3 if n <= 5 else 2,
            scores=(0,) * n,
            xs=(0,) * n,
            penalties=(0,) * n,
            active=int(first) % n,
            bids=(None,) * n,
            ask_threshold=float(threshold),
        )

    # reading --------------------------------------------------------------------------
    def seconds(self, state: LaserState) -> int:
        return flow.seconds(state)

    def timer(self, state: LaserState) -> TimerSpec | None:
        return flow.timer(state)

    def position(self, state: LaserState, board=None, cards=None) -> Position | None:
        """The entered board (or `board`) with the cards as a solver position, if complete."""
        return position(state, board, cards)

    def scores(self, state: LaserState) -> dict[str, int]:
        return dict(zip(state.players, state.scores, strict=True))

    def is_over(self, state: LaserState) -> bool:
        return state.over

    def winners(self, state: LaserState) -> tuple[str, ...]:
        if not state.over:
            return ()
        if state.mode == COMPETITIVE:
            return tuple(
                p for p, s in zip(state.players, state.scores, strict=True) if s >= WIN_POINTS
            )
        return super().winners(state)

    def current_player(self, state: LaserState) -> str | None:
        return flow.current_player(state)

    def describe(self, state: LaserState) -> str:
        if state.over:
            return "game over: " + ", ".join(self.winners(state)) + " won"
        who = self.current_player(state)
        head = f"round {state.round}"
        if state.mode == TEAM:
            head += f", {state.players[state.active]} active"
        return f"{head}: {state.phase}" + (f" ({who})" if who else "")

    def legal_actions(self, state: LaserState) -> Sequence[Event]:
        if state.over:
            return ()
        ph, out = state.phase, []
        if ph == "reveal":
            floors = (None,) if state.mode == TEAM else FLOORS
            out += [CardRevealed(c, f) for c in COLOURS for f in floors]
        if ph in CLAIM_PHASES:
            out += [ImpossibleClaimed(p) for p in state.players]
        if ph == "bids":
            out += [
                BidPlaced(p, b)
                for p in state.players
                for b in range(TEAM_BID_MIN, TEAM_BID_MAX + 1)
            ]
        if ph in ("thinking", "bidding", "challenge"):
            lo, hi = 1, 20
            if state.best is not None and ph != "thinking":
                hi = min(hi, state.best[1] - 1)
            out += [
                BidPlaced(p, b)
                for i, p in enumerate(state.players)
                if not (ph == "challenge" and i == state.claimer)
                for b in range(lo, hi + 1)
            ]
        if ph == "thinking":
            out.append(ButtonPressed("bid"))
        if ph == "challenge" and state.claimer is None:
            out += [
                ClaimerNamed(p)
                for i, p in enumerate(state.players)
                if not (state.best and state.best[0] == i)
            ]
        if ph == "choosing":
            out += [TeammateChosen(state.players[i]) for i in state.candidates]
        if ph in ("mixing", "verdict", "demonstration", "proof", "proof-verdict"):
            if state.mode == COMPETITIVE and ph in ("demonstration", "verdict"):
                if not state.no_solution:
                    most = most_removable(state)[0]
                    out += [RoundResult(True, n) for n in range(1, most + 1)]
            elif not state.no_solution:
                out.append(RoundResult(True))
            out.append(RoundResult(False))
        if ph == "who":
            out += [ClaimerNamed(p) for p in state.players]
        return tuple(out)

    # changing -------------------------------------------------------------------------
    def apply(self, state: LaserState, event: Event) -> tuple[LaserState, list[Cue]]:
        if state.over:
            raise IllegalMove("the game is over")
        step = step_for(state, event)
        if step is None:
            raise IllegalMove(not_used("Laser", event))
        return step(state, event)


GAME = LaserGame()

__all__ = [
    "GAME",
    "PROPOSAL_SLACK",
    "STEPS",
    "TEAM_BID_MAX",
    "TEAM_BID_MIN",
    "TILES",
    "WIN_POINTS",
    "LaserGame",
    "LaserState",
    "propose_removed",
]
