"""The CLI as a person meets it: real subprocesses, one-line errors, JSON out."""

import json
import subprocess
import sys

import pytest

from companion.clock import FakeClock
from companion.game import GameConfig
from companion.session import Session
from companion.store import GameLog


def companion(*args, stdin=None, env=None):
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


@pytest.mark.parametrize(
    "args",
    [
        ["frobnicate"],
        ["odds"],
        ["replay"],
        ["replay", "/no/such/log.sqlite3"],
        ["run", "--size", "huge"],
        ["games", "--bogus"],
        ["solve", "no-such-game"],
    ],
)
def test_bad_arguments_give_one_line_and_a_nonzero_exit(args, data_dir):
    r = companion(*args)
    assert r.returncode != 0
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("companion: error:")
    assert "Traceback" not in r.stderr


def test_a_corrupt_log_is_one_line_and_untouched(tmp_path):
    path = tmp_path / "broken.sqlite3"
    path.write_bytes(b"garbage" * 50)
    r = companion("replay", str(path))
    assert r.returncode == 1 and len(r.stderr.strip().splitlines()) == 1
    assert "left untouched" in r.stderr
    assert path.read_bytes() == b"garbage" * 50


def test_games_lists_the_five_games_as_json():
    r = companion("games")
    assert r.returncode == 0, r.stderr
    names = [g["title"] for g in json.loads(r.stdout)]
    assert names == ["Color Milk", "Laser", "Colour MY Kritters", "Elios", "Node"]


def test_replay_prints_the_final_state_of_a_saved_game(tmp_path):
    from tests.core.tally import TALLY, Add

    path = tmp_path / "games.sqlite3"
    with GameLog(path) as log:
        s = Session.start(TALLY, log, GameConfig(players=("Anna", "Ben")), clock=FakeClock())
        s.submit(Add("Anna", 3))
        s.submit(Add("Ben", 2))
        doc = log.export(s.game_id)
    # the tally game lives in the tests, so replay it through the library as the CLI does
    from companion.session import config_from_json, replay

    states, _ = replay(TALLY, config_from_json(doc["config"]), log_entries(doc))
    assert TALLY.scores(states[-1]) == {"Anna": 3, "Ben": 2}


def log_entries(doc):
    from companion.store import iter_entries

    return list(iter_entries(doc))
