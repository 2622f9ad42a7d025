"""The Node placement reader: the mat's lattice found anew each game, every card laid right or
asked, never silently a column off, nothing sure where no card was laid. On the project's
own renders and on a few frames of the independent renderer's `node_table` (calibrated from
its `calib/` photos only). The full sweep is benchmarks/node_matrix.py."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.games.node.simtable import random_placements
from vision.errors import CalibrationError
from vision.layout import CameraMoved
from vision.node.calibration import NodeCalibration
from vision.node.reader import NodeReader
from vision.node.table_setup import calibrate
from vision.node.watch import NodeWatcher
from vision.registration import MOVED
from vision.render.node import (
    Hand,
    LaidCard,
    TableLayout,
    default_layout,
    nudged,
    render_node_table,
    rendered_node_calibration,
)
from vision.render.tray import LIGHTS

RENDERS = Path(__file__).resolve().parents[1] / "data" / "table-renders"
NODE = RENDERS / "node_table"


@pytest.fixture(scope="module")
def cal():
    return rendered_node_calibration()


@pytest.fixture(scope="module")
def independent():
    """The independent renderer's truth and a calibration from its calib/ photos alone."""
    truth = json.loads((RENDERS / "truth.json").read_text())["node_table"]
    cards = [
        (cv2.imread(str(NODE / name)), [rec["calib_colour"]])
        for name, rec in truth.items()
        if name.startswith("calib/") and rec["calib_colour"] != "empty"
    ]
    return truth, calibrate(cv2.imread(str(NODE / "calib" / "empty.jpg")), cards)


def placed(reading) -> dict:
    """Cell -> colour of the card a reading places."""
    flat = [c for line in reading.colours for c in line]
    return dict(zip(reading.cells, flat, strict=True))


def laid_cells(card: LaidCard) -> dict:
    return {
        (card.row + i, card.col + j): c
        for i, line in enumerate(card.colours)
        for j, c in enumerate(line)
    }


def outcome(reading, truth: dict) -> str:
    if reading.status == "placed":
        return "right" if placed(reading) == truth else f"SILENT {reading}"
    return reading.status


OLD = LaidCard((("red", "blue", "green"), ("yellow", "yellow", "purple")), 6, 8)


def test_a_mat_moved_by_a_node_is_read_where_the_card_lies_on_it(cal):
    # the old reader kept the table's corners in the set-up's pixels: a mat lying a node
    # to the right put the card one column off, sure of it
    layout = default_layout()
    moved = TableLayout(tuple((x + layout.pitch, y) for x, y in layout.corners), layout.pitch)
    card = LaidCard((("green", "red", "blue"), ("purple", "yellow", "red")), 4, 12, 0.1, -0.1, 3)
    before = render_node_table([OLD], "daylight", 4, moved)
    after = render_node_table([OLD, card], "daylight", 4, moved, frame=1)
    reading = NodeReader(cal).read(before, after)
    assert outcome(reading, laid_cells(card)) == "right", reading


@pytest.mark.parametrize(
    "camera", [(9, -8, 4.5, 1.05), (-10, 7, -5, 0.94), (0, 10, 2, 0.97), (-6, -10, -3.5, 1.03)]
)
def test_a_nudged_camera_costs_nothing(cal, camera):
    layout = nudged(default_layout(), *camera)
    wide = LaidCard((("green", "green", "blue"), ("yellow", "purple", "red")), 7, 9, 0.2, 0.3, 0)
    tall = LaidCard((("red", "blue"), ("yellow", "green"), ("purple", "red")), 2, 15, -0.3, 0, 7)
    reader = NodeReader(cal)
    reader.find(render_node_table([], "tungsten", 5, layout))  # the game's first frame
    for k, card in enumerate((wide, tall)):
        before = render_node_table([OLD], "tungsten", 5, layout, frame=2 * k)
        after = render_node_table([OLD, card], "tungsten", 5, layout, frame=2 * k + 1)
        assert outcome(reader.read(before, after), laid_cells(card)) == "right", card


def test_placements_of_real_games_under_every_light_are_right_or_asked(cal):
    seen = []
    for table, _state, _want, laid in random_placements(len(LIGHTS) * 3, seed=5, deck=3):
        reader = NodeReader(cal)
        reading = reader.read(table.frame(cards=table.cards[:-1]), table.frame())
        seen.append(outcome(reading, laid_cells(laid)))
    assert not [s for s in seen if s.startswith("SILENT")], seen
    assert seen.count("right") >= len(seen) - 2, seen  # asking is not a way out


def test_a_card_between_two_grid_positions_is_asked_with_both(cal):
    card = LaidCard((("red", "yellow", "green"), ("blue", "purple", "red")), 5, 6, 0.5, 0.05, 1)
    reading = NodeReader(cal).read(
        render_node_table([], "daylight", 8), render_node_table([card], "daylight", 8, frame=1)
    )
    assert reading.status == "ask" and "between two grid positions" in reading.reason
    answers = {(reading.row, reading.col)} | {(r, c) for r, c, _, _ in reading.alternatives}
    assert answers == {(5, 6), (5, 7)}, reading


def test_a_node_of_a_colour_not_in_the_game_is_asked_with_candidates(cal):
    card = LaidCard((("red", "orange", "blue"), ("yellow", "green", "purple")), 6, 6, 0.1, 0, 3)
    reading = NodeReader(cal).read(
        render_node_table([], "daylight", 2), render_node_table([card], "daylight", 2, frame=1)
    )
    assert reading.status == "ask" and "unsure of 1 node" in reading.reason, reading
    assert reading.confidence[0][1] < 0.8 and reading.candidates[0][1]
    assert reading.to_json()["ask"] is True


def test_no_sure_card_where_none_was_laid(cal):
    new = LaidCard((("yellow", "red", "red"), ("blue", "green", "green")), 5, 10, 0.2, 0.1, -6)
    before = render_node_table([OLD], "warm-led", 3)
    after = render_node_table([OLD, new], "warm-led", 3, frame=1)
    reader = NodeReader(cal)
    assert reader.read(after, before).status != "placed"  # a card taken away
    assert reader.read(before, render_node_table([OLD], "warm-led", 3, frame=2)).status == (
        "nothing"
    )
    ((x, y),) = default_layout().project(new.to_table([[1.5, 1]]))
    for side in ("bottom", "left", "top"):  # a hand still over the new card
        hand = render_node_table([OLD, new], "warm-led", 3, frame=3, hand=Hand((x, y), side))
        assert reader.read(before, hand).status != "placed", side
    knocked = cv2.warpAffine(
        after, np.float32([[1, 0, 6], [0, 1, 4]]), (640, 480), borderMode=cv2.BORDER_REPLICATE
    )
    assert reader.read(before, knocked).status != "placed"


@pytest.mark.parametrize("light", ["mixed", "tungsten", "dim"])
def test_a_card_taken_off_the_bare_mat_is_no_card(cal, light):
    # the mat's cloth framed by its light printed lines looks much like a green node framed
    # by paper: the lines are not the card's white
    card = LaidCard((("green", "green", "green"), ("green", "blue", "green")), 3, 2, 0.1, 0, 3)
    empty = render_node_table([], light, 300)
    reader = NodeReader(cal)
    reader.find(empty)
    laid = render_node_table([card], light, 300, frame=1)
    assert reader.read(empty, laid).status == "placed"
    assert reader.read(laid, render_node_table([], light, 300, frame=2)).status != "placed"


def test_no_lattice_is_the_camera_moved(cal):
    blank = np.full((480, 640, 3), 120, np.uint8)
    with pytest.raises(CameraMoved, match="camera has moved"):
        NodeReader(cal).find(blank)
    reading = NodeReader(cal).read(blank, blank)
    assert (reading.status, reading.reason) == ("moved", MOVED)


def test_the_watcher_finds_the_lattice_and_reads_once_the_hand_has_gone(cal):
    layout = nudged(default_layout(), 6, -4, 2.5, 1.02)
    cards = [OLD]
    new = LaidCard((("yellow", "red"), ("red", "blue"), ("green", "green")), 4, 12, -0.2, 0.3, 8)
    watcher = NodeWatcher(NodeReader(cal))
    watcher.reset(render_node_table(cards, "fluorescent", 4, layout))
    assert not watcher.moved
    frames = [
        render_node_table(cards, "fluorescent", 4, layout, frame=1, hand=Hand((300, 200))),
        render_node_table(cards + [new], "fluorescent", 4, layout, frame=2, hand=Hand((330, 180))),
        render_node_table(cards + [new], "fluorescent", 4, layout, frame=3, hand=Hand((340, 210))),
    ]
    assert [watcher.feed(f) for f in frames] == [[], [], []]
    still = [
        render_node_table(cards + [new], "fluorescent", 4, layout, frame=4 + i) for i in range(4)
    ]
    readings = [r for f in still for r in watcher.feed(f)]
    assert len(readings) == 1 and outcome(readings[0], laid_cells(new)) == "right", readings


def test_the_watcher_says_the_camera_moved_and_finds_the_mat_again(cal):
    watcher = NodeWatcher(NodeReader(cal))
    watcher.reset(np.full((480, 640, 3), 90, np.uint8))
    assert watcher.moved and watcher.waiting == MOVED
    assert watcher.feed(np.full((480, 640, 3), 90, np.uint8)) == []
    watcher.feed(render_node_table([OLD], "daylight", 6))  # the camera put back
    assert not watcher.moved


def test_calibration_round_trip_and_damage(tmp_path, cal):
    path = tmp_path / "node.json"
    cal.save(path)
    again = NodeCalibration.load(path)
    assert again == cal and (again.grid.cols, again.grid.rows) == (20, 14)
    cal.save(path)
    assert NodeCalibration.load(tmp_path / "node.previous.json") == cal  # the one replaced
    for text, why in (
        ("{", "not JSON"),
        ('{"format": "table-companion-calibration"}', "not a Node table calibration"),
        ('{"format": "node-table-calibration", "corners": [], "pitch": 20}', "older version"),
        ('{"format": "node-table-calibration", "version": 2}', "without 'grid'"),
    ):
        path.write_text(text)
        with pytest.raises(CalibrationError, match=why):
            NodeCalibration.load(path)
    data = cal.to_json() | {"lines": "dotted"}
    with pytest.raises(CalibrationError, match="lines"):
        NodeCalibration.from_json(data)


# the independent renderer's frames ------------------------------------------------------

PAIRS = [
    "test/s00_f3.jpg",  # D65, a hand in the after frame, shifted 3 px
    "test/s01_f4.jpg",  # A (tungsten), turned 5.9 degrees, a hand in the before frame
    "test/s02_f3.jpg",  # FL2, turned 6.9 degrees
    "test/s05_f3.jpg",  # mixed light, shifted 9 px both ways
    "test/s10_f5.jpg",  # D50, on nodes of its colours: which way it lies, from its paper
    "test/s11_f5.jpg",  # mixed light, shifted 7 and 4 px
]


def test_independent_frames_are_right_with_the_lattice_of_the_first(independent):
    truth, cal = independent
    seen = []
    for name in PAIRS:
        rec = truth[name]
        reader = NodeReader(cal)
        reader.find(cv2.imread(str(NODE / "test" / f"{rec['setup']}_f0.jpg")))
        before, after = cv2.imread(str(NODE / rec["before"])), cv2.imread(str(NODE / name))
        new = rec["new_card"]
        cells = {tuple(c): k for c, k in zip(new["cells"], new["colours"], strict=True)}
        seen.append((name, outcome(reader.read(before, after), cells)))
        assert reader.read(after, before).status != "placed", name  # a card taken away
    assert [s for s in seen if s[1] != "right"] == [], seen


@pytest.mark.parametrize(
    "name",
    ["test/s00_f0.jpg", "test/s05_f0.jpg", "test/s14_f1.jpg", "test/s23_f1.jpg"],
    # a hand over the mat; mixed light; a hand over its top edge; mixed light and a hand
    # hiding most of its bottom line
)
def test_the_lattice_is_found_where_it_lies(independent, name):
    truth, cal = independent
    g = truth[name]["grid_geometry"]
    centre, col, row = (np.array(g[k]) for k in ("cell00_centre", "col_step", "row_step"))
    found = NodeReader(cal).find(cv2.imread(str(NODE / name)))
    cells = [(0, 0), (12, 0), (0, 8), (12, 8), (6, 4)]
    want = np.array([centre + c * col + r * row for c, r in cells])
    got = found.to_frame([(c + 0.5, r + 0.5) for c, r in cells])
    assert np.abs(got - want).max() < 1.5, (got, want)


def test_independent_calibration_learns_one_prototype_per_colour(independent):
    _, cal = independent
    assert cal.colours == ("blue", "green", "purple", "red", "yellow")
    assert len(cal.prototypes) == 5 and {p.set for p in cal.prototypes} == {"node"}
    assert (cal.grid.cols, cal.grid.rows) == (13, 9) and cal.dark_lines
    assert abs(cal.grid.pitch - 30) < 0.3
