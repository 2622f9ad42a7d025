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
    damaged: str = ""  # why its stored set-up or result cannot be read as such ("" if sound)


MAX_SEATS = 12  # no game seats more; a record naming more players is not one of ours


def scores_only(config: Any) -> bool:
    """A game kept with its final scores but not its moves: its set-up names where they come
    from (`scores_from`: a BG Stats play). There is nothing to replay."""
    return isinstance(config, dict) and "scores_from" in config


def record_problem(game: Any, config: Any, started: Any, finished: Any, result: Any) -> str:
    """What in a stored game does not have the shape every screen and tool reads it with
    ("" if nothing): a set-up with a list of names, a result with scores and winners."""
    if not isinstance(game, str) or not isinstance(started, str):
        return "its name or date is not text"
    if finished is not None and not isinstance(finished, str):
        return "its end date is not text"
    if not isinstance(config, dict):
        return "its set-up is not an object"
    players = config.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        return "its players are not a list of names"
    if len(players) > MAX_SEATS:
        return f"it names {len(players)} players"
    if not isinstance(config.get("options", {}), dict):
        return "its options are not an object"
    seed = config.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        return "its seed is not a whole number"
    if not isinstance(config.get("teams") or [], list):
        return "its teams are not a list"
    if not isinstance(config.get("scores_from", ""), str):
        return "where its scores come from is not text"
    if result is None:
        return ""
    if not isinstance(result, dict):
        return "its result is not an object"
    scores, winners = result.get("scores", {}), result.get("winners", [])
    if not isinstance(scores, dict) or not all(
        v is None or (isinstance(v, int | float) and not isinstance(v, bool))
        for v in scores.values()
    ):
        return "its scores are not numbers"
    if not isinstance(winners, list) or not all(isinstance(w, str) for w in winners):
        return "its winners are not a list of names"
    return ""


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
