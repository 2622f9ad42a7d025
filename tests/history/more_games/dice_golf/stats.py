"""Dice Golf's statistics: how often each player finished a round under par."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.stats import GameSummary

from .rules import HOLES, PAR


def statistics(games: Sequence[GameSummary], facts: Sequence[Mapping[str, Any]]) -> dict:
    out: dict[str, list[int]] = {}
    for g in games:
        for p in g.players:
            cell = out.setdefault(p, [0, 0])  # rounds, under par
            cell[0] += 1
            cell[1] += g.scores.get(p, HOLES * PAR) < HOLES * PAR
    return {"dice_golf_under_par": dict(sorted(out.items()))}


def lines(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    return [
        (p, f"under par in {under} of {rounds} rounds")
        for p, (rounds, under) in data["dice_golf_under_par"].items()
    ]
