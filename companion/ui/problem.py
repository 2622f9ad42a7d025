"""When the app cannot start: a plain screen that says what is wrong and what can be done.

The box has no keyboard and its owners are not programmers, so a refusal is never a black
screen or a crash loop: the screen names the problem, says that nothing was changed, and
offers what helps (put the newest backup back, start a fresh log with the damaged one kept
aside, try again). Each choice acts, then the app starts over from scratch.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kivy.app import App
from kivy.graphics import Color, Rectangle
from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from companion.errors import CompanionError, LogError, LogLost
from companion.storage import StorageError
from companion.store.backups import Backups
from companion.store.copies import BackupInfo, count_games
from companion.store.restore import restore, set_aside
from companion.ui import colours
from companion.ui.frames import after_first_flip
from companion.ui.widgets import BigButton


@dataclass(frozen=True)
class Problem:
    title: str
    advice: str
    detail: str  # the same line stderr and the journal get
    backup: BackupInfo | None  # offered for restore
    fresh_start: bool  # whether starting a new log could help


def problem_for(exc: Exception, log_path: Path) -> Problem:
    """What to tell people about a refusal to start, and which ways out to offer."""
    detail = str(exc)
    if isinstance(exc, StorageError):  # the card, not the log: setting the log aside cannot help
        return Problem(
            "The SD card cannot be written",
            "The game log is fine and nothing was changed. Free space on the card or change "
            "it, then try again.",
            detail,
            None,
            False,
        )
    if isinstance(exc, LogError) and "newer Table Companion" in detail:
        return Problem(
            "This game log is from a newer version",
            "Update Table Companion, then try again. Nothing was changed.",
            detail,
            None,
            False,
        )
    if isinstance(exc, LogError):
        newest = next(iter(Backups(log_path).list()), None)  # every page checked
        lost = isinstance(exc, LogLost)
        return Problem(
            "The game log has lost part of its history" if lost else "The game log cannot be read",
            "Nothing was changed or deleted. "
            + ("The backup below still holds them. " if lost and newest else "")
            + "Choose what to do:",
            detail,
            newest,
            True,
        )
    return Problem(
        "Table Companion cannot start",
        "Check the data folder and the table's connections, then try again.",
        detail,
        None,
        False,
    )


class ProblemScreen(BoxLayout):
    """The problem in plain words and a big button for each way out."""

    error_text = StringProperty("")

    def __init__(self, problem: Problem, log_path: Path, on_done: Callable[[str], None], **kw):
        super().__init__(orientation="vertical", padding=dp(16), spacing=dp(8), **kw)
        self.problem, self.log_path, self.on_done = problem, Path(log_path), on_done
        with self.canvas.before:
            Color(*colours.BACKGROUND)
            backdrop = Rectangle()
        self.bind(pos=lambda w, p: setattr(backdrop, "pos", p))
        self.bind(size=lambda w, s: setattr(backdrop, "size", s))
        self.add_widget(_text(problem.title, "28sp", colours.TEXT, bold=True, height=dp(44)))
        self.add_widget(_text(problem.advice, "18sp", colours.TEXT, height=dp(52)))
        self.add_widget(_text(problem.detail, "14sp", colours.MUTED))
        error = _text("", "16sp", colours.DANGER, height=dp(24))
        self.bind(error_text=lambda w, t: setattr(error, "text", t))
        self.add_widget(error)
        self.buttons = {}
        if problem.backup is not None:
            b = problem.backup
            self._button(
                "restore",
                f"Put back the backup from {b.made} ({count_games(b.games)})",
                colours.OK,
            )
        if problem.fresh_start:
            self._button(
                "fresh", "Start a new game log (the old one is kept aside)", colours.BUTTON
            )
        self._button("retry", "Try again", colours.BUTTON)

    def _button(self, name: str, text: str, tint) -> None:
        button = BigButton(text=text, tint=tint, size_hint_y=None, height=dp(56))
        button.bind(on_release=lambda _b: self.choose(name))
        self.buttons[name] = button
        self.add_widget(button)

    def choose(self, name: str) -> None:
        """Do what the button says; on success hand over (the app starts again)."""
        try:
            if name == "restore":
                restore(self.log_path, self.problem.backup.path)
            elif name == "fresh":
                set_aside(self.log_path)
        except (CompanionError, OSError) as exc:
            self.error_text = f"That did not work: {exc}"
            return
        self.on_done(name)


class ProblemApp(App):
    """The whole app while it cannot start: the problem screen alone."""

    title = "Table Companion"

    def __init__(self, problem: Problem, log_path: Path, on_first_frame=None, **kw):
        super().__init__(**kw)
        self.problem, self.log_path = problem, log_path
        self._on_first_frame = on_first_frame
        self.chosen: str | None = None

    def build(self):
        if self._on_first_frame:
            after_first_flip(self._on_first_frame)
        return ProblemScreen(self.problem, self.log_path, on_done=self._done)

    def _done(self, name: str) -> None:
        self.chosen = name
        self.stop()


def show_notice(lines: list[str]) -> ModalView:
    """A message over the app that stays until someone taps OK (e.g. a game set aside)."""
    view = ModalView(size_hint=(0.9, 0.6), auto_dismiss=False)
    box = BoxLayout(orientation="vertical", padding=dp(16), spacing=dp(10))
    with box.canvas.before:
        Color(*colours.PANEL)
        panel = Rectangle()
    box.bind(pos=lambda w, p: setattr(panel, "pos", p), size=lambda w, s: setattr(panel, "size", s))
    for line in lines:
        box.add_widget(_text(line, "18sp", colours.TEXT))
    box.add_widget(Widget())
    ok = BigButton(text="OK", size_hint_y=None, height=dp(56))
    ok.bind(on_release=lambda _b: view.dismiss())
    box.add_widget(ok)
    view.add_widget(box)
    view.open()
    return view


def _text(text: str, size: str, colour, bold: bool = False, height=None) -> Label:
    label = Label(text=text, font_size=size, color=colour, bold=bold, halign="left", valign="top")
    label.bind(size=lambda w, s: setattr(w, "text_size", s))
    if height is not None:
        label.size_hint_y, label.height = None, height
    return label
