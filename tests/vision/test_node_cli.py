"""`companion vision calibrate-node` and `companion vision read node`: the Node table's whole
camera set-up from photos (the independent renderer's calib/ photos), then the card laid
between two photos as JSON; bad input is one line on stderr and exit 2."""

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main

NODE = Path(__file__).resolve().parents[1] / "data" / "table-renders" / "node_table"
COLOURS = ("blue", "green", "purple", "red", "yellow")


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("node-cli")
    for name in ("empty", *COLOURS):
        shutil.copy(NODE / "calib" / f"{name}.jpg", d / f"{name}.jpg")
    for name in ("s05_f0", "s05_f2", "s05_f3"):
        shutil.copy(NODE / "test" / f"{name}.jpg", d / f"{name}.jpg")
    frame = cv2.imread(str(d / "s05_f2.jpg"))
    cv2.imwrite(str(d / "small.png"), cv2.resize(frame, (320, 240)))
    cv2.imwrite(str(d / "wide.png"), cv2.resize(frame, (640, 360)))
    cv2.imwrite(str(d / "blank.png"), np.full((480, 640, 3), 100, np.uint8))
    (d / "notes.txt").write_text("not an image")
    (d / "laser.json").write_text('{"format": "table-companion-calibration", "prototypes": []}')
    return d


@pytest.fixture(scope="module")
def calibration(files):
    out = files / "node.json"
    argv = ["vision", "calibrate-node", "--empty", str(files / "empty.jpg"), "--out", str(out)]
    for colour in COLOURS:
        argv += ["--card", f"{files / colour}.jpg={colour}"]
    assert main(argv) == 0
    return out


def test_calibrate_node_finds_the_lattice_and_learns_each_colour(calibration, capsys):
    data = json.loads(calibration.read_text())
    assert data["format"] == "node-table-calibration" and data["lines"] == "dark"
    assert (data["grid"]["cols"], data["grid"]["rows"]) == (13, 9)
    assert sorted(p["colour"] for p in data["prototypes"]) == list(COLOURS)
    assert {p["set"] for p in data["prototypes"]} == {"node"}


def test_a_card_showing_several_colours_names_them_as_it_lies(files, tmp_path, capsys):
    out = tmp_path / "node.json"
    argv = ["vision", "calibrate-node", "--empty", str(files / "empty.jpg"), "--out", str(out)]
    # a red card: its six nodes named one by one, one left out
    argv += ["--card", f"{files / 'red.jpg'}=red,red,-,red,red,red"]
    assert main(argv) == 0
    said = json.loads(capsys.readouterr().out)
    assert said["colours"] == ["red"] and said["look_alike"] == []
    argv[-1] = f"{files / 'red.jpg'}=red,red"
    assert main(argv) == 2
    assert "6 nodes but 2 colours" in capsys.readouterr().err


def test_reads_the_card_laid_between_two_photos(files, calibration, capsys):
    argv = ["vision", "read", "node", "--calibration", str(calibration)]
    first = ["--first", str(files / "s05_f0.jpg")]
    assert main([*argv, *first, str(files / "s05_f2.jpg"), str(files / "s05_f3.jpg")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["status"], out["ask"], out["ask_below"]) == ("placed", False, 0.8)
    truth = json.loads((NODE.parent / "truth.json").read_text())["node_table"]
    new = truth["test/s05_f3.jpg"]["new_card"]  # a card turned end for end, 9 px off
    flat = [colour for line in out["colours"] for colour in line]
    cells = {tuple(c): colour for c, colour in zip(out["cells"], flat, strict=True)}
    assert cells == {tuple(c): k for c, k in zip(new["cells"], new["colours"], strict=True)}
    assert all(0.8 <= c <= 1.0 for line in out["confidence"] for c in line)
    assert out["candidates"][0][0][0] == out["colours"][0][0] and out["alternatives"] == []
    # the same photo twice: nothing was laid, said as such
    assert main([*argv, str(files / "s05_f3.jpg"), str(files / "s05_f3.jpg")]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "nothing"
    # no mat where the lattice should be: the camera has moved, nothing is read
    blank = ["--first", str(files / "blank.png")]
    assert main([*argv, *blank, str(files / "s05_f2.jpg"), str(files / "s05_f3.jpg")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "moved" and "camera has moved" in out["reason"]
    assert out["colours"] == [] and out["cells"] == []


@pytest.mark.parametrize(
    "calibration_file,before,after,says",
    [
        ("missing.json", "s05_f2.jpg", "s05_f3.jpg", "no such file"),
        ("s05_f2.jpg", "s05_f2.jpg", "s05_f3.jpg", "not JSON"),
        ("laser.json", "s05_f2.jpg", "s05_f3.jpg", "not a Node table calibration"),
        ("node.json", "missing.png", "s05_f3.jpg", "no such file"),
        ("node.json", "s05_f2.jpg", "notes.txt", "not an image"),
        ("node.json", "s05_f2.jpg", "small.png", "same camera"),
        ("node.json", "wide.png", "wide.png", "not the shape"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    files, calibration, capsys, calibration_file, before, after, says
):
    argv = ["vision", "read", "node", "--calibration", str(files / calibration_file)]
    assert main([*argv, str(files / before), str(files / after)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err and "Traceback" not in err


@pytest.mark.parametrize(
    "extra,says",
    [
        ([], "at least one --card"),
        (["--card", "{d}/red.jpg"], "FRAME=colour"),
        (["--card", "{d}/red.jpg=red", "--card-shape", "3"], "--card-shape"),
        (["--card", "{d}/small.png=red"], "differ in size"),
        (["--card", "{d}/empty.jpg=red"], "no card found"),
    ],
)
def test_calibrate_node_refuses_bad_input_in_one_line(files, tmp_path, capsys, extra, says):
    argv = ["vision", "calibrate-node", "--empty", str(files / "empty.jpg")]
    argv += ["--out", str(tmp_path / "n.json"), *(e.format(d=files) for e in extra)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err and "Traceback" not in err
    assert not (tmp_path / "n.json").exists()


def test_a_game_the_camera_cannot_read_is_refused(calibration, capsys):
    argv = ["vision", "read", "kritters", "--calibration", str(calibration), "a", "b"]
    assert main(argv) == 2
    assert "invalid choice" in capsys.readouterr().err
