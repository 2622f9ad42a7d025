import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.clock import FakeClock
from companion.cues import GameOver, Scored, TimeWarning
from companion.errors import IllegalMove, LogError
from companion.events import TimerExpired
from companion.game import GameConfig
from companion.session import Session, replay
from companion.store import GameLog
from tests.core.tally import TALLY, Add

CONFIG = GameConfig(players=("Anna", "Ben"))


def play(session, moves):
    for points in moves:
        player = TALLY.current_player(session.state)
        if player is None:
            break
        session.submit(Add(player, points))


@pytest.fixture
def log(tmp_path):
    with GameLog(tmp_path / "games.sqlite3") as log:
        yield log


def test_events_are_applied_and_logged_and_cues_reach_sinks(log):
    heard = []
    s = Session.start(TALLY, log, CONFIG, clock=FakeClock(), sinks=[heard.append])
    s.submit(Add("Anna", 3))
    assert TALLY.scores(s.state) == {"Anna": 3, "Ben": 0}
    assert heard == [Scored("Anna", 3)]
    assert [e.payload["type"] for e in log.entries(s.game_id)] == ["tally.Add"]


def test_an_illegal_event_is_refused_and_changes_nothing(log):
    s = Session.start(TALLY, log, CONFIG, clock=FakeClock())
    with pytest.raises(IllegalMove, match="Anna's turn"):
        s.submit(Add("Ben", 2))
    with pytest.raises(IllegalMove, match="1, 2 or 3"):
        s.submit(Add("Anna", 4))
    assert log.entries(s.game_id) == []
    assert TALLY.scores(s.state) == {"Anna": 0, "Ben": 0}


def test_undo_redo_round_trip_and_survive_a_restart(log):
    s = Session.start(TALLY, log, CONFIG, clock=FakeClock())
    play(s, [1, 2, 3])
    after_three = s.state
    assert s.undo() and s.undo()
    assert TALLY.scores(s.state) == {"Anna": 1, "Ben": 0}
    assert s.redo()
    assert TALLY.scores(s.state) == {"Anna": 1, "Ben": 2}
    # a restart keeps both the state and the redo stack
    again = Session.resume(TALLY, log, s.game_id, clock=FakeClock())
    assert again.state == s.state and again.can_redo
    assert again.redo() and again.state == after_three
    assert not again.redo()
    # a new event after an undo drops the redo stack
    again.undo()
    again.submit(Add("Anna", 1))
    assert not again.can_redo
    kinds = [e.kind for e in log.entries(s.game_id)]
    assert kinds == ["event"] * 3 + ["undo", "undo", "redo", "redo", "undo", "event"]


def test_finished_game_records_result_and_undo_reopens_it(log):
    s = Session.start(TALLY, log, CONFIG, clock=FakeClock())
    heard = []
    s.sinks.append(heard.append)
    play(s, [3, 1, 3, 1, 3, 1, 3])
    assert TALLY.is_over(s.state)
    assert heard[-1] == GameOver(("Anna",))
    assert log.game(s.game_id).status == "finished"
    assert log.player_history() == {"Anna": {"played": 1, "won": 1}, "Ben": {"played": 1, "won": 0}}
    s.undo()
    assert log.game(s.game_id).status == "active" and log.unfinished().id == s.game_id


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    moves=st.lists(st.integers(1, 3), min_size=1, max_size=14),
    ops=st.lists(st.sampled_from(["undo", "redo", "none"]), max_size=14),
    kill_at=st.integers(0, 28),
)
def test_kill_and_resume_at_any_point_gives_the_uninterrupted_state(
    tmp_path_factory, moves, ops, kill_at
):
    """The process dies after `kill_at` operations (the Session is simply dropped without a
    close); a new process resumes from the file and finishes the same script."""
    script = []
    for i, m in enumerate(moves):
        script.append(("move", m))
        if i < len(ops) and ops[i] != "none":
            script.append((ops[i], None))

    def run(session, steps):
        for op, arg in steps:
            if op == "move":
                play(session, [arg])
            elif op == "undo":
                session.undo()
            else:
                session.redo()

    path = tmp_path_factory.mktemp("kill") / "games.sqlite3"
    reference_log = GameLog(path.with_name("reference.sqlite3"))
    reference = Session.start(TALLY, reference_log, CONFIG, clock=FakeClock())
    run(reference, script)

    first = GameLog(path)
    s = Session.start(TALLY, first, CONFIG, clock=FakeClock())
    run(s, script[:kill_at])
    del s  # killed: nothing flushed or closed on purpose
    second = GameLog(path)
    resumed = Session.resume(
        TALLY, second, second.unfinished().id if second.unfinished() else 1, clock=FakeClock()
    )
    run(resumed, script[kill_at:])
    assert resumed.state == reference.state
    assert resumed.can_undo == reference.can_undo and resumed.can_redo == reference.can_redo
    first.close()
    second.close()
    reference_log.close()


def test_timer_warnings_expiry_and_restore_after_restart(log):
    clock = FakeClock()
    heard = []
    s = Session.start(TALLY, log, CONFIG, clock=clock, sinks=[heard.append])
    clock.advance(11)
    s.poll()
    assert heard == [TimeWarning(10)]
    clock.advance(4)
    s.poll()  # 5 s left is saved
    resumed = Session.resume(TALLY, log, s.game_id, clock=clock, sinks=[heard.append])
    assert resumed.timer.remaining() == pytest.approx(5)
    clock.advance(6)
    resumed.poll()
    assert TALLY.current_player(resumed.state) == "Ben"  # Anna's turn timed out
    assert resumed.state.timeouts == 1
    assert log.entries(s.game_id)[-1].payload == {"type": "core.TimerExpired", "key": "turn-0"}
    assert resumed.timer.remaining() == pytest.approx(20)


def test_replay_matches_the_live_session(log):
    s = Session.start(TALLY, log, CONFIG, clock=FakeClock())
    play(s, [2, 3, 1])
    s.undo()
    s.submit(TimerExpired("turn-2"))
    states, redo = replay(TALLY, CONFIG, log.entries(s.game_id))
    assert states[-1] == s.state and redo == []


def test_a_file_that_is_not_sqlite_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "games.sqlite3"
    junk = b"this is not a database\x00" * 100
    path.write_bytes(junk)
    with pytest.raises(LogError, match="not a Table Companion game log"):
        GameLog(path)
    assert path.read_bytes() == junk


def test_a_damaged_log_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "games.sqlite3"
    with GameLog(path) as log:
        s = Session.start(TALLY, log, CONFIG, clock=FakeClock())
        play(s, [1, 2, 3])
    data = bytearray(path.read_bytes())
    data[200:4000] = b"\xff" * 3800  # smash page 1 past the header
    path.write_bytes(bytes(data))
    with pytest.raises(LogError):
        GameLog(path)
    assert path.read_bytes() == bytes(data)


def test_another_programs_sqlite_file_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "games.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE recipes (name TEXT)")
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(LogError, match="another program"):
        GameLog(path)
    assert path.read_bytes() == before


def _break_entry(path, game_id, seq, text='{"type": "tally.Add", "play'):
    """Overwrite one entry's stored text, as a torn write or a flipped byte leaves it."""
    db = sqlite3.connect(path)
    db.execute("UPDATE entries SET payload = ? WHERE game_id = ? AND seq = ?", (text, game_id, seq))
    db.commit()
    db.close()


def test_a_broken_entry_sets_its_unfinished_game_aside_and_the_box_starts(tmp_path):
    from companion.ui.context import AppContext

    path = tmp_path / "games.sqlite3"
    with GameLog(path) as log:
        done = Session.start(TALLY, log, CONFIG, clock=FakeClock())
        play(done, [3, 1, 3, 1, 3, 1, 3])
        broken = Session.start(TALLY, log, CONFIG, clock=FakeClock())
        play(broken, [1, 2, 3])
    _break_entry(path, broken.game_id, 2)
    ctx = AppContext.open(tmp_path)
    try:
        assert ctx.log.unfinished() is None  # nothing to resume: the box starts at home
        assert ctx.set_aside == [
            f"tally game #{broken.game_id} (Anna, Ben) could not be resumed: "
            "entry 2 is unreadable. "
            "It was set aside and stays in the log."
        ]
        assert ctx.set_aside[0] in ctx.notices
        assert ctx.log.set_aside_games() == {broken.game_id: "entry 2 is unreadable"}
        doc = ctx.log.export(broken.game_id)  # still there, marked, exportable as stored
        assert doc["set_aside"] == "entry 2 is unreadable"
        assert [e["stored"] for e in doc["entries"]][1] == '{"type": "tally.Add", "play'
        assert len(ctx.log.entries(done.game_id)) == 7  # the finished game is untouched
    finally:
        ctx.log.close()
    again = AppContext.open(tmp_path)  # the next start says nothing more: it is set aside
    assert again.set_aside == [] and again.log.unfinished() is None
    again.log.close()


def test_a_well_formed_but_altered_entry_is_caught_by_the_hash_chain(tmp_path):
    path = tmp_path / "games.sqlite3"
    with GameLog(path) as log:
        s = Session.start(TALLY, log, CONFIG, clock=FakeClock())
        play(s, [1, 2, 3])
    _break_entry(path, s.game_id, 3, '{"type": "tally.Add", "player": "Anna", "points": 1}')
    with GameLog(path) as log:
        assert log.set_aside_damaged() == [
            (s.game_id, "tally", "entry 3 was altered after it was written")
        ]


def test_replay_of_a_log_with_a_broken_entry_is_one_clear_line(tmp_path, capsys):
    import json

    from companion.cli import main

    path = tmp_path / "games.sqlite3"
    with GameLog(path) as log:
        s = Session.start(TALLY, log, CONFIG, clock=FakeClock())
        play(s, [1, 2, 3])
    _break_entry(path, s.game_id, 2)
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err.strip()
    assert err == f"companion: error: game #{s.game_id}: entry 2 is unreadable"
    exported = tmp_path / "set-aside.json"
    with GameLog(path) as log:
        log.set_aside(s.game_id, "entry 2 is unreadable")
        exported.write_text(json.dumps(log.export(s.game_id)))
    assert main(["replay", str(exported)]) == 1
    err = capsys.readouterr().err.strip()
    assert err == (
        "companion: error: this game was set aside as damaged (entry 2 is unreadable): "
        "its entries are kept as stored and cannot be replayed"
    )
