"""The centred caption every Color Milk panel writes with."""

from __future__ import annotations

from functools import partial

from companion.ui.widgets import caption

label = partial(caption, halign="center")
