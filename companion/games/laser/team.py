"""Laser's team mode: hidden bids shown together, the active player's teammate, mixing in
exactly the active player's bid."""

from __future__ import annotations

from dataclasses import replace

from companion.cues import Announce, AskHuman, Cue, Scored
from companion.errors import IllegalMove

from .state import TEAM_BID_MAX, TEAM_BID_MIN, LaserState


class TeamMode:
    """LaserGame's team-mode steps (it supplies _timed, _started, _seat and _end_round)."""

    def _team_bid(self, state: LaserState, seat: int, bid: int):
        if not TEAM_BID_MIN <= bid <= TEAM_BID_MAX:
            raise IllegalMove(f"team bids are {TEAM_BID_MIN}-{TEAM_BID_MAX} steps")
        bids = list(state.bids)
        bids[seat] = bid
        new = replace(state, bids=tuple(bids))
        if any(b is None for b in bids):
            return new, []
        return self._form_team(new)

    def _to_bids(self, state: LaserState, cues: list[Cue]):
        new = replace(state, phase="bids", bids=(None,) * len(state.players))
        return new, cues + [self._started(new), Announce("One, two, three: show your bids!")]

    def _form_team(self, state: LaserState):
        a = state.active
        mine = state.bids[a]
        gaps = {i: abs(b - mine) for i, b in enumerate(state.bids) if i != a}
        closest = min(gaps.values())
        cands = tuple(i for i in sorted(gaps) if gaps[i] == closest)
        if len(cands) == 1:
            return self._start_mixing(replace(state, candidates=cands), cands[0])
        new = replace(state, phase="choosing", candidates=cands)
        names = tuple(state.players[i] for i in cands)
        return new, [
            self._started(new, a),
            AskHuman(f"{state.players[a]}: choose your teammate", names),
        ]

    def _choose(self, state: LaserState, player: str):
        if state.phase != "choosing":
            raise IllegalMove("there is no teammate to choose now")
        seat = self._seat(state, player)
        if seat not in state.candidates:
            names = ", ".join(state.players[i] for i in state.candidates)
            raise IllegalMove(f"{player}'s bid is not among the closest (choose from {names})")
        return self._start_mixing(state, seat)

    def _start_mixing(self, state: LaserState, mate: int):
        new = self._timed(state, "mixing", mate=mate)
        a, bid = state.players[state.active], state.bids[state.active]
        return new, [
            self._started(new, state.active),
            Announce(
                f"{a} and {state.players[mate]}: exactly {bid} steps, {a} starts. No talking!"
            ),
        ]

    def _team_result(self, state: LaserState, success: bool):
        a, mate, bid = state.active, state.mate, state.bids[state.active]
        scores = list(state.scores)
        cues: list[Cue] = []
        if success:
            gainers = [a, mate]
            text = f"{state.players[a]} and {state.players[mate]} did it in {bid}: +{bid} each"
        else:
            gainers = [i for i in range(len(scores)) if i not in (a, mate)]
            text = f"{state.players[a]} and {state.players[mate]} failed: others +{bid}"
        for i in gainers:
            scores[i] += bid
            cues.append(Scored(state.players[i], bid))
        return self._end_round(replace(state, scores=tuple(scores)), cues, (text,))
