"""The CLI as a person meets it: real subprocesses, one-line errors, JSON out."""

import json
import subprocess
import sys

import pytest

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
    """A whole Color Milk game is logged by the demo, then replayed from the file and from
    its exported JSON: both give the demo's own result."""
    data = tmp_path / "d"
    r = companion(
        "demo",
        "color-milk",
        "--players",
        "3",
        "--seed",
        "11",
        "--headless",
        "--no-camera",
        "--no-table",
        "--data-dir",
        str(data),
    )
    assert r.returncode == 0, r.stderr
    demo = json.loads(r.stdout)
    r = companion("replay", str(data / "games.sqlite3"))
    assert r.returncode == 0, r.stderr
    replayed = json.loads(r.stdout)
    assert replayed["game"] == "color-milk" and replayed["is_over"]
    assert replayed["winners"] == demo["result"]["winners"]
    with GameLog(data / "games.sqlite3") as log:
        exported = tmp_path / "game.json"
        exported.write_text(json.dumps(log.export(replayed["game_id"])))
    r = companion("replay", str(exported))
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["state"] == replayed["state"]
