"""The real-photo development sets load whole, with sound truth and the documented fixed split."""

import json
from collections import Counter

import numpy as np
import pytest

from tests.vision import datasets
from tests.vision.datasets import DATA, SETS, SPLITS

# photos and pieces per split (calib, dev, test), as in tests/data/README.md
COUNTS = {
    "real-scenes": ((2, 25, 106), (27, 371, 1658)),
    "mnm-photos": ((5, 9, 18), (5, 9, 18)),
    "uno-cards": ((4, 16, 32), (4, 16, 32)),
    "colorseg-iitp": ((4, 3, 5), (27, 24, 38)),
}
COLOURS = {
    "real-scenes": ["blue", "green", "orange", "red", "white", "yellow"],
    "mnm-photos": ["blue", "brown", "green", "red", "yellow"],
    "uno-cards": ["blue", "green", "red", "yellow"],
    "colorseg-iitp": ["blue", "cyan", "green", "orange", "pink", "red", "yellow"],
}


@pytest.mark.parametrize("name", SETS)
def test_counts_and_colours_are_as_documented(name):
    photos = datasets.photos(name)
    by_split = [[p for p in photos if p.split == s] for s in SPLITS]
    assert tuple(len(ps) for ps in by_split) == COUNTS[name][0]
    assert tuple(sum(len(p.pieces) for p in ps) for ps in by_split) == COUNTS[name][1]
    assert datasets.colours(name) == COLOURS[name]


@pytest.mark.parametrize("name", SETS)
def test_every_piece_lies_inside_its_photo(name):
    for photo in datasets.photos(name):
        img = photo.image()
        assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
        h, w = img.shape[:2]
        assert photo.pieces, photo.name
        for piece in photo.pieces:
            x, y, bw, bh = piece.box
            assert bw > 0 and bh > 0 and x >= 0 and y >= 0, (photo.name, piece)
            assert x + bw <= w and y + bh <= h, (photo.name, piece)
            pts = np.asarray(piece.outline)
            assert len(pts) >= 3
            # the outline lies in its box (to the pixel: boxes count pixels, outlines are corners)
            assert pts[:, 0].min() >= x - 1 and pts[:, 0].max() <= x + bw + 1, (photo.name, piece)
            assert pts[:, 1].min() >= y - 1 and pts[:, 1].max() <= y + bh + 1, (photo.name, piece)


@pytest.mark.parametrize("name", SETS)
def test_split_is_the_written_rule(name):
    committed = json.loads((DATA / name / "split.json").read_text(encoding="utf-8"))
    assert committed == datasets.fixed_split(name)


@pytest.mark.parametrize("name", SETS)
def test_splits_are_disjoint_and_cover_every_photo(name):
    photos = datasets.photos(name)
    names = [p.name for p in photos]
    assert len(names) == len(set(names))
    assert {p.split for p in photos} == set(SPLITS)
    calib = {p.name for p, _ in datasets.calibration_pieces(name)}
    assert calib == {p.name for p in photos if p.split == "calib"}


@pytest.mark.parametrize("name", SETS)
def test_calibration_is_one_piece_per_colour_and_group(name):
    cal = datasets.calibration_pieces(name)
    keys = [(photo.group, photo.pieces[i].colour) for photo, i in cal]
    assert len(keys) == len(set(keys))
    seen = {(p.group, pc.colour) for p in datasets.photos(name) for pc in p.pieces}
    assert set(keys) == seen
    per_colour = Counter(colour for _, colour in keys)
    assert set(per_colour.values()) <= {1, 2}


@pytest.mark.parametrize("name", SETS)
def test_every_calibration_colour_is_tested(name):
    cal = {(p.group, p.pieces[i].colour) for p, i in datasets.calibration_pieces(name)}
    tested = {
        (p.group, pc.colour) for p in datasets.photos(name) if p.split == "test" for pc in p.pieces
    }
    assert cal <= tested


def test_real_scenes_keeps_its_roles():
    roles = json.loads((DATA / "real-scenes" / "labels.json").read_text(encoding="utf-8"))["images"]
    for photo in datasets.photos("real-scenes"):
        if roles[photo.name]["role"] == "test":
            assert photo.split == "test"
        else:
            assert photo.split in ("calib", "dev")


@pytest.mark.parametrize("name", SETS)
def test_crop_holds_the_piece_with_twice_its_size_around(name):
    photo, i = datasets.calibration_pieces(name)[0]
    piece = photo.pieces[i]
    img = photo.image()
    crop, moved = datasets.crop_for(photo, piece, img)
    x, y, w, h = piece.box
    cx, cy, cw, ch = moved.box
    assert (cw, ch) == (w, h) and moved.colour == piece.colour
    assert np.array_equal(crop[cy : cy + ch, cx : cx + cw], img[y : y + h, x : x + w])
    assert moved.outline[0] == (piece.outline[0][0] - (x - cx), piece.outline[0][1] - (y - cy))
    # twice the size on each side, cut at the photo's edges
    ih, iw = img.shape[:2]
    assert (cx, cy) == (min(2 * w, x), min(2 * h, y))
    assert crop.shape[:2] == (min(y + 3 * h, ih) - (y - cy), min(x + 3 * w, iw) - (x - cx))


def test_unknown_set_is_named_in_the_error():
    with pytest.raises(ValueError, match="unknown set 'nope'"):
        datasets.photos("nope")


def test_reads_nothing_outside_tests_data():
    for name in SETS:
        for photo in datasets.photos(name):
            assert photo.path.resolve().is_relative_to(DATA.resolve())
            assert photo.path.is_file(), photo.path
