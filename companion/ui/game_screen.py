"""The frame every game screen shares: title, phase line, countdown, undo/redo, scoreboard,
and a banner for questions and refusals (over the title, so nothing moves). A question that
carries its answers is laid over the body instead, one big button per answer (question.py),
until it is answered, put aside with "Other…", or the game moves past it. A game's own
screen fills `self.body`. A tap that moves the game on arms the window's touch guard
(touch_guard.py): a bounce or a double tap right after it does nothing.

A game without its own screen gets this one as is: its legal actions become buttons.
"""

from __future__ import annotations

import importlib
import math
import threading
from pathlib import Path

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion import catalogue
from companion import cues as C
from companion.errors import IllegalMove
from companion.events import Event
from companion.ui import (
    touch_guard,
    widgets,  # noqa: F401  (registers the widget kv rules)
)
from companion.ui.kept import Kept
from companion.ui.legal_actions import action_buttons
from companion.ui.question import QuestionPanel
from companion.ui.results import offer_results
from companion.ui.sensor_notices import sensor_calm, sensor_notice

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
    looking_only = BooleanProperty(False)  # a past game, looked at: Home, Undo, Redo are dead

    def __init__(self, ctx, session, **kw):
        kw.setdefault("name", "game")
        super().__init__(ctx=ctx, session=session, **kw)
        self.title = session.game.title
        self._banner_clear = Clock.create_trigger(self._clear_banner, BANNER_SECONDS)
        self._refresh_trigger = Clock.create_trigger(lambda dt: self.refresh())
        self._ticker = None
        self.closed = False
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
            on_sensor=lambda part, why: Clock.schedule_once(
                lambda dt: self._lasting_changed(f"sensor {part}", sensor_notice(part, why))
            ),
        )
        # What lasts (a card that takes no writes, a faulty sensor) stays in the banner's slot
        # until it is over; a passing message covers it for a while.
        self._lasting: dict[str, str] = {
            f"sensor {part}": sensor_notice(part, why)
            for part, why in self.runtime.sensor_faults.items()
        }
        if session.log.storage.text:
            self._lasting["storage"] = session.log.storage.text
        self._unwatch_storage = session.log.storage.subscribe(
            lambda text: Clock.schedule_once(lambda dt: self._lasting_changed("storage", text))
        )
        self._on_screen = False
        self._paused_away = False  # the clock was paused when people left for another screen
        self._questions: list[tuple[C.AskHuman, tuple]] = []  # (question, stage when asked)
        self.question_panel: QuestionPanel | None = None
        self._panels = Kept(self.body)  # what show_panels laid out
        self.build()
        self.refresh()
        if self._lasting:
            self._clear_banner(0)

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
        """What a person sees as "where the game is": the phase, whose turn it is, and which
        turn and round (a solo player's next turn is the same player's)."""
        state = self.session.state
        where = (getattr(state, name, None) for name in ("phase", "turn", "round"))
        return (*where, self.session.game.current_player(state))

    def _moved_on(self) -> None:
        # The same button may stay where it is for the next player: say so to the guard.
        touch_guard.arm()

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
        if self._paused_away:
            self._paused_away = False
            self._update_countdown()
            self.show_banner("The clock waited while you were away. Tap it to continue.", "ask")

    def on_leave(self, *_):
        timer = self.session.timer
        if not self.closed and timer is not None and timer.running:
            # Nobody watches a clock behind Home: it waits for people to come back.
            self.session.pause_timer()
            self._paused_away = True
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
        self._unwatch_storage()

    def _tick(self, _dt) -> None:
        self._ticker = None
        before = self.session.state
        self.session.poll()  # a warning plays on the table's lamp and buzzer, not on screen
        if self.session.state is not before:  # the clock ran out: the game moved on
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
        if self._lasting:  # what lasts comes back once a passing message has gone
            self.banner_kind, self.banner_text = "error", "  ".join(self._lasting.values())
        else:
            self.banner_text = ""

    def _lasting_changed(self, key: str, text: str | None) -> None:
        """A lasting notice begins (text) or ends (None: said once, then the banner clears)."""
        from companion.storage import SAVING_AGAIN

        if self.closed:
            return
        if text:
            self._lasting[key] = text
            self.show_banner(text, "error")
        elif self._lasting.pop(key, None) is not None:
            over = SAVING_AGAIN if key == "storage" else sensor_calm(key.split(" ", 1)[1])
            self.show_banner(over, "info")

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
        self.ids.undo.disabled = self.looking_only or not self.session.can_undo
        self.ids.redo.disabled = self.looking_only or not self.session.can_redo
        self._update_countdown()
        self._update_question()

    def _update_countdown(self) -> None:
        cd, timer = self.ids.countdown, self.session.timer
        cd.active = timer is not None
        if timer is not None:
            cd.total, cd.seconds, cd.paused = timer.duration, timer.remaining(), timer.paused
        self._arm_ticker()

    def show_panels(self, panels) -> list:
        """Lay the body out of `panels`, (key, make) pairs from the top (see `Kept`): a tap
        that changes one panel redraws that one. A key names everything its panel is drawn
        from (the panel's kind, the state, what is being entered). Returns the panels."""
        return self._panels.show(panels)

    def _show_legal_actions(self) -> None:
        self.body.clear_widgets()
        actions = self.session.game.legal_actions(self.session.state)
        self.body.add_widget(action_buttons(actions, self.submit))

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
    package = catalogue.info(name).package
    try:
        return importlib.import_module(package + ".screen").GameScreen
    except ModuleNotFoundError as exc:
        if exc.name != package + ".screen":
            raise
        return GameScreen
