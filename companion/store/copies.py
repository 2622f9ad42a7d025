"""One copy of the log: made whole and synced, described, and compared with the log (what
the log lacks of it, by each game and its last entry's hash-chain link)."""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from companion.errors import LogError
from companion.files import sync_dir
from companion.store.integrity import check_header, check_sound

STAMP = "%Y%m%dT%H%M%S"  # the UTC time in a copy's (and a set-aside folder's) name

# a game's last entry and its chain link, found through the (game_id, seq) key
_HEAD = "SELECT seq, chain FROM entries WHERE game_id = ? ORDER BY seq DESC LIMIT 1"


@dataclass(frozen=True)
class BackupInfo:
    path: Path
    made: str  # local time, e.g. "2026-11-24 14:40"
    games: int
    entries: int

    def as_json(self) -> dict:
        return {
            "path": str(self.path),
            "made": self.made,
            "games": self.games,
            "entries": self.entries,
        }


def copy_into(src: sqlite3.Connection, final: Path) -> tuple[int, int]:
    """A whole, synced copy at `final`, moved into place in one rename. Returns the copy's
    (games, entries)."""
    tmp = final.with_name(final.name + ".part")
    for leftover in (tmp, Path(f"{tmp}-journal")):  # never written through a planted link
        leftover.unlink(missing_ok=True)
    dst = sqlite3.connect(tmp, isolation_level=None)
    try:
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no WAL beside it
        counts = count_rows(dst)
    finally:
        dst.close()
    with open(tmp, "rb") as f:
        os.fsync(f.fileno())
    os.replace(tmp, final)
    sync_dir(final.parent)
    return counts


def describe(path: Path, thorough: bool = True) -> BackupInfo:
    """What a copy holds; LogError if it is not a sound game log (every page checked unless
    not `thorough`: then only its header, mark and tables)."""
    check_header(path)
    db = read_only(path)
    try:
        if check_sound(db, path, quick_check=thorough) != "ok":
            raise LogError(f"{path} holds no game log")
        games, entries = count_rows(db)
    except sqlite3.DatabaseError as exc:
        raise LogError(f"{path} cannot be read as a game log ({exc})") from None
    finally:
        db.close()
    return BackupInfo(path, made(path), games, entries)


def missing_from(db: sqlite3.Connection, backup: Path) -> list[str]:
    """What the log behind `db` lacks of the copy at `backup`, one phrase per game."""
    copy = read_only(backup)
    try:
        held = copy.execute("SELECT id, game, started FROM games ORDER BY id").fetchall()
        heads = {
            game_id: copy.execute(_HEAD, (game_id,)).fetchone() or (0, None)
            for game_id, _name, _started in held
        }
    except sqlite3.DatabaseError as exc:
        raise LogError(f"{backup} cannot be read ({exc})") from None
    finally:
        copy.close()
    have = {
        g: (name, started) for g, name, started in db.execute("SELECT id, game, started FROM games")
    }
    chained = any(row[1] == "chain" for row in db.execute("PRAGMA table_info(entries)"))
    lost = []
    for game_id, name, started in held:
        if have.get(game_id) != (name, started):
            lost.append(f"game #{game_id} ({name}, started {started}) is gone")
            continue
        count, link = heads[game_id]
        if not count:
            continue
        row = db.execute(
            "SELECT " + ("chain" if chained else "NULL") + " FROM entries "
            "WHERE game_id = ? AND seq = ?",
            (game_id, count),
        ).fetchone()
        if row is None:
            kept = db.execute(
                "SELECT count(*) FROM entries WHERE game_id = ? AND seq <= ?", (game_id, count)
            ).fetchone()[0]
            lost.append(f"game #{game_id} ({name}) lost {count - kept} of {count} entries")
        elif link and row[0] and row[0] != link:
            lost.append(f"game #{game_id} ({name}) no longer matches its backup")
    return lost


def read_only(path: Path) -> sqlite3.Connection:
    # immutable: a copy is never written, and no -wal/-shm is made beside it
    return sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True, isolation_level=None)


def count_rows(db: sqlite3.Connection) -> tuple[int, int]:
    """(games, entries) held by `db`."""
    games = db.execute("SELECT count(*) FROM games").fetchone()[0]
    entries = db.execute("SELECT count(*) FROM entries").fetchone()[0]
    return games, entries


def made(path: Path) -> str:
    """When the copy at `path` was made, in local time for people (from its name)."""
    try:
        when = datetime.strptime(path.name.rsplit("-", 1)[1][:15], STAMP)
    except ValueError:
        return path.name
    return when.replace(tzinfo=UTC).astimezone().strftime("%Y-%m-%d %H:%M")  # local, for people


def count_games(n: int) -> str:
    return f"{n} game" + "s" * (n != 1)


def refuse_link(path: Path) -> None:
    """A folder we write into must be ours, not a link planted to send our files elsewhere."""
    if path.is_symlink():
        raise LogError(f"{path} is a symbolic link; nothing is written through it")
