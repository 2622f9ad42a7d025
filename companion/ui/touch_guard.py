"""One guard for every touch of the app: a finger that lands on a layout that has just changed
under it does nothing.

When a tap changes what lies under the finger (the game moves on, a screen is swapped, buttons
appear, move or are relabelled), a touch that starts within GUARD_SECONDS of it is a bounce or
a double tap aimed at what was there before: it is dropped, wherever it lands. The guard sits
on the window, so it covers every screen, panel and transition alike. It compares the touch
controls under the landing finger with those that were at that spot when the last finger
lifted; a screen also says when the game moved on (`arm`) for an action that leaves the
controls as they were ("Turn done" stays "Turn done" for the next player). Taps that change
nothing under the finger (a colour picked on a pad, a bid lit up) are never dropped.

Time comes from an injected monotonic clock, never from the touch: Kivy stamps touches with
the wall clock, which jumps (a Pi without a clock battery sets it when the network comes),
and a jump must neither freeze the screen nor open the guard. Only a touch's age is read
from its stamp (two readings of the wall clock moments apart, bounded by MAX_AGE): a busy
app may dispatch a finger long after it landed, and the guard judges when it landed.

One finger at a time: a finger that lands while another is still on the glass (a child's
two-finger press, a hand resting on the edge) does nothing. Two fingers on one button would
each release it, the second on what the first one's action left there. No screen takes
gestures of two fingers. The fingers on the glass are Kivy's own list of them (a handler
that takes a lift for itself must not leave one behind).

A confirmation never sits on the spot of the tap that asked for it: a `HoldButton` acts only
when held for HOLD_SECONDS, so neither a double tap nor a bounce can confirm.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from time import time

from kivy.clock import Clock
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior

from companion.clock import Clock as ClockLike
from companion.clock import MonotonicClock
from companion.ui.widgets import BigButton

GUARD_SECONDS = 0.3  # a finger bounces, or taps twice, within this
HOLD_SECONDS = 0.8  # a confirmation is held this long (a tap is ~0.1 s)
HINT_SECONDS = 4  # a short tap on a HoldButton says "hold" on it for this long
MAX_AGE = 2.0  # the oldest a touch is taken to be when dispatched (a wall-clock jump: no more)
LOST_SECONDS = 10.0  # a finger on the glass this long before another lost its lift


def controls(root) -> tuple[tuple, ...]:
    """What a finger can act on in `root` (the window), as drawn: each touch control's place
    in the window (whole pixels), kind, text, whether it takes touches and whether it is lit
    (chosen, selected: a bounce must not take a choice back)."""
    from kivy.uix.textinput import TextInput  # not at import: it makes the window

    found = []
    for w in (w for top in root.children for w in top.walk(restrict=True)):
        if isinstance(w, ButtonBehavior | TextInput) and w.opacity > 0:
            x, y = w.to_window(*w.pos)
            lit = getattr(w, "selected", None), tuple(getattr(w, "tint", ()))
            found.append(
                tuple(round(v) for v in (x, y, w.width, w.height))
                + (type(w).__name__, getattr(w, "text", ""), w.disabled, lit)
            )
    return tuple(found)


def _under(found: tuple[tuple, ...], x: float, y: float) -> list[tuple]:
    return [c for c in found if c[0] <= x < c[0] + c[2] and c[1] <= y < c[1] + c[3]]


class TouchGuard:
    """Watches one window's touches (see the module)."""

    def __init__(
        self, clock: ClockLike, seconds: float = GUARD_SECONDS, wall: Callable[[], float] = time
    ) -> None:
        self.clock = clock
        self.seconds = seconds
        self.wall = wall  # the clock Kivy stamps touches with
        self._lifted_at = -math.inf  # when the last finger lifted
        self._lifted_controls: tuple | None = None  # the controls as drawn then
        self._armed_at = -math.inf  # when a screen last said the game moved on
        self._arm_undrawn = self._lift_undrawn = False  # their new layout not drawn yet
        self._root = None

    def watch(self, root) -> None:
        """Guard every touch `root` (the window) dispatches, before any widget sees it."""
        self._root = root
        root.bind(on_touch_down=self._down, on_touch_up=self._up, on_flip=self._on_glass)

    def unwatch(self) -> None:
        if self._root is not None:
            self._root.unbind(
                on_touch_down=self._down, on_touch_up=self._up, on_flip=self._on_glass
            )
            self._root = None

    def arm(self) -> None:
        """The game moved on: the next touch within the guard interval is dropped."""
        self._armed_at = self.clock.now()
        self._arm_undrawn = True
        self._ask_frame()

    # The interval runs from when the new layout is on the glass (the window's flip), and a
    # finger that lands before that was aimed at the old one: an action, or a frame, that takes
    # longer than the interval (a busy Pi) must not let the second finger of a double tap through.
    def _ask_frame(self) -> None:
        if self._root is not None:
            self._root.canvas.ask_update()  # a frame is drawn, so a flip restamps the guard

    def _on_glass(self, *_) -> None:
        now = self.clock.now()
        if self._arm_undrawn:
            self._armed_at, self._arm_undrawn = now, False
        if self._lift_undrawn:
            self._lifted_at, self._lift_undrawn = now, False

    def landed(self, touch) -> float:
        """When `touch` landed, on the guard's clock: now, less its age."""
        age = self.wall() - getattr(touch, "time_start", math.nan)
        return self.clock.now() - (min(max(age, 0.0), MAX_AGE) if age == age else 0.0)

    def dropped(self, root, x: float, y: float, landed: float | None = None) -> bool:
        """Would a finger that landed at (x, y) in the window at `landed` (default: now) be
        dropped? It is when it landed before the new layout was on the glass, or within the
        guard interval after."""
        at = self.clock.now() if landed is None else landed
        if self._arm_undrawn or at - self._armed_at < self.seconds:
            return True
        recent = self._lift_undrawn or at - self._lifted_at < self.seconds
        if not recent or self._lifted_controls is None:
            return False
        return _under(controls(root), x, y) != _under(self._lifted_controls, x, y)

    def _down(self, root, touch) -> bool:
        landed = touch.ud[LANDED] = self.landed(touch)  # a HoldButton times the hold from here
        # True: no widget sees this touch
        return _another_finger(touch) or self.dropped(root, *touch.pos, landed)

    def _up(self, root, _touch) -> bool:
        # Before any widget acts on this release (buttons act after the window's dispatch).
        self._lifted_at = self.clock.now()
        self._lifted_controls = controls(root)
        self._lift_undrawn = True
        self._ask_frame()
        return False


def _another_finger(touch) -> bool:
    """Whether another finger is on the glass as `touch` lands."""
    from kivy.base import EventLoop

    return any(
        other is not touch and other.is_touch and touch.time_start - other.time_start < LOST_SECONDS
        for other in EventLoop.me_list
    )


LANDED = "touch_guard.landed"  # touch.ud key: when the finger landed, on the guard's clock
_guard: TouchGuard | None = None  # the window's guard (one window per process)
_fallback = MonotonicClock()


def install(
    window, clock: ClockLike, seconds: float = GUARD_SECONDS, wall: Callable[[], float] = time
) -> TouchGuard:
    """Guard `window`'s touches on `clock` (the app's injected monotonic clock); `wall` is
    the clock the window stamps touches with."""
    global _guard
    uninstall()
    _guard = TouchGuard(clock, seconds, wall)
    _guard.watch(window)
    return _guard


def uninstall() -> None:
    global _guard
    if _guard is not None:
        _guard.unwatch()
        _guard = None


def installed() -> TouchGuard | None:
    """The window's guard, if it is guarded."""
    return _guard


def arm() -> None:
    """A screen's action moved the game on (see TouchGuard.arm); nothing if none is installed."""
    if _guard is not None:
        _guard.arm()


def now() -> float:
    """The guard's clock (a monotonic one before the window is guarded)."""
    return (_guard.clock if _guard is not None else _fallback).now()


class HoldButton(BigButton):
    """A button for what a tap must not do by accident (abandon a game, start one while others
    wait, discard a card): it acts (`on_hold`) only when let go after being held for
    `hold_seconds` (0: a plain tap acts). A shorter tap shows `hint` on it for a while."""

    hold_seconds = NumericProperty(HOLD_SECONDS)
    hint = StringProperty("Hold to confirm")
    __events__ = ("on_hold",)

    def __init__(self, **kw):
        self._pressed_at = math.inf
        self._shown: str | None = None  # the text the hint covers
        super().__init__(**kw)

    def on_press(self) -> None:
        # From the landing: a ScrollView hands the touch on only after a while, or at the end.
        touch = self.last_touch
        self._pressed_at = touch.ud.get(LANDED, now()) if touch is not None else now()

    def on_release(self) -> None:
        held = now() - self._pressed_at
        self._pressed_at = math.inf
        if held >= self.hold_seconds:
            self.dispatch("on_hold")
        elif self.hint and self._shown is None:
            self._shown, self.text = self.text, self.hint
            Clock.schedule_once(self._unhint, HINT_SECONDS)

    def on_hold(self) -> None:
        pass

    def _unhint(self, _dt) -> None:
        if self._shown is not None and self.text == self.hint:
            self.text = self._shown
        self._shown = None
