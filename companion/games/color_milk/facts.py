"""What the history keeps of a Color Milk round: each prediction's size and whether it came
true (read by `companion.rounds`)."""

from __future__ import annotations


def round_key(state):
    """A round is over when it joins the history (the final round never bumps `round`)."""
    return len(state.history)


def round_facts(before, after) -> dict[str, list]:
    out = [
        {"player": p.name, "size": len(p.prediction), "fulfilled": bool(p.fulfilled)}
        for p in before.players
        if p.prediction
    ]
    return {"predictions": out}
