"""The driver inside the app process for benchmarks/kiosk.py: runs the real app (or a bare
Kivy window) and carries out commands read on stdin, one a line, each on the UI thread,
answering "ok ..." or "error ..." on stdout.

    python benchmarks/kiosk_driver.py sim|pi|bare

The app is started exactly as `companion run` starts it; "pi" runs it as on a Pi (the real
parts' code with mock pins, the camera and serial port as configured, absent here).
"""

from __future__ import annotations

import sys
import threading
import time


def child(mode: str) -> int:
    """Run the real app (or a bare Kivy window) and obey commands on stdin, one a line, each
    carried out on the UI thread. The app is started exactly as `companion run` starts it."""
    # Kivy's clock is loaded here, before the driver's thread may touch it (two threads
    # importing Kivy at once break its import); it creates no window.
    from kivy.clock import Clock

    running = threading.Event()
    Clock.schedule_once(lambda _dt: running.set())  # the first frame of the loop
    threading.Thread(target=_obey, args=(running,), daemon=True, name="bench-driver").start()
    if mode == "bare":
        return _bare_kivy()
    if mode == "pi":
        import hardware.table

        hardware.table.pi_present = lambda *a: True  # as on a Pi: real parts, mock pins
    from companion.cli import main

    return main(["run"] + (["--simulate"] if mode == "sim" else []))


def _bare_kivy() -> int:
    """Kivy alone: a screen manager with a home screen of five buttons over a strip with the
    frames of five ball buttons, as the app's (lines wider than a pixel, transparent until
    selected, which Kivy draws through the stencil), and game screens opened and closed
    like the app's (`bare-game`, `home`)."""
    from companion.ui.launch import configure_window

    configure_window((800, 480))
    from kivy.app import App as KivyApp
    from kivy.graphics import Color, Line
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.button import Button
    from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager
    from kivy.uix.widget import Widget

    class Bare(KivyApp):
        def build(self):
            screens = ScreenManager(transition=NoTransition())
            home = Screen(name="home")
            box = BoxLayout(orientation="vertical")
            for i in range(5):
                box.add_widget(Button(text=f"Button {i + 1}"))
            home.add_widget(box)
            screens.add_widget(home)
            window = BoxLayout(orientation="vertical")
            window.add_widget(screens)
            strip = Widget(size_hint_y=None, height=56)
            with strip.canvas:
                for i in range(5):
                    Color(1, 1, 1, 0)  # the frame of a ball button not selected
                    Line(rounded_rectangle=(10 + 110 * i, 4, 100, 48, 10), width=3)
            window.add_widget(strip)
            return window

    Bare().run()
    return 0


def _bare_game(name: str) -> str:
    from kivy.clock import Clock
    from kivy.graphics import Color, Line
    from kivy.uix.button import Button
    from kivy.uix.gridlayout import GridLayout
    from kivy.uix.label import Label
    from kivy.uix.screenmanager import Screen

    screens = _bare_screens()
    if screens.has_screen("game"):
        screens.remove_widget(screens.get_screen("game"))
    grid = GridLayout(cols=4)
    clock = Label(text="0")  # shows tenths of seconds: frames drawn while the screen is up
    grid.add_widget(clock)
    for i in range(11):
        grid.add_widget(Button(text=f"{name} {i + 1}"))
    with grid.canvas.after:
        Color(0, 0, 0, 0)  # the ring of a clock not running
        Line(circle=(760, 440, 30), width=4)
    screen = Screen(name="game")
    screen.add_widget(grid)
    ticker = Clock.schedule_interval(
        lambda _dt: setattr(clock, "text", str(int(clock.text) + 1)), 0.1
    )
    screen.bind(on_leave=lambda *_: ticker.cancel())
    screens.add_widget(screen)
    screens.current = "game"
    return name


def _obey(running: threading.Event) -> None:
    from kivy.clock import Clock

    running.wait()
    for line in sys.stdin:
        if line.split():
            print(_on_ui_thread(Clock, line.split()), flush=True)


def _on_ui_thread(clock, words: list[str]) -> str:
    done = threading.Event()
    result: list[str] = []

    def run(_dt):
        try:
            result.append("ok " + (COMMANDS[words[0]](*words[1:]) or ""))
        except Exception as exc:  # the parent stops with this message
            result.append(f"error {type(exc).__name__}: {exc}")
        done.set()

    clock.schedule_once(run)
    done.wait(60)
    return result[0] if result else "error: the UI thread did not answer"


def _app():
    from kivy.app import App as KivyApp

    return KivyApp.get_running_app()


def _root():
    from companion.ui.app import Root

    return next(w for w in _app().root.walk() if isinstance(w, Root))


def _home() -> str:
    bare = _bare_screens()
    (_root() if bare is None else bare).current = "home"
    return ""


def _bare_screens():
    """The bare Kivy app's screen manager (None in the app, whose Root is its own kind)."""
    from kivy.uix.screenmanager import ScreenManager

    return next((w for w in _app().root.walk() if type(w) is ScreenManager), None)


def _game(name: str) -> str:
    root = _root()
    root.choose_game(name)
    setup = root.get_screen("setup")
    setup.start()
    if setup.confirm_start:  # another game is unfinished: the second tap starts this one
        setup.start()
    return root.get_screen("game").session.game.name


def _clock() -> str:
    """Kritters with a turn clock: the first player is chosen and the clock runs."""
    from dataclasses import replace

    ctx = _app().ctx
    ctx.save_settings(replace(ctx.settings, turn_timer_seconds=900))
    _game("kritters")
    screen = _root().get_screen("game")
    for _ in range(5):
        timer = screen.session.timer
        if timer is not None and timer.running:
            return f"{timer.remaining():.0f} s left"
        screen.submit(screen.session.game.legal_actions(screen.session.state)[0])
    raise RuntimeError("no clock started")


def _drop(colour: str) -> str:
    """A ball down the simulated chute, as the strip's ball button drops it."""
    strip = next(w for w in _app().root.walk() if type(w).__name__ == "SimPanel")
    strip._drop(colour)
    return ""


def _reading() -> str:
    """Whether the game's camera reads frames yet (its first calibration takes seconds)."""
    camera = _app().ctx.runtime.camera
    if camera is None or camera.reading.is_set():
        return "yes"
    feed = camera.feed  # as on a Pi without a camera: it stays disconnected
    return "yes" if feed is not None and feed.camera.status.value == "disconnected" else "no"


def _alive() -> str:
    """How many game screens, sessions, camera links, textures and threads are alive (a
    closed game's should be gone). Instances only: Kivy's weak proxies to them pass
    isinstance too."""
    import gc

    from kivy.graphics.texture import Texture

    from companion.runtime.camera import CameraLink
    from companion.session import Session
    from companion.ui.game_screen import GameScreen

    gc.collect()
    kinds = (GameScreen, Session, CameraLink, Texture)
    counts = dict.fromkeys((k.__name__ for k in kinds), 0)
    for obj in gc.get_objects():
        for kind in kinds:
            counts[kind.__name__] += issubclass(type(obj), kind)
    counts["threads"] = threading.active_count()
    return " ".join(f"{k}={v}" for k, v in counts.items())


def _finish() -> str:
    """Finish every frame under the offscreen driver, as the app does (bare Kivy does not)."""
    from companion.ui.frames import finish_offscreen_frames

    finish_offscreen_frames()
    return ""


def _trace(what: str) -> str:
    """`trace start`: remember Python's allocations from now; `trace top`: the ten places
    whose allocations grew most since (tracemalloc)."""
    import tracemalloc

    if what == "start":
        tracemalloc.start(8)
        _TRACED[:] = [tracemalloc.take_snapshot()]
        return ""
    stats = tracemalloc.take_snapshot().compare_to(_TRACED[0], "lineno")
    return " | ".join(str(s) for s in stats[:10])


_TRACED: list = []


def _round() -> str:
    """A new Color Milk game on an emptied tray: the camera waits for its first ball."""
    tray = _app().ctx.runtime.tray
    if tray is not None:
        tray.clear()
    return _game("color-milk")


def _soak(seed: str) -> str:
    """Scripted Color Milk games, one after the other, paced like people at the table:
    predictions, balls down the simulated chute (the camera reads the tray), taps."""
    threading.Thread(target=_soak_loop, args=(int(seed),), daemon=True, name="soak").start()
    return ""


SOAK_STEP = 0.25  # seconds between two things people do


def _soak_loop(seed: int) -> None:
    import random

    from kivy.clock import Clock

    from companion.errors import IllegalMove
    from companion.games.color_milk.autoplay import ScriptedTable

    def on_ui(fn):
        done, out, failed = threading.Event(), [], []

        def run(_dt):
            try:
                out.append(fn())
            except IllegalMove:
                out.append(())
            except Exception as exc:  # the soak stops and says why; the app measured goes on
                failed.append(exc)
            done.set()

        Clock.schedule_once(run)
        done.wait(30)
        if failed:
            raise failed[0]
        time.sleep(SOAK_STEP)
        return out[0] if out else ()

    def submit(event):
        def apply():
            screen = _root().get_screen("game")
            cues = screen.runtime.submit(event)  # a touch, through the table's runtime
            screen.refresh()
            return cues

        return on_ui(apply)

    rng = random.Random(seed)
    try:
        while True:
            on_ui(_round)
            table = ScriptedTable(
                submit=submit,
                state=lambda: _root().get_screen("game").session.state,
                rng=rng,
                drop=lambda colour: on_ui(lambda: _drop(colour)),
            )
            table.play(max_rounds=12)
            _SOAKED["games"] += 1
    except Exception as exc:  # the report says the soak stopped, and why
        _SOAKED["error"] = f"{type(exc).__name__}: {exc}"


_SOAKED = {"games": 0, "error": ""}


def _soaked() -> str:
    stopped = f"; stopped: {_SOAKED['error']}" if _SOAKED["error"] else ""
    return f"{_SOAKED['games']} games played{stopped}"


def _frames() -> str:
    """How many frames the window has drawn since the driver first asked."""
    if not _FRAMES:
        from kivy.core.window import Window

        _FRAMES.append(0)
        Window.bind(on_flip=lambda *_: _FRAMES.__setitem__(0, _FRAMES[0] + 1))
    return str(_FRAMES[0])


_FRAMES: list[int] = []


def _camera(on: str) -> str:
    _app().ctx.watch_balls(on == "on")
    return ""


COMMANDS = {
    "frames": _frames,
    "camera": _camera,
    "ping": lambda: "",
    "home": _home,
    "game": _game,
    "clock": _clock,
    "drop": _drop,
    "round": _round,
    "trace": _trace,
    "alive": _alive,
    "bare-game": _bare_game,
    "finish": _finish,
    "reading": _reading,
    "soaked": _soaked,
    "soak": _soak,
}


if __name__ == "__main__":
    sys.exit(child(sys.argv[1]))
