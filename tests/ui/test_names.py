"""Names on a touch-only table: the docked on-screen keyboard and names played before."""

from __future__ import annotations

import pytest
from kivy.uix.vkeyboard import VKeyboard

from companion import catalogue
from companion.game import GameConfig
from companion.session import Session
from companion.ui.app import Root
from companion.ui.context import AppContext
from companion.ui.render import pump
from companion.ui.touch_keyboard import known_names
from companion.ui.widgets import BigButton
from tests.ui.fingers import off_window, on_window

pytestmark = pytest.mark.ui


@pytest.fixture
def ctx(data_dir):
    ctx = AppContext.open(data_dir)
    for players in (("Bruno", "Zoe"), ("Bruno", "Mia", "Zoe"), ("Bruno", "Mia")):
        Session.start(catalogue.load("laser"), ctx.log, GameConfig(players)).abandon()
    yield ctx
    ctx.log.close()


def picks(setup):
    return [b.text for b in reversed(setup.ids.picks.children) if isinstance(b, BigButton)]


def test_names_played_before_come_most_frequent_first(ctx):
    assert known_names(ctx.log) == ["Bruno", "Mia", "Zoe"]


def test_a_picked_name_takes_the_seat_last_tapped_or_the_first_suggested_one(ctx):
    root = Root(ctx)
    root.choose_game("kritters")
    setup = root.get_screen("setup")
    assert picks(setup) == ["Bruno", "Mia", "Zoe"]
    rows = list(reversed(setup.ids.rows.children))
    rows[1].ids.name.focus = True  # the second seat is tapped...
    rows[1].ids.name.focus = False
    next(b for b in setup.ids.picks.children if b.text == "Zoe").dispatch("on_release")
    assert setup.names == ["Anna", "Zoe", "Chloe"]  # ...and Zoe sits there
    assert picks(setup) == ["Bruno", "Mia"]  # a seated name leaves the list
    setup.pick_name("Bruno")  # no seat tapped: the first suggested name gives way
    assert setup.names == ["Bruno", "Zoe", "Chloe"]
    assert setup.picks_left
    setup.pick_name("Mia")
    assert setup.names == ["Bruno", "Zoe", "Mia"] and not setup.picks_left  # row hidden
    setup.start()
    assert root.current == "game"
    assert root.get_screen("game").session.config.players == ("Bruno", "Zoe", "Mia")


def test_tapping_a_name_docks_the_on_screen_keyboard_and_the_name_stays_above_it(ctx):
    root = Root(ctx)
    window = on_window(root)
    try:
        root.choose_game("elios")
        pump()
        setup = root.get_screen("setup")
        field = setup.ids.rows.children[0].ids.name  # the lowest seat
        field.focus = True
        pump(3)
        boards = [w for w in window.children if isinstance(w, VKeyboard)]
        assert len(boards) == 1
        kb = boards[0]
        tall = kb.height * kb.scale
        assert kb.docked and tuple(kb.pos) == (0, 0)
        assert kb.width * kb.scale == pytest.approx(800)
        assert tall / 4 >= 48  # four rows of keys, each a full touch target
        assert tall < 480 * 0.6  # and room left for what is typed
        # the set-up screen makes room: the name being typed sits above the keys
        bottom = field.to_window(field.x, field.y)[1]
        assert bottom >= tall - 1 and bottom + field.height <= 480
        assert setup.keyboard_room > 0
        field.focus = False
        pump(3)
        assert setup.keyboard_room == 0
        assert setup.ids.rows.parent.scroll_y == 1  # the seats from the top again
        assert [b for b in setup.walk() if getattr(b, "text", "") == "Start Elios"][0].height
    finally:
        off_window(root)


def _keys(kb) -> dict[str, tuple[float, float, float, float]]:
    """Each key of the keyboard's current layer: (x, y, w, h) in window pixels."""
    layout = kb.available_layouts[kb.layout]
    out = {}
    for row in range(1, layout["rows"] + 1):
        line = layout[f"{kb.layout_mode}_{row}"]
        for key, (pos, size) in zip(line, kb.layout_geometry[f"LINE_{row}"], strict=True):
            x, y = kb.to_parent(*pos)  # the keyboard (a Scatter) lies on the window
            out[key[2]] = (
                x,
                y,
                size[0] * kb.scale,
                size[1] * kb.scale,
            )
    return out


def test_the_name_keyboard_has_full_size_keys_and_a_shift_for_one_letter(ctx):
    import time

    from tests.ui.fingers import tap

    root = Root(ctx)
    window = on_window(root)
    try:
        root.choose_game("elios")
        pump()
        field = root.get_screen("setup").ids.rows.children[-1].ids.name
        field.focus = True
        pump(3)
        kb = next(w for w in window.children if isinstance(w, VKeyboard))
        if "LINE_1" not in kb.layout_geometry:  # not drawn yet: lay the keys out as drawn
            kb.refresh(True)
        keys = _keys(kb)
        small = {k: (round(w), round(h)) for k, (_, _, w, h) in keys.items() if min(w, h) < 48}
        assert not small, small  # every key a full touch target
        assert "capslock" not in keys and "shift" in keys
        field.text = ""
        at = time.time() + 1

        def press(name):
            nonlocal at
            x, y, w, h = _keys(kb)[name]
            tap(x + w / 2, y + h / 2, at)
            at += 0.4
            pump(1)

        for name in ("shift", "m", "i", "shift", "shift", "a"):  # Shift, Shift again: off
            press(name)
        assert field.text == "Mia"
    finally:
        off_window(root)
