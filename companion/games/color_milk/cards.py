"""The prediction cards the camera reads, once revealed, in each seat's zone.

Zone `seatN` lies in front of the N-th player. While the round's predictions are revealed
(phase "check"), a zone's reading that stays the same for `STEADY` frames in a row means:
- nothing laid, or cards still face down: nothing yet (a back is never a colour);
- 1, 4 or 5 clean cards: that player's free prediction, entered as a `Predict`;
- 2 or 3 clean cards: the prediction may be the board's double/triple; only the player
  knows, so a question with the colours filled in (`CardsToConfirm`), answered by a tap;
  once that double/triple has paid its bonus (once a game), the two answers score alike
  and the cards are entered as a free prediction;
- anything doubtful (below the ask threshold, a card it cannot read, a colour twice, cards
  touching, more than 5 cards, something that is no card): a question naming the seat.
A question's answers are the likely predictions (`answers`): each colour set read as a free
prediction and, with 2 or 3 colours, as the board's double or triple while its bonus is
still to be had; the screen offers them as buttons.
A prediction already entered (tapped or read) is never changed by the camera, and each
question is asked once for one reading.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion import cues as c
from companion.card_readings import ZoneRead
from companion.errors import IllegalMove
from companion.events import Event, event
from companion.games.color_milk.events import NAMESPACE, Predict
from companion.games.color_milk.mill import COLOURS
from companion.games.color_milk.state import MilkState, zone_entry

STEADY = 2  # frames in a row that must agree (a card still being laid flickers)
PHASE = "check"  # the balls are out, predictions are being revealed


@event(NAMESPACE)
class CardsToConfirm(Event):
    """The camera saw a player's cards but leaves the entry to a person: `question` names
    the seat and what was read; `readings` are the colour sets the cards likely show, best
    first (`choices`, words only, is what older logs carry instead). Changes nothing."""

    player: str
    question: str
    choices: tuple[str, ...] = ()
    readings: tuple[tuple[str, ...], ...] = ()


ZONE_OF_SIZE = {2: "double", 3: "triple"}
MAX_ANSWERS = 5


def ask(state: MilkState, ev: CardsToConfirm):
    """Rules handler: the question as a cue, while predictions can still be entered."""
    state.player(ev.player)
    if state.phase != PHASE:
        raise IllegalMove("predictions are not being revealed now")
    found = answers(state, ev)
    if not found:
        return state, [c.AskHuman(ev.question, tuple(ev.choices))]
    return state, [c.AskHuman(ev.question, tuple(_words(p) for p in found), found)]


def answers(state: MilkState, ev: CardsToConfirm) -> tuple[Predict, ...]:
    """The predictions the player likely revealed, at most MAX_ANSWERS: each reading as a
    free prediction, and as the double/triple of the prediction zone when it has 2 or 3
    colours and that zone entry has not paid its bonus yet (its once-a-game rule)."""
    player = state.player(ev.player)
    out: list[Predict] = []
    for read in ev.readings:
        colours = tuple(col for col in COLOURS if col in read)
        if not colours or len(colours) != len(set(read)):
            continue  # not prediction cards: no answer to offer
        out.append(Predict(player.name, colours))
        zone = ZONE_OF_SIZE.get(len(colours))
        if zone and zone_entry(zone, colours) not in player.zone_done:
            out.append(Predict(player.name, colours, zone))
    return tuple(dict.fromkeys(out))[:MAX_ANSWERS]


def _words(p: Predict) -> str:
    return " + ".join(p.colours) + (f": {p.zone}" if p.zone else ": free")


@dataclass(frozen=True)
class ZoneMemory:
    round: int
    reading: ZoneRead
    seen: int  # frames in a row with this reading
    done: bool = False  # this reading was acted on


CardMemory = tuple[tuple[str, ZoneMemory], ...]


def read_zone(
    state: MilkState, reading: ZoneRead, memory: CardMemory
) -> tuple[tuple[Event, ...], CardMemory]:
    seat = _seat(reading.zone)
    if state.phase != PHASE or seat is None or seat >= len(state.players):
        return (), memory
    player = state.players[seat]
    if player.prediction:
        return (), memory  # entered already, by a tap or an earlier reading
    mem = dict(memory)
    last = mem.get(reading.zone)
    if last is not None and last.round == state.round and _same(last.reading, reading, state):
        if last.done:
            return (), memory
        now = ZoneMemory(state.round, reading, last.seen + 1)
    else:
        now = ZoneMemory(state.round, reading, 1)
    if now.seen < STEADY or reading.empty or reading.face_down:
        mem[reading.zone] = now
        return (), tuple(mem.items())
    mem[reading.zone] = ZoneMemory(state.round, reading, now.seen, done=True)
    return (_meaning(state, seat, reading),), tuple(mem.items())


def _same(a: ZoneRead, b: ZoneRead, state: MilkState) -> bool:
    """The same reading, frame noise aside: confidences count only as sure or not."""

    def gist(r: ZoneRead):
        sure = tuple(conf >= state.ask_threshold for conf in r.confidences)
        return r.colours, sure, r.face_down, r.touching, r.unreadable

    return gist(a) == gist(b)


def _seat(zone: str) -> int | None:
    digits = zone.removeprefix("seat")
    return int(digits) - 1 if zone.startswith("seat") and digits.isdigit() else None


def _meaning(state: MilkState, seat: int, r: ZoneRead) -> Event:
    name = state.players[seat].name
    who = f"Seat {seat + 1} ({name})"
    read = [col for col in r.colours if col]
    likely = tuple(dict.fromkeys([*(col for col in read if col in COLOURS), *COLOURS]))
    doubtful = [
        col or "?"
        for col, conf in zip(r.colours, r.confidences, strict=True)
        if not col or col not in COLOURS or conf < state.ask_threshold
    ]
    twice = sorted({col for col in read if read.count(col) > 1})
    problem = (
        "cards touch: spread them apart, or tap the prediction"
        if r.touching
        else "something there is not a prediction card"
        if r.unreadable
        else f"{' and '.join(twice)} read twice, but each player has one card per colour"
        if twice
        else f"more than 5 cards read ({len(r.colours)})"
        if len(r.colours) > 5
        else f"not sure of {', '.join(doubtful)}"
        if doubtful
        else ""
    )
    if problem:
        as_read = tuple(col for col in COLOURS if col in read)
        sure = tuple(
            col
            for col in COLOURS
            if any(
                x == col and conf >= state.ask_threshold
                for x, conf in zip(r.colours, r.confidences, strict=True)
            )
        )
        return CardsToConfirm(
            name,
            f"{who}: {problem}. Which cards did {name} reveal?",
            likely[:5],
            tuple(x for x in dict.fromkeys((as_read, sure)) if x),
        )
    colours = tuple(sorted(read, key=COLOURS.index))
    zone = ZONE_OF_SIZE.get(len(colours))
    if zone and zone_entry(zone, colours) not in state.players[seat].zone_done:
        return CardsToConfirm(
            name,
            f"{who}: {' + '.join(colours)}. A free prediction, or the {zone} of the "
            "prediction zone?",
            ("free", zone),
            (colours,),
        )
    return Predict(name, colours)
