"""Golden games: logs of whole demo games replay to the results they had when recorded.

Regenerate (after a deliberate rules change) with, for each file name golden-bB-pP-sS.json:
    companion demo color-milk --players P --seed S --board B --headless --no-camera --no-table
keeping its "log" and "result".
"""

import json
from pathlib import Path

import pytest

from companion.games.color_milk import GAME
from companion.session import config_from_json, replay
from companion.store import iter_entries

GOLDEN = sorted((Path(__file__).parent / "data").glob("golden-*.json"))


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_game_replays_to_its_recorded_result(path):
    doc = json.loads(path.read_text())
    log = doc["log"]
    states, redo = replay(GAME, config_from_json(log["config"]), list(iter_entries(log)))
    assert redo == []
    final = states[-1]
    assert GAME.is_over(final)
    assert GAME.summary(final) == doc["result"]


def test_there_are_golden_games():
    assert len(GOLDEN) >= 3
