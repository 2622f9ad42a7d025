"""The simulated table on screen: the LED and buzzer as the table's pins drive them, and
the arcade buttons and a ball chute, which move the simulated table's hands
(hardware.sim_hands: the same mock pins a press drives); and "Lay card" / "Reveal", which lay
the game's next card on the rendered table for the camera (companion.runtime.sim_scene: a
Node card, a Colour Milk prediction, a Laser prism card).

    panel = SimPanel(table=table, hands=hands)  # a strip under or beside a game screen
    unbind = bind_keyboard(hands)               # n/enter next, b bid, i impossible, u undo,
                                                # space ball, l lay card, r reveal

The strip looks at the pins a few times a second but draws only when the lamp or the note
changed: an idle table costs no redraws.
"""

from __future__ import annotations

from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, Line
from kivy.metrics import dp
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.ui import colours
from companion.ui.widgets import BigButton, ColourButton

BALL_COLOURS = ("blue", "green", "orange", "pink", "purple")
BUTTON_LABELS = {"next": "Next", "bid": "Bid", "impossible": "Impossible!", "undo": "Undo (hold)"}
TABLE_LABELS = {"lay": "Lay card", "reveal": "Reveal"}  # act on the rendered table (sim_scene)
BALL_CORNER = 1000  # dp: a ball button is drawn as a disc (clamped to half its size)
BALL_SHARE = 5  # a ball button's share of the strip's width; a label's is 0.8 a letter
STRIP_HEIGHT = 56  # dp: 48 dp buttons and a thin margin, taken from the game area
LOOK_HZ = 20  # how often the pins are looked at; short enough for the shortest LED step
DARK = (0.05, 0.05, 0.05)


class LedLamp(Widget):
    """A round lamp showing the RGB the LED pins are driven with."""

    def __init__(self, **kw):
        super().__init__(**kw)
        self._shown = DARK
        with self.canvas:
            self._colour = Color(*DARK, 1)
            self._disc = Ellipse()
            Color(*colours.MUTED)
            self._ring = Line(width=dp(1.5))
        self.bind(pos=self._layout, size=self._layout)

    def _layout(self, *_):
        d = min(self.width, self.height) - dp(8)
        x, y = self.x + (self.width - d) / 2, self.y + (self.height - d) / 2
        self._disc.pos, self._disc.size = (x, y), (d, d)
        self._ring.ellipse = (x, y, d, d)

    def show(self, rgb) -> None:
        # the pins carry brightness-scaled duty; show the hue at full strength so it reads
        peak = max(rgb) if rgb else 0
        shown = tuple(round(c / peak, 3) for c in rgb) if peak > 0 else DARK
        if shown != self._shown:  # assigning a Color redraws the window, even if unchanged
            self._shown = shown
            self._colour.rgb = shown


class SimPanel(BoxLayout):
    table = ObjectProperty(None)  # hardware.table.Table: what the lamp and the note show
    hands = ObjectProperty(None)  # what the buttons move (hardware.sim_hands)
    sound = StringProperty("")

    def __init__(self, **kw):
        kw.setdefault("orientation", "horizontal")
        kw.setdefault("spacing", dp(4))
        kw.setdefault("padding", (dp(4), dp(3)))  # 56 dp tall: buttons of 50 dp, drawn 48
        super().__init__(**kw)
        self.lamp = LedLamp(size_hint=(None, 1), width=dp(44))
        self.add_widget(self.lamp)
        self.sound_label = Label(
            size_hint=(None, 1), width=dp(48), color=colours.MUTED, font_size="13sp"
        )
        self.add_widget(self.sound_label)
        names = list(self.hands.pins.buttons.as_dict()) if self.hands else list(BUTTON_LABELS)
        holds = self.hands.pins.buttons.hold_buttons if self.hands else {"undo"}
        for name in names:
            b = self._button(BUTTON_LABELS.get(name, name.title()))
            if name in holds:  # held as long as the finger stays on it, like the real one
                b.bind(on_press=lambda _b, name=name: self._hold(name, True))
                b.bind(on_release=lambda _b, name=name: self._hold(name, False))
            else:
                b.bind(on_release=lambda _b, name=name: self._press(name))
        if self.hands is not None and hasattr(self.hands, "act"):  # a rendered table to act on
            for what, text in TABLE_LABELS.items():
                b = self._button(text)
                b.bind(on_release=lambda _b, what=what: self.hands.act(what))
        for colour in BALL_COLOURS:
            # round, as the balls dropped: not the game pad's square colour keys above them
            b = ColourButton(colour=colour, size_hint_x=BALL_SHARE, corner=BALL_CORNER)
            b.size_hint_min_x = None  # see _button
            b.bind(on_release=lambda _b, colour=colour: self._drop(colour))
            self.add_widget(b)
        self._ticker = Clock.schedule_interval(self.refresh, 1 / LOOK_HZ)
        self.refresh()

    def _button(self, text: str) -> BigButton:
        # The buttons share the strip in proportion to their labels: at 800 px every one is
        # at least 50 dp; a narrower window (--size) shrinks them all rather than push the
        # last ones off the edge.
        b = BigButton(text=text, font_size="14sp", size_hint_x=max(BALL_SHARE, len(text) * 0.8))
        b.size_hint_min_x = None
        self.add_widget(b)
        return b

    def _press(self, name: str) -> None:
        if self.hands is not None:
            self.hands.press(name)

    def _hold(self, name: str, down: bool) -> None:
        if self.hands is not None:
            if down:
                self.hands.hold_down(name)
            else:
                self.hands.let_go(name)

    def _drop(self, colour: str) -> None:
        if self.hands is not None:
            self.hands.drop_ball(colour)

    def refresh(self, *_) -> None:
        sig = self.table.signals if self.table is not None else None
        self.lamp.show(tuple(sig.led.value) if sig and sig.led else (0, 0, 0))
        tone = sig.buzzer.tone if sig and sig.buzzer else None
        self.sound_label.text = f"{tone:.0f} Hz" if tone else "quiet"

    def stop(self) -> None:
        self._ticker.cancel()


KEYCODES = {13: "enter", 32: " "}  # keys without a codepoint that the simulation uses


def bind_keyboard(hands, wanted=lambda: True):
    """Route key presses to the simulated table's hands while `wanted()` (the game is on screen and
    no text field is being typed in); returns a function that unbinds.

    A key held down repeats on_key_down: only its first one counts, and its release lets go
    of the button, so holding `u` is one held undo, however long."""
    from kivy.core.window import Window

    down: dict[int, str] = {}  # keycode -> the key's name, while it is down

    def on_key_down(_window, key, _scancode, codepoint, _modifiers):
        if key in down:
            return True  # the keyboard's auto-repeat
        if not wanted() or _typing(Window):
            return False
        name = codepoint or KEYCODES.get(key, "")
        if hands.handle_key(name):
            down[key] = name
            return True
        return False

    def on_key_up(_window, key, *_):
        name = down.pop(key, None)
        if name is None:
            return False
        hands.handle_key(name, down=False)
        return True

    Window.bind(on_key_down=on_key_down, on_key_up=on_key_up)
    return lambda: Window.unbind(on_key_down=on_key_down, on_key_up=on_key_up)


def _typing(window) -> bool:
    """A text field has the keyboard: its letters are a name, not table buttons."""
    from kivy.uix.textinput import TextInput

    return any(
        isinstance(w, TextInput) and w.focus for root in window.children for w in root.walk()
    )
