"""The five balls of the round as they arrive (or the row a chooser takes from), each a button,
and the beam's count beside them."""

from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from companion.games.color_milk.mill import BALLS_PER_ROUND
from companion.games.color_milk.state import READING_PHASES, MilkState
from companion.ui import colours
from companion.ui.widgets import BigButton, ColourButton

from .label import label


class BallRow(BoxLayout):
    def __init__(self, screen, s: MilkState, **kw):
        super().__init__(size_hint_y=None, height=dp(64), spacing=dp(6), **kw)
        choosing = s.phase == "choose"
        balls = s.row if choosing else s.tray
        if s.phase == "remix" and s.history:  # the round just played, while the mill empties
            balls = s.history[-1].balls
        asked = {a.slot for a in s.asks}
        for slot in range(BALLS_PER_ROUND):
            colour = balls[slot] if slot < len(balls) else ""
            if colour and slot not in asked:  # a ball in question shows as asked
                btn = ColourButton(colour=colour)
                btn.text = f"{slot + 1}:{colours.label(colour)}"
            else:
                btn = BigButton(text="?" if slot not in asked else "ask")
                btn.tint = colours.DANGER if slot in asked else colours.BUTTON
            if choosing:
                reach = len(balls) if screen.any_ball else 3
                btn.selected = slot < reach if colour else False
                btn.opacity = 1 if slot < reach else 0.45
                if slot in screen.picked:
                    btn.text = "take"
            else:
                btn.selected = slot == screen.target_slot and s.phase in READING_PHASES
            btn.bind(on_release=lambda _b, i=slot: screen.tap_ball(i))
            self.add_widget(btn)
        status = beam_text(s)
        self.add_widget(label(status, 15, colour=colours.MUTED, size_hint_x=1.0, shrink=True))


def beam_text(s: MilkState) -> str:
    if s.phase == "remix":
        return "remix\nall 20"
    extra = f"\n{s.extras} extra!" if s.extras else ""
    inside = sum(s.inside)
    return f"beam {min(s.passed, 5)}/5{extra}\n{inside} in mill"
