"""The camera link reading the simulated table's scene, game after game: how long from the
strip's "Lay card" / "Reveal" to the event reaching the session, and whether the process
grows (the rendered pictures are cached per change, the calibrations learnt once).

    PYTHONPATH=. .venv/bin/python benchmarks/scene_readers.py [GAMES]

Each game: a Node game (cards laid until it ends or 8 are down, a "next" press for a
proposal), then a Laser round (two prism cards revealed, the ring read into the board).
Prints one line per game: seconds per reading (median) and the resident set size.
"""

from __future__ import annotations

import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

from companion.events import ButtonPressed
from companion.game import GameConfig
from companion.games.laser import GAME as LASER
from companion.games.node import GAME as NODE
from companion.runtime import Runtime
from companion.runtime.sim_scene import SimulatedScene
from companion.session import Session
from companion.store import GameLog

WAIT = 60.0


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def node_game(rt: Runtime, log: GameLog, seed: int) -> list[float]:
    session = Session.start(NODE, log, GameConfig(("Ann", "Bo"), seed=seed))
    rt.play(session)
    took = []
    while not session.state.over and session.state.played < 8:
        n = session.state.played
        news = rt.changed_to(lambda s, n=n: s.played > n or s.proposal is not None or s.over)
        started = time.perf_counter()
        rt.simulated_hand("lay")
        if not news.wait(WAIT):
            break  # no card fits: a person would discard
        took.append(time.perf_counter() - started)
        if session.state.proposal is not None:
            rt.post(ButtonPressed("next"))
            rt.drain()
    return took


def laser_round(rt: Runtime, log: GameLog, seed: int) -> list[float]:
    config = GameConfig(("Ann", "Bo", "Cy"), {"mode": "team", "cards": 2}, seed=seed)
    session = Session.start(LASER, log, config)
    rt.play(session)
    took = []
    for k in (1, 2):
        shown = rt.changed_to(lambda s, k=k: len(s.cards) == k)
        started = time.perf_counter()
        rt.simulated_hand("reveal")
        if shown.wait(WAIT):
            took.append(time.perf_counter() - started)
    entered = rt.changed_to(lambda s: s.board is not None)
    started = time.perf_counter()
    if entered.wait(WAIT):
        took.append(time.perf_counter() - started)
    return took


def main(games: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        log = GameLog(Path(tmp) / "log.db")
        rt = Runtime(camera_source="simulated")
        rt.scene = SimulatedScene()
        try:
            print(f"start: {rss_mb():.0f} MB")
            for g in range(games):
                node = node_game(rt, log, g)
                laser = laser_round(rt, log, g)
                print(
                    f"game {g + 1}: node {len(node)} cards read, median "
                    f"{statistics.median(node or [0]):.2f} s; laser {len(laser)}/3 read, "
                    f"median {statistics.median(laser or [0]):.2f} s; rss {rss_mb():.0f} MB"
                )
        finally:
            rt.close()
            log.close()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 6)
