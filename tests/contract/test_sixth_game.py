"""A sixth game touches only its own folder: with tests/sixth_game/ on the catalogue's path
and no other change, the CLI lists it, runs its tool and replays its logs; the contract
test (test_games.py) and the golden files (test_golden.py) cover it like the other five."""

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
