"""Card zones read as a whole on rendered tables: face-up colours, face-down backs, a hand,
a shadow, cards turned +/-20 degrees, cards edge to edge."""

from collections import Counter

import numpy as np
import pytest

from companion.settings import Settings
from vision.card_zones import ZoneReader
from vision.render.cards import BACK, empty_table, render_seats, seat_calibration
from vision.render.tray import BALL_COLOURS, LIGHTS

CM = "color-milk"  # the set of prediction card colours

ASK = Settings().ask_threshold


@pytest.fixture(scope="module")
def cal():
    return seat_calibration()


def views(cal, seats, light, seed, **kw):
    reader = ZoneReader(cal, BALL_COLOURS, background=empty_table(light, seed), colour_set=CM)
    return {v.zone: v for v in reader.read(render_seats(seats, light, seed, frame=1, **kw))}


@pytest.mark.parametrize("light", LIGHTS)
def test_every_card_is_right_or_asked_under_each_light(cal, light):
    rng = np.random.default_rng(LIGHTS.index(light))
    for seed in range(3):
        seats = {
            f"seat{i}": [str(c) for c in rng.choice(BALL_COLOURS, rng.integers(1, 6), False)]
            for i in range(1, 6)
        }
        shadow = f"seat{seed + 1}"
        got = views(cal, seats, light, 300 + seed, shadow=shadow)
        for zone, want in seats.items():
            v = got[zone]
            assert not v.blocked and not v.unreadable and len(v.cards) == len(want), zone
            sure = [c.colour for c in v.cards if c.confidence >= ASK]
            assert not Counter(sure) - Counter(want), f"{light} {zone}: {sure} not in {want}"


def test_a_card_back_is_face_down_never_a_colour(cal):
    for light in LIGHTS:
        v = views(cal, {"seat2": [BACK, BACK, "pink"]}, light, 40)["seat2"]
        assert sorted((c.colour, c.face_down) for c in v.cards) == [
            ("", True),
            ("", True),
            ("pink", False),
        ]


def test_a_hand_over_a_zone_hides_only_what_it_covers_and_is_never_a_colour(cal):
    seats = {"seat3": ["blue", "green"], "seat4": ["orange"]}
    for light in LIGHTS:
        got = views(cal, seats, light, 41, hand="seat3")
        hand = got["seat3"]
        # the zone says a hand is in it (it may hide cards), and what shows of the hand is
        # never a clean colour of its own: at most the blue card it leaves in view
        assert hand.covered, light
        assert [c.colour for c in hand.cards if c.confidence >= ASK] in ([], ["blue"]), light
        assert not got["seat4"].covered
        assert [c.colour for c in got["seat4"].cards] == ["orange"]


def test_cards_edge_to_edge_are_marked_touching_not_read_as_one(cal):
    for light in LIGHTS:
        v = views(cal, {"seat2": ["blue", "pink", "green"]}, light, 42, touch="seat2")["seat2"]
        assert any(c.touching and c.colour == "" for c in v.cards), light
        assert {c.colour for c in v.cards if not c.touching} <= {"green"}


def test_an_empty_zone_and_the_first_frame(cal):
    reader = ZoneReader(cal, BALL_COLOURS, colour_set=CM)
    assert reader.read(empty_table("daylight", 43)) == ()  # the first frame is the table
    assert all(v.cards == () and not v.blocked for v in reader.read(empty_table("daylight", 43)))


def test_a_covered_white_patch_leaves_the_table_to_go_by(cal):
    reader = ZoneReader(cal, BALL_COLOURS, background=empty_table("daylight", 44), colour_set=CM)
    frame = render_seats({"seat1": ["blue"]}, "daylight", 44, frame=1).copy()
    x, y, w, h = cal.white_roi
    frame[y : y + h, x : x + w] = (60, 90, 160)  # a hand on the patch
    views = {v.zone: v for v in reader.read(frame)}
    assert not any(v.blocked for v in views.values())
    assert [(c.colour, c.confidence >= ASK) for c in views["seat1"].cards] == [("blue", True)]
