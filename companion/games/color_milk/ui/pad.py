"""The one colour pad along the bottom, serving whatever the phase needs: entering a ball, a
prediction, a choice, the tallies of the selected player, or the end counts."""

from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from companion.games.color_milk import boards
from companion.games.color_milk.mill import COLOURS
from companion.games.color_milk.state import READING_PHASES, MilkState
from companion.ui import colours
from companion.ui.widgets import BigButton, ColourButton

from .label import label


class Pad(BoxLayout):
    def __init__(self, screen, s: MilkState, **kw):
        super().__init__(size_hint_y=None, height=dp(56), spacing=dp(4), **kw)
        self.colours: dict[str, ColourButton] = {}  # a prediction's colours, lit as tapped
        self.ok: BigButton | None = None
        phase = s.phase
        if phase in READING_PHASES:
            reading_pad(screen, self, s)
        elif phase == "choose":
            who = s.chooser_name
            p = s.player(who)
            reach = "any ball" if screen.any_ball else "one of the first three balls"
            self.add_widget(label(f"{who}: take {reach}", 18, True, halign="left"))
            for bonus in ("any1", "any2"):
                if p.token(bonus):
                    on = screen.any_ball == bonus
                    b = BigButton(
                        text=("cancel " if on else "") + bonus.replace("any", "any "),
                        size_hint_x=0.35,
                    )
                    b.bind(on_release=lambda _b, k=bonus: screen.toggle_any(k))
                    self.add_widget(b)
        elif phase in ("colour", "warriors"):  # warriors: the coins of the extra cell
            tally_buttons(screen, self, s.player(screen.selected))
            self.add_widget(next_button(screen, "Finish game" if s.ending else "Next round"))
        elif phase == "remix":
            if s.board == 5 and not s.solo:
                count_buttons(screen, self, s, ("warriors",))
            else:
                self.add_widget(label("Roll out the last 5, put all 20 back, mix.", 17))
            self.add_widget(next_button(screen, "Mill refilled"))
        elif phase == "tally":
            items = boards.count_items(s.board, s.solo)
            if len(items) > 2:  # board 6: two rows keep every +/- a full touch target
                self.orientation, self.height = "vertical", dp(116)
                first, second = (BoxLayout(spacing=dp(4)) for _ in range(2))
                count_buttons(screen, first, s, items[:2])
                count_buttons(screen, second, s, items[2:], named=False)
                second.add_widget(next_button(screen, "Finish game"))
                self.add_widget(first)
                self.add_widget(second)
            else:
                count_buttons(screen, self, s, items)
                self.add_widget(next_button(screen, "Finish game"))

    def show_draft(self, draft: tuple[str, ...]) -> None:
        """Light the colours of the prediction being tapped in, in place: a colour tapped
        changes two properties, not the pad."""
        for colour, button in self.colours.items():
            button.selected = colour in draft
        if self.ok is not None:
            self.ok.disabled = not draft


def reading_pad(screen, pad: Pad, s: MilkState) -> None:
    if screen.target_slot is not None:
        ask = next((a for a in s.asks if a.slot == screen.target_slot), None)
        pad.add_widget(pad_label(f"Ball {screen.target_slot + 1}"))
        offer = ask.choices if ask else COLOURS
        for col in COLOURS:
            b = ColourButton(colour=col, disabled=col not in offer)
            b.bind(on_release=lambda _b, c=col: screen.tap_colour(c))
            pad.add_widget(b)
        return
    who = screen.selected
    pad.add_widget(pad_label(who))
    for col in COLOURS:
        b = pad.colours[col] = ColourButton(colour=col)
        b.bind(on_release=lambda _b, c=col: screen.tap_colour(c))
        pad.add_widget(b)
    zone = BigButton(
        text={"": "free", "double": "double", "triple": "triple"}[screen.zone],
        size_hint_x=0.8,
        font_size="16sp",
    )
    zone.bind(on_release=lambda _b: screen.cycle_zone())
    pad.add_widget(zone)
    ok = pad.ok = BigButton(text="OK", size_hint_x=0.6)
    ok.tint = colours.OK
    ok.bind(on_release=lambda _b: screen.confirm_prediction())
    pad.add_widget(ok)
    pad.show_draft(screen.draft)


def pad_label(text: str) -> Label:
    return label(text, 18, True, size_hint_x=None, width=dp(72), halign="left")


def tally_buttons(screen, pad: BoxLayout, p) -> None:
    pad.add_widget(pad_label(p.name))
    for text, item, delta in (
        ("+1 coin", "coins", 1),
        ("-1 coin", "coins", -1),
        ("+pencil", "pencils", 1),
        ("use pencil", "used", 1),
    ):
        b = BigButton(text=text, font_size="16sp")
        b.bind(on_release=lambda _b, i=item, d=delta: screen.tally(i, d))
        pad.add_widget(b)


def count_buttons(screen, pad: BoxLayout, s: MilkState, items, named: bool = True) -> None:
    """A label and -/+ per count; the selected player's name leads the first one."""
    p = s.player(screen.selected)
    for n, item in enumerate(items):
        value = p.count(item)
        text = f"{item.replace('_', ' ')} {value}"
        if named and n == 0:
            text = f"{p.name}: {text}"
        pad.add_widget(label(text, 17, True, halign="right"))
        for sign, d in (("-", -1), ("+", 1)):
            b = BigButton(text=sign, font_size="24sp", size_hint_x=None, width=dp(56))
            b.bind(on_release=lambda _b, i=item, v=value + d: screen.count(i, v))
            pad.add_widget(b)


def next_button(screen, text: str) -> BigButton:
    b = BigButton(text=text, size_hint_x=0.9)
    b.tint = colours.ACCENT
    b.bind(on_release=lambda _b: screen.next())
    return b
