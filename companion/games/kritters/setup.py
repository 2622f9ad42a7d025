"""Table set-up for Colour MY Kritters: options, item piles by player count, the deck.

Pure data from the rulebook's Setup, Junior, Solo, More Points and "Combining 2 Decks"
sections. Everything here is a function of the player count and the options.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.errors import UsageError

# Item Market piles for one copy of the game (rulebook, Setup B).
ONE_DECK_PILES = {2: (5, 3), 3: (7, 4), 4: (9, 5), 5: (11, 6), 6: (12, 6)}
SOLO_PILES = (9, 5)  # before 2 paintbrushes + 1 palette go into each of two kritter piles
SOLO_INTO_DECK = (4, 2)
SPLIT_PILES = (8, 4)  # three games from two copies: 6 + 2 paintbrushes, 3 + 1 palettes a set
MAX_PLAYERS = 12

# Kritter cards per copy: 27 singles, 18 doubles, 9 wilds, 9 point kritters.
BASE_KRITTERS = 63
SUPER_SINGLES = SUPER_WILDS = 9
MORE_POINTS_KRITTERS = 6
PAINT_BUCKETS = 6
JUNIOR_REMOVED = 18  # 9 singles and 9 doubles
SPLIT_KRITTERS = 42  # 18 singles, 12 doubles, 6 wilds, 6 point kritters per set

# Table-wide settings the set-up screen passes to every game; Kritters has no use for them.
TABLE_SETTINGS = ("learning", "ask_threshold", "phase_seconds")
BOOL_OPTIONS = (
    "triad_bonus",
    "more_points",
    "double_purchase",
    "split_decks",
    "super_singles",
    "super_wilds",
)


@dataclass(frozen=True)
class Options:
    """The choices made before a game; read from GameConfig.options."""

    variant: str = "standard"  # or "junior"
    triad_bonus: bool = False
    more_points: bool = False
    double_purchase: bool = False
    split_decks: bool = False  # one of three games played from two copies
    super_singles: bool = False
    super_wilds: bool = False
    turn_timer: int = 0  # seconds per turn; 0 = no timer
    solo_best: int | None = None  # best earlier solo score, from the game log

    @classmethod
    def parse(cls, raw: Mapping[str, Any], players: int) -> Options:
        known = {*BOOL_OPTIONS, *TABLE_SETTINGS, "variant", "turn_timer", "solo_best"}
        unknown = sorted(set(raw) - known)
        if unknown:
            raise UsageError(
                f"unknown Kritters option {unknown[0]!r} (known: {', '.join(sorted(known))})"
            )
        values: dict[str, Any] = {}
        for key in BOOL_OPTIONS:
            value = raw.get(key, False)
            if not isinstance(value, bool):
                raise UsageError(f"option {key} must be true or false, not {value!r}")
            values[key] = value
        variant = raw.get("variant", "standard")
        if variant not in ("standard", "junior"):
            raise UsageError(f"option variant must be standard or junior, not {variant!r}")
        timer = raw.get("turn_timer", 0) or 0
        if isinstance(timer, bool) or not isinstance(timer, int) or not 0 <= timer <= 3600:
            raise UsageError(f"turn_timer must be whole seconds from 0 to 3600, not {timer!r}")
        best = raw.get("solo_best")
        if best is not None and (isinstance(best, bool) or not isinstance(best, int)):
            raise UsageError(f"solo_best must be a whole number, not {best!r}")
        opts = cls(variant=variant, turn_timer=timer, solo_best=best, **values)
        opts.check(players)
        return opts

    def check(self, players: int) -> None:
        if not 1 <= players <= MAX_PLAYERS:
            raise UsageError(f"Colour MY Kritters is for 1 to {MAX_PLAYERS} players, not {players}")
        if self.variant == "junior":
            if players < 2:
                raise UsageError("the Junior version is for 2 or more players")
            if self.triad_bonus or self.more_points:
                raise UsageError(
                    "Junior games use no items, so no Colour Triad bonus "
                    "and no More Points paint buckets"
                )
        if self.split_decks and self.junior:
            raise UsageError(
                "three games from two copies replace the Junior version; choose one of them"
            )
        if self.split_decks and not 2 <= players <= 4:
            raise UsageError("three games from two copies are for 2 to 4 players each")

    @property
    def junior(self) -> bool:
        return self.variant == "junior"


@dataclass(frozen=True)
class Setup:
    players: int
    copies: int  # copies of the game on the table (2 for 7-12 players)
    paintbrushes: int  # Item Market pile sizes
    palettes: int
    paint_buckets: int
    magic_wands: int
    kritter_market: int  # face-up kritters
    kritter_deck: int  # kritter cards before the market is dealt
    steps: tuple[str, ...]  # what to do, in order


def setup_for(players: int, opts: Options) -> Setup:
    """The piles and the steps for `players` players with these options."""
    opts.check(players)
    copies = 2 if players > 6 else 1
    per_copy = BASE_KRITTERS + SUPER_SINGLES * opts.super_singles
    per_copy += SUPER_WILDS * opts.super_wilds + MORE_POINTS_KRITTERS * opts.more_points
    deck = per_copy * copies
    wands = 9 * copies
    market = 6 if players > 6 or players == 1 else 4
    buckets = PAINT_BUCKETS * copies if opts.more_points else 0
    steps = [
        "Take a set of 6 identical Start cards and shuffle them into your deck."
        if players == 1
        else "Give each player a set of 6 identical Start cards to shuffle into a deck."
    ]
    if players == 1:
        brushes, palettes = SOLO_PILES[0] - SOLO_INTO_DECK[0], SOLO_PILES[1] - SOLO_INTO_DECK[1]
        deck += sum(SOLO_INTO_DECK)
        steps += [
            f"Make piles of {SOLO_PILES[0]} paintbrushes and {SOLO_PILES[1]} palettes.",
            "Split the kritter deck into 3 piles. Shuffle 2 paintbrushes and 1 palette from "
            "the bottom of the item piles into the first, the same into the second; stack "
            "first, second, third (on top).",
        ]
    elif opts.split_decks:
        copies, wands = 2, 3
        brushes, palettes = SPLIT_PILES
        deck = SPLIT_KRITTERS + (
            6 * opts.super_singles + 6 * opts.super_wilds + 4 * opts.more_points
        )
        buckets = 4 if opts.more_points else 0
        steps += [
            "Sort both copies by price and deal them into 3 equal sets: 18 singles, "
            "12 doubles, 6 wilds, 3 magic wands, 8 paintbrushes, 4 palettes and 6 point "
            "kritters (2 of each colour, 2 of each value) per set.",
        ]
    elif players <= 6:
        brushes, palettes = ONE_DECK_PILES.get(players, (0, 0))
    else:
        brushes, palettes = 2 * players, players
        steps.append("Do not mix sets of identical Start cards.")
    if opts.junior:
        brushes = palettes = 0
        deck -= JUNIOR_REMOVED * copies
        steps.append(
            f"Leave out paintbrushes and palettes; remove {9 * copies} singles and "
            f"{9 * copies} doubles (3 of each colour per copy) from the kritters."
        )
    else:
        steps.append(
            f"Item Market: {wands} magic wands, {brushes} paintbrushes, "
            f"{palettes} palettes"
            + (f", {buckets} paint buckets" if buckets else "")
            + "; return the other paintbrushes and palettes unseen."
        )
    steps.append(
        f"Shuffle the {deck} kritters into the Kritter Deck and deal "
        f"{market} face up to the Kritter Market."
    )
    if players == 1:
        steps.append(
            "Solo: before each refill remove the rightmost market card; remove "
            "paintbrushes and palettes that appear, each with the top card of its pile."
        )
    return Setup(players, copies, brushes, palettes, buckets, wands, market, deck, tuple(steps))
