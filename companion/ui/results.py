"""The results of a finished game, shared by every game: the score chart replayed from the
log and a QR code carrying the result summary. `ResultsPanel` is the widget; `offer_results`
opens it as a sheet over the game when the game ends."""

from __future__ import annotations

import threading
from collections.abc import Callable

from kivy.clock import Clock
from kivy.graphics import Color, Rectangle
from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from companion import games, rounds
from companion.errors import CompanionError
from companion.history import mode_label
from companion.session import config_to_json
from companion.sharing import result_summary
from companion.ui import colours
from companion.ui.chart import ScoreChart
from companion.ui.qr import QrCode
from companion.ui.widgets import BigButton

QR_WIDTH = 170  # dp: a phone reads it from half a metre


def summary_text(name: str, config: dict, started: str, scores: dict, winners, uuid="") -> str:
    from companion.stats import LOWER_IS_BETTER

    order = sorted(scores, key=lambda p: scores[p], reverse=name not in LOWER_IS_BETTER)
    return result_summary(
        games.info(name).title,
        mode_label(name, config),
        started,
        {p: scores[p] for p in order},
        tuple(winners),
        uuid,
    )


class ResultsPanel(BoxLayout):
    """Chart on the left, QR code on the right. Give it a series and a summary, or call
    `load(fn)` to compute them off the UI thread (a replay may run the Laser solver)."""

    summary = StringProperty("")

    def __init__(self, series=None, summary: str = "", **kw):
        kw.setdefault("spacing", dp(8))
        super().__init__(**kw)
        self.chart = ScoreChart(series=series)
        self.add_widget(self.chart)
        side = BoxLayout(orientation="vertical", size_hint_x=None, width=dp(QR_WIDTH))
        self.qr = QrCode(text=summary)
        side.add_widget(self.qr)
        side.add_widget(
            Label(
                text="Scan: the result as text",
                font_size="13sp",
                color=colours.MUTED,
                size_hint_y=None,
                height=dp(20),
            )
        )
        self.add_widget(side)
        self.ready = threading.Event()
        if series is not None:
            self.ready.set()

    def show(self, series, summary: str) -> None:
        self.chart.series, self.qr.text = series, summary
        self.ready.set()

    def fail(self, message: str) -> None:
        """The game could not be replayed: say so where the chart would be."""
        self.remove_widget(self.chart)
        self.chart = Label(
            text=message, font_size="18sp", color=colours.TEXT, halign="center", valign="middle"
        )
        self.chart.bind(size=lambda w, size: setattr(w, "text_size", size))
        self.add_widget(self.chart, index=len(self.children))
        self.ready.set()

    def load(self, compute: Callable[[], tuple]) -> ResultsPanel:
        def work():
            try:
                result = compute()
            except CompanionError as exc:  # a log the rules refuse: say so, keep the screen
                message = f"This game cannot be replayed: {exc}"
                Clock.schedule_once(lambda _dt: self.fail(message))
                return
            Clock.schedule_once(lambda _dt: self.show(*result))

        threading.Thread(target=work, name="results-replay", daemon=True).start()
        return self


def session_results(session) -> Callable[[], tuple[rounds.ScoreSeries, str]]:
    """Reads the session's log now (on this thread); the returned function replays it into
    the chart's series and the QR summary (on any thread)."""
    config = config_to_json(session.config)
    entries = session.log.entries(session.game_id)
    rec = session.log.game(session.game_id)

    def compute():
        facts = rounds.game_facts(session.game.name, config, entries, extras=False)
        result = facts["result"]
        text = summary_text(
            session.game.name, config, rec.started, result["scores"], result["winners"], rec.uuid
        )
        return rounds.ScoreSeries.from_json(facts["series"]), text

    return compute


class ResultsSheet(BoxLayout):
    """Laid over the game screen it belongs to (not the window): it goes when the game's
    screen goes, and only takes the touches on that screen."""

    def __init__(self, title: str, **kw):
        super().__init__(orientation="vertical", padding=dp(8), spacing=dp(6), **kw)
        with self.canvas.before:
            Color(*colours.PANEL)
            self._bg = Rectangle(pos=self.pos, size=self.size)
        self.bind(pos=lambda *_: setattr(self._bg, "pos", self.pos))
        self.bind(size=lambda *_: setattr(self._bg, "size", self.size))
        head = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(8))
        head.add_widget(
            Label(
                text=title,
                font_size="24sp",
                bold=True,
                color=colours.TEXT,
                halign="left",
                valign="middle",
                shorten=True,
                text_size=(dp(600), dp(56)),
            )
        )
        head.add_widget(
            BigButton(text="Close", size_hint_x=None, width=dp(120), on_release=self.dismiss)
        )
        self.add_widget(head)
        self.panel = ResultsPanel()
        self.add_widget(self.panel)

    def dismiss(self, *_):
        if self.parent is not None:
            self.parent.remove_widget(self)

    def on_touch_down(self, touch):
        super().on_touch_down(touch)
        return self.collide_point(*touch.pos)

    def on_touch_move(self, touch):
        super().on_touch_move(touch)
        return self.collide_point(*touch.pos)

    def on_touch_up(self, touch):
        super().on_touch_up(touch)
        return self.collide_point(*touch.pos)


def offer_results(screen) -> ResultsSheet | None:
    """Lay the results (winner, chart, QR code, Close) over a game screen whose game has just
    ended, if that screen is the one on show."""
    manager = screen.manager
    if manager is None or manager.current_screen is not screen:
        return None
    session = screen.session
    winners = session.game.winners(session.state)
    title = " and ".join(winners) + (" win!" if len(winners) > 1 else " wins!")
    old = getattr(screen, "results_sheet", None)
    if old is not None:
        old.dismiss()
    sheet = ResultsSheet(f"{session.game.title}: {title}")
    sheet.panel.load(session_results(session))
    screen.add_widget(sheet)
    screen.results_sheet = sheet
    return sheet
