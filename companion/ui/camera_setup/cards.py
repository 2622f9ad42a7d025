"""The shared Balls & cards tab: the ball tray, its white patch and a card zone per seat and
the centre, dragged over the picture; the balls' colours and each game's card sets
(tabs.CardSet, declared by the games) learnt from what they see
-> vision.calibration.Calibration, saved through CalibrationStore."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from companion.ui.calib_geometry import Shape
from companion.ui.camera_setup.base import LIGHT, Setup, as_rect, fitted, letters, saved
from companion.ui.camera_setup.contract import CardSet
from vision.balls import BALL_SET
from vision.calibration import Calibration, CalibrationStore
from vision.errors import CalibrationError

MAX_SEATS = 5


class CardsSetup(Setup):
    """The ball tray, its white patch and the card zones (`seat1`.. and `centre`); the cards
    learnt are one of `card_sets` at a time (`card_set`, None when no game has cards)."""

    def __init__(
        self, path: Path, frame_size, card_sets: tuple[CardSet, ...], seats: int | None = None
    ) -> None:
        from vision.render.cards import table_zones
        from vision.render.tray_geometry import scene_calibration

        super().__init__(frame_size)
        self.path = Path(path)
        self.store = CalibrationStore(self.path)
        default = replace(
            scene_calibration(self.frame_size), card_zones=table_zones(self.frame_size)
        )
        self.defaults = {z: as_rect(r) for z, r in default.card_zones}
        base, _ = self._open(lambda _path: self.store.load(), lambda: default)
        self.note = self.store.message or self.note
        self.base = base
        shapes: dict[str, Shape] = {}
        if base.tray_roi:
            shapes["tray"] = as_rect(base.tray_roi)
        if base.white_roi:
            shapes["white"] = as_rect(base.white_roi)
        for name, r in base.card_zones:
            shapes[name] = as_rect(r)
        shapes = fitted(shapes, base.frame_size, self.frame_size)
        shapes.setdefault("tray", as_rect(default.tray_roi))
        shapes.setdefault("white", as_rect(default.white_roi))
        shapes.setdefault("centre", self.defaults["centre"])
        self.shapes = shapes
        have = sum(1 for n in shapes if n.startswith("seat"))
        self.seats = 0
        self.set_seats(seats or have or MAX_SEATS)
        self.changed = False
        self.card_sets = tuple(card_sets)
        self.card_set: CardSet | None = self.card_sets[0] if self.card_sets else None
        # (set, colour) -> its (colour, Lab, spread) sample, learnt here
        self.samples: dict[tuple[str, str], tuple] = {}
        self.empty: np.ndarray | None = None  # the empty table the regions are drawn on
        self.floors: dict[str, tuple[float, ...]] = {}  # learnt here; else the file's

    def set_seats(self, n: int) -> None:
        n = max(1, min(MAX_SEATS, n))
        for k in range(1, MAX_SEATS + 1):
            name = f"seat{k}"
            if k <= n:
                self.shapes.setdefault(name, self.defaults[name])
            else:
                self.shapes.pop(name, None)
        self.changed = self.changed or n != self.seats
        self.seats = n
        # the zones in reading order for the plan: the seats, then the centre
        self.shapes = {k: self.shapes[k] for k in self._order()}

    def _order(self) -> list[str]:
        seats = [f"seat{k}" for k in range(1, self.seats + 1)]
        return ["tray", "white", *seats, "centre"]

    def zones(self) -> list[str]:
        return [n for n in self._order() if n not in ("tray", "white")]

    def stepper(self) -> str:
        return f"{self.seats} seat{'s' * (self.seats > 1)}"

    def step(self, direction: int) -> None:
        self.set_seats(self.seats + direction)

    def choice(self) -> str:
        return f"Cards: {self.card_set.name}" if self.card_set else ""

    def next_choice(self) -> None:
        """On to the next card set, round to the first."""
        if self.card_set:
            k = self.card_sets.index(self.card_set)
            self.card_set = self.card_sets[(k + 1) % len(self.card_sets)]

    def plan(self) -> dict[str, tuple[str, ...]]:
        """The cards of the chosen set spread over the zones in order, as evenly as they go
        (6 colours over 4 zones: 2, 2, 1, 1), each zone's read left to right; a set of one
        card in every zone; floors in the centre."""
        if self.card_set is None:
            return {}
        colours, zones = self.card_set.cards, self.zones()
        if self.card_set.floors:
            return {"centre": colours}
        if len(colours) == 1:
            return dict.fromkeys(zones, colours)
        out, i = {}, 0
        for k, zone in enumerate(zones):
            n = len(colours) // len(zones) + (k < len(colours) % len(zones))
            out[zone] = colours[i : i + n]
            i += n
        return {z: c for z, c in out.items() if c}

    def labels(self) -> dict[str, str]:
        from vision.render.tray import BALL_COLOURS

        plan = self.plan()
        out = {"tray": f"tray: {letters(BALL_COLOURS)} from the left", "white": "white"}
        for zone in self.zones():
            out[zone] = zone
            if zone in plan:
                cards = " ".join(plan[zone]) if self._floors() else letters(plan[zone])
                out[zone] = f"{zone}: {cards}"
        return out

    def instructions(self) -> str:
        from vision.render.tray import BALL_COLOURS

        if self._floors():
            return (
                "Drag each box onto its place. Learn: Empty table first, then lay one "
                "card of each floor in the centre, left to right: "
                f"{', '.join(self.card_set.cards)}."
            )
        return (
            "Drag each box onto its place. Learn: Empty table first, then lay the balls "
            f"({letters(BALL_COLOURS)} from the left) and the cards shown in each zone."
        )

    def calibration(self) -> Calibration:
        """The calibration the screen shows now: its regions, the colours learnt so far and
        the old colours not learnt again."""
        from vision.learn import calibrate_table
        from vision.registration import encode_reference

        fs = self.frame_size
        kept = tuple(z for z in self.base.card_zones if z[0] not in self.shapes)
        kept = tuple(z for z in kept if not z[0].startswith("seat"))  # seats are set here
        zones = tuple((z, self.shapes[z].whole(fs)) for z in self.zones()) + kept
        cal = replace(
            self.base,
            tray_roi=self.shapes["tray"].whole(fs),
            white_roi=self.shapes["white"].whole(fs),
            card_zones=zones,
            frame_size=fs,
            floors=self.floors or self.base.floors,
            reference=self.base.reference if self.empty is None else encode_reference(self.empty),
        )
        balls = [v for (k, _), v in self.samples.items() if k == BALL_SET]
        if balls:
            cal = calibrate_table(cal, balls=balls)
        for card_set in {k for k, _ in self.samples} - {BALL_SET}:
            cards = [v for (k, _), v in self.samples.items() if k == card_set]
            known = {c for c, *_ in cards}
            # colours of the set not laid this time stay as they were
            cards += [
                (p.colour, p.lab, p.sigma)
                for p in cal.prototypes
                if p.set == card_set and p.colour not in known
            ]
            cal = calibrate_table(cal, cards=cards, card_set=card_set)
        return cal

    def learn(self, empty, frame) -> str:
        from vision.learn import card_samples, tray_samples
        from vision.render.tray import BALL_COLOURS

        if empty is None:
            return "First take the Empty table, with nothing in the tray or the zones."
        self.empty = empty
        cal = self.calibration()
        learnt, missing = [], []
        try:
            for colour, *sample in tray_samples(cal, empty, frame, BALL_COLOURS):
                self.samples[(BALL_SET, colour)] = (colour, *sample)
            learnt.append(f"balls {letters(BALL_COLOURS)}")
        except CalibrationError as exc:
            if "found 0" not in str(exc):
                missing.append(str(exc))
        if self.card_set is None:
            return self._said(learnt, missing)
        if self._floors():
            return self._learn_floors(empty, frame, cal, learnt, missing)
        card_set = self.card_set.colour_set
        got = []
        for zone, colours in self.plan().items():
            try:
                got += card_samples(cal, empty, frame, {zone: colours})
            except CalibrationError as exc:
                missing.append(str(exc))
        for colour, *sample in got:
            self.samples[(card_set, colour)] = (colour, *sample)
        if got:
            learnt.append(f"cards {letters(sorted({c for c, *_ in got}))}")
        return self._said(learnt, missing) + " " + self.colours_known()

    def _floors(self) -> bool:
        return self.card_set is not None and self.card_set.floors

    def _learn_floors(self, empty, frame, cal, learnt, missing) -> str:
        """The floor patterns from one card of each laid in the centre, left to right in the
        set's order (`vision.learn.learn_floors`)."""
        from vision.learn import learn_floors

        floors = self.card_set.cards
        try:
            self.floors = learn_floors(frame, empty, cal, floors, "centre")
            learnt.append(f"floors {', '.join(floors)}")
        except CalibrationError as exc:
            missing.append(str(exc))
        return self._said(learnt, missing)

    def _said(self, learnt: list[str], missing: list[str]) -> str:
        if learnt:
            self.changed = True
        said = "Learnt " + "; ".join(learnt) + "." if learnt else "Nothing learnt."
        return said + (" Missing: " + "; ".join(missing) + "." if missing else "")

    def colours_known(self) -> str:
        cal = self.calibration()
        have = cal.colours
        said = f"Colours known: {letters(have)}." if have else "No colours known yet."
        for colour_set in cal.colour_sets:
            for a, b in cal.classifier_for(colour_set).look_alike():
                said += f" {a} and {b} look alike under this light: the app will ask."
        return said

    def accept(self) -> str:
        self.store.propose(self.calibration())
        self.store.accept()
        self.changed = False
        self.base = self.store.current
        return saved(self.path)

    def scene(self, laid: bool, i: int) -> np.ndarray:
        from vision.render.cards import FLOOR_CARDS, render_seats
        from vision.render.tray import BALL_COLOURS

        seats = self.plan() if laid else {}
        if laid and self._floors():
            seats = {"centre": FLOOR_CARDS}  # the renderer's one card of each floor
        balls = BALL_COLOURS if laid else ()
        return render_seats(seats, LIGHT, 1, self.frame_size, frame=i % 4, angle=8, balls=balls)
