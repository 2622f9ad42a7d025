"""The chute board reader over a real pty pair, with a fake board thread writing to it:
fuzzed garbage, board resets, silence, unplug/replug and back-off."""

from __future__ import annotations

import random
import threading
import time

import pytest

from companion.events import BallPassed
from hardware.events import BallSensed
from hardware.protocol import BallReading, BoardFault, Heartbeat, Version, encode, format_message
from hardware.serial_board import BoardStatus, ChuteBoardReader, open_serial
from hardware.sim_board import DEFAULT_REFERENCES, SimulatedChuteBoard


@pytest.fixture
def board(tmp_path):
    b = SimulatedChuteBoard(link=tmp_path / "ttyCHUTE", heartbeat=None)
    yield b
    b.close()


def make_reader(port, **kw):
    events, messages, statuses = [], [], []
    kw.setdefault("backoff_min", 0.02)
    kw.setdefault("backoff_max", 0.1)
    r = ChuteBoardReader(
        port,
        events.append,
        references=DEFAULT_REFERENCES.items(),
        on_message=messages.append,
        on_status=lambda s, t: statuses.append(s),
        **kw,
    )
    return r, events, messages, statuses


def wait_until(pred, timeout=5.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.005)
    return pred()


def junk(rng: random.Random, seq: int) -> bytes:
    """One fuzzed line: never a valid protocol line."""
    ball = format_message(
        BallReading(seq, rng.randrange(1 << 32), *(rng.randrange(1 << 16) for _ in range(4))),
        rng.randrange(1 << 16),
    )
    kind = rng.randrange(7)
    if kind == 0:  # random bytes, may hold $, * and newlines
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 120)))
    if kind == 1:  # truncated, with or without its line end
        return ball[: rng.randrange(1, len(ball) - 3)] + rng.choice([b"", b"\r\n", b"\n"])
    if kind == 2:  # wrong checksum
        bad = int(ball[-6:-2], 16) ^ rng.randrange(1, 1 << 16)
        return ball[:-6] + b"%04X\r\n" % bad
    if kind == 3:  # overlong
        body = bytes(rng.choice(b"0123456789,") for _ in range(rng.randrange(100, 400)))
        return b"$CBBAL," + body + b"*00\r\n"
    if kind == 4:  # one byte changed
        i = rng.randrange(1, len(ball) - 5)
        return ball[:i] + bytes([ball[i] ^ rng.randrange(1, 256)]) + ball[i + 1 :]
    if kind == 5:  # right checksum, wrong number of fields
        return encode(f"CBBAL,{seq},1,2,3", line=rng.randrange(1 << 16))
    return encode(f"CBBAL,{seq},1,2,3,4,99999", line=7)  # right checksum, value out of range


def test_ten_thousand_fuzzed_lines_never_crash_or_invent_a_ball(board):
    rng = random.Random(1234)
    reader, events, messages, statuses = make_reader(board.port, counts_balls=True)
    done = threading.Event()
    reader.on_message = lambda m: (
        messages.append(m),
        isinstance(m, BoardFault) and m.code == "END" and done.set(),
    )
    sent_balls, sent_beats = [], 0
    with reader:
        assert reader.wait_for(BoardStatus.CONNECTED, 5)

        def fake_board():
            nonlocal sent_beats
            seq = 0
            for i in range(10_000):
                board.write(junk(rng, rng.randrange(1 << 16)))
                if i % 5 == 0:  # a valid line between every few fuzzed ones
                    if rng.random() < 0.7:
                        r, g, b, c = board.reading_for(rng.choice(sorted(DEFAULT_REFERENCES)))
                        sent_balls.append(BallReading(seq, i, r, g, b, c))
                        board.send(sent_balls[-1])
                        seq += 1
                    else:
                        sent_beats += 1
                        board.send(Heartbeat(1000 + i, seq))
            board.write(b"\r\n")
            board.send(BoardFault("END", "fuzz over"))

        t0 = time.monotonic()
        writer = threading.Thread(target=fake_board)
        writer.start()
        writer.join(30)
        assert done.wait(30), reader.status_text
        elapsed = time.monotonic() - t0
    balls = [m for m in messages if isinstance(m, BallReading)]
    assert balls == sent_balls  # every valid ball line delivered, in order, unchanged
    assert sum(isinstance(m, Heartbeat) for m in messages) == sent_beats
    assert [e for e in events if isinstance(e, BallPassed)] == [BallPassed()] * len(sent_balls)
    sensed = [e for e in events if isinstance(e, BallSensed)]
    assert [e.seq for e in sensed] == list(range(len(sent_balls)))
    assert reader.lost == 0 and reader.bad_lines > 5_000
    assert BoardStatus.DISCONNECTED not in statuses
    assert elapsed < 20


def test_colours_are_read_from_the_sensor(board):
    reader, events, _, _ = make_reader(board.port)
    with reader:
        assert reader.wait_for(BoardStatus.CONNECTED, 5)
        colours = ["blue", "green", "orange", "pink", "purple"] * 2
        for c in colours:
            board.ball(c)
        assert wait_until(lambda: len(events) == len(colours))
    assert [e.colour for e in events] == colours
    assert all(e.confidence > 0.5 for e in events)
    assert not any(isinstance(e, BallPassed) for e in events)  # the GPIO beam counts balls


def test_a_dark_reading_names_no_colour(board):
    reader, events, _, _ = make_reader(board.port)
    with reader:
        assert reader.wait_for(BoardStatus.CONNECTED, 5)
        board.send(BallReading(0, 5, 3, 4, 2, 10))
        assert wait_until(lambda: events)
    assert events[0].colour is None and events[0].confidence == 0.0


def test_unplug_and_replug_recovers_and_the_game_goes_on(board):
    reader, events, _, statuses = make_reader(board.port, counts_balls=True)
    with reader:
        assert reader.wait_for(BoardStatus.CONNECTED, 5)
        board.ball("pink")
        assert wait_until(lambda: len(events) == 2)
        board.unplug()
        assert reader.wait_for(BoardStatus.DISCONNECTED, 5)
        assert "retrying" in reader.status_text
        time.sleep(0.2)  # several failed reopen attempts while unplugged
        board.replug()
        assert reader.wait_for(BoardStatus.CONNECTED, 5), reader.status_text
        board.ball("green")
        assert wait_until(lambda: len(events) == 4)
        assert reader.status_text.startswith("connected: chute_board-sim")
    assert [e.colour for e in events if isinstance(e, BallSensed)] == ["pink", "green"]
    assert reader.connections >= 2 and reader.lost == 0
    seen = [s for s in statuses if s in (BoardStatus.CONNECTED, BoardStatus.DISCONNECTED)]
    assert seen[0] == BoardStatus.CONNECTED and seen[-1] == BoardStatus.CONNECTED
    assert BoardStatus.DISCONNECTED in seen


def test_a_board_reset_mid_line_restarts_numbering_without_inventing_balls(board):
    reader, events, messages, _ = make_reader(board.port, counts_balls=True)
    with reader:
        assert reader.wait_for(BoardStatus.CONNECTED, 5)
        for c in ("blue", "blue", "orange"):
            board.ball(c)
        board.reset()  # half a line, the boot banner, numbering from 0
        for c in ("purple", "green"):
            board.ball(c)
        assert wait_until(lambda: sum(isinstance(e, BallSensed) for e in events) == 5)
    sensed = [e for e in events if isinstance(e, BallSensed)]
    assert [e.seq for e in sensed] == [0, 1, 2, 0, 1]
    assert [e.colour for e in sensed] == ["blue", "blue", "orange", "purple", "green"]
    assert events.count(BallPassed()) == 5 and reader.lost == 0 and reader.resets == 1
    assert sum(isinstance(m, Version) for m in messages) >= 2


def test_lost_ball_lines_are_still_counted(board):
    reader, events, _, _ = make_reader(board.port, counts_balls=True)
    with reader:
        assert reader.wait_for(BoardStatus.CONNECTED, 5)
        for seq in (0, 1, 4):  # lines for balls 2 and 3 were lost on the wire
            board.send(BallReading(seq, seq, 900, 1500, 2500, 5000))
        assert wait_until(lambda: sum(isinstance(e, BallSensed) for e in events) == 3)
        assert "2 lost" in reader.status_text
    assert sum(e.count for e in events if isinstance(e, BallPassed)) == 5
    assert reader.lost == 2


def test_a_silent_board_is_reported_and_asked_again(board):
    reader, events, _, statuses = make_reader(board.port, silent_after=0.15)
    with reader:
        assert reader.wait_for(BoardStatus.CONNECTED, 5)
        assert reader.wait_for(BoardStatus.SILENT, 5)
        assert wait_until(lambda: board.requests >= 2)  # the reader asks for a version again
        board.ball("blue")
        assert reader.wait_for(BoardStatus.CONNECTED, 5)


def test_a_missing_port_backs_off_exponentially(tmp_path):
    attempts = []

    def opener(port, baud):
        attempts.append(time.monotonic())
        return open_serial(port, baud)

    reader, *_ = make_reader(
        str(tmp_path / "nothing"), backoff_min=0.01, backoff_max=0.08, open_port=opener
    )
    with reader:
        time.sleep(0.6)
        assert reader.status == BoardStatus.DISCONNECTED
        assert "No such file" in reader.status_text
    gaps = [b - a for a, b in zip(attempts, attempts[1:], strict=False)]
    assert 4 <= len(attempts) <= 14  # 0.01, 0.02, 0.04, 0.08, 0.08, ... not a busy loop
    assert min(gaps) >= 0.009 and max(gaps) >= 0.07  # it waits, doubling up to the cap


def test_loop_url_works_too():
    # pyserial URLs run the same code: loop:// echoes what the reader writes (its GET VER)
    reader, _, messages, _ = make_reader("loop://")
    with reader:
        assert wait_until(lambda: messages)
    assert type(messages[0]).__name__ == "GetVersion"


def test_a_second_reader_cannot_steal_the_board(board):
    first, *_ = make_reader(board.port)
    second, *_ = make_reader(board.port)
    with first:
        assert first.wait_for(BoardStatus.CONNECTED, 5)
        with second:
            assert second.wait_for(BoardStatus.DISCONNECTED, 5)
            assert "lock" in second.status_text
        assert first.status == BoardStatus.CONNECTED


def test_back_off_starts_again_after_every_replug(board):
    """A valid line resets the back-off: the sixth replug is found as fast as the first."""
    texts = []
    reader, *_ = make_reader(board.port, backoff_min=0.1, backoff_max=3.2)
    reader.on_status = lambda s, t: texts.append(t) if s == BoardStatus.DISCONNECTED else None
    with reader:
        for _ in range(6):
            assert reader.wait_for(BoardStatus.CONNECTED, 5), reader.status_text
            board.unplug()
            assert reader.wait_for(BoardStatus.DISCONNECTED, 5)
            board.replug()
        assert reader.wait_for(BoardStatus.CONNECTED, 5), reader.status_text
    lost = [t for t in texts if " lost (" in t]
    assert len(lost) == 6
    assert all(t.endswith("retrying in 0.1 s") for t in lost), lost


def test_a_repeated_line_is_not_another_ball(board):
    reader, events, _, _ = make_reader(board.port, counts_balls=True)
    with reader:
        assert reader.wait_for(BoardStatus.CONNECTED, 5)
        first = format_message(BallReading(0, 5, 900, 1500, 2500, 5000), 40)
        board.write(first + first)  # the same line twice (a retransmitting adapter)
        board.write(format_message(Heartbeat(10, 1), 41))
        board.write(first)  # and once more, a line later
        board.write(format_message(BallReading(1, 9, 900, 1500, 2500, 5000), 42))
        assert wait_until(lambda: sum(isinstance(e, BallSensed) for e in events) == 2)
        assert "2 repeated lines ignored" in reader.status_text
    assert sum(e.count for e in events if isinstance(e, BallPassed)) == 2
    assert reader.repeated == 2 and reader.lost == 0


def test_lost_lines_are_told_apart_from_lost_balls(board):
    reader, events, _, _ = make_reader(board.port, counts_balls=True)
    with reader:
        assert reader.wait_for(BoardStatus.CONNECTED, 5)
        board.ball("blue")
        board.skip_lines(2)  # two lines lost...
        board.send(Heartbeat(1000, 1))
        board.ball("green")
        assert wait_until(lambda: sum(isinstance(e, BallSensed) for e in events) == 2)
    assert reader.lost_lines == 2 and reader.lost == 0  # ...but no ball was among them
    assert sum(e.count for e in events if isinstance(e, BallPassed)) == 2


def test_an_old_protocol_board_is_still_read(tmp_path):
    with SimulatedChuteBoard(link=tmp_path / "ttyOLD", heartbeat=None, protocol=1) as old:
        reader, events, _, _ = make_reader(old.port, counts_balls=True)
        with reader:
            assert reader.wait_for(BoardStatus.CONNECTED, 5)
            sent = old.ball("pink")
            old.write(format_message(sent))  # repeated: same ball number, no reboot between
            old.ball("green")
            assert wait_until(lambda: sum(isinstance(e, BallSensed) for e in events) == 2)
            assert "(protocol 1)" in reader.status_text
        assert reader.protocol == 1 and reader.repeated == 1
        assert [e.colour for e in events if isinstance(e, BallSensed)] == ["pink", "green"]
        assert events.count(BallPassed()) == 2


def test_a_protocol_1_line_from_a_protocol_2_board_is_refused(board):
    reader, events, _, _ = make_reader(board.port)
    with reader:
        assert reader.wait_for(BoardStatus.CONNECTED, 5)
        board.write(format_message(BallReading(0, 5, 900, 1500, 2500, 5000)))  # XOR only
        board.ball("blue")
        assert wait_until(lambda: events)
    assert [e.colour for e in events] == ["blue"] and reader.bad_lines == 1
    assert reader.protocol == 2


@pytest.mark.parametrize("protocol", [1, 2])
def test_the_doctor_warns_about_an_old_protocol_board(
    protocol, data_dir, tmp_path, monkeypatch, mock_factory
):
    import io
    from types import SimpleNamespace

    from hardware import doctor

    monkeypatch.setattr(doctor, "pi_present", lambda: True)
    monkeypatch.setattr("sys.stdin", io.StringIO())  # no terminal: nobody to ask
    with SimulatedChuteBoard(link=tmp_path / "tty", heartbeat=0.2, protocol=protocol) as b:
        pins = tmp_path / "pins.toml"
        pins.write_text(f'[serial]\nport = "{b.port}"\n')
        monkeypatch.setenv("COMPANION_PINS", str(pins))
        checks = doctor.checks(SimpleNamespace(simulate=False, json=True, data_dir=None))
        (check,) = [c for c in checks if getattr(c, "part", "") == "serial board"]
        row = check()
    assert row.ok, row
    assert ("WARNING: old protocol 1 firmware" in row.detail) == (protocol == 1), row.detail
