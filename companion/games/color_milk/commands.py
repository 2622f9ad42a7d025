"""Scriptable tools: `companion odds color-milk` and `companion demo color-milk`."""

from __future__ import annotations

import json

from companion.codec import read_json_stdin
from companion.errors import UsageError
from companion.games.color_milk.mill import BALLS_PER_ROUND, COLOURS, FULL_MILL, TOTAL_BALLS
from companion.games.color_milk.odds import fulfil_probability


def parse_odds_request(data) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """Validate {"mill": {colour: count}, "prediction": [colours]}; one-line errors."""
    if not isinstance(data, dict):
        raise UsageError('expected a JSON object like {"mill": {...}, "prediction": [...]}')
    mill_in = data.get("mill")
    if not isinstance(mill_in, dict):
        raise UsageError('"mill" must be an object of colour counts, e.g. {"blue": 6}')
    counts = []
    for name in mill_in:
        if name not in COLOURS:
            raise UsageError(f"unknown colour {name!r} in mill (use {', '.join(COLOURS)})")
    for name, full in zip(COLOURS, FULL_MILL, strict=True):
        n = mill_in.get(name, 0)
        if isinstance(n, bool) or not isinstance(n, int):
            raise UsageError(f"the count of {name} must be a whole number, not {n!r}")
        if n < 0:
            raise UsageError(f"negative count for {name}: {n}")
        if n > full:
            raise UsageError(f"the mill holds at most {full} {name} balls, not {n}")
        counts.append(n)
    if sum(counts) > TOTAL_BALLS:
        raise UsageError(f"the mill holds at most {TOTAL_BALLS} balls")
    if sum(counts) < BALLS_PER_ROUND:
        raise UsageError(
            f"the mill must hold at least {BALLS_PER_ROUND} balls to roll 5 out, not {sum(counts)}"
        )
    pred = data.get("prediction")
    if not isinstance(pred, list) or not all(isinstance(p, str) for p in pred):
        raise UsageError('"prediction" must be a list of colours, e.g. ["pink", "purple"]')
    for name in pred:
        if name not in COLOURS:
            raise UsageError(f"unknown colour {name!r} in prediction (use {', '.join(COLOURS)})")
    if len(set(pred)) != len(pred):
        raise UsageError("a prediction names each colour at most once")
    if not 1 <= len(pred) <= 5:
        raise UsageError(f"a prediction has 1 to 5 colours, not {len(pred)}")
    return tuple(counts), tuple(pred)


def odds(argv: list[str]) -> int:
    """Read the request on stdin; print the exact chance as {"probability": p, "exact": "a/b"}."""
    if argv:
        raise UsageError("usage: companion odds color-milk < request.json")
    mill, pred = parse_odds_request(
        read_json_stdin("usage: companion odds color-milk < request.json")
    )
    p = fulfil_probability(mill, pred)
    print(json.dumps({"probability": float(p), "exact": f"{p.numerator}/{p.denominator}"}))
    return 0


def demo(argv: list[str]) -> int:
    from companion.games.color_milk.demo import main

    return main(argv)


VERBS = {"odds": odds, "demo": demo}
