"""The camera checks the end-of-round refill before the next prism cards are revealed.

While a round after the first waits for its cards (phase "reveal"), the ring reader stays on
and each `RingRead` is judged here:

- the table as the last round left it is the last trustworthy reading taken as it ended
  (while the figures were moved and the result was awaited), or else the first one now. The
  figures to put back are those the game had in play when that round's board was entered
  (the board, the colour cards and what was put aside before) that this table no longer
  holds; refill.py says where each goes, and the plan is announced;
- when that table was not seen as the round ended and the first reading now needs nothing
  put back although the round changed the table, the refill may already lie there, right or
  wrong: the camera cannot judge it and says so (`RefillSeen("unverified")`), for a person to
  check by eye; the check ends there, and the cards are read as they are revealed;
- a reading that is a legal refill of it ends the check (`RefillSeen("ready")`): from then on
  the prism cards the camera sees are entered without a tap (sensing.py holds them until then);
- a reading with a wrong figure (a colour where another or none belongs, a figure on a tile
  that stays empty, a moved cat, a card with too many) is named once it repeats:
  "tile 4 should hold the green figure; the camera sees blue". A refill that is only not
  finished yet (figures still missing) is named only when it stays so for a while;
- a reading otherwise right with a tile or card read without confidence cannot end the check:
  the doubtful places are named for a person to check by eye (`RefillSeen("unsure")`).
Until the check ends ("ready", or "unverified": checked by eye), the prism cards the camera
sees wait.

The rulebook fixes no order for the figures that go onto tiles, so any order is accepted; the
figure named for a tile is the one the plan puts there, among those still unplaced. Wrong
figures are named only where the reading is confident. A reading with a hand in view or not
exactly one cat judges nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.events import Event
from companion.game import ReaderSpec

from ..board import COLOURS, TILES
from ..events import RefillSeen
from ..refill import Refill, Table, refill
from ..state import LaserState
from .ring import CAT, RingRead

ENDING = ("mixing", "demonstration", "verdict", "proof", "proof-verdict")  # figures moved
STEADY = 2  # the same wrong reading this many times in a row is named
PATIENCE = 10  # an unfinished refill (figures missing) is named after this many readings


@dataclass(frozen=True)
class Misplaced:
    """One difference from the refill: a tile (`want`/`seen`: a colour index, CAT or None)
    or, with `card` set, a colour card (`want`/`seen`: spare figures)."""

    index: int
    want: Any
    seen: Any
    card: bool = False

    @property
    def missing(self) -> bool:
        """Only not placed yet (not wrong): an empty spot where a figure is still to go."""
        if self.card:
            return self.seen < self.want
        return self.seen is None and self.want not in (None, CAT)

    def text(self) -> str:
        if self.card:
            return (
                f"the {COLOURS[self.index]} card should hold {_figures(self.want)}; "
                f"the camera sees {self.seen}"
            )
        want = "be empty" if self.want is None else f"hold {_thing(self.want)}"
        seen = "nothing" if self.seen is None else _thing(self.seen, short=True)
        return f"tile {self.index + 1} should {want}; the camera sees {seen}"


def _thing(what: Any, short: bool = False) -> str:
    if what == CAT:
        return "the cat"
    return COLOURS[what] if short else f"the {COLOURS[what]} figure"


def _figures(n: int) -> str:
    return f"{n} figure" if n == 1 else f"{n} figures"


# Judging one reading ----------------------------------------------------------------------


def table_seen(reading: RingRead, threshold: float) -> Table | None:
    """The reading as a table (colour indices), or None when it cannot be trusted whole."""
    read = table_read(reading, threshold)
    return read[0] if read is not None and not read[1] else None


def table_read(reading: RingRead, threshold: float) -> tuple[Table, frozenset] | None:
    """The reading as a table with what in it is doubtful (tile indices; -1 - c for colour
    card c), or None when it cannot be a table at all (a hand, not exactly one cat)."""
    if (
        reading.hand
        or len(reading.tiles) != TILES
        or len(reading.confidence) != TILES
        or len(reading.spares) != 6
        or len(reading.spare_confidence) != 6
        or reading.tiles.count(CAT) != 1
    ):
        return None
    doubt = {i for i, c in enumerate(reading.confidence) if c < threshold}
    doubt |= {-1 - c for c, conf in enumerate(reading.spare_confidence) if conf < threshold}
    tiles = tuple(None if t in (None, CAT) else COLOURS.index(t) for t in reading.tiles)
    return Table(tiles, reading.tiles.index(CAT), tuple(reading.spares)), frozenset(doubt)


def disagree(kept: Table | None, seen: Table, doubt: frozenset) -> bool:
    """Whether what `seen` shows for sure differs from `kept`."""
    if kept is None:
        return False
    if any(
        k not in doubt and a != b
        for k, (a, b) in enumerate(zip(kept.tiles, seen.tiles, strict=True))
    ):
        return True
    if kept.cat != seen.cat and kept.cat not in doubt and seen.cat not in doubt:
        return True
    return any(
        -1 - c not in doubt and a != b
        for c, (a, b) in enumerate(zip(kept.supply, seen.supply, strict=True))
    )


def in_play(table: Table) -> Counter:
    """The figures on the tiles and the colour cards, per colour."""
    return Counter(t for t in table.tiles if t is not None) + Counter(dict(enumerate(table.supply)))


def owed(game: Counter, after: Table, aside: Sequence[int] = ()) -> tuple[int, ...]:
    """The figures to put back, in the order refill.py places them: those put aside earlier
    first, then the rest in circle order. `game`: every figure the game has in play or aside
    (the box's spare figures never join); what `after` does not hold is owed."""
    missing = game - in_play(after)
    out = []
    for c in aside:
        if missing[c] > 0:
            out.append(c)
            missing[c] -= 1
    return tuple(out) + tuple(c for c in range(6) for _ in range(missing[c]))


def judge(after: Table, figures: Sequence[int], seen: Table) -> tuple[Misplaced, ...]:
    """Where `seen` differs from every legal refill of `after` with `figures`; () if it is one.
    Tiles come first (clockwise), then cards."""
    plan = refill(after, figures)
    want: list[Any] = [CAT if t == after.cat else c for t, c in enumerate(plan.table.tiles)]
    filled = [p.tile for p in plan.placements if p.tile is not None]
    free = [p.colour for p in plan.placements if p.tile is not None] + list(plan.aside)
    pool = Counter(free)
    matched = set()
    for t in filled:  # a colour the plan could have put there is right, whichever order
        c = seen.tiles[t]
        if c is not None and t != seen.cat and pool[c] > 0:
            pool[c] -= 1
            want[t] = c
            matched.add(t)
    leftover = []
    for c in free:
        if pool[c] > 0:
            pool[c] -= 1
            leftover.append(c)
    for t, c in zip((t for t in filled if t not in matched), leftover, strict=False):
        want[t] = c
    look = [CAT if t == seen.cat else c for t, c in enumerate(seen.tiles)]
    out = [Misplaced(t, want[t], look[t]) for t in range(TILES) if want[t] != look[t]]
    out += [
        Misplaced(c, plan.table.supply[c], seen.supply[c], card=True)
        for c in range(6)
        if plan.table.supply[c] != seen.supply[c]
    ]
    return tuple(out)


def plan_lines(plan: Refill) -> tuple[str, ...]:
    """Where each figure goes, for people."""
    lines = [
        f"{COLOURS[p.colour]} onto its card"
        if p.tile is None
        else f"{COLOURS[p.colour]} onto tile {p.tile + 1}"
        for p in plan.placements
    ]
    if plan.aside:
        lines.append("put aside: " + ", ".join(COLOURS[c] for c in plan.aside))
    return tuple(lines)


# The sensor hook ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RefillMemory:
    round: int = 0
    after: Table | None = None  # the table as the last round left it
    owed: tuple[int, ...] = ()  # the figures to put back, in the plan's order
    verdict: str = ""  # "ready": the camera saw a legal refill; "by eye": it cannot judge
    aside: tuple[int, ...] = ()  # figures waiting aside (carried to the next round)
    game: tuple[int, ...] = ()  # figures in the game per colour (in play or aside)
    last: tuple = ()  # what the last reading showed wrong or doubtful ...
    repeats: int = 0  # ... and how many readings in a row showed it
    named: tuple = ()  # what was last said (not said again)
    ended: Table | None = None  # the last table seen as a round ended ...
    ended_round: int = 0  # ... and that round
    seen: bool = False  # the ring was read this round (a hand, or no ring in view, is not)


def checking(state: LaserState) -> bool:
    return not state.over and state.phase == "reveal" and state.last_board is not None


def wanted(state: LaserState) -> bool:
    """The refill check wants the ring: as the round ends (the table it leaves) and before
    the next reveal."""
    ending = not state.over and state.phase in ENDING and state.board is not None
    return ending or checking(state)


def readers(state: LaserState) -> tuple[ReaderSpec, ...]:
    if checking(state):
        return (ReaderSpec("ring", f"refill {state.round}"),)
    return (ReaderSpec("ring", f"round {state.round}"),) if wanted(state) else ()


def holds(state: LaserState, memory: Any) -> bool:
    """Should the cards the camera sees wait? Once the ring was seen this round, until the
    check saw the refill. A check that cannot judge (a person checks it by eye) holds
    nothing: it would never end, and people reveal the cards once they have checked. A view
    with no ring in it (a hand, the camera on the centre alone) holds nothing either."""
    m = memory
    return (
        checking(state)
        and isinstance(m, RefillMemory)
        and m.round == state.round
        and m.seen
        and not m.verdict
    )


def _board(state: LaserState) -> Table:
    """The last round's board as it was entered."""
    tiles, _floors, cat, supply = state.last_board
    return Table(tuple(None if t is None else COLOURS.index(t) for t in tiles), cat, tuple(supply))


def in_game(state: LaserState, aside: Sequence[int]) -> Counter:
    """The figures in the game: those in play when the last round's board was entered, and
    those put aside before it."""
    return in_play(_board(state)) + Counter(aside)


def interpret(state: LaserState, reading: Event, memory: Any) -> tuple[tuple[Event, ...], Any]:
    if not isinstance(reading, RingRead) or not wanted(state):
        return (), memory
    m = memory if isinstance(memory, RefillMemory) else RefillMemory()
    read = table_read(reading, state.ask_threshold)
    if not checking(state):  # the round is ending: keep the last table it leaves
        if read is not None and not read[1]:
            m = replace(m, ended=read[0], ended_round=state.round)
        elif read is not None and m.ended_round == state.round and disagree(m.ended, *read):
            m = replace(m, ended=None)  # the table moved on since, unsure: none is known
        return (), m
    if m.round != state.round:
        # what was put aside is known only from a check that saw the table the round left
        known = m.after is not None and m.round == state.round - 1
        aside = m.aside if known else ()
        m = RefillMemory(state.round, aside=aside, ended=m.ended, ended_round=m.ended_round)
    if m.verdict or read is None:
        return (), m
    m = replace(m, seen=True)
    seen, doubt = read
    out: tuple[Event, ...] = ()
    if m.after is None:
        # the table as the round left it: seen as it ended, else the first trusted reading
        ended = m.ended is not None and m.ended_round == state.round - 1
        if not ended and doubt:
            return _say(m, tuple(sorted(doubt)), STEADY, "unsure")
        after = m.ended if ended else seen
        game = in_game(state, m.aside)
        figures = owed(game, after, m.aside)
        plan = refill(after, figures)
        counts = tuple(game[c] for c in range(6))
        m = replace(m, after=after, owed=figures, aside=plan.aside, game=counts)
        if not plan.placements:
            # nothing to put back; unless the round changed the table and it was not seen
            # as the round ended: then this may be a refill already laid, right or wrong
            if ended or after == _board(state):
                return (RefillSeen("ready"),), replace(m, verdict="ready")
            return (RefillSeen("unverified"),), replace(m, verdict="by eye")
        out = (RefillSeen("plan", plan_lines(plan)),)
    said, m = _judged(m, seen, doubt)
    return out + said, m


def _judged(m: RefillMemory, seen: Table, doubt: frozenset) -> tuple[tuple[Event, ...], Any]:
    """What to say of one reading: ready, the wrong figures (those read with confidence),
    or the doubtful places to check by eye; each once it repeats."""
    problems = judge(m.after, m.owed, seen)
    if not problems and not doubt:
        aside = owed(Counter(dict(enumerate(m.game))), seen, m.owed)
        return (RefillSeen("ready"),), replace(m, verdict="ready", aside=aside, last=(), named=())
    sure = tuple(p for p in problems if (-1 - p.index if p.card else p.index) not in doubt)
    if seen == m.after:  # nothing put back yet: the plan was said
        return (), replace(m, last=(), repeats=0)
    if not sure:
        return _say(m, tuple(sorted(doubt)), STEADY, "unsure")
    return _say(m, sure, PATIENCE if all(p.missing for p in sure) else STEADY, "misplaced")


def _say(m: RefillMemory, gist: tuple, need: int, status: str) -> tuple[tuple[Event, ...], Any]:
    """Say `gist` (wrong figures, or doubtful places) once it was seen `need` times in a row,
    and not again while it stays the same."""
    repeats = m.repeats + 1 if gist == m.last else 1
    m = replace(m, last=gist, repeats=repeats)
    if repeats < need or gist == m.named:
        return (), m
    if status == "misplaced":
        lines = tuple(p.text() for p in gist)
    else:
        lines = tuple(f"tile {i + 1}" if i >= 0 else f"the {COLOURS[-1 - i]} card" for i in gist)
    return (RefillSeen(status, lines),), replace(m, named=gist)
