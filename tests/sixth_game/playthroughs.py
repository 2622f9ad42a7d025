"""Golden playthroughs of Colour Race (see tests/golden.py)."""

import random

from companion import catalogue
from companion.clock import FakeClock
from companion.events import TimerExpired
from companion.game import GameConfig
from companion.session import Session
from companion.store import GameLog


def _race(players: int, seed: int):
    def play(tmp):
        game = catalogue.load("colour-race")
        rng = random.Random(seed)
        names = tuple(f"P{i + 1}" for i in range(players))
        with GameLog(tmp / "race.sqlite3") as log:
            s = Session.start(game, log, GameConfig(names, seed=seed), clock=FakeClock())
            while not game.is_over(s.state):
                if rng.random() < 0.1:  # someone dawdles: the turn clock runs out
                    s.submit(TimerExpired(game.timer(s.state).key))
                else:
                    s.submit(rng.choice(game.legal_actions(s.state)))
            return log.export(s.game_id)

    return play


PLAYTHROUGHS = {"golden-p2-s1": _race(2, 1), "golden-p4-s2": _race(4, 2)}
