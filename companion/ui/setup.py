"""Player set-up: who sits where (typed on the on-screen keyboard or picked from people who
played before), the game's options, and a word first when other games are unfinished."""

from __future__ import annotations

import importlib
from pathlib import Path

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion import catalogue
from companion.errors import CompanionError
from companion.game import GameConfig
from companion.players import PLAYER_MARKERS, name_problem, shown_name
from companion.session import Session
from companion.ui import touch_guard  # noqa: F401  (HoldButton, in setup.kv)
from companion.ui.touch_keyboard import dock, keyboard_top, known_names
from companion.ui.unfinished import describe, unfinished
from companion.ui.widgets import BigButton

Builder.load_file(str(Path(__file__).with_name("kv") / "setup.kv"))

# Suggested names, one per seat up to the most any game seats (entries.MAX_SEATS).
DEFAULT_NAMES = (
    "Anna", "Ben", "Chloe", "David", "Emma", "Felix",
    "Greta", "Hugo", "Ines", "Jonas", "Kira", "Leo",
)  # fmt: skip


def default_name(used) -> str:
    """The first suggested name not seated yet; "Player N" once every one is (names typed
    over the seats may take them all)."""
    used = set(used)
    free = (n for n in DEFAULT_NAMES if n not in used)
    return next(free, None) or next(
        f"Player {i}" for i in range(1, len(used) + 2) if f"Player {i}" not in used
    )


class PlayerRow(BoxLayout):
    screen = ObjectProperty(None)
    index = NumericProperty(0)
    marker = StringProperty("red")
    letter = StringProperty("R")
    player_name = StringProperty("")


class SetupScreen(Screen):
    ctx = ObjectProperty(None)
    game_name = StringProperty("")
    title = StringProperty("")
    names = ListProperty()
    error_text = StringProperty("")
    confirm_start = BooleanProperty(False)  # unfinished games were pointed out: start anyway
    played_before = ListProperty()  # names from the log, for the pick-list
    picks_left = BooleanProperty(False)  # some of them are not seated yet
    keyboard_room = NumericProperty(0)  # px kept free at the bottom for the on-screen keyboard
    options = ObjectProperty(None, allownone=True)

    def prepare(self, name: str) -> None:
        info = catalogue.info(name)
        self.game_name, self.title, self.error_text = name, info.title, ""
        self.confirm_start = False
        self._seat = None  # the seat a picked name goes to (the one last tapped)
        lo, hi = info.players
        start = max(lo, min(hi, 3))
        self.names = list(DEFAULT_NAMES[:start])
        module = importlib.import_module(info.package)
        self._options = {o.key: o.default for o in getattr(module, "OPTIONS", ())}
        self.played_before = known_names(self.ctx.log) if self.ctx else []
        self._option_specs = tuple(getattr(module, "OPTIONS", ()))
        self._rebuild()

    def _rebuild(self) -> None:
        self._fill_pick_list()
        rows = self.ids.rows
        rows.clear_widgets()
        for i, n in enumerate(self.names):
            marker, letter = PLAYER_MARKERS[i % len(PLAYER_MARKERS)]
            rows.add_widget(
                PlayerRow(screen=self, index=i, marker=marker, letter=letter, player_name=n)
            )
        box = self.ids.options
        box.clear_widgets()
        for spec in self._option_specs:
            value = self._options[spec.key]
            box.add_widget(
                BigButton(
                    text=f"{spec.label}: {_shown(value)}",
                    size_hint_y=None,
                    height=dp(52),
                    on_release=lambda b, s=spec: self._cycle_option(s),
                )
            )

    def on_pre_enter(self, *_):
        from kivy.core.window import Window

        dock(Window)  # tapping a name brings up the on-screen keyboard

    def focused(self, index: int, on: bool = True) -> None:
        """A name field was tapped (or let go): make room above the on-screen keyboard."""
        if on:
            self._seat = index
        Clock.schedule_once(lambda _dt: self._make_room(index), 0)

    def _make_room(self, index: int) -> None:
        from kivy.core.window import Window

        typing = any(r.ids.name.focus for r in self.ids.rows.children)
        top = keyboard_top(Window) if typing else 0
        self.keyboard_room = max(0.0, top - self.to_window(0, 0)[1])
        row = next((r for r in self.ids.rows.children if r.index == index), None)
        scroll = self.ids.rows.parent
        if self.keyboard_room and row is not None:
            Clock.schedule_once(lambda _dt: scroll.scroll_to(row, animate=False), 0)
        elif not self.keyboard_room:
            scroll.scroll_y = 1  # the seats from the top again

    def pick_name(self, name: str) -> None:
        """A name from the pick-list goes to the seat last tapped, else to the first seat
        still showing a suggested name, else to a new seat."""
        self._collect()
        if name in self.names:
            return
        seat = self._seat
        if seat is None or seat >= len(self.names):
            seat = next((i for i, n in enumerate(self.names) if n in DEFAULT_NAMES), None)
        if seat is None:
            if len(self.names) >= catalogue.info(self.game_name).players[1]:
                return
            self.names.append(name)
        else:
            self.names[seat] = name
        self._seat = None
        self._rebuild()

    def _fill_pick_list(self) -> None:
        box = self.ids.picks
        box.clear_widgets()
        seated = set(self.names)
        self.picks_left = any(n not in seated for n in self.played_before)
        for name in self.played_before:
            if name in seated:
                continue
            box.add_widget(
                BigButton(
                    text=name,
                    font_size="18sp",
                    size_hint_x=None,
                    width=max(dp(80), dp(18) + dp(11) * len(name)),
                    on_release=lambda _b, n=name: self.pick_name(n),
                )
            )

    def _cycle_option(self, spec) -> None:
        choices = list(spec.choices)
        current = self._options[spec.key]
        i = choices.index(current) if current in choices else -1
        self._options[spec.key] = choices[(i + 1) % len(choices)]
        self._collect()
        self._rebuild()

    def _collect(self) -> None:
        self.names = [r.ids.name.text for r in reversed(self.ids.rows.children)]

    def add_player(self) -> None:
        self._collect()
        if len(self.names) < catalogue.info(self.game_name).players[1]:
            self.names.append(default_name(self.names))
            self._rebuild()

    def remove_player(self) -> None:
        self._collect()
        if len(self.names) > catalogue.info(self.game_name).players[0]:
            self.names.pop()
            self._rebuild()

    def move_up(self, index: int) -> None:
        self._collect()
        if index > 0:
            self.names[index - 1], self.names[index] = self.names[index], self.names[index - 1]
            self._rebuild()

    def _game_options(self) -> dict:
        """The game's own choices plus the table-wide settings that games read."""
        s = self.ctx.settings
        return {
            "learning": s.learning_mode,
            "turn_timer": s.turn_timer_seconds,
            "phase_seconds": s.phase_seconds,
            "ask_threshold": s.ask_threshold,
            **self._options,
        }

    def start(self) -> None:
        self._collect()
        waiting = unfinished(self.ctx.log)
        if waiting and not self.confirm_start:
            # Say so before a new game joins them; holding Start then starts it anyway.
            self.confirm_start = True
            more = f" and {len(waiting) - 1} more" if len(waiting) > 1 else ""
            self.error_text = f"Not finished yet: {describe(waiting[0])}{more}."
            return
        for name in self.names:
            if name.strip() and (why := name_problem(name)):
                self.error_text = f"{shown_name(name)}: {why}."
                return
        try:
            game = catalogue.load(self.game_name)
            players = tuple(n.strip() for n in self.names)
            options = self._game_options()
            # A game may fill options from history (e.g. a solo best score to beat).
            module = importlib.import_module(catalogue.info(self.game_name).package)
            if hasattr(module, "prepare_options"):
                options = module.prepare_options(self.ctx.log, players, options)
            config = GameConfig(players=players, options=options, seed=_seed())
            session = Session.start(game, self.ctx.log, config, clock=self.ctx.clock)
        except CompanionError as exc:
            self.error_text = str(exc)
            return
        self.manager.show_session(session)


def _shown(value) -> str:
    """How an option's value reads on a button."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return "not set" if value is None else str(value)


def _seed() -> int:
    import secrets

    return secrets.randbelow(2**31)
