"""The camera watches the demonstration: pure hooks the runtime calls (through sensing.py).

From the mixing (team), the demonstration (competitive) or the proof of an Impossible! claim
until the result is given, `readers` asks for the ring reader, as long as the board of the
round is known (entered or read at the reveal). `interpret` keeps only stable views: no hand
in view and two readings in a row that agree (`steady`). Each new stable view is decoded
into moves by `demonstration.decode` from the position before; at the end - every card
completed, more movement points used than the bid, a move against the rules, or the clock
run out - it proposes the round's result as a `ResultProposed`, which one press of "next"
confirms (the rules keep it in `LaserState.demo_result`). A change no move explains, or that several
explain, is a question (`ResultProposed` without a result), never a silent score; a view
whose unsure tiles may hide a move waits for the next sure one. When the clock runs out on
a view not explained, the watcher asks rather than propose a failure.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.events import ButtonPressed, Event
from companion.game import ReaderSpec

from ..board import COLOURS, TILES
from ..events import ResultProposed, RoundResult
from ..flow import current_player
from ..proposal import judged_bid, position
from ..state import JUDGED, LaserState
from .decode import Demonstration, Table, advance, describe, settle, start
from .ring import CAT, RingRead

TIME_UP = ("verdict", "proof-verdict")
UNSETTLED = ("maybe", "ambiguous", "unexplained")  # decode's answers that leave a doubt


@dataclass(frozen=True)
class DemoMemory:
    key: tuple  # the round and the board watched: a new one starts afresh
    demo: Demonstration  # the moves decoded so far
    last: RingRead | None = None  # the previous reading with no hand in view
    handled: Table | None = None  # the last stable view decoded
    said: tuple[str, ...] = ()  # what was proposed or asked already (not repeated)
    unsettled: str = ""  # why the last view is not explained (the clock running out asks)


def readers(state: LaserState) -> tuple[ReaderSpec, ...]:
    if state.over or state.phase not in JUDGED or position(state) is None:
        return ()
    return (ReaderSpec("ring", f"demonstration, round {state.round}"),)


def wants(state: LaserState, reading: Event) -> bool:
    """Whether this reading is the watcher's: the ring during a demonstration, or "next"
    while a proposed result waits."""
    if isinstance(reading, ButtonPressed):
        return reading.button == "next" and _confirmable(state)
    return isinstance(reading, RingRead) and bool(readers(state))


def _confirmable(state: LaserState) -> bool:
    return state.demo_result is not None and state.phase in JUDGED and not state.over


def interpret(state: LaserState, reading: Event, memory: Any) -> tuple[tuple[Event, ...], Any]:
    if isinstance(reading, ButtonPressed):
        if reading.button == "next" and _confirmable(state):
            success, removed = state.demo_result
            return (RoundResult(success, removed),), memory  # one press confirms
        return (reading,), memory
    if not isinstance(reading, RingRead) or not readers(state):
        return (), memory
    pos = position(state)
    key = (state.round, state.board, state.cards)
    if not isinstance(memory, DemoMemory) or memory.key != key:
        memory = DemoMemory(key, start(pos))
    if reading.hand:
        return (), replace(memory, last=None)  # a hand between: wait for two clean views
    prev, memory = memory.last, replace(memory, last=reading)
    if prev is None:
        return (), memory
    events: list[Event] = []
    view = steady(prev, reading, state.ask_threshold)
    if view is None:
        if prev.tiles != reading.tiles or table_seen(reading, state.ask_threshold):
            return (), memory  # still moving
        events.append(ResultProposed(_NOT_A_TABLE))
    elif view != memory.handled:
        memory = replace(memory, handled=view)
        demo, change = advance(memory.demo, view)
        unsettled = change.why if change.kind in UNSETTLED else ""
        memory = replace(memory, demo=demo, unsettled=unsettled)
        if change.kind == "illegal":
            text = f"The camera saw {describe(change.moves[0])}. But {change.why}"
            events.append(_failed(text, "Press next to confirm, or put it back."))
        elif change.kind in ("unexplained", "ambiguous"):
            events.append(ResultProposed(f"The camera cannot tell the move: {change.why}."))
    proposal = _proposal(state, memory.demo, memory.unsettled)
    if proposal is not None and not events:
        events.append(proposal)
    fresh = tuple(e for e in events if e.question not in memory.said)
    return fresh, replace(memory, said=memory.said + tuple(e.question for e in fresh))


_NOT_A_TABLE = "The camera sees no cat, or two, on the ring: check the ring."


def steady(a: RingRead, b: RingRead, threshold: float) -> Table | None:
    """Two readings in a row as one stable view, or None while something moves: every tile
    both read for sure must agree; a tile either doubts is unsure (a tile flickering between
    a sure and an unsure reading does not keep the view from settling)."""
    ta, tb = table_seen(a, threshold), table_seen(b, threshold)
    if ta is None or tb is None:
        return None
    unsure = ta.unsure | tb.unsure
    if any(k not in unsure and ta.tiles[k] != tb.tiles[k] for k in range(TILES)):
        return None
    if None not in (ta.cat, tb.cat) and ta.cat != tb.cat:
        return None
    if None not in (ta.supply, tb.supply) and ta.supply != tb.supply:
        return None
    tiles = tuple(None if k in unsure else ta.tiles[k] for k in range(TILES))
    cat = ta.cat if ta.cat == tb.cat else None
    supply = ta.supply if ta.supply == tb.supply else None
    return Table(tiles, cat, supply, unsure)


def table_seen(reading: RingRead, threshold: float) -> Table | None:
    """The reading as a Table (tiles read below `threshold` are unsure), or None when it
    cannot be a table."""
    if len(reading.tiles) != TILES or len(reading.confidence) != TILES:
        return None
    unsure = {i for i, c in enumerate(reading.confidence) if c < threshold}
    unsure |= {i for i, t in enumerate(reading.tiles) if t not in COLOURS + (CAT, None)}
    cats = [i for i, t in enumerate(reading.tiles) if t == CAT and i not in unsure]
    if len(cats) > 1 or (not cats and not unsure):
        return None
    tiles = tuple(
        None if i in unsure or t in (CAT, None) else COLOURS.index(t)
        for i, t in enumerate(reading.tiles)
    )
    cards = tuple(reading.spare_confidence)
    sure = len(reading.spares) == 6 and len(cards) == 6 and min(cards) >= threshold
    supply = tuple(reading.spares) if sure else None
    cat = cats[0] if cats else None
    return Table(tiles, cat, supply, frozenset(unsure))


def _who(state: LaserState) -> str:
    return current_player(state) or "The demonstrator"


def _failed(text: str, then: str = "Press next to confirm.") -> ResultProposed:
    return ResultProposed(f"{text}: failed? {then}", False)


def _proposal(state: LaserState, demo: Demonstration, unsettled: str) -> ResultProposed | None:
    """The round's result once it is decided: every card done, the bid overspent, or the
    clock run out with cards open - unless the last view is not explained: then a question."""
    bid, who = judged_bid(state), _who(state)
    if bid is None:
        return None
    if demo.done:
        r = settle(demo, bid)
        late = " Was it in time?" if state.phase in TIME_UP else ""
        if not r.success:
            return _failed(f"{who}: every card done in {r.cost} MP, but the bid was {bid}")
        how = "".join(
            f" if {describe(r.moves[i])} the long way round ({r.moves[i].steps} tiles)"
            for i in r.long_way
        )
        return ResultProposed(
            f"{who}: every card done in {bid} MP{how}, {r.removed} figures removed.{late} "
            "Press next to confirm.",
            True,
            r.removed,
        )
    if demo.cost > bid:
        return _failed(f"{who}: {demo.cost} MP used, more than the bid of {bid}")
    if state.phase in TIME_UP and unsettled:
        return ResultProposed(f"Time is up. The camera cannot tell the last move: {unsettled}.")
    if state.phase in TIME_UP:
        left = ", ".join(demo.open_cards())
        left = f"{left} still open" if left else "a mixed figure still unused"
        return _failed(f"Time is up with {left}")
    return None
