"""A simulated chute board on a pseudo-terminal: the reader opens it like a USB serial port.

The board side writes protocol lines to the pty master; the reader opens the slave by its
path, exactly as it opens /dev/ttyACM0 on a real table. `link` (optional) is a symlink kept
pointing at the current slave, like /dev/serial/by-id/..., so unplug/replug can be played:
`unplug()` closes the pty (the reader's port fails), `replug()` makes a new one and moves the
link, `reset()` cuts a line short and boots again, as a board does when it browns out.
`protocol=1` plays a board with the old firmware (XOR checksums, no line numbers).
"""

from __future__ import annotations

import contextlib
import errno
import os
import pty
import random
import select
import threading
import time
import tty
from pathlib import Path

from hardware.colours import RGB
from hardware.protocol import (
    LINE_NUMBERS,
    PROTOCOL_VERSION,
    BallReading,
    GetVersion,
    Heartbeat,
    LineSplitter,
    Version,
    format_message,
    parse_line,
)

FIRMWARE = "chute_board-sim 2.0.0"
IDLE_WAIT = 0.25  # s an idle board sleeps between looks for the host's requests (and for close)

# Sensor shares of r+g+b per ball colour (the defaults of pins.toml [sensor.references]).
DEFAULT_REFERENCES: dict[str, RGB] = {
    "blue": (0.18, 0.31, 0.51),
    "green": (0.25, 0.50, 0.25),
    "orange": (0.58, 0.28, 0.14),
    "pink": (0.46, 0.24, 0.30),
    "purple": (0.34, 0.22, 0.44),
}


class SimulatedChuteBoard:
    def __init__(
        self,
        *,
        link: str | os.PathLike | None = None,
        heartbeat: float | None = 1.0,
        firmware: str = FIRMWARE,
        references: dict[str, RGB] | None = None,
        seed: int = 0,
        protocol: int = PROTOCOL_VERSION,
    ) -> None:
        self.link = Path(link) if link is not None else None
        self.heartbeat = heartbeat
        self.firmware = firmware
        self.protocol = protocol  # 1 plays an old board: XOR checksums, no line numbers
        self._line = 0  # the next line's number (protocol 2)
        self.references = dict(references or DEFAULT_REFERENCES)
        self._rng = random.Random(seed)
        self._lock = threading.Lock()
        self._send_lock = threading.RLock()
        self._seq = 0
        self.balls = 0
        self.requests = 0  # GET VER requests seen, for tests
        self._booted = time.monotonic()
        self._master: int | None = None
        self._slave: int | None = None
        self.slave_path = ""
        self._stop = threading.Event()
        self._open_pty()
        self._thread = threading.Thread(target=self._run, name="sim-chute-board", daemon=True)
        self._thread.start()

    @property
    def port(self) -> str:
        """The path the reader should open: the link if there is one, else the slave."""
        return str(self.link) if self.link is not None else self.slave_path

    # the pty -------------------------------------------------------------------------
    def _open_pty(self) -> None:
        master, slave = pty.openpty()
        tty.setraw(slave)  # no echo, no line discipline: bytes pass as on a real UART
        os.set_blocking(master, False)
        self.slave_path = os.ttyname(slave)
        if self.link is not None:
            tmp = self.link.with_name(self.link.name + ".new")
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
            tmp.symlink_to(self.slave_path)
            os.replace(tmp, self.link)
        with self._lock:
            self._master, self._slave = master, slave
        self.send(Version(self.firmware, self.protocol))

    def _close_pty(self) -> None:
        with self._lock:
            fds, self._master, self._slave = (self._master, self._slave), None, None
        if self.link is not None:
            with contextlib.suppress(FileNotFoundError):
                self.link.unlink()
        for fd in fds:
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)

    def unplug(self) -> None:
        self._close_pty()

    def replug(self) -> None:
        if self._master is None:
            self._boot()
            self._open_pty()

    def reset(self) -> None:
        """Brown-out: half a line, then the boot banner; ball and line numbers start at 0."""
        self.write(b"$CBBAL,7,12")
        self._boot()
        self.send(Version(self.firmware, self.protocol))

    def _boot(self) -> None:
        self._seq = self._line = 0  # a board powers up with fresh counters
        self._booted = time.monotonic()

    # writing -----------------------------------------------------------------------------
    def send(self, msg) -> bool:
        """Send one message as the board's next line (numbered, in protocol 2)."""
        with self._send_lock:  # numbered and written in one go: lines leave in order
            return self.write(self.next_line(msg))

    def next_line(self, msg) -> bytes:
        """`msg` as the board's next line, counted as sent (to damage it on the wire)."""
        if self.protocol < 2:
            return format_message(msg)
        with self._send_lock:
            line, self._line = self._line, (self._line + 1) % LINE_NUMBERS
        return format_message(msg, line)

    def skip_lines(self, n: int) -> None:
        """Lines lost on the wire: the next `n` line numbers are never sent."""
        with self._send_lock:
            self._line = (self._line + n) % LINE_NUMBERS

    def write(self, data: bytes) -> bool:
        """Write raw bytes to the host; False if unplugged. Waits while the pty is full."""
        view = memoryview(data)
        while view:
            with self._lock:
                fd = self._master
                if fd is None:
                    return False
                try:
                    n = os.write(fd, view)
                except BlockingIOError:
                    n = 0
                except OSError as exc:
                    if exc.errno in (errno.EIO, errno.EBADF):
                        return False
                    raise
            view = view[n:]
            if view:
                if self._stop.is_set():
                    return False
                select.select([], [fd], [], 0.05)
        return True

    def reading_for(self, colour: str | None, brightness: int = 4000) -> tuple[int, int, int, int]:
        """A plausible TCS34725 reading (r, g, b, clear) for a ball of `colour`."""
        if colour is None:
            colour = self._rng.choice(sorted(self.references))
        shares = self.references.get(colour, (1 / 3, 1 / 3, 1 / 3))
        total = brightness * self._rng.uniform(0.9, 1.1)
        r, g, b = (max(0, round(total * s * self._rng.uniform(0.97, 1.03))) for s in shares)
        return r, g, b, min(0xFFFF, round((r + g + b) * 1.1))

    def ball(self, colour: str | None = None) -> BallReading:
        """A ball passes: send its line. Returns what was sent."""
        r, g, b, c = self.reading_for(colour)
        msg = BallReading(self._seq, self.uptime_ms(), r, g, b, c)
        self._seq = (self._seq + 1) % 0x10000
        self.balls += 1
        self.send(msg)
        return msg

    def uptime_ms(self) -> int:
        return int((time.monotonic() - self._booted) * 1000) & 0xFFFFFFFF

    # the board's loop: heartbeats and answers ---------------------------------------------
    def _run(self) -> None:
        splitter = LineSplitter()
        next_beat = time.monotonic() + (self.heartbeat or 0)
        while not self._stop.is_set():
            fd = self._master
            if fd is None:
                self._stop.wait(0.02)
                continue
            try:
                wait = IDLE_WAIT
                if self.heartbeat:
                    wait = min(wait, max(0.0, next_beat - time.monotonic()))
                ready, _, _ = select.select([fd], [], [], wait)
                data = os.read(fd, 4096) if ready else b""
            except OSError:  # closed under us (unplug) or no reader yet
                data = b""
                self._stop.wait(0.02)
            for line in splitter.feed(data):
                if isinstance(line, bytes):
                    try:
                        msg = parse_line(line)
                    except ValueError:
                        continue
                    if isinstance(msg, GetVersion):
                        self.requests += 1
                        self.send(Version(self.firmware, self.protocol))
            if self.heartbeat and time.monotonic() >= next_beat:
                next_beat += self.heartbeat
                self.send(Heartbeat(self.uptime_ms(), self.balls))

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self._close_pty()

    def __enter__(self) -> SimulatedChuteBoard:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "unplugged" if self._master is None else self.slave_path
        return f"<SimulatedChuteBoard {state} balls={self.balls}>"
