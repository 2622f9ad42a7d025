"""Widgets kept while what they show stays the same (`companion.ui.kept`)."""

from __future__ import annotations

import pytest
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from companion.ui.kept import Kept

pytestmark = pytest.mark.ui


def shown(kept: Kept, keys) -> list:
    return kept.show((key, lambda k=key: Label(text=str(k))) for key in keys)


def test_a_widget_whose_key_stays_is_kept_and_one_whose_key_changed_is_made_anew():
    box = BoxLayout()
    kept = Kept(box)
    first = shown(kept, ["a", "b", "c"])
    again = shown(kept, ["a", "B", "c"])
    assert again[0] is first[0] and again[2] is first[2]
    assert again[1] is not first[1] and again[1].text == "B"
    assert box.children[::-1] == again  # in order, from the top


def test_fewer_or_more_widgets_and_a_key_moved_to_another_place():
    box = BoxLayout()
    kept = Kept(box)
    first = shown(kept, ["a", "b"])
    more = shown(kept, ["a", "b", "c"])
    assert more[:2] == first and box.children[::-1] == more
    fewer = shown(kept, ["b"])  # "b" in the first place now: the place's key was "a"
    assert fewer[0] is not first[1] and [w.text for w in box.children] == ["b"]
