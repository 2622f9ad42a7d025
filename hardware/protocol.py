"""The chute board's ASCII line protocol: NMEA-style `$BODY*HH` lines, XOR checksum.

    $CBVER,<firmware>,<protocol>*HH        version, at boot and on request
    $CBHB,<uptime_ms>,<balls>*HH           heartbeat, every second
    $CBBAL,<seq>,<t_ms>,<r>,<g>,<b>,<c>*HH a ball broke the beam; colour sensor counts
    $CBERR,<code>,<text>*HH                the board reports a fault (e.g. no sensor)
    host -> board: $CBGET,VER*HH           ask for the version line

HH is the XOR of every byte between `$` and `*`, two hex digits. Lines end in CR LF (a bare
LF is accepted) and are at most MAX_LINE bytes. See docs/hardware.md for the full spec.
"""

from __future__ import annotations

from dataclasses import dataclass

from hardware.errors import BadLine

PROTOCOL_VERSION = 1
MAX_LINE = 96  # bytes, without the line end
_TEXT_OK = frozenset(range(0x20, 0x7F)) - {ord("$"), ord("*")}


@dataclass(frozen=True)
class Version:
    firmware: str
    protocol: int


@dataclass(frozen=True)
class Heartbeat:
    uptime_ms: int
    balls: int


@dataclass(frozen=True)
class BallReading:
    seq: int  # 0..65535, +1 per ball, wraps; restarts at 0 when the board resets
    t_ms: int  # board clock at the break
    r: int
    g: int
    b: int
    c: int  # the sensor's clear (unfiltered) channel


@dataclass(frozen=True)
class BoardFault:
    code: str
    text: str


@dataclass(frozen=True)
class GetVersion:
    """Host -> board request."""


Message = Version | Heartbeat | BallReading | BoardFault | GetVersion


def checksum(body: bytes) -> int:
    x = 0
    for byte in body:
        x ^= byte
    return x


def encode(body: str) -> bytes:
    """`CBHB,1000,0` -> b'$CBHB,1000,0*HH\\r\\n'."""
    raw = body.encode("ascii")
    if any(b not in _TEXT_OK for b in raw):
        raise ValueError(f"protocol text must be printable ASCII without $ or *: {body!r}")
    if len(raw) + 4 > MAX_LINE:
        raise ValueError(f"line too long ({len(raw) + 4} > {MAX_LINE}): {body!r}")
    return b"$" + raw + b"*%02X\r\n" % checksum(raw)


def format_message(msg: Message) -> bytes:
    match msg:
        case Version(firmware, protocol):
            return encode(f"CBVER,{firmware},{protocol}")
        case Heartbeat(uptime_ms, balls):
            return encode(f"CBHB,{uptime_ms},{balls}")
        case BallReading(seq, t_ms, r, g, b, c):
            return encode(f"CBBAL,{seq},{t_ms},{r},{g},{b},{c}")
        case BoardFault(code, text):
            return encode(f"CBERR,{code},{text}")
        case GetVersion():
            return encode("CBGET,VER")
    raise TypeError(f"not a protocol message: {msg!r}")


def _int(field: str, lo: int, hi: int, what: str) -> int:
    if not field.isdigit() or not field.isascii() or len(field) > 10:
        raise BadLine(f"{what} is not a number: {field!r}")
    v = int(field)
    if not lo <= v <= hi:
        raise BadLine(f"{what} {v} is out of range {lo}..{hi}")
    return v


def parse_line(line: bytes) -> Message:
    """One line (without its line end) -> a message, or BadLine saying what is wrong."""
    if len(line) > MAX_LINE:
        raise BadLine(f"line too long ({len(line)} bytes)")
    if not line.startswith(b"$"):
        raise BadLine(f"no leading $: {line[:20]!r}")
    star = line.rfind(b"*")
    if star < 0 or len(line) - star != 3:
        raise BadLine(f"no *HH checksum: {line[:40]!r}")
    body, given = line[1:star], line[star + 1 :]
    if any(b not in _TEXT_OK for b in body):
        raise BadLine(f"non-printable or reserved byte in {line[:40]!r}")
    try:
        want = int(given.decode("ascii"), 16)
    except (UnicodeDecodeError, ValueError):
        raise BadLine(f"checksum {given!r} is not hex") from None
    if not given.isalnum() or checksum(body) != want:
        raise BadLine(f"checksum mismatch in {line[:40]!r}: {given!r} != {checksum(body):02X}")
    kind, *fields = body.decode("ascii").split(",")
    n = len(fields)
    if kind == "CBBAL" and n == 6:
        u16, u32 = 0xFFFF, 0xFFFFFFFF
        seq, t_ms, r, g, b, c = fields
        return BallReading(
            _int(seq, 0, u16, "seq"),
            _int(t_ms, 0, u32, "t_ms"),
            _int(r, 0, u16, "r"),
            _int(g, 0, u16, "g"),
            _int(b, 0, u16, "b"),
            _int(c, 0, u16, "c"),
        )
    if kind == "CBHB" and n == 2:
        return Heartbeat(
            _int(fields[0], 0, 0xFFFFFFFF, "uptime"), _int(fields[1], 0, 0xFFFFFFFF, "balls")
        )
    if kind == "CBVER" and n == 2:
        if not fields[0]:
            raise BadLine("empty firmware name")
        return Version(fields[0], _int(fields[1], 0, 999, "protocol"))
    if kind == "CBERR" and n >= 2:
        return BoardFault(fields[0], ",".join(fields[1:]))
    if kind == "CBGET" and fields == ["VER"]:
        return GetVersion()
    raise BadLine(f"unknown or malformed sentence {kind!r} with {n} fields")


class LineSplitter:
    """Bytes in, complete lines out. Survives garbage, partial and overlong lines.

    A line starts at its last `$` (a board that resets mid-line leaves a fragment that the
    next `$` supersedes). A line that grows beyond MAX_LINE bytes is reported once as a
    BadLine and dropped up to the next line end or the next `$`, whichever comes first.
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self._dropping = False

    def feed(self, data: bytes) -> list[bytes | BadLine]:
        out: list[bytes | BadLine] = []
        start = 0
        while True:
            nl = data.find(b"\n", start)
            chunk = data[start:] if nl < 0 else data[start:nl]
            if self._dropping:
                dollar = chunk.rfind(b"$")
                if dollar >= 0:  # a new line starts inside the junk: resynchronise
                    self._dropping = False
                    chunk = chunk[dollar:]
            if not self._dropping:
                self._buf += chunk
                if len(self._buf) > MAX_LINE + 1:  # +1 for a CR before the LF
                    dollar = self._buf.rfind(b"$", len(self._buf) - MAX_LINE - 1)
                    if dollar >= 0:
                        del self._buf[:dollar]  # junk before a line that fits: drop the junk
                    else:
                        out.append(BadLine(f"line too long (> {MAX_LINE} bytes)"))
                        self._buf.clear()
                        self._dropping = True
            if nl < 0:
                return out
            if not self._dropping and self._buf:
                line = bytes(self._buf).rstrip(b"\r")
                dollar = line.rfind(b"$")
                if dollar > 0:
                    line = line[dollar:]
                if line:
                    out.append(line)
            self._buf.clear()
            self._dropping = False
            start = nl + 1
