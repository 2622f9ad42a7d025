"""Drive Color Milk through its pure rules the way a table would."""

import pytest

from companion.events import BallSeen, ButtonPressed
from companion.game import GameConfig
from companion.games.color_milk import GAME
from companion.games.color_milk.events import Choose, Predict, Tally


class Table:
    def __init__(self, players=("Anna", "Ben", "Cleo"), **options):
        self.state = GAME.initial_state(GameConfig(tuple(players), options))
        self.cues = []

    def do(self, *events):
        for ev in events:
            self.state, cues = GAME.apply(self.state, ev)
            self.cues.extend(cues)
        return self.state

    def texts(self):
        return [getattr(c, "text", "") for c in self.cues]

    def predict(self, **preds):
        """predict(Anna="pink purple", Ben="double:blue green")"""
        for name, spec in preds.items():
            zone, _, cols = spec.rpartition(":")
            self.do(Predict(name, tuple(cols.split()), zone))

    def balls(self, *colours, confidence=1.0):
        self.do(*(BallSeen(c, i, confidence) for i, c in enumerate(colours)))

    def choose_first(self):
        """Everyone takes the first ball of the row."""
        while self.state.phase == "choose":
            self.do(Choose(self.state.chooser_name, (0,)))

    def round(self, balls, preds=None, coins=None, finish=True):
        preds = preds or {p.name: "blue" for p in self.state.players}
        self.predict(**preds)
        self.balls(*balls)
        self.choose_first()
        for name, n in (coins or {}).items():
            self.do(Tally(name, "coins", n))
        if finish:
            self.do(ButtonPressed("next"))
        return self.state

    def remix(self):
        assert self.state.phase == "remix"
        self.do(ButtonPressed("next"))
        if self.state.phase == "warriors":  # board 5: the extra cell brought no coin
            self.do(ButtonPressed("next"))


@pytest.fixture
def table():
    return Table
