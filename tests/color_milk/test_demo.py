"""The demo plays a whole game headless through the session and the log, and ends with a winner."""

import json
import random

import pytest

from companion import cli
from companion.card_readings import ZoneRead
from companion.entries import iter_entries
from companion.game import GameConfig
from companion.games.color_milk import GAME
from companion.games.color_milk.autoplay import ScriptedTable
from companion.runtime import Runtime
from companion.session import Session, config_from_json, replay
from companion.store import GameLog

FAST = ("--no-camera", "--no-table")  # the engine part alone; the full pipeline is tested below


def run(capsys, *argv):
    code = cli.main(["demo", "color-milk", *argv])
    out = capsys.readouterr()
    assert code == 0, out.err
    return out.out


def test_demo_ends_with_a_winner_and_its_log_replays(capsys, tmp_path):
    text = run(
        capsys, "--players", "3", "--seed", "7", "--headless", "--data-dir", str(tmp_path), *FAST
    )
    out = json.loads(text)
    assert out["winners"] and set(out["winners"]) <= {"Anna", "Ben", "Cleo"}
    assert out["refused"] == []
    best = max(out["scores"].values())
    assert all(out["scores"][w] == best for w in out["winners"])
    # the exported log replays to the same result
    doc = out["log"]
    states, _ = replay(GAME, config_from_json(doc["config"]), list(iter_entries(doc)))
    assert GAME.is_over(states[-1])
    assert list(GAME.winners(states[-1])) == out["winners"]
    # and the game is in the log file in --data-dir, finished
    with GameLog(tmp_path / "games.sqlite3") as log:
        (rec,) = log.games()
        assert rec.status == "finished" and rec.result["winners"] == out["winners"]


def test_demo_live_prints_the_table_as_it_happens(capsys):
    text = run(capsys, "--players", "2", "--seed", "3", "--headless", "--live", *FAST)
    lines = text.splitlines()
    start = lines.index("{")
    narration, result = lines[:start], json.loads("\n".join(lines[start:]))
    assert any(line.startswith("ball 1: ") for line in narration)
    assert any("prediction" in line for line in narration)
    assert narration[-1] == f"*** winner: {' and '.join(result['winners'])}"


@pytest.mark.parametrize("board, players", [(5, 4), (6, 1)])
def test_demo_plays_other_boards_and_solo(capsys, board, players):
    out = json.loads(
        run(
            capsys,
            "--players",
            str(players),
            "--seed",
            "1",
            "--board",
            str(board),
            "--headless",
            *FAST,
        )
    )
    assert out["result"]["board"] == board and out["winners"]
    if players == 1:
        assert out["result"]["solo_rating"]


def test_demo_refuses_bad_arguments(capsys):
    assert cli.main(["demo", "color-milk", "--players", "9"]) == 2
    assert "--players must be 1-5" in capsys.readouterr().err
    assert cli.main(["demo", "color-milk", "--board", "8"]) == 2
    assert "board must be 1-6" in capsys.readouterr().err


@pytest.mark.slow
def test_demo_through_camera_frames_and_the_simulated_table(capsys):
    out = json.loads(run(capsys, "--players", "2", "--seed", "5", "--headless"))
    assert "BallReader" in out["pipeline"]["camera"]
    assert "simulated" in out["pipeline"]["table"]
    assert out["winners"] and out["refused"] == []
    events = [e["event"] for e in out["log"]["entries"] if e["kind"] == "event"]
    seen = [e for e in events if e["type"] == "core.BallSeen"]
    from_camera = [e for e in seen if e["confidence"] < 1.0]
    assert len(from_camera) >= 5 * (out["rounds"] - 1)  # the camera read the balls
    passed = sum(e["count"] for e in events if e["type"] == "core.BallPassed")
    assert passed >= 5 * out["rounds"]  # every ball crossed the simulated beam
    nexts = [e for e in events if e["type"] == "core.ButtonPressed"]
    assert nexts and all(e["button"] == "next" for e in nexts)
    # the prediction cards were laid, revealed and read by the camera
    assert "CardAdapter" in out["pipeline"]["cards"]
    made = out["predictions"]
    assert made["read"] >= 1 and made["misreads"] == 0
    assert made["read"] + made["asked"] + made["tapped"] == 2 * out["rounds"]
    questions = [e for e in events if e["type"] == "color-milk.CardsToConfirm"]
    assert len(questions) >= made["asked"]
    predicts = [e for e in events if e["type"] == "color-milk.Predict"]
    assert len(predicts) == 2 * out["rounds"]  # one per player and round: nothing taken back


def test_demo_without_the_camera_taps_the_predictions_in(capsys):
    out = json.loads(run(capsys, "--players", "2", "--seed", "3", "--headless", *FAST))
    assert out["pipeline"]["cards"] == "tapped in" and out["card_frames"] == 0
    assert out["predictions"] == dict(read=0, asked=0, tapped=2 * out["rounds"], misreads=0)


class WrongCamera:
    """Cards on a table whose camera always sees a wrong single card in front of seat 1."""

    def __init__(self, state):
        self.state, self.laid, self.entered = state, {}, []

    def lay(self, seat, count):
        self.laid[seat] = ("back",) * count

    def reveal(self, seat, colours):
        self.laid[seat] = tuple(colours)

    def clear(self):  # the predictions are checked: what was entered, against what was laid
        self.entered += [
            (set(p.prediction), set(self.laid[i])) for i, p in enumerate(self.state().players)
        ]
        self.laid = {}

    def look(self, state):
        if state.phase != "check":
            return []
        out = []
        for seat, cards in self.laid.items():
            if seat == 0 and "back" not in cards:
                cards = ("blue",) if cards != ("blue",) else ("pink",)
            up = tuple(c for c in cards if c != "back")
            out.append(ZoneRead(f"seat{seat + 1}", up, (1.0,) * len(up), cards.count("back")))
        return out


def test_a_misread_prediction_is_counted_and_put_right(tmp_path):
    runtime = Runtime()
    with GameLog(tmp_path / "games.sqlite3") as log:
        session = Session.start(GAME, log, GameConfig(("Anna", "Ben"), {"board": 1}, seed=2))
        runtime.play(session)
        try:
            camera = WrongCamera(lambda: session.state)
            table = ScriptedTable(
                runtime.submit,
                lambda: session.state,
                random.Random(2),
                sense=runtime.sense,
                cards=camera,
                undo=runtime.undo,
            )
            table.play(max_rounds=3)
        finally:
            runtime.close()
    made = table.predictions
    assert made["misreads"] == 3  # seat 1, every round
    assert made["read"] + made["asked"] + made["tapped"] + made["misreads"] == 6
    assert camera.entered and all(got == laid for got, laid in camera.entered)
