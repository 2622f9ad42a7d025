"""`companion solve laser`: read a position as JSON on stdin, print the optimum as JSON.

    echo '{"mode": "team", "tiles": [...12...], "cat": 0, "supply": {"red": 2, ...},
           "cards": [{"colour": "blue"}, {"colour": "cyan"}]}' | companion solve laser

Optional fields: "floors" (competitive), "max_cost" (default 20), "straight_away" (default
true: a mixed figure that completes no card must be used in the very next mix).

--timeout S: give up after S seconds (default 5), or once the search has taken 256 MB more
memory, whichever comes first; the answer then says "solved": false and why in "note", and
claims nothing the search did not prove.

`companion refill laser`: the table after the end-of-round refill (see refill.py).
"""

from __future__ import annotations

import json

from companion.codec import read_json_stdin
from companion.errors import UsageError

from .board import FLOORS, MODES, TILES, floor_index, position_from_json
from .solver import DEFAULT_MAX_COST, solve
from .solver.limit import SEARCH_MEGABYTES, Limit

USAGE = "usage: companion solve laser [--timeout S] < position.json (see docs/laser.md)"
DEFAULT_TIMEOUT = 5.0  # seconds; two to four cards take well under one


def solve_command(argv: list[str]) -> int:
    if argv and argv[0] in ("-h", "--help"):
        print(USAGE)
        print(__doc__)
        return 0
    timeout = _timeout(argv)
    data = read_json_stdin(USAGE)
    if not isinstance(data, dict):
        raise UsageError("the position must be a JSON object")
    max_cost = data.get("max_cost", DEFAULT_MAX_COST)
    if not isinstance(max_cost, int) or isinstance(max_cost, bool) or not 1 <= max_cost <= 60:
        raise UsageError(f"max_cost must be a whole number 1-60, not {max_cost!r}")
    straight = data.get("straight_away", True)
    if not isinstance(straight, bool):
        raise UsageError("straight_away must be true or false")
    pos = position_from_json(data)
    limit = Limit(seconds=timeout, megabytes=SEARCH_MEGABYTES)
    sol = solve(pos, max_cost=max_cost, straight_away=straight, limit=limit)
    print(json.dumps(sol.to_json()))
    return 0


def _timeout(argv: list[str]) -> float:
    if not argv:
        return DEFAULT_TIMEOUT
    if len(argv) == 2 and argv[0] == "--timeout":
        try:
            seconds = float(argv[1])
        except ValueError:
            seconds = -1.0
        if 0 < seconds <= 3600:
            return seconds
        raise UsageError(f"--timeout takes seconds, more than 0 and at most 3600, not {argv[1]!r}")
    raise UsageError(f"solve laser takes only --timeout S, got {' '.join(argv)!r}; {USAGE}")


REFILL_USAGE = "usage: companion refill laser < refill.json (see docs/laser.md)"


def refill_command(argv: list[str]) -> int:
    """`companion refill laser`: the position after the end-of-round refill, as JSON."""
    from . import refill as R

    if argv and argv[0] in ("-h", "--help"):
        print(REFILL_USAGE)
        print(R.__doc__)
        return 0
    if argv:
        raise UsageError(f"refill laser takes no options, got {' '.join(argv)!r}; {REFILL_USAGE}")
    data = read_json_stdin(REFILL_USAGE)
    table, figures = R.request_from_json(data)
    out = R.refill_to_json(R.refill(table, figures))
    # carried through, checked, so the answer completed with cards feeds `solve laser`
    if "mode" in data:
        if data["mode"] not in MODES:
            raise UsageError(f"mode must be 'team' or 'competitive', not {data['mode']!r}")
        out["mode"] = data["mode"]
    if data.get("floors") is not None:
        floors = data["floors"]
        if not isinstance(floors, list) or len(floors) != TILES:
            raise UsageError(f"floors must be a list of {TILES} floor names")
        out["floors"] = [FLOORS[floor_index(f)] for f in floors]
    print(json.dumps(out))
    return 0


def demo_command(argv: list[str]) -> int:
    """`companion demo laser`: rounds on the simulated table, read by the camera."""
    from .sim.demo import main

    return main(argv)


VERBS = {"solve": solve_command, "refill": refill_command, "demo": demo_command}
