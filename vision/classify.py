"""The colour classifier: nearest learnt piece in the colour path's feature space
(`vision.colour`: weighted CIELAB of balanced linear light), with a confidence that follows
from the calibration's own geometry, not from constants chosen on one data set.

A table is calibrated by laying one piece of each colour (`learn`): each piece becomes a
prototype, its colour and how much that colour varies over the piece (`sigma`). A reading's
distance to each colour is to that colour's nearest prototype.

- **Confidence** is the reading's fuzzy membership (Bezdek's fuzzy c-means, m = 2) of the
  nearest colour against its nearest rival: 1 / (1 + (d_best / d_rival)^2). It is 1 on a
  prototype and 1/2 half-way between two colours; scale-free, so the same rule holds for
  balls in a tray and stickers in a phone photo. At the app's default ask threshold (0.8) a
  reading is taken without asking when it lies at least twice as near its colour as any
  other.
- **Unknown.** A reading farther from its nearest piece than that piece lies from the nearest
  piece of another colour (its reach) is like nothing learnt (a hand, a shadow, a foreign
  object): `UNKNOWN`, 0.
- **Look-alikes** (`look_alike`): two colours whose pieces lie within three of their own
  spreads of each other cannot be told apart at the default threshold even on a perfect
  reading; nor can two colours when a piece of one, left out, is nearer the other than its
  own colour's other pieces (a red sticker of one cube that is another cube's orange). The
  set-up says so when it learns them, and a reading between two pieces that cross is asked
  (confidence at most 1/2); a reading near a piece of either colour that crosses none (the
  other cube's orange) is not in doubt.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from vision.colour import feature

UNKNOWN = "unknown"
SIGMA_FLOOR = 2.0  # weighted-Lab units: camera noise and JPEG never vary a colour less
MAX_PROTOTYPES = 8  # per colour: many samples (a rendered calibration) are clustered to these
LOOK_ALIKE = 3.0  # spreads: closer pieces cannot be told apart at the default threshold


@dataclass(frozen=True)
class Prototype:
    colour: str
    lab: tuple[float, float, float]
    sigma: float  # how much the colour varied over the piece it was learnt from
    samples: int = 1
    set: str = ""  # the pieces it belongs to ("balls", a game's cards): sets never mix


@dataclass(frozen=True)
class Reading:
    """A classified colour. `ranking` holds (colour, distance), nearest first."""

    colour: str
    confidence: float
    distance: float
    ranking: tuple[tuple[str, float], ...] = ()
    lab: tuple[float, float, float] = (0.0, 0.0, 0.0)

    @property
    def candidates(self) -> tuple[str, ...]:
        """Likely answers for a question on screen, best first."""
        return tuple(c for c, _ in self.ranking)


def learn(samples: Iterable[tuple], colour_set: str = "") -> tuple[Prototype, ...]:
    """Prototypes of one set of pieces from (colour, lab) or (colour, lab, sigma) samples:
    one per sample (a piece of each colour laid once), or, beyond `MAX_PROTOTYPES` samples of
    a colour, one per cluster of them (k-means in the feature space)."""
    by: dict[str, list[tuple[np.ndarray, float]]] = {}
    for sample in samples:
        colour, lab = sample[0], np.asarray(sample[1], np.float64)
        sigma = float(sample[2]) if len(sample) > 2 else SIGMA_FLOOR
        by.setdefault(str(colour), []).append((lab, sigma))
    out = []
    for colour in sorted(by):
        labs = np.array([lab for lab, _ in by[colour]])
        sigmas = np.array([s for _, s in by[colour]])
        k = min(MAX_PROTOTYPES, len(labs))
        idx = _clusters(labs, k) if k < len(labs) else np.arange(len(labs))
        for j in range(k):
            part = labs[idx == j]
            if len(part) == 0:
                continue
            mean = part.mean(axis=0)
            spread = np.linalg.norm(feature(part) - feature(mean), axis=1)
            within = float(np.sqrt((sigmas[idx == j] ** 2).mean()))
            sigma = math.sqrt(within**2 + float((spread**2).mean()))
            out.append(
                Prototype(
                    colour,
                    tuple(round(float(v), 3) for v in mean),
                    round(max(SIGMA_FLOOR, sigma), 3),
                    len(part),
                    colour_set,
                )
            )
    return tuple(out)


def _clusters(arr: np.ndarray, k: int) -> np.ndarray:
    """Cluster index per sample: k-means from a farthest-point start (deterministic)."""
    w = feature(arr).astype(np.float64)
    centres = [w[np.argmin(np.linalg.norm(w - w.mean(axis=0), axis=1))]]
    while len(centres) < k:
        d = np.min([np.linalg.norm(w - c, axis=1) for c in centres], axis=0)
        centres.append(w[int(np.argmax(d))])
    c = np.array(centres)
    idx = np.zeros(len(w), int)
    for _ in range(30):
        idx = np.argmin(np.linalg.norm(w[:, None, :] - c[None], axis=2), axis=1)
        new = np.array([w[idx == j].mean(axis=0) if (idx == j).any() else c[j] for j in range(k)])
        if np.allclose(new, c):
            break
        c = new
    return idx


class Classifier:
    """`alike`: the look-alike pairs of the calibration these prototypes come from, when
    they are that calibration's moved for tonight's light (two places of one colour are
    then no sign that it crosses another)."""

    def __init__(
        self, prototypes: Sequence[Prototype], alike: Iterable[tuple[str, str]] | None = None
    ):
        if not prototypes:
            raise ValueError("a classifier needs at least one prototype")
        self.prototypes = tuple(prototypes)
        self.colours = tuple(sorted({p.colour for p in self.prototypes}))
        self._means = feature(np.array([p.lab for p in self.prototypes], np.float32)).astype(
            np.float64
        )
        self._colour_of = np.array([self.colours.index(p.colour) for p in self.prototypes])
        self._sigma = np.array([p.sigma for p in self.prototypes], np.float64)
        self._reach: dict[tuple, object] = {}  # per allowed set: reach, look-alike pairs
        self._alike = None if alike is None else {tuple(sorted(p)) for p in alike}

    def _allowed(self, allowed: Iterable[str] | None) -> list[int]:
        if allowed is None:
            return list(range(len(self.colours)))
        wanted = set(allowed)
        out = [i for i, c in enumerate(self.colours) if c in wanted]
        if not out:
            raise ValueError(f"no prototype for any of {sorted(wanted)}")
        return out

    def _nearest(self, points: np.ndarray, colours: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """Distance from each point to each colour's nearest prototype, and that prototype."""
        d = np.linalg.norm(points[:, None, :] - self._means[None], axis=2)
        dist = np.full((len(points), len(colours)), np.inf)
        proto = np.zeros((len(points), len(colours)), int)
        for k, c in enumerate(colours):
            idx = np.flatnonzero(self._colour_of == c)
            j = np.argmin(d[:, idx], axis=1)
            proto[:, k] = idx[j]
            dist[:, k] = d[np.arange(len(points)), idx[j]]
        return dist, proto

    def reach(self, allowed: Iterable[str] | None = None) -> np.ndarray:
        """Per prototype: how far it lies from the nearest prototype of another allowed
        colour (a reading farther than this from its nearest prototype is like nothing
        learnt); infinite for a colour with no rival."""
        colours = self._allowed(allowed)
        key = tuple(colours)
        if key not in self._reach:
            d = np.linalg.norm(self._means[:, None, :] - self._means[None], axis=2)
            rival = self._colour_of[None, :] != self._colour_of[:, None]
            rival &= np.isin(self._colour_of, colours)[None, :]
            self._reach[key] = np.where(rival, d, np.inf).min(axis=1)
        return self._reach[key]

    def classify(self, lab: Sequence[float], allowed: Iterable[str] | None = None) -> Reading:
        """The colour of one measured Lab value, among `allowed` colours (default: all)."""
        return self.classify_many([lab], allowed)[0]

    def classify_many(
        self, labs: Sequence[Sequence[float]], allowed: Iterable[str] | None = None
    ) -> list[Reading]:
        """`classify` for many Lab values at once (every object of a frame)."""
        labs = np.asarray(labs, np.float32).reshape(-1, 3)
        colours = self._allowed(allowed)
        reach = self.reach([self.colours[c] for c in colours])
        alike = set(self.look_alike([self.colours[c] for c in colours]))
        crossing = self._reach.get(("crossing", *colours), set())
        dist, proto = self._nearest(feature(labs).astype(np.float64), colours)
        out = []
        for k in range(len(labs)):
            order = np.argsort(dist[k])
            best = int(order[0])
            d1 = max(float(dist[k, best]), 1e-9)
            d2 = float(dist[k, order[1]]) if len(order) > 1 else math.inf
            membership = 1.0 / (1.0 + (d1 / d2) ** 2)
            name = self.colours[colours[best]]
            ranking = tuple(
                (self.colours[colours[int(i)]], round(float(dist[k, int(i)]), 2)) for i in order
            )
            if len(order) > 1 and self._between(
                alike, crossing, (name, ranking[1][0]), proto[k, best], proto[k, order[1]]
            ):
                membership = min(membership, 0.5)  # the set-up said: ask between these two
            far = d1 > reach[proto[k, best]]
            out.append(
                Reading(
                    UNKNOWN if far else name,
                    0.0 if far else round(membership, 4),
                    round(d1, 2),
                    ranking,
                    tuple(round(float(v), 2) for v in labs[k]),
                )
            )
        return out

    def look_alike(self, allowed: Iterable[str] | None = None) -> list[tuple[str, str]]:
        """Pairs of colours the calibration cannot tell apart: their pieces lie within
        `LOOK_ALIKE` of their own spreads of each other, or (a colour learnt from two pieces
        or more: two cubes, two lights) a piece read against all the others is nearer
        another colour than its own. Readings between such a pair are asked."""
        colours = self._allowed(allowed)
        key = ("alike", *colours)
        if key in self._reach:
            return self._reach[key]
        if self._alike is not None:
            names = {self.colours[c] for c in colours}
            self._reach[key] = sorted(p for p in self._alike if set(p) <= names)
            return self._reach[key]
        pairs, crossing = set(), set()
        mine = np.isin(self._colour_of, colours)
        for i, p in enumerate(self.prototypes):
            if not mine[i]:
                continue
            d = np.linalg.norm(self._means - self._means[i], axis=1)
            for j, q in enumerate(self.prototypes):
                a, b = self._colour_of[i], self._colour_of[j]
                if a < b and mine[j] and d[j] < LOOK_ALIKE * max(p.sigma, q.sigma):
                    pairs.add((self.colours[a], self.colours[b]))
                    crossing.add(frozenset((i, j)))
            own = mine & (self._colour_of == self._colour_of[i])
            own[i] = False
            if own.any():  # leave this piece out: is it still nearest its own colour?
                others = mine & (self._colour_of != self._colour_of[i])
                if others.any() and d[others].min() < d[own].min():
                    rival = self._colour_of[others][np.argmin(d[others])]
                    pair = sorted((self.colours[self._colour_of[i]], self.colours[rival]))
                    pairs.add(tuple(pair))
                    # every piece of another colour nearer this one than its own colour's
                    for j in np.flatnonzero(others & (d < d[own].min())):
                        crossing.add(frozenset((i, int(j))))
        self._reach[key] = sorted(pairs)
        self._reach[("crossing", *colours)] = crossing
        return self._reach[key]

    def _between(self, alike, crossing, names, best: int, rival: int) -> bool:
        """Whether a reading lies between two look-alike colours: between the two pieces that
        cross (a reading near one cube's orange, far from the other cube's orange that looks
        red, is not in doubt), or, for look-alikes handed in, between the two colours."""
        if tuple(sorted(names)) not in alike:
            return False
        if self._alike is not None:
            return True
        return frozenset((int(best), int(rival))) in crossing
