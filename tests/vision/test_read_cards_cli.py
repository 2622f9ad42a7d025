"""`companion vision read cards`: per image, the cards per zone as JSON; bad input, one line."""

import json

import cv2
import pytest

from companion.cli import main as companion_main
from vision.calibration import save
from vision.render.cards import BACK, empty_table, render_seats, seat_calibration, seat_layout


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("cards")
    save(d / "calib.json", seat_calibration())
    cv2.imwrite(str(d / "empty.png"), empty_table("tungsten", 7))
    seats = {"seat1": ["orange", "blue"], "seat3": [BACK, BACK], "seat5": ["purple"]}
    cv2.imwrite(str(d / "cards.png"), render_seats(seats, "tungsten", 7, frame=1))
    cv2.imwrite(str(d / "hand.png"), render_seats(seats, "tungsten", 7, frame=2, hand="seat5"))
    return d, seats


def run(capsys, *argv):
    code = companion_main(["vision", "read", "cards", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err


def test_cards_per_zone_with_colour_confidence_and_box(files, capsys):
    d, seats = files
    code, lines, err = run(
        capsys, "--calibration", d / "calib.json", "--set", "color-milk",
        d / "empty.png", d / "cards.png", d / "hand.png",
    )  # fmt: skip
    assert code == 0, err
    assert lines[0] == {"image": str(d / "empty.png"), "empty": True}
    zones = {z["zone"]: z for z in lines[1]["zones"]}
    assert sorted(zones) == ["centre", "seat1", "seat2", "seat3", "seat4", "seat5"]
    assert sorted(c["colour"] for c in zones["seat1"]["cards"]) == ["blue", "orange"]
    assert [c["colour"] for c in zones["seat5"]["cards"]] == ["purple"]
    backs = zones["seat3"]["cards"]
    assert [(c["colour"], c.get("face_down")) for c in backs] == [("", True), ("", True)]
    assert zones["seat2"]["cards"] == [] and not zones["seat2"]["blocked"]
    placed, _ = seat_layout(seats, 7)
    for zone, card, (cx, cy), _a in placed:  # every box holds the centre of a card laid there
        boxes = [c["box"] for c in zones[zone]["cards"]]
        assert any(x <= cx <= x + w and y <= cy <= y + h for x, y, w, h in boxes), (zone, card)
    assert all(c["confidence"] >= 0.8 for z in zones.values() for c in z["cards"])
    assert not any(c["ask"] for z in zones.values() for c in z["cards"])
    assert lines[1]["threshold"] == 0.8
    hand = {z["zone"]: z for z in lines[2]["zones"]}
    # a hand over seat 5 hides what it covers, and says so: the zone may hold more
    assert hand["seat5"]["covered"] and not hand["seat1"]["covered"]
    assert {c["colour"] for c in hand["seat5"]["cards"] if not c["ask"]} <= {"purple"}
    assert sorted(c["colour"] for c in hand["seat1"]["cards"]) == ["blue", "orange"]


def test_an_explicit_empty_table(files, capsys):
    d, _ = files
    code, lines, _ = run(
        capsys, "--calibration", d / "calib.json", "--set", "color-milk", "--empty",
        d / "empty.png", d / "cards.png",
    )  # fmt: skip
    assert code == 0 and len(lines) == 1 and lines[0]["image"] == str(d / "cards.png")


@pytest.mark.parametrize(
    "argv",
    [
        ["--calibration", "{d}/calib.json", "{d}/empty.png", "{d}/missing.png"],
        ["--calibration", "{d}/calib.json", "--colours", "gold", "{d}/cards.png"],
        ["--calibration", "{d}/calib.json", "--colours", ",", "{d}/cards.png"],
        ["--calibration", "{d}/nocal.json", "{d}/cards.png"],
        ["--calibration", "{d}/calib.json", "--empty", "{d}/calib.json", "{d}/cards.png"],
        ["--calibration", "{d}/calib.json", "--empty", "{d}/small.png", "{d}/cards.png"],
        ["--calibration", "{d}/calib.json"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(files, capsys, argv):
    d, _ = files
    cv2.imwrite(str(d / "small.png"), empty_table("daylight", 1, (320, 240)))
    code, lines, err = run(capsys, *(a.format(d=d) for a in argv))
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_calibration_without_zones_is_refused(files, capsys, tmp_path):
    from dataclasses import replace

    save(tmp_path / "c.json", replace(seat_calibration(), card_zones=()))
    d, _ = files
    code, _, err = run(capsys, "--calibration", tmp_path / "c.json", d / "empty.png")
    assert code == 2 and "no card zones" in err


def test_floors_learnt_from_a_photo_and_read_from_others(tmp_path, capsys):
    """calibrate-table --floors learns the floor patterns; read cards --floors reads them."""
    from dataclasses import replace

    from vision.floor_texture import FLOORS
    from vision.render.cards import CENTRE, FLOOR_CARDS

    calib = tmp_path / "calib.json"
    save(calib, replace(seat_calibration(), floors={}))
    empty, learn, later = tmp_path / "empty.png", tmp_path / "learn.png", tmp_path / "later.png"
    cv2.imwrite(str(empty), empty_table("warm-led", 31))
    cv2.imwrite(str(learn), render_seats({CENTRE: FLOOR_CARDS}, "warm-led", 31, frame=1))
    laid = ["magenta:carpet", "cyan:ceramic", "yellow:wood"]
    cv2.imwrite(str(later), render_seats({CENTRE: laid}, "warm-led", 31, frame=2, angle=15))

    code, _, err = run(capsys, "--calibration", calib, "--set", "laser", "--floors", empty, later)
    assert code == 2 and "has not learnt wood, carpet, ceramic" in err
    for frame, why in ((empty, "0 card(s) seen"), (f"{learn}=seat2", "in seat2: 0 card(s)")):
        argv = ["--calibration", calib, "--empty", empty, "--floors", frame]
        assert companion_main(["vision", "calibrate-table", *map(str, argv)]) == 2
        assert why in capsys.readouterr().err
    argv = ["--calibration", calib, "--empty", empty, "--floors", learn]
    assert companion_main(["vision", "calibrate-table", *map(str, argv)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert sorted(out["floors"]) == sorted(FLOORS) and out["balls"] == out["cards"] == 0

    code, lines, err = run(
        capsys, "--calibration", calib, "--set", "laser", "--floors", empty, later
    )
    assert code == 0, err
    (centre,) = [z for z in lines[1]["zones"] if z["zone"] == CENTRE]
    cards = sorted(centre["cards"], key=lambda c: c["box"][0])
    assert [(c["colour"], c["floor"]) for c in cards] == [tuple(c.split(":")) for c in laid]


def test_a_photo_of_another_size_is_refused_in_one_line(files, tmp_path, capsys):
    d, _ = files
    small = tmp_path / "small.png"
    cv2.imwrite(str(small), cv2.resize(cv2.imread(str(d / "cards.png")), (320, 240)))
    code, lines, err = run(
        capsys, "--calibration", d / "calib.json", "--set", "color-milk", d / "empty.png", small
    )
    assert code == 2 and "small.png: the image is 320x240" in err and "for 640x480" in err
    for flag, value in (("--floors", small), ("--cards", f"{small}=seat1:blue")):
        argv = ["--calibration", d / "calib.json", "--empty", d / "empty.png", flag, value]
        argv += ["--set", "color-milk"]
        before = (d / "calib.json").read_bytes()
        assert companion_main(["vision", "calibrate-table", *map(str, argv)]) == 2
        assert "the image is 320x240" in capsys.readouterr().err
        assert (d / "calib.json").read_bytes() == before  # nothing written
