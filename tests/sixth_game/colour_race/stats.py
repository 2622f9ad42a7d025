"""Colour Race's statistics: does rolling first win the race? (from the finished races'
seats and winners; no replay needed)"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.stats import GameSummary


def statistics(games: Sequence[GameSummary], facts: Sequence[Mapping[str, Any]]) -> dict:
    races = [g for g in games if g.players]
    won = sum(g.players[0] in g.winners for g in races)
    return {"colour_race_first_roller": {"races": len(races), "won": won}}


def lines(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    first = data["colour_race_first_roller"]
    if not first["races"]:
        return []
    return [("", f"the first to roll won {first['won']} of {first['races']} races")]
