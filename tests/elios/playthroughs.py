"""Golden playthroughs of Elios: seeded games played the way the session tests play."""

import random

from companion.clock import FakeClock
from companion.game import GameConfig
from companion.games.elios import GAME
from companion.session import Session
from companion.store import GameLog
from tests.elios.test_elios_session import choose_move, ready_everyone


def _game(players: int, seed: int):
    def play(tmp):
        rng = random.Random(seed)
        names = tuple(f"p{i}" for i in range(players))
        with GameLog(tmp / "elios.sqlite3") as log:
            s = Session.start(GAME, log, GameConfig(names, seed=seed), clock=FakeClock())
            ready_everyone(s, rng)
            while not GAME.is_over(s.state):
                s.submit(choose_move(s.state, rng))
            return log.export(s.game_id)

    return play


PLAYTHROUGHS = {"golden-p2-s1": _game(2, 1), "golden-p4-s3": _game(4, 3)}
