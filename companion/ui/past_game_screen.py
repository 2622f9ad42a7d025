"""One past game: its final screen again (untouchable), or round by round, replayed from
the log."""

from __future__ import annotations

from kivy.metrics import dp
from kivy.properties import NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion import catalogue
from companion.entries import scores_only
from companion.history import History
from companion.players import name_problem, shown_name
from companion.rounds import ScoreSeries
from companion.stats import mode_label
from companion.ui import colours
from companion.ui.chart import marker_of
from companion.ui.history_common import ROW, game_title, score_text
from companion.ui.results import ResultsPanel, bgstats_link, summary_text


class HistoryGameScreen(Screen):
    """One past game: its final screen again (untouchable), or round by round."""

    ctx = ObjectProperty(None)
    title = StringProperty("")
    view = StringProperty("rounds")  # "rounds" | "final"
    table_height = NumericProperty(0)
    can_show_final = NumericProperty(0)

    def show(self, history: History, game_id: int) -> None:
        self.history, self.rec = history, self.ctx.log.game(game_id)
        rec = self.rec
        mode = _mode(rec)
        source = (
            f" · from {shown_name(rec.config['scores_from'])}" if scores_only(rec.config) else ""
        )
        self.title = (
            f"{game_title(rec.game)}{f' · {mode}' if mode else ''} · {rec.started[:10]}{source}"
        )
        # The game's own screen shows names as they are: only for names it can draw. A game
        # brought in with its scores only has no moves to show a final screen from.
        names = rec.config.get("players", ())
        sound = not rec.damaged and not any(name_problem(n) for n in names)
        self.can_show_final = int(
            rec.status == "finished" and sound and not scores_only(rec.config)
        )
        self.view = "rounds"
        self._final = None
        self._draw()

    def toggle(self) -> None:
        self.view = "final" if self.view == "rounds" and self.can_show_final else "rounds"
        self._draw()

    def _draw(self) -> None:
        body = self.ids.body
        body.clear_widgets()
        if self.view == "final":
            body.add_widget(self._final_screen())
            return
        rec = self.rec
        result = rec.result or {}
        panel = ResultsPanel().remembered(self.ctx)
        if rec.damaged:
            panel.fail(f"This game's record is damaged: {rec.damaged}")
            body.add_widget(panel)
            return
        body.add_widget(panel)
        self.ids.table.clear_widgets()

        history, pending = self.history, self.history.pending([rec])

        def compute():
            history.fill(pending)
            series = history.series(rec)
            text = summary_text(
                rec.game,
                rec.config,
                rec.started,
                result.get("scores", {}),
                result.get("winners", ()),
                rec.uuid,
            )
            link = bgstats_link(rec) if rec.status == "finished" else ""
            return series, text, link

        def shown(*_):
            series = getattr(panel.chart, "series", None)
            if series is not None:
                self._table(series)

        panel.bind(summary=shown)
        panel.chart.bind(series=shown)
        panel.load(compute)
        self.panel = panel

    def _table(self, series: ScoreSeries) -> None:
        """Round by round: one column per round, one row per player (letter, name, scores)."""
        table = self.ids.table
        table.clear_widgets()
        grid = GridLayout(
            rows=len(series.players) + 1,
            orientation="tb-lr",
            size_hint=(None, None),
            row_default_height=dp(ROW),
            row_force_default=True,
            spacing=(dp(4), 0),
        )
        grid.bind(minimum_width=grid.setter("width"), minimum_height=grid.setter("height"))
        cells = [["Round", *series.labels]]
        for seat, name in enumerate(series.players):
            colour, letter = marker_of(seat)
            cells.append(
                [f"{letter} {shown_name(name)}", *(score_text(v) for v in series.of(name))]
            )
        for c in range(len(cells[0])):
            for r in range(len(cells)):
                grid.add_widget(
                    Label(
                        text=cells[r][c],
                        font_size="15sp",
                        bold=r == 0 or c == 0,
                        color=colours.rgba(marker_of(r - 1)[0]) if c == 0 and r else colours.TEXT,
                        size_hint_x=None,
                        width=dp(110) if c == 0 else dp(44),
                        halign="left" if c == 0 else "center",
                        text_size=(dp(106), None) if c == 0 else (None, None),
                        shorten=c == 0,
                    )
                )
        table.add_widget(grid)
        self.table_height = dp(ROW) * (len(series.players) + 1) + dp(6)

    def _final_screen(self):
        """The game's own screen at its last state, from a Session replayed from the log.
        It is shown under a cover that takes every touch: the past is not edited here."""
        if self._final is None:
            from companion.session import Session
            from companion.ui.game_screen import game_screen_class

            rec = self.rec
            session = Session.resume(catalogue.load(rec.game), self.ctx.log, rec.id)
            past = _PastContext(self.ctx, session)
            # the frame's own buttons look as dead as they are, whatever the screen redraws
            screen = game_screen_class(rec.game)(
                ctx=past, session=session, name="past", looking_only=True
            )
            self._final = Untouchable()
            self._final.add_widget(screen)
        return self._final


def _mode(rec) -> str:
    return mode_label(rec.game, rec.config)


class _PastRuntime:
    """The table's runtime as a past game's screen sees it: that game is already "in play"
    (so the screen never puts it on the table) and nothing the screen asks for happens."""

    sensor_faults: dict[str, str] = {}  # the table's sensors are not this game's

    def __init__(self, session) -> None:
        self.session = session

    def play(self, session) -> None:
        pass

    def subscribe(self, **_callbacks):
        return lambda: None

    def submit(self, event):
        return ()

    def undo(self) -> bool:
        return False

    def redo(self) -> bool:
        return False


class _PastContext:
    """The app's context for a past game's screen: everything as usual but the runtime."""

    def __init__(self, ctx, session) -> None:
        self._ctx, self.runtime = ctx, _PastRuntime(session)

    def __getattr__(self, name):
        return getattr(self._ctx, name)


class Untouchable(BoxLayout):
    def on_touch_down(self, touch):
        return self.collide_point(*touch.pos)

    def on_touch_move(self, touch):
        return self.collide_point(*touch.pos)

    def on_touch_up(self, touch):
        return self.collide_point(*touch.pos)
