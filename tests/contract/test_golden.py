"""Golden games of every game: their logs replay to the results they had when recorded.
Regenerate them (after a deliberate rules change) with `python -m tests.golden --write`."""

import json

import pytest

from tests.golden import golden_files, replayed, result
from tests.sixth_game.catalogue import sixth_game_in_catalogue

GOLDEN = golden_files()


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_golden_game_replays_to_its_recorded_result(path):
    doc = json.loads(path.read_text())
    with sixth_game_in_catalogue():
        game, final, redo = replayed(doc)
    assert redo == [] and game.is_over(final)
    assert result(game, final) == doc["result"]


def test_every_golden_folder_has_its_games():
    folders = {p.parent.parent.name for p in GOLDEN}
    assert {"color_milk", "laser", "kritters", "elios", "node", "sixth_game"} <= folders
