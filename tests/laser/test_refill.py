"""The end-of-round refill: colour cards first, then empty tiles clockwise from the cat."""

import io
import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.games.laser.board import CARD_CAPACITY, COLOURS, FIGURES_PER_COLOUR, TILES
from companion.games.laser.refill import Placement, Table, refill

ROOT = Path(__file__).resolve().parents[2]
R, Y, G, C, B, M = range(6)


def test_cards_first_then_tiles_clockwise_from_the_cat():
    tiles = [R, None, B, None, G, C, None, Y, M, None, B, G]
    table = Table(tuple(tiles), cat=3, supply=(2, 1, 0, 2, 2, 2))
    out = refill(table, [Y, G, C, R, G])
    # yellow and both greens fit their cards; cyan and red go to tiles 6 then 9 (after the cat)
    assert out.table.supply == (2, 2, 2, 2, 2, 2)
    assert out.placements == (
        Placement(Y, None),
        Placement(G, None),
        Placement(G, None),
        Placement(C, 6),
        Placement(R, 9),
    )
    assert out.table.tiles[6] == C and out.table.tiles[9] == R and out.table.tiles[1] is None
    assert out.table.cat == 3 and out.aside == ()


def test_clockwise_wraps_past_tile_eleven_and_leftovers_go_aside():
    table = Table((R, None, R, Y, Y, G, G, C, C, B, None, None), cat=10, supply=(2,) * 6)
    out = refill(table, [M, M, B])
    # all cards are full: tile 11 first (just after the cat on 10), then wrap to tile 1
    assert [p.tile for p in out.placements] == [11, 1]
    assert out.aside == (B,)
    assert out.table.tiles[10] is None  # the cat's tile


def test_nothing_removed_changes_nothing():
    table = Table((None,) + (R,) * 11, cat=0, supply=(0,) * 6)
    out = refill(table, [])
    assert out.table == table and out.placements == () and out.aside == ()


@st.composite
def tables_and_figures(draw):
    pool = [c for c in range(6) for _ in range(FIGURES_PER_COLOUR)]
    order = draw(st.permutations(pool))
    cat = draw(st.integers(0, TILES - 1))
    filled = draw(st.lists(st.booleans(), min_size=TILES, max_size=TILES))
    tiles, k = [], 0
    for t in range(TILES):
        if t != cat and filled[t]:
            tiles.append(order[k])
            k += 1
        else:
            tiles.append(None)
    rest = list(order[k:])
    supply = [0] * 6
    removed = []
    for c in rest:
        if supply[c] < CARD_CAPACITY and draw(st.booleans()):
            supply[c] += 1
        elif draw(st.booleans()):
            removed.append(c)
    removed = draw(st.permutations(removed))
    return Table(tuple(tiles), cat, tuple(supply)), list(removed)


@settings(max_examples=300, deadline=None)
@given(tables_and_figures())
def test_refill_invariants(case):
    table, figures = case
    out = refill(table, figures)
    after = out.table
    for c in range(6):  # no figure appears or vanishes
        before = table.tiles.count(c) + table.supply[c] + figures.count(c)
        assert after.tiles.count(c) + after.supply[c] + out.aside.count(c) == before
    assert all(0 <= n <= CARD_CAPACITY for n in after.supply)
    assert len(after.tiles) == TILES  # one figure per tile: a tile holds a colour or nothing
    assert after.tiles[after.cat] is None and after.cat == table.cat
    for t, c in enumerate(table.tiles):  # figures already on the board stay where they were
        if c is not None:
            assert after.tiles[t] == c
    if out.aside:  # something left over only when every card of its colour and every tile is full
        assert all(t is not None for i, t in enumerate(after.tiles) if i != after.cat)
        assert all(after.supply[c] == CARD_CAPACITY for c in out.aside)
    # tiles are filled in clockwise order from the cat
    steps = [(p.tile - table.cat) % TILES for p in out.placements if p.tile is not None]
    assert steps == sorted(steps)
    # a card figure went to the card whenever there was room for it
    for p in out.placements:
        if p.tile is not None:
            assert after.supply[p.colour] == CARD_CAPACITY


@pytest.fixture
def run(monkeypatch, capsys):
    def go(payload, *args):
        text = payload if isinstance(payload, str) else json.dumps(payload)
        monkeypatch.setattr(sys, "stdin", io.StringIO(text))
        code = main(["refill", "laser", *args])
        out = capsys.readouterr()
        return SimpleNamespace(returncode=code, stdout=out.out, stderr=out.err)

    return go


REQUEST = {
    "mode": "team",
    "tiles": [
        "red",
        None,
        "blue",
        None,
        "green",
        "cyan",
        None,
        "yellow",
        "magenta",
        None,
        "blue",
        "green",
    ],
    "cat": 3,
    "supply": {"red": 2, "yellow": 1, "green": 0, "cyan": 2, "blue": 2, "magenta": 2},
    "removed": ["yellow", "green", "cyan", "red", "green"],
}


def test_command_prints_the_refilled_position():
    out = subprocess.run(
        [sys.executable, "-m", "companion", "refill", "laser"],
        input=json.dumps(REQUEST),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["tiles"][6] == "cyan" and doc["tiles"][9] == "red"
    assert doc["supply"] == {c: 2 for c in COLOURS}
    assert doc["placed"][3] == {"colour": "cyan", "to": 6}
    assert doc["aside"] == [] and doc["mode"] == "team" and doc["cat"] == 3


@pytest.mark.parametrize(
    "payload, words",
    [
        ("not json", "json"),
        ("", "nothing on stdin"),
        ([], "object"),
        ({**REQUEST, "tiles": ["red"] * 3}, "12 tiles"),
        ({**REQUEST, "cat": 0}, "under the cat"),
        ({**REQUEST, "cat": 12}, "cat must be"),
        ({**REQUEST, "removed": ["violet"]}, "violet"),
        ({**REQUEST, "removed": "red"}, "list"),
        ({**REQUEST, "supply": {"red": 3}}, "0-2"),
        ({**REQUEST, "removed": ["blue", "blue", "blue"]}, "only 4"),
        ({k: v for k, v in REQUEST.items() if k != "removed"}, "removed"),
        ({**REQUEST, "mode": "solo"}, "mode"),
        ({**REQUEST, "floors": ["wood"] * 11}, "floors"),
        ({**REQUEST, "floors": ["grass"] * 12}, "grass"),
    ],
)
def test_bad_requests_are_one_line_and_exit_2(run, payload, words):
    out = run(payload)
    assert out.returncode == 2 and out.stdout == ""
    assert len(out.stderr.strip().splitlines()) == 1
    assert words.lower() in out.stderr.lower()


def test_refill_takes_no_options(run):
    out = run(REQUEST, "--fast")
    assert out.returncode == 2 and "no options" in out.stderr


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 20) | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=13) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(st.sampled_from(sorted(REQUEST) + ["aside", "floors"]), json_values)
def test_any_field_replaced_by_any_json_is_refused_in_one_line_or_accepted(key, value):
    stdin = io.StringIO(json.dumps({**REQUEST, key: value}))
    err = io.StringIO()
    old = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = stdin, io.StringIO(), err
    try:
        code = main(["refill", "laser"])
    finally:
        sys.stdin, sys.stdout, sys.stderr = old
    assert code in (0, 2), err.getvalue()
    if code:
        assert len(err.getvalue().strip().splitlines()) == 1
