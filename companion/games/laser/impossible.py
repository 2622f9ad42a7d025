"""Laser's Impossible! challenge: someone grabs the cat, the others may bid to prove it
can be done, the lowest counter-bidder demonstrates, and the claimer wins or loses."""

from __future__ import annotations

from dataclasses import replace

from companion.cues import Announce, AskHuman, Cue, Scored
from companion.errors import IllegalMove

from .board import TEAM
from .competitive import take_x
from .state import CLAIM_PHASES, IMPOSSIBLE_POINTS, LaserState


class ImpossibleChallenge:
    """LaserGame's Impossible! steps (it supplies _timed, _started, _seat and _end_round)."""

    def _claim(self, state: LaserState, player: str | None):
        if state.phase not in CLAIM_PHASES:
            raise IllegalMove(
                "Impossible! can be called once the cards are revealed, before anyone mixes"
            )
        seat = None if player is None else self._seat(state, player)
        new = self._timed(state, "challenge", claimer=seat, best=None, bid_log=())
        who = player or "Someone"
        cues: list[Cue] = [
            self._started(new, seat),
            Announce(f"{who} says Impossible! Others: bid steps to prove it wrong."),
        ]
        if seat is None:
            cues.append(AskHuman("Who grabbed the cat?", state.players))
        return new, cues

    def _name_claimer(self, state: LaserState, player: str):
        seat = self._seat(state, player)
        if state.phase not in ("challenge", "proof", "proof-verdict", "who"):
            raise IllegalMove("there is no Impossible! claim to name")
        if state.claimer is not None and state.phase != "who":
            raise IllegalMove(f"{state.players[state.claimer]} already claimed Impossible!")
        if state.best is not None and state.best[0] == seat:
            raise IllegalMove(f"{player} bid against the claim and cannot be the claimer")
        new = replace(state, claimer=seat)
        if state.phase == "who":
            return self._settle_claim(new, state.claim_right, [])
        return new, [Announce(f"{player} grabbed the cat.")]

    def _settle_claim(self, state: LaserState, right: bool, cues: list[Cue]):
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
                f"Impossible! by {name}: "
                + ("right, +10" if right else "wrong, everyone else +10"),
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
        return self._end_round(new, cues, summary)

    def _counter_bid(self, state: LaserState, seat: int, bid: int):
        # Any number of steps 1-99 in both modes: the rulebook's 2-10 limit is for the team
        # bids shown on the fingers of two hands; counter-bids are announced like
        # competitive bids, and a claim may be disproved by a long solution.
        player = state.players[seat]
        if seat == state.claimer:
            raise IllegalMove(f"{player} claimed Impossible! and cannot bid against it")
        if state.best is not None and bid >= state.best[1]:
            raise IllegalMove(f"only bids below {state.best[1]} count now")
        new = replace(state, best=(seat, bid), bid_log=state.bid_log + ((seat, bid),))
        return new, [Announce(f"{player} says it can be done in {bid}.")]
