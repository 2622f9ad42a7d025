"""The window driver (window_driver.py) with the camera's questions on top: besides "home"
and a game's name it shows, for tests/ui/test_real_window_questions.py,

    color-milk-question   a Color Milk round whose cards the camera is unsure of
    node-camera           a Node card the camera proposes
    laser-camera          a Laser ring the camera is unsure of, then
    laser-editor          the board editor opened on it
    settled               nothing new: the same screen measured again, once a question that
                          came with the readings is laid out (starting a game can take longer
                          than the driver's wait, so the first measure may come too early)

Each starts a new game of that kind and feeds the camera's readings through the runtime,
as the camera thread would.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.ui import window_driver  # noqa: E402


def game_screen():
    from kivy.app import App

    from companion.ui.app import Root
    from companion.ui.game_screen import GameScreen

    root = next(w for w in App.get_running_app().root.walk() if isinstance(w, Root))
    assert isinstance(root.current_screen, GameScreen), root.current
    return root.current_screen  # the game on screen, not one left for home a moment ago


def color_milk_question() -> None:
    from companion.card_readings import ZoneRead
    from companion.events import BallSeen

    window_driver.show("color-milk")
    screen = game_screen()
    for slot, colour in enumerate(("blue", "pink", "orange", "green", "blue")):
        screen.submit(BallSeen(colour, slot, 1.0))
    unsure = ZoneRead("seat2", ("purple", "pink", "blue"), (0.99, 0.5, 0.99))
    for _ in range(2):  # a steady reading
        screen.ctx.runtime.sense(unsure)


def node_camera() -> None:
    from companion.games.node.events import CardRead, PlaceCard

    window_driver.show("node")
    screen = game_screen()
    r, c = screen.state.middle  # the first card centred: its top row here, red on top
    screen.submit(PlaceCard(screen.state.current, ("red",) * 3 + ("blue",) * 3, r, c - 1))
    unsure = ((1.0, 0.5, 1.0), (1.0, 1.0, 1.0))
    screen.ctx.runtime.sense(CardRead((("yellow",) * 3, ("red",) * 3), r - 1, c - 1, unsure))
    screen.refresh()


def laser_camera() -> None:
    from companion.games.laser.events import CardRevealed
    from tests.laser.helpers import unsure_ring

    window_driver.show("laser")
    screen = game_screen()
    floors = ("wood", "carpet") if screen.state.mode == "competitive" else (None, None)
    for colour, floor in zip(("cyan", "blue"), floors, strict=True):
        screen.submit(CardRevealed(colour, floor))
    screen.ctx.runtime.sense(unsure_ring(4, ("cyan", "green", "empty")))
    screen.refresh()


SCENES = {
    "color-milk-question": color_milk_question,
    "node-camera": node_camera,
    "laser-camera": laser_camera,
    "laser-editor": lambda: game_screen()._open_editor(),
    "settled": lambda: None,
}
plain_show = window_driver.show


def show(name: str) -> None:
    if name in SCENES:
        SCENES[name]()
    else:
        plain_show(name)


window_driver.show = show

if __name__ == "__main__":
    sys.exit(window_driver.main(sys.argv[1:]))
