"""Runs the real app (`companion run ...`) in a real window and shows one screen after
another on request, for tests/ui/test_real_window.py.

    python tests/ui/window_driver.py [run options]     # e.g. --simulate, --size 800x480

Reads screen names on stdin ("home", "history", "stats", a game's name: its first screen, or
"here": the screen as it is now); for each it shows
the screen, lets Kivy lay it out and draw it, and answers one JSON line on stdout: the
window's size and every visible widget's box in window pixels (x, y from the top left,
as a screenshot has them), with its class and text. Widgets scrolled inside a ScrollView
are left out (the ScrollView itself is reported).
"""

from __future__ import annotations

import json
import sys
import threading

from kivy.clock import Clock  # loaded before the driver's thread can touch it; no window yet

FRAMES = 3  # frames to wait after a change: layout, then drawing


def boxes(window) -> list[dict]:
    from kivy.uix.scrollview import ScrollView

    out = []

    def visit(widget, visible: bool) -> None:
        if not visible or widget.opacity == 0:
            return
        if widget.width > 0 and widget.height > 0:
            x0, y0 = widget.to_window(widget.x, widget.y)
            x1, y1 = widget.to_window(widget.right, widget.top)
            text = getattr(widget, "text", "")
            out.append(
                {
                    "cls": type(widget).__name__,
                    "text": text if isinstance(text, str) else "",
                    "box": [x0, window.height - y1, x1, window.height - y0],
                }
            )
        inside = not isinstance(widget, ScrollView)
        for child in widget.children:
            visit(child, inside)

    for top in window.children:
        visit(top, True)
    return out


def show(name: str) -> None:
    from kivy.app import App

    from companion.ui.app import Root

    screens = next(w for w in App.get_running_app().root.walk() if isinstance(w, Root))
    if name == "here":  # as it is now (after taps from outside)
        return
    if name == "home":
        screens.current = "home"
    elif name in ("history", "stats"):
        screens.current = name
        if name == "stats":
            screens.get_screen("stats").show(screens.get_screen("history").history())
    else:
        screens.choose_game(name)
        setup = screens.get_screen("setup")
        setup.start()
        if setup.confirm_start:  # the game before it is unfinished: holding Start confirms
            setup.start()


def facts() -> dict:
    """The games on the home screen's tiles, the title of the game in play, the History
    rows and every text of the screen in view."""
    from kivy.app import App

    from companion.ui.app import GameTile, Root
    from companion.ui.game_screen import GameScreen
    from companion.ui.history_screen import HistoryScreen

    root = App.get_running_app().root
    tiles = [w.game_name for w in root.walk() if isinstance(w, GameTile)]
    shown = [w for w in root.walk() if isinstance(w, GameScreen)]
    screens = next(w for w in root.walk() if isinstance(w, Root))
    current = screens.current_screen
    return {
        "games": tiles[::-1],
        "title": shown[0].title if shown else None,
        # the rows of the History list as laid out (scrolled ones too), newest first
        "history": [r["text"] for r in current.rows] if isinstance(current, HistoryScreen) else [],
        # every text on the screen in view, scrolled or not
        "texts": [
            t for w in current.walk() if isinstance(t := getattr(w, "text", None), str) and t
        ],
    }


def drawn(done: threading.Event, frames: int = 2) -> None:
    """Set `done` once the window has drawn what was measured: the app draws only when
    something changed, so ask for frames and wait until they are on the display."""
    from kivy.core.window import Window

    left = [frames]

    def flipped(*_):
        left[0] -= 1
        if left[0] > 0:
            Window.canvas.ask_update()
            return
        Window.unbind(on_flip=flipped)
        done.set()

    Window.bind(on_flip=flipped)
    Window.canvas.ask_update()


def obey(running: threading.Event) -> None:
    running.wait()
    from kivy.core.window import Window  # the app's, created by now on the UI thread

    for line in sys.stdin:
        name = line.strip()
        if not name:
            continue
        done, answer = threading.Event(), {"screen": name}

        def measured(_dt, answer=answer, done=done):
            try:
                answer.update(window=list(Window.size), boxes=boxes(Window), **facts())
            except Exception as exc:
                answer["error"] = f"{type(exc).__name__}: {exc}"
                done.set()
                return
            drawn(done)

        def shown(_dt, name=name, answer=answer, done=done):
            try:
                show(name)
            except Exception as exc:  # the test fails with this message
                answer["error"] = f"{type(exc).__name__}: {exc}"
                done.set()
                return
            Clock.schedule_once(measured, FRAMES / 60)  # laid out and drawn by then

        Clock.schedule_once(shown)
        if not done.wait(60):
            answer["error"] = "the UI thread did not answer"
        print(json.dumps(answer), flush=True)


def main(argv: list[str]) -> int:
    running = threading.Event()
    Clock.schedule_once(lambda _dt: running.set(), 0.5)  # the first frames are drawn
    threading.Thread(target=obey, args=(running,), daemon=True).start()
    from companion.cli import main as companion

    return companion(["run", *argv])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
