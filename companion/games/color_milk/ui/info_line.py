"""The line over the balls: the round, the mill's cycle as five dots, the goal and the leader."""

from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from companion.games.color_milk import boards
from companion.games.color_milk.mill import ROUNDS_PER_CYCLE
from companion.games.color_milk.state import MilkState
from companion.ui import colours
from companion.ui.widgets import ColourChip

from .label import label


class InfoLine(BoxLayout):
    def __init__(self, s: MilkState, **kw):
        super().__init__(size_hint_y=None, height=dp(30), spacing=dp(8), **kw)
        leader = s.names[s.leader]
        goal = boards.coin_goal(s.board)
        final = " - FINAL ROUND" if s.final_round == s.round else ""
        self.add_widget(label(f"Round {s.round}{final}", 18, True, halign="left"))
        dots = BoxLayout(size_hint_x=None, width=dp(130), spacing=dp(4))
        dots.add_widget(label("Mill", 15, colour=colours.MUTED))
        for i in range(1, ROUNDS_PER_CYCLE + 1):
            filled = s.phase == "remix" or i <= s.cycle_round
            chip = ColourChip(colour="white" if filled else "grey", text=str(i))
            chip.size = (dp(24), dp(24))
            chip.pos_hint = {"center_y": 0.5}
            dots.add_widget(chip)
        self.add_widget(dots)
        self.add_widget(label(f"goal {goal} coins | leader {leader}", 15, colour=colours.MUTED))
