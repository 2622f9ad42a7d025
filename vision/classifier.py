"""Colour classifier: nearest calibrated prototype in weighted CIELAB, with reject and confidence.

Each prototype is a mean colour and a spread learnt from labelled samples; a colour may have
several (clusters of its samples). A reading is scored like a per-class mixture of isotropic
Gaussians: the posterior of the best class against the others (softened by `TEMPERATURE`), times
a closeness factor that falls to zero when the colour is far from every prototype (a hand, a
shadow, a foreign object). Far enough away, the answer is the reject class `UNKNOWN`.
Hue thresholds are not used: they break under warm light and for low-chroma colours.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from vision.colour import weighted

UNKNOWN = "unknown"
SIGMA_FLOOR = 5.0  # weighted-Lab units; camera noise and print variation are never smaller
MAX_PROTOTYPES = 10  # per colour
PER_PROTOTYPE = 5  # samples needed for each prototype of a colour
# Likelihood ratios are softened by this power before they become a confidence: chosen on the
# development photos so that wrong answers there fall below the ask threshold.
TEMPERATURE = 4.0
INNER_SIGMAS = 2.5  # inside this many spreads the closeness factor is 1
REJECT_SIGMAS = 6.0  # beyond this many spreads the answer is UNKNOWN


@dataclass(frozen=True)
class Prototype:
    colour: str
    lab: tuple[float, float, float]
    sigma: float
    samples: int = 1


@dataclass(frozen=True)
class Reading:
    """A classified colour. `ranking` holds (colour, distance) nearest first."""

    colour: str
    confidence: float
    distance: float
    ranking: tuple[tuple[str, float], ...] = ()
    lab: tuple[float, float, float] = (0.0, 0.0, 0.0)

    @property
    def candidates(self) -> tuple[str, ...]:
        """Likely answers for a question on screen, best first."""
        return tuple(c for c, _ in self.ranking)


def _clusters(arr: np.ndarray, k: int) -> np.ndarray:
    """Cluster index per sample: k-means in weighted Lab from a farthest-point start
    (deterministic, so the same samples always give the same calibration)."""
    w = weighted(arr).astype(np.float64)
    centres = [w[np.argmin(np.linalg.norm(w - w.mean(axis=0), axis=1))]]
    while len(centres) < k:
        d = np.min([np.linalg.norm(w - c, axis=1) for c in centres], axis=0)
        centres.append(w[int(np.argmax(d))])
    c = np.array(centres)
    for _ in range(30):
        idx = np.argmin(np.linalg.norm(w[:, None, :] - c[None], axis=2), axis=1)
        new = np.array([w[idx == j].mean(axis=0) if (idx == j).any() else c[j] for j in range(k)])
        if np.allclose(new, c):
            break
        c = new
    return idx


def learn(samples: Iterable[tuple[str, Sequence[float]]]) -> tuple[Prototype, ...]:
    """Prototypes per colour from (colour, lab) samples: mean and RMS spread of each cluster.

    One colour seen in different places (a sticker in the sun and in a hand's shadow, two
    cubes printed differently) forms several clusters; each becomes a prototype, one per
    `PER_PROTOTYPE` samples and at most `MAX_PROTOTYPES`, so the spread of one colour is not
    blurred into its neighbour's (red and orange).
    """
    by: dict[str, list[np.ndarray]] = {}
    for colour, lab in samples:
        by.setdefault(colour, []).append(np.asarray(lab, dtype=np.float64))
    out = []
    for colour in sorted(by):
        arr = np.array(by[colour])
        k = max(1, min(MAX_PROTOTYPES, len(arr) // PER_PROTOTYPE))
        idx = _clusters(arr, k) if k > 1 else np.zeros(len(arr), int)
        for j in range(k):
            part = arr[idx == j]
            if len(part) == 0:
                continue
            mean = part.mean(axis=0)
            d = np.linalg.norm(weighted(part) - weighted(mean), axis=1)
            rms = float(math.sqrt((d**2).mean())) if len(part) > 1 else 0.0
            out.append(
                Prototype(
                    str(colour),
                    tuple(round(float(v), 3) for v in mean),
                    round(max(SIGMA_FLOOR, rms), 3),
                    len(part),
                )
            )
    return tuple(out)


class Classifier:
    def __init__(self, prototypes: Sequence[Prototype]):
        if not prototypes:
            raise ValueError("a classifier needs at least one prototype")
        self.prototypes = tuple(prototypes)
        self._means = weighted(np.array([p.lab for p in self.prototypes], dtype=np.float32))
        self._sigmas = np.array([p.sigma for p in self.prototypes], dtype=np.float64)
        self._samples = np.array([max(1, p.samples) for p in self.prototypes], dtype=np.float64)
        self.colours = tuple(sorted({p.colour for p in self.prototypes}))
        self._colour_of = np.array([self.colours.index(p.colour) for p in self.prototypes])
        self._log_prior = np.log(self._samples) - 3.0 * np.log(self._sigmas)

    def _keep(self, allowed: Iterable[str] | None) -> np.ndarray:
        if allowed is None:
            return np.ones(len(self.prototypes), bool)
        allowed = set(allowed)
        keep = np.array([p.colour in allowed for p in self.prototypes])
        if not keep.any():
            raise ValueError(f"no prototype for any of {sorted(allowed)}")
        return keep

    def classify(self, lab: Sequence[float], allowed: Iterable[str] | None = None) -> Reading:
        """The colour of one measured Lab value, among `allowed` colours (default: all)."""
        lab = np.asarray(lab, dtype=np.float32)
        d = np.linalg.norm(self._means - weighted(lab), axis=1).astype(np.float64)
        keep = self._keep(allowed)
        # per colour: a mixture of its prototypes, each an isotropic Gaussian weighted by
        # its samples; the ranking uses each colour's nearest prototype
        # (sigma is the RMS distance in 3-D: sigma / sqrt(3) per axis)
        loglik = -1.5 * (d / self._sigmas) ** 2 + self._log_prior
        loglik[~keep] = -np.inf
        n = len(self.colours)
        peak = np.full(n, -np.inf)
        np.maximum.at(peak, self._colour_of, loglik)
        used = np.isfinite(peak)
        total = np.zeros(n)
        base = np.where(used, peak, 0.0)[self._colour_of]
        np.add.at(total, self._colour_of, np.where(keep, np.exp(loglik - base), 0.0))
        score = np.where(used, peak + np.log(np.where(used, total, 1.0)), -np.inf)
        dist = np.where(keep, d, np.inf)
        near = np.full(n, np.inf)
        np.minimum.at(near, self._colour_of, dist)
        nearest = {
            self.colours[c]: int(np.flatnonzero((self._colour_of == c) & (dist == near[c]))[0])
            for c in np.flatnonzero(used)
        }
        colours = [self.colours[c] for c in np.flatnonzero(used)]
        score = score[used]
        post = np.exp((score - score.max()) / TEMPERATURE)
        post /= post.sum()
        best = colours[int(np.argmax(post))]
        top = nearest[best]
        z = d[top] / self._sigmas[top]
        if z <= INNER_SIGMAS:
            close = 1.0
        else:
            close = max(0.0, 1.0 - (z - INNER_SIGMAS) / (REJECT_SIGMAS - INNER_SIGMAS))
        conf = float(post.max() * close)
        idx = sorted(nearest.values(), key=lambda i: (i != top, d[i]))
        ranking = tuple((self.prototypes[i].colour, round(float(d[i]), 2)) for i in idx)
        colour = best if z < REJECT_SIGMAS else UNKNOWN
        return Reading(
            colour,
            round(conf, 4),
            round(float(d[top]), 2),
            ranking,
            tuple(round(float(v), 2) for v in lab),
        )
