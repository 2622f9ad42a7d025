"""Scriptable tools: `companion score kritters < cards.json`."""

from __future__ import annotations

import json

from companion.codec import read_json_stdin
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
    collection, rules = parse(read_json_stdin(USAGE))
    print(json.dumps(best_score(collection, rules).to_json(), indent=2))
    return 0


VERBS = {"score": score}
