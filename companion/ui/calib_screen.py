"""Camera set-up (Settings): the live picture with the regions the readers use drawn over
it, dragged into place with a finger; colours learnt from what the regions see; Accept saves
the set-up atomically, Cancel leaves the one in force untouched.

The camera runs only while this screen is shown, and the picture is redrawn a few times a
second at most. The picture is `setup_overlay`; the tabs, and what each table's set-up
holds, learns and saves, are `camera_setup` (no Kivy; the games add their tables there; it
loads OpenCV and the vision package, so it is imported only when the screen opens).
"""

from __future__ import annotations

from pathlib import Path

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.ui.setup_overlay import SetupOverlay  # noqa: F401  (the kv's picture)
from companion.ui.widgets import BigButton
from companion.worker import Worker

Builder.load_file(str(Path(__file__).with_name("kv") / "camera_setup.kv"))

FPS = 4  # the picture only has to follow a hand laying cards
SIM_SIZE = (640, 480)


class SetupTab(BigButton):
    """The button of one tab of `screen` (its look: camera_setup.kv)."""

    kind = StringProperty("")
    screen = ObjectProperty(None)


class CameraSetupScreen(Screen):
    """A tab per table (camera_setup.tabs); the picture and its shapes; learning and saving."""

    ctx = ObjectProperty(None)
    kind = StringProperty("")  # the tab shown; the first one until another is chosen
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
        self.tabs: dict = {}  # kind -> camera_setup.contract.Tab, as the tab buttons show them
        self.naming = None  # the view naming the colours of what Learn found, while open
        self.ids.overlay.on_change = self._changed

    @property
    def setup(self):
        return self.setups.get(self.kind)

    def _show_tabs(self) -> None:
        """A button per tab, the games' tabs as the catalogue finds them now."""
        from companion.ui.camera_setup.tabs import tabs

        found = {t.kind: t for t in tabs()}
        if list(found) == list(self.tabs):
            return
        self.tabs = found
        row = self.ids.tabs
        row.clear_widgets()
        for tab in found.values():
            row.add_widget(SetupTab(text=tab.title, kind=tab.kind, screen=self))
        if self.kind not in found:
            self.kind = next(iter(found))

    # the screen's life --------------------------------------------------------------------
    def on_enter(self, *_) -> None:
        self.simulated = bool(self.ctx and self.ctx.simulate)
        self.setups, self.empty, self.laid = {}, {}, False
        self._show_tabs()
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
        from vision.camera import Camera
        from vision.errors import CameraError
        from vision.sources import RenderedSource, open_source

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
            self.status_text = f"Opening the {self.tabs[kind].title} set-up..."
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
        data_dir, simulated, tab = self.ctx.data_dir, self.simulated, self.tabs[kind]
        self._worker.ask(
            ("open", kind),
            lambda: tab.open(data_dir, size, simulated),
            lambda result: self._opened(kind, result),
        )

    def _opened(self, kind: str, result) -> None:
        if isinstance(result, Exception):
            self.status_text = f"Cannot open the {self.tabs[kind].title} set-up: {result}"
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
        self.stepper_text, self.choice_text = setup.stepper(), setup.choice()
        self.ids.overlay._redraw()

    def _changed(self) -> None:
        self._refresh()

    # buttons ------------------------------------------------------------------------------
    def step(self, direction: int) -> None:
        setup = self.setup
        if setup is None:
            return
        setup.step(direction)
        self._refresh()

    def next_choice(self) -> None:
        if self.setup is not None:
            self.setup.next_choice()
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
        laid = self.tabs[self.kind].lay
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
        if self.tabs[self.kind].naming and self.setup.found is not None:
            self.name_colours(self.setup, self.tabs[self.kind].naming)
        self._refresh()

    def name_colours(self, setup, prompt: str) -> None:
        """What Learn found, spot by spot as it lies: a person names each spot's colour and
        the set-up learns the named ones."""
        from companion.ui.colour_naming import name_colours

        found = setup.found

        def done(names) -> None:
            self.naming = None
            if names is not None:
                self.status_text = setup.learn_named(found, names)
            setup.found = None
            self._refresh()

        self.naming = name_colours(prompt, found.shape[1], found.guesses, setup.colours, done)

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
