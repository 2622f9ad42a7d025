"""The chute board's ASCII line protocol: NMEA-style `$BODY*CHECK` lines.

Version 2 (current): every board line carries its line number and a CRC-16.

    $CBVER,<n>,<firmware>,<protocol>*CCCC        version, at boot (n = 0) and on request
    $CBHB,<n>,<uptime_ms>,<balls>*CCCC           heartbeat, every second
    $CBBAL,<n>,<seq>,<t_ms>,<r>,<g>,<b>,<c>*CCCC a ball broke the beam; colour sensor counts
    $CBERR,<n>,<code>,<text>*CCCC                the board reports a fault (e.g. no sensor)
    host -> board: $CBGET,VER*HH                 ask for the version line (version 1 form)

`n` counts every line the board sends (0..65535, wraps, 0 at boot): a repeated line or a
lost one is known. CCCC is the CRC-16/CCITT-FALSE of every byte between `$` and `*`, four
hex digits: it catches every error of up to three bits, every swap of two characters and
every burst up to 16 bits, which an XOR checksum does not.

Version 1 (old boards, still read): no line number, HH = the XOR of the body, two hex
digits. The host's one request keeps the version 1 form, so that both kinds answer it.
Lines end in CR LF (a bare LF is accepted) and are at most MAX_LINE bytes. See
docs/hardware.md for the full spec.
"""

from __future__ import annotations

import binascii
from dataclasses import dataclass

from hardware.errors import BadLine

PROTOCOL_VERSION = 2
MAX_LINE = 96  # bytes, without the line end
LINE_NUMBERS = 0x10000  # line numbers wrap here
_TEXT_OK = frozenset(range(0x20, 0x7F)) - {ord("$"), ord("*")}
_HEX = frozenset(b"0123456789abcdefABCDEF")


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


@dataclass(frozen=True)
class Frame:
    """A parsed line: its message and, for a version 2 line, its line number."""

    message: Message
    line: int | None = None  # None: a version 1 line (no number, XOR checksum)

    @property
    def protocol(self) -> int:
        return 1 if self.line is None else 2


def checksum(body: bytes) -> int:
    """Version 1: the XOR of every byte (NMEA's checksum)."""
    x = 0
    for byte in body:
        x ^= byte
    return x


def crc16(body: bytes) -> int:
    """Version 2: CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, not reflected), the CRC the
    firmware computes bit by bit; binascii's crc_hqx is that CRC, in C."""
    return binascii.crc_hqx(body, 0xFFFF)


def encode(body: str, line: int | None = None) -> bytes:
    """`CBHB,1000,0` -> b'$CBHB,1000,0*HH\\r\\n' (version 1); with `line=7`, version 2:
    b'$CBHB,7,1000,0*CCCC\\r\\n'."""
    if line is not None:
        if not 0 <= line < LINE_NUMBERS:
            raise ValueError(f"line number {line} is out of range 0..{LINE_NUMBERS - 1}")
        kind, sep, rest = body.partition(",")
        body = f"{kind},{line}{sep}{rest}"
    raw = body.encode("ascii")
    if any(b not in _TEXT_OK for b in raw):
        raise ValueError(f"protocol text must be printable ASCII without $ or *: {body!r}")
    end = b"*%02X\r\n" % checksum(raw) if line is None else b"*%04X\r\n" % crc16(raw)
    if len(raw) + len(end) - 1 > MAX_LINE:
        raise ValueError(f"line too long ({len(raw) + len(end) - 1} > {MAX_LINE}): {body!r}")
    return b"$" + raw + end


def format_message(msg: Message, line: int | None = None) -> bytes:
    """A message as a line: version 2 numbered `line`, or version 1 without a number."""
    match msg:
        case Version(firmware, protocol):
            return encode(f"CBVER,{firmware},{protocol}", line)
        case Heartbeat(uptime_ms, balls):
            return encode(f"CBHB,{uptime_ms},{balls}", line)
        case BallReading(seq, t_ms, r, g, b, c):
            return encode(f"CBBAL,{seq},{t_ms},{r},{g},{b},{c}", line)
        case BoardFault(code, text):
            return encode(f"CBERR,{code},{text}", line)
        case GetVersion():
            return encode("CBGET,VER", line)
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
    return parse_frame(line).message


def parse_frame(line: bytes) -> Frame:
    """One line (without its line end) -> its message and line number, or BadLine."""
    if len(line) > MAX_LINE:
        raise BadLine(f"line too long ({len(line)} bytes)")
    if not line.startswith(b"$"):
        raise BadLine(f"no leading $: {line[:20]!r}")
    star = line.rfind(b"*")
    digits = len(line) - star - 1
    if star < 0 or digits not in (2, 4):
        raise BadLine(f"no *HH or *CCCC checksum: {line[:40]!r}")
    body, given = line[1:star], line[star + 1 :]
    if any(b not in _TEXT_OK for b in body):
        raise BadLine(f"non-printable or reserved byte in {line[:40]!r}")
    if any(b not in _HEX for b in given):
        raise BadLine(f"checksum {given!r} is not hex")
    want = checksum(body) if digits == 2 else crc16(body)
    if int(given, 16) != want:
        raise BadLine(f"checksum mismatch in {line[:40]!r}: {given!r} != {want:0{digits}X}")
    kind, *fields = body.decode("ascii").split(",")
    number = None
    if digits == 4:
        if not fields:
            raise BadLine(f"{kind!r} has no line number")
        number = _int(fields.pop(0), 0, LINE_NUMBERS - 1, "line number")
    return Frame(_message(kind, fields), number)


def _message(kind: str, fields: list[str]) -> Message:
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
