"""History: past games newest first, filtered by game and player. One past game opens on
its own screen (past_game_screen), the statistics on theirs (stats_screen).

The screens only draw: the list and the statistics come from `companion.history` (each
game's own lines from its `stats` module, shown as given), the replay from `companion.rounds`.
"""

from __future__ import annotations

from kivy.properties import ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.history import History
from companion.ui.history_common import ALL, game_title, next_game, score_text
from companion.ui.past_game_screen import HistoryGameScreen
from companion.ui.stats_screen import StatsScreen
from companion.ui.widgets import BigButton, plain


def row_text(s) -> str:
    """Two lines for the list: when (the date as recorded), what, how it ended. Everything
    stored is shown as plain text: a name is never read as markup."""
    when = plain(s.started[:16].replace("T", " "))
    mode = f" · {plain(s.mode)}" if s.mode else ""
    status = "  [color=ffb347](abandoned)[/color]" if s.status == "abandoned" else ""
    if s.damaged:
        return (
            f"[size=15sp]{when}  [b]{plain(game_title(s.game))}[/b][/size]\n"
            f"[size=18sp][color=ffb347]Damaged record: {plain(s.damaged)}[/color][/size]"
        )
    scores = "   ".join(
        f"[b]{plain(p)} {score_text(s.scores.get(p))}[/b]"
        if p in s.winners
        else f"{plain(p)} {score_text(s.scores.get(p))}"
        for p in s.players
    )
    won = " & ".join(plain(w) for w in s.winners)
    won = f"   [color=7fd68a]{won} won[/color]" if won and s.status == "finished" else ""
    return (
        f"[size=15sp]{when}  [b]{plain(game_title(s.game))}[/b]{mode}{status}[/size]\n"
        f"[size=18sp]{scores}{won}[/size]"
    )


class HistoryRow(BigButton):
    game_id = NumericProperty(0)
    screen = ObjectProperty(None)


class HistoryScreen(Screen):
    ctx = ObjectProperty(None)
    game_filter = StringProperty(ALL)
    game_title = StringProperty(game_title(ALL))
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
        self.game_filter = next_game(self.game_filter)
        self.refresh()

    def on_game_filter(self, *_):
        self.game_title = game_title(self.game_filter)

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


def add_history_screens(manager, ctx) -> None:
    manager.add_widget(HistoryScreen(name="history", ctx=ctx))
    manager.add_widget(HistoryGameScreen(name="history_game", ctx=ctx))
    manager.add_widget(StatsScreen(name="stats", ctx=ctx))
