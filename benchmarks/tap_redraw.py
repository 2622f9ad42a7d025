"""What a tap costs the screen: the Kivy thread's CPU time for a tap on Color Milk's screen
with five players and the four frames that lay it out and draw it, median over repeated taps.
Headless (offscreen SDL); the main thread's CPU only (not the frames' pacing sleeps, nor Mesa's
drawing threads). A Raspberry Pi 4 takes about four times as long.

    PYTHONPATH=. python benchmarks/tap_redraw.py [--taps 30]

colour tapped   a colour added to or taken from the prediction being entered
player selected the pad and the cards turned to another player
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import headless  # noqa: E402, F401  (first: the project on the path, Kivy offscreen)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--taps", type=int, default=30)
    args = ap.parse_args(argv)

    from companion import catalogue
    from companion.game import GameConfig
    from companion.games.color_milk.screen import GameScreen
    from companion.session import Session
    from companion.settings import Settings
    from companion.store import GameLog
    from companion.ui.context import AppContext
    from companion.ui.render import ensure_window, pump

    tmp = Path(tempfile.mkdtemp())
    log = GameLog(tmp / "log.sqlite3")
    players = ("Anna", "Ben", "Cleo", "Dora", "Emil")
    session = Session.start(catalogue.load("color-milk"), log, GameConfig(players, {}))
    screen = GameScreen(ctx=AppContext(tmp, log, Settings()), session=session)
    window = ensure_window((800, 480))
    window.add_widget(screen)
    screen.size_hint, screen.size, screen.pos = (None, None), (800, 480), (0, 0)
    pump()

    def timed(tap) -> float:
        ms = []
        for i in range(args.taps):
            start = time.thread_time()
            tap(i)
            pump()
            ms.append((time.thread_time() - start) * 1000)
        return statistics.median(ms)

    colour = timed(lambda i: screen.tap_colour(("blue", "green", "pink")[i % 3]))
    select = timed(lambda i: screen.select(players[i % 3]))
    print(f"colour tapped    {colour:6.1f} ms  (Kivy thread CPU, with its 4 frames; median)")
    print(f"player selected  {select:6.1f} ms")
    log.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
