"""Calibration files: round trip, atomic accept, a damaged file is reported and kept."""

import json

import pytest

from companion.errors import CompanionError
from vision.calibration import (
    Calibration,
    CalibrationStore,
    from_json,
    load,
    previous_path,
    save,
    to_json,
)
from vision.classify import Prototype
from vision.errors import CalibrationError
from vision.learn import rendered_calibration


def _cal(shift=0.0):
    return Calibration(
        prototypes=(
            Prototype("blue", (35.0 + shift, 13.0, -45.0), 5.0, 3),
            Prototype("pink", (61.0, 32.0, -2.0), 6.0, 3),
        ),
        white_roi=(10, 20, 30, 40),
        tray_roi=(50, 60, 300, 100),
        first_end="right",
        ball_radius=(10.0, 30.0),
        card_zones=(("seat1", (0, 300, 100, 100)),),
        frame_size=(640, 480),
        camera={"ExposureTime": 10000, "ColourGains": [1.5, 1.9]},
    )


def test_round_trip_through_json(tmp_path):
    path = tmp_path / "calib.json"
    save(path, _cal())
    back = load(path)
    assert back == _cal()
    assert back.zone("seat1") == (0, 300, 100, 100)
    assert back.classifier.classify((35, 13, -45)).colour == "blue"


@pytest.mark.parametrize(
    "damage, words",
    [
        ("{not json", "not JSON"),
        ('{"format": "something else"}', "not a Table Companion calibration"),
        ("[]", "not a Table Companion calibration"),
    ],
)
def test_damaged_file_gives_a_clear_error(tmp_path, damage, words):
    path = tmp_path / "calib.json"
    path.write_text(damage)
    with pytest.raises(CalibrationError, match=words) as info:
        load(path)
    assert isinstance(info.value, CompanionError) and isinstance(info.value, ValueError)
    assert str(path) in str(info.value)
    assert path.read_text() == damage  # reported, never rewritten


@pytest.mark.parametrize("lab, sigma", [([1e300, 0, 0], 5.0), ([50, 0, 0], float("inf"))])
def test_a_prototype_that_is_no_colour_is_refused(lab, sigma):
    data = to_json(_cal())
    data["prototypes"][0].update(lab=lab, sigma=sigma)
    with pytest.raises(CalibrationError, match="prototype #0 is malformed"):
        from_json(json.loads(json.dumps(data)))


@pytest.mark.parametrize(
    "field, value",
    [
        ("prototypes", "blue"),
        ("prototypes", [{"colour": "blue", "lab": [1, 2], "sigma": 5}]),
        ("prototypes", [{"colour": "blue", "lab": [1, 2, 3], "sigma": -1}]),
        ("white_roi", [1, 2, 3]),
        ("tray_roi", [0, 0, -5, 10]),
        ("first_end", "middle"),
        ("ball_radius", [30, 10]),
        ("card_zones", [1, 2]),
        ("version", 99),
    ],
)
def test_each_bad_field_is_named(field, value):
    data = to_json(_cal())
    data[field] = value
    with pytest.raises(CalibrationError):
        from_json(json.loads(json.dumps(data)))


def test_recalibration_keeps_the_old_one_until_accepted(tmp_path):
    path = tmp_path / "calib.json"
    store = CalibrationStore(path)
    store.propose(_cal())
    store.accept()
    before = path.read_bytes()
    store.propose(_cal(shift=5.0))
    assert load(path) == _cal()  # proposing writes nothing
    assert path.read_bytes() == before
    store.discard()
    with pytest.raises(CalibrationError):
        store.accept()  # nothing pending any more
    store.propose(_cal(shift=5.0))
    store.accept()
    assert load(path) == _cal(shift=5.0)
    assert load(previous_path(path)) == _cal()  # the one before is kept beside it
    assert not list(tmp_path.glob("*.tmp"))


def test_damaged_current_file_falls_back_to_previous_and_is_not_destroyed(tmp_path):
    path = tmp_path / "calib.json"
    store = CalibrationStore(path)
    store.propose(_cal())
    store.accept()
    store.propose(_cal(shift=5.0))
    store.accept()
    path.write_text('{"format": "table-companion-calibration", "version": 1, "prot')
    fresh = CalibrationStore(path)
    assert fresh.load() == _cal()
    assert "damaged" in fresh.message and "previous" in fresh.message
    assert path.read_text().endswith('"prot')  # left for inspection
    fresh.propose(_cal(shift=9.0))
    fresh.accept()
    assert load(path) == _cal(shift=9.0)
    assert (tmp_path / "calib.damaged.json").read_text().endswith('"prot')
    assert load(previous_path(path)) == _cal()


def test_damaged_file_without_previous_raises(tmp_path):
    path = tmp_path / "calib.json"
    path.write_text("garbage")
    with pytest.raises(CalibrationError, match="damaged"):
        CalibrationStore(path).load()
    assert path.read_text() == "garbage"


def test_rendered_calibration_knows_every_game_colour():
    cal = rendered_calibration(0)
    assert set(cal.colours) == {
        "blue",
        "green",
        "orange",
        "pink",
        "purple",
        "red",
        "yellow",
        "cyan",
        "magenta",
    }
    assert cal.tray_roi and cal.white_roi and len(cal.card_zones) == 4
    assert rendered_calibration(0) is cal  # cached
    json.dumps(to_json(cal))  # and storable


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("card_zones", {"seat1": None}, "card zone 'seat1'"),
        ("card_zones", {"seat1": [600, 10, 100, 50]}, "outside the 640x480 frame"),
        ("tray_roi", [10, 400, 100, 100], "tray_roi"),
        ("ball_radius", [8, 400], "ball_radius"),
        ("slot_pitch", 5000, "slot_pitch"),
        ("card_area", [100, 10_000_000], "card_area"),
        ("frame_size", [100000, 100000], "larger than any camera"),
    ],
)
def test_geometry_no_frame_could_hold_is_refused_naming_the_field(field, value, said):
    data = to_json(Calibration(prototypes=(), frame_size=(640, 480)))
    data[field] = value
    with pytest.raises(CalibrationError, match=said):
        from_json(data)
