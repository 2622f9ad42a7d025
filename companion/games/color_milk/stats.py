"""Color Milk's statistics: each player's predictions by how many colours they named, made
and fulfilled (the round facts of `facts.py`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.stats import GameSummary

READS_ROUNDS = True


def statistics(games: Sequence[GameSummary], facts: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    return {
        "color_milk_predictions": {
            p: {str(k): v for k, v in sizes.items()} for p, sizes in predictions(facts).items()
        }
    }


def predictions(facts: Sequence[Mapping[str, Any]]) -> dict[str, dict[int, list[int]]]:
    """Per player and prediction size: [made, fulfilled]."""
    out: dict[str, dict[int, list[int]]] = {}
    for f in facts:
        for p in f.get("predictions", ()):
            cell = out.setdefault(p["player"], {}).setdefault(int(p["size"]), [0, 0])
            cell[0] += 1
            cell[1] += bool(p["fulfilled"])
    return {k: dict(sorted(v.items())) for k, v in sorted(out.items())}


def lines(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    return [
        (
            p,
            "predictions fulfilled by colours named - "
            + " · ".join(f"{k}: {v[1]}/{v[0]}" for k, v in sizes.items()),
        )
        for p, sizes in data["color_milk_predictions"].items()
    ]
