"""`companion export`, `import`, `stats` and `history`: the record as JSON."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from pathlib import Path

from companion import games, paths
from companion.errors import LogError, UsageError
from companion.history import History
from companion.sharing import bgstats, export_lines, import_games
from companion.store import GameLog


def run(args) -> int:
    with GameLog(paths.log_path(paths.data_dir(args.data_dir))) as log:
        run = {"export": _export, "import": _import, "stats": _stats, "history": _history}
        return run[args.command](args, log)


def _export(args, log: GameLog) -> int:
    if args.bgstats:
        if args.game is not None:
            raise UsageError("--bgstats exports every finished game; leave out --game")
        print(json.dumps(bgstats(log), indent=2))
        return 0
    try:
        for line in export_lines(log, args.game):
            sys.stdout.write(line + "\n")
    except LogError as exc:
        raise UsageError(str(exc)) from None
    return 0


def _import(args, log: GameLog) -> int:
    if args.file == "-":
        lines = sys.stdin.read().splitlines()
    else:
        path = Path(args.file)
        if not path.is_file():
            raise UsageError(f"no such file: {path}")
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except UnicodeDecodeError:
            raise UsageError(f"{path} is not a text file") from None
    print(json.dumps(import_games(log, lines)))
    return 0


def _stats(args, log: GameLog) -> int:
    if args.game is not None:
        games.info(args.game)  # a UsageError naming the known games
    history = History.beside(log)
    try:
        print(json.dumps(history.statistics(args.game), indent=2))
    finally:
        history.close()
    return 0


def _history(args, log: GameLog) -> int:
    if args.game is not None:
        games.info(args.game)
    history = History(log)
    rows = [
        {**asdict(s), "players": list(s.players), "winners": list(s.winners)}
        for s in history.summaries(args.game, args.player)
    ]
    print(json.dumps(rows, indent=2))
    return 0
