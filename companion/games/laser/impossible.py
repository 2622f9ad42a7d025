"""Laser's Impossible! challenge: someone grabs the cat, the others may bid to prove it
can be done, the lowest counter-bidder demonstrates, and the claimer wins or loses. Steps
`(state, event) -> (state, cues)` that rules.STEPS dispatches to."""

from __future__ import annotations

from dataclasses import replace

from companion.cues import Announce, AskHuman, Cue, Scored
from companion.errors import IllegalMove
from companion.events import ButtonPressed, TimerExpired

from .board import TEAM
from .events import BidPlaced, ClaimerNamed, ImpossibleClaimed, RoundResult
from .flow import end_round, open_bid_seat, seat, started, take_x, time_up, timed
from .proposal import proposal, proposal_cues, refuse_unsolvable
from .state import IMPOSSIBLE_POINTS, LaserState


# the claim ------------------------------------------------------------------------------
def claim(state: LaserState, ev: ImpossibleClaimed):
    return _claim(state, ev.player)


def claim_by_button(state: LaserState, ev: ButtonPressed):
    """The cat was grabbed: who grabbed it is asked for."""
    return _claim(state, None)


def refuse_claim(state: LaserState, ev) -> None:
    raise IllegalMove("Impossible! can be called once the cards are revealed, before anyone mixes")


def _claim(state: LaserState, player: str | None):
    at = None if player is None else seat(state, player)
    new = timed(state, "challenge", claimer=at, best=None, bid_log=())
    who = player or "Someone"
    cues: list[Cue] = [
        started(new, at),
        Announce(f"{who} says Impossible! Others: bid steps to prove it wrong."),
    ]
    if at is None:
        cues.append(AskHuman("Who grabbed the cat?", state.players))
    return new, cues


def name_claimer(state: LaserState, ev: ClaimerNamed):
    """Who grabbed the cat, told during the challenge or asked for once it is settled."""
    at = seat(state, ev.player)
    if state.claimer is not None and state.phase != "who":
        raise IllegalMove(f"{state.players[state.claimer]} already claimed Impossible!")
    if state.best is not None and state.best[0] == at:
        raise IllegalMove(f"{ev.player} bid against the claim and cannot be the claimer")
    new = replace(state, claimer=at)
    if state.phase == "who":
        return _settle(new, state.claim_right, [])
    return new, [Announce(f"{ev.player} grabbed the cat.")]


def refuse_naming(state: LaserState, ev: ClaimerNamed) -> None:
    seat(state, ev.player)  # an unknown name is refused for what it is first
    raise IllegalMove("there is no Impossible! claim to name")


# counter-bids and the proof -------------------------------------------------------------
def counter_bid(state: LaserState, ev: BidPlaced):
    # Any number of steps 1-99 in both modes: the rulebook's 2-10 limit is for the team
    # bids shown on the fingers of two hands; counter-bids are announced like
    # competitive bids, and a claim may be disproved by a long solution.
    at, bid = open_bid_seat(state, ev), ev.bid
    player = state.players[at]
    if at == state.claimer:
        raise IllegalMove(f"{player} claimed Impossible! and cannot bid against it")
    if state.best is not None and bid >= state.best[1]:
        raise IllegalMove(f"only bids below {state.best[1]} count now")
    new = replace(state, best=(at, bid), bid_log=state.bid_log + ((at, bid),))
    return new, [Announce(f"{player} says it can be done in {bid}.")]


def challenge_over(state: LaserState, ev: TimerExpired):
    """Nobody disagreed: the claimer was right; else the lowest counter-bidder proves it."""
    cues = time_up(state, ev)
    if state.best is None:
        return _settle(state, True, cues + [Announce("Nobody disagreed.")])
    at, bid = state.best
    new = timed(state, "proof", **proposal(state, bid))
    name = state.players[at]
    cues += [started(new, at), Announce(f"{name}: show it in {bid} steps!")]
    return new, cues + proposal_cues(new, name, bid)


def proof_result(state: LaserState, ev: RoundResult):
    """The prover succeeding means the claimer was wrong, if the board allows it."""
    if ev.success:
        refuse_unsolvable(state, state.best[1])
    return _settle(state, not ev.success, [])


def _settle(state: LaserState, right: bool, cues: list[Cue]):
    if state.claimer is None:
        new = replace(state, phase="who", claim_right=right)
        return new, cues + [AskHuman("Who grabbed the cat?", state.players)]
    claimer = state.claimer
    name = state.players[claimer]
    scores, xs, pens = list(state.scores), list(state.xs), list(state.penalties)
    if right:
        cues.append(Announce(f"{name} was right: it is impossible."))
    else:
        cues.append(Announce(f"{name} was wrong: it can be done."))
    if state.mode == TEAM:
        gainers = [claimer] if right else [i for i in range(len(scores)) if i != claimer]
        for i in gainers:
            scores[i] += IMPOSSIBLE_POINTS
            cues.append(Scored(state.players[i], IMPOSSIBLE_POINTS))
        summary = (
            f"Impossible! by {name}: " + ("right, +10" if right else "wrong, everyone else +10"),
        )
    else:
        takers = [i for i in range(len(scores)) if i != claimer] if right else [claimer]
        for i in takers:
            cues += take_x(state.players, i, scores, xs, pens)
        summary = (
            f"Impossible! by {name}: "
            + ("right, everyone else takes an X" if right else "wrong, takes an X"),
        )
    new = replace(
        state, scores=tuple(scores), xs=tuple(xs), penalties=tuple(pens), claim_right=None
    )
    return end_round(new, cues, summary)
