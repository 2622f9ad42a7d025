"""Scriptable tools: `companion score kritters < cards.json`."""

from __future__ import annotations

import json
import sys

from companion.errors import UsageError
from companion.games.kritters.score_input import parse
from companion.games.kritters.scoring import best_score

USAGE = (
    "usage: companion score kritters < cards.json  "
    '(e.g. {"magenta": 6, "paintbrushes": 1, "palettes": 1})'
)


def score(argv: list[str]) -> int:
    """Read a player's cards as JSON on stdin; print the best score, layout and reasons."""
    if argv:
        raise UsageError(f"score kritters takes no arguments ({USAGE})")
    text = sys.stdin.read()
    if not text.strip():
        raise UsageError(f"no input on stdin ({USAGE})")
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise UsageError(f"stdin is not valid JSON: {exc}") from None
    collection, rules = parse(data)
    print(json.dumps(best_score(collection, rules).to_json(), indent=2))
    return 0


VERBS = {"score": score}
