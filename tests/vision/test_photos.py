"""Real photographs: calibrate from two photos per class, classify every other labelled photo."""

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from companion.cli import main as companion_main
from vision.detect import classify_image, load_image
from vision.learn import calibrate_images, labelled_subset, read_labels

# Copied into the repository with their licence note (tests/data/mnm-photos/SOURCE.md).
PHOTOS = Path(__file__).parents[1] / "data" / "mnm-photos"


ASK = 0.8  # Settings.ask_threshold default


@pytest.fixture(scope="module")
def rows():
    assert (PHOTOS / "labels.csv").exists(), f"real photographs not found at {PHOTOS}"
    return read_labels(PHOTOS / "labels.csv", PHOTOS)


@pytest.fixture(scope="module")
def boxes():
    with open(PHOTOS / "boxes.csv", newline="", encoding="utf-8") as f:
        return {r["file"]: tuple(int(r[k]) for k in "xywh") for r in csv.DictReader(f)}


def in_box(obj, box):
    x, y, w, h = box
    return x <= obj["x"] <= x + w and y <= obj["y"] <= y + h


def test_every_labelled_photo_is_read_right_from_two_per_class(rows, boxes):
    train = labelled_subset(rows, 2)
    assert len(train) == 10 and len({label for _, label in train}) == 5
    cal = calibrate_images(train)
    held_out = [(p, label) for p, label in rows if (p, label) not in train]
    assert len(held_out) >= 20
    wrong = []
    for path, label in held_out:
        found = classify_image(load_image(path), cal)
        candy = [o for o in found if in_box(o, boxes[path.name])]
        others = [o for o in found if not in_box(o, boxes[path.name])]
        # the candy found, its largest region read right and sure, no piece of it read as
        # another colour with confidence; nothing else read as a candy
        body = max(candy, key=lambda o: o["radius"], default=None)
        if (
            body is None
            or body["colour"] != label
            or body["confidence"] < ASK
            or any(o["colour"] != label and o["confidence"] >= ASK for o in candy)
        ):
            wrong.append((path.name, label, candy))
        elif any(o["colour"] != "unknown" and o["confidence"] >= ASK for o in others):
            wrong.append((path.name, "nothing else", others))
        else:
            assert body["radius"] > 10
    assert not wrong, wrong


def test_a_colour_never_calibrated_is_not_read_as_a_known_one_with_confidence(rows):
    # calibrate without brown: brown candies must be rejected or carry low confidence
    train = [(p, lab) for p, lab in labelled_subset(rows, 2) if lab != "brown"]
    cal = calibrate_images(train)
    for path, label in rows:
        if label != "brown":
            continue
        for obj in classify_image(load_image(path), cal):
            assert obj["colour"] == "unknown" or obj["confidence"] < 0.8, (path.name, obj)


def test_cli_calibrates_and_classifies(tmp_path, capsys):
    out = tmp_path / "calib.json"
    rc = companion_main(
        [
            "vision",
            "calibrate",
            "--images",
            str(PHOTOS),
            "--labels",
            str(PHOTOS / "labels.csv"),
            "--per-class",
            "2",
            "--out",
            str(out),
        ]
    )
    assert rc == 0 and out.exists()
    summary = json.loads(capsys.readouterr().out)
    assert {p["colour"] for p in summary["prototypes"]} == {
        "blue",
        "brown",
        "green",
        "red",
        "yellow",
    }
    rc = companion_main(
        [
            "vision",
            "classify",
            "--calibration",
            str(out),
            str(PHOTOS / "DSC_3610.jpg"),
            str(PHOTOS / "DSC_3609.jpg"),
        ]
    )
    assert rc == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    # every sure reading is the photo's candy (a glossy candy may be read in pieces)
    sure = [{o["colour"] for o in line["objects"] if o["confidence"] >= ASK} for line in lines]
    assert sure == [{"green"}, {"brown"}]
    for obj in lines[0]["objects"]:
        assert set(obj) >= {"colour", "confidence", "x", "y", "radius"}


@pytest.mark.parametrize(
    "cast",
    [(0.45, 0.72, 1.0), (1.0, 0.9, 0.75), (0.25, 0.3, 0.35)],
    ids=["tungsten", "cool-shade", "dim-room"],
)
def test_photos_under_another_light_read_the_same(rows, boxes, cast):
    # the same photographs with the colour of the light changed (BGR gains): the white paper
    # in the corner is the white reference in view, and balances it out; the calibration
    # stays the one made under the original light
    from dataclasses import replace

    paper = (20, 20, 60, 60)  # the white paper the candies lie on, in every photo's corner
    train = labelled_subset(rows, 2)
    cal = replace(calibrate_images(train), white_roi=paper)
    cal = calibrate_images(train, cal)
    gains = np.array(cast, np.float32)
    held_out = [(p, label) for p, label in rows if (p, label) not in train]
    right = 0
    for path, label in held_out:
        frame = np.clip(load_image(path).astype(np.float32) * gains, 0, 255).astype(np.uint8)
        candy = [o for o in classify_image(frame, cal) if in_box(o, boxes[path.name])]
        assert candy, f"{path.name}: the candy is not found"
        # never a confident misread, even of a piece of the candy
        for o in candy:
            assert o["colour"] == label or o["confidence"] < ASK, (path.name, o)
        right += max(candy, key=lambda o: o["radius"])["colour"] == label
    # a strong cast moves a few colours out of reach: those are asked, not misread
    assert right >= 0.8 * len(held_out)


def test_a_labelled_box_teaches_the_piece_that_fills_it_not_a_neighbour_in_its_corner():
    # colorseg-iitp's diffuse light: the yellow ball's calibration crop, whose box's corner
    # holds the end of the cyan ring beside it (the ring's centre inside the ball's box)
    from tests.vision.datasets import calibration_pieces, crop_for
    from vision.learn import calibrate_boxes

    photo, index = next(
        (p, i)
        for p, i in calibration_pieces("colorseg-iitp")
        if p.group == "IITP-diffuse" and p.pieces[i].colour == "yellow"
    )
    crop, piece = crop_for(photo, photo.pieces[index])
    (proto,) = calibrate_boxes([(crop, [("yellow", piece.box)])]).prototypes
    _, a, b = proto.lab
    assert b > 30 and b > abs(a), proto  # yellow, not the ring's cyan (b < 0)
