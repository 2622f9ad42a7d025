"""`companion vision ...`: bad input is a one-line error, good input prints JSON."""

import json

import cv2
import pytest

from companion.cli import main as companion_main
from companion.errors import UsageError
from vision.calibration import save
from vision.cli import main
from vision.learn import rendered_calibration


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


def test_set_up_regions_then_learn_colours_from_table_frames(tmp_path, capsys):
    from vision.balls import BallReader
    from vision.calibration import load
    from vision.card_zones import ZoneReader
    from vision.render.tray import arrival_frames, render_cards, render_tray
    from vision.render.tray_geometry import scene_calibration

    sc = scene_calibration()
    calib = tmp_path / "table.json"
    rect = ",".join
    argv = [
        "regions",
        "--calibration",
        str(calib),
        "--patch",
        rect(map(str, sc.white_roi)),
        "--tray",
        rect(map(str, sc.tray_roi)),
        "--first-end",
        "left",
        "--ball-radius",
        "14,38",
        "--slot-pitch",
        str(sc.slot_pitch),
        "--frame-size",
        "640x480",
    ]
    for name, r in sc.card_zones:
        argv += ["--zone", f"{name}={rect(map(str, r))}"]
    assert main(argv) == 0
    assert load(calib).tray_roi == sc.tray_roi and load(calib).prototypes == ()
    with pytest.raises(UsageError):
        main(["regions", "--calibration", str(calib), "--tray", "1,2,3"])

    # a person lays out balls and cards in known order under two lights and photographs them
    args = ["calibrate-table", "--calibration", str(calib)]
    empty = tmp_path / "empty.png"
    cv2.imwrite(str(empty), render_tray([], "warm-led", 900))
    args += ["--empty", str(empty)]
    balls = ["blue", "green", "orange", "pink", "purple"]
    for i, order in enumerate((balls, balls[::-1], balls[2:] + balls[:2])):
        f = tmp_path / f"balls{i}.png"
        cv2.imwrite(str(f), render_tray(order, "warm-led", 900, frame=i + 1))
        args += ["--balls", f"{f}=" + ",".join(order)]
    for i, (a, b) in enumerate((("blue", "pink"), ("orange", "purple"), ("green", "blue"))):
        f = tmp_path / f"cards{i}.png"
        cv2.imwrite(
            str(f), render_cards({"seat1": [a], "seat3": [b]}, "warm-led", 900, frame=i + 5)
        )
        args += ["--cards", f"{f}=seat1:{a},seat3:{b}"]
    assert main(args + ["--set", "color-milk"]) == 0
    capsys.readouterr()
    cal = load(calib)
    assert set(cal.colours) == set(balls) and set(cal.colour_sets) == {"balls", "color-milk"}

    # the learnt calibration reads a new round under the same light
    reader = BallReader(cal)
    got = []
    want = ["pink", "purple", "blue", "green", "orange"]
    for frame in arrival_frames(want, "warm-led", 901):
        got += reader.feed(frame)
    assert [e.colour for e in got] == want
    cards = ZoneReader(
        cal, balls, background=render_tray([], "warm-led", 902), colour_set="color-milk"
    )
    seen = cards.read(render_cards({"seat2": ["purple", "orange"]}, "warm-led", 902, frame=1))
    assert sorted(c.colour for v in seen for c in v.cards) == ["orange", "purple"]

    # wrong counts are refused and the file is kept
    before = calib.read_text()
    with pytest.raises(Exception, match="expected 2 balls"):
        main(
            [
                "calibrate-table",
                "--calibration",
                str(calib),
                "--empty",
                str(empty),
                "--balls",
                f"{tmp_path / 'balls0.png'}=blue,green",
            ]
        )
    assert calib.read_text() == before
