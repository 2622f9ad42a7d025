"""History and Statistics: past games newest first, filtered by game and player; one game's
final screen and round-by-round record, replayed from the log; statistics per player.

The screens only draw: the list comes from `companion.history`, the numbers from
`companion.stats`, the replay from `companion.rounds`.
"""

from __future__ import annotations

import threading
from pathlib import Path

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion import games
from companion.history import History
from companion.rounds import ScoreSeries
from companion.ui import colours
from companion.ui.chart import marker_of
from companion.ui.results import ResultsPanel, summary_text
from companion.ui.widgets import BigButton

ALL = ""
ROW = 22  # dp: a row of the round-by-round table


def _title(name: str) -> str:
    return games.info(name).title if name else "All games"


def _next_game(name: str) -> str:
    names = [ALL, *(g.name for g in games.catalogue())]
    return names[(names.index(name) + 1) % len(names)]


def _score(v) -> str:
    return f"{v:g}" if isinstance(v, int | float) and not isinstance(v, bool) else str(v or "-")


def row_text(s) -> str:
    """Two lines for the list: when, what, how it ended."""
    when = s.started[:16].replace("T", " ")
    mode = f" · {s.mode}" if s.mode else ""
    status = "  [color=ffb347](abandoned)[/color]" if s.status == "abandoned" else ""
    scores = "   ".join(
        f"[b]{p} {_score(s.scores.get(p))}[/b]"
        if p in s.winners
        else f"{p} {_score(s.scores.get(p))}"
        for p in s.players
    )
    won = " & ".join(s.winners)
    won = f"   [color=7fd68a]{won} won[/color]" if won and s.status == "finished" else ""
    return (
        f"[size=15sp]{when}  [b]{_title(s.game)}[/b]{mode}{status}[/size]\n"
        f"[size=18sp]{scores}{won}[/size]"
    )


class HistoryRow(BigButton):
    game_id = NumericProperty(0)
    screen = ObjectProperty(None)


class HistoryScreen(Screen):
    ctx = ObjectProperty(None)
    game_filter = StringProperty(ALL)
    game_title = StringProperty(_title(ALL))
    player_filter = StringProperty(ALL)
    count_text = StringProperty("")
    rows = ListProperty()

    def history(self) -> History:
        if getattr(self, "_history", None) is None or self._history.log is not self.ctx.log:
            self._history = History.beside(self.ctx.log)
        return self._history

    def on_pre_enter(self, *_):
        self.refresh()

    def refresh(self) -> None:
        found = self.history().summaries(self.game_filter or None, self.player_filter or None)
        self.rows = [
            {"text": row_text(s), "game_id": s.id, "screen": self, "markup": True} for s in found
        ]
        self.count_text = (
            f"{len(found)} game{'s' * (len(found) != 1)}" if found else "No finished games yet"
        )

    def next_game_filter(self) -> None:
        self.game_filter = _next_game(self.game_filter)
        self.refresh()

    def on_game_filter(self, *_):
        self.game_title = _title(self.game_filter)

    def next_player_filter(self) -> None:
        names = [ALL, *self.history().players()]
        i = names.index(self.player_filter) if self.player_filter in names else 0
        self.player_filter = names[(i + 1) % len(names)]
        self.refresh()

    def open_game(self, game_id: int) -> None:
        screen = self.manager.get_screen("history_game")
        screen.show(self.history(), game_id)
        self.manager.current = "history_game"

    def open_stats(self) -> None:
        screen = self.manager.get_screen("stats")
        screen.show(self.history(), self.game_filter)
        self.manager.current = "stats"


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
        info = games.info(rec.game)
        mode = _mode(rec)
        self.title = f"{info.title}{f' · {mode}' if mode else ''} · {rec.started[:10]}"
        self.can_show_final = int(rec.status == "finished")
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
        panel = ResultsPanel()
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
            return series, text

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
            cells.append([f"{letter} {name}", *(_score(v) for v in series.of(name))])
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
            session = Session.resume(games.load(rec.game), self.ctx.log, rec.id)
            past = _PastContext(self.ctx, session)
            screen = game_screen_class(rec.game)(ctx=past, session=session, name="past")
            for key in ("undo", "redo"):  # the frame's own buttons look as dead as they are
                if key in screen.ids:
                    screen.ids[key].disabled = True
            self._final = Untouchable()
            self._final.add_widget(screen)
        return self._final


def _mode(rec) -> str:
    from companion.history import mode_label

    return mode_label(rec.game, rec.config)


class _PastRuntime:
    """The table's runtime as a past game's screen sees it: that game is already "in play"
    (so the screen never puts it on the table) and nothing the screen asks for happens."""

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


class StatsScreen(Screen):
    ctx = ObjectProperty(None)
    game_filter = StringProperty(ALL)
    game_title = StringProperty(_title(ALL))
    status_text = StringProperty("")

    def show(self, history: History, game: str = ALL) -> None:
        self.history, self.game_filter = history, game
        self.refresh()

    def next_game_filter(self) -> None:
        self.game_filter = _next_game(self.game_filter)
        self.refresh()

    def on_game_filter(self, *_):
        self.game_title = _title(self.game_filter)

    def refresh(self) -> None:
        self.ready = threading.Event()
        history = self.history
        records = history.finished(self.game_filter or None)
        pending = history.pending(history.needs_facts(records))
        self._fill(history.tally(records))  # plays, wins and scores need no replay
        if not pending:
            self.ready.set()
            return
        self.status_text += f" · replaying {len(pending)} games for their rounds..."

        def work():
            history.fill(pending)
            data = history.tally(records)
            Clock.schedule_once(lambda _dt: self._fill(data, done=True))

        threading.Thread(target=work, name="statistics", daemon=True).start()

    def _fill(self, data, done: bool = False) -> None:
        """One label per column (a thousand games make a few dozen rows; eight labels draw
        them at once where a label per cell would not)."""
        head = ("Player", "Game", "Plays", "Wins", "Win %", "Best", "Average", "Streak")
        columns: list[list[str]] = [[f"[b]{h}[/b]"] for h in head]
        for s in data["players"]:
            row = (
                s["player"],
                _title(s["game"]),
                s["plays"],
                s["wins"],
                f"{s['win_rate'] * 100:.0f}",
                _score(s["best"]),
                "-" if s["average"] is None else f"{s['average']:.1f}",
                f"{s['streak']} (best {s['best_streak']})",
            )
            for col, v in zip(columns, row, strict=True):
                col.append(str(v))
        grid = self.ids.grid
        grid.clear_widgets()
        grid.height = 0
        for i, col in enumerate(columns):
            label = _column("\n".join(col), WIDTHS[i], left=i < 2)
            label.bind(height=lambda *_: setattr(grid, "height", _tallest(grid)))
            grid.add_widget(label)
        lines = []
        for p, b in data["laser_bids"].items():
            lines.append(f"Laser, {p}: bid the true optimum {b['optimal']} of {b['bids']} times")
        for p, sizes in data["color_milk_predictions"].items():
            parts = " · ".join(f"{k}: {v[1]}/{v[0]}" for k, v in sizes.items())
            lines.append(f"Color Milk, {p}: predictions fulfilled by colours named - {parts}")
        for p, best in data["kritters_solo_best"].items():
            lines.append(f"Kritters: {p}'s solo best is {_score(best)}")
        notes = self.ids.notes
        notes.clear_widgets()
        if lines:
            notes.add_widget(_column("\n".join(lines), 1, left=True))
        self.status_text = f"{data['games']} finished game{'s' * (data['games'] != 1)}"
        if done:
            self.ready.set()


def add_history_screens(manager, ctx) -> None:
    manager.add_widget(HistoryScreen(name="history", ctx=ctx))
    manager.add_widget(HistoryGameScreen(name="history_game", ctx=ctx))
    manager.add_widget(StatsScreen(name="stats", ctx=ctx))


def _tallest(box) -> float:
    return max((c.height for c in box.children), default=0)


WIDTHS = (1.3, 1.7, 0.7, 0.7, 0.7, 0.7, 0.9, 1.2)  # share of the row for each column


def _column(text: str, share: float, left: bool) -> Label:
    label = Label(
        text=text,
        markup=True,
        font_size="16sp",
        line_height=1.35,
        color=colours.TEXT,
        size_hint=(share, None),
        halign="left" if left else "center",
        valign="top",
    )
    label.bind(
        width=lambda w, width: setattr(w, "text_size", (width, None)),
        texture_size=lambda w, ts: setattr(w, "height", ts[1]),
    )
    return label


Builder.load_file(str(Path(__file__).with_name("kv") / "history.kv"))
