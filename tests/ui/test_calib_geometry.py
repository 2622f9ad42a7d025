"""The camera set-up's geometry, without Kivy: the letterboxed picture, which handle a touch
takes, and what a drag makes of each shape."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from companion.ui.calib_geometry import (
    MIN_SIDE,
    MOVE,
    Ellipse,
    Quad,
    Rect,
    Segment,
    View,
    drag,
    handles,
    hit,
    scaled,
    stretch,
)

FRAME = (640, 480)


def close(a, b, tol=1e-6) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def test_a_wide_box_puts_bars_left_and_right_and_the_frame_top_at_the_top():
    view = View(FRAME, (10, 20, 800, 400))
    assert view.scale == pytest.approx(400 / 480)
    x0, y0, w, h = view.picture
    assert (w, h) == pytest.approx((640 * 400 / 480, 400))
    assert x0 - 10 == pytest.approx((800 - w) / 2) and y0 == 20
    # frame y runs down, the screen's up: the frame's top-left is the picture's top-left
    assert close(view.to_screen((0, 0)), (x0, 420))
    assert close(view.to_screen((640, 480)), (x0 + w, 20))


def test_a_tall_box_puts_bars_above_and_below():
    view = View(FRAME, (0, 0, 320, 600))
    x0, y0, w, h = view.picture
    assert (x0, w, h) == pytest.approx((0, 320, 240)) and y0 == pytest.approx(180)
    assert not view.inside((160, 100)) and view.inside((160, 300))


@pytest.mark.parametrize("box", [(0, 0, 800, 424), (37, 11, 300, 700), (5, 5, 640, 480)])
def test_frame_and_screen_points_go_back_and_forth(box):
    view = View(FRAME, box)
    for p in [(0, 0), (640, 480), (123.5, 377.25), (600, 10)]:
        assert close(view.to_frame(view.to_screen(p)), p, 1e-9)


def test_a_touch_takes_the_nearest_handle_within_reach():
    shapes = {
        "ring": Ellipse((300, 240), (150, 100), -90),
        "table": Quad(((10, 10), (200, 10), (200, 150), (10, 150))),
    }
    assert hit(shapes, (452, 238), reach=10) == ("ring", "rx")
    assert hit(shapes, (300, 175), reach=10) == ("ring", "first")  # -90: towards the top
    assert hit(shapes, (300, 339), reach=10) == ("ring", "ry")
    assert hit(shapes, (195, 14), reach=10) == ("table", "c1")
    assert hit(shapes, (195, 14), reach=5) is None  # out of reach, and inside no box
    assert hit(shapes, (100, 100), reach=10) is None


def test_a_box_shows_its_corners_only_while_selected_and_always_its_centre():
    zones = {"seat1": Rect(0, 200, 100, 200), "seat2": Rect(104, 200, 100, 200)}
    # by the shared edge, nothing selected: neither box's corner, the inside of seat2
    assert hit(zones, (106, 202), reach=20) == ("seat2", MOVE)
    assert hit(zones, (106, 202), reach=20, prefer="seat1") == ("seat1", "tr")
    assert hit(zones, (106, 202), reach=20, prefer="seat2") == ("seat2", "tl")
    assert hit(zones, (102, 300), reach=1) is None  # between the boxes
    assert hit(zones, (52, 297), reach=20) == ("seat1", MOVE)  # its centre handle
    assert set(handles(zones["seat1"], selected=False)) == {MOVE}
    assert set(handles(zones["seat1"])) == {"tl", "tr", "br", "bl", MOVE}


def test_the_selected_shape_wins_a_close_call():
    shapes = {"a": Segment((100, 100), (200, 100)), "b": Segment((108, 100), (300, 100))}
    assert hit(shapes, (103, 100), reach=20) == ("a", "a")
    assert hit(shapes, (103, 100), reach=20, prefer="b") == ("b", "a")
    assert hit(shapes, (101, 100), reach=20, prefer="b") == ("a", "a")  # not a close call


def test_a_touch_inside_boxes_takes_the_smallest():
    shapes = {"tray": Rect(0, 0, 600, 200), "white": Rect(20, 20, 60, 40)}
    assert hit(shapes, (70, 30), reach=3) == ("white", MOVE)
    assert hit(shapes, (300, 150), reach=3) == ("tray", MOVE)


def test_a_box_moves_with_the_finger_and_stops_at_the_frame_edge():
    r = Rect(100, 100, 200, 50)
    assert drag(r, MOVE, (150, 120), (180, 100), FRAME) == Rect(130, 80, 200, 50)
    assert drag(r, MOVE, (150, 120), (900, -300), FRAME) == Rect(440, 0, 200, 50)
    assert drag(r, MOVE, (150, 120), (-900, 900), FRAME) == Rect(0, 430, 200, 50)


def test_a_corner_resizes_the_box_and_the_opposite_corner_stays():
    r = Rect(100, 100, 200, 50)
    assert drag(r, "br", (300, 150), (320, 170), FRAME) == Rect(100, 100, 220, 70)
    assert drag(r, "tl", (100, 100), (90, 60), FRAME) == Rect(90, 60, 210, 90)
    assert drag(r, "tr", (300, 100), (700, -50), FRAME) == Rect(100, 0, 540, 150)
    assert drag(r, "bl", (100, 150), (-20, 600), FRAME) == Rect(0, 100, 300, 380)


def test_a_corner_never_crosses_the_opposite_one():
    r = Rect(100, 100, 200, 50)
    shrunk = drag(r, "br", (300, 150), (0, 0), FRAME)
    assert shrunk == Rect(100, 100, MIN_SIDE, MIN_SIDE)
    shrunk = drag(r, "tl", (100, 100), (639, 479), FRAME)
    assert shrunk == Rect(300 - MIN_SIDE, 150 - MIN_SIDE, MIN_SIDE, MIN_SIDE)


def test_the_grab_offset_is_kept():
    """A finger that takes a handle a little off its centre does not make it jump."""
    r = Rect(100, 100, 200, 50)
    assert drag(r, "br", (305, 146), (305, 146), FRAME) == r


def test_the_ring_centre_radii_and_first_tile():
    ring = Ellipse((300, 240), (150, 100), -90)
    moved = drag(ring, "centre", (300, 240), (340, 200), FRAME)
    assert moved == Ellipse((340, 200), (150, 100), -90)
    assert drag(ring, "centre", (300, 240), (900, 900), FRAME).centre == (640, 480)
    assert drag(ring, "rx", (450, 240), (480, 260), FRAME).radii == (180, 100)
    assert drag(ring, "rx", (450, 240), (100, 240), FRAME).radii == (200, 100)  # past the centre
    assert drag(ring, "rx", (450, 240), (302, 240), FRAME).radii == (MIN_SIDE, 100)
    assert drag(ring, "ry", (300, 340), (300, 300), FRAME).radii == (150, 60)
    # the first tile follows the finger round the ellipse (angles in the ellipse's own terms)
    hand = handles(ring)["first"]
    assert hand == pytest.approx((300, 240 - 0.7 * 100))  # inside: never on a radius handle
    assert drag(ring, "first", hand, (450, 240), FRAME).first == pytest.approx(0)
    assert drag(ring, "first", hand, (300, 400), FRAME).first == pytest.approx(90)
    right_up = drag(ring, "first", hand, (300 + 150, 240 - 100), FRAME).first
    assert right_up == pytest.approx(-45)
    at_three = drag(ring, "first", hand, (450, 240), FRAME)
    assert hit({"ring": at_three}, (450, 240), reach=30) == ("ring", "rx")
    assert hit({"ring": at_three}, (405, 240), reach=30) == ("ring", "first")


def test_the_ring_slots_are_the_ring_calibrations():
    from vision.render.ring_board import ring_geometry
    from vision.ring.calibration import ellipse_tiles

    g = ring_geometry(FRAME)
    ring = Ellipse(g.centre, g.radii, 17.5)
    expected = ellipse_tiles(g.centre, g.radii, 17.5)
    assert all(close(a, b, 1e-9) for a, b in zip(ring.slots(), expected, strict=True))


def test_table_corners_stay_in_the_frame():
    quad = Quad(((10, 10), (200, 10), (200, 150), (10, 150)))
    assert drag(quad, "c2", (200, 150), (230, 170), FRAME).corners[2] == (230, 170)
    assert drag(quad, "c0", (10, 10), (-50, -50), FRAME).corners[0] == (0, 0)
    assert drag(quad, "c0", (10, 10), (-50, -50), FRAME).corners[1:] == quad.corners[1:]


def test_the_grid_follows_the_tables_perspective():
    corners = ((100, 80), (520, 60), (600, 420), (40, 400))
    quad = Quad(corners)
    expected = cv2.getPerspectiveTransform(
        np.float32([[0, 0], [20, 0], [20, 14], [0, 14]]), np.float32(corners)
    )
    assert np.allclose(quad.homography(20, 14), expected / expected[2, 2], atol=1e-6)
    lines = quad.grid_lines(20, 14)
    assert len(lines) == 21 + 15
    assert close(lines[0][0], corners[0], 1e-6) and close(lines[0][1], corners[3], 1e-6)
    assert close(lines[20][1], corners[2], 1e-6) and close(lines[21][1], corners[1], 1e-6)
    flat = Quad(((0, 0), (0, 0), (0, 0), (0, 0)))
    assert flat.grid_lines(3, 2) == []  # nothing to draw, no error


def test_the_card_edge_and_its_stepper():
    edge = Segment((100, 100), (160, 180))
    assert edge.length == pytest.approx(100)
    assert drag(edge, "b", (160, 180), (170, 190), FRAME) == Segment((100, 100), (170, 190))
    assert drag(edge, "a", (100, 100), (-10, 50), FRAME) == Segment((0, 50), (160, 180))
    longer = stretch(edge, 150)
    assert longer.a == edge.a and longer.length == pytest.approx(150)
    assert close(longer.b, (190, 220), 1e-9)  # same direction
    assert stretch(Segment((5, 5), (5, 5)), 30).b == (35, 5)


def test_shapes_follow_a_frame_of_another_size():
    assert scaled(Rect(10, 20, 30, 40), 2, 0.5) == Rect(20, 10, 60, 20)
    ring = scaled(Ellipse((100, 100), (50, 40), 12), 2, 1)
    assert ring == Ellipse((200, 100), (100, 40), 12)
    assert scaled(Segment((1, 2), (3, 4)), 2, 3) == Segment((2, 6), (6, 12))
    assert scaled(Quad(((0, 0), (10, 0), (10, 10), (0, 10))), 2, 2).corners[2] == (20, 20)


def test_a_box_in_whole_pixels_inside_the_frame():
    assert Rect(10.4, 20.6, 30.2, 40.1).whole(FRAME) == (10, 21, 31, 40)
    assert Rect(-5, -5, 20, 20).whole(FRAME) == (0, 0, 15, 15)
    assert Rect(630, 470, 50, 50).whole(FRAME) == (630, 470, 10, 10)
    x, y, w, h = Rect(639.9, 479.9, 0.01, 0.01).whole(FRAME)
    assert w >= 1 and h >= 1 and x + w <= 640 and y + h <= 480
    assert math.isclose(View(FRAME, (0, 0, 0, 0)).scale, 1e-9)
