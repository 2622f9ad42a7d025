"""A tiny timed game for the resume tests: three phases, each with its own countdown.

    python tests/pi/countdown_game.py DATA_DIR [--report]

Without --report it resumes (or starts) the game in DATA_DIR's log on the real monotonic
clock, polls it ten times a second as the UI does and prints `<timer key> <seconds left>`
after every poll. With --report it resumes and prints the restored countdown once.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion import events as ev  # noqa: E402
from companion.errors import IllegalMove  # noqa: E402
from companion.game import GameBase, GameConfig, TimerSpec  # noqa: E402
from companion.session import Session  # noqa: E402
from companion.store import GameLog  # noqa: E402

PHASES = (("plan", 30.0), ("bid", 20.0), ("show", 45.0))
POLL_EVERY = 0.1


@dataclass(frozen=True)
class CountdownState:
    phase: int = 0


class CountdownGame(GameBase):
    name = "countdown"
    title = "Countdown"

    def initial_state(self, config: GameConfig) -> CountdownState:
        return CountdownState()

    def apply(self, state, event):
        if self.is_over(state):
            raise IllegalMove("the game is over")
        spec = self.timer(state)
        if isinstance(event, ev.TimerExpired) and event.key != spec.key:
            raise IllegalMove(f"{event.key} is not the running timer")
        if not isinstance(event, (ev.TimerExpired, ev.ButtonPressed)):
            raise IllegalMove("only time and the next button move this game")
        return replace(state, phase=state.phase + 1), ()

    def timer(self, state):
        if self.is_over(state):
            return None
        name, seconds = PHASES[state.phase]
        return TimerSpec(f"{state.phase}:{name}", seconds)

    def scores(self, state):
        return {}

    def is_over(self, state) -> bool:
        return state.phase >= len(PHASES)


GAME = CountdownGame()


def open_session(log: GameLog, **kw) -> Session:
    rec = log.unfinished()
    if rec is not None:
        return Session.resume(GAME, log, rec.id, **kw)
    return Session.start(GAME, log, GameConfig(players=("Anna", "Ben")), **kw)


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("data_dir", type=Path)
    p.add_argument("--report", action="store_true")
    a = p.parse_args()
    a.data_dir.mkdir(parents=True, exist_ok=True)
    with GameLog(a.data_dir / "games.sqlite3") as log:
        session = open_session(log)
        while True:
            if not a.report:
                session.poll()
            t = session.timer
            print(f"{t and GAME.timer(session.state).key} {t and t.remaining():.3f}", flush=True)
            if a.report or t is None:
                return 0
            time.sleep(POLL_EVERY)


if __name__ == "__main__":
    sys.exit(main())
