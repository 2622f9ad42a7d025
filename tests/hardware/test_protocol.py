"""The chute board's line protocol: checksums, round trips, bad lines, line splitting, and
what the CRC catches that the old XOR checksum could not."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.errors import CompanionError
from hardware.errors import BadLine
from hardware.protocol import (
    MAX_LINE,
    BallReading,
    BoardFault,
    GetVersion,
    Heartbeat,
    LineSplitter,
    Version,
    checksum,
    crc16,
    encode,
    format_message,
    parse_frame,
    parse_line,
)

u16 = st.integers(0, 0xFFFF)
u32 = st.integers(0, 0xFFFFFFFF)
text = st.text(
    st.characters(min_codepoint=0x20, max_codepoint=0x7E, blacklist_characters="$*,"),
    min_size=1,
    max_size=30,
)
messages = st.one_of(
    st.builds(BallReading, u16, u32, u16, u16, u16, u16),
    st.builds(Heartbeat, u32, u32),
    st.builds(Version, text, st.integers(0, 999)),
    st.builds(BoardFault, text, text),
    st.just(GetVersion()),
)


def test_checksum_matches_nmea():
    # a real GPS sentence with its published checksum
    body = b"GPRMC,092750.000,A,5321.6802,N,00630.3372,W,0.02,31.66,280511,,,A"
    assert checksum(body) == 0x43
    assert encode("CBHB,1000,3") == b"$CBHB,1000,3*%02X\r\n" % checksum(b"CBHB,1000,3")


def test_crc_is_crc16_ccitt_false():
    assert crc16(b"123456789") == 0x29B1  # the catalogue's check value
    assert encode("CBHB,1000,3", line=5) == b"$CBHB,5,1000,3*%04X\r\n" % crc16(b"CBHB,5,1000,3")


@given(messages, st.none() | u16)
def test_every_message_round_trips(msg, number):
    line = format_message(msg, number)
    assert line.endswith(b"\r\n") and len(line) - 2 <= MAX_LINE
    frame = parse_frame(line[:-2])
    assert frame.message == msg and frame.line == number
    assert frame.protocol == (1 if number is None else 2)


ball_lines = st.builds(BallReading, u16, u32, u16, u16, u16, u16).map(
    lambda m: format_message(m, 1234)[:-2]
)


@given(ball_lines, st.data())
def test_the_crc_catches_two_swapped_digits(line, data):
    digits = [i for i in range(1, line.rfind(b"*")) if line[i : i + 1].isdigit()]
    i, j = data.draw(st.lists(st.sampled_from(digits), min_size=2, max_size=2, unique=True))
    if line[i] == line[j]:
        return
    damaged = bytearray(line)
    damaged[i], damaged[j] = line[j], line[i]
    with pytest.raises(BadLine, match="checksum mismatch"):
        parse_frame(bytes(damaged))


@given(ball_lines, st.data(), st.integers(0, 7))
def test_the_crc_catches_the_same_bit_flipped_in_two_places(line, data, bit):
    star = line.rfind(b"*")
    i, j = data.draw(st.lists(st.integers(1, star - 1), min_size=2, max_size=2, unique=True))
    damaged = bytearray(line)
    damaged[i] ^= 1 << bit
    damaged[j] ^= 1 << bit
    with pytest.raises(BadLine):
        parse_frame(bytes(damaged))


def test_the_old_xor_checksum_is_blind_to_a_swap():
    """Why protocol 2 exists: red 1200, green 2100 read as red 2100, green 1200."""
    line = format_message(BallReading(3, 9, 1200, 2100, 900, 4500))[:-2]
    swapped = line.replace(b"1200,2100", b"2100,1200")
    assert parse_line(swapped) == BallReading(3, 9, 2100, 1200, 900, 4500)
    numbered = format_message(BallReading(3, 9, 1200, 2100, 900, 4500), 8)[:-2]
    with pytest.raises(BadLine):
        parse_line(numbered.replace(b"1200,2100", b"2100,1200"))


@pytest.mark.parametrize(
    "line, why",
    [
        (b"CBHB,1,2*00", "no leading $"),
        (b"$CBHB,1,2", "no *HH"),
        (b"$CBHB,1,2*4", "no *HH"),
        (b"$CBHB,1,2*ZZ", "not hex"),
        (b"$CBHB,1,2*12345", "no *HH or *CCCC"),
        (b"$CBHB,1,2* 1", "not hex"),
        (encode("CBHB,1,2", line=3)[:-4] + b"00", "mismatch"),
        (b"$CBHB*%04X" % crc16(b"CBHB"), "no line number"),
        (b"$CBHB,x,1,2*%04X" % crc16(b"CBHB,x,1,2"), "line number is not a number"),
        (b"$CBHB,1,3*" + b"%02X" % checksum(b"CBHB,1,2"), "mismatch"),
        (encode("CBHB,1")[:-2], "malformed"),
        (encode("CBBAL,1,2,3,4,5,70000")[:-2], "out of range"),
        (encode("CBBAL,1,2,3,4,5,-6")[:-2], "not a number"),
        (encode("CBXYZ,1")[:-2], "unknown"),
        (b"$CBHB,1,\xff2*00", "non-printable"),
        (b"$" + b"A" * 200 + b"*00", "too long"),
    ],
)
def test_bad_lines_say_what_is_wrong(line, why):
    with pytest.raises(BadLine, match=re.escape(why)) as info:
        parse_line(line)
    assert isinstance(info.value, CompanionError) and isinstance(info.value, ValueError)


def test_lowercase_checksum_is_accepted():
    line = encode("CBHB,5,0")[:-2]
    assert parse_line(line[:-2] + line[-2:].lower()) == Heartbeat(5, 0)
    line = encode("CBHB,5,0", line=9)[:-2]
    assert parse_line(line[:-4] + line[-4:].lower()) == Heartbeat(5, 0)


@given(st.lists(messages, max_size=20), st.lists(st.integers(1, 50), min_size=1))
def test_splitting_is_independent_of_how_bytes_arrive(msgs, cuts):
    stream = b"".join(format_message(m) for m in msgs)
    s, out, i, k = LineSplitter(), [], 0, 0
    while i < len(stream):
        n = cuts[k % len(cuts)]
        out += s.feed(stream[i : i + n])
        i, k = i + n, k + 1
    assert [parse_line(x) for x in out] == msgs


def test_splitter_survives_junk_fragments_and_overlong_lines():
    good = format_message(Heartbeat(1, 2))
    s = LineSplitter()
    got = s.feed(b"\x00\xff garbage " + good)  # junk before a line on the same line
    got += s.feed(b"$CBBAL,7,12" + good)  # a board reset mid-line
    got += s.feed(b"x" * 150)  # overlong junk, in two reads, then a line without a newline
    got += s.feed(b"y" * 150 + good)
    got += s.feed(b"\r\n" + good)
    lines = [g for g in got if isinstance(g, bytes)]
    assert [parse_line(x) for x in lines[:2]] == [Heartbeat(1, 2)] * 2
    assert sum(isinstance(g, BadLine) for g in got) == 1
    assert parse_line(lines[-1]) == Heartbeat(1, 2) and len(lines) == 4
