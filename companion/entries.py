"""What a game log holds, apart from the file: entries, game records, how undo and redo fold
into the events in force, and the entries of an exported game (JSON)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from companion.errors import LogError


@dataclass(frozen=True)
class Entry:
    seq: int
    kind: str  # "event" | "undo" | "redo"
    payload: dict[str, Any] | None


@dataclass(frozen=True)
class GameRecord:
    id: int
    game: str
    config: dict[str, Any]
    started: str
    finished: str | None
    status: str
    result: dict[str, Any] | None
    uuid: str = ""  # stable across tables: export/import merges logs by it


def fold_entries(entries) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Fold log entries into (events in force, undone events with the next redo last):
    undo pops, redo pushes back, a new event after an undo drops the redo stack."""
    done: list[dict[str, Any]] = []
    undone: list[dict[str, Any]] = []
    for e in entries:
        if e.kind == "event":
            done.append(e.payload)
            undone.clear()
        elif e.kind == "undo" and done:
            undone.append(done.pop())
        elif e.kind == "redo" and undone:
            done.append(undone.pop())
    return done, undone


def effective_events(entries) -> list[dict[str, Any]]:
    return fold_entries(entries)[0]


def refuse_set_aside(doc: dict[str, Any]) -> None:
    """An exported game that was set aside as damaged cannot be replayed: say why."""
    if doc.get("set_aside"):
        raise LogError(
            f"this game was set aside as damaged ({doc['set_aside']}): its entries are kept "
            "as stored and cannot be replayed"
        )


def iter_entries(doc: dict[str, Any]) -> Iterator[Entry]:
    """Entries of an exported JSON log."""
    refuse_set_aside(doc)
    for i, e in enumerate(doc.get("entries", ()), start=1):
        yield Entry(int(e.get("seq", i)), e["kind"], e.get("event"))
