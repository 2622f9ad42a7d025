"""The results of a finished game, shared by every game: the score chart replayed from the
log and a QR code carrying the result summary. `ResultsPanel` is the widget; `offer_results`
opens it as a sheet over the game when the game ends."""

from __future__ import annotations

import threading
from collections.abc import Callable

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from companion import games, rounds
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

    def load(self, compute: Callable[[], tuple]) -> ResultsPanel:
        def work():
            try:
                result = compute()
            except Exception as exc:  # a log the rules refuse: say so, keep the screen
                result = (None, f"Could not replay this game: {exc}")
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


def offer_results(screen) -> ModalView:
    """The results sheet over a game screen that has just ended: winner, chart, QR, Close."""
    session = screen.session
    winners = session.game.winners(session.state)
    title = " and ".join(winners) + (" win!" if len(winners) > 1 else " wins!")
    sheet = ModalView(
        size_hint=(0.98, 0.96), auto_dismiss=False, background="", background_color=colours.PANEL
    )
    box = BoxLayout(orientation="vertical", padding=dp(8), spacing=dp(6))
    head = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(8))
    head.add_widget(
        Label(
            text=f"{session.game.title}: {title}",
            font_size="24sp",
            bold=True,
            color=colours.TEXT,
            halign="left",
            valign="middle",
            text_size=(dp(560), None),
        )
    )
    head.add_widget(
        BigButton(text="Close", size_hint_x=None, width=dp(120), on_release=sheet.dismiss)
    )
    box.add_widget(head)
    panel = ResultsPanel().load(session_results(session))
    box.add_widget(panel)
    sheet.add_widget(box)
    sheet.panel = panel
    screen.bind(on_leave=lambda *_: sheet.dismiss(animation=False))  # Home, or the next game
    sheet.open()
    return sheet
