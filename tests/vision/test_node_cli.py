"""`companion vision read node`: the card laid between two photos as JSON; bad input is one
line on stderr and exit 2."""

import json

import cv2
import pytest

from companion.cli import main
from vision.render_node import LaidCard, render_node_table, rendered_node_calibration


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("node-cli")
    rendered_node_calibration().save(d / "node.json")
    old = LaidCard((("red", "blue", "green"), ("yellow", "yellow", "purple")), 6, 8)
    new = LaidCard((("green", "red"), ("blue", "blue"), ("yellow", "purple")), 4, 10, 0.25, -0.2, 7)
    cv2.imwrite(str(d / "before.png"), render_node_table([old], "mixed", 8))
    cv2.imwrite(str(d / "after.jpg"), render_node_table([old, new], "mixed", 8, frame=1))
    cv2.imwrite(str(d / "small.png"), cv2.resize(render_node_table([], "mixed", 8), (320, 240)))
    (d / "notes.txt").write_text("not an image")
    (d / "laser.json").write_text('{"format": "table-companion-calibration", "prototypes": []}')
    return d


def test_reads_the_card_laid_between_two_photos(files, capsys):
    argv = ["vision", "read", "node", "--calibration", str(files / "node.json")]
    assert main([*argv, str(files / "before.png"), str(files / "after.jpg")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "placed" and (out["row"], out["col"]) == (4, 10)
    assert out["colours"] == [["green", "red"], ["blue", "blue"], ["yellow", "purple"]]
    assert (out["rows"], out["cols"]) == (3, 2)
    assert all(0.8 <= c <= 1.0 for line in out["confidence"] for c in line)
    # the same photo twice: nothing was laid, said as such
    assert main([*argv, str(files / "after.jpg"), str(files / "after.jpg")]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "nothing"


@pytest.mark.parametrize(
    "calibration,before,after,says",
    [
        ("missing.json", "before.png", "after.jpg", "no such file"),
        ("before.png", "before.png", "after.jpg", "not JSON"),
        ("laser.json", "before.png", "after.jpg", "not a Node table calibration"),
        ("node.json", "missing.png", "after.jpg", "no such file"),
        ("node.json", "before.png", "notes.txt", "not an image"),
        ("node.json", "before.png", "small.png", "same camera"),
        ("node.json", "small.png", "small.png", "corners in"),  # the table lies off the photo
    ],
)
def test_bad_input_is_one_line_and_exit_2(files, capsys, calibration, before, after, says):
    argv = ["vision", "read", "node", "--calibration", str(files / calibration)]
    assert main([*argv, str(files / before), str(files / after)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err and "Traceback" not in err


def test_a_game_the_camera_cannot_read_is_refused(files, capsys):
    argv = ["vision", "read", "kritters", "--calibration", str(files / "node.json"), "a", "b"]
    assert main(argv) == 2
    assert "invalid choice" in capsys.readouterr().err
