"""The chute sensor board's reader: a thread that turns protocol lines into events.

It survives garbage, partial lines, wrong checksums, a board reset and unplug/replug: bad
lines are logged and skipped (BadLine), a repeated line is ignored, lost lines are counted
(protocol 2 numbers every line; protocol 1 boards are still read), a lost port is reopened
with exponential back-off that every valid line resets, and the game goes on meanwhile.
`status` is a BoardStatus; `status_text` says it for people; `on_status(status, text)` is
called on every change of status.
"""

from __future__ import annotations

import contextlib
import enum
import logging
import threading
from collections.abc import Callable, Iterable

import serial

from companion.clock import Clock, MonotonicClock
from companion.events import BallPassed, Event
from hardware.colours import RGB, classify
from hardware.errors import BadLine
from hardware.events import BallSensed
from hardware.protocol import (
    LINE_NUMBERS,
    BallReading,
    BoardFault,
    Frame,
    GetVersion,
    Heartbeat,
    LineSplitter,
    Message,
    Version,
    format_message,
    parse_frame,
)

log = logging.getLogger(__name__)

MAX_GAP = 8  # a seq jump up to this many balls means lines were lost; more means a resync
REPEAT_WINDOW = 16  # a line numbered up to this many lines back was seen already
MIN_CLEAR = 40  # a clear-channel count below this is too dark to name a colour


class BoardStatus(enum.Enum):
    STOPPED = "stopped"
    CONNECTING = "connecting"
    WAITING = "waiting for the board"  # port open, no valid line yet
    CONNECTED = "connected"
    SILENT = "silent"  # port open, no valid line for silent_after seconds
    DISCONNECTED = "disconnected"  # port missing or lost; retrying


# How long a read waits for the board's next byte: a line is read as soon as it comes, so this
# only sets how often an idle reader wakes up (and how soon it sees `close`).
READ_WAIT = 0.25


def open_serial(port: str, baud: int):
    """The default opener: a device path or any pyserial URL (loop://, rfc2217://...).

    A device is locked for us alone: the app and `companion doctor` reading the same board
    would each get half of its lines.
    """
    if "://" in port:
        return serial.serial_for_url(port, baudrate=baud, timeout=READ_WAIT)
    return serial.Serial(port, baudrate=baud, timeout=READ_WAIT, exclusive=True)


class ChuteBoardReader:
    def __init__(
        self,
        port: str,
        on_event: Callable[[Event], None],
        *,
        baud: int = 115200,
        counts_balls: bool = False,
        references: Iterable[tuple[str, RGB]] = (),
        silent_after: float = 3.0,
        backoff_min: float = 0.2,
        backoff_max: float = 5.0,
        clock: Clock | None = None,
        on_status: Callable[[BoardStatus, str], None] | None = None,
        on_message: Callable[[Message], None] | None = None,
        open_port: Callable[[str, int], object] = open_serial,
    ) -> None:
        self.port = port
        self.baud = baud
        self.on_event = on_event
        self.on_status = on_status
        self.on_message = on_message
        self.counts_balls = counts_balls
        self.references = tuple(references)
        self.silent_after = silent_after
        self.backoff_min = backoff_min
        self.backoff_max = backoff_max
        self.clock = clock or MonotonicClock()
        self._open_port = open_port
        self.status = BoardStatus.STOPPED
        self.detail = ""
        self.version: Version | None = None
        self.fault: BoardFault | None = None
        # counters, for status, the doctor and tests
        self.lines = 0
        self.bad_lines = 0
        self.balls = 0
        self.lost = 0
        self.resets = 0
        self.connections = 0
        self.repeated = 0  # lines that came twice, ignored
        self.lost_lines = 0  # gaps in the line numbers (protocol 2)
        self.protocol: int | None = None  # of the lines on the current connection
        self._next_line: int | None = None
        self._last_seq: int | None = None
        self._banner = False  # a version line came since the last ball (a reset may have)
        self._backoff = backoff_min
        self._next_seq: int | None = None
        self._uptime: int | None = None
        self._stop = threading.Event()
        self._status_lock = threading.Lock()
        self._status_changed = threading.Condition(self._status_lock)
        self._ser = None
        self._thread: threading.Thread | None = None

    # lifecycle -----------------------------------------------------------------
    def start(self) -> ChuteBoardReader:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="chute-board", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        self._set_status(BoardStatus.STOPPED, "")

    def __enter__(self) -> ChuteBoardReader:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<ChuteBoardReader {self.port} {self.status_text}>"

    # status ------------------------------------------------------------------------
    @property
    def status_text(self) -> str:
        s = self.status
        if s in (BoardStatus.CONNECTED, BoardStatus.SILENT):
            v = (
                f"{self.version.firmware} (protocol {self.version.protocol})"
                if self.version
                else "version unknown"
            )
            extra = [f"{self.balls} balls"]
            if self.lost:
                extra.append(f"{self.lost} lost")
            if self.bad_lines:
                extra.append(f"{self.bad_lines} bad lines")
            if self.repeated:
                extra.append(f"{self.repeated} repeated lines ignored")
            if self.lost_lines:
                extra.append(f"{self.lost_lines} lines lost")
            if self.fault:
                extra.append(f"board fault {self.fault.code}: {self.fault.text}")
            return f"{s.value}: {v}, {', '.join(extra)}"
        return f"{s.value}: {self.detail}" if self.detail else s.value

    def wait_for(self, status: BoardStatus, timeout: float) -> bool:
        """Block until the reader reaches `status` (for tests and the doctor)."""
        with self._status_changed:
            return self._status_changed.wait_for(lambda: self.status == status, timeout)

    def _set_status(self, status: BoardStatus, detail: str) -> None:
        with self._status_changed:
            changed = status != self.status
            self.status, self.detail = status, detail
            self._status_changed.notify_all()
        if changed:
            log.info("chute board %s", self.status_text)
            if self.on_status is not None:
                try:
                    self.on_status(status, self.status_text)
                except Exception:
                    log.exception("on_status failed")

    # the thread ------------------------------------------------------------------------
    def _run(self) -> None:
        self._backoff = self.backoff_min
        while not self._stop.is_set():
            self._set_status(BoardStatus.CONNECTING, self.port)
            try:
                ser = self._open_port(self.port, self.baud)
            except (serial.SerialException, OSError, ValueError) as exc:
                self._set_status(
                    BoardStatus.DISCONNECTED,
                    f"{self.port}: {exc}; retrying in {self._backoff:.1f} s",
                )
                self._wait_to_retry()
                continue
            self.connections += 1
            self._set_status(BoardStatus.WAITING, self.port)
            try:
                self._serve(ser)
            except (serial.SerialException, OSError) as exc:
                self._set_status(
                    BoardStatus.DISCONNECTED,
                    f"{self.port} lost ({exc}); retrying in {self._backoff:.1f} s",
                )
            finally:
                with contextlib.suppress(serial.SerialException, OSError):
                    ser.close()
            self._wait_to_retry()

    def _wait_to_retry(self) -> None:
        if not self._stop.is_set():
            self._stop.wait(self._backoff)
            self._backoff = min(self._backoff * 2, self.backoff_max)

    def _serve(self, ser) -> None:
        """Read lines until the port fails or we are stopped."""
        splitter = LineSplitter()
        self.protocol = None  # a replugged board may run other firmware
        self._next_line = None
        ser.write(format_message(GetVersion()))
        last_valid = asked = self.clock.now()
        while not self._stop.is_set():
            data = ser.read(max(1, ser.in_waiting))
            now = self.clock.now()
            for item in splitter.feed(data) if data else ():
                if isinstance(item, BadLine):
                    self._bad(item)
                    continue
                try:
                    frame = parse_frame(item)
                    fresh = self._number(frame)
                except BadLine as exc:
                    self._bad(exc)
                    continue
                last_valid = now
                self._backoff = self.backoff_min  # the board talks: a later loss retries fast
                if fresh:
                    self._handle(frame.message)
                if self.status != BoardStatus.CONNECTED:
                    self._set_status(BoardStatus.CONNECTED, "")
            if now - last_valid > self.silent_after:
                self._set_status(
                    BoardStatus.SILENT, f"no line for {now - last_valid:.0f} s on {self.port}"
                )
                if now - asked > self.silent_after:  # a rebooted board may need asking
                    ser.write(format_message(GetVersion()))
                    asked = now

    def _number(self, frame: Frame) -> bool:
        """Line-number bookkeeping. False for a repeated line: it was handled already."""
        if frame.line is None:
            if self.protocol == 2:  # a damaged line that happens to pass the old checksum
                raise BadLine("a protocol 1 line from a protocol 2 board")
            self.protocol = 1
            return True
        self.protocol = 2
        booted = frame.line == 0 and isinstance(frame.message, Version)
        if self._next_line is not None and not booted:
            if (self._next_line - 1 - frame.line) % LINE_NUMBERS < REPEAT_WINDOW:
                self.repeated += 1
                log.warning("chute board: line %d came again; ignored", frame.line)
                return False
            gap = (frame.line - self._next_line) % LINE_NUMBERS
            if 0 < gap < LINE_NUMBERS // 2:
                self.lost_lines += gap
                log.warning("chute board: %d line(s) lost before line %d", gap, frame.line)
            elif gap:
                log.warning("chute board: line numbers jumped to %d; resynchronised", frame.line)
        if booted and self._next_line is not None:
            self._restarted("boot banner")
        self._next_line = (frame.line + 1) % LINE_NUMBERS
        return True

    def _bad(self, exc: BadLine) -> None:
        self.bad_lines += 1
        log.debug("chute board: skipped bad line: %s", exc)

    def _emit(self, ev: Event) -> None:
        try:
            self.on_event(ev)
        except Exception:
            log.exception("on_event failed for %r", ev)

    def _handle(self, msg: Message) -> None:
        self.lines += 1
        if self.on_message is not None:
            try:
                self.on_message(msg)
            except Exception:
                log.exception("on_message failed")
        match msg:
            case BallReading():
                self._ball(msg)
            case Heartbeat(uptime_ms=up):
                if self._uptime is not None and up < self._uptime:
                    self._restarted("heartbeat uptime went back")
                self._uptime = up
            case Version():
                self.version = msg
                self._banner = True
            case BoardFault():
                self.fault = msg
                log.warning("chute board fault %s: %s", msg.code, msg.text)

    def _restarted(self, why: str) -> None:
        self.resets += 1
        self._next_seq = self._last_seq = None
        self.fault = None
        log.warning("chute board restarted (%s)", why)

    def _ball(self, msg: BallReading) -> None:
        if self.protocol == 1 and msg.seq == self._last_seq and not self._banner:
            # protocol 1 has no line numbers: the same ball number again with no reboot
            # between is taken for a repeated line
            self.repeated += 1
            log.warning("chute board: ball #%d came twice; ignored", msg.seq)
            return
        self._last_seq, self._banner = msg.seq, False
        if self._next_seq is not None and msg.seq != self._next_seq:
            missed = (msg.seq - self._next_seq) % 0x10000
            if msg.seq == 0:
                self._restarted("ball numbers started again")
            elif missed <= MAX_GAP:
                # the board saw balls whose lines were lost: count them, colour unknown
                self.lost += missed
                log.warning("chute board: %d ball line(s) lost before #%d", missed, msg.seq)
                if self.counts_balls:
                    self._emit(BallPassed(missed))
            else:
                log.warning("chute board: ball numbers jumped to %d; resynchronised", msg.seq)
        self._next_seq = (msg.seq + 1) % 0x10000
        self.balls += 1
        if msg.c >= MIN_CLEAR:
            colour, confidence = classify(msg.r, msg.g, msg.b, self.references)
        else:
            colour, confidence = None, 0.0
        if self.counts_balls:
            self._emit(BallPassed())
        self._emit(BallSensed(msg.seq, colour, round(confidence, 3), (msg.r, msg.g, msg.b, msg.c)))
