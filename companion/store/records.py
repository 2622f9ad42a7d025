"""Reading the games table: each stored game as a GameRecord, as it will be once the outbox
is written, whatever a row holds."""

from __future__ import annotations

import json
from dataclasses import replace

from companion.entries import GameRecord, record_problem
from companion.errors import LogError
from companion.store.integrity import DamagedGame, decoded
from companion.store.writing import Writer

# Columns read into a GameRecord, named so that columns added later never shift them.
GAME_COLUMNS = "id, game, config, started, finished, status, result, uuid"


class GameRecords:
    """The games of one log, read through its writer's connection and outbox."""

    def __init__(self, writer: Writer) -> None:
        self.writer = writer

    def game(self, game_id: int) -> GameRecord:
        row = self.writer.db.execute(
            f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        if row is None:
            raise LogError(f"no game {game_id} in {self.writer.path}")
        return self._as_written(record(row))

    def find(self, game_uuid: str) -> GameRecord | None:
        """The game with this UUID, if this log holds it."""
        row = self.writer.db.execute(
            f"SELECT {GAME_COLUMNS} FROM games WHERE uuid = ?", (game_uuid,)
        ).fetchone()
        return None if row is None else self._as_written(record(row))

    def games(self, status: str | None = None) -> list[GameRecord]:
        """Every game in log order (its id), optionally only those with `status`."""
        pending = {op[1] for op in self.writer.waiting("status")}
        sql, args = f"SELECT {GAME_COLUMNS} FROM games", ()
        if status and not pending:
            sql, args = sql + " WHERE status = ?", (status,)
        out = []
        for row in self.writer.db.execute(sql + " ORDER BY id", args):
            rec = record(row)
            rec = self._as_written(rec) if rec.id in pending else rec
            if status is None or rec.status == status:
                out.append(rec)
        return out

    def active_games(self) -> list[GameRecord]:
        """Every game in progress, the one played last first: the one whose last entry was
        written last (the log's own order of writing, never the clock: a Pi without a clock
        battery may restart with its clock behind). A game with no entry yet counts from its
        creation, placed after the entries written before it by their time stamps."""
        touched = dict(
            self.writer.db.execute(
                "SELECT g.id, COALESCE("
                " (SELECT MAX(e.rowid) FROM entries e WHERE e.game_id = g.id),"
                " (SELECT COALESCE(MAX(e.rowid), 0) FROM entries e WHERE e.at <= g.started) + 0.5)"
                " FROM games g WHERE g.status = 'active'"
            )
        )
        # Entries the card has not taken yet (see the writer) are newer than any written.
        latest = {op[1]: i for i, op in enumerate(self.writer.waiting("entry"))}
        return sorted(
            self.games("active"),
            key=lambda r: (latest.get(r.id, -1), touched.get(r.id, 0), r.id),
            reverse=True,
        )

    def set_aside_games(self) -> dict[int, str]:
        """The games taken out of play, with the reason each was."""
        aside = dict(
            self.writer.db.execute("SELECT game_id, reason FROM set_aside ORDER BY game_id")
        )
        for _, game_id, reason, _at in self.writer.waiting("aside"):
            aside.setdefault(game_id, reason)
        return aside

    def player_history(self, game: str | None = None) -> dict[str, dict[str, int]]:
        """Per player: games played and won among finished games (optionally one game)."""
        stats: dict[str, dict[str, int]] = {}
        for rec in self.games("finished"):
            if game and rec.game != game:
                continue
            winners = set((rec.result or {}).get("winners", ()))
            for name in rec.config.get("players", ()):
                s = stats.setdefault(name, {"played": 0, "won": 0})
                s["played"] += 1
                s["won"] += name in winners
        return stats

    def _as_written(self, rec: GameRecord) -> GameRecord:
        """The record as it will be once the outbox is written."""
        for _, _gid, status, finished, result in self.writer.waiting("status", rec.id):
            rec = replace(
                rec,
                status=status,
                finished=finished,
                result=None if result is None else json.loads(result),
            )
        return rec


def record(row) -> GameRecord:
    """A stored game as every reader may take it: whatever the row holds, a record comes back;
    one that cannot be read as a game says why in `damaged` (and holds an empty set-up)."""
    gid, game, config, started, finished, status, result, game_uuid = row
    try:
        config = decoded(gid, config, "set-up")
        result = decoded(gid, result, "result") if result else None
        why = record_problem(game, config, started, finished, result)
    except (DamagedGame, RecursionError) as exc:
        why = getattr(exc, "why", "its set-up is nested too deep")
    if why:
        return GameRecord(
            gid, str(game), {}, str(started), None, status, None, game_uuid or "", why
        )
    return GameRecord(gid, game, config, started, finished, status, result, game_uuid or "")
