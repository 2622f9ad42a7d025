"""The camera set-up screen on the simulated table, driven by synthetic fingers in an 800x480
window: the regions are dragged, colours learnt from the rendered table, and what Accept
writes loads back and reads rendered tables right; Cancel leaves the files as they were."""

from __future__ import annotations

import time

import cv2
import pytest

from companion import paths
from companion.ui import sizes
from companion.ui.app import Root
from companion.ui.calib_geometry import MOVE, handles
from companion.ui.context import AppContext
from companion.ui.render import pump
from companion.ui.widgets import BigButton, ColourButton
from tests.capability import patience
from tests.ui.fingers import centre, drag, off_window, on_window, tap

pytestmark = pytest.mark.ui


class Finger:
    """Taps and drags on the window, each a little later than the one before."""

    def __init__(self, root) -> None:
        self.root = root
        self.at = 1000.0

    def button(self, text: str) -> None:
        screen = self.root.get_screen(self.root.current)
        hits = [w for w in screen.walk() if isinstance(w, BigButton) and w.text == text]
        assert hits, f"no button {text!r} on {self.root.current}"
        assert not hits[0].disabled, f"{text!r} is disabled"
        self.at += 1
        tap(*centre(hits[0]), at=self.at)

    def widget(self, w) -> None:
        self.at += 1
        tap(*centre(w), at=self.at)

    def drag(self, start, end, steps: int = 6) -> None:
        (x0, y0), (x1, y1) = start, end
        points = [
            (x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps) for k in range(steps + 1)
        ]
        self.at += 1
        drag(points, at=self.at)


def until(check, timeout: float = 30.0, what: str = "") -> None:
    """Pump the Kivy clock until `check()` holds: `timeout` is a bound against a hang, sized
    on the development machine and stretched on a slower one."""
    timeout = patience(timeout)
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, f"waited {timeout:.0f} s for {what or check}"
        pump(1)
        time.sleep(0.02)


def frames_after(screen, n: int = 2) -> None:
    """Wait until the camera has taken `n` frames since now (the one in capture may show
    the table as it was) and the picture shows one of them."""
    start = screen.camera.latest().seq
    until(lambda: screen._seen >= start + n, what="new camera frames")


def take_empty(screen, finger) -> None:
    """Tap "Empty table" once the picture is up, as a person would."""
    until(lambda: screen._frame() is not None, what="the camera's picture")
    finger.button("Empty table")
    assert screen.status_text.startswith("Empty table taken"), screen.status_text


@pytest.fixture
def opened(data_dir):
    ctx = AppContext.open(data_dir, simulate=True)
    root = Root(ctx)
    on_window(root)
    finger = Finger(root)
    root.current = "settings"
    pump()
    finger.button("Camera set-up")
    screen = root.get_screen("camera_setup")
    assert root.current == "camera_setup"
    until(  # a frame taken, and drawn on the screen's next tick (late on a busy machine)
        lambda: (
            screen.ready and screen._frame() is not None and screen.ids.overlay.texture is not None
        ),
        what="the set-up and a picture",
    )
    try:
        yield ctx, root, screen, finger
    finally:
        root.current = "settings"  # leaving stops the camera
        pump()
        off_window(root)
        ctx.log.close()


def on_screen(screen, shape: str, handle: str):
    """Where a handle of a shape is drawn, in window pixels."""
    overlay = screen.ids.overlay
    point = handles(screen.setup.shapes[shape])[handle]
    return overlay.to_window(*overlay.view.to_screen(point))


def learn_laid_set(screen, finger, empty_first: bool) -> str:
    if empty_first:
        take_empty(screen, finger)
    finger.button("Lay the set (simulated)")
    frames_after(screen)
    finger.button("Learn colours")
    return screen.status_text


def test_the_picture_is_live_only_while_the_screen_is_shown(opened):
    _, root, screen, _ = opened
    assert screen.camera is not None and screen.ids.overlay.texture is not None
    frames_after(screen)  # keeps coming
    root.current = "settings"
    pump()
    assert screen.camera is None and screen._poll is None


def test_zones_dragged_by_finger_and_learnt_colours_are_saved_and_read_right(opened, docs_shot):
    from vision import calibration
    from vision.balls import BallReader
    from vision.card_zones import ZoneReader
    from vision.doctor import calibration_path
    from vision.render.cards import empty_table, render_seats
    from vision.render.tray import BALL_COLOURS

    ctx, root, screen, finger = opened
    setup = screen.setup
    scale = screen.ids.overlay.view.scale
    # the centre zone: moved by its inside, then its bottom-right corner pulled out
    before = setup.shapes["centre"]
    finger.drag(
        on_screen(screen, "centre", MOVE), _plus(on_screen(screen, "centre", MOVE), 30, -15)
    )
    moved = setup.shapes["centre"]
    assert screen.ids.overlay.selected == "centre"
    assert moved.x - before.x == pytest.approx(30 / scale, abs=1)
    assert moved.y - before.y == pytest.approx(15 / scale, abs=1)  # down the screen: down the frame
    assert (moved.w, moved.h) == (before.w, before.h)
    # and back where the table has it
    finger.drag(
        on_screen(screen, "centre", MOVE), _plus(on_screen(screen, "centre", MOVE), -30, 15)
    )
    moved = setup.shapes["centre"]
    assert (moved.x, moved.y) == pytest.approx((before.x, before.y), abs=1)
    finger.drag(on_screen(screen, "centre", "br"), _plus(on_screen(screen, "centre", "br"), 12, -9))
    grown = setup.shapes["centre"]
    assert (grown.x, grown.y) == (moved.x, moved.y)
    assert grown.w - moved.w == pytest.approx(12 / scale, abs=1)
    assert screen.unsaved
    # a zone per seat: one less, then back
    finger.button("-")
    assert "seat5" not in setup.shapes and screen.stepper_text == "4 seats"
    finger.button("+")
    assert "seat5" in setup.shapes

    said = learn_laid_set(screen, finger, empty_first=True)
    assert said.startswith("Learnt balls B G O Pk Pu; cards B G O Pk Pu."), said
    assert "Missing" not in said
    finger.button("Cards: Color Milk")  # past Color Milk's backs
    finger.button("Cards: backs")  # on to the six Laser colours, one a zone
    assert screen.choice_text == "Cards: Laser"
    frames_after(screen)
    finger.button("Learn colours")
    assert "cards B C G M R Y" in screen.status_text, screen.status_text

    shot = cv2.imread(str(docs_shot(root, "camera-setup")))
    x0, y0, w, h = (int(v) for v in screen.ids.overlay.view.picture)
    picture = shot[480 - y0 - h : 480 - y0, x0 : x0 + w]
    assert picture.std() > 20  # the table is drawn, not an empty box
    on_window(root)  # back on the window after the picture
    path = calibration_path(ctx.data_dir)
    assert not path.exists()  # nothing is written before Accept
    finger.button("Accept")
    assert "Saved camera-calibration.json" in screen.status_text and not screen.unsaved
    cal = calibration.load(path)
    assert cal.zone("centre") == grown.whole(setup.frame_size)
    assert set(cal.colours) == set(BALL_COLOURS) | {"red", "yellow", "cyan", "magenta"}

    # a table the screen never saw: other card positions, balls in another order
    plan = {"seat1": ["pink"], "seat2": ["orange"], "seat3": ["blue"], "seat5": ["purple"]}
    order = ["purple", "pink", "green", "blue", "orange"]
    frame = render_seats(plan, "daylight", 7, angle=8, balls=order)
    empty = empty_table("daylight", 7)
    tray = BallReader(cal, background=empty)
    for _ in range(len(order)):  # the balls all at rest at once: read in order from the end
        read = [e for _ in range(tray.agree) for e in tray.feed(frame)]
        if read:
            break
    assert [e.colour for e in read] == order and min(e.confidence for e in read) >= 0.8
    views = ZoneReader(cal, BALL_COLOURS, background=empty, colour_set="color-milk").read(frame)
    cards = {v.zone: c.colour for v in views for c in v.cards if c.confidence >= 0.8}
    assert cards == {z: c[0] for z, c in plan.items()}


def test_what_is_missing_is_said(opened):
    _, _, screen, finger = opened
    finger.button("Learn colours")
    assert screen.status_text.startswith("First take the Empty table")
    take_empty(screen, finger)
    finger.button("Learn colours")  # nothing laid yet
    said = screen.status_text
    assert said.startswith("Nothing learnt. Missing: seat1: no card;"), said
    assert "No colours known yet." in said


def test_cancel_leaves_the_saved_set_up_as_it_was(opened):
    from vision.doctor import calibration_path

    ctx, root, screen, finger = opened
    finger.button("Accept")
    path = calibration_path(ctx.data_dir)
    saved = path.read_bytes()
    tray = screen.setup.shapes["tray"]
    finger.drag(on_screen(screen, "tray", MOVE), _plus(on_screen(screen, "tray", MOVE), 40, 40))
    assert screen.setup.shapes["tray"] != tray and screen.unsaved
    finger.button("Cancel")
    assert root.current == "settings"
    assert path.read_bytes() == saved
    finger.button("Camera set-up")
    until(lambda: screen.ready, what="the set-up again")
    assert screen.setup.shapes["tray"] == tray and not screen.unsaved


def test_the_laser_ring_set_by_finger_reads_a_rendered_ring(opened):
    import random

    from vision.render.ring import render_ring
    from vision.render.ring_board import EMPTY_BOARD, random_board
    from vision.ring.calibration import load
    from vision.ring.reader import RingReader

    ctx, _, screen, finger = opened
    finger.button("Laser ring")
    until(lambda: screen.ready and screen.kind == "ring", what="the ring set-up")
    setup = screen.setup
    ring = setup.shapes["ring"]
    # the first tile taken a quarter round, and back
    start = on_screen(screen, "ring", "first")
    right = screen.ids.overlay.to_window(*screen.ids.overlay.view.to_screen(ring.at(0)))
    finger.drag(start, right)
    assert setup.shapes["ring"].first == pytest.approx(0, abs=2)
    finger.drag(on_screen(screen, "ring", "first"), start)
    assert setup.shapes["ring"].first == pytest.approx(-90, abs=2)
    # a radius pulled out, by a finger that landed half a touch target beside its handle
    rx = on_screen(screen, "ring", "rx")
    beside = _plus(rx, sizes.MIN_TOUCH / 2 - 2, 0)
    finger.drag(beside, _plus(beside, 20, 0))
    assert setup.shapes["ring"].radii[0] > ring.radii[0] + 10
    finger.drag(on_screen(screen, "ring", "rx"), rx)
    assert setup.shapes["ring"].radii[0] == pytest.approx(ring.radii[0], abs=2)

    said = learn_laid_set(screen, finger, empty_first=False)
    assert said.startswith("First take the Empty ring"), said
    finger.button("Take the set away (simulated)")
    frames_after(screen)
    said = learn_laid_set(screen, finger, empty_first=True)
    assert said.startswith("Learnt red, yellow, green, cyan, blue, magenta, cat."), said
    assert "Every colour known" in said
    finger.button("Accept")
    cal = load(paths.calibration_path(ctx.data_dir, "ring"))
    reader = RingReader(cal)
    right = asked = 0
    for seed in range(4):
        board = random_board(random.Random(500 + seed))
        reader.find(render_ring(EMPTY_BOARD, "daylight", 500 + seed))  # each game's ring
        reading = reader.read(render_ring(board, "daylight", 500 + seed))
        for k, tile in enumerate(board.tiles):
            if k in reading.asked:
                asked += 1
            else:
                assert reading.tiles[k] == tile, (seed, k, reading.tiles[k], tile)
                right += 1
    assert right >= 44 and asked <= 4, (right, asked)


def test_the_node_table_set_by_finger_reads_a_rendered_card(opened):
    from vision.node.calibration import NodeCalibration
    from vision.node.reader import NodeReader
    from vision.render.node import LaidCard, render_node_table

    ctx, _, screen, finger = opened
    finger.button("Node table")
    until(lambda: screen.ready and screen.kind == "node", timeout=60, what="the Node set-up")
    setup = screen.setup
    assert screen.stepper_text == ""  # nothing to step: the lattice is found, not measured
    finger.button("Accept")
    path = paths.calibration_path(ctx.data_dir, "node")
    cal = NodeCalibration.load(path)
    card = LaidCard((("red", "green", "blue"), ("yellow", "purple", "red")), 5, 7)
    before, after = render_node_table([], "daylight", 11), render_node_table([card], "daylight", 11)
    reading = NodeReader(cal).read(before, after)
    assert (reading.status, reading.row, reading.col) == ("placed", 5, 7), reading
    assert reading.colours == card.colours

    # the lattice is shown where it was found: a finger cannot drag it elsewhere
    quad = setup.shapes["table"]
    corner = on_screen(screen, "table", "c1")
    finger.drag(corner, _plus(corner, -25, -10))
    assert setup.shapes["table"] == quad

    # colours: the lattice found on the empty mat, the card laid on it found, its nodes
    # named by taps
    take_empty(screen, finger)
    finger.button("Lay the set (simulated)")
    frames_after(screen)
    finger.button("Learn colours")
    assert screen.status_text.startswith("Found a card of 2 x 3 nodes"), screen.status_text
    assert setup.labels() == {"table": "lattice found: 20 x 14 nodes"}
    chips = [w for w in screen.naming.walk() if isinstance(w, ColourButton)]
    laid = ["red", "yellow", "green", "blue", "purple", "red"]  # the simulated card
    assert [c.colour for c in chips] == laid  # the set-up in force reads them already
    finger.widget(chips[0])
    assert chips[0].colour == "yellow"  # the next colour
    for _ in range(len(setup.colours)):  # round the colours and "not named", back to red
        finger.widget(chips[0])
    assert chips[0].colour == "red"
    finger.widget(chips[1])
    finger.widget(chips[1])  # yellow -> green -> blue -> purple -> grey: left out
    finger.widget(chips[1])
    finger.widget(chips[1])
    assert chips[1].colour == "grey"
    naming = screen.naming
    finger.widget(next(w for w in naming.walk() if getattr(w, "text", "") == "Learn these"))
    until(lambda: naming.parent is None, what="the naming view to close")
    assert screen.status_text == (
        "Learnt blue, green, purple, red from 5 nodes (1 not named). Every colour known."
    ), screen.status_text
    assert screen.unsaved
    finger.button("Accept")
    again = NodeCalibration.load(path)
    assert {p.colour for p in again.prototypes} == set(cal.colours)
    assert again.prototypes != cal.prototypes  # the colours learnt now
    kept = NodeCalibration.load(path.with_name("node-calibration.previous.json"))
    assert kept == cal


@pytest.fixture
def sixth_game():
    from tests.sixth_game.catalogue import sixth_game_in_catalogue

    with sixth_game_in_catalogue():
        yield


def test_a_game_brings_its_own_tab(sixth_game, opened):
    """The test-only sixth game's `camera_setup` module, and no shared file, gives the
    screen a tab: its button, its set-up opened, learnt from and saved."""
    import json

    ctx, _, screen, finger = opened
    tabs = [w.text for w in screen.ids.tabs.children[::-1]]
    assert tabs == ["Balls & cards", "Laser ring", "Node table", "Race die"]
    finger.button("Race die")
    until(lambda: screen.ready and screen.kind == "colour-race-die", what="the die's set-up")
    setup = screen.setup
    assert type(setup).__module__ == "companion.games.colour_race.camera_setup"
    assert screen.hint_text == setup.instructions() and list(setup.shapes) == ["die"]
    assert (screen.stepper_text, screen.choice_text) == ("", "")  # rows it does not use
    take_empty(screen, finger)
    assert (
        screen.status_text == "Empty table taken. Now lay the die in its tray, and Learn colours."
    )
    finger.button("Lay the set (simulated)")
    frames_after(screen)
    finger.button("Learn colours")
    assert screen.status_text == "Learnt the die: blue.", screen.status_text
    finger.button("Accept")
    saved = json.loads((ctx.data_dir / "race-die.json").read_text())
    assert saved["colour"] == "blue" and screen.status_text == "Saved race-die.json."


def _plus(p, dx, dy):
    return (p[0] + dx, p[1] + dy)


def test_every_button_is_big_enough_for_a_finger(opened):
    from tests.ui.test_touch_targets import small_buttons

    _, _, screen, finger = opened
    for tab, kind in (("Balls & cards", "cards"), ("Laser ring", "ring"), ("Node table", "node")):
        finger.button(tab)
        until(lambda kind=kind: screen.ready and screen.kind == kind, timeout=60, what=kind)
        assert small_buttons(screen) == [], (tab, small_buttons(screen))


def test_a_real_camera_of_another_size(data_dir, tmp_path):
    """A camera that is not the simulated table (here a folder of pictures, as the camera
    setting allows): the set-up takes the camera's frame size, and learns from its frames."""
    import os
    from dataclasses import replace

    from vision import calibration
    from vision.doctor import calibration_path
    from vision.render.cards import render_seats
    from vision.render.tray import BALL_COLOURS

    size = (320, 240)
    folder = tmp_path / "camera"
    folder.mkdir()

    def show(frame) -> None:  # what the camera looks at, replaced whole
        cv2.imwrite(str(folder / "next.png"), frame)
        os.replace(folder / "next.png", folder / "table.png")

    show(render_seats({}, "daylight", 4, size))
    ctx = AppContext.open(data_dir, simulate=False)
    ctx.save_settings(replace(ctx.settings, camera=str(folder)))
    root = Root(ctx)
    on_window(root)
    finger = Finger(root)
    try:
        root.current = "settings"
        pump()
        finger.button("Camera set-up")
        screen = root.get_screen("camera_setup")
        until(lambda: screen.ready and screen._frame() is not None, what="the camera")
        assert not screen.simulated and screen.setup.frame_size == size
        assert screen.ids.overlay.frame_size == size
        finger.button("Empty table")
        plan = screen.setup.plan()
        show(render_seats(plan, "daylight", 4, size, angle=8, balls=BALL_COLOURS))
        frames_after(screen, 3)
        finger.button("Learn colours")
        assert screen.status_text.startswith("Learnt balls B G O Pk Pu; cards"), screen.status_text
        finger.button("Accept")
        cal = calibration.load(calibration_path(ctx.data_dir))
        assert cal.frame_size == size and set(BALL_COLOURS) <= set(cal.colours)
    finally:
        root.current = "settings"
        pump()
        off_window(root)
        ctx.log.close()
