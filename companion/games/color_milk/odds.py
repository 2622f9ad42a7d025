"""Exact chance that a prediction is fulfilled by the balls still to roll out of the mill.

Balls are drawn without replacement, so the number of each colour among the next `draws`
balls is multivariate hypergeometric. "Every predicted colour appears at least once" is
counted by inclusion-exclusion over the colours that could be missing:

    P = sum over T subset of S of (-1)^|T| * C(N - n_T, k) / C(N, k)

where N is the number of balls in the mill, k the balls still to come and n_T the balls of
the colours in T. Fractions keep it exact.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from itertools import combinations
from math import comb

from companion.games.color_milk.mill import BALLS_PER_ROUND, COLOURS, index


def fulfil_probability(
    mill: tuple[int, ...],
    prediction: Iterable[str],
    draws: int = BALLS_PER_ROUND,
    seen: Iterable[str] = (),
) -> Fraction:
    """P(every colour of `prediction` is among `seen` plus the next `draws` balls of `mill`).

    `mill` is what is inside now (already without `seen`); `draws` is how many balls are
    still to come this round.
    """
    wanted = {index(c) for c in prediction} - {index(c) for c in seen}
    total = sum(mill)
    if draws < 0 or draws > total:
        raise ValueError(f"cannot draw {draws} balls from a mill holding {total}")
    if not wanted:
        return Fraction(1)
    whole = comb(total, draws)
    p = Fraction(0)
    wanted_list = sorted(wanted)
    for size in range(len(wanted_list) + 1):
        sign = -1 if size % 2 else 1
        for missing in combinations(wanted_list, size):
            rest = total - sum(mill[i] for i in missing)
            p += sign * Fraction(comb(rest, draws), whole)
    return p


def all_odds(mill: tuple[int, ...]) -> dict[tuple[str, ...], Fraction]:
    """The chance of every non-empty prediction (31 of them) from `mill`, for tables."""
    out = {}
    for size in range(1, len(COLOURS) + 1):
        for pred in combinations(COLOURS, size):
            out[pred] = fulfil_probability(mill, pred)
    return out
