"""The Laser board editor's floors read at arm's length: each tile's floor letter is a
capital at least 15 px tall, and the ring's middle says what W, C and E stand for."""

from __future__ import annotations

import pytest
from kivy.graphics import Rectangle
from kivy.metrics import dp

from companion.games.laser.board import COMPETITIVE, FLOORS, TEAM
from companion.games.laser.ui.board_editor import FLOOR_LETTER, BoardEditor
from companion.ui.render import pump
from companion.ui.widgets import text_texture
from tests.ui.fingers import off_window, on_window

pytestmark = pytest.mark.ui


def drawn_textures(widget) -> list:
    return [i.texture for i in widget.canvas.children if isinstance(i, Rectangle) and i.texture]


@pytest.mark.parametrize("mode", [COMPETITIVE, TEAM])
def test_floor_letters_are_large_and_explained(mode):
    editor = BoardEditor(mode)
    on_window(editor, (520, 300))  # about the editor's share of the 800x480 screen
    try:
        pump()
        drawn = drawn_textures(editor.circle)
        r = editor.circle.tile_radius()
        letters = {text_texture(FLOOR_LETTER[f], max(dp(15), r * 0.55)) for f in FLOORS}
        legend = [text_texture(f"{FLOOR_LETTER[f]}  {f}", dp(16)) for f in FLOORS]
        if mode == TEAM:  # team mode plays on grey: no floors to explain
            assert not letters & set(drawn) and not set(legend) & set(drawn)
            return
        assert letters <= set(drawn)
        assert all(t.height >= 15 for t in letters), [t.height for t in letters]
        assert all(t in drawn for t in legend)
        assert set(FLOOR_LETTER.values()) == {"W", "C", "E"}
    finally:
        off_window(editor)
