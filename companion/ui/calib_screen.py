"""Camera set-up (Settings): the live picture with the regions the readers use drawn over
it, dragged into place with a finger; colours learnt from what the regions see; Accept saves
the set-up atomically, Cancel leaves the one in force untouched.

The camera runs only while this screen is shown, and the picture is redrawn a few times a
second at most. Geometry is `calib_geometry` (pure); what each table's set-up holds, learns
and saves is `calib_setups` (no Kivy; it loads OpenCV and the vision package, so it is
imported only when the screen opens).
"""

from __future__ import annotations

from pathlib import Path

from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.graphics.texture import Texture
from kivy.lang import Builder
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.ui import calib_geometry as geo
from companion.ui import colours, sizes
from companion.ui.widgets import text_texture
from companion.ui.worker import Worker

Builder.load_file(str(Path(__file__).with_name("kv") / "camera_setup.kv"))

FPS = 4  # the picture only has to follow a hand laying cards
SIM_SIZE = (640, 480)
HANDLE_DP = 8  # drawn radius of a handle; its touch area is MIN_TOUCH across
KIND_TITLES = {"cards": "Balls & cards", "ring": "Laser ring", "node": "Node table"}
SHAPE_COLOURS = {
    "tray": (0.3, 0.85, 0.95, 1),
    "white": (1, 1, 1, 1),
    "centre": (0.95, 0.4, 0.85, 1),
    "ring": (0.3, 0.85, 0.95, 1),
    "table": (0.3, 0.85, 0.95, 1),
    "pitch": (1.0, 0.55, 0.1, 1),
}
SEAT_COLOUR = (1.0, 0.7, 0.2, 1)
SELECTED = (1.0, 1.0, 0.2, 1)


class SetupOverlay(Widget):
    """The camera's picture, letterboxed, with the set-up's shapes; a finger takes the
    nearest handle within reach (MIN_TOUCH across) or the box it is inside, and drags it."""

    setup = ObjectProperty(None, allownone=True)
    selected = StringProperty("")

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.texture: Texture | None = None
        self.frame_size = SIM_SIZE
        self._drag = None  # (touch uid, shape name, handle, grab point, shape at grab)
        self._redraw = Clock.create_trigger(lambda _dt: self.redraw())
        self.bind(pos=self._redraw, size=self._redraw, setup=self._redraw, selected=self._redraw)
        self.on_change = None  # called after a drag moved something

    @property
    def view(self) -> geo.View:
        return geo.View(self.frame_size, (self.x, self.y, self.width, self.height))

    def show_frame(self, image) -> None:
        """A BGR frame from the camera becomes the picture."""
        h, w = image.shape[:2]
        if self.texture is None or tuple(self.texture.size) != (w, h):
            self.texture = Texture.create(size=(w, h), colorfmt="bgr")
            self.texture.flip_vertical()  # frames run top to bottom, textures bottom up
            self.frame_size = (w, h)
            self._redraw()
        self.texture.blit_buffer(image.tobytes(), colorfmt="bgr", bufferfmt="ubyte")
        self.canvas.ask_update()

    # drawing ----------------------------------------------------------------------------
    def redraw(self) -> None:
        self.canvas.clear()
        view = self.view
        px, py, pw, ph = view.picture
        with self.canvas:
            Color(0, 0, 0, 1)
            Rectangle(pos=self.pos, size=self.size)
            Color(1, 1, 1, 1)
            Rectangle(texture=self.texture, pos=(px, py), size=(pw, ph))
            if self.setup is None:
                return
            labels = self.setup.labels()
            for name, shape in self.setup.shapes.items():
                colour = SELECTED if name == self.selected else self._colour(name)
                self._draw(view, name, shape, colour, labels.get(name, ""))

    def _colour(self, name: str):
        if name.startswith("seat"):
            return SEAT_COLOUR
        if name in SHAPE_COLOURS:
            return SHAPE_COLOURS[name]
        return colours.rgba(name)  # the ring's colour cards

    def _draw(self, view, name, shape, colour, label) -> None:
        s = view.scale
        Color(*colour)
        if isinstance(shape, geo.Rect):
            x, top = view.to_screen((shape.x, shape.y))
            Line(rectangle=(x, top - shape.h * s, shape.w * s, shape.h * s), width=dp(1.5))
            self._label(label, x + dp(3), top - dp(3), colour)
        elif isinstance(shape, geo.Ellipse):
            self._ring(view, shape, colour)
        elif isinstance(shape, geo.Quad):
            cols, rows = self.setup.grid()
            Color(colour[0], colour[1], colour[2], 0.45)
            for a, b in shape.grid_lines(cols, rows):
                Line(points=[*view.to_screen(a), *view.to_screen(b)], width=1)
            Color(*colour)
            pts = [c for p in shape.corners for c in view.to_screen(p)]
            Line(points=pts, close=True, width=dp(1.5))
            x, y = view.to_screen(shape.corners[0])
            self._label(label, x + dp(12), y - dp(12), colour)
        else:
            a, b = view.to_screen(shape.a), view.to_screen(shape.b)
            Line(points=[*a, *b], width=dp(2))
            self._label(label, a[0] + dp(12), a[1] - dp(12), colour)
        for key, p in geo.handles(shape, name == self.selected).items():
            self._handle(view.to_screen(p), colour, key)

    def _ring(self, view, ring: geo.Ellipse, colour) -> None:
        s = view.scale
        (cx, cy), (rx, ry) = view.to_screen(ring.centre), ring.radii
        Line(ellipse=(cx - rx * s, cy - ry * s, 2 * rx * s, 2 * ry * s), width=dp(1.5))
        Color(*SELECTED)  # the hand from the centre to the first tile's handle
        Line(points=[cx, cy, *view.to_screen(geo.handles(ring)["first"])], width=dp(1.5))
        tile = self.setup.calibration().tile * s / 2
        for k, p in enumerate(ring.slots()):
            x, y = view.to_screen(p)
            Color(*(SELECTED if k == 0 else colour))
            Line(rectangle=(x - tile, y - tile, 2 * tile, 2 * tile), width=1)
            tex = text_texture(str(k + 1), sp(12))
            Rectangle(texture=tex, pos=(x - tex.width / 2, y - tile - tex.height), size=tex.size)
        Color(*colour)

    def _handle(self, p, colour, key: str) -> None:
        r = dp(HANDLE_DP)
        if key == geo.MOVE:  # a ring with a dot: the whole box goes where it is dragged
            Color(0, 0, 0, 0.7)
            Line(circle=(p[0], p[1], r), width=dp(3))
            Color(*colour)
            Line(circle=(p[0], p[1], r), width=dp(1.5))
            Ellipse(pos=(p[0] - r / 3, p[1] - r / 3), size=(2 * r / 3, 2 * r / 3))
            return
        Color(0, 0, 0, 0.7)
        Ellipse(pos=(p[0] - r - dp(2), p[1] - r - dp(2)), size=(2 * r + dp(4),) * 2)
        Color(*(SELECTED if key == "first" else colour))
        Ellipse(pos=(p[0] - r, p[1] - r), size=(2 * r, 2 * r))

    def _label(self, text: str, x: float, top: float, colour) -> None:
        if not text:
            return
        tex = text_texture(text, sp(13), colour)
        Color(0, 0, 0, 0.6)
        Rectangle(pos=(x - dp(2), top - tex.height), size=(tex.width + dp(4), tex.height))
        Color(1, 1, 1, 1)
        Rectangle(texture=tex, pos=(x, top - tex.height), size=tex.size)

    # fingers ----------------------------------------------------------------------------
    def on_touch_down(self, touch):
        # where the finger landed: on a busy machine the first move may come with the down
        if not self.collide_point(*touch.opos) or self.setup is None:
            return super().on_touch_down(touch)
        view = self.view
        p = view.to_frame(touch.opos)
        took = geo.hit(self.setup.shapes, p, sizes.MIN_TOUCH / 2 / view.scale, self.selected)
        if took is None:
            return True
        name, handle = took
        self._drag = (touch.uid, name, handle, p, self.setup.shapes[name])
        self.selected = name
        touch.grab(self)
        return True

    def on_touch_move(self, touch):
        if touch.grab_current is not self or self._drag is None or self._drag[0] != touch.uid:
            return super().on_touch_move(touch)
        _, name, handle, grab, start = self._drag
        now = self.view.to_frame(touch.pos)
        self.setup.move(name, geo.drag(start, handle, grab, now, self.frame_size))
        self._redraw()
        if self.on_change:
            self.on_change()
        return True

    def on_touch_up(self, touch):
        if touch.grab_current is not self:
            return super().on_touch_up(touch)
        touch.ungrab(self)
        self._drag = None
        return True


class CameraSetupScreen(Screen):
    """Tabs for the three tables; the picture and its shapes; learning and saving."""

    ctx = ObjectProperty(None)
    kind = StringProperty("cards")
    ready = BooleanProperty(False)  # the shown table's set-up is open
    unsaved = BooleanProperty(False)
    simulated = BooleanProperty(False)
    laid = BooleanProperty(False)  # the simulated table shows the things to learn from
    status_text = StringProperty("")
    hint_text = StringProperty("")
    stepper_text = StringProperty("")
    choice_text = StringProperty("")

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.setups: dict = {}
        self.empty: dict = {}  # per tab, the empty table's frame, to see what was laid
        self.camera = None
        self._seen = 0  # sequence number of the frame shown
        self._fresh_after = 0  # frames up to this one show what the tab showed before
        self._poll = None
        self._worker = Worker("camera-setup")
        self.naming = None  # the view naming a Node card's nodes, while open
        self.ids.overlay.on_change = self._changed

    @property
    def setup(self):
        return self.setups.get(self.kind)

    # the screen's life --------------------------------------------------------------------
    def on_enter(self, *_) -> None:
        self.simulated = bool(self.ctx and self.ctx.simulate)
        self.setups, self.empty, self.laid = {}, {}, False
        self._start_camera()
        self._poll = Clock.schedule_interval(self._tick, 1.0 / FPS)
        self.show_kind(self.kind)

    def on_leave(self, *_) -> None:
        if self._poll is not None:
            self._poll.cancel()
            self._poll = None
        if self.camera is not None:
            self.camera.close()
            self.camera = None
        self._worker.forget()
        if self.naming is not None:
            self.naming.dismiss()
            self.naming = None
        self.setups = {}
        self.ids.overlay.setup = None
        self.ready = False

    def _start_camera(self) -> None:
        from vision.camera import Camera, RenderedSource, open_source
        from vision.errors import CameraError

        self._seen = self._fresh_after = 0
        if self.simulated:
            source = RenderedSource(self._simulated_frame, fps=FPS, name="simulated table")
        else:
            spec = self.ctx.settings.camera
            if spec == "off":
                self.status_text = "The camera is off (camera setting): no picture to set up."
                return
            try:
                source = open_source(spec)
            except CameraError as exc:
                self.status_text = f"No camera: {exc}"
                return
        self.camera = Camera(source)
        self.camera.start()

    def _simulated_frame(self, i: int):
        """The rendered table of the tab shown (on the camera's thread)."""
        import numpy as np

        setup = self.setup
        if setup is None:
            return np.full((SIM_SIZE[1], SIM_SIZE[0], 3), 40, np.uint8)
        return setup.scene(self.laid, i)

    def _tick(self, _dt) -> None:
        camera = self.camera
        frame = camera.latest() if camera is not None else None
        if camera is not None and frame is None and camera.message and not self.ready:
            self.status_text = camera.message
        if frame is None or frame.seq == self._seen:
            return
        self._seen = frame.seq
        self.ids.overlay.show_frame(frame.image)
        if self.setup is None:
            self._open(self.kind)

    # tabs ---------------------------------------------------------------------------------
    def show_kind(self, kind: str) -> None:
        self.kind = kind
        self._scene_changed()
        self.ids.overlay.setup = self.setup
        self.ids.overlay.selected = ""
        self.ready = self.setup is not None
        if self.setup is None:
            self.status_text = f"Opening the {KIND_TITLES[kind]} set-up..."
            self.hint_text = ""
            self._open(kind)
        else:
            self.status_text = self.setup.note
        self._refresh()

    def _open(self, kind: str) -> None:
        """Load the set-up in force (and, on the simulated table, what it renders) off the
        screen's thread, once the camera's frame size is known."""
        if self.setup is not None or (self.camera is None and not self.simulated):
            return
        size = SIM_SIZE if self.simulated else self.ids.overlay.frame_size
        if not self.simulated and self.ids.overlay.texture is None:
            return  # no frame yet: opened at the first one
        from companion.ui.calib_setups import open_setup

        data_dir, simulated = self.ctx.data_dir, self.simulated
        self._worker.ask(
            ("open", kind),
            lambda: open_setup(kind, data_dir, size, simulated),
            lambda result: self._opened(kind, result),
        )

    def _opened(self, kind: str, result) -> None:
        if isinstance(result, Exception):
            self.status_text = f"Cannot open the {KIND_TITLES[kind]} set-up: {result}"
            return
        self.setups[kind] = result
        if kind == self.kind:
            self.show_kind(kind)
            self._scene_changed()

    def _refresh(self) -> None:
        setup = self.setup
        self.unsaved = any(s.changed for s in self.setups.values())
        self.stepper_text = self.choice_text = ""
        if setup is None:
            return
        self.hint_text = setup.instructions()
        if self.kind == "cards":
            self.stepper_text = f"{setup.seats} seat{'s' * (setup.seats > 1)}"
            self.choice_text = f"Cards: {setup.card_set}"
        elif self.kind == "node":
            self.stepper_text = f"pitch {setup.pitch:.1f} px"
        self.ids.overlay._redraw()

    def _changed(self) -> None:
        self._refresh()

    # buttons ------------------------------------------------------------------------------
    def step(self, direction: int) -> None:
        setup = self.setup
        if setup is None:
            return
        if self.kind == "cards":
            setup.set_seats(setup.seats + direction)
        elif self.kind == "node":
            setup.set_pitch(setup.pitch + 0.5 * direction)
        self._refresh()

    def next_choice(self) -> None:
        if self.kind == "cards" and self.setup is not None:
            self.setup.next_card_set()
            self._refresh()

    def toggle_laid(self) -> None:
        self.laid = not self.laid
        self._scene_changed()

    def _frame(self):
        """The camera's newest picture of what the tab shows: on the simulated table a
        frame drawn after the tab's set-up opened or the set was laid or taken away (the
        camera may still hold one from before)."""
        frame = self.camera.latest() if self.camera is not None else None
        if frame is None or frame.seq <= self._fresh_after:
            return None
        return frame.image

    def _scene_changed(self) -> None:
        if self.simulated and self.camera is not None:
            latest = self.camera.latest()
            self._fresh_after = (latest.seq if latest else 0) + 1  # and the one in capture

    def take_empty(self) -> None:
        frame = self._frame()
        if frame is None:
            self.status_text = "No picture from the camera yet: try again in a moment."
            return
        self.empty[self.kind] = frame.copy()
        laid = "one card" if self.kind == "node" else "the balls and the cards"
        self.status_text = f"Empty table taken. Now lay {laid}, and Learn colours."

    def learn(self) -> None:
        from vision.errors import CalibrationError

        frame = self._frame()
        if self.setup is None or frame is None:
            self.status_text = "No picture from the camera yet: try again in a moment."
            return
        self.ids.overlay.show_frame(frame)  # the picture is the one learnt from
        try:
            self.status_text = self.setup.learn(self.empty.get(self.kind), frame)
        except CalibrationError as exc:
            self.status_text = f"Nothing learnt: {exc}"
        if self.kind == "node" and self.setup.found is not None:
            self.name_nodes(self.setup.found)
        self._refresh()

    def name_nodes(self, card) -> None:
        """The card found on the Node table, node by node as it lies: each tap names a
        node with the next colour; Learn these learns the named ones."""
        from kivy.uix.boxlayout import BoxLayout
        from kivy.uix.gridlayout import GridLayout
        from kivy.uix.modalview import ModalView

        from companion.ui.widgets import BigButton, ColourButton, caption

        setup = self.setup
        names = [*setup.colours, "grey"]
        view = ModalView(size_hint=(None, None), size=(dp(460), dp(360)), auto_dismiss=False)
        box = BoxLayout(orientation="vertical", padding=dp(10), spacing=dp(8))
        box.add_widget(
            caption(
                "Tap each node until it shows its colour (- : leave it out)",
                17,
                size_hint_y=None,
                height=dp(48),
            )
        )
        grid = GridLayout(cols=card.shape[1], spacing=dp(6))
        chips = []
        for guess in card.guesses:
            chip = ColourButton(colour=guess)
            chip.bind(
                on_release=lambda b: setattr(
                    b, "colour", names[(names.index(b.colour) + 1) % len(names)]
                )
            )
            chips.append(chip)
            grid.add_widget(chip)
        box.add_widget(grid)
        row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(8))

        def close(learn: bool) -> None:
            view.dismiss()
            self.naming = None
            if learn:
                self.status_text = setup.learn_nodes(card, [c.colour for c in chips])
            setup.found = None
            self._refresh()

        row.add_widget(BigButton(text="Cancel", on_release=lambda _b: close(False)))
        row.add_widget(BigButton(text="Learn these", on_release=lambda _b: close(True)))
        box.add_widget(row)
        view.add_widget(box)
        view.open()
        self.naming = view

    def accept(self) -> None:
        from vision.errors import CalibrationError

        if self.setup is None:
            return
        try:
            self.status_text = self.setup.accept()
        except (CalibrationError, OSError) as exc:
            self.status_text = f"Not saved: {exc}"
        self._refresh()

    def leave(self) -> None:
        """Back to Settings; set-ups not accepted are dropped, the files stay as they were."""
        self.manager.current = "settings"
