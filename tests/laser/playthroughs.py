"""Golden playthroughs of Laser: seeded walks through the legal actions and the clocks."""

import random

from companion.clock import FakeClock
from companion.events import TimerExpired
from companion.game import GameConfig
from companion.games.laser import GAME
from companion.session import Session
from companion.store import GameLog


def _walk(mode: str, players: int, seed: int):
    def play(tmp):
        rng = random.Random(seed)
        names = tuple(f"P{i + 1}" for i in range(players))
        config = GameConfig(names, {"mode": mode, "cards": 2}, seed=seed)
        with GameLog(tmp / "laser.sqlite3") as log:
            s = Session.start(GAME, log, config, clock=FakeClock())
            while not GAME.is_over(s.state):
                actions = list(GAME.legal_actions(s.state))
                spec = GAME.timer(s.state)
                if spec is not None and (not actions or rng.random() < 0.3):
                    s.submit(TimerExpired(spec.key))
                else:
                    s.submit(rng.choice(actions))
            return log.export(s.game_id)

    return play


PLAYTHROUGHS = {
    "golden-team-p4-s1": _walk("team", 4, 1),
    "golden-competitive-p2-s2": _walk("competitive", 2, 2),
}
