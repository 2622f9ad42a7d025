"""The frame every game screen shares: title, phase line, countdown, undo/redo, scoreboard,
and a banner for questions and refusals. A game's own screen fills `self.body`.

A game without its own screen gets this one as is: its legal actions become buttons.
"""

from __future__ import annotations

import math
from pathlib import Path

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion import cues as C
from companion.codec import jsonable
from companion.errors import IllegalMove
from companion.events import ButtonPressed, Event
from companion.ui import widgets  # noqa: F401  (registers the widget kv rules)
from companion.ui.widgets import BigButton

Builder.load_file(str(Path(__file__).with_name("kv") / "game_screen.kv"))

BANNER_SECONDS = 6
IDLE_TICK = 1.0  # seconds between looks at a paused or absent clock (a new one may start)


class GameScreen(Screen):
    ctx = ObjectProperty(None)
    session = ObjectProperty(None)
    title = StringProperty("")
    phase_text = StringProperty("")
    banner_text = StringProperty("")
    banner_kind = StringProperty("info")

    def __init__(self, ctx, session, **kw):
        kw.setdefault("name", "game")
        super().__init__(ctx=ctx, session=session, **kw)
        self.title = session.game.title
        self._banner_clear = Clock.create_trigger(self._clear_banner, BANNER_SECONDS)
        self._refresh_trigger = Clock.create_trigger(lambda dt: self.refresh())
        self._ticker = None
        self._on_screen = False
        session.sinks.append(self.cue_from_any_thread)
        self.build()
        self.refresh()

    # for game screens to override ----------------------------------------------------
    def build(self) -> None:
        """Put the game's widgets into self.body (called once)."""

    def refresh(self) -> None:
        """Redraw from self.session.state (called after every change)."""
        self._refresh_frame()
        if type(self).build is GameScreen.build:
            self._show_legal_actions()

    # actions --------------------------------------------------------------------------
    @property
    def state(self):
        return self.session.state

    def submit(self, event: Event) -> bool:
        """Apply an event; a refusal is shown on the banner and changes nothing."""
        try:
            self.session.submit(event)
        except IllegalMove as exc:
            self.show_banner(str(exc), "error")
            return False
        self.refresh()
        return True

    def undo(self) -> None:
        if self.session.undo():
            self.show_banner("Undone", "info")
        self.refresh()

    def redo(self) -> None:
        if self.session.redo():
            self.show_banner("Redone", "info")
        self.refresh()

    def table_event(self, event: Event) -> None:
        """An event from the table's hardware (any thread): undo button or game input."""

        def apply(_dt):
            if isinstance(event, ButtonPressed) and event.button == "undo":
                self.undo()
            else:
                self.submit(event)

        Clock.schedule_once(apply)

    def show_banner(self, text: str, kind: str = "info") -> None:
        self.banner_kind, self.banner_text = kind, text
        self._banner_clear()

    # time -----------------------------------------------------------------------------
    def on_enter(self, *_):
        self._on_screen = True
        self._arm_ticker()
        if getattr(self.ctx, "camera", None) is not None:
            self.ctx.camera.wake()

    def on_leave(self, *_):
        self._on_screen = False
        if getattr(self.ctx, "camera", None) is not None:
            self.ctx.camera.sleep()  # the home screen reads nothing from the table
        if self._ticker:
            self._ticker.cancel()
            self._ticker = None

    def close(self) -> None:
        """This game leaves the screen for good: stop polling and listening."""
        self.on_leave()
        if self.cue_from_any_thread in self.session.sinks:
            self.session.sinks.remove(self.cue_from_any_thread)

    def _tick(self, _dt) -> None:
        self._ticker = None
        if self.session.poll():
            self.refresh()
        else:
            self._update_countdown()

    def _arm_ticker(self) -> None:
        """Wake up when the clock next shows a new whole second (warnings and the end fall on
        whole seconds too), not at a fixed rate: a running clock costs one redraw a second."""
        if not self._on_screen:
            return
        if self._ticker is not None:
            self._ticker.cancel()
        timer = self.session.timer
        wait = IDLE_TICK
        if timer is not None and timer.running:
            left = timer.remaining()
            wait = left - math.ceil(left) + 1 if left > 0 else IDLE_TICK
        self._ticker = Clock.schedule_once(self._tick, wait + 0.005)

    def toggle_pause(self) -> None:
        timer = self.session.timer
        if timer is None:
            return
        if timer.paused:
            self.session.resume_timer()
        else:
            self.session.pause_timer()
        self._update_countdown()

    # internals ------------------------------------------------------------------------
    def cue_from_any_thread(self, cue) -> None:
        Clock.schedule_once(lambda dt: self._show_cue(cue))

    def _show_cue(self, cue) -> None:
        if isinstance(cue, C.AskHuman):
            self.show_banner(cue.question, "ask")
        elif isinstance(cue, C.ErrorCue):
            self.show_banner(cue.message, "error")
        elif isinstance(cue, C.Announce):
            self.show_banner(cue.text, "info")
        elif isinstance(cue, C.GameOver):
            names = " and ".join(cue.winners) or "Nobody"
            self.show_banner(f"{names} {'win' if len(cue.winners) > 1 else 'wins'}!", "info")
        elif isinstance(cue, C.TimeUp):
            self.show_banner("Time is up!", "ask")

    def _clear_banner(self, _dt) -> None:
        self.banner_text = ""

    def _refresh_frame(self) -> None:
        game, state = self.session.game, self.session.state
        self.phase_text = game.describe(state)
        current = game.current_player(state)
        scores = game.scores(state)
        seating = self.session.config.players
        from companion.players import PLAYER_MARKERS

        rows = []
        for i, name in enumerate(seating):
            marker, letter = PLAYER_MARKERS[i % len(PLAYER_MARKERS)]
            score = scores.get(name, "")
            score = f"{score:g}" if isinstance(score, (int, float)) else str(score)
            rows.append((marker, letter, name, score, name == current))
        self.ids.scoreboard.rows = rows
        self.ids.undo.disabled = not self.session.can_undo
        self.ids.redo.disabled = not self.session.can_redo
        self._update_countdown()

    def _update_countdown(self) -> None:
        cd, timer = self.ids.countdown, self.session.timer
        cd.active = timer is not None
        if timer is not None:
            cd.total, cd.seconds, cd.paused = timer.duration, timer.remaining(), timer.paused
        self._arm_ticker()

    def _show_legal_actions(self) -> None:
        from kivy.metrics import dp
        from kivy.uix.gridlayout import GridLayout
        from kivy.uix.scrollview import ScrollView

        body = self.ids.body
        body.clear_widgets()
        grid = GridLayout(cols=1, spacing=dp(4), size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        for action in self.session.game.legal_actions(self.session.state):
            fields = ", ".join(f"{k}={v}" for k, v in jsonable(action).items())
            grid.add_widget(
                BigButton(
                    text=f"{type(action).__name__}({fields})",
                    size_hint_y=None,
                    height=dp(52),
                    on_release=lambda _b, a=action: self.submit(a),
                )
            )
        scroll = ScrollView(do_scroll_x=False)
        scroll.add_widget(grid)
        body.add_widget(scroll)

    @property
    def body(self):
        return self.ids.body
