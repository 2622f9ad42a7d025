"""`companion export`, `import`, `stats` and `history`: the record as JSON."""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from dataclasses import asdict
from pathlib import Path

from companion import catalogue, paths
from companion.errors import LogError, UsageError
from companion.history import History
from companion.sharing import MAX_LINE, ImportRefused, export_lines, import_games
from companion.store import GameLog


def run(args) -> int:
    with GameLog(paths.log_path(paths.data_dir(args.data_dir))) as log:
        run = {"export": _export, "import": _import, "stats": _stats, "history": _history}
        return run[args.command](args, log)


def _export(args, log: GameLog) -> int:
    if args.bgstats:
        from companion.bgstats import export_file

        if args.game is not None:
            raise UsageError("--bgstats exports every finished game; leave out --game")
        print(json.dumps(export_file(log.games("finished")), separators=(",", ":")))
        return 0
    try:
        for line in export_lines(log, args.game):
            sys.stdout.write(line + "\n")
    except LogError as exc:
        raise UsageError(str(exc)) from None
    return 0


def _import(args, log: GameLog) -> int:
    """The file is read twice (checked whole, then written), a line at a time: stdin is
    spooled to a temporary file first (in memory while small). A BG Stats file (--bgstats)
    is one JSON document, read whole within its size limit."""
    if args.bgstats:
        from companion.bgstats_import import import_bgstats

        print(json.dumps(import_bgstats(log, _read_bytes(args.file))))
        return 0
    if args.file == "-":
        with tempfile.SpooledTemporaryFile(max_size=8 * 2**20) as spool:
            shutil.copyfileobj(sys.stdin.buffer, spool)
            return _import_lines(args.file, log, spool)
    path = Path(args.file)
    if not path.is_file():
        raise UsageError(f"no such file: {path}")
    with open(path, "rb") as f:
        return _import_lines(args.file, log, f)


def _import_lines(name: str, log: GameLog, source) -> int:
    try:
        print(json.dumps(import_games(log, source)))
    except ImportRefused as exc:  # the app's own export, given without --bgstats: say so
        source.seek(0)
        if name.endswith(".bgsplay") or b'"playerScores"' in source.readline(MAX_LINE):
            raise ImportRefused(f"{exc} (a BG Stats export? add --bgstats)") from None
        raise
    return 0


def _read_bytes(name: str) -> bytes:
    """A whole file (or stdin), refusing one too large to be an export before reading it."""
    from companion.bgstats_import import MAX_BYTES

    if name == "-":
        return sys.stdin.buffer.read(MAX_BYTES + 1)
    path = Path(name)
    if not path.is_file():
        raise UsageError(f"no such file: {path}")
    if path.stat().st_size > MAX_BYTES:
        raise UsageError(f"{path} is larger than {MAX_BYTES // 2**20} MB: not an export")
    return path.read_bytes()


def _stats(args, log: GameLog) -> int:
    if args.game is not None:
        catalogue.info(args.game)  # a UsageError naming the known games
    history = History.beside(log)
    try:
        print(json.dumps(history.statistics(args.game), indent=2))
    finally:
        history.close()
    return 0


def _history(args, log: GameLog) -> int:
    if args.game is not None:
        catalogue.info(args.game)
    history = History(log)
    rows = [
        {**asdict(s), "players": list(s.players), "winners": list(s.winners)}
        for s in history.summaries(args.game, args.player)
    ]
    print(json.dumps(rows, indent=2))
    return 0
