"""Sharing the record between tables: JSON Lines export and import, and the one-paragraph
result summary the results screen shows as a QR code (BG Stats files: bgstats.py).

One game per line, with its stable UUID: importing another table's file adds the games this
log does not have yet (importing it again adds nothing). Every game is checked and replayed
through its rules before it is taken (companion.game_check), and its result is the replay's;
a game brought in with its scores only (a BG Stats play) has each field checked instead.
A file with one bad line is refused whole, naming the line; nothing of it is written. The
file is read as a stream, one line at a time, and written in short transactions.
"""

from __future__ import annotations

import hashlib
import json
import uuid as uuidlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from companion.entries import Entry, GameRecord, scores_only
from companion.errors import LogError, UsageError
from companion.game_check import (
    SHARED,
    CheckedGame,
    check_config,
    check_entries,
    check_game,
    check_scores_only,
)
from companion.storage import StorageError
from companion.store import GameLog

FORMAT = "table-companion-game/1"


def game_line(log: GameLog, rec: GameRecord) -> dict[str, Any]:
    """One game as an export line (also readable by `companion replay` as a .json file)."""
    return {
        "format": FORMAT,
        "uuid": rec.uuid,
        "game": rec.game,
        "config": rec.config,
        "started": rec.started,
        "finished": rec.finished,
        "status": rec.status,
        "result": rec.result,
        "entries": [
            {"seq": e.seq, "kind": e.kind, "event": e.payload, "at": at}
            for e, at in log.timed_entries(rec.id)
        ],
    }


def export_lines(log: GameLog, game_id: int | None = None) -> Iterator[str]:
    """JSON Lines: one game (`game_id`) or every finished and abandoned game, oldest first."""
    records = [log.game(game_id)] if game_id is not None else log.games()
    for rec in records:
        if game_id is not None or rec.status in SHARED:
            yield json.dumps(game_line(log, rec), sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class Incoming:
    record: GameRecord
    entries: list[tuple[Entry, str]]


class ImportRefused(UsageError):
    """A line of an import file that cannot be taken as it is; nothing was imported."""


MAX_LINE = 8 * 1024 * 1024  # bytes: a game of the most moves any game logs fits many times
BATCH_BYTES = 256 * 1024  # lines written per transaction: the app waits for none of them long


def parse_line(text: str | bytes) -> tuple[dict[str, Any], str]:
    """One export line as JSON, with its game's UUID; ValueError saying why not."""
    try:
        doc = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise ValueError("not JSON (nested too deep)") from None
    except ValueError as exc:
        raise ValueError(f"not JSON ({exc})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ValueError(f"not a Table Companion game (format should be {FORMAT!r})")
    missing = [
        k for k in ("uuid", "game", "config", "status", "started", "entries") if k not in doc
    ]
    if missing:
        raise ValueError(f"missing {', '.join(missing)}")
    try:
        game_uuid = str(uuidlib.UUID(doc["uuid"]))
    except (ValueError, TypeError, AttributeError):
        raise ValueError(f"bad game uuid {str(doc['uuid'])[:60]!r}") from None
    return doc, game_uuid


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def checked(doc: dict[str, Any], game_uuid: str) -> Incoming:
    """The line's game checked whole (companion.game_check), as the log will hold it."""
    if scores_only(doc["config"]):  # no moves to replay: each field on its own
        game = check_scores_only(
            doc["game"],
            doc["config"],
            doc["status"],
            doc["started"],
            doc.get("finished"),
            doc["entries"],
            doc.get("result"),
        )
        return Incoming(_record(game, game_uuid), [])
    raw = doc["entries"]
    if isinstance(raw, list):  # an entry without its time was written as the game began
        raw = [
            {**e, "at": e.get("at") or doc["started"]} if isinstance(e, dict) else e for e in raw
        ]
    game = check_game(
        doc["game"],
        doc["config"],
        doc["status"],
        doc["started"],
        doc.get("finished"),
        raw,
        doc.get("result"),
    )
    return Incoming(_record(game, game_uuid), list(game.entries))


def _record(game: CheckedGame, game_uuid: str) -> GameRecord:
    return GameRecord(
        0, game.game, game.config, game.started, game.finished, game.status, game.result, game_uuid
    )


def digest(game: Any, config: Any, status: Any, started: Any, entries: Any, result: Any) -> str:
    """What two copies of one game must share: its set-up, end and every move (not the
    times each move was written, nor the result, which the moves decide). A game with its
    scores only has no moves: its result is what the copies must share."""
    moves = [
        [e.get("seq"), e.get("kind"), e.get("event")] if isinstance(e, dict) else e
        for e in (entries if isinstance(entries, list) else [entries])
    ]
    shared = [game, config, status, started, moves]
    if scores_only(config):
        shared.append(result)
    text = json.dumps(shared, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _stored_digest(log: GameLog, rec: GameRecord) -> str | None:
    try:
        entries = [{"seq": e.seq, "kind": e.kind, "event": e.payload} for e in log.entries(rec.id)]
    except LogError:  # damaged here: no copy can be compared with it
        return None
    return digest(rec.game, rec.config, rec.status, rec.started, entries, rec.result)


def _lines(source) -> Iterator[tuple[int, bytes | str]]:
    """(number, text) of every line of `source`: a binary file (read again from its start
    each time; no line longer than MAX_LINE is ever held whole) or a list of strings."""
    if isinstance(source, list | tuple):
        yield from enumerate(source, start=1)
        return
    source.seek(0)
    number = 0
    while True:
        line = source.readline(MAX_LINE + 1)
        if not line:
            return
        number += 1
        if len(line) > MAX_LINE and not line.endswith(b"\n"):
            raise ImportRefused(
                f"line {number}: longer than {MAX_LINE // 2**20} MB; nothing was imported"
            )
        yield number, line


def read_import(source, log: GameLog) -> tuple[dict[str, tuple[int, str, dict]], int]:
    """Check every line of `source` (first pass): the new games' UUIDs, each with its line,
    digest and result, and how many games are here already. ImportRefused names the first
    line that cannot be taken: a bad game, or a UUID this log or an earlier line holds with
    other contents."""
    new: dict[str, tuple[int, str, dict]] = {}
    skipped = 0
    for number, text in _lines(source):
        if not text.strip():
            continue
        try:
            doc, game_uuid = parse_line(text)
            mark = digest(
                doc["game"],
                doc["config"],
                doc["status"],
                doc["started"],
                doc["entries"],
                doc.get("result"),
            )
            if game_uuid in new:
                if new[game_uuid][1] != mark:
                    raise ValueError(
                        f"game {game_uuid} is on line {new[game_uuid][0]} too, "
                        "with other moves or scores"
                    )
                skipped += 1
                continue
            here = log.find(game_uuid)
            if here is not None:
                if _stored_digest(log, here) != mark:
                    raise ValueError(
                        f"game {game_uuid} is here already with other moves, scores or end"
                    )
                skipped += 1
                continue
            item = checked(doc, game_uuid)
        except (ValueError, RecursionError) as exc:
            raise ImportRefused(f"line {number}: {exc}; nothing was imported") from None
        new[game_uuid] = (number, mark, item.record.result)
        del doc, item
    return new, skipped


def import_games(log: GameLog, source) -> dict[str, int]:
    """Merge a file's games into `log`: every line checked first (nothing is written if one
    is refused), then the new games written in short transactions, so the app playing on the
    same log never waits long. `source` is a binary file or a list of lines. Games this log
    has already (same UUID, same contents) are skipped."""
    new, skipped = read_import(source, log)
    batch: list[tuple[GameRecord, list[tuple[Entry, str]]]] = []
    size = imported = 0
    for number, text in _lines(source):
        if not text.strip():
            continue
        doc, game_uuid = parse_line(text)
        wanted = new.pop(game_uuid, None)
        if wanted is None:
            continue
        if wanted[0] != number:  # the file changed between the two passes
            raise ImportRefused(f"line {number}: the file changed while it was read")
        record, entries = _as_stored(doc, game_uuid, wanted[2])
        batch.append((record, entries))
        size += len(text)
        if size >= BATCH_BYTES:
            imported += _write(log, batch, imported)
            batch, size = [], 0
    imported += _write(log, batch, imported)
    if new:
        raise ImportRefused("the file changed while it was read; import it again")
    return {"imported": imported, "already_here": skipped}


def _as_stored(doc, game_uuid, result) -> tuple[GameRecord, list[tuple[Entry, str]]]:
    """A line the first pass took, as the log keeps it (its result as replayed then)."""
    if scores_only(doc["config"]):  # checked again: nothing to replay, it takes no time
        return checked(doc, game_uuid).record, []
    raw = [
        {**e, "at": e.get("at") or doc["started"]} if isinstance(e, dict) else e
        for e in doc["entries"]
    ]
    config = check_config(doc["game"], doc["config"])
    entries = check_entries(doc["game"], raw, doc["started"], datetime.now(UTC))
    finished, status = doc.get("finished"), doc["status"]
    record = GameRecord(0, doc["game"], config, doc["started"], finished, status, result, game_uuid)
    return record, entries


def _write(log: GameLog, batch, before: int) -> int:
    if not batch:
        return 0
    try:
        log.add_games(batch)
    except StorageError as exc:
        more = f"{before} games were imported before it; " if before else ""
        raise StorageError(
            exc.kind, f"{exc} ({more}importing the file again adds the rest)"
        ) from None
    return len(batch)


def _shown(score) -> str:
    if isinstance(score, float) and score.is_integer():
        score = int(score)
    return "" if score is None else str(score)


# the QR code's text ----------------------------------------------------------------------------
def result_summary(
    title: str, mode: str, date: str, scores: dict, winners, game_uuid: str = ""
) -> str:
    """A few lines a phone's camera app shows as text: game, date, scores best first, winner."""
    lines = [f"{title}{f' ({mode})' if mode else ''} {date[:10]}"]
    for name, score in scores.items():
        lines.append(f"{name}: {_shown(score)}{' *' if name in winners else ''}")
    lines.append("Winner: " + (" & ".join(winners) or "-"))
    if game_uuid:
        lines.append(f"Game {game_uuid}")
    return "\n".join(lines)
