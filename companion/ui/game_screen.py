"""The frame every game screen shares: title, phase line, countdown, undo/redo, scoreboard,
and a banner for questions and refusals (over the title, so nothing moves). A question that
carries its answers is laid over the body instead, one big button per answer (question.py),
until it is answered, put aside with "Other…", or the game moves past it. A game's own
screen fills `self.body`. One guard for every control: a tap that starts within 0.3 s of a
tap that moved the game on is dropped (fingers bounce; the screen under them just changed).

A game without its own screen gets this one as is: its legal actions become buttons.
"""

from __future__ import annotations

import importlib
import math
import threading
import time
from pathlib import Path

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion import cues as C
from companion import games
from companion.codec import jsonable
from companion.errors import IllegalMove
from companion.events import Event
from companion.ui import widgets  # noqa: F401  (registers the widget kv rules)
from companion.ui.question import QuestionPanel
from companion.ui.results import offer_results
from companion.ui.widgets import BigButton

Builder.load_file(str(Path(__file__).with_name("kv") / "game_screen.kv"))

# A tap that starts this soon after a tap moved the game on is the same finger bouncing (or
# a double tap): the screen under it has just changed, so it is dropped.
REPEAT_GUARD_SECONDS = 0.3
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
        self.closed = False
        self._advanced_at = float("-inf")  # when a touch last moved the game on (time.time)
        self._touch_up_at: float | None = None  # the touch being released, while it is
        self._forget_touch = Clock.create_trigger(lambda dt: setattr(self, "_touch_up_at", None))
        self.runtime = ctx.runtime
        if self.runtime.session is not session:
            self.runtime.play(session)
        # The runtime plays the game; this screen listens and redraws on its own thread.
        self._unsubscribe = self.runtime.subscribe(
            on_change=self._changed_from_any_thread,
            on_cue=self.cue_from_any_thread,
            on_refusal=lambda _event, text: Clock.schedule_once(
                lambda dt: self.show_banner(text, "error")
            ),
        )
        self._on_screen = False
        self._questions: list[tuple[C.AskHuman, tuple]] = []  # (question, stage when asked)
        self.question_panel: QuestionPanel | None = None
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
        """Apply a touch's event and redraw; a refusal is shown on the banner and changes
        nothing."""
        if not self._apply(event):
            return False
        self.refresh()
        return True

    def _apply(self, event: Event) -> bool:
        before = self._stage()
        try:
            self.runtime.submit(event)
        except IllegalMove as exc:
            self.show_banner(str(exc), "error")
            return False
        if self._stage() != before:
            self._moved_on()
        return True

    def undo(self) -> None:
        if self.runtime.undo():
            self._moved_on()
            self.show_banner("Undone", "info")
        self.refresh()

    def redo(self) -> None:
        if self.runtime.redo():
            self._moved_on()
            self.show_banner("Redone", "info")
        self.refresh()

    def _stage(self):
        """What a person sees as "where the game is": the phase and whose turn it is."""
        state = self.session.state
        return getattr(state, "phase", None), self.session.game.current_player(state)

    def _moved_on(self) -> None:
        up = self._touch_up_at
        self._advanced_at = up if up is not None else time.time()

    # touches: one guard for every control of every game ---------------------------------
    def on_touch_down(self, touch):
        if (
            self.collide_point(*touch.pos)
            and touch.time_start - self._advanced_at < REPEAT_GUARD_SECONDS
        ):
            return True  # swallowed: a bounce of the tap that just moved the game on
        return super().on_touch_down(touch)

    def on_touch_up(self, touch):
        # Buttons act on the release after this dispatch (Kivy hands grabbed touches to their
        # widget directly), so the release time is kept until the next frame.
        self._touch_up_at = touch.time_end if touch.time_end > 0 else touch.time_update
        self._forget_touch()
        return super().on_touch_up(touch)

    @property
    def showing(self) -> bool:
        """On screen (a screen outside any manager, as in tests, counts as shown)."""
        return self.manager is None or self.manager.current == self.name

    def show_banner(self, text: str, kind: str = "info") -> None:
        self.banner_kind, self.banner_text = kind, text
        self._banner_clear()

    # time -----------------------------------------------------------------------------
    def on_enter(self, *_):
        self._on_screen = True
        self._arm_ticker()
        if self.runtime.camera is not None:
            self.runtime.camera.wake()

    def on_leave(self, *_):
        self._on_screen = False
        if self.runtime.camera is not None:
            self.runtime.camera.sleep()  # the home screen reads nothing from the table
        if self._ticker:
            self._ticker.cancel()
            self._ticker = None

    def close(self) -> None:
        """This game leaves the screen for good: stop polling and listening."""
        self.closed = True
        self.on_leave()
        self._unsubscribe()

    def _tick(self, _dt) -> None:
        self._ticker = None
        if self.session.poll():
            self._refresh_trigger()
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
    def _changed_from_any_thread(self) -> None:
        # A touch redraws at once (submit/undo/redo); a reading or the clock redraws on the
        # next frame, bursts coalesced.
        if threading.current_thread() is not threading.main_thread():
            self._refresh_trigger()

    def cue_from_any_thread(self, cue) -> None:
        Clock.schedule_once(lambda dt: self._show_cue(cue))
        if isinstance(cue, C.GameOver):  # every game's results: the chart and the QR code
            Clock.schedule_once(lambda dt: offer_results(self))

    def _show_cue(self, cue) -> None:
        if isinstance(cue, C.AskHuman) and cue.answers:
            self.ask(cue)
        elif isinstance(cue, C.AskHuman):
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

    # questions with answers ----------------------------------------------------------------
    def ask(self, question: C.AskHuman) -> None:
        """Offer a question's answers as buttons over the body (after any still waiting)."""
        if all(q != question for q, _ in self._questions):
            self._questions.append((question, self._stage()))
        self._update_question()

    def question_open(self, question: C.AskHuman, stage) -> bool:
        """Is the question still worth asking? Not once the game moved on (another phase or
        player than when it was asked), nor once an answer would be refused. Game screens
        may know more (a prediction entered by other means answers it too)."""
        if self._stage() != stage:
            return False
        game, state = self.session.game, self.session.state
        for answer in question.answers:
            try:
                game.apply(state, answer)
            except IllegalMove:
                return False
        return True

    def question_other(self, question: C.AskHuman) -> None:
        """On "Other…": the game's own entry takes over (games prefill it)."""

    def answer(self, index: int) -> None:
        question = self.question_panel.ask if self.question_panel else None
        if question is None or not self._apply(question.answers[index]):
            return
        self._questions = [(q, st) for q, st in self._questions if q != question]
        self.refresh()

    def other_answer(self) -> None:
        question = self.question_panel.ask if self.question_panel else None
        if question is None:
            return
        self._questions = [(q, st) for q, st in self._questions if q != question]
        self.question_other(question)
        self.refresh()

    def _update_question(self) -> None:
        """Show the first question still open, or none."""
        self._questions = [(q, st) for q, st in self._questions if self.question_open(q, st)]
        first = self._questions[0][0] if self._questions else None
        panel = self.question_panel
        if panel is not None and panel.ask == first:
            return
        if panel is not None:
            panel.unfollow()
            self.remove_widget(panel)
            self.question_panel = None
        if first is None:
            return
        row = self.ids.body.parent  # the body and the scoreboard: covered, nothing moves
        panel = QuestionPanel(first, self.answer, self.other_answer, size_hint=(None, None))

        def follow(*_):
            panel.pos, panel.size = row.pos, row.size

        follow()
        row.bind(pos=follow, size=follow)
        panel.unfollow = lambda: row.unbind(pos=follow, size=follow)
        self.question_panel = panel
        self.add_widget(panel)

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
        self._update_question()

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

    def wide(self, on: bool) -> None:
        """Give the body the scoreboard's column too (score entry, long lists, big boards)."""
        column = self.ids.scoreboard.parent
        column.size_hint_x = 0.001 if on else 0.3
        column.opacity = 0 if on else 1
        column.disabled = on


def game_screen_class(name: str) -> type[GameScreen]:
    """The game's own screen if it has one, else the shared frame with action buttons."""
    package = games.info(name).package
    try:
        return importlib.import_module(package + ".screen").GameScreen
    except ModuleNotFoundError as exc:
        if exc.name != package + ".screen":
            raise
        return GameScreen
