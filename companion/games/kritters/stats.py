"""Colour MY Kritters' statistics: each player's best one-player score (the solo target)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.stats import GameSummary


def statistics(games: Sequence[GameSummary], facts: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    return {"kritters_solo_best": solo_bests(games)}


def solo_bests(games: Sequence[GameSummary]) -> dict[str, float]:
    """Each player's best score in a finished game they played alone."""
    out: dict[str, float] = {}
    for g in games:
        if g.status != "finished" or len(g.players) != 1:
            continue
        score = g.scores.get(g.players[0])
        if isinstance(score, int | float) and not isinstance(score, bool):
            out[g.players[0]] = max(score, out.get(g.players[0], score))
    return dict(sorted(out.items()))


def lines(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    return [(p, f"solo best is {best:g}") for p, best in data["kritters_solo_best"].items()]
