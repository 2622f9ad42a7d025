"""`companion solve laser`: read a position as JSON on stdin, print the optimum as JSON.

    echo '{"mode": "team", "tiles": [...12...], "cat": 0, "supply": {"red": 2, ...},
           "cards": [{"colour": "blue"}, {"colour": "cyan"}]}' | companion solve laser

Optional fields: "floors" (competitive), "max_cost" (default 20), "straight_away" (default
true: a mixed figure that completes no card must be used in the very next mix).
"""

from __future__ import annotations

import json

from companion.codec import read_json_stdin
from companion.errors import UsageError

from .board import position_from_json
from .solver import DEFAULT_MAX_COST, solve

USAGE = "usage: companion solve laser < position.json (see docs/laser.md)"


def solve_command(argv: list[str]) -> int:
    if argv and argv[0] in ("-h", "--help"):
        print(USAGE)
        print(__doc__)
        return 0
    if argv:
        raise UsageError(f"solve laser takes no arguments, got {' '.join(argv)!r}; {USAGE}")
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
    sol = solve(pos, max_cost=max_cost, straight_away=straight)
    print(json.dumps(sol.to_json()))
    return 0


VERBS = {"solve": solve_command}
