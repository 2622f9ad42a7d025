"""`companion score colour-race COLOUR...`: the points of a run of rolls, as JSON."""

from __future__ import annotations

import json

from companion.errors import UsageError

from .rules import POINTS


def score(argv: list[str]) -> int:
    unknown = [c for c in argv if c not in POINTS]
    if unknown:
        raise UsageError(f"no die face {unknown[0]!r} (faces: {', '.join(POINTS)})")
    print(json.dumps({"points": sum(POINTS[c] for c in argv)}))
    return 0


VERBS = {"score": score}
