"""What the history keeps of a Laser round: each bid against the round's true optimum, when
the board was entered (read by `companion.rounds`; the solver runs once per logged round)."""

from __future__ import annotations

from .board import TEAM
from .proposal import position
from .solver import solve


def round_facts(before, after) -> dict[str, list]:
    pos = position(before)
    if pos is None:
        return {}
    optimum = solve(pos, totals=False).min_cost
    if optimum is None:
        return {}
    if before.mode == TEAM:
        bids = {seat: b for seat, b in enumerate(before.bids) if b is not None}
    else:
        bids = {}
        for seat, b in before.bid_log:  # a player's lowest bid is the one they stood by
            bids[seat] = min(b, bids.get(seat, b))
    return {
        "bids": [
            {"player": before.players[seat], "bid": b, "optimum": optimum}
            for seat, b in sorted(bids.items())
        ]
    }
