"""The app: one ScreenManager with home, player set-up, settings and the game in play."""

from __future__ import annotations

import contextlib
from pathlib import Path

from kivy.app import App
from kivy.clock import Clock
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager

from companion import catalogue
from companion.errors import CompanionError
from companion.files import write_atomically
from companion.paths import on_screen_path
from companion.session import Session
from companion.speech import voice_for
from companion.ui import colours, touch_guard
from companion.ui.calib_screen import CameraSetupScreen
from companion.ui.context import AppContext
from companion.ui.frames import after_first_flip, finish_offscreen_frames
from companion.ui.game_screen import GameScreen, game_screen_class
from companion.ui.history_screen import add_history_screens
from companion.ui.setup import SetupScreen
from companion.ui.unfinished import UnfinishedScreen, describe, unfinished
from companion.ui.widgets import BigButton

SETTINGS_NOTE = "Colours always come with a letter. Settings are saved at once."

for _kv in ("home.kv", "settings.kv"):
    Builder.load_file(str(Path(__file__).with_name("kv") / _kv))


def open_session_screen(ctx: AppContext, session: Session) -> GameScreen:
    """The game goes into play on the table's runtime; its screen listens to it."""
    ctx.runtime.play(session)
    session.sinks.append(voice_for(ctx).cue)  # spoken cues, when switched on in Settings
    return game_screen_class(session.game.name)(ctx=ctx, session=session)


class GameTile(BigButton):
    game_name = StringProperty("")


class HomeScreen(Screen):
    ctx = ObjectProperty(None)
    resume_text = StringProperty("")
    unfinished_text = StringProperty("")
    status_text = StringProperty("")
    SETTLE = 2.0  # s after Home shows: the game's screen and the camera have let go by then

    def on_pre_enter(self, *_):
        self.refresh()

    def on_enter(self, *_):
        Clock.schedule_once(_let_go, self.SETTLE)

    def refresh(self):
        grid = self.ids.games
        grid.clear_widgets()
        for g in catalogue.games():
            lo, hi = g.players
            players = f"{lo}-{hi} players" if lo != hi else f"{lo} player" + "s" * (lo > 1)
            grid.add_widget(
                GameTile(
                    game_name=g.name,
                    text=f"[b][size=24sp]{g.title}[/size][/b]\n"
                    f"[size=15sp]{g.blurb}  ·  {players}[/size]",
                    markup=True,
                    on_release=lambda b: self.manager.choose_game(b.game_name),
                )
            )
        records = unfinished(self.ctx.log) if self.ctx else []
        self.resume_text = f"Resume {describe(records[0])}" if records else ""
        self.unfinished_text = f"All unfinished: {len(records)}" if records else ""
        parts = ["Simulated table" if self.ctx and self.ctx.simulate else "Table hardware"]
        if self.ctx and self.ctx.table is not None:
            parts += [f"{k}: {v}" for k, v in getattr(self.ctx.table, "status", {}).items()]
        if self.ctx:
            parts += self.ctx.notices
            if self.ctx.log.storage.text:
                parts.append(self.ctx.log.storage.text)
        self.status_text = "  ·  ".join(parts)


def _let_go(_dt) -> None:
    """The game left for Home is garbage now (its screen's widgets hold cycles): collected
    at once, and its pages given back, so an evening of games does not pile up."""
    import gc

    from companion import memory

    gc.collect()
    memory.give_back()


class SettingsScreen(Screen):
    ctx = ObjectProperty(None)
    note = StringProperty(SETTINGS_NOTE)

    def change(self, **values) -> None:
        from dataclasses import replace

        self.note = self.ctx.save_settings(replace(self.ctx.settings, **values)) or SETTINGS_NOTE
        self.property("ctx").dispatch(self)


class Root(ScreenManager):
    ctx = ObjectProperty(None)

    def __init__(self, ctx: AppContext, **kw):
        super().__init__(transition=NoTransition(), **kw)
        self.ctx = ctx
        self.add_widget(HomeScreen(name="home", ctx=ctx))
        self.add_widget(SetupScreen(name="setup", ctx=ctx))
        self.add_widget(SettingsScreen(name="settings", ctx=ctx))
        self.add_widget(CameraSetupScreen(name="camera_setup", ctx=ctx))
        # The table's buttons act on the game people see, never on one behind Home.
        ctx.runtime.wants_buttons = lambda: self.current == "game"
        add_history_screens(self, ctx)
        self.add_widget(UnfinishedScreen(name="unfinished", ctx=ctx))
        home = self.get_screen("home")
        ctx.log.storage.subscribe(lambda _text: Clock.schedule_once(lambda dt: home.refresh()))

    def choose_game(self, name: str) -> None:
        self.get_screen("setup").prepare(name)
        self.current = "setup"

    def resume(self, game_id: int | None = None, after_restart: bool = False) -> None:
        """Open an unfinished game (the one played last if `game_id` is None) where it
        stopped."""
        waiting = unfinished(self.ctx.log)
        if game_id is None:  # the game on screen at the power cut, else the one played last
            shown = next((r for r in waiting if r.id == self._on_screen()), None)
            rec = shown or self.ctx.log.unfinished()
        else:
            rec = next((r for r in waiting if r.id == game_id), None)
        if rec is None:
            return
        if self.has_screen("game") and self.get_screen("game").session.game_id == rec.id:
            self.current = "game"  # already open: go back to it as it is
            return
        try:
            session = Session.resume(
                catalogue.load(rec.game), self.ctx.log, rec.id, clock=self.ctx.clock
            )
        except CompanionError as exc:  # the log is kept as it is; the home screen says why
            self.ctx.notices.append(f"Could not resume game #{rec.id}: {exc}")
            return
        if after_restart and session.timer is not None:
            # The box has just come back: let people sit down before the clock runs again.
            session.pause_timer()
        self.show_session(session)
        if after_restart:
            # Only a game with a clock has one to tap.
            tap = " Tap the clock to continue." if session.timer is not None else ""
            self.get_screen("game").show_banner(f"Game restored where it stopped.{tap}", "ask")

    def forget_session(self, game_id: int) -> None:
        """Close the game screen if it shows this game (it is being abandoned)."""
        if self.has_screen("game") and self.get_screen("game").session.game_id == game_id:
            self._drop_game_screen()
            self.ctx.runtime.stop()  # the table no longer plays an abandoned game

    def show_session(self, session: Session) -> None:
        if self.has_screen("game"):
            self._drop_game_screen()
        self.add_widget(open_session_screen(self.ctx, session))
        self.current = "game"
        # A game resumed from the list and not yet played is still the one at the table.
        with contextlib.suppress(OSError):  # a full card: the game played last opens instead
            write_atomically(on_screen_path(self.ctx.data_dir), str(session.game_id).encode())

    def _on_screen(self) -> int | None:
        try:
            return int(on_screen_path(self.ctx.data_dir).read_text())
        except (OSError, ValueError):
            return None

    def _drop_game_screen(self) -> None:
        """The game screen goes for good: it stops listening, and nothing keeps it (a
        transition holds on to the last two screens it switched between: a fresh one)."""
        old = self.get_screen("game")
        old.close()
        self.remove_widget(old)
        if old in (self.transition.screen_in, self.transition.screen_out):
            self.transition = NoTransition()


class CompanionApp(App):
    title = "Table Companion"

    def __init__(self, ctx: AppContext, on_first_frame=None, resume_unfinished=False, **kw):
        super().__init__(**kw)
        self.ctx = ctx
        self._on_first_frame = on_first_frame
        self._resume = resume_unfinished

    def build(self):
        from kivy.core.window import Window

        finish_offscreen_frames()
        touch_guard.install(Window, self.ctx.clock)  # every touch, every screen
        root = Root(self.ctx)
        if self._resume:
            root.resume(after_restart=True)  # same phase, same time left
        if self.ctx.simulate and self.ctx.runtime.hands is not None:
            root = self._with_simulated_table(root)
        if self._on_first_frame:
            after_first_flip(self._on_first_frame)
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
        hands = self.ctx.runtime.hands  # on the rendered tray too, when the camera is simulated
        strip = SimPanel(
            table=self.ctx.table, hands=hands, size_hint_y=None, height=dp(STRIP_HEIGHT)
        )
        box.add_widget(strip)
        bind_keyboard(hands, wanted=lambda: screens.current == "game")
        return box

    def on_stop(self):
        touch_guard.uninstall()
        self.ctx.close()
