"""What the camera set-up screen edits, without the screen: the cards' plan over the zones,
colours learnt on a table with no set-up yet, files replaced atomically, set-ups made for
another frame size."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from companion.games.node.camera_setup import NodeSetup
from companion.ui.calib_geometry import Rect
from companion.ui.camera_setup.base import write_atomically
from companion.ui.camera_setup.cards import CardsSetup
from companion.ui.camera_setup.tabs import card_sets
from vision import calibration
from vision.errors import CalibrationError


def test_the_cards_spread_over_the_zones_in_order(tmp_path):
    setup = CardsSetup(tmp_path / "c.json", (640, 480), card_sets(), seats=3)
    assert setup.zones() == ["seat1", "seat2", "seat3", "centre"]
    assert setup.plan() == {  # five colours over four zones: two in the first
        "seat1": ("blue", "green"),
        "seat2": ("orange",),
        "seat3": ("pink",),
        "centre": ("purple",),
    }
    setup.next_choice()  # each game's sets together: Color Milk's backs, then Laser's
    assert setup.choice() == "Cards: backs"
    assert set(setup.plan().values()) == {("back",)}
    setup.next_choice()
    assert setup.choice() == "Cards: Laser"
    plan = setup.plan()
    assert [len(c) for c in plan.values()] == [2, 2, 1, 1]
    assert [c for cs in plan.values() for c in cs] == [
        "red", "yellow", "green", "cyan", "blue", "magenta"
    ]  # fmt: skip
    setup.set_seats(9)
    assert setup.seats == 5 and "seat5" in setup.shapes
    setup.set_seats(0)
    assert setup.seats == 1 and "seat2" not in setup.shapes


def test_a_set_up_made_for_another_frame_size_is_scaled(tmp_path):
    from vision.render.tray_geometry import scene_calibration

    path = tmp_path / "c.json"
    small = replace(scene_calibration((320, 240)), card_zones=(("seat1", (10, 120, 60, 100)),))
    calibration.save(path, small)
    setup = CardsSetup(path, (640, 480), card_sets())
    assert setup.shapes["seat1"] == Rect(20, 240, 120, 200)
    assert setup.shapes["tray"] == Rect(*(2 * v for v in small.tray_roi))
    assert setup.calibration().frame_size == (640, 480)


def test_old_colours_stay_unless_learnt_again(tmp_path):
    from vision.render.cards import seat_calibration
    from vision.render.tray import BALL_COLOURS, render_tray

    path = tmp_path / "c.json"
    old = seat_calibration()
    calibration.save(path, old)
    setup = CardsSetup(path, (640, 480), card_sets())
    empty = render_tray([], "daylight", 3)
    said = setup.learn(empty, render_tray(list(BALL_COLOURS), "daylight", 3))
    assert said.startswith("Learnt balls B G O Pk Pu."), said
    assert "Missing: seat1: no card" in said  # the cards were not laid
    new = setup.calibration()
    for colour in ("red", "cyan", "magenta", "back"):  # never learnt here: kept as they were
        assert [p for p in new.prototypes if p.colour == colour] == [
            p for p in old.prototypes if p.colour == colour
        ]
    # the balls learnt again replace the old balls; the cards of each game stay their own
    blue = {p.set: p for p in new.prototypes if p.colour == "blue"}
    assert sorted(blue) == ["balls", "color-milk", "laser"]
    assert blue["balls"] != next(
        p for p in old.prototypes if p.set == "balls" and p.colour == "blue"
    )
    assert blue["laser"] in old.prototypes and blue["color-milk"] in old.prototypes


def test_a_file_is_replaced_whole_and_the_old_one_kept(tmp_path):
    path = tmp_path / "sub" / "ring-calibration.json"
    write_atomically(path, '{"a": 1}')
    assert json.loads(path.read_text()) == {"a": 1}
    assert not (tmp_path / "sub" / "ring-calibration.previous.json").exists()
    write_atomically(path, '{"a": 2}')
    assert json.loads(path.read_text()) == {"a": 2}
    assert json.loads((tmp_path / "sub" / "ring-calibration.previous.json").read_text()) == {"a": 1}
    assert sorted(p.name for p in path.parent.iterdir()) == [
        "ring-calibration.json",
        "ring-calibration.previous.json",
    ]


def test_node_colours_learnt_on_a_table_with_no_set_up(tmp_path):
    from vision.node.calibration import NodeCalibration
    from vision.node.reader import NodeReader
    from vision.render.node import LaidCard, default_layout, nudged, render_node_table

    path = tmp_path / "node.json"
    setup = NodeSetup(path, (640, 480))
    with pytest.raises(CalibrationError, match="no Node colours known yet"):
        setup.accept()
    assert not path.exists()
    layout = default_layout()
    laid = [
        LaidCard((("red", "yellow", "green"), ("blue", "purple", "red")), 3, 4, 0.1, -0.1, 4),
        LaidCard((("purple", "blue"), ("green", "yellow"), ("red", "purple")), 6, 12, 0, 0.2, -5),
    ]
    for k, card in enumerate(laid):
        empty = render_node_table([], "tungsten", 40 + k, layout)
        found = setup.find_card(empty, render_node_table([card], "tungsten", 40 + k, layout))
        assert found.shape == card.shape
        if k == 0:
            assert set(found.guesses) == {"grey"}  # nothing known to guess with
        else:  # the first card's colours already name the second's nodes
            assert found.guesses == tuple(c for row in card.colours for c in row)
        said = setup.learn_named(found, [c for row in card.colours for c in row])
    assert said == "Learnt blue, green, purple, red, yellow from 6 nodes. Every colour known."
    assert setup.labels() == {"table": "lattice found: 20 x 14 nodes"}
    setup.accept()

    cal = NodeCalibration.load(path)
    card = LaidCard((("green", "red", "blue"), ("yellow", "yellow", "purple")), 2, 3, 0, 0, 3)
    moved = nudged(layout, 7, -5, 3, 1.03)  # a later game night: the camera was nudged
    for light in ("daylight", "tungsten", "overcast"):
        before = render_node_table([], light, 70, moved)
        reading = NodeReader(cal).read(before, render_node_table([card], light, 70, moved))
        assert (reading.status, reading.colours) == ("placed", card.colours), (light, reading)
        assert (reading.row, reading.col) == (2, 3)


def test_no_card_or_no_lattice_found_is_said(tmp_path):
    import numpy as np

    from vision.classify import Prototype
    from vision.render.node import render_node_table

    setup = NodeSetup(tmp_path / "node.json", (640, 480))
    empty = render_node_table([], "daylight", 5)
    assert setup.find_card(None, empty).startswith("First take the Empty table")
    assert setup.find_card(empty, empty) == "No card found: no card was laid."
    with pytest.raises(CalibrationError, match="no printed lattice found"):
        setup.find_card(np.full((480, 640, 3), 90, np.uint8), empty)
    fresh = NodeSetup(tmp_path / "other.json", (640, 480))
    fresh.learnt = (Prototype("red", (45.0, 60.0, 40.0), 2.0, 1, "node"),)
    with pytest.raises(CalibrationError, match="take the Empty table"):
        fresh.accept()  # colours, but no lattice found yet on a real camera


def test_the_floors_learnt_on_the_set_up_read_competitive_cards(tmp_path):
    from vision.card_zones import ZoneReader
    from vision.floor_texture import FLOORS
    from vision.render.cards import CENTRE, empty_table, render_seats, seat_calibration
    from vision.render.tray import LASER_COLOURS

    path = tmp_path / "c.json"
    calibration.save(path, replace(seat_calibration(), floors={}))
    setup = CardsSetup(path, (640, 480), card_sets())
    while setup.choice() != "Cards: Laser floors":
        setup.next_choice()
    assert setup.plan() == {"centre": FLOORS}
    assert setup.labels()["centre"] == "centre: wood carpet ceramic"
    empty = setup.scene(False, 0)
    said = setup.learn(empty, empty)  # nothing laid yet: nothing learnt, and why
    assert said == "Nothing learnt. Missing: lay one card of each floor " + (
        "(wood, carpet, ceramic) in centre: 0 card(s) seen."
    ), said
    said = setup.learn(empty, setup.scene(True, 1))  # the balls laid in the tray too
    assert said == "Learnt balls B G O Pk Pu; floors wood, carpet, ceramic.", said
    setup.accept()

    cal = calibration.load(path)
    assert set(cal.floors) == set(FLOORS)
    cards = ["cyan:ceramic", "yellow:wood", "magenta:carpet"]
    reader = ZoneReader(
        cal,
        LASER_COLOURS,
        zones=[CENTRE],
        background=empty_table("tungsten", 90),
        floors=FLOORS,
        colour_set="laser",
    )
    (view,) = reader.read(render_seats({CENTRE: cards}, "tungsten", 90, frame=1, angle=12))
    read = [c.floor for c in sorted(view.cards, key=lambda c: c.box[0])]
    assert read == ["ceramic", "wood", "carpet"], read


def test_the_tabs_are_the_shared_one_and_each_game_s_own():
    from companion.ui.camera_setup.tabs import tabs
    from tests.sixth_game.catalogue import sixth_game_in_catalogue

    assert [t.title for t in tabs()] == ["Balls & cards", "Laser ring", "Node table"]
    with sixth_game_in_catalogue():  # a game found by the catalogue adds its own
        assert [t.kind for t in tabs()] == ["cards", "ring", "node", "colour-race-die"]
    assert [(s.name, s.colour_set) for s in card_sets()] == [
        ("Color Milk", "color-milk"),
        ("backs", "color-milk"),
        ("Laser", "laser"),
        ("Laser floors", ""),
    ]
