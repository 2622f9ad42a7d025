"""How fast Color Milk answers: one event, the odds of every prediction, a replayed game.

    PYTHONPATH=. python benchmarks/color_milk.py

apply           microseconds per rules step over whole scripted games (pure, no log)
odds            microseconds for the exact odds of one prediction (inclusion-exclusion)
                and the ratio against enumerating every draw of labelled balls
odds screen     microseconds for the 5 odds the round view shows after each event
replay          milliseconds to rebuild a finished game's state from its log events
"""

from __future__ import annotations

import random
import sys
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.entries import Entry  # noqa: E402
from companion.events import to_dict  # noqa: E402
from companion.game import GameConfig  # noqa: E402
from companion.games.color_milk import GAME  # noqa: E402
from companion.games.color_milk.autoplay import ScriptedTable  # noqa: E402
from companion.games.color_milk.mill import COLOURS, FULL_MILL  # noqa: E402
from companion.games.color_milk.odds import fulfil_probability  # noqa: E402
from companion.session import replay  # noqa: E402

PREDS = [p for k in range(1, 6) for p in combinations(COLOURS, k)]


def scripted_games(n: int):
    for seed in range(n):
        config = GameConfig(("Anna", "Ben", "Cleo", "Dan"), {"board": 1 + seed % 6}, seed=seed)
        box = {"s": GAME.initial_state(config)}
        events = []

        def submit(ev, box=box, events=events):
            if not GAME.is_news(box["s"], ev):
                return ()
            box["s"], cues = GAME.apply(box["s"], ev)
            events.append(ev)
            return cues

        ScriptedTable(submit, lambda box=box: box["s"], random.Random(seed)).play()
        yield config, events


def enumerate_one(mill, pred):
    balls = [c for c, n in zip(COLOURS, mill, strict=True) for _ in range(n)]
    hits = total = 0
    for idx in combinations(range(len(balls)), 5):
        total += 1
        hits += set(pred) <= {balls[i] for i in idx}
    return hits / total


def main() -> None:
    games = list(scripted_games(30))
    steps = sum(len(ev) for _, ev in games)
    t = time.perf_counter()
    for config, events in games:
        s = GAME.initial_state(config)
        for ev in events:
            s, _ = GAME.apply(s, ev)
    per_step = (time.perf_counter() - t) / steps * 1e6
    print(f"apply           {per_step:8.1f} us/event   ({steps} events, 30 games, 4 players)")

    t = time.perf_counter()
    reps = 20
    for _ in range(reps):
        for p in PREDS:
            fulfil_probability(FULL_MILL, p)
    exact = (time.perf_counter() - t) / (reps * len(PREDS)) * 1e6
    t = time.perf_counter()
    for p in PREDS[:6]:
        enumerate_one(FULL_MILL, p)
    brute = (time.perf_counter() - t) / 6 * 1e6
    print(
        f"odds            {exact:8.1f} us/prediction   enumeration {brute / 1000:.1f} ms "
        f"(x{brute / exact:,.0f} slower)"
    )

    mid = (5, 4, 3, 2, 2)
    t = time.perf_counter()
    for _ in range(200):
        for p in (("blue",), ("pink", "purple"), ("green", "orange", "blue"), ("pink",), COLOURS):
            fulfil_probability(mid, p, draws=2, seen=("green", "blue", "pink"))
    print(f"odds screen     {(time.perf_counter() - t) / 200 * 1e6:8.1f} us for 5 players")

    longest = max(games, key=lambda g: len(g[1]))
    entries = [Entry(i, "event", to_dict(ev)) for i, ev in enumerate(longest[1])]
    t = time.perf_counter()
    for _ in range(5):
        replay(GAME, longest[0], entries)
    ms = (time.perf_counter() - t) / 5 * 1e3
    print(f"replay          {ms:8.1f} ms for a game of {len(entries)} events")


if __name__ == "__main__":
    main()
