"""Every unfinished game in the log, with its game, players and age: resume or abandon each.
An abandoned game keeps its log (status "abandoned"); it only leaves this list."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion import catalogue
from companion.entries import GameRecord
from companion.errors import CompanionError
from companion.session import Session
from companion.ui import colours
from companion.ui.touch_guard import HoldButton
from companion.ui.widgets import BigButton, caption

Builder.load_file(str(Path(__file__).with_name("kv") / "unfinished.kv"))


def age(started: str, now: datetime | None = None) -> str:
    """'just now', '5 min ago', '3 h ago', '2 days ago' from an ISO time stamp."""
    try:
        then = datetime.fromisoformat(started)
    except (TypeError, ValueError):
        return "at an unknown time"
    if then.tzinfo is None:
        then = then.replace(tzinfo=UTC)
    seconds = max(0, ((now or datetime.now(UTC)) - then).total_seconds())
    if seconds < 60:
        return "just now"
    if seconds < 3600:
        return f"{seconds // 60:.0f} min ago"
    if seconds < 86400 * 2:
        return f"{seconds // 3600:.0f} h ago"
    return f"{seconds // 86400:.0f} days ago"


def describe(rec: GameRecord, now: datetime | None = None) -> str:
    """'Laser: Anna, Ben, Chloe (started 5 min ago)'."""
    try:
        title = catalogue.info(rec.game).title
    except CompanionError:
        title = rec.game
    players = ", ".join(rec.config.get("players", ())) or "no players"
    return f"{title}: {players} (started {age(rec.started, now)})"


def unfinished(log) -> list[GameRecord]:
    """Every active game, the one played last first."""
    return log.active_games()


def abandon(log, rec: GameRecord) -> None:
    """Mark a game abandoned, with its scores so far when its log can still be read."""
    try:
        Session.resume(catalogue.load(rec.game), log, rec.id).abandon()
    except CompanionError:  # an unreadable game still leaves the list; its log stays as is
        log.finish(rec.id, {}, status="abandoned")


class UnfinishedRow(BoxLayout):
    text = StringProperty("")


class UnfinishedScreen(Screen):
    ctx = ObjectProperty(None)
    heading = StringProperty("Unfinished games")

    def on_pre_enter(self, *_):
        self.refresh()

    def refresh(self) -> None:
        rows = self.ids.rows
        rows.clear_widgets()
        records = unfinished(self.ctx.log)
        self.heading = f"Unfinished games: {len(records)}" if records else "No unfinished games"
        for rec in records:
            row = UnfinishedRow(text=describe(rec))
            row.add_widget(
                BigButton(
                    text="Resume",
                    tint=colours.OK,
                    size_hint_x=None,
                    width=dp(110),
                    on_release=lambda _b, r=rec: self.manager.resume(r.id),
                )
            )
            row.add_widget(
                HoldButton(  # a tap, or two, only says to hold it
                    text="Abandon",
                    hint="Hold to abandon",
                    tint=colours.DANGER,
                    size_hint_x=None,
                    width=dp(150),
                    on_hold=lambda _b, r=rec: self.abandon(r),
                )
            )
            rows.add_widget(row)
        if not records:
            rows.add_widget(caption("Every game in the log is finished.", 18, halign="center"))

    def abandon(self, rec: GameRecord) -> None:
        """The game is abandoned (its Abandon button was held)."""
        self.manager.forget_session(rec.id)
        abandon(self.ctx.log, rec)
        self.refresh()
