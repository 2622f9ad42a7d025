"""Golden playthroughs of Node: seeded placements on a small table with a counted deck."""

import random

from companion.clock import FakeClock
from companion.game import GameConfig
from companion.games.node import GAME
from companion.session import Session
from companion.store import GameLog
from tests.node.test_node_invariants import play_randomly


def _game(seed: int):
    def play(tmp):
        rng = random.Random(seed)
        config = GameConfig(("ann", "bob"), {"table_width": 10, "table_height": 8, "deck": 24})
        with GameLog(tmp / "node.sqlite3") as log:
            s = Session.start(GAME, log, config, clock=FakeClock())
            _, events = play_randomly(GAME.initial_state(config), rng, 60)
            for e in events:
                s.submit(e)
            assert GAME.is_over(s.state)
            return log.export(s.game_id)

    return play


PLAYTHROUGHS = {"golden-s1": _game(1), "golden-s2": _game(2)}
