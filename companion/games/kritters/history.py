"""Solo best scores, read from the game log (the Session stores each finished game's result
as {"scores": {player: points}, "winners": [...]})."""

from __future__ import annotations

from dataclasses import dataclass

from companion.store import GameLog


@dataclass(frozen=True)
class SoloGame:
    game_id: int
    player: str
    score: int
    finished: str | None


def solo_games(log: GameLog, player: str | None = None) -> list[SoloGame]:
    """Finished one-player Kritters games, oldest first (optionally one player's)."""
    out = []
    for rec in log.games("finished"):
        players = rec.config.get("players", [])
        if rec.game != "kritters" or len(players) != 1:
            continue
        if player is not None and players[0] != player:
            continue
        score = (rec.result or {}).get("scores", {}).get(players[0])
        if isinstance(score, int | float) and not isinstance(score, bool):
            out.append(SoloGame(rec.id, players[0], int(score), rec.finished))
    return out


def solo_best(log: GameLog, player: str | None = None) -> int | None:
    """The best solo score so far, or None before the first solo game."""
    scores = [g.score for g in solo_games(log, player)]
    return max(scores) if scores else None


def solo_options(log: GameLog, player: str, options: dict | None = None) -> dict:
    """Options for a new solo game that carry the best score to beat."""
    out = dict(options or {})
    best = solo_best(log, player)
    if best is not None:
        out["solo_best"] = best
    return out
