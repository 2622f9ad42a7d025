"""History, statistics, export and import with a generated log of 1,000 games.

    PYTHONPATH=. python benchmarks/history.py [--games 1000]

The games are whole games played by scripted tables through the real rules (Color Milk,
Laser, Kritters, Node in turn). Prints, against the targets:
  - opening the History list (the screen's rows built and a frame drawn)      <= 300 ms
  - opening Statistics, from a warm replay cache (the usual case)              <= 300 ms
    and cold: plays, wins and scores at once, the rounds of every Laser and Color Milk
    game (bids against the optimum, predictions) once they are replayed off the UI thread
  - importing 1,000 games from a JSON Lines export into an empty log           <= 5 s
  - whether export then import gives identical statistics
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import headless  # noqa: E402, F401  (first: the project on the path, Kivy offscreen)

os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))

from benchmarks.playthroughs import play_games  # noqa: E402
from companion.history import CACHE_NAME, History  # noqa: E402
from companion.sharing import export_lines, import_games  # noqa: E402
from companion.store import GameLog  # noqa: E402


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def line(what: str, seconds: float, target: float | None = None) -> None:
    ms = seconds * 1000
    goal = f"  target {target * 1000:.0f} ms, {ms / (target * 1000):.2f}x of it" if target else ""
    print(f"{what:<58} {ms:9.1f} ms{goal}")


def open_screen(root, name: str, ready=None) -> float:
    """Switch to a screen and draw it; with `ready`, also wait for its background work."""
    from companion.ui.render import pump

    t = time.perf_counter()
    if name == "stats":
        root.get_screen("history").open_stats()
    else:
        root.current = name
    pump(1)
    if ready is not None:
        settle(ready())
        pump(1)
    return time.perf_counter() - t


def settle(event) -> None:
    from companion.ui.render import pump

    while not event.wait(0.005):
        pump(1)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    n = ap.parse_args().games
    work = Path(tempfile.mkdtemp(prefix="history-bench-"))
    a, b = work / "a", work / "b"
    a.mkdir(), b.mkdir()

    took, games = timed(lambda: play_games(n, seed=1))
    line(f"playing {n} games through the rules (set-up)", took)
    with GameLog(a / "games.sqlite3") as log:
        took, _ = timed(lambda: log.add_games(games))
        line("writing them to a log in one transaction (set-up)", took)
        took, lines = timed(lambda: list(export_lines(log)))
        line(f"export of {len(lines)} games as JSON Lines", took)
        size = sum(len(x) + 1 for x in lines)
        print(f"{'export size':<58} {size / 1e6:9.1f} MB")

    with GameLog(b / "games.sqlite3") as log:
        cpu = time.process_time()
        took, counts = timed(lambda: import_games(log, lines))
        cpu = time.process_time() - cpu
        line(f"import of {counts['imported']} games into an empty log", took, 5.0)
        line("... of which on this process's CPU (the rest: waiting for a core)", cpu)
        took, again = timed(lambda: import_games(log, lines))
        line(f"import again (all {again['already_here']} already here: nothing added)", took)

    from companion.ui.render import ensure_window

    ensure_window((800, 480))
    from companion.ui.app import Root
    from companion.ui.context import AppContext

    for label, data in (("the original log", a), ("the imported log", b)):
        (data / CACHE_NAME).unlink(missing_ok=True)
        ctx = AppContext.open(data)
        root = Root(ctx)
        print(f"-- {label} ({len(ctx.log.games())} games) at 800x480")
        line("History list opened", open_screen(root, "history"), 0.3)
        stats = root.get_screen("stats")
        line("Statistics, cold: plays, wins and scores shown", open_screen(root, "stats"), 0.3)
        took = timed(lambda s=stats: settle(s.ready))[0]
        line("... then Laser and Color Milk rounds replayed (off the UI thread)", took)
        root.current = "history"
        stats.history._memo.clear()  # a fresh start of the app: only the cache file is warm
        stats.history._cache._loaded = False
        line(
            "Statistics opened, replays cached",
            open_screen(root, "stats", lambda s=stats: s.ready),
            0.3,
        )
        ctx.log.close()

    with GameLog(a / "games.sqlite3") as la, GameLog(b / "games.sqlite3") as lb:
        same = History.beside(la).statistics() == History.beside(lb).statistics()
    print(f"{'export then import: identical statistics':<58} {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
