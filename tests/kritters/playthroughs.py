"""Golden playthroughs of Colour MY Kritters: seeded games of buying and passing, then the
end counts that the app scores."""

import random

from companion.clock import FakeClock
from companion.game import GameConfig
from companion.games.kritters import GAME
from companion.games.kritters.events import Bought, FirstPlayer, PileEmpty, ScoreEntered, TurnDone
from companion.session import Session
from companion.store import GameLog

CARDS = ("kritter", "kritter", "kritter", "paintbrush", "palette")


def _game(players: int, seed: int, **options):
    def play(tmp):
        rng = random.Random(seed)
        names = tuple(f"P{i + 1}" for i in range(players))
        with GameLog(tmp / "kritters.sqlite3") as log:
            s = Session.start(GAME, log, GameConfig(names, options, seed=seed), clock=FakeClock())
            s.submit(FirstPlayer(rng.choice(names)))
            for _ in range(3 * players):
                if rng.random() < 0.7:
                    s.submit(Bought(rng.choice(CARDS)))
                s.submit(TurnDone())
            s.submit(PileEmpty("kritter_deck"))
            while s.state.phase == "play":
                s.submit(TurnDone())
            for name in names:
                s.submit(
                    ScoreEntered(
                        name,
                        cyan=rng.randrange(7),
                        magenta=rng.randrange(7),
                        yellow=rng.randrange(7),
                        point_kritters=(("red", rng.randrange(3, 6)),),
                        paintbrushes=rng.randrange(3),
                        palettes=rng.randrange(3),
                    )
                )
            return log.export(s.game_id)

    return play


PLAYTHROUGHS = {
    "golden-p3-s1": _game(3, 1),
    "golden-p2-s2-triad": _game(2, 2, triad_bonus=True),
}
