"""Walk a screen's widgets for what a person cannot use or read: buttons under 48x48 px and
labels whose text is larger than the box it is drawn in."""

from __future__ import annotations

from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label

from companion.ui.widgets import MIN_BUTTON


def shown(w) -> bool:
    while w is not None:
        if getattr(w, "opacity", 1) == 0:
            return False
        w = w.parent if w.parent is not w else None
    return True


def small_buttons(screen) -> list[str]:
    """Enabled, visible buttons under 48x48 px, as 'text WxH'."""
    out = []
    for w in screen.walk(restrict=True):
        if not isinstance(w, ButtonBehavior) or w.disabled or not (w.width and w.height):
            continue
        if shown(w) and (w.width < MIN_BUTTON - 0.5 or w.height < MIN_BUTTON - 0.5):
            out.append(f"{getattr(w, 'text', type(w).__name__)!r} {w.width:.0f}x{w.height:.0f}")
    return out


def text_extent(label) -> tuple[float, float]:
    """The size the label's whole text takes as it is laid out: wrapped at the label's text
    width, never clipped at its text height (Kivy draws a fixed-height label's extra lines
    off the texture, or drops them). A label that shortens takes one line."""
    label.texture_update()
    width, height = label.text_size
    if width is None or height is None or label.shorten:  # the texture holds all of it
        return tuple(label.texture_size)
    options = dict(label._label.options, text=label._label.text, text_size=(width, None))
    whole = type(label._label)(**options)
    whole.refresh()
    return whole.texture.size if whole.texture else (0, 0)


def overflowing_labels(screen) -> list[str]:
    """Visible labels with text that is larger than the label's box, as
    'text: text WxH > box WxH'."""
    out = []
    for w in screen.walk(restrict=True):
        if not isinstance(w, Label) or not w.text.strip() or not shown(w):
            continue
        tw, th = text_extent(w)
        if tw > w.width + 1 or th > w.height + 1:
            out.append(f"{w.text[:40]!r}: {tw:.0f}x{th:.0f} > {w.width:.0f}x{w.height:.0f}")
    return out
