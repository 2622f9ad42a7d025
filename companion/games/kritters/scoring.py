"""End-of-game scoring for Colour MY Kritters: the best legal assignment, and why.

A player's cards reduce to counts: kritters per primary colour (by top splotch), wild kritters,
point kritters (secondary colour and value), and paintbrushes, palettes and paint buckets.
The player chooses where the items and wilds go; this module finds the choice worth most.

Structure instead of brute force:
- Each primary colour holds at most one paintbrush and one palette, so what matters is the
  worth per card of each group (0, 1 or 2): at most 27 worth vectors, those the player's
  paintbrushes and palettes can pay for (2s need one of each, 1s either).
- For one item choice, a group's cards are worth m = 0, 1 or 2 each. Without the triad bonus
  every wild belongs in a group with the highest m. With it (all three groups scored) the
  score is sum(m_g * s_g) + min(s_g); for a target minimum t the cheapest way is to top every
  group up to t and put the rest where m is highest. That bound is concave in t with kinks
  only where t meets a group's own count, so only a handful of targets need trying.
- Paint buckets only touch point kritters and are independent of the rest: one per secondary
  colour, on the colours holding the most point kritters.
- Junior: no items; the number of full cyan/magenta/yellow sets is the largest t that the wilds
  can top every group up to.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

PRIMARIES = ("cyan", "magenta", "yellow")
SECONDARIES = ("red", "green", "blue")
VARIANTS = ("standard", "junior")
JUNIOR_SET_POINTS = 5
BUCKET_POINTS = 2  # per point kritter of the bucket's colour


@dataclass(frozen=True)
class PointKritter:
    colour: str  # red, green or blue
    points: int


@dataclass(frozen=True)
class Collection:
    """One player's cards at the end of the game, as counts."""

    cyan: int = 0
    magenta: int = 0
    yellow: int = 0
    wild: int = 0
    point_kritters: tuple[PointKritter, ...] = ()
    paintbrushes: int = 0
    palettes: int = 0
    paint_buckets: int = 0

    def __post_init__(self) -> None:
        for name in (*PRIMARIES, "wild", "paintbrushes", "palettes", "paint_buckets"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be a whole number of cards >= 0, not {value!r}")
        for pk in self.point_kritters:
            if pk.colour not in SECONDARIES:
                raise ValueError(f"a point kritter is red, green or blue, not {pk.colour!r}")
            if isinstance(pk.points, bool) or not isinstance(pk.points, int) or pk.points < 0:
                raise ValueError(
                    f"a point kritter's value must be a whole number >= 0, not {pk.points!r}"
                )

    def count(self, colour: str) -> int:
        return getattr(self, colour)

    def point_count(self, colour: str) -> int:
        return sum(1 for pk in self.point_kritters if pk.colour == colour)


@dataclass(frozen=True)
class Rules:
    variant: str = "standard"  # or "junior"
    triad_bonus: bool = False

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise ValueError(f"variant must be standard or junior, not {self.variant!r}")
        if self.variant == "junior" and self.triad_bonus:
            raise ValueError(
                "the Colour Triad bonus needs paintbrushes and palettes, "
                "which Junior games do not use"
            )


@dataclass(frozen=True)
class Assignment:
    """Where a player's items and wilds go. Colours appear in PRIMARIES/SECONDARIES order."""

    paintbrushes: tuple[str, ...] = ()  # primary colours holding a paintbrush
    palettes: tuple[str, ...] = ()  # primary colours holding a palette
    wild: tuple[int, int, int] = (0, 0, 0)  # wild kritters joining cyan, magenta, yellow
    paint_buckets: tuple[str, ...] = ()  # secondary colours holding a paint bucket

    def to_json(self) -> dict:
        return {
            "paintbrushes": list(self.paintbrushes),
            "palettes": list(self.palettes),
            "wild": dict(zip(PRIMARIES, self.wild, strict=True)),
            "paint_buckets": list(self.paint_buckets),
        }


@dataclass(frozen=True)
class Score:
    total: int
    assignment: Assignment
    explanation: tuple[str, ...]
    parts: tuple[tuple[str, int], ...] = field(default=())  # (label, points), summing to total

    def to_json(self) -> dict:
        return {
            "total": self.total,
            "assignment": self.assignment.to_json(),
            "explanation": list(self.explanation),
            "parts": dict(self.parts),
        }


# Evaluating one assignment ---------------------------------------------------------------


def check_assignment(col: Collection, rules: Rules, a: Assignment) -> None:
    """Raise ValueError if `a` is not a legal way to lay out `col`'s cards."""
    for name, placed, have, colours in (
        ("paintbrush", a.paintbrushes, col.paintbrushes, PRIMARIES),
        ("palette", a.palettes, col.palettes, PRIMARIES),
        ("paint bucket", a.paint_buckets, col.paint_buckets, SECONDARIES),
    ):
        if len(set(placed)) != len(placed):
            raise ValueError(f"a colour can hold only one {name}")
        if any(c not in colours for c in placed):
            raise ValueError(f"a {name} goes on one of {', '.join(colours)}")
        if len(placed) > have:
            raise ValueError(f"{len(placed)} {name}s placed but only {have} owned")
    if rules.variant == "junior" and (a.paintbrushes or a.palettes or a.paint_buckets):
        raise ValueError("Junior games use no paintbrushes, palettes or paint buckets")
    if len(a.wild) != 3 or any(w < 0 for w in a.wild) or sum(a.wild) != col.wild:
        raise ValueError(f"all {col.wild} wild kritters must join a colour")


def score_assignment(col: Collection, rules: Rules, a: Assignment) -> int:
    """The points `a` is worth (after checking it is legal)."""
    check_assignment(col, rules, a)
    return _layout(col, rules, a)[0]


def _layout(col: Collection, rules: Rules, a: Assignment) -> tuple[int, list[tuple[str, int]]]:
    sizes = [col.count(c) + w for c, w in zip(PRIMARIES, a.wild, strict=True)]
    parts: list[tuple[str, int]] = []
    if rules.variant == "junior":
        sets = min(sizes)
        parts.append(("junior sets", JUNIOR_SET_POINTS * sets))
    else:
        mult = [(c in a.paintbrushes) + (c in a.palettes) for c in PRIMARIES]
        for c, s, m in zip(PRIMARIES, sizes, mult, strict=True):
            parts.append((c, s * m))
        triad = min(sizes) if all(mult) else 0
        parts.append(("colour triad bonus", triad if rules.triad_bonus else 0))
    parts.append(("point kritters", sum(pk.points for pk in col.point_kritters)))
    parts.append(
        ("paint buckets", sum(BUCKET_POINTS * col.point_count(c) for c in a.paint_buckets))
    )
    return sum(p for _, p in parts), parts


# Finding the best one ---------------------------------------------------------------------


# Every worth per card a group can have (0, 1 or 2 per colour), fewest items first.
_WORTHS = sorted(itertools.product((0, 1, 2), repeat=3), key=sum)


def _items_for(mult, brushes: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Paintbrushes and palettes giving these worths: both on 2s, brushes first on 1s."""
    doubles = [c for c, m in zip(PRIMARIES, mult, strict=True) if m == 2]
    singles = [c for c, m in zip(PRIMARIES, mult, strict=True) if m == 1]
    spare = brushes - len(doubles)
    with_brush = set(doubles + singles[:spare])
    with_palette = set(doubles + singles[spare:])
    return (
        tuple(c for c in PRIMARIES if c in with_brush),
        tuple(c for c in PRIMARIES if c in with_palette),
    )


def _top_up(counts: list[int], target: int) -> list[int]:
    return [max(0, target - c) for c in counts]


def _best_wilds(counts: list[int], mult: list[int], wild: int, triad: bool) -> list[int]:
    """The best way to spread `wild` wilds over groups worth `mult` points a card."""
    # Ties go to the biggest group, then to the rulebook's colour order.
    best_group = max(range(3), key=lambda g: (mult[g], counts[g], -g))
    if not (triad and all(mult)) or wild == 0:
        spread = [0, 0, 0]
        spread[best_group] = wild
        return spread
    low = min(counts)
    # The highest minimum the wilds can reach: raise the k smallest groups together.
    ordered = sorted(counts)
    for k in (1, 2, 3):
        high = (wild + sum(ordered[:k])) // k
        if k == 3 or high <= ordered[k]:
            break
    targets = {low, high} | {c for c in counts if low <= c <= high}
    best, best_spread = None, None
    for t in sorted(targets):
        spread = _top_up(counts, t)
        spread[best_group] += wild - sum(spread)
        sizes = [c + s for c, s in zip(counts, spread, strict=True)]
        value = sum(m * s for m, s in zip(mult, sizes, strict=True)) + min(sizes)
        if best is None or value > best:
            best, best_spread = value, spread
    return best_spread


def _junior_wilds(counts: list[int], wild: int) -> list[int]:
    """Wilds that make the most full sets; leftovers go to the groups nearest the next set."""
    spread = [0, 0, 0]
    for _ in range(wild):
        sizes = [c + s for c, s in zip(counts, spread, strict=True)]
        spread[min(range(3), key=lambda g: (sizes[g], g))] += 1
    return spread


def _best_buckets(col: Collection) -> tuple[str, ...]:
    ranked = sorted(
        (c for c in SECONDARIES if col.point_count(c) > 0),
        key=lambda c: (-col.point_count(c), SECONDARIES.index(c)),
    )
    chosen = set(ranked[: col.paint_buckets])
    return tuple(c for c in SECONDARIES if c in chosen)


def best_score(col: Collection, rules: Rules = Rules()) -> Score:
    """The best legal assignment of `col`'s items and wilds, with its explanation."""
    counts = [col.count(c) for c in PRIMARIES]
    buckets = _best_buckets(col) if rules.variant == "standard" else ()
    if rules.variant == "junior":
        if col.paintbrushes or col.palettes or col.paint_buckets:
            raise ValueError("Junior games use no paintbrushes, palettes or paint buckets")
        best = Assignment(wild=tuple(_junior_wilds(counts, col.wild)))
        total, parts = _layout(col, rules, best)
    else:
        brush_n, palette_n = min(col.paintbrushes, 3), min(col.palettes, 3)
        key, best_mult, best_spread = None, (0, 0, 0), [0, 0, 0]
        for mult in _WORTHS:
            doubles, singles = mult.count(2), mult.count(1)
            if doubles > min(brush_n, palette_n) or singles + 2 * doubles > brush_n + palette_n:
                continue  # not enough paintbrushes and palettes for these worths
            value = mult[0] * counts[0] + mult[1] * counts[1] + mult[2] * counts[2]
            if rules.triad_bonus and all(mult):
                spread = _best_wilds(counts, list(mult), col.wild, True)
                sizes = [c + w for c, w in zip(counts, spread, strict=True)]
                value = sum(m * s for m, s in zip(mult, sizes, strict=True)) + min(sizes)
            else:
                spread = None  # every wild goes where a card is worth most
                value += col.wild * max(mult)
            # Among equal scores, the layout using fewest items reads most simply.
            candidate = (value, -sum(mult))
            if key is None or candidate > key:
                key, best_mult, best_spread = candidate, mult, spread
        if best_spread is None:
            best_spread = _best_wilds(counts, list(best_mult), col.wild, False)
        brushes, palettes = _items_for(best_mult, brush_n)
        best = Assignment(brushes, palettes, tuple(best_spread), buckets)
        total, parts = _layout(col, rules, best)
    return Score(total, best, tuple(explain(col, rules, best, parts)), tuple(parts))


# Explaining -----------------------------------------------------------------------------------


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}es" if word.endswith("sh") else f"{n} {word}s"


def explain(col: Collection, rules: Rules, a: Assignment, parts) -> list[str]:
    points = dict(parts)
    lines: list[str] = []
    sizes = [col.count(c) + w for c, w in zip(PRIMARIES, a.wild, strict=True)]

    def group(c: str, w: int) -> str:
        return f"{c} ({col.count(c)} + {w} wild)" if w else c

    if rules.variant == "junior":
        sets = min(sizes)
        wild_note = ", ".join(
            f"{w} wild as {c}" for c, w in zip(PRIMARIES, a.wild, strict=True) if w
        )
        lines.append(
            f"junior sets of cyan + magenta + yellow: {sets} x {JUNIOR_SET_POINTS} = "
            f"{points['junior sets']}" + (f" ({wild_note})" if wild_note else "")
        )
    else:
        for c, w, s in zip(PRIMARIES, a.wild, sizes, strict=True):
            items = [
                n
                for n, held in (("paintbrush", a.paintbrushes), ("palette", a.palettes))
                if c in held
            ]
            if items:
                lines.append(
                    f"{' + '.join(items)} on {group(c, w)}: {s} x {len(items)} = {points[c]}"
                )
            elif s:
                lines.append(f"{group(c, w)}: {s} kritters with no paintbrush or palette score 0")
        if rules.triad_bonus:
            if all(c in a.paintbrushes or c in a.palettes for c in PRIMARIES):
                smallest = min(range(3), key=lambda g: (sizes[g], g))
                lines.append(
                    f"colour triad bonus: all three colours score, smallest is "
                    f"{PRIMARIES[smallest]} with {sizes[smallest]} cards: "
                    f"+{points['colour triad bonus']}"
                )
            else:
                lines.append("colour triad bonus: not all three colours score: +0")
    if col.point_kritters:
        values = " + ".join(f"{pk.points} {pk.colour}" for pk in col.point_kritters)
        lines.append(f"point kritters: {values} = {points['point kritters']}")
    for c in a.paint_buckets:
        n = col.point_count(c)
        lines.append(
            f"paint bucket on {c}: {n} point kritter{'s' * (n != 1)} x "
            f"{BUCKET_POINTS} = {BUCKET_POINTS * n}"
        )
    unused = [
        (
            _plural(col.paintbrushes - len(a.paintbrushes), "paintbrush"),
            col.paintbrushes - len(a.paintbrushes),
        ),
        (_plural(col.palettes - len(a.palettes), "palette"), col.palettes - len(a.palettes)),
        (
            _plural(col.paint_buckets - len(a.paint_buckets), "paint bucket"),
            col.paint_buckets - len(a.paint_buckets),
        ),
    ]
    spare = [text for text, n in unused if n]
    if spare and rules.variant == "standard":
        lines.append(f"unused: {', '.join(spare)} (at most one per colour)")
    lines.append(f"total: {sum(points.values())}")
    return lines
