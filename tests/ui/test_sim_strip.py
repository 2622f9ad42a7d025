"""The on-screen simulated table (companion.ui.sim_strip) moves the simulated hands, which
drive the same mock pins, and shows what the LED does."""

from __future__ import annotations

import queue
import time

import pytest

from companion import cues
from companion.events import BallPassed, ButtonPressed
from companion.settings import Settings
from hardware.sim_table import open_simulated_table

pytestmark = pytest.mark.ui


def test_panel_buttons_press_pins_and_the_lamp_follows_the_led(docs_shot):
    from kivy.uix.button import Button

    from companion.ui.render import pump
    from companion.ui.sim_strip import SimPanel

    q = queue.Queue()
    with open_simulated_table(q.put, settings=Settings(brightness=0.6)) as sim:
        table = sim.table
        panel = SimPanel(table=table, hands=sim.hands)
        try:
            buttons = {w.text: w for w in panel.children if isinstance(w, Button)}
            buttons["Bid"].dispatch("on_release")
            buttons["Pk"].dispatch("on_release")  # a pink ball down the chute
            got = [q.get(timeout=3), q.get(timeout=3)]
            assert ButtonPressed("bid") in got and BallPassed() in got
            table.cue(cues.PhaseStarted("planning", "ann", "green"))
            table.signals.wait_idle(2)
            time.sleep(0.05)
            pump()
            assert tuple(panel.lamp._colour.rgb) == pytest.approx((0, 1, 0))
            table.cue(cues.TimeUp("t"))
            time.sleep(0.05)
            panel.refresh()
            assert panel.sound_label.text.endswith("Hz")
            out = docs_shot(panel, "sim-panel-pins", size=(800, 56))
            assert out.stat().st_size > 1000
        finally:
            panel.stop()


def test_keyboard_presses_reach_the_table():
    from companion.ui.render import ensure_window
    from companion.ui.sim_strip import bind_keyboard

    window = ensure_window()
    q = queue.Queue()
    with open_simulated_table(q.put) as sim:
        unbind = bind_keyboard(sim.hands)
        try:
            window.dispatch("on_key_down", 98, 0, "b", [])  # b: bid
            window.dispatch("on_key_down", 13, 0, None, [])  # enter: next
            got = [q.get(timeout=3), q.get(timeout=3)]
        finally:
            unbind()
        window.dispatch("on_key_down", 98, 0, "b", [])  # unbound: nothing more
        time.sleep(0.3)
    assert got == [ButtonPressed("bid"), ButtonPressed("next")] and q.empty()


def test_the_strip_with_the_rendered_tables_buttons_fits_800_px(docs_shot):
    """Every strip button is at least 48x48 px and its label fits inside it at 800x480,
    with "Lay card" and "Reveal" for the rendered table; they act on the scene."""
    from kivy.uix.button import Button

    from companion.runtime.sim_scene import HandsWithScene, SimulatedScene
    from companion.ui.render import pump
    from companion.ui.sim_strip import STRIP_HEIGHT, SimPanel
    from companion.ui.widgets import MIN_BUTTON

    acted = []
    with open_simulated_table(lambda _: None) as sim:
        hands = HandsWithScene(sim.hands, SimulatedScene(), act=acted.append)
        panel = SimPanel(
            table=sim.table, hands=hands, size_hint=(None, None), size=(800, STRIP_HEIGHT)
        )
        try:
            docs_shot(panel, "sim-panel", size=(800, STRIP_HEIGHT))
            panel.do_layout()
            pump()
            buttons = [w for w in panel.children if isinstance(w, Button)]
            assert {b.text for b in buttons} >= {"Next", "Undo (hold)", "Lay card", "Reveal"}
            for b in buttons:
                b.texture_update()
                assert b.width >= MIN_BUTTON and b.height >= MIN_BUTTON, b.text
                assert b.texture_size[0] <= b.width - 4, (b.text, b.texture_size, b.width)
            assert max(b.right for b in buttons) <= 800
            next(b for b in buttons if b.text == "Reveal").dispatch("on_release")
            assert hands.handle_key("l")
            assert acted == ["reveal", "lay"]
        finally:
            panel.stop()


def test_the_strip_s_balls_are_round_unlike_the_game_pad_s_colour_keys():
    """Color Milk shows two rows of B G O Pk Pu: the pad enters a colour, the strip drops a
    ball into the chute. The strip's are drawn as discs, the pad's as rounded squares."""
    from kivy.graphics import RoundedRectangle

    from companion.ui.render import ensure_window, pump
    from companion.ui.sim_strip import STRIP_HEIGHT, SimPanel
    from companion.ui.widgets import ColourButton

    def corner(button) -> float:
        shape = next(i for i in button.canvas.before.children if isinstance(i, RoundedRectangle))
        return shape.radius[0][0]

    ensure_window()
    panel = SimPanel(size_hint=(None, None), size=(800, STRIP_HEIGHT))
    pad = ColourButton(colour="blue", size_hint=(None, None), size=(64, 56))
    try:
        panel.do_layout()
        pump()
        balls = [w for w in panel.children if isinstance(w, ColourButton)]
        assert len(balls) == 5
        for ball in balls:
            assert corner(ball) >= min(ball.size) / 2 - 2, (ball.text, corner(ball), ball.size)
        assert corner(pad) < min(pad.size) / 3
    finally:
        panel.stop()
