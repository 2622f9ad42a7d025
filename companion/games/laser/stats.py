"""Laser's statistics: each player's bids against the round's true optimum (the round facts
of `facts.py`), and its "auto" mode named as played."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.stats import GameSummary

from .board import chosen_mode

READS_ROUNDS = True


def statistics(games: Sequence[GameSummary], facts: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    return {"laser_bids": bids(facts)}


def bids(facts: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, int]]:
    """Per player: rounds bid with a known optimum, and how often the bid was the optimum."""
    out: dict[str, dict[str, int]] = {}
    for f in facts:
        for b in f.get("bids", ()):
            s = out.setdefault(b["player"], {"bids": 0, "optimal": 0, "over": 0})
            s["bids"] += 1
            s["optimal"] += b["bid"] == b["optimum"]
            s["over"] += b["bid"] - b["optimum"] if b["bid"] > b["optimum"] else 0
    return dict(sorted(out.items()))


def lines(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    return [
        (p, f"bid the true optimum {b['optimal']} of {b['bids']} times")
        for p, b in data["laser_bids"].items()
    ]


def mode_name(mode: str, players: Sequence[str]) -> str:
    return chosen_mode(mode, len(players))
