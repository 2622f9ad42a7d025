"""A seeded table that plays Color Milk by itself: the physical mill and scripted players.

Used by `companion demo color-milk` and by the tests that play whole random games. The
mill here is the *physical* one (balls in a random order inside); the rules engine only
learns what the sensors and the players tell it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from companion.cues import AskHuman, Cue
from companion.events import BallPassed, BallSeen, ButtonPressed, Event
from companion.games.color_milk.events import Choose, Count, KingsTower, Predict, Tally
from companion.games.color_milk.mill import BALLS_PER_ROUND, COLOURS, FULL_MILL
from companion.games.color_milk.rules import MilkState

Submit = Callable[[Event], tuple[Cue, ...]]
LOOKS = 4  # frames the camera gets once the cards are revealed (the reader wants 2 alike)


class PredictionCards(Protocol):
    """The players' prediction cards on a table a camera watches (the demo's simulated one)."""

    def lay(self, seat: int, count: int) -> None:
        """Lay `count` cards face down in front of seat `seat` (0-based)."""

    def reveal(self, seat: int, colours: tuple[str, ...]) -> None:
        """Turn that seat's cards face up: they show `colours`."""

    def clear(self) -> None:
        """Every player takes their cards back."""

    def look(self, state: MilkState) -> list[Event]:
        """What the camera reads in one frame (ZoneReads while the game wants cards read)."""


class PhysicalMill:
    """Twenty real balls. Turning rolls out 5 (sometimes one too many, as the real mill
    does); extras go back unseen and the mill is shaken."""

    def __init__(self, rng: random.Random, extra_chance: float = 0.1) -> None:
        self.rng = rng
        self.extra_chance = extra_chance
        self.inside: list[str] = []
        self.refill()

    def refill(self) -> None:
        self.inside = [c for c, n in zip(COLOURS, FULL_MILL, strict=True) for _ in range(n)]
        self.rng.shuffle(self.inside)

    def turn(self) -> list[str]:
        """The balls that roll out this turn, in order (5, or 6 now and then)."""
        n = BALLS_PER_ROUND
        if len(self.inside) > n and self.rng.random() < self.extra_chance:
            n += 1
        out, self.inside = self.inside[:n], self.inside[n:]
        return out

    def put_back(self, balls: list[str]) -> None:
        self.inside.extend(balls)
        self.rng.shuffle(self.inside)

    def empty(self) -> list[str]:
        out, self.inside = self.inside, []
        return out


def exact_reader(balls: list[str]) -> list[BallSeen]:
    """A person tapping the balls in: always right."""
    return [BallSeen(c, i, 1.0) for i, c in enumerate(balls)]


@dataclass
class ScriptedTable:
    """Plays whole games through `submit` (a Session's, or a pure wrapper).

    `drop` is called for every ball crossing the chute (default: submit BallPassed);
    `read` turns the five balls in the tray into readings (default: exact taps);
    `press` presses an arcade button (default: submit ButtonPressed);
    `sense` takes a sensor's reading (default: submit it like a tap).
    `cards`: the players lay their predictions face down there and reveal them after the
    balls, for the camera to read (`sense` must then interpret readings, and `undo` take back
    a misread); without it each player taps their prediction in.
    `predictions` counts how each prediction was entered: read by the camera, asked (a tap
    on one of the question's answers), tapped by hand, or a silent misread (the camera
    entered something else: taken back and the right one entered).
    """

    submit: Submit
    state: Callable[[], MilkState]
    rng: random.Random
    drop: Callable[[str], None] | None = None
    read: Callable[[list[str]], list[BallSeen]] = exact_reader
    press: Callable[[str], None] | None = None
    sense: Submit | None = None
    cards: PredictionCards | None = None
    undo: Callable[[], bool] | None = None
    coin_chance: float = 0.3
    asked: int = 0
    predictions: dict[str, int] = field(
        default_factory=lambda: dict(read=0, asked=0, tapped=0, misreads=0)
    )
    mill: PhysicalMill = field(init=False)

    def __post_init__(self) -> None:
        self.mill = PhysicalMill(self.rng)
        if self.drop is None:
            self.drop = lambda colour: self.submit(BallPassed(1))
        if self.press is None:
            self.press = lambda button: self.submit(ButtonPressed(button))
        if self.sense is None:
            self.sense = self.submit

    # one round ------------------------------------------------------------------------
    def play_round(self) -> None:
        s = self.state()
        wanted = {p.name: self.prediction(s, p.name) for p in s.players}
        for seat, p in enumerate(s.players):  # face down, before the mill turns
            if self.cards is None:
                self.submit(wanted[p.name])
                self.predictions["tapped"] += 1
            else:
                self.cards.lay(seat, len(wanted[p.name].colours))
        rolled = self.mill.turn()
        for colour in rolled:
            self.drop(colour)
        balls, extras = rolled[:BALLS_PER_ROUND], rolled[BALLS_PER_ROUND:]
        self.mill.put_back(extras)  # the leader was told to; unseen
        self.settle(balls)
        if self.cards is not None:
            self.reveal(wanted)
        while self.state().phase == "choose":
            self.submit(self.choice(self.state()))
        self.colour_boards()
        self.press("next")
        if self.state().phase == "remix":
            self.counts()
            for colour in self.mill.empty():
                self.drop(colour)
            self.mill.refill()
            self.press("next")
            self.extra_cell()
        if self.state().phase == "tally":
            self.counts()
            self.press("next")
            self.extra_cell()

    def play(self, max_rounds: int = 60) -> MilkState:
        while self.state().phase != "over" and self.state().round <= max_rounds:
            self.play_round()
        return self.state()

    def settle(self, balls: list[str]) -> None:
        """Feed the readings; answer every question with the truth, as a person would."""
        for reading in self.read(balls):
            self.feed(reading, balls, self.sense)
        for slot, colour in enumerate(balls):  # anything the camera missed gets tapped in
            s = self.state()
            if s.phase in ("predict", "mill", "check") and s.tray[slot] != colour:
                self.feed(BallSeen(colour, slot, 1.0), balls)

    def feed(self, reading: BallSeen, truth: list[str], via: Submit | None = None) -> None:
        for cue in (via or self.submit)(reading):
            if isinstance(cue, AskHuman):
                self.asked += 1
                self.submit(BallSeen(truth[reading.slot], reading.slot, 1.0))

    def reveal(self, wanted: dict[str, Predict]) -> None:
        """The balls are out: the camera first sees the cards still face down, then every
        player turns theirs up; its readings are sensed and its questions answered."""
        assert self.cards is not None
        self.look(wanted)
        for seat, p in enumerate(self.state().players):
            self.cards.reveal(seat, wanted[p.name].colours)
        for _ in range(LOOKS):
            if self.state().phase != "check":
                break
            self.look(wanted)
        for p in self.state().players:  # the camera never read these: tapped in
            if self.state().phase == "check" and not p.prediction:
                self.submit(wanted[p.name])
                self.predictions["tapped"] += 1
        self.cards.clear()

    def look(self, wanted: dict[str, Predict]) -> None:
        """One frame through the camera; each reading sensed, and checked against the cards
        laid: a prediction the camera entered must be the one laid."""
        assert self.cards is not None and self.sense is not None
        for reading in self.cards.look(self.state()):
            before = {p.name for p in self.state().players if not p.prediction}
            cues = self.sense(reading)
            entered = [p for p in self.state().players if p.name in before and p.prediction]
            for p in entered:
                if _same(p, wanted[p.name]):
                    self.predictions["read"] += 1
                    continue
                self.predictions["misreads"] += 1  # put the right one back, as a person would
                if self.undo is None or not self.undo():
                    raise RuntimeError("a misread prediction cannot be taken back")
                self.submit(wanted[p.name])
            for cue in cues:
                if isinstance(cue, AskHuman):
                    self.answer(cue, wanted)

    def answer(self, question: AskHuman, wanted: dict[str, Predict]) -> None:
        """Tap the answer that is the player's prediction, else enter it by hand."""
        players = [p.name for p in self.state().players if f"({p.name})" in question.question]
        for name in players:
            if self.state().player(name).prediction:
                continue
            right = [a for a in question.answers if _same_predict(a, wanted[name])]
            self.submit(right[0] if right else wanted[name])
            self.predictions["asked" if right else "tapped"] += 1

    # scripted people ------------------------------------------------------------------
    def prediction(self, s: MilkState, name: str) -> Predict:
        r = self.rng.random()
        if r < 0.2:
            return Predict(name, tuple(self.rng.sample(COLOURS, 2)), "double")
        if r < 0.3:
            return Predict(name, tuple(self.rng.sample(COLOURS, 3)), "triple")
        k = self.rng.choice((1, 1, 2, 2, 3, 4, 5))
        return Predict(name, tuple(self.rng.sample(COLOURS, k)))

    def choice(self, s: MilkState) -> Choose:
        who = s.chooser_name
        p = s.player(who)
        if p.token("any2") and self.rng.random() < 0.5:
            return Choose(who, tuple(self.rng.sample(range(len(s.row)), 2)), "any2")
        if p.token("any1") and self.rng.random() < 0.5:
            return Choose(who, (self.rng.randrange(len(s.row)),), "any1")
        return Choose(who, (self.rng.randrange(3),))

    def colour_boards(self) -> None:
        s = self.state()
        for p in s.players:
            if self.rng.random() < self.coin_chance:
                self.submit(Tally(p.name, "coins", self.rng.choice((1, 1, 2))))
            if self.rng.random() < 0.15:
                self.submit(Tally(p.name, "pencils", 1))
            if p.unused_pencils and self.rng.random() < 0.3:
                self.submit(Tally(p.name, "used", 1))
            if s.board == 5 and not p.kings_tower and self.rng.random() < 0.05:
                self.submit(KingsTower(p.name, self.rng.choice(COLOURS)))

    def extra_cell(self) -> None:
        """Board 5: the players with most warriors colour one cell; now and then it finishes
        an area and brings a coin."""
        if self.state().phase != "warriors":
            return
        s = self.state()
        most = max(p.count("warriors") for p in s.players)
        for p in s.players:
            if p.count("warriors") == most and self.rng.random() < self.coin_chance:
                self.submit(Tally(p.name, "coins", 1))
        self.press("next")

    def counts(self) -> None:
        s = self.state()
        items = {3: ("railways",), 5: ("warriors",), 6: ("market", "camels", "ghost_towns")}
        for p in s.players:
            for item in items.get(s.board, ()):
                self.submit(Count(p.name, item, p.count(item) + self.rng.randrange(3)))
            if s.board == 6 and p.doubles:
                self.submit(Count(p.name, "treasure_cave", 1))


def _same_predict(a: Event, b: Predict) -> bool:
    return (
        isinstance(a, Predict)
        and a.player == b.player
        and set(a.colours) == set(b.colours)
        and a.zone == b.zone
    )


def _same(p, want: Predict) -> bool:
    """The prediction entered for player `p` is the one laid."""
    return set(p.prediction) == set(want.colours) and p.zone == want.zone
