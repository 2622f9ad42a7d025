"""The table's phase length (Settings) reaches the game started from the set-up screen."""

from dataclasses import replace

import pytest

from companion.ui.app import Root
from companion.ui.context import AppContext

pytestmark = pytest.mark.ui


@pytest.mark.parametrize("learning, expected", [(False, 45), (True, 90)])
def test_the_phase_seconds_setting_times_laser_phases(data_dir, learning, expected):
    ctx = AppContext.open(data_dir, simulate=True)
    try:
        ctx.save_settings(replace(ctx.settings, phase_seconds=45, learning_mode=learning))
        root = Root(ctx)
        root.choose_game("laser")
        root.get_screen("setup").start()
        session = root.get_screen("game").session
        assert session.config.options["phase_seconds"] == 45
        assert session.game.seconds(session.state) == expected  # what every timed phase runs
    finally:
        ctx.close()
