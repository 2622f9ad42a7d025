"""The body of a game without a screen of its own: one button per legal action, as the rules
list them (`Game.legal_actions`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kivy.metrics import dp
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView

from companion.codec import jsonable
from companion.events import Event
from companion.ui.widgets import BigButton


def action_buttons(actions: Sequence[Event], submit: Callable[[Event], object]) -> ScrollView:
    """A scrolling column of buttons, each submitting its action."""
    grid = GridLayout(cols=1, spacing=dp(4), size_hint_y=None)
    grid.bind(minimum_height=grid.setter("height"))
    for action in actions:
        fields = ", ".join(f"{k}={v}" for k, v in jsonable(action).items())
        grid.add_widget(
            BigButton(
                text=f"{type(action).__name__}({fields})",
                size_hint_y=None,
                height=dp(52),
                on_release=lambda _b, a=action: submit(a),
            )
        )
    scroll = ScrollView(do_scroll_x=False)
    scroll.add_widget(grid)
    return scroll
