"""Sanity hook: a reading the game knows to be impossible becomes a question, never a fact.

The Color Milk engine knows what is still in the mill; a sixth purple ball, or a colour that
is not in the mill at all, cannot be right. `check` lowers such a reading's confidence to 0
(below any ask threshold) and offers the possible colours, likeliest first, for the screen.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from companion.cues import AskHuman
from companion.events import BallSeen, CardSeen

Seen = BallSeen | CardSeen


@dataclass(frozen=True)
class Verdict:
    event: Seen  # the reading, with confidence 0 when it is impossible
    possible: bool  # False: the colour cannot be right
    ask: bool  # True: a person must confirm (impossible or below the threshold)
    choices: tuple[str, ...]  # answers to offer, likeliest first

    def question(self) -> AskHuman:
        what = (f"ball {self.event.slot + 1}" if isinstance(self.event, BallSeen)
                else f"the card in {self.event.zone}")
        if not self.possible:
            text = f"The camera read {what} as {self.event.colour}, which is not possible. " \
                   "Which colour is it?"
        else:
            text = f"Is {what} {self.event.colour}?"
        return AskHuman(text, self.choices)


def _remaining(possible: Iterable[str] | Mapping[str, int]) -> Counter:
    if isinstance(possible, Mapping):
        return Counter({c: int(n) for c, n in possible.items() if n > 0})
    return Counter({c: 1 for c in possible})


def check(
    reading: Seen,
    possible: Iterable[str] | Mapping[str, int],
    *,
    ranking: Sequence[str] = (),
    ask_threshold: float = 0.8,
) -> Verdict:
    """Judge one reading against the colours still possible (a set, or colour -> count).

    `ranking` (the classifier's candidates, nearest first) orders the choices offered.
    """
    left = _remaining(possible)
    ok = left[reading.colour] > 0
    ordered = [c for c in ranking if left[c] > 0]
    ordered += sorted(c for c in left if c not in ordered)
    if ok and reading.colour in ordered:
        ordered.remove(reading.colour)
        ordered.insert(0, reading.colour)
    event = reading if ok else replace(reading, confidence=0.0)
    ask = (not ok) or reading.confidence < ask_threshold
    return Verdict(event, ok, ask, tuple(ordered))


def check_round(
    balls: Sequence[BallSeen],
    in_mill: Mapping[str, int],
    *,
    ask_threshold: float = 0.8,
) -> list[Verdict]:
    """Judge the balls of one round in slot order against the mill's contents (counts).

    Each accepted ball uses up one of its colour, so the third of two purple balls is
    impossible even though purple is in the mill.
    """
    left = Counter({c: int(n) for c, n in in_mill.items() if n > 0})
    out = []
    for ball in sorted(balls, key=lambda b: b.slot):
        v = check(ball, left, ask_threshold=ask_threshold)
        if v.possible:
            left[ball.colour] -= 1
        out.append(v)
    return out
