"""Sharing the record between tables: JSON Lines export and import, a BG Stats file, and the
one-paragraph result summary the results screen shows as a QR code.

One game per line, with its stable UUID: importing another table's file adds the games this
log does not have yet (importing it again adds nothing). A file with one bad line is refused
whole, naming the line; nothing of it is written.
"""

from __future__ import annotations

import json
import uuid as uuidlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from companion import events as ev
from companion import games
from companion.codec import mistyped
from companion.entries import Entry, GameRecord
from companion.errors import UsageError
from companion.store import GameLog

FORMAT = "table-companion-game/1"
SHARED = ("finished", "abandoned")  # a game still in play stays on its own table


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


def parse_line(text: str, known=frozenset()) -> Incoming | None:
    """One export line, checked: its shape, a known game, every event one of the game's
    (the moves are replayed later, when the history first shows the game: replaying a
    thousand games would take longer than a merge should). Raises ValueError saying why not.
    A game whose UUID is in `known` is only checked as JSON (None: nothing to add)."""
    try:
        doc = json.loads(text)
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
        game_uuid = str(uuidlib.UUID(str(doc["uuid"])))
    except ValueError:
        raise ValueError(f"bad game uuid {doc['uuid']!r}") from None
    name, config, status = doc["game"], doc["config"], doc["status"]
    started, finished, result = doc["started"], doc.get("finished"), doc.get("result")
    raw = doc["entries"]
    if game_uuid in known:
        return None
    try:
        games.info(name)
    except UsageError:
        raise ValueError(f"unknown game {name!r}") from None
    if status not in SHARED:
        raise ValueError(f"game {game_uuid} is {status!r}; only finished or abandoned games move")
    if not isinstance(config, dict) or not isinstance(config.get("players"), list):
        raise ValueError("config needs a list of players")
    if not isinstance(started, str) or not isinstance(raw, list):
        raise ValueError("started must be a date and entries a list")
    games.load(name)  # registers the game's own event types
    entries = []
    for i, e in enumerate(raw, start=1):
        if (
            not isinstance(e, dict)
            or e.get("seq") != i
            or e.get("kind") not in ("event", "undo", "redo")
            or (e["kind"] == "event") != isinstance(e.get("event"), dict)
        ):
            raise ValueError(f"entry {i} is malformed")
        if e["kind"] == "event":
            _check_event(e["event"], i)
        entries.append((Entry(i, e["kind"], e.get("event")), str(e.get("at") or started)))
    if status == "finished" and not (
        isinstance(result, dict)
        and isinstance(result.get("scores"), dict)
        and isinstance(result.get("winners"), list)
    ):
        raise ValueError("a finished game needs its result (scores and winners)")
    record = GameRecord(0, name, config, started, finished, status, result, game_uuid)
    return Incoming(record, entries)


_EVENT_SHAPES: set[tuple] = set()  # event shapes already decoded once


def _shape(value: Any) -> Any:
    """What decoding an event looks at: its fields and the JSON type of each value (lists
    element by element), never the values themselves."""
    kind = type(value)
    if kind is dict:
        return tuple((k, _shape(v)) for k, v in value.items())
    if kind is list:
        return tuple(map(_shape, value))
    return kind


def _check_event(payload: dict, i: int) -> None:
    """Raise ValueError unless `payload` decodes to one of the games' events. Decoding
    depends only on the payload's shape, so a thousand games' events decode in a moment."""
    shape = (payload.get("type"), _shape(payload))
    if shape in _EVENT_SHAPES:
        return
    try:
        wrong = mistyped(ev.from_dict(payload))
    except UsageError as exc:
        raise ValueError(f"entry {i}: {exc}") from None
    if wrong:
        raise ValueError(f"entry {i} ({payload.get('type')}): {wrong}")
    _EVENT_SHAPES.add(shape)


def read_import(lines: Iterable[str], known=frozenset()) -> tuple[list[Incoming], int]:
    """The games of an import file not in `known` (UUIDs) and how many games were there
    already, or ImportRefused naming the first bad line."""
    out, seen, skipped = [], set(known), 0
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            item = parse_line(text, seen)
        except ValueError as exc:
            raise ImportRefused(f"line {number}: {exc}; nothing was imported") from None
        if item is None:
            skipped += 1
        else:
            seen.add(item.record.uuid)
            out.append(item)
    return out, skipped


def import_games(log: GameLog, lines: Iterable[str]) -> dict[str, int]:
    """Merge a file's games into `log` in one transaction; games it has already are skipped."""
    new, skipped = read_import(lines, log.uuids())
    log.add_games([(item.record, item.entries) for item in new])
    return {"imported": len(new), "already_here": skipped}


# BG Stats ------------------------------------------------------------------------------------
def bgstats(log: GameLog) -> dict[str, Any]:
    """Finished games in the BG Stats app's import file layout (players, games, locations and
    plays that refer to them by id), for people who keep their records there."""
    players: dict[str, int] = {}
    titles: dict[str, int] = {}
    plays = []
    from companion.history import mode_label
    from companion.stats import LOWER_IS_BETTER

    for rec in log.games("finished"):
        result = rec.result or {}
        scores, winners = result.get("scores", {}), set(result.get("winners", ()))
        gid = titles.setdefault(rec.game, len(titles) + 1)
        plays.append(
            {
                "uuid": rec.uuid,
                "gameRefId": gid,
                "locationRefId": 1,
                "playDate": rec.started.replace("T", " ")[:19],
                "durationMin": _minutes(rec.started, rec.finished),
                "board": mode_label(rec.game, rec.config),
                "ignored": False,
                "manualWinner": False,
                "playerScores": [
                    {
                        "playerRefId": players.setdefault(name, len(players) + 1),
                        "score": _shown(scores.get(name)),
                        "winner": name in winners,
                        "seatOrder": seat,
                        "startPlayer": seat == 0,
                        "newPlayer": False,
                    }
                    for seat, name in enumerate(rec.config.get("players", ()))
                ],
            }
        )
    return {
        "players": [{"id": i, "name": n, "isAnonymous": False} for n, i in players.items()],
        "games": [
            {
                "id": i,
                "name": games.info(n).title,
                "highestWins": n not in LOWER_IS_BETTER,
                "noPoints": False,
                "cooperative": False,
            }
            for n, i in titles.items()
        ],
        "locations": [{"id": 1, "name": "Table Companion"}],
        "plays": plays,
    }


def _shown(score) -> str:
    if isinstance(score, float) and score.is_integer():
        score = int(score)
    return "" if score is None else str(score)


def _minutes(started: str, finished: str | None) -> int:
    from datetime import datetime

    try:
        span = datetime.fromisoformat(finished) - datetime.fromisoformat(started)
    except (TypeError, ValueError):
        return 0
    return max(0, round(span.total_seconds() / 60))


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
