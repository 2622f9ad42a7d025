"""The app: one ScreenManager with home, player set-up, settings and the game in play."""

from __future__ import annotations

import importlib
from pathlib import Path

from kivy.app import App
from kivy.clock import Clock
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager

from companion import games
from companion.errors import CompanionError
from companion.game import GameConfig
from companion.players import PLAYER_MARKERS
from companion.session import Session
from companion.ui import colours
from companion.ui.camera_link import TableWithTray
from companion.ui.context import AppContext
from companion.ui.game_screen import GameScreen
from companion.ui.widgets import BigButton

for _kv in ("home.kv", "setup.kv", "settings.kv"):
    Builder.load_file(str(Path(__file__).with_name("kv") / _kv))

DEFAULT_NAMES = ("Anna", "Ben", "Chloe", "David", "Emma", "Felix", "Greta", "Hugo", "Ines", "Jonas")


def game_screen_class(name: str) -> type[GameScreen]:
    """The game's own screen if it has one, else the shared frame with action buttons."""
    package = games.info(name).package
    try:
        return importlib.import_module(package + ".screen").GameScreen
    except ModuleNotFoundError as exc:
        if exc.name != package + ".screen":
            raise
        return GameScreen


def open_session_screen(ctx: AppContext, session: Session) -> GameScreen:
    screen = game_screen_class(session.game.name)(ctx=ctx, session=session)
    if ctx.table is not None:
        session.sinks.append(ctx.table.cue)
    ctx.listener, ctx.cue_listener = screen.table_event, screen.cue_from_any_thread
    package = importlib.import_module(games.info(session.game.name).package)
    ctx.watch_balls(getattr(package, "READS_BALLS", False))
    if ctx.camera is not None:
        session.sinks.append(ctx.camera.cue)
    return screen


class GameTile(BigButton):
    game_name = StringProperty("")


class HomeScreen(Screen):
    ctx = ObjectProperty(None)
    resume_text = StringProperty("")
    status_text = StringProperty("")

    def on_pre_enter(self, *_):
        self.refresh()

    def refresh(self):
        grid = self.ids.games
        grid.clear_widgets()
        for g in games.CATALOGUE:
            lo, hi = g.players
            players = f"{lo}-{hi} players" if lo != hi else f"{lo} player" + "s" * (lo > 1)
            grid.add_widget(
                GameTile(
                    game_name=g.name,
                    text=f"[b][size=26sp]{g.title}[/size][/b]\n"
                    f"[size=15sp]{g.blurb}  ·  {players}[/size]",
                    markup=True,
                    on_release=lambda b: self.manager.choose_game(b.game_name),
                )
            )
        rec = self.ctx.log.unfinished() if self.ctx else None
        self.resume_text = (
            f"Resume {games.info(rec.game).title}: {', '.join(rec.config['players'])}"
            if rec
            else ""
        )
        parts = ["Simulated table" if self.ctx and self.ctx.simulate else "Table hardware"]
        if self.ctx and self.ctx.table is not None:
            parts += [f"{k}: {v}" for k, v in getattr(self.ctx.table, "status", {}).items()]
        if self.ctx:
            parts += self.ctx.notices
        self.status_text = "  ·  ".join(parts)


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
    options = ObjectProperty(None, allownone=True)

    def prepare(self, name: str) -> None:
        info = games.info(name)
        self.game_name, self.title, self.error_text = name, info.title, ""
        lo, hi = info.players
        start = max(lo, min(hi, 3))
        self.names = list(DEFAULT_NAMES[:start])
        module = importlib.import_module(info.package)
        self._options = {o.key: o.default for o in getattr(module, "OPTIONS", ())}
        self._option_specs = tuple(getattr(module, "OPTIONS", ()))
        self._rebuild()

    def _rebuild(self) -> None:
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
        if len(self.names) < games.info(self.game_name).players[1]:
            used = set(self.names)
            self.names.append(next(n for n in DEFAULT_NAMES if n not in used))
            self._rebuild()

    def remove_player(self) -> None:
        self._collect()
        if len(self.names) > games.info(self.game_name).players[0]:
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
            "ask_threshold": s.ask_threshold,
            **self._options,
        }

    def start(self) -> None:
        self._collect()
        try:
            game = games.load(self.game_name)
            players = tuple(n.strip() for n in self.names)
            options = self._game_options()
            # A game may fill options from history (e.g. a solo best score to beat).
            module = importlib.import_module(games.info(self.game_name).package)
            if hasattr(module, "prepare_options"):
                options = module.prepare_options(self.ctx.log, players, options)
            config = GameConfig(players=players, options=options, seed=_seed())
            session = Session.start(game, self.ctx.log, config, clock=self.ctx.clock)
        except CompanionError as exc:
            self.error_text = str(exc)
            return
        self.manager.show_session(session)


class SettingsScreen(Screen):
    ctx = ObjectProperty(None)

    def change(self, **values) -> None:
        from dataclasses import replace

        self.ctx.save_settings(replace(self.ctx.settings, **values))
        self.property("ctx").dispatch(self)


class Root(ScreenManager):
    ctx = ObjectProperty(None)

    def __init__(self, ctx: AppContext, **kw):
        super().__init__(transition=NoTransition(), **kw)
        self.ctx = ctx
        self.add_widget(HomeScreen(name="home", ctx=ctx))
        self.add_widget(SetupScreen(name="setup", ctx=ctx))
        self.add_widget(SettingsScreen(name="settings", ctx=ctx))

    def choose_game(self, name: str) -> None:
        self.get_screen("setup").prepare(name)
        self.current = "setup"

    def resume(self, after_restart: bool = False) -> None:
        rec = self.ctx.log.unfinished()
        if rec is None:
            return
        try:
            session = Session.resume(
                games.load(rec.game), self.ctx.log, rec.id, clock=self.ctx.clock
            )
        except CompanionError as exc:  # the log is kept as it is; the home screen says why
            self.ctx.notices.append(f"Could not resume game #{rec.id}: {exc}")
            return
        if after_restart and session.timer is not None:
            # The box has just come back: let people sit down before the clock runs again.
            session.pause_timer()
        self.show_session(session)
        if after_restart:
            self.get_screen("game").show_banner(
                "Game restored where it stopped. Tap the clock to continue.", "ask"
            )

    def show_session(self, session: Session) -> None:
        if self.has_screen("game"):
            old = self.get_screen("game")
            old.close()
            self.remove_widget(old)
        self.add_widget(open_session_screen(self.ctx, session))
        self.current = "game"


class CompanionApp(App):
    title = "Table Companion"

    def __init__(self, ctx: AppContext, on_first_frame=None, resume_unfinished=False, **kw):
        super().__init__(**kw)
        self.ctx = ctx
        self._on_first_frame = on_first_frame
        self._resume = resume_unfinished

    def build(self):
        root = Root(self.ctx)
        if self._resume:
            root.resume(after_restart=True)  # same phase, same time left
        if self.ctx.simulate and self.ctx.table is not None:
            root = self._with_simulated_table(root)
        if self._on_first_frame:
            Clock.schedule_once(lambda dt: self._on_first_frame(), 0)
        return root

    def _with_simulated_table(self, screens):
        """The simulated table's lamp, buzzer, arcade buttons and ball chute under the
        screens, inside the window (the screens get what is left), with keyboard shortcuts."""
        from kivy.graphics import Color, Rectangle

        from companion.ui.sim_strip import STRIP_HEIGHT, SimPanel, bind_keyboard

        box = BoxLayout(orientation="vertical")
        with box.canvas.before:
            Color(*colours.PANEL)
            backdrop = Rectangle()
        box.bind(size=lambda w, size: setattr(backdrop, "size", size))
        box.add_widget(screens)
        table = self.ctx.table
        if self.ctx.sim_tray is not None:
            table = TableWithTray(table, self.ctx.sim_tray)  # dropped balls reach the camera
        box.add_widget(SimPanel(table=table, size_hint_y=None, height=dp(STRIP_HEIGHT)))
        bind_keyboard(table)
        return box

    def on_stop(self):
        self.ctx.watch_balls(False)
        if self.ctx.table is not None:
            self.ctx.table.close()
        self.ctx.log.close()


def _shown(value) -> str:
    """How an option's value reads on a button."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return "not set" if value is None else str(value)


def _seed() -> int:
    import secrets

    return secrets.randbelow(2**31)
