"""The results of a finished game, shared by every game: the score chart replayed from the
log and a QR code carrying the result summary or, at a tap, the play as a BG Stats import
link. `ResultsPanel` is the widget; `offer_results` opens it as a sheet over the game when the
game ends."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime

from kivy.clock import Clock
from kivy.graphics import Color, Rectangle
from kivy.metrics import dp
from kivy.properties import OptionProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from companion import catalogue, rounds
from companion.bgstats import Play, play_link
from companion.entries import GameRecord
from companion.errors import CompanionError
from companion.session import config_to_json
from companion.sharing import result_summary
from companion.stats import mode_label
from companion.ui import colours
from companion.ui.chart import ScoreChart
from companion.ui.qr import QrCode
from companion.ui.sizes import MIN_BUTTON_DP
from companion.ui.widgets import BigButton, caption

QR_WIDTH = 170  # dp: a phone reads the text from half a metre
CAPTIONS = {"text": "Scan: the result as text", "bgstats": "Scan: add the play to BG Stats"}


def summary_text(name: str, config: dict, started: str, scores: dict, winners, uuid="") -> str:
    lower = catalogue.lower_is_better(name)

    def score(p):  # a stored score that is no number sorts last
        v = scores[p]
        low = float("inf") if lower else float("-inf")
        return v if isinstance(v, int | float) and not isinstance(v, bool) else low

    order = sorted(scores, key=score, reverse=not lower)
    return result_summary(
        catalogue.info(name).title,
        mode_label(name, config),
        started,
        {p: scores[p] for p in order},
        tuple(winners),
        uuid,
    )


def bgstats_link(rec: GameRecord, result: dict | None = None) -> str:
    """The game as a BG Stats play link; `result` if the log has not stored it yet."""
    now = datetime.now(UTC).isoformat(timespec="seconds")
    return play_link(Play.of(replace(rec, result=result or rec.result), finished=now))


class ResultsPanel(BoxLayout):
    """Chart on the left, QR code on the right. Give it a series and a summary, or call
    `load(fn)` to compute them off the UI thread (a replay may run the Laser solver).
    With a BG Stats link too, the button under the chart switches what the code carries
    (`remember(carries)` is called with the choice); the link's code is denser, so it is
    drawn as tall as the panel."""

    summary = StringProperty("")
    link = StringProperty("")
    carries = OptionProperty("text", options=tuple(CAPTIONS))

    def __init__(self, series=None, summary: str = "", link: str = "", **kw):
        kw.setdefault("spacing", dp(8))
        super().__init__(**kw)
        self.left = BoxLayout(orientation="vertical", spacing=dp(4))
        self.chart = ScoreChart(series=series)
        self.left.add_widget(self.chart)
        bar = BoxLayout(size_hint_y=None, height=dp(MIN_BUTTON_DP), spacing=dp(8))
        self.caption = Label(font_size="14sp", color=colours.MUTED, halign="right", valign="middle")
        self.caption.bind(size=lambda w, size: setattr(w, "text_size", size))
        bar.add_widget(self.caption)
        self.switch = BigButton(size_hint_x=None, width=dp(230), on_release=self.toggle)
        bar.add_widget(self.switch)
        self.left.add_widget(bar)
        self.add_widget(self.left)
        self.qr = QrCode(size_hint_x=None, width=dp(QR_WIDTH))
        self.add_widget(self.qr)
        self.bind(summary=self._carry, link=self._carry, carries=self._carry, size=self._carry)
        self.link, self.summary, self.remember = link, summary, None
        self._carry()
        self.ready = threading.Event()
        if series is not None:
            self.ready.set()

    def show(self, series, summary: str, link: str = "") -> None:
        # the link first: the code is drawn once, with what it carries
        self.chart.series, self.link, self.summary = series, link, summary
        self.ready.set()

    def toggle(self, *_) -> None:
        self.carries = "bgstats" if self.carries == "text" else "text"
        if self.remember is not None:
            self.remember(self.carries)

    def remembered(self, ctx) -> ResultsPanel:
        """Carry what this table's results code carried last time, and keep a switch."""
        self.carries = "bgstats" if ctx.settings.results_bgstats else "text"
        self.remember = lambda carries: ctx.save_settings(
            replace(ctx.settings, results_bgstats=carries == "bgstats")
        )
        return self

    def _carry(self, *_) -> None:
        link = self.carries == "bgstats" and bool(self.link)
        self.qr.text = self.link if link else self.summary
        self.caption.text = CAPTIONS["bgstats" if link else "text"]
        self.switch.text = "Show as text" if link else "Show BG Stats code"
        self.switch.disabled = not self.link
        self.qr.width = (
            max(dp(QR_WIDTH), min(self.height, self.width * 0.6)) if link else dp(QR_WIDTH)
        )

    def fail(self, message: str) -> None:
        """The game could not be replayed: say so where the chart would be."""
        self.left.remove_widget(self.chart)
        self.chart = Label(
            text=message, font_size="18sp", color=colours.TEXT, halign="center", valign="middle"
        )
        self.chart.bind(size=lambda w, size: setattr(w, "text_size", size))
        self.left.add_widget(self.chart, index=len(self.left.children))
        self.ready.set()

    def load(self, compute: Callable[[], tuple]) -> ResultsPanel:
        def work():
            try:
                result = compute()
            except Exception as exc:  # a log the rules refuse: say so, keep the screen
                why = exc if isinstance(exc, CompanionError) else type(exc).__name__
                message = f"This game cannot be replayed: {why}"
                Clock.schedule_once(lambda _dt: self.fail(message))
                return
            Clock.schedule_once(lambda _dt: self.show(*result))

        threading.Thread(target=work, name="results-replay", daemon=True).start()
        return self


def session_results(session) -> Callable[[], tuple[rounds.ScoreSeries, str, str]]:
    """Reads the session's log now (on this thread); the returned function replays it into
    the chart's series, the QR summary and the BG Stats link (on any thread)."""
    config = config_to_json(session.config)
    entries = session.log.entries(session.game_id)
    rec = session.log.game(session.game_id)

    def compute():
        facts = rounds.game_facts(session.game.name, config, entries, extras=False)
        result = facts["result"]
        text = summary_text(
            session.game.name, config, rec.started, result["scores"], result["winners"], rec.uuid
        )
        link = bgstats_link(rec, result)
        return rounds.ScoreSeries.from_json(facts["series"]), text, link

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
        # every winner named: the title wraps and steps its font down rather than cut a name
        head.add_widget(caption(title, size=24, bold=True, shrink=True))
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
    sheet.panel.remembered(screen.ctx).load(session_results(session))
    screen.add_widget(sheet)
    screen.results_sheet = sheet
    return sheet
