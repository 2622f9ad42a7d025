"""Statistics over finished games, from plain data: no Kivy, no files, no clock.

Per player and game: plays, wins, win rate, best and average score, the longest and the
current winning streak; and a game's board or mode as people name it (`mode_label`). What
else a game counts (its `stats` module) is its own: see companion.games.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion import catalogue


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
    damaged: str = ""  # why its stored record cannot be read ("" if sound)


@dataclass
class PlayerStats:
    player: str
    game: str
    plays: int = 0
    wins: int = 0
    scores: list[float] = field(default_factory=list)
    best_streak: int = 0
    streak: int = 0  # wins in a row up to the latest game
    lower_is_better: bool = False  # the game's lowest score is its best

    @property
    def win_rate(self) -> float:
        return self.wins / self.plays if self.plays else 0.0

    @property
    def best(self) -> float | None:
        if not self.scores:
            return None
        return min(self.scores) if self.lower_is_better else max(self.scores)

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
    """Per (player, game), over finished games in the order the log holds them (not by their
    dates: a clock set back or another table's clock never breaks a streak)."""
    out: dict[tuple[str, str], PlayerStats] = {}
    for g in sorted(games, key=lambda g: g.id):
        if g.status != "finished" or g.damaged:
            continue
        for name in g.players:
            s = out.get((name, g.game))
            if s is None:
                low = catalogue.lower_is_better(g.game)
                s = out[(name, g.game)] = PlayerStats(name, g.game, lower_is_better=low)
            s.plays += 1
            won = name in g.winners
            s.wins += won
            s.streak = s.streak + 1 if won else 0
            s.best_streak = max(s.best_streak, s.streak)
            score = g.scores.get(name)
            if isinstance(score, int | float) and not isinstance(score, bool):
                s.scores.append(score)
    return sorted(out.values(), key=lambda s: (s.game, -s.wins, -s.plays, s.player))


MODE_LENGTH = 40  # characters of a mode label: a stored option can hold anything


def mode_label(game: str, config: dict[str, Any]) -> str:
    """Board or mode, as people name it: "Board 3", "team", "junior, solo"."""
    opts, players = config.get("options", {}), config.get("players", ())
    opts = opts if isinstance(opts, dict) else {}
    parts = []
    if "board" in opts:
        parts.append(f"Board {_short(opts['board'])}")
    mode = opts.get("mode")
    if isinstance(mode, str):  # as the game names it as played, e.g. an "auto"
        own = catalogue.stats(game)
        mode = own.mode_name(mode, players) if hasattr(own, "mode_name") else mode
    if mode:
        parts.append(_short(mode))
    if opts.get("variant") not in (None, "standard"):
        parts.append(_short(opts["variant"]))
    if len(players) == 1:
        parts.append("solo")
    label = ", ".join(parts)
    return label if len(label) <= MODE_LENGTH else label[: MODE_LENGTH - 1] + "\u2026"


def _short(value: Any) -> str:
    return value[:MODE_LENGTH] if isinstance(value, str) else repr(value)[:MODE_LENGTH]
