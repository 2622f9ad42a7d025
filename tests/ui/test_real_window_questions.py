"""The camera's questions in the real app, in a real X window of exactly 800x480 with the
simulated table's strip: the answers as big buttons, the Node card to confirm and the Laser
board to check all fit the display above the strip, every button a full touch target, and
the display shows them (read back with tesseract)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui import test_real_window as real
from tests.ui.test_real_window import (
    SCREEN,
    display,
    find,
    outside,
    read_box,
    screenshot,
    shows,
)

pytestmark = real.pytestmark
DRIVER = Path(__file__).with_name("question_driver.py")
MIN_TOUCH = 48  # px at the Pi's density (sizes.MIN_TOUCH_DP)
__all__ = ["display"]  # the Xvfb fixture, shared


@pytest.fixture(scope="module")
def app(display, tmp_path_factory):
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(real, "DRIVER", DRIVER)
        running = real.RunningApp(display, tmp_path_factory.mktemp("asks") / "data", "--simulate")
    yield running
    assert running.stop() == 0


def check(app, scene: str, tmp_path: Path, *texts: str) -> list[dict]:
    """Show `scene`; the buttons named by `texts` are whole touch targets on the display,
    above the strip, and the display shows the first one's words."""
    app.show(scene)
    shown = app.show("settled")
    assert tuple(shown["window"]) == SCREEN
    boxes = shown["boxes"]
    buttons = [b for b in boxes if b["cls"] in ("BigButton", "ColourButton")]
    wanted = [find(buttons, next(b["cls"] for b in buttons if b["text"] == t), t) for t in texts]
    strip_top = find(boxes, "BigButton", "Next")["box"][1]
    for b in wanted:
        x0, y0, x1, y1 = b["box"]
        assert x1 - x0 >= MIN_TOUCH and y1 - y0 >= MIN_TOUCH, (scene, b)
        assert y1 <= strip_top and not outside([b], SCREEN), (scene, b)
    image = screenshot(app.display)
    word = texts[0].rstrip("…").split()[0]
    read = read_box(image, wanted[0]["box"], tmp_path)
    assert shows(word, read), (scene, word, read)
    return wanted


def test_the_camera_s_questions_fit_the_display(app, tmp_path):
    check(
        app,
        "color-milk-question",
        tmp_path,
        "Other…",
        "blue + pink + purple: free",
        "blue + pink + purple: triple",
        "blue + purple: free",
        "blue + purple: double",
    )
    check(app, "node-camera", tmp_path, "Correct", "Confirm")  # light words on dark read best
    check(app, "laser-camera", tmp_path, "Check board")
    check(app, "laser-editor", tmp_path, "empty", "Save board")
