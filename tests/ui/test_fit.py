"""A label's text fits its box (`FitsBox`): the font steps down until it does, and a fit
found once for the same text, setting and box is taken again without stepping."""

from __future__ import annotations

import pytest
from kivy.metrics import sp

from companion.ui import widgets
from companion.ui.widgets import FitLabel

pytestmark = pytest.mark.ui

LONG = "Alexandra-Maximiliane von Hohenzollern-S"


def fitted(width: float, *, renders: list | None = None, **kw) -> FitLabel:
    label = FitLabel(text=LONG, font_size="20sp", size=(width, 40), size_hint=(None, None), **kw)
    if renders is not None:
        update = label.texture_update
        label.texture_update = lambda *a: (renders.append(1), update(*a))[1]
    label.fit()
    return label


@pytest.fixture(autouse=True)
def nothing_found_yet():
    widgets._FOUND.clear()
    yield
    widgets._FOUND.clear()


def test_a_text_too_wide_steps_down_and_the_same_fit_again_renders_once():
    first_renders, again_renders = [], []
    first = fitted(320, renders=first_renders)
    assert first.font_size < sp(20) and len(first_renders) > 1  # it stepped down
    again = fitted(320, renders=again_renders)
    assert (again.font_size, again.fits, again.shorten) == (
        first.font_size,
        first.fits,
        first.shorten,
    )
    assert len(again_renders) == 1


def test_a_remembered_fit_is_the_one_a_fresh_fit_finds():
    for width in (200, 320, 480, 700):
        remembered = fitted(width)
        widgets._FOUND.clear()
        fresh = fitted(width)
        assert (remembered.font_size, remembered.shorten) == (fresh.font_size, fresh.shorten)


def test_a_narrower_box_or_a_bold_font_is_fitted_anew():
    wide = fitted(420)
    narrow = fitted(300)
    assert narrow.font_size < wide.font_size
    bold = fitted(420, bold=True)
    widgets._FOUND.clear()
    assert bold.font_size == fitted(420, bold=True).font_size
