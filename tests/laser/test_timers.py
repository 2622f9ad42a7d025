"""Every Laser clock, driven through a real Session on a FakeClock with a GameLog on disk."""

import pytest

from companion.clock import FakeClock
from companion.cues import PhaseStarted, TimeUp, TimeWarning
from companion.events import ButtonPressed
from companion.game import GameConfig
from companion.games.laser import GAME
from companion.games.laser.events import (
    BidPlaced,
    CardRevealed,
    ImpossibleClaimed,
    RoundResult,
)
from companion.session import Session
from companion.store import GameLog

TEAM4 = ("Peter", "Suzie", "Tommy", "Kitti")


@pytest.fixture
def table(tmp_path):
    def start(players=TEAM4, **options):
        clock = FakeClock()
        heard = []
        log = GameLog(tmp_path / "games.sqlite3")
        session = Session.start(
            GAME, log, GameConfig(players, options), clock=clock, sinks=[heard.append]
        )
        return session, clock, heard, log

    return start


def run_clock(session, clock, seconds, step=0.25):
    """Advance the fake clock in small steps, polling like the UI does."""
    cues = []
    t = 0.0
    while t < seconds - 1e-9:
        clock.advance(step)
        t += step
        cues.extend(session.poll())
    return cues


def warnings(cues):
    return [c.seconds_left for c in cues if isinstance(c, TimeWarning)]


def check_clock(session, clock, phase, seconds, next_phase):
    spec = GAME.timer(session.state)
    assert session.state.phase == phase and spec.seconds == seconds
    assert session.timer is not None
    assert session.timer.remaining() == pytest.approx(seconds, abs=0.6)
    early = run_clock(session, clock, session.timer.remaining() - 10.5)
    assert early == [] and session.state.phase == phase
    rest = run_clock(session, clock, 11)
    assert warnings(rest) == [10, 5, 4, 3, 2, 1]
    assert TimeUp(spec.key) in rest
    assert session.state.phase == next_phase
    return rest


def test_team_planning_and_mixing_clocks(table):
    session, clock, heard, _ = table()
    session.submit(CardRevealed("cyan"))
    assert session.timer is None
    session.submit(CardRevealed("blue"))
    cues = check_clock(session, clock, "planning", 30, "bids")
    assert PhaseStarted("bids") in cues
    assert session.timer is None  # bids are shown on three, no clock
    for p, b in zip(TEAM4, (7, 10, 3, 8), strict=True):
        session.submit(BidPlaced(p, b))
    check_clock(session, clock, "mixing", 30, "verdict")
    assert session.timer is None
    session.submit(RoundResult(True))
    assert session.game.scores(session.state)["Kitti"] == 7
    # the sinks heard what poll returned, once each
    assert warnings(heard) == [10, 5, 4, 3, 2, 1] * 2


def test_finishing_early_stops_the_mixing_clock(table):
    session, clock, _, _ = table()
    session.submit(CardRevealed("cyan"))
    session.submit(CardRevealed("blue"))
    session.submit(ButtonPressed("next"))  # everyone is ready before the 30 s
    for p, b in zip(TEAM4, (5, 5, 2, 9), strict=True):
        session.submit(BidPlaced(p, b))
    run_clock(session, clock, 12)
    session.submit(RoundResult(True))
    assert session.timer is None and session.state.phase == "reveal"
    assert run_clock(session, clock, 40) == []


def test_competitive_bidding_window_and_demonstration(table):
    session, clock, _, _ = table(("Peter", "Tommy"), mode="competitive")
    session.submit(CardRevealed("yellow", "wood"))
    session.submit(CardRevealed("green", "carpet"))
    assert session.timer is None  # thinking: no clock until the first bid
    session.submit(BidPlaced("Peter", 6))
    run_clock(session, clock, 10)
    session.submit(BidPlaced("Tommy", 4))  # a lower bid does not restart the window
    assert session.timer.remaining() == pytest.approx(20)
    cues = run_clock(session, clock, 20)
    assert session.state.phase == "demonstration" and warnings(cues) == [10, 5, 4, 3, 2, 1]
    assert PhaseStarted("demonstration", "Tommy") in cues
    check_clock(session, clock, "demonstration", 30, "verdict")


def test_bid_button_window(table):
    session, clock, _, _ = table(("Peter", "Tommy"), mode="competitive")
    session.submit(CardRevealed("yellow", "wood"))
    session.submit(CardRevealed("green", "carpet"))
    session.submit(ButtonPressed("bid"))
    session.submit(BidPlaced("Tommy", 5))
    check_clock(session, clock, "bidding", 30, "demonstration")


def test_impossible_challenge_and_proof_clocks(table):
    session, clock, _, _ = table()
    session.submit(CardRevealed("cyan"))
    session.submit(CardRevealed("blue"))
    run_clock(session, clock, 12)  # part of the planning time is gone
    session.submit(ImpossibleClaimed("Tommy"))
    session.submit(BidPlaced("Suzie", 6))
    check_clock(session, clock, "challenge", 30, "proof")
    check_clock(session, clock, "proof", 30, "proof-verdict")
    session.submit(RoundResult(False))
    assert session.game.scores(session.state)["Tommy"] == 10


def test_learning_mode_clocks_are_a_minute(table):
    session, clock, _, _ = table(learning=True)
    session.submit(CardRevealed("cyan"))
    session.submit(CardRevealed("blue"))
    check_clock(session, clock, "planning", 60, "bids")


def test_a_restart_resumes_the_running_clock(table, tmp_path):
    session, clock, _, log = table()
    session.submit(CardRevealed("cyan"))
    session.submit(CardRevealed("blue"))
    run_clock(session, clock, 8)
    log.close()
    with GameLog(tmp_path / "games.sqlite3") as log2:
        again = Session.resume(GAME, log2, session.game_id, clock=clock)
        assert again.state.phase == "planning"
        assert again.timer.remaining() == pytest.approx(22, abs=1.0)
        cues = run_clock(again, clock, 23)
        assert again.state.phase == "bids" and 10 in warnings(cues)


def test_undo_brings_the_clock_back(table):
    session, clock, _, _ = table()
    session.submit(CardRevealed("cyan"))
    session.submit(CardRevealed("blue"))
    key = session.game.timer(session.state).key
    run_clock(session, clock, 31)
    assert session.state.phase == "bids"
    session.undo()  # the expiry is undone: planning again with a fresh countdown
    assert session.state.phase == "planning" and session.timer is not None
    assert session.game.timer(session.state).key == key
