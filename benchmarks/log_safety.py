"""What guarding the game log costs: the checks on open, a backup, an append.

    PYTHONPATH=. python benchmarks/log_safety.py [--games 300] [--entries 150]

Builds a log of GAMES finished games of ENTRIES entries each (a few years of a family's
play), then prints, as medians of several runs:

open            milliseconds to open the log with its checks (read-only inspection,
                quick_check, and the comparison with the newest backup) and without any
                backup, and their ratio
backup          milliseconds to make one backup (online backup API, fsync, rotation),
                and the log's size
append          milliseconds per appended entry (hash-chain link, WAL, synchronous=FULL)
set aside scan  milliseconds to read back every unfinished game on start (one in play)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.store import GameLog  # noqa: E402

CONFIG = {"players": ["Anna", "Ben", "Chloe"], "options": {}, "seed": 1}


def build(path: Path, games: int, entries: int) -> None:
    log = GameLog(path, backups=False)
    db = log._db
    db.execute("PRAGMA synchronous=OFF")  # building the fixture only; measured below at FULL
    for _ in range(games):
        game_id = log.new_game("color-milk", CONFIG)
        for i in range(entries):
            log.append(game_id, "event", {"type": "color_milk.Ball", "colour": "blue", "i": i})
        log.finish(game_id, {"winners": ["Anna"], "scores": {"Anna": 3}})
    playing = log.new_game("color-milk", CONFIG)
    for i in range(entries // 2):
        log.append(playing, "event", {"type": "color_milk.Ball", "colour": "pink", "i": i})
    log.close()


def ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--entries", type=int, default=150)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "games.sqlite3"
        build(path, args.games, args.entries)
        GameLog(path).close()  # the first backup
        guarded = ms(lambda: GameLog(path).close(), args.runs)
        bare = ms(lambda: GameLog(path, backups=False).close(), args.runs)
        print(
            f"open            {guarded:8.1f} ms guarded  {bare:.1f} ms bare  x{guarded / bare:.2f}"
        )
        log = GameLog(path)
        made = ms(lambda: log.backups.make(log._db), args.runs)
        print(f"backup          {made:8.1f} ms  (log {path.stat().st_size / 1e6:.1f} MB)")
        playing, n = log.unfinished().id, 20
        each = ms(lambda: [log.append(playing, "undo") for _ in range(n)], args.runs) / n
        print(f"append          {each:8.2f} ms per entry")
        print(f"set aside scan  {ms(log.set_aside_damaged, args.runs):8.1f} ms")
        log.close()


if __name__ == "__main__":
    main()
