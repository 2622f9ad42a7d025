"""What a logged game looked like round by round, replayed through its pure rules.

`game_facts` replays a log once and returns plain data: the score of every player after each
round (for the results chart) and whatever a game adds about its rounds (Laser bids against
the true optimum, Color Milk predictions by size). No Kivy, no files: the screens draw it and
`companion.history` caches it.

A round ends wherever the game's round counter moves. The counter is the state's `round`,
`turn` or `played` (cards placed), whichever it has; a game may name its own with
`round_key(state)` in a `facts` module beside its rules, and add `round_facts(before, after)`
there (a dict of lists, merged over the game).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from companion import catalogue
from companion.session import config_from_json, replay

FACTS_VERSION = 1  # bump when what game_facts returns changes: cached facts are recomputed
_COUNTERS = ("round", "turn", "played")


@dataclass(frozen=True)
class ScoreSeries:
    """Scores after each round: `points[k][i]` is player i's score after point k. Point 0 is
    the start; `labels[k]` names the point for people ("Start", "1", ..., "End")."""

    players: tuple[str, ...]
    labels: tuple[str, ...]
    points: tuple[tuple[float, ...], ...]

    def of(self, player: str) -> list[float]:
        i = self.players.index(player)
        return [p[i] for p in self.points]

    def to_json(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "labels": list(self.labels),
            "points": [list(p) for p in self.points],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ScoreSeries:
        return cls(
            tuple(data["players"]),
            tuple(data["labels"]),
            tuple(tuple(p) for p in data["points"]),
        )


def _hooks(name: str):
    package = catalogue.info(name).package
    try:
        return importlib.import_module(package + ".facts")
    except ModuleNotFoundError as exc:
        if exc.name != package + ".facts":
            raise
        return None


def _default_key(state: Any) -> Any:
    for attr in _COUNTERS:
        value = getattr(state, attr, None)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def _number(value: Any) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def game_facts(
    name: str, config: dict[str, Any], entries: Iterable, extras: bool = True
) -> dict[str, Any]:
    """Replay one logged game: {"series": ScoreSeries as JSON, "events": n, "result": the
    replayed end (over, scores, winners), ...the game's own facts}. Raises CompanionError
    (IllegalMove, UsageError) for a log its rules refuse. `extras=False` skips the game's own
    facts (the results chart needs only the series; Laser's optimum needs the solver)."""
    game = catalogue.load(name)
    cfg = config_from_json(config)
    states, _ = replay(game, cfg, entries)
    hooks = _hooks(name)
    key = getattr(hooks, "round_key", _default_key)
    extra = getattr(hooks, "round_facts", None) if extras else None
    players = tuple(cfg.players)

    def snapshot(state):
        scores = game.scores(state)
        return tuple(_number(scores.get(p, 0)) for p in players)

    labels, points = ["Start"], [snapshot(states[0])]
    facts: dict[str, list] = {}
    last = len(states) - 1
    for i in range(1, len(states)):
        before, after = states[i - 1], states[i]
        if key(after) == key(before):
            continue
        labels.append(str(len(labels)))
        points.append(snapshot(after))
        if extra is not None:
            for k, items in (extra(before, after) or {}).items():
                facts.setdefault(k, []).extend(items)
        if i == last:
            last = -1  # the final state is already a point
    final = states[-1]
    if last != -1 and (game.is_over(final) or snapshot(final) != points[-1]):
        labels.append("End")
        points.append(snapshot(final))
    series = ScoreSeries(players, tuple(labels), tuple(points))
    result = {
        "over": game.is_over(final),
        "scores": dict(game.scores(final)),
        "winners": list(game.winners(final)),
    }
    return {"series": series.to_json(), "events": len(states) - 1, "result": result, **facts}
