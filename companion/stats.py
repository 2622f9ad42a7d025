"""Statistics over finished games, from plain data: no Kivy, no files, no clock.

Per player and game: plays, wins, win rate, best and average score, the longest and the
current winning streak. Per game: Laser bids against the true optimum, Color Milk
predictions fulfilled by size, Kritters solo bests.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

# Games where the lowest score is best (Elios counts the beams still in hand).
LOWER_IS_BETTER = frozenset({"elios"})


@dataclass(frozen=True)
class GameSummary:
    """One finished game as the history lists it."""

    uuid: str
    id: int
    game: str
    started: str
    mode: str  # "Board 3", "team", "" ...
    players: tuple[str, ...]
    scores: Mapping[str, float]
    winners: tuple[str, ...]
    status: str = "finished"


@dataclass
class PlayerStats:
    player: str
    game: str
    plays: int = 0
    wins: int = 0
    scores: list[float] = field(default_factory=list)
    best_streak: int = 0
    streak: int = 0  # wins in a row up to the latest game

    @property
    def win_rate(self) -> float:
        return self.wins / self.plays if self.plays else 0.0

    @property
    def best(self) -> float | None:
        if not self.scores:
            return None
        return min(self.scores) if self.game in LOWER_IS_BETTER else max(self.scores)

    @property
    def average(self) -> float | None:
        return sum(self.scores) / len(self.scores) if self.scores else None

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "game": self.game,
            "plays": self.plays,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 4),
            "best": self.best,
            "average": None if self.average is None else round(self.average, 4),
            "best_streak": self.best_streak,
            "streak": self.streak,
        }


def player_stats(games: Iterable[GameSummary]) -> list[PlayerStats]:
    """Per (player, game), over finished games taken in the order they were played."""
    out: dict[tuple[str, str], PlayerStats] = {}
    for g in sorted(games, key=lambda g: (g.started, g.uuid)):
        if g.status != "finished":
            continue
        for name in g.players:
            s = out.setdefault((name, g.game), PlayerStats(name, g.game))
            s.plays += 1
            won = name in g.winners
            s.wins += won
            s.streak = s.streak + 1 if won else 0
            s.best_streak = max(s.best_streak, s.streak)
            score = g.scores.get(name)
            if isinstance(score, int | float) and not isinstance(score, bool):
                s.scores.append(score)
    return sorted(out.values(), key=lambda s: (s.game, -s.wins, -s.plays, s.player))


def laser_bids(facts: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, int]]:
    """Per player: rounds bid with a known optimum, and how often the bid was the optimum."""
    out: dict[str, dict[str, int]] = {}
    for f in facts:
        for b in f.get("bids", ()):
            s = out.setdefault(b["player"], {"bids": 0, "optimal": 0, "over": 0})
            s["bids"] += 1
            s["optimal"] += b["bid"] == b["optimum"]
            s["over"] += b["bid"] - b["optimum"] if b["bid"] > b["optimum"] else 0
    return dict(sorted(out.items()))


def milk_predictions(facts: Iterable[Mapping[str, Any]]) -> dict[str, dict[int, list[int]]]:
    """Per player and prediction size: [made, fulfilled]."""
    out: dict[str, dict[int, list[int]]] = {}
    for f in facts:
        for p in f.get("predictions", ()):
            cell = out.setdefault(p["player"], {}).setdefault(int(p["size"]), [0, 0])
            cell[0] += 1
            cell[1] += bool(p["fulfilled"])
    return {k: dict(sorted(v.items())) for k, v in sorted(out.items())}


def solo_bests(games: Iterable[GameSummary], game: str = "kritters") -> dict[str, float]:
    """Each player's best one-player score in `game` (the Kritters solo target)."""
    out: dict[str, float] = {}
    for g in games:
        if g.game != game or g.status != "finished" or len(g.players) != 1:
            continue
        score = g.scores.get(g.players[0])
        if isinstance(score, int | float) and not isinstance(score, bool):
            out[g.players[0]] = max(score, out.get(g.players[0], score))
    return dict(sorted(out.items()))
