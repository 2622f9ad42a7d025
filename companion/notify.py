"""Talk to systemd: READY=1 once the first screen is drawn, WATCHDOG=1 from the UI loop.

The sd_notify protocol is one datagram of `KEY=value` lines sent to the unix socket named in
$NOTIFY_SOCKET (a path, or an abstract name written with a leading '@'). Without that
variable (a laptop, a test, a terminal) every call is a quiet no-op. A failure to send is
logged and swallowed: the table must keep playing even if the service manager went away.

    n = Notifier.from_env()
    n.ready()                              # after the first frame
    if (every := n.watchdog_interval()):   # seconds, half of WatchdogSec
        Clock.schedule_interval(lambda dt: n.watchdog(), every)
    n.stopping()                           # on the way out
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

log = logging.getLogger(__name__)


class Notifier:
    """One sender of sd_notify messages. Cheap to make; the socket opens on first use."""

    def __init__(self, address: str | None, watchdog_usec: int | None = None) -> None:
        self.address = address or None
        self.watchdog_usec = watchdog_usec if watchdog_usec and watchdog_usec > 0 else None
        self._sock: socket.socket | None = None
        self._failed = False  # log the first failure loudly, the rest quietly

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Notifier:
        """A notifier for the service manager that started this process, if any.

        The watchdog counts only when $WATCHDOG_PID is unset or names this very process
        (a child that inherited the environment must not feed its parent's watchdog).
        """
        env = os.environ if environ is None else environ
        usec: int | None = None
        raw = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        try:
            if raw and (not pid or int(pid) == os.getpid()):
                usec = int(raw)
        except ValueError:
            log.warning("ignoring malformed WATCHDOG_USEC=%r / WATCHDOG_PID=%r", raw, pid)
        return cls(env.get("NOTIFY_SOCKET"), usec)

    # what the app says ------------------------------------------------------------
    @property
    def enabled(self) -> bool:
        return self.address is not None

    def ready(self, status: str | None = None) -> bool:
        """The first screen is up: systemd may consider the service started."""
        return self.notify("READY=1", *(() if status is None else (f"STATUS={status}",)))

    def watchdog(self) -> bool:
        """The UI loop is alive. Call every watchdog_interval() seconds."""
        return self.notify("WATCHDOG=1")

    def stopping(self, status: str | None = None) -> bool:
        return self.notify("STOPPING=1", *(() if status is None else (f"STATUS={status}",)))

    def status(self, text: str) -> bool:
        """A one-line status shown by `systemctl status`."""
        return self.notify(f"STATUS={text}")

    def extend_timeout(self, seconds: float) -> bool:
        """Ask for more time to start (or stop) before systemd gives up."""
        return self.notify(f"EXTEND_TIMEOUT_USEC={int(seconds * 1_000_000)}")

    def watchdog_interval(self) -> float | None:
        """Seconds between keep-alives (half the watchdog timeout), or None without one."""
        return self.watchdog_usec / 2_000_000 if self.watchdog_usec else None

    # plumbing ----------------------------------------------------------------------
    def notify(self, *lines: str) -> bool:
        """Send one message; True if it went out. Never raises."""
        if self.address is None or not lines:
            return False
        payload = "\n".join(line.replace("\n", " ") for line in lines).encode()
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
                self._sock.setblocking(False)  # a stuck manager must never freeze the UI
            self._sock.sendto(payload, _sockaddr(self.address))
        except (OSError, ValueError) as exc:
            level = logging.DEBUG if self._failed else logging.WARNING
            log.log(level, "sd_notify to %s failed: %s", self.address, exc)
            self._failed = True
            self.close()
            return False
        return True

    def close(self) -> None:
        if self._sock is not None:
            try:
                self._sock.close()
            finally:
                self._sock = None

    def __enter__(self) -> Notifier:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        every = self.watchdog_interval()
        dog = f" watchdog every {every:g}s" if every else ""
        return f"<Notifier {self.address or 'off'}{dog}>"


def _sockaddr(address: str) -> str | bytes:
    if address.startswith("@"):
        return b"\0" + address[1:].encode()  # Linux abstract namespace
    if address.startswith("/"):
        return address
    raise ValueError(f"unsupported NOTIFY_SOCKET address {address!r}")
