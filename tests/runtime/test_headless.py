"""The runtime without a screen: the clock runs out on the engine thread, a refused reading
reaches the refusal subscribers and changes nothing, and every subscriber hears the cues."""

import threading

from companion import catalogue
from companion.clock import FakeClock
from companion.cues import TimeUp
from companion.game import GameConfig
from companion.runtime import Runtime
from companion.session import Session
from companion.store import GameLog
from tests.sixth_game.catalogue import sixth_game_in_catalogue


def test_a_turn_clock_runs_out_and_a_refused_reading_changes_nothing(tmp_path):
    with sixth_game_in_catalogue(), GameLog(tmp_path / "g.sqlite3") as log:
        game = catalogue.load("colour-race")
        from companion.games.colour_race.rules import Roll  # found on the catalogue path

        clock = FakeClock()
        runtime = Runtime()  # keeps time on its engine thread: no screen ticks here
        heard, refused = [], []
        said_no = threading.Event()
        runtime.subscribe(
            on_cue=heard.append,
            on_refusal=lambda ev, why: (refused.append((ev, why)), said_no.set()),
        )
        runtime.play(Session.start(game, log, GameConfig(("P1", "P2")), clock=clock))
        runtime.post(Roll("P2", "blue"))  # not P2's turn
        assert said_no.wait(5)
        assert refused == [(Roll("P2", "blue"), "it is P1's turn")]
        assert runtime.session.state.turn == 0 and not runtime.session.can_undo
        passed = runtime.changed_to(lambda s: s.turn == 1)
        clock.advance(31)
        assert passed.wait(5)
        assert TimeUp("turn-0") in heard
        runtime.close()
