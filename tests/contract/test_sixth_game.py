"""A sixth game touches only its own folder: with tests/sixth_game/ on the catalogue's path
and no other change, the CLI lists it, runs its tool and replays its logs, and the runtime's
camera reads its die with its own reader; the contract test (test_games.py) and the golden
files (test_golden.py) cover it like the other five."""

import json

import pytest

from companion import cli
from tests.sixth_game.catalogue import sixth_game_in_catalogue


@pytest.fixture(autouse=True)
def sixth_game():
    with sixth_game_in_catalogue():
        yield


def run(capsys, *argv):
    code = cli.main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_companion_games_lists_the_sixth_game_with_its_tool(capsys):
    code, out, _ = run(capsys, "games")
    listed = {g["name"]: g for g in json.loads(out)}
    assert code == 0 and list(listed)[-1] == "colour-race"
    assert listed["colour-race"] == {
        "name": "colour-race",
        "title": "Colour Race",
        "players": [2, 4],
        "about": "Roll the colour die; first to 10 points wins.",
        "tools": ["score"],
    }


def test_the_sixth_game_s_own_verb_runs_and_refuses_bad_input_in_one_line(capsys):
    assert run(capsys, "score", "colour-race", "red", "blue")[:2] == (0, '{"points": 4}\n')
    code, _, err = run(capsys, "score", "colour-race", "green")
    assert code == 2 and err == "companion: error: no die face 'green' (faces: red, yellow, blue)\n"


def test_the_sixth_game_replays_from_its_golden_log(capsys, tmp_path):
    from tests.golden import TESTS

    path = TESTS / "sixth_game" / "data" / "golden-p2-s1.json"
    doc = json.loads(path.read_text())
    (tmp_path / "log.json").write_text(json.dumps(doc["log"]))
    code, out, err = run(capsys, "replay", str(tmp_path / "log.json"))
    assert code == 0, err
    assert json.loads(out)["scores"] == doc["result"]["scores"]


def test_the_sixth_game_s_own_camera_reader_and_table_part_are_picked_up(tmp_path):
    """Its camera.py brings a reader of a kind nothing shared knows ("die") and its part of
    the simulated table: the strip's "Lay card" rolls the die there, the runtime's camera
    link reads it and the roll reaches the game."""
    from companion import catalogue
    from companion.clock import FakeClock
    from companion.game import GameConfig
    from companion.runtime import Runtime
    from companion.runtime.sim_scene import SimulatedScene
    from companion.session import Session
    from companion.store import GameLog

    game = catalogue.load("colour-race")
    runtime = Runtime(camera_source="simulated")
    runtime.scene = SimulatedScene()
    said = []
    runtime.subscribe(on_cue=lambda cue: said.append(getattr(cue, "text", "")))
    with GameLog(tmp_path / "race.sqlite3") as log:
        session = Session.start(game, log, GameConfig(("Ann", "Bo")), clock=FakeClock())
        runtime.play(session)
        try:
            for turn, player in enumerate(("Ann", "Bo")):
                rolled = runtime.changed_to(lambda s, n=turn: s.turn == n + 1)
                runtime.simulated_hand("lay")
                assert said[-1].startswith(f"{player} rolls "), said
                die = said[-1].rsplit(" ", 1)[1]
                assert rolled.wait(30), said
                points = {"red": 1, "yellow": 2, "blue": 3}[die]
                assert game.scores(session.state)[player] == points
            assert runtime.camera.wanted == {"die"}
        finally:
            runtime.close()
