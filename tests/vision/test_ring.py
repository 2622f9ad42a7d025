"""The Laser ring read as a real table is: calibrated once from photos (the empty ring and one
figure of each colour), then each game found anew on that game's empty ring and read frame by
frame. Frames from the independent renderer (`tests/data/ring`, see its SOURCE.md) and from
the project's own (`vision.render.ring`)."""

import json
import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from vision.errors import CalibrationError
from vision.layout import CameraMoved
from vision.render.ring import LIGHTS, render_ring, ring_calibration
from vision.render.ring_board import EMPTY_BOARD, RingBoard, random_board, ring_geometry
from vision.ring.calibration import from_json, load, to_json
from vision.ring.reader import RingReader

DATA = Path(__file__).resolve().parents[1] / "data" / "ring"
TRUTH = json.loads((DATA / "truth.json").read_text())["laser_ring"]
FIGURES = ("red", "yellow", "green", "cyan", "blue", "magenta", "cat")
BOARD = RingBoard(
    ("cat", "red", "yellow", None, "green", "cyan", "blue", "magenta", "red", None, "blue", "cyan"),
    {"red": 2, "yellow": 1, "green": 0, "cyan": 2, "blue": 1, "magenta": 2},
)


def geometry_args() -> list[str]:
    """The regions a person drags on the calibration frame, from its truth."""
    t = TRUTH["calib/empty.jpg"]
    tiles = ";".join(f"{x},{y}" for x, y in t["tile_centres"])
    (x0, y0), _, (x1, y1), _ = t["white_patch"]
    args = ["--tiles", tiles, "--tile-size", "45", "--patch", f"{x0},{y0},{x1 - x0},{y1 - y0}"]
    for colour, corners in t["colour_cards"].items():
        args += ["--card", colour + "=" + ",".join(str(v) for p in corners for v in p)]
    return args


def calibrate_args(out: Path) -> list[str]:
    figures = []
    for what in FIGURES:
        figures += ["--figure", f"{DATA / 'calib' / what}.jpg={what}"]
    empty = DATA / "calib" / "empty.jpg"
    return ["vision", "calibrate-ring", "--out", str(out), "--empty", str(empty)] + figures


@pytest.fixture(scope="module")
def renders_cal(tmp_path_factory):
    out = tmp_path_factory.mktemp("ring") / "ring.json"
    assert main(calibrate_args(out) + geometry_args()) == 0
    return out


@pytest.fixture(scope="module")
def own():
    return RingReader(ring_calibration())


def read_cli(cal: Path, setup: str, frames: list[str], capsys) -> list[dict]:
    empty = str(DATA / "test" / f"{setup}_empty.jpg")
    images = [str(DATA / "test" / f"{setup}_{f}.jpg") for f in frames]
    assert (
        main(["vision", "read", "laser", "--calibration", str(cal), "--empty", empty, *images]) == 0
    )
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_the_cli_learns_the_ring_from_one_figure_of_each_colour(renders_cal, capsys):
    cal = load(renders_cal)
    assert cal.learnt and {p.colour for p in cal.prototypes} == {*FIGURES, "empty"}
    assert cal.reference is not None  # the empty table, to find the set-up each game
    assert 40 < cal.tile < 50


@pytest.mark.parametrize("setup, frame", [("s01", "f1"), ("s03", "f2"), ("s05", "f0")])
def test_a_game_night_is_read_right_or_asked_never_silently_wrong(
    renders_cal, capsys, setup, frame
):
    """The camera moved, the ring and the cards laid anew, round or square tiles, tungsten
    or mixed light: every tile and card right or asked, almost all right without asking."""
    truth = TRUTH[f"test/{setup}_{frame}.jpg"]
    (doc,) = read_cli(renders_cal, setup, [frame], capsys)
    right = 0
    for tile, want, centre in zip(doc["tiles"], truth["tiles"], truth["tile_centres"], strict=True):
        assert tile["ask"] or tile["what"] == want, (tile, want)
        right += not tile["ask"]
        assert np.hypot(*np.subtract(tile["where"], centre)) < 3  # found where it lies tonight
    assert right >= 11
    for colour, n in truth["spares"].items():
        card = doc["spares"][colour]
        assert card["ask"] or card["count"] == n, (colour, card, n)
    assert not doc["hand"]


def test_empty_round_tiles_read_empty_not_as_the_cat(renders_cal, capsys):
    """The tile's grey is measured on the tile itself, never at corners a round tile does
    not have (which read the table, so an empty tile looked lighter than its grey)."""
    truth = TRUTH["test/s01_f1.jpg"]
    assert truth["tile_shape"] == "disc"
    (doc,) = read_cli(renders_cal, "s01", ["f1"], capsys)
    empties = [k for k, t in enumerate(truth["tiles"]) if t is None]
    assert empties and all(doc["tiles"][k]["what"] is None for k in empties)
    assert [t["what"] for t in doc["tiles"]].count("cat") == 1


def test_a_figure_off_its_tiles_centre_is_read(renders_cal, capsys):
    truth = TRUTH["test/s05_f0.jpg"]
    k = truth["off_centre"]["tile"]
    (doc,) = read_cli(renders_cal, "s05", ["f0"], capsys)
    assert doc["tiles"][k]["what"] == truth["tiles"][k] and not doc["tiles"][k]["ask"]


def test_a_figure_a_third_of_a_tile_off_centre_is_read(own):
    """A figure moved a third of a tile towards the ring's centre, overhanging its tile."""
    g = ring_geometry()
    board = RingBoard(("green",) + (None,) * 11, EMPTY_BOARD.spares)
    empty = render_ring(EMPTY_BOARD, "daylight", 3)
    figure = render_ring(board, "daylight", 3)
    moved = empty.copy()
    (x, y), (cx, cy) = g.slots[0], g.centre
    step = np.array([cx - x, cy - y]) / np.hypot(cx - x, cy - y) * g.tile / 3
    shift = np.float32([[1, 0, step[0]], [0, 1, step[1]]])
    changed = (np.abs(figure.astype(int) - empty.astype(int)).sum(axis=2) > 30).astype(np.uint8)
    where = cv2.warpAffine(changed, shift, (640, 480)) > 0
    moved[where] = cv2.warpAffine(figure, shift, (640, 480))[where]
    own.find(empty)
    r = own.read(moved)
    assert r.tiles[0] == "green" and not r.ask[0]
    assert r.tiles[1:] == (None,) * 11


def test_a_hand_hides_only_what_it_covers(renders_cal, capsys):
    """A hand over two tiles: those are asked, never read; the rest are read as usual."""
    truth = TRUTH["test/s07_f0.jpg"]
    (doc,) = read_cli(renders_cal, "s07", ["f0"], capsys)
    visible = {tuple(o["c"]): o["visible"] for o in truth["objects"] if o["where"] == "tile"}
    hidden = 0
    for k, tile in enumerate(doc["tiles"]):
        want, at = truth["tiles"][k], truth["figure_centres"][k]
        if at is not None and visible[tuple(at)] < 0.95:
            hidden += 1
            assert tile["ask"] and tile["doubt"] == "covered"
        assert tile["ask"] or tile["what"] == want
    assert hidden >= 1 and doc["hand"]
    assert sum(not t["ask"] for t in doc["tiles"]) >= 9


def test_spares_are_counted_on_their_cards_beside_a_hand(renders_cal, capsys):
    truth = TRUTH["test/s09_f4.jpg"]
    (doc,) = read_cli(renders_cal, "s09", ["f4"], capsys)
    for colour, n in truth["spares"].items():
        card = doc["spares"][colour]
        assert card["ask"] or card["count"] == n, (colour, card, n)
    assert sum(not c["ask"] for c in doc["spares"].values()) >= 4


@pytest.mark.parametrize("light", LIGHTS)
def test_the_projects_own_ring_is_read_right_or_asked_under_every_light(own, light):
    wrong, asked = [], 0
    for i in range(3):
        seed = 700 + 10 * LIGHTS.index(light) + i
        board = random_board(random.Random(seed))
        own.find(render_ring(EMPTY_BOARD, light, seed))
        r = own.read(render_ring(board, light, seed, frame=1))
        for k, truth in enumerate(board.tiles):
            if r.ask[k]:
                asked += 1
            elif r.tiles[k] != truth:
                wrong.append((seed, k, truth, r.tiles[k]))
        for colour, n in board.spares.items():
            if colour not in r.asked_cards and r.spares[colour] != n:
                wrong.append((seed, colour, n, r.spares[colour]))
    assert wrong == []
    assert asked <= 8  # of 36 tiles, under the lights that clip the most


def test_a_hand_over_the_projects_ring_is_never_misread(own):
    for i in range(6):
        board = random_board(random.Random(900 + i))
        own.find(render_ring(EMPTY_BOARD, "daylight", 900 + i))
        r = own.read(render_ring(board, "daylight", 900 + i, hand=True))
        for k, truth in enumerate(board.tiles):
            assert r.ask[k] or r.tiles[k] == truth, (i, k, truth, r.tiles[k])


def test_two_cats_are_impossible_so_both_are_asked(own):
    tiles = list(BOARD.tiles)
    tiles[3] = "cat"
    own.find(render_ring(EMPTY_BOARD, "daylight", 11))
    r = own.read(render_ring(RingBoard(tuple(tiles), BOARD.spares), "daylight", 11))
    assert r.ask[0] and r.ask[3] and r.doubt[0] == "too many"


def test_the_camera_moved_too_far_is_said(own):
    empty = render_ring(EMPTY_BOARD, "daylight", 2)
    away = cv2.warpAffine(empty, np.float32([[1, 0, 150], [0, 1, 90]]), (640, 480))
    with pytest.raises(CameraMoved, match="The camera has moved"):
        own.find(away)


def test_reading_before_the_ring_is_found_or_another_size_is_refused(own):
    with pytest.raises(CalibrationError, match="empty frame"):
        RingReader(own.cal).read(render_ring(BOARD))
    with pytest.raises(CalibrationError, match="320x240"):
        own.find(np.zeros((240, 320, 3), np.uint8))


def test_an_empty_ring_with_figures_on_it_is_refused(renders_cal, capsys):
    image = str(DATA / "test" / "s03_f2.jpg")
    code = main(
        ["vision", "read", "laser", "--calibration", str(renders_cal), "--empty", image, image]
    )
    err = capsys.readouterr().err.strip()
    assert code == 2 and "something stands on" in err and len(err.splitlines()) == 1


def test_the_calibration_round_trips_and_bad_files_are_one_line(own, tmp_path):
    doc = to_json(own.cal)
    assert to_json(from_json(json.loads(json.dumps(doc)))) == doc
    for broken in (
        {**doc, "format": "other"},
        {**doc, "version": 7},
        {**doc, "tile": -3},
        {**doc, "tiles": [[1, 2]] * 11},
        {**doc, "cards": {"red": [[1, 2]] * 4}},
        {**doc, "areas": {"red": 0}},
        {**doc, "reference": "not png"},
        {**doc, "white_roi": [600, 400, 100, 100]},
        [],
    ):
        with pytest.raises(CalibrationError) as err:
            from_json(broken)
        assert "\n" not in str(err.value)
    with pytest.raises(CalibrationError, match="has not learnt"):
        RingReader(from_json({**doc, "prototypes": []}))


def test_a_first_version_file_keeps_its_geometry_and_asks_for_the_colours():
    g = ring_geometry()
    old = {
        "format": "table-companion-ring",
        "version": 1,
        "frame_size": [640, 480],
        "ellipse": {"centre": list(g.centre), "radii": list(g.radii), "first": -90},
        "tile": g.tile,
        "cards": {c: list(r) for c, r in zip(FIGURES[:6], g.cards, strict=True)},
        "white_roi": list(g.patch),
        "prototypes": [{"colour": "red", "lab": [50, 60, 40], "sigma": 2}],
    }
    cal = from_json(old)
    assert np.allclose(cal.tiles, g.slots) and not cal.learnt
    with pytest.raises(CalibrationError, match="calibrate-ring"):
        RingReader(cal)


def test_learning_says_what_is_missing_or_wrong(tmp_path, capsys):
    out = tmp_path / "ring.json"
    args = calibrate_args(out) + geometry_args()
    i = args.index(f"{DATA / 'calib' / 'cat'}.jpg=cat")
    code = main(args[: i - 1] + args[i + 1 :])  # no photo of the cat
    err = capsys.readouterr().err.strip()
    assert code == 2 and "no photo of cat" in err and not out.exists()
    empty = f"{DATA / 'calib' / 'empty'}.jpg"
    code = main(args[:i] + [f"{empty}=cat"] + args[i + 1 :])  # the cat's photo shows none
    err = capsys.readouterr().err.strip()
    assert code == 2 and "0 figures" in err and len(err.splitlines()) == 1


@pytest.mark.parametrize(
    "args, words",
    [
        (["calibrate-ring", "--out", "{out}", "--empty", "{image}"], "geometry needs"),
        (
            ["calibrate-ring", "--out", "{out}", "--from", "{cal}", "--empty", "{missing}"],
            "cannot read image",
        ),
        (["calibrate-ring", "--out", "{out}", "--from", "{image}", "--empty", "{image}"], "--from"),
        (["calibrate-ring", "--out", "{out}", "--empty", "{image}", "--tiles", "1,2"], "12"),
        (
            ["calibrate-ring", "--out", "{out}", "--empty", "{image}", "--card", "pink=1,2,3,4"],
            "one of",
        ),
        (
            ["read", "laser", "--calibration", "{cal}", "--empty", "{image}", "{missing}"],
            "cannot read",
        ),
        (["read", "laser", "--calibration", "{cal}", "--empty", "{small}", "{image}"], "320x240"),
        (
            ["read", "laser", "--calibration", "{missing}", "--empty", "{image}", "{image}"],
            "no such",
        ),
        (["read", "laser", "--calibration", "{image}", "--empty", "{image}", "{image}"], "JSON"),
        (["read", "laser", "--calibration", "{cal}", "{image}"], "--empty"),
        (
            [
                "read",
                "laser",
                "--calibration",
                "{cal}",
                "--empty",
                "{image}",
                "--threshold",
                "2",
                "{image}",
            ],
            "threshold",
        ),
    ],
)
def test_cli_errors_are_one_line(renders_cal, tmp_path, capsys, args, words):
    image = DATA / "test" / "s03_empty.jpg"
    small = tmp_path / "small.png"
    cv2.imwrite(str(small), cv2.resize(cv2.imread(str(image)), (320, 240)))
    paths = {
        "cal": renders_cal,
        "image": image,
        "small": small,
        "missing": tmp_path / "nope.png",
        "out": tmp_path / "out.json",
    }
    code = main(["vision", *[a.format(**paths) for a in args]])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1 and words in err, err


def test_the_ring_reader_names_no_game():
    """The reading is the camera's: Laser turns it into its own event
    (`companion.games.laser.sensing.ring_read`)."""
    import vision.ring as package
    from vision.ring.reading import RingReading

    modules = sorted(Path(package.__file__).parent.glob("*.py"))
    assert len(modules) > 1
    for path in modules:
        assert "companion.games" not in path.read_text(), path.name
    assert not hasattr(RingReading, "event")


def test_rendering_is_repeatable_and_one_light_can_light_many_layouts():
    a = render_ring(BOARD, "mixed", 4)
    assert np.array_equal(a, render_ring(BOARD, "mixed", 4))
    b = render_ring(BOARD, "mixed", 4, frame=1)
    assert 0 < np.abs(a.astype(int) - b.astype(int)).mean() < 3  # sensor noise only
    lit = render_ring(EMPTY_BOARD, "mixed", 9, light_seed=4)
    assert np.abs(lit.astype(int) - render_ring(EMPTY_BOARD, "mixed", 4).astype(int)).mean() < 3


@pytest.mark.parametrize(
    "tiles, spares",
    [
        (("red",) * 11, {}),
        (("violet",) + (None,) * 11, {}),
        ((None,) * 12, {"red": 3}),
        ((None,) * 12, {"orange": 1}),
    ],
)
def test_a_board_that_cannot_be_drawn_is_refused(tiles, spares):
    with pytest.raises(ValueError):
        RingBoard(tiles, spares)


def test_a_card_already_asked_makes_no_tile_asked():
    """Three red figures on tiles and two on a card the reader doubts: the card is asked,
    the tiles stay read; with the card read sure, five reds are impossible: all are asked."""
    from vision.ring.reader import _doubt_the_impossible

    colours = ("red", "yellow", "green", "cyan", "blue", "magenta")
    tiles = ["red"] * 3 + ["cat"] + [None] * 8
    for card_doubt, tiles_asked in ((("size"), False), (None, True)):
        doubts = [None] * 12
        spares = dict.fromkeys(colours, 0) | {"red": 2}
        spare_doubt = dict.fromkeys(colours) | {"red": card_doubt}
        _doubt_the_impossible(
            tiles, [0.99] * 12, doubts, spares, dict.fromkeys(colours, 0.95), spare_doubt, 0.8
        )
        assert (doubts[:3] == ["too many"] * 3) == tiles_asked and doubts[3:] == [None] * 9
        assert spare_doubt["red"] == (card_doubt or "too many")
