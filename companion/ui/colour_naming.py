"""A view where a person names, spot by spot, the colours of something the camera found (a
card's nodes, as it lies): each tap gives a spot the next colour, "grey" leaves it out."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView

from companion.ui.widgets import BigButton, ColourButton, caption

NOT_NAMED = "grey"


def name_colours(
    prompt: str,
    columns: int,
    guesses: Sequence[str],
    colours: Sequence[str],
    done: Callable[[list[str] | None], None],
) -> ModalView:
    """Opens the view: a chip per spot, `columns` a row, starting at its guess; "Learn these"
    calls `done` with the names, Cancel with None. Returns the open view."""
    names = [*colours, NOT_NAMED]
    view = ModalView(size_hint=(None, None), size=(dp(460), dp(360)), auto_dismiss=False)
    box = BoxLayout(orientation="vertical", padding=dp(10), spacing=dp(8))
    box.add_widget(caption(prompt, 17, size_hint_y=None, height=dp(48)))
    grid = GridLayout(cols=columns, spacing=dp(6))
    chips = []
    for guess in guesses:
        chip = ColourButton(colour=guess)
        chip.bind(
            on_release=lambda b: setattr(
                b, "colour", names[(names.index(b.colour) + 1) % len(names)]
            )
        )
        chips.append(chip)
        grid.add_widget(chip)
    box.add_widget(grid)
    row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(8))

    def close(learn: bool) -> None:
        view.dismiss()
        done([c.colour for c in chips] if learn else None)

    row.add_widget(BigButton(text="Cancel", on_release=lambda _b: close(False)))
    row.add_widget(BigButton(text="Learn these", on_release=lambda _b: close(True)))
    box.add_widget(row)
    view.add_widget(box)
    view.open()
    return view
