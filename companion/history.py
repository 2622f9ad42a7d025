"""The history of the table, read from the game log: finished games newest first, their
round-by-round facts (replayed once, then kept in a small cache beside the log), and the
statistics. No Kivy: the History screen and `companion stats` both read this.

The cache is disposable: it holds only what replaying the log gives, keyed by the game's
UUID and when it finished, so a deleted or stale cache is simply rebuilt.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

from companion import catalogue, rounds, stats
from companion.entries import GameRecord, scores_only
from companion.errors import CompanionError, LogError
from companion.players import name_problem
from companion.stats import GameSummary, mode_label
from companion.store import GameLog

CACHE_NAME = "history-cache.sqlite3"
SHOWN = ("finished", "abandoned")


def final_series(rec: GameRecord) -> rounds.ScoreSeries:
    players = tuple(rec.config.get("players", ()))
    scores = (rec.result or {}).get("scores", {})
    final = tuple(float(scores.get(p) or 0) for p in players)
    return rounds.ScoreSeries(players, ("End",), (final,))


def summary(rec: GameRecord) -> GameSummary:
    """The game as the list shows it. A damaged record (companion.entries.record_problem)
    keeps its place in the list, with no players or scores, and says why."""
    result = rec.result or {}
    return GameSummary(
        uuid=rec.uuid,
        id=rec.id,
        game=rec.game,
        started=rec.started,
        mode=mode_label(rec.game, rec.config),
        players=tuple(rec.config.get("players", ())),
        scores=dict(result.get("scores", {})),
        winners=tuple(result.get("winners", ())),
        status=rec.status,
        damaged=rec.damaged,
    )


class History:
    def __init__(self, log: GameLog, cache_path: str | Path | None = None) -> None:
        self.log = log
        self._cache = _FactsCache(Path(cache_path)) if cache_path else None
        self._memo: dict[str, dict[str, Any]] = {}
        self._thread = threading.get_ident()  # the thread that may use `log`

    @classmethod
    def beside(cls, log: GameLog) -> History:
        return cls(log, log.path.with_name(CACHE_NAME))

    def close(self) -> None:
        if self._cache:
            self._cache.close()

    # the list ---------------------------------------------------------------------------
    def summaries(self, game: str | None = None, player: str | None = None) -> list[GameSummary]:
        """Finished and abandoned games, newest first, optionally one game's or one player's.
        Newest by the log's own order: a clock set back (a Pi finds the network time) or a
        game from another table dated otherwise never reorders the list."""
        out = [
            summary(r)
            for r in self.log.games()
            if r.status in SHOWN
            and (game is None or r.game == game)
            and (player is None or player in r.config.get("players", ()))
        ]
        out.sort(key=lambda s: s.id, reverse=True)
        return out

    def players(self) -> list[str]:
        """Everyone who played, by name (names no screen could show are left out)."""
        return sorted({p for s in self.summaries() for p in s.players if not name_problem(p)})

    # one game's replay ----------------------------------------------------------------------
    # Replaying may take a while, so `fill` may run on any thread: off the thread that opened
    # the log it reads through a connection of its own (SQLite connections stay on theirs).
    @staticmethod
    def _stamp(rec: GameRecord) -> str:
        return f"{rounds.FACTS_VERSION}:{rec.status}:{rec.finished}"

    def cached(self, rec: GameRecord) -> dict[str, Any] | None:
        if self._cache:
            self._cache.preload(self._memo)
        hit = self._memo.get(rec.uuid)
        return hit if hit is not None and hit.get("_stamp") == self._stamp(rec) else None

    def pending(self, records) -> list[GameRecord]:
        """The games among `records` not replayed yet."""
        return [r for r in records if self.cached(r) is None]

    def fill(self, pending) -> None:
        """Replay games (from `pending`) and keep their facts; safe off the UI thread."""
        if not pending:
            return
        own = threading.get_ident() == self._thread
        log = self.log if own else GameLog(self.log.path)
        try:
            for rec in pending:
                try:
                    if rec.damaged:
                        raise LogError(rec.damaged)
                    if scores_only(rec.config):  # its record is the final scores
                        facts = {"series": final_series(rec).to_json(), "events": 0}
                    else:
                        facts = rounds.game_facts(rec.game, rec.config, log.entries(rec.id))
                except Exception as exc:  # e.g. moves these rules refuse: stored, not ours
                    why = exc if isinstance(exc, CompanionError) else type(exc).__name__
                    facts = {"series": None, "error": f"its moves do not replay ({why})"}
                facts["_stamp"] = self._stamp(rec)
                self._memo[rec.uuid] = facts
                if self._cache:
                    self._cache.put(rec.uuid, facts["_stamp"], facts)
        finally:
            if not own:
                log.close()

    def facts(self, rec: GameRecord) -> dict[str, Any]:
        """The game's replayed facts (score series, per-round facts), cached."""
        if self.cached(rec) is None:
            self.fill(self.pending([rec]))
        return self._memo[rec.uuid]

    def series(self, rec: GameRecord) -> rounds.ScoreSeries:
        """The game's scores round by round; LogError if its log does not replay."""
        facts = self.facts(rec)
        if "series" not in facts:  # preloaded without it: statistics never need it
            facts["series"] = self._cache.series(rec.uuid)
        if facts["series"] is None:
            raise LogError(f"game {rec.id}: {facts.get('error', 'no record')}")
        return rounds.ScoreSeries.from_json(facts["series"])

    # statistics ----------------------------------------------------------------------------
    def finished(self, game: str | None = None) -> list[GameRecord]:
        """Finished games the statistics count (a damaged record counts for nothing)."""
        return [
            r
            for r in self.log.games("finished")
            if (game is None or r.game == game) and not r.damaged
        ]

    @staticmethod
    def needs_facts(records) -> list[GameRecord]:
        """The games whose statistics come from their rounds (their `stats.READS_ROUNDS`)."""
        return [r for r in records if getattr(catalogue.stats(r.game), "READS_ROUNDS", False)]

    def statistics(self, game: str | None = None) -> dict[str, Any]:
        """Everything the Statistics view shows, as JSON-ready data."""
        records = self.finished(game)
        self.fill(self.pending(self.needs_facts(records)))
        return self.tally(records)

    def tally(self, records) -> dict[str, Any]:
        """Statistics of `records`, with the round facts of the games replayed so far (see
        `statistics`; plays, wins and scores need no replay): every player's, then each
        game's own (its `stats` module: its keys, and its lines under its title)."""
        summaries = [summary(r) for r in records]
        out: dict[str, Any] = {
            "games": len(summaries),
            "players": [s.to_json() for s in stats.player_stats(summaries)],
        }
        lines = []
        for info in catalogue.games():
            own = catalogue.stats(info.name)
            if own is None:
                continue
            mine = [i for i, r in enumerate(records) if r.game == info.name]
            data = own.statistics(
                [summaries[i] for i in mine], [self._memo.get(records[i].uuid, {}) for i in mine]
            )
            clash = data.keys() & {*out, "lines"}  # a game's keys never hide another's
            if clash:
                raise ValueError(f"{info.name}'s statistics reuse {sorted(clash)}")
            out.update(data)
            lines += [
                {"game": info.name, "title": info.title, "player": p, "text": t}
                for p, t in own.lines(data)
            ]
        out["lines"] = lines
        return out


class _FactsCache:
    """uuid -> (stamp, the score series, the rest of the facts), in a file of its own.
    The series is the bulk and only one game's is ever shown at a time: kept apart."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            if path.is_symlink():  # planted: the cache is never written through a link
                path.unlink()
            self.db = self._connect(path)
        except (sqlite3.DatabaseError, OSError):
            try:  # damaged: it only holds what the log can rebuild
                path.unlink(missing_ok=True)
                self.db = self._connect(path)
            except (sqlite3.DatabaseError, OSError):  # a card that takes no writes
                self.db = self._connect(":memory:")
        self._loaded = False

    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA synchronous=OFF")  # a lost write is only replayed again
        db.execute(
            "CREATE TABLE IF NOT EXISTS facts "
            "(uuid TEXT PRIMARY KEY, stamp TEXT, series TEXT, extra TEXT)"
        )
        return db

    def preload(self, memo: dict[str, dict[str, Any]]) -> None:
        """Every game's facts but the series, once."""
        if self._loaded:
            return
        for uuid, stamp, extra in self.db.execute("SELECT uuid, stamp, extra FROM facts"):
            memo.setdefault(uuid, {**json.loads(extra), "_stamp": stamp})
        self._loaded = True

    def get(self, uuid: str, stamp: str) -> dict[str, Any] | None:
        row = self.db.execute(
            "SELECT stamp, series, extra FROM facts WHERE uuid = ?", (uuid,)
        ).fetchone()
        if row is None or row[0] != stamp:
            return None
        return {**json.loads(row[2]), "series": json.loads(row[1]), "_stamp": stamp}

    def series(self, uuid: str) -> dict[str, Any]:
        row = self.db.execute("SELECT series FROM facts WHERE uuid = ?", (uuid,)).fetchone()
        return json.loads(row[0])

    def put(self, uuid: str, stamp: str, facts: dict[str, Any]) -> None:
        extra = json.dumps({k: v for k, v in facts.items() if k not in ("_stamp", "series")})
        # On a full card the facts are not kept: they are replayed again next time.
        with contextlib.suppress(sqlite3.OperationalError):
            self.db.execute(
                "INSERT OR REPLACE INTO facts (uuid, stamp, series, extra) VALUES (?, ?, ?, ?)",
                (uuid, stamp, json.dumps(facts["series"]), extra),
            )

    def close(self) -> None:
        self.db.close()
