"""Statistics per player, over every game or one: plays, wins and scores, then each game's
own lines (its `stats` module, shown as given)."""

from __future__ import annotations

import threading

from kivy.clock import Clock
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.utils import escape_markup

from companion.history import History
from companion.ui import colours
from companion.ui.history_common import ALL, game_title, next_game, score_text
from companion.ui.widgets import plain


class StatsScreen(Screen):
    ctx = ObjectProperty(None)
    game_filter = StringProperty(ALL)
    game_title = StringProperty(game_title(ALL))
    status_text = StringProperty("")

    def show(self, history: History, game: str = ALL) -> None:
        self.history, self.game_filter = history, game
        self.refresh()

    def next_game_filter(self) -> None:
        self.game_filter = next_game(self.game_filter)
        self.refresh()

    def on_game_filter(self, *_):
        self.game_title = game_title(self.game_filter)

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
                plain(s["player"]),
                plain(game_title(s["game"])),
                s["plays"],
                s["wins"],
                f"{s['win_rate'] * 100:.0f}",
                score_text(s["best"]),
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
        lines = [_line(**line) for line in data["lines"]]
        notes = self.ids.notes
        notes.clear_widgets()
        if lines:
            notes.add_widget(_column("\n".join(lines), 1, left=True))
        self.status_text = f"{data['games']} finished game{'s' * (data['games'] != 1)}"
        if done:
            self.ready.set()


def _line(game: str, title: str, player: str, text: str) -> str:
    """A game's statistics line: "<game title>, <player>: <text>" ("<title>: <text>")."""
    who = f", {plain(player)}" if player else ""
    return f"{plain(title)}{who}: {escape_markup(text)}"


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
