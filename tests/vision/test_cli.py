"""`companion vision ...`: bad input is a one-line error, good input prints JSON."""

import json

import cv2
import pytest

from companion.cli import main as companion_main
from companion.errors import UsageError
from vision.calibration import rendered_calibration, save
from vision.cli import main


def test_bad_input_is_a_usage_error(tmp_path):
    for argv in (
        ["frob"],
        ["calibrate"],
        ["classify"],
        ["calibrate", "--images", str(tmp_path / "no"), "--labels", "x.csv", "--out", "c.json"],
        ["render", "--light", "candle", "--out", str(tmp_path / "a.png")],
        ["render", "--balls", "gold", "--out", str(tmp_path / "a.png")],
    ):
        with pytest.raises(UsageError):
            main(argv)


def test_errors_print_one_line_and_exit_codes(tmp_path, capsys):
    assert companion_main(["vision", "classify", "--calibration", "c.json"]) == 2
    bad = tmp_path / "calib.json"
    bad.write_text("{")
    img = tmp_path / "a.png"
    assert companion_main(["vision", "render", "--out", str(img)]) == 0
    assert companion_main(["vision", "classify", "--calibration", str(bad), str(img)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and "damaged" in err[1]
    assert bad.read_text() == "{"


def test_labels_that_name_missing_images_are_refused(tmp_path):
    (tmp_path / "labels.csv").write_text("file,label\nnope.jpg,blue\n")
    with pytest.raises(Exception, match="nope.jpg"):
        main(
            [
                "calibrate",
                "--images",
                str(tmp_path),
                "--labels",
                str(tmp_path / "labels.csv"),
                "--out",
                str(tmp_path / "c.json"),
            ]
        )
    assert not (tmp_path / "c.json").exists()


def test_classify_rendered_frame_with_rendered_calibration(tmp_path, capsys):
    calib = tmp_path / "calib.json"
    save(calib, rendered_calibration(0))
    img = tmp_path / "tray.png"
    assert (
        main(
            [
                "render",
                "--balls",
                "orange,purple",
                "--light",
                "warm-led",
                "--seed",
                "3",
                "--out",
                str(img),
            ]
        )
        == 0
    )
    assert cv2.imread(str(img)).shape == (480, 640, 3)
    assert (
        main(
            [
                "classify",
                "--calibration",
                str(calib),
                "--colours",
                "blue,green,orange,pink,purple",
                str(img),
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    balls = sorted((o for o in out["objects"] if o["shape"] == "ball"), key=lambda o: o["x"])
    assert [o["colour"] for o in balls] == ["orange", "purple"]
