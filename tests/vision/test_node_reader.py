"""The Node placement reader on rendered tables: every placement right or asked, never a
silent misread; a hand in view or a knocked table gives no reading. (The >= 500 placement
sweep is benchmarks/node_reader.py; this is a smaller sample of the same games.)"""

from collections import Counter

import cv2
import numpy as np
import pytest

from companion.games.node.simtable import random_placements
from vision.errors import CalibrationError
from vision.node_reader import NodeCalibration, NodeReader
from vision.node_watch import NodeWatcher
from vision.render import LIGHTS
from vision.render_node import Hand, LaidCard, render_node_table, rendered_node_calibration


@pytest.fixture(scope="module")
def reader():
    return NodeReader(rendered_node_calibration())


def outcome(reading, laid) -> str:
    right = reading.colours == laid.colours and (reading.row, reading.col) == (laid.row, laid.col)
    if reading.status == "placed":
        return "right" if right else f"MISREAD {reading} for {laid}"
    return reading.status


def test_placements_in_real_games_under_every_light_are_right_or_asked(reader):
    seen = Counter()
    for table, _state, _want, laid in random_placements(len(LIGHTS) * 6, seed=5, deck=6):
        reading = reader.read(table.frame(cards=table.cards[:-1]), table.frame())
        seen[outcome(reading, laid)] += 1
        seen[table.light] += 1
    assert not [k for k in seen if k.startswith("MISREAD")], seen
    assert all(seen[light] == 6 for light in LIGHTS)  # every light, cards over cards
    assert seen["right"] >= 0.8 * len(LIGHTS) * 6, seen  # asking is not a way out


@pytest.mark.parametrize("light", ["tungsten", "shadow", "dim"])
@pytest.mark.parametrize("angle", [-10.0, 10.0])
@pytest.mark.parametrize("dx,dy", [(1 / 3, 1 / 3), (-1 / 3, 1 / 3), (1 / 3, -1 / 3)])
def test_cards_a_third_of_a_node_and_ten_degrees_off_the_grid(reader, light, angle, dx, dy):
    tall = LaidCard((("red", "blue"), ("yellow", "green"), ("purple", "red")), 4, 8, dx, dy, angle)
    wide = LaidCard((("green", "green", "blue"), ("yellow", "purple", "red")), 7, 9, dx, dy, angle)
    for card in (tall, wide):
        reading = reader.read(
            render_node_table([], light, 11), render_node_table([card], light, 11, frame=1)
        )
        assert outcome(reading, card) in ("right", "ask"), reading


def test_a_node_of_a_colour_not_in_the_game_is_asked(reader):
    card = LaidCard((("red", "orange", "blue"), ("yellow", "green", "purple")), 6, 6, 0.1, 0, 3)
    reading = reader.read(
        render_node_table([], "daylight", 2), render_node_table([card], "daylight", 2, frame=1)
    )
    assert reading.status == "ask" and "unsure of 1 node" in reading.reason
    assert reading.confidence[0][1] < 0.8


def test_a_hand_over_the_table_or_a_knock_is_no_reading(reader):
    old = LaidCard((("red", "blue", "green"), ("yellow", "yellow", "purple")), 6, 8)
    new = LaidCard((("yellow", "red", "red"), ("blue", "green", "green")), 5, 10, 0.2, 0.1, -6)
    before = render_node_table([old], "warm-led", 3)
    for side in ("bottom", "left", "top"):
        hand = render_node_table([old, new], "warm-led", 3, frame=1, hand=Hand((330, 220), side))
        assert reader.read(before, hand).status == "unsteady"
        # even without the edge of the view, the change is no card's
        square = reader.read_squared(reader.square(before), reader.square(hand))
        assert square.status == "unsteady", square
    knocked = cv2.warpAffine(
        render_node_table([old, new], "warm-led", 3, frame=2),
        np.float32([[1, 0, 6], [0, 1, 4]]),
        (640, 480),
        borderMode=cv2.BORDER_REPLICATE,
    )
    assert reader.read(before, knocked).status == "unsteady"
    assert reader.read(before, render_node_table([old], "warm-led", 3, frame=3)).status == (
        "nothing"
    )


def test_the_watcher_reads_once_the_hand_has_gone_and_the_table_is_still(reader):
    cards = [LaidCard((("red", "blue", "green"), ("yellow", "yellow", "purple")), 6, 8)]
    new = LaidCard((("yellow", "red"), ("red", "blue"), ("green", "green")), 4, 10, -0.2, 0.3, 8)
    watcher = NodeWatcher(reader)
    watcher.reset(render_node_table(cards, "fluorescent", 4))
    frames = [
        render_node_table(cards, "fluorescent", 4, frame=1, hand=Hand((300, 200), "right")),
        render_node_table(cards + [new], "fluorescent", 4, frame=2, hand=Hand((330, 180))),
        render_node_table(cards + [new], "fluorescent", 4, frame=3, hand=Hand((340, 210))),
    ]
    assert [watcher.feed(f) for f in frames] == [[], [], []]
    # a hand resting still in view is steady, but no card: it waits and says why
    assert watcher.feed(frames[-1]) == [] and "hand" in watcher.waiting
    still = [render_node_table(cards + [new], "fluorescent", 4, frame=4 + i) for i in range(4)]
    readings = [r for f in still for r in watcher.feed(f)]
    assert len(readings) == 1 and outcome(readings[0], new) == "right", readings


def test_calibration_round_trip_and_damage(tmp_path):
    cal = rendered_node_calibration()
    path = tmp_path / "node.json"
    cal.save(path)
    assert NodeCalibration.load(path) == cal and cal.grid == (20, 14)
    for text, why in (
        ("{", "not JSON"),
        ('{"format": "table-companion-calibration"}', "not a Node table calibration"),
        ('{"format": "node-table-calibration", "pitch": 20}', "without 'corners'"),
    ):
        path.write_text(text)
        with pytest.raises(CalibrationError, match=why):
            NodeCalibration.load(path)
    data = cal.to_json() | {"pitch": -3}
    with pytest.raises(CalibrationError, match="positive pitch"):
        NodeCalibration.from_json(data)


@pytest.mark.parametrize("row,col", [(0, 0), (0, 17), (11, 0), (11, 17), (12, 17)])
def test_cards_at_the_edges_of_the_table_are_right_or_asked(reader, row, col):
    wide = (("blue", "red", "yellow"), ("green", "purple", "red"))
    tall = (("red", "blue"), ("green", "green"), ("yellow", "purple"))
    seen = []
    for colours in (wide, tall):
        if row + len(colours) > 14 or col + len(colours[0]) > 20:
            continue
        for dx, dy, angle in ((-1 / 3, -1 / 3, -10), (1 / 3, 1 / 3, 10)):
            card = LaidCard(colours, row, col, dx, dy, angle)
            reading = reader.read(
                render_node_table([], "shadow", 6), render_node_table([card], "shadow", 6, frame=1)
            )
            seen.append(outcome(reading, card))
    assert set(seen) <= {"right", "ask"} and "right" in seen, seen
