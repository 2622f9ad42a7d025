"""The scorer against the rulebook's example, hand-worked layouts and an exhaustive search."""

from __future__ import annotations

import dataclasses
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.kritters.scoring import (
    PRIMARIES,
    SECONDARIES,
    Assignment,
    Collection,
    PointKritter,
    Rules,
    best_score,
    score_assignment,
)

STANDARD, TRIAD, JUNIOR = Rules(), Rules(triad_bonus=True), Rules("junior")


def pk(*pairs):
    return tuple(PointKritter(c, p) for c, p in pairs)


# The rulebook's scoring example: 1 paintbrush, 2 palettes; 6 magenta, 5 yellow, 4 cyan;
# point kritters worth 7 (the book gives only the sum; 3 + 4 is one way to make it).
RULEBOOK = Collection(
    cyan=4,
    magenta=6,
    yellow=5,
    paintbrushes=1,
    palettes=2,
    point_kritters=pk(("red", 3), ("blue", 4)),
)


def test_rulebook_example_scores_24():
    s = best_score(RULEBOOK, STANDARD)
    assert s.total == 24
    assert s.assignment.paintbrushes == ("magenta",)
    assert set(s.assignment.palettes) == {"magenta", "yellow"}
    assert "paintbrush + palette on magenta: 6 x 2 = 12" in s.explanation
    assert "palette on yellow: 5 x 1 = 5" in s.explanation
    assert s.explanation[-1] == "total: 24"


def test_rulebook_triad_example_scores_26_with_the_paintbrush_on_cyan():
    s = best_score(RULEBOOK, TRIAD)
    assert s.total == 26
    assert s.assignment.paintbrushes == ("cyan",)
    assert s.assignment.palettes == ("magenta", "yellow")
    assert dict(s.parts)["colour triad bonus"] == 4
    assert any(
        line.startswith("colour triad bonus") and line.endswith("+4") for line in s.explanation
    )


def test_wilds_join_the_group_with_both_items():
    s = best_score(Collection(cyan=3, magenta=1, wild=2, paintbrushes=1, palettes=1))
    assert s.total == 10  # (3 + 2 wild) cyan x 2
    assert s.assignment.wild == (2, 0, 0)
    assert "paintbrush + palette on cyan (3 + 2 wild): 5 x 2 = 10" in s.explanation


def test_triad_wilds_raise_the_smallest_group():
    col = Collection(cyan=4, magenta=4, yellow=1, wild=3, paintbrushes=3)
    assert best_score(col, STANDARD).total == 12  # 9 + 3 wild cards at 1 point each
    s = best_score(col, TRIAD)
    assert s.total == 16  # 4 + 4 + (1 + 3 wild) + smallest group 4
    assert s.assignment.wild == (0, 0, 3)


def test_two_paintbrushes_never_stack_on_one_colour():
    s = best_score(Collection(magenta=10, paintbrushes=2))
    assert s.total == 10
    assert "unused: 1 paintbrush" in s.explanation[-2]


def test_more_than_three_of_an_item_adds_nothing():
    col = Collection(cyan=1, magenta=1, yellow=1, paintbrushes=5, palettes=5)
    assert best_score(col).total == 6
    assert best_score(col, TRIAD).total == 7


def test_paint_buckets_go_on_the_colours_with_most_point_kritters():
    kritters = pk(("red", 3), ("red", 5), ("blue", 4), ("green", 2))
    two = best_score(Collection(point_kritters=kritters, paint_buckets=2))
    assert two.total == 14 + 4 + 2
    assert "red" in two.assignment.paint_buckets and len(two.assignment.paint_buckets) == 2
    assert "paint bucket on red: 2 point kritters x 2 = 4" in two.explanation
    four = best_score(Collection(point_kritters=kritters, paint_buckets=4))
    assert four.total == 14 + 4 + 2 + 2  # one bucket per colour; the fourth is spare
    assert four.assignment.paint_buckets == SECONDARIES


def test_paint_bucket_example_from_the_rulebook():
    # "if you have 3 Blue Point Kritters, you will get 6 extra points"
    col = Collection(point_kritters=pk(("blue", 2), ("blue", 6), ("blue", 3)), paint_buckets=1)
    assert best_score(col).total == 11 + 6


def test_junior_scores_five_per_full_set_with_wilds_filling_gaps():
    col = Collection(cyan=3, magenta=2, yellow=1, wild=2, point_kritters=pk(("red", 4)))
    s = best_score(col, JUNIOR)
    assert s.total == 2 * 5 + 4  # wild as yellow completes a second set
    assert s.explanation[0].startswith("junior sets of cyan + magenta + yellow: 2 x 5 = 10")


def test_junior_refuses_items():
    with pytest.raises(ValueError, match="Junior"):
        best_score(Collection(cyan=1, paintbrushes=1), JUNIOR)


def test_nothing_scores_nothing():
    s = best_score(Collection(), STANDARD)
    assert s.total == 0 and s.explanation == ("total: 0",)


def test_illegal_assignments_are_refused():
    with pytest.raises(ValueError, match="only one paintbrush"):
        score_assignment(
            Collection(cyan=2, paintbrushes=2), STANDARD, Assignment(paintbrushes=("cyan", "cyan"))
        )
    with pytest.raises(ValueError, match="only 1 owned"):
        score_assignment(
            Collection(cyan=2, palettes=1), STANDARD, Assignment(palettes=("cyan", "magenta"))
        )
    with pytest.raises(ValueError, match="wild"):
        score_assignment(Collection(wild=2), STANDARD, Assignment(wild=(1, 0, 0)))


# Exhaustive search, written straight from the rulebook, as the reference ---------------


def _reference_value(col, rules, brushes, palettes, wild, buckets):
    sizes = {c: col.count(c) + w for c, w in zip(PRIMARIES, wild, strict=True)}
    total = sum(p.points for p in col.point_kritters)
    total += sum(2 for p in col.point_kritters if p.colour in buckets)
    if rules.variant == "junior":
        return total + 5 * min(sizes.values())
    worth = {c: (c in brushes) + (c in palettes) for c in PRIMARIES}
    total += sum(sizes[c] * worth[c] for c in PRIMARIES)
    if rules.triad_bonus and all(sizes[c] * worth[c] > 0 for c in PRIMARIES):
        total += min(sizes.values())
    return total


def _splits(n):
    return [(a, b, n - a - b) for a in range(n + 1) for b in range(n + 1 - a)]


def _placements(colours, owned):
    return [
        combo
        for k in range(min(owned, len(colours)) + 1)
        for combo in itertools.combinations(colours, k)
    ]


def exhaustive(col, rules):
    items = rules.variant == "standard"
    return max(
        _reference_value(col, rules, b, p, w, k)
        for b in _placements(PRIMARIES, col.paintbrushes if items else 0)
        for p in _placements(PRIMARIES, col.palettes if items else 0)
        for w in _splits(col.wild)
        for k in _placements(SECONDARIES, col.paint_buckets if items else 0)
    )


point_kritters = st.lists(
    st.builds(PointKritter, st.sampled_from(SECONDARIES), st.sampled_from((2, 3, 4, 5, 6))),
    max_size=5,
).map(tuple)
small = st.integers(0, 6)
items = st.integers(0, 4)


@st.composite
def cases(draw):
    rules = draw(st.sampled_from((STANDARD, TRIAD, JUNIOR)))
    junior = rules.variant == "junior"
    col = Collection(
        cyan=draw(small),
        magenta=draw(small),
        yellow=draw(small),
        wild=draw(st.integers(0, 4)),
        point_kritters=draw(point_kritters),
        paintbrushes=0 if junior else draw(items),
        palettes=0 if junior else draw(items),
        paint_buckets=0 if junior else draw(items),
    )
    return col, rules


@settings(max_examples=100, deadline=None)
@given(cases())
def test_best_score_equals_exhaustive_search(case):
    col, rules = case
    s = best_score(col, rules)
    assert s.total == exhaustive(col, rules)
    assert score_assignment(col, rules, s.assignment) == s.total
    assert sum(points for _, points in s.parts) == s.total
    assert s.explanation[-1] == f"total: {s.total}"


ADDITIONS = (
    "cyan",
    "magenta",
    "yellow",
    "wild",
    "point_kritter",
    "paintbrushes",
    "palettes",
    "paint_buckets",
)


@settings(max_examples=150, deadline=None)
@given(
    cases(),
    st.sampled_from(ADDITIONS),
    st.sampled_from(SECONDARIES),
    st.sampled_from((2, 3, 4, 5, 6)),
)
def test_adding_a_card_never_lowers_the_score(case, what, colour, points):
    col, rules = case
    if rules.variant == "junior" and what in ("paintbrushes", "palettes", "paint_buckets"):
        what = "wild"
    if what == "point_kritter":
        added = col.point_kritters + (PointKritter(colour, points),)
        more = dataclasses.replace(col, point_kritters=added)
    else:
        more = dataclasses.replace(col, **{what: getattr(col, what) + 1})
    assert best_score(more, rules).total >= best_score(col, rules).total


@settings(max_examples=20, deadline=None)
@given(
    st.integers(0, 40),
    st.integers(0, 40),
    st.integers(0, 40),
    st.integers(0, 24),
    st.integers(0, 24),
    st.integers(0, 12),
    st.booleans(),
)
def test_large_collections_match_a_search_over_wild_splits(c, m, y, w, b, p, triad):
    # Too big for the full search; items are capped at 3 so the item search stays exhaustive.
    col = Collection(cyan=c, magenta=m, yellow=y, wild=w, paintbrushes=b, palettes=p)
    rules = Rules(triad_bonus=triad)
    capped = Collection(
        cyan=c, magenta=m, yellow=y, wild=w, paintbrushes=min(b, 3), palettes=min(p, 3)
    )
    assert best_score(col, rules).total == exhaustive(capped, rules)
