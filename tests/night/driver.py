"""A family's fingers on the real app, for the game night (tests/night/test_night_*.py).

    python tests/night/driver.py [run options]     # e.g. --simulate

Starts the app exactly as `companion run` does (the data directory from
$COMPANION_DATA_DIR) and obeys one JSON command a line on stdin, each carried out on the UI
thread, answering one JSON line on stdout:

    {"do": "look"}                      what the window shows now (see `look`)
    {"do": "tap", "text": "Start"}      a finger on the visible button with that text
    {"do": "tap", "re": "^Bid"}         ... whose text matches (re.search), "nth": which one
    {"do": "tap", "text": "B", "in": "strip"}   on the simulated table's strip (else the screen)
    {"do": "tap", "text": "Resume", "row": "Color Milk"}   the one in the list's line that says so
    {"do": "tap", "cls": "SunView", "at": [0.1, 0.5]}   a drawn widget, at that fraction of it
    {"do": "tap", ..., "double": 0.15}  a second finger down on the same spot 0.15 s later
    {"do": "wait", "seconds": 1.0}      the app runs on its own meanwhile

A tap is Kivy's own touch event (down, up 80 ms later, in real time), dispatched through the
window's event loop at the button's centre: whatever lies there at that moment gets it, the
screens' guards and grabs take part. A button in a scrolled list is scrolled into view first,
as a finger would drag it there. Every answer carries `look`'s view of the window after the
taps have been drawn.
"""

from __future__ import annotations

import json
import math
import os
import re
import sys
import threading
import time

# As `companion run` has it (companion.ui.launch), set before Kivy loads: what the app writes
# to stderr reaches the test's app-stderr.txt instead of being swallowed.
os.environ.setdefault("KIVY_LOG_MODE", "MIXED")

from kivy.clock import Clock  # noqa: E402  loaded before the driver's thread can touch it

TAP_SECONDS = 0.08  # a quick finger on the glass
SETTLE_SECONDS = 0.02  # after a tap: the app lays out what it changed
AIM_SECONDS = 0.4  # a person aims at the next button no sooner than this after seeing it
DRAWN_WITHIN = 1.0  # s after a lift: a window not drawn again by then had nothing new to show
_lifted = [0.0]  # time.monotonic() when the last finger lifted ...
_drawn = [0.0]  # ... and when the window was next drawn (inf: not yet)
_fingers: list[dict] = []  # what became of the fingers of the tap under way
_sensed: list = []  # the events the table's readings made (any thread appends)
SLACK = 1.5  # px of rounding


# --- what the window shows -------------------------------------------------------------------
def _app():
    from kivy.app import App

    return App.get_running_app()


def _root():
    from companion.ui.app import Root

    return next(w for w in _app().root.walk() if isinstance(w, Root))


def _shown(widget) -> bool:
    """Drawn: neither it nor an ancestor is transparent, and it has a size."""
    if not (widget.width > 0 and widget.height > 0):
        return False
    w = widget
    while w is not None:
        if getattr(w, "opacity", 1) == 0:
            return False
        w = w.parent if w.parent is not w else None
    return True


def _on_screen_widgets():
    """Every widget of the screen in view and of the simulated table's strip (not the screens
    the manager keeps off the window)."""
    from kivy.uix.screenmanager import ScreenManager

    def visit(widget):
        yield widget
        if isinstance(widget, ScreenManager):
            if widget.current_screen is not None:
                yield from visit(widget.current_screen)
            return
        for child in list(widget.children):
            yield from visit(child)

    from kivy.core.window import Window

    for top in list(Window.children):
        yield from visit(top)


def _window_box(widget) -> list[float]:
    """x0, y0, x1, y1 in window pixels, y from the top as a screenshot has it."""
    from kivy.core.window import Window

    x0, y0 = widget.to_window(widget.x, widget.y)
    x1, y1 = widget.to_window(widget.right, widget.top)
    return [round(x0, 1), round(Window.height - y1, 1), round(x1, 1), round(Window.height - y0, 1)]


def _viewport(widget):
    """The window box a widget can be seen in: the window cut by every ScrollView around it."""
    from kivy.core.window import Window
    from kivy.uix.scrollview import ScrollView

    x0, y0, x1, y1 = 0.0, 0.0, float(Window.width), float(Window.height)
    w = widget.parent
    while w is not None and w is not w.parent:
        if isinstance(w, ScrollView):
            b = _window_box(w)
            x0, y0, x1, y1 = max(x0, b[0]), max(y0, b[1]), min(x1, b[2]), min(y1, b[3])
        w = w.parent
    return x0, y0, x1, y1


def _in_view(widget) -> bool:
    x0, y0, x1, y1 = _viewport(widget)
    b = _window_box(widget)
    return b[0] >= x0 - SLACK and b[1] >= y0 - SLACK and b[2] <= x1 + SLACK and b[3] <= y1 + SLACK


def _seen(widget) -> bool:
    """At least partly inside every ScrollView around it (else scrolled away, out of sight)."""
    x0, y0, x1, y1 = _viewport(widget)
    b = _window_box(widget)
    return b[0] < x1 and b[2] > x0 and b[1] < y1 and b[3] > y0


def _buttons():
    from kivy.uix.behaviors import ButtonBehavior

    return [
        w
        for w in _on_screen_widgets()
        if isinstance(w, ButtonBehavior) and _shown(w) and not w.disabled
    ]


def _text_of(widget) -> str:
    text = getattr(widget, "text", "")
    return re.sub(r"\[/?[a-z]+(=[^\]]*)?\]", "", text) if isinstance(text, str) else ""


def _needed(label) -> tuple[float, float]:
    """The size the label's whole text takes, wrapped at its width if it wraps, never cut."""
    core = label._label
    opts = dict(core.options)
    width = (label.text_size[0] or None) if label.text_size else None
    opts.update(text=label.text, text_size=(width, None), shorten=False, max_lines=0)
    whole = type(core)(**opts)
    whole.refresh()
    return whole.content_size if hasattr(whole, "content_size") else whole.texture.size


_MEASURED: dict[tuple, tuple[float, float]] = {}


def _needed_once(label) -> tuple[float, float]:
    key = (label.text, label.font_size, label.font_name, label.bold, label.markup)
    key += (tuple(label.text_size or ()), tuple(label.padding), label.line_height)
    if key not in _MEASURED:
        _MEASURED[key] = tuple(_needed(label))
    return _MEASURED[key]


def text_problems(widgets) -> list[str]:
    """Texts that are cut (shortened with an ellipsis, or lines dropped at the bottom of a fixed
    box) or leave their box (wider or taller than the widget that holds them)."""
    from kivy.uix.label import Label

    out = []
    for w in widgets:
        if not isinstance(w, Label) or not w.text.strip() or not _shown(w) or not _seen(w):
            continue
        need_w, need_h = _needed_once(w)
        tw, th = w.text_size if w.text_size else (None, None)
        text = _text_of(w).replace("\n", " / ")
        room_w = tw if tw else w.width
        room_h = th if th else w.height
        if need_w > room_w + SLACK:
            what = "is cut" if w.shorten or tw else "leaves its box"
            out.append(f"{what} ({need_w:.0f} px wide in {room_w:.0f}): {text!r}")
        elif need_h > room_h + SLACK:
            what = "is cut" if th else "leaves its box"
            out.append(f"{what} ({need_h:.0f} px tall in {room_h:.0f}): {text!r}")
    return out


def button_problems(buttons) -> list[str]:
    """Buttons a finger cannot hit well: under 48x48 px, or partly off the window."""
    from kivy.core.window import Window

    from companion.ui.widgets import MIN_BUTTON

    out = []
    for b in buttons:
        if not _seen(b):
            continue
        name = _text_of(b) or type(b).__name__
        if b.width < MIN_BUTTON - 0.5 or b.height < MIN_BUTTON - 0.5:
            box = f"{b.width:.0f}x{b.height:.0f}"
            out.append(f"{name!r} draws a target under 48x48 px (its box {box})")
        x0, y0, x1, y1 = _window_box(b)
        in_list = _viewport(b) != (0.0, 0.0, float(Window.width), float(Window.height))
        off = x0 < -SLACK or y0 < -SLACK or x1 > Window.width + SLACK or y1 > Window.height + SLACK
        if off and not in_list:  # a list's edge cuts its rows: a drag brings the rest
            out.append(f"{name!r} leaves the window at {[x0, y0, x1, y1]}")
    return out


def look() -> dict:
    """The screen in view, its banner and phase line, the game in play (from the app's own
    session), every button a finger can reach now, and the problems a family would see."""
    from kivy.uix.textinput import TextInput

    from companion.codec import jsonable

    root = _root()
    widgets = list(_on_screen_widgets())
    buttons = _buttons()
    answer = {
        "screen": root.current,
        "buttons": [
            {"text": _text_of(b), "in": _part(b), "box": _window_box(b), "in_view": _in_view(b)}
            for b in buttons
        ],
        "texts": [t for w in widgets if (t := _text_of(w).strip()) and _shown(w) and _seen(w)],
        "problems": text_problems(widgets) + button_problems(buttons),
        # every typed field of the screen, scrolled into view or not (the set-up's seats)
        "inputs": [w.text for w in widgets if isinstance(w, TextInput) and w.opacity],
    }
    if root.has_screen("game"):
        game = root.get_screen("game")
        session, state = game.session, game.session.state
        answer["game"] = {
            "name": session.game.name,
            "id": session.game_id,
            "entries": len(entries := session.log.entries(session.game_id)),
            "by_hand": _by_hand(entries),
            "last": [str((e.payload or {}).get("type", "")) for e in entries[-4:]],
            "over": session.game.is_over(state),
            "current": session.game.current_player(state),
            "players": list(session.config.players),
            "scores": {k: str(v) for k, v in session.game.scores(state).items()},
            "describe": session.game.describe(state),
            "phase": str(getattr(state, "phase", "")),
            "banner": game.banner_text,
            "question": bool(game.question_panel),
            "state": jsonable(state),
        }
    return answer


def _by_hand(entries) -> int:
    """How many of the game's entries people made: neither a clock running out nor what the
    camera or a sensor read (a reading about to be logged is not counted against one)."""
    from collections import Counter

    from companion.events import to_dict

    table = Counter(json.dumps(to_dict(e), sort_keys=True) for e in list(_sensed))
    made = 0
    for entry in entries:
        payload = entry.payload or {}
        key = json.dumps(payload, sort_keys=True)
        if table[key] > 0:
            table[key] -= 1
        elif not str(payload.get("type", "")).endswith("TimerExpired"):
            made += 1
    return made


# --- fingers -----------------------------------------------------------------------------------
def find(spec: dict):
    """The button a family member means: by its exact text, or a pattern, the nth of them."""
    if "cls" in spec:  # a drawn widget that takes taps itself (the Elios sun's rays)
        hits = [w for w in _on_screen_widgets() if type(w).__name__ == spec["cls"] and _shown(w)]
        if not hits:
            raise LookupError(f"no {spec['cls']} on screen")
        return hits[0]
    buttons = [b for b in _buttons() if _part(b) == spec.get("in", "screen")]
    if "row" in spec:  # in the row (a list's line) whose words match
        buttons = [b for b in buttons if _row_says(b, spec["row"])]
    if "text" in spec:
        hits = [b for b in buttons if _text_of(b).strip() == spec["text"]]
    else:
        hits = [b for b in buttons if re.search(spec["re"], _text_of(b))]
    n = spec.get("nth", 0)
    if len(hits) <= n:
        shown = sorted({_text_of(b) for b in _buttons()})
        raise LookupError(f"no button {spec} among {shown}")
    return hits[n]


def _row_says(button, pattern: str) -> bool:
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.label import Label

    row = button.parent
    return row is not None and any(
        isinstance(w, Label) and not isinstance(w, ButtonBehavior) and re.search(pattern, w.text)
        for w in row.children
    )


def _row_words(button) -> list[str]:
    """The words of the other labels on the button's row (a list line's name)."""
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.label import Label

    row = button.parent
    if row is None:
        return []
    return [
        w.text for w in row.children if isinstance(w, Label) and not isinstance(w, ButtonBehavior)
    ]


def _same_row(b, button, row: list[str]) -> bool:
    return _text_of(b) == _text_of(button) and _row_words(b) == row


def _part(widget) -> str:
    """ "strip" for the simulated table's strip along the bottom, else "screen"."""
    w = widget
    while w is not None and w is not w.parent:
        if type(w).__name__ == "SimPanel":
            return "strip"
        w = w.parent
    return "screen"


def _scroll_into_view(button) -> None:
    from kivy.uix.scrollview import ScrollView

    w = button.parent
    while w is not None and w is not w.parent:
        if isinstance(w, ScrollView) and not _in_view(button):
            w.scroll_to(button, padding=4, animate=False)
        w = w.parent


def _under(widget, x: float, y: float) -> bool:
    if widget.get_root_window() is None:
        return False
    left, bottom = widget.to_window(*widget.pos)
    return left <= x < left + widget.width and bottom <= y < bottom + widget.height


def _touch(x: float, y: float, hold: float, then, landed: float | None = None) -> None:
    """A finger down at window (x, y) (from the bottom left, as Kivy counts), up `hold`
    seconds later; then `then()`. `landed` (wall time) is when it touched the glass, as a
    touch screen stamps it: a busy app may get to it later (default: now)."""
    from kivy.tests.common import UnitTestTouch

    touch = UnitTestTouch(x, y)
    touch.time_start = touch.time_update = time.time() if landed is None else landed
    touch.touch_down()
    finger = {"taken by": [_text_of(w()) for w in touch.grab_list if w() is not None]}
    _fingers.append(finger)  # nothing took it: the touch guard dropped it, or nothing is there

    def up(_dt):
        # Kivy counts a delay from the start of the frame that asked for it, which a busy
        # frame leaves far behind: the finger stays down until `hold` has really passed
        early = touch.time_start + hold - time.time()
        if early > 0:
            Clock.schedule_once(up, early)
            return
        touch.time_update = touch.time_end = time.time()
        # a control that took the finger acts on its lift only if the lift is on it
        finger["lifted off"] = [
            _text_of(w()) for w in touch.grab_list if w() is not None and not _under(w(), x, y)
        ]
        touch.touch_up()
        _lifted[0], _drawn[0] = time.monotonic(), math.inf
        then()

    Clock.schedule_once(up, hold)


def tap(spec: dict, done) -> None:
    """Scroll the button into view if need be, then a finger on its centre (and, for a double
    tap, a second one on the same spot `double` seconds after the first went down). Lists that
    jump under the finger are told: a scrolled list must stay where the family left it."""
    from kivy.uix.scrollview import ScrollView

    if _drawn[0] == math.inf and time.monotonic() - _lifted[0] < DRAWN_WITHIN:
        Clock.schedule_once(lambda _dt: tap(spec, done), 0.02)  # the eye waits for the screen
        return
    button = find(spec)
    scrolled = not _in_view(button)
    _scroll_into_view(button)
    scrolls = []
    w = button.parent
    while w is not None and w is not w.parent:
        if isinstance(w, ScrollView):
            scrolls.append(w)
        w = w.parent

    def go(_dt):
        nonlocal button
        if time.monotonic() < aimed:  # Kivy's delay ran from a busy frame's start
            Clock.schedule_once(go, aimed - time.monotonic())
            return
        if button.get_root_window() is None:  # redrawn meanwhile: the eye finds it again
            button = find(spec)
        _fingers.clear()
        acted = []  # a button acts on a finger's lift (a drawn widget: not told)
        on_it = (
            button.fbind("on_release", lambda *_: acted.append(True))
            if spec.get("cls") is None
            else None
        )
        fx, fy = spec.get("at", (0.5, 0.5))  # where on the widget: its centre unless said
        x, y = button.to_window(button.x + fx * button.width, button.y + fy * button.height)
        row = _row_words(button)
        hold = spec.get("hold", TAP_SECONDS)

        def settled():
            def answer(_dt):
                jumps = []
                if scrolls and row:  # the row tapped in a list, where is it now?
                    same = [b for b in _buttons() if b is not button and _same_row(b, button, row)]
                    same += [button] if button.get_root_window() is not None else []
                    now = [b.to_window(*b.center)[1] for b in same if _seen(b)]
                    if same and not any(abs(v - y) < 4 for v in now):
                        where = f"{[round(v) for v in now]}" if now else "out of sight"
                        jumps.append(
                            f"the list jumped under the finger: {row[0]!r} row from "
                            f"y={y:.0f} to {where}"
                        )
                fingers = list(_fingers)
                _fingers.clear()
                if on_it is not None:
                    button.unbind_uid("on_release", on_it)
                done(
                    {
                        "tapped": _text_of(button),
                        "at": [x, y],
                        "jumps": jumps,
                        "fingers": fingers,
                        "acted": len(acted) if on_it is not None else None,
                    }
                )

            Clock.schedule_once(answer, SETTLE_SECONDS)

        if spec.get("double"):  # the second finger lands `gap` after the first, however late
            gap, first = spec["double"], time.time()  # the app gets to it

            def again():  # once the first has lifted: a late frame runs Kivy's due callbacks
                # in the order they were scheduled, which would put the second finger down
                # before the first one's up, two fingers at once, not a double tap
                wait = max(0.0, first + gap - time.time())
                Clock.schedule_once(lambda _dt: _touch(x, y, hold, settled, first + gap), wait)

            _touch(x, y, hold, again, first)
        else:
            _touch(x, y, hold, settled)

    # A person aims at what the screen shows: from when what the last tap did was drawn (a
    # busy app draws late), and a scrolled list is laid out first.
    now = time.monotonic()
    seen = min(_drawn[0], _lifted[0] + DRAWN_WITHIN)
    aim = max(0.05 if scrolled else 0.0, seen + AIM_SECONDS - now)
    aimed = now + aim
    if aim > 0:
        Clock.schedule_once(go, aim)
    else:
        go(0)


def until(command: dict, done) -> None:
    """Let the app run until a button with the text (or pattern) is there, or the game's
    phase is the one named, or `seconds` have passed (the answer says which)."""
    deadline = time.monotonic() + command.get("seconds", 10)

    def there() -> bool:
        if "phase" in command:
            root = _root()
            if not root.has_screen("game"):
                return False
            screen = root.get_screen("game")
            if screen._refresh_trigger.is_triggered:  # not drawn yet: nobody sees it yet
                return False
            return str(getattr(screen.state, "phase", "")) in command["phase"]
        try:
            find(command)
        except LookupError:
            return False
        return True

    def poll(_dt):
        if there():
            done({"until": True})
        elif time.monotonic() > deadline:
            done({"until": False})
        else:
            Clock.schedule_once(poll, 0.05)

    poll(0)


# --- the command loop --------------------------------------------------------------------------
def carry_out(command: dict) -> dict:
    done, answer = threading.Event(), {}

    def finish(extra: dict | None = None) -> None:
        def measured(_dt):
            try:
                t = time.perf_counter()
                answer.update(extra or {}, **look())
                answer["look_seconds"] = round(time.perf_counter() - t, 3)
            except Exception as exc:
                answer["error"] = f"{type(exc).__name__}: {exc}"
            done.set()

        Clock.schedule_once(lambda _dt: Clock.schedule_once(measured), 0)  # laid out by then

    def start(_dt):
        try:
            kind = command["do"]
            if kind == "tap":
                tap(command, finish)
            elif kind == "look":
                finish()
            elif kind == "wait":
                Clock.schedule_once(lambda _dt: finish(), command.get("seconds", 0.5))
            elif kind == "until":
                until(command, finish)
            else:
                raise ValueError(f"unknown command {kind!r}")
        except Exception as exc:  # the test stops with this message
            answer["error"] = f"{type(exc).__name__}: {exc}"
            done.set()

    Clock.schedule_once(start)
    if not done.wait(60):
        answer["error"] = "the UI thread did not answer"
    return answer


def obey(running: threading.Event) -> None:
    running.wait()
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(carry_out(json.loads(line))), flush=True)


def _on_flip(*_) -> None:
    if _drawn[0] == math.inf:
        _drawn[0] = time.monotonic()


def main(argv: list[str]) -> int:
    running = threading.Event()

    def started(_dt):  # the first frames are drawn
        from kivy.core.window import Window

        Window.bind(on_flip=_on_flip)
        _root().ctx.runtime.subscribe(on_event=_sensed.append)
        running.set()

    Clock.schedule_once(started, 0.5)
    threading.Thread(target=obey, args=(running,), daemon=True, name="night-driver").start()
    from companion.cli import main as companion

    return companion(["run", *argv])


if __name__ == "__main__":
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2]))
    sys.exit(main(sys.argv[1:]))
