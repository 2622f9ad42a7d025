"""Color Milk's sensor hooks: a reading is dropped only when it would change nothing, the
camera can never be as sure as a person, and the camera reads only while balls are read."""

import json
import random
from dataclasses import replace

import pytest

from companion.entries import iter_entries
from companion.events import BallSeen
from companion.game import ReaderSpec
from companion.games.color_milk import GAME
from companion.games.color_milk.mill import COLOURS
from companion.games.color_milk.rules import SENSOR_MAX
from companion.games.color_milk.sensing import Memory
from companion.session import config_from_json, replay
from tests.golden import TESTS

GOLDEN = sorted((TESTS / "color_milk" / "data").glob("golden-*.json"))


def states_of(path):
    doc = json.loads(path.read_text())
    log = doc["log"]
    return replay(GAME, config_from_json(log["config"]), list(iter_entries(log)))[0]


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_a_dropped_reading_is_never_news_and_a_kept_one_is_capped(path):
    rng = random.Random(path.stem)
    dropped = kept = 0
    for state in states_of(path):
        for _ in range(6):
            seen = BallSeen(rng.choice(COLOURS), rng.randrange(-1, 7), rng.random() * 1.1)
            capped = replace(seen, confidence=min(seen.confidence, SENSOR_MAX))
            events, memory = GAME.interpret(state, seen, None)
            # a ball from the camera leaves nothing to remember but what the log held as the
            # sensors started: a round resumed here, whose balls read already are not news
            assert memory == Memory.resumed(state)
            if not events:
                logged = memory.logged and seen.slot in memory.logged[1]
                assert logged or not GAME.is_news(state, capped)
                dropped += 1
            else:
                assert events == (capped,)
                kept += 1
    assert dropped > 50 and kept > 50  # both ways were tried


@pytest.mark.parametrize("path", GOLDEN[:1], ids=lambda p: p.stem)
def test_the_ball_reader_runs_while_balls_are_read_and_restarts_each_round(path):
    for state in states_of(path):
        readers = GAME.readers(state)
        if state.phase in ("predict", "mill", "check"):
            assert readers == (ReaderSpec("balls", f"round {state.round}"),)
        else:
            assert readers == ()
