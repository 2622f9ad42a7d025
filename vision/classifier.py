"""Colour classifier: nearest calibrated prototype in weighted CIELAB, with reject and confidence.

Each prototype is a mean colour and a spread learnt from labelled samples. A reading is scored
like a per-class isotropic Gaussian: the posterior of the best class against the others, times
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


def learn(samples: Iterable[tuple[str, Sequence[float]]]) -> tuple[Prototype, ...]:
    """One prototype per colour from (colour, lab) samples: mean and RMS spread."""
    by: dict[str, list[np.ndarray]] = {}
    for colour, lab in samples:
        by.setdefault(colour, []).append(np.asarray(lab, dtype=np.float64))
    out = []
    for colour in sorted(by):
        arr = np.array(by[colour])
        mean = arr.mean(axis=0)
        d = np.linalg.norm(weighted(arr) - weighted(mean), axis=1)
        rms = float(math.sqrt((d**2).mean())) if len(arr) > 1 else 0.0
        out.append(Prototype(str(colour), tuple(round(float(v), 3) for v in mean),
                             round(max(SIGMA_FLOOR, rms), 3), len(arr)))
    return tuple(out)


class Classifier:
    def __init__(self, prototypes: Sequence[Prototype]):
        if not prototypes:
            raise ValueError("a classifier needs at least one prototype")
        self.prototypes = tuple(prototypes)
        self._means = weighted(np.array([p.lab for p in self.prototypes], dtype=np.float32))
        self._sigmas = np.array([p.sigma for p in self.prototypes], dtype=np.float64)
        self.colours = tuple(sorted({p.colour for p in self.prototypes}))

    def classify(self, lab: Sequence[float], allowed: Iterable[str] | None = None) -> Reading:
        """The colour of one measured Lab value, among `allowed` colours (default: all)."""
        lab = np.asarray(lab, dtype=np.float32)
        d = np.linalg.norm(self._means - weighted(lab), axis=1).astype(np.float64)
        keep = np.ones(len(d), bool)
        if allowed is not None:
            allowed = set(allowed)
            keep = np.array([p.colour in allowed for p in self.prototypes])
            if not keep.any():
                raise ValueError(f"no prototype for any of {sorted(allowed)}")
        # best prototype per colour (a colour may have several, e.g. a ball and a card)
        best: dict[str, int] = {}
        for i in np.flatnonzero(keep):
            c = self.prototypes[i].colour
            if c not in best or d[i] < d[best[c]]:
                best[c] = i
        idx = sorted(best.values(), key=lambda i: d[i])
        s = self._sigmas[idx]
        dist = d[idx]
        loglik = -0.5 * (dist / s) ** 2 - 3.0 * np.log(s)
        post = np.exp(loglik - loglik.max())
        post /= post.sum()
        top = idx[0]
        z = dist[0] / s[0]
        if z <= INNER_SIGMAS:
            close = 1.0
        else:
            close = max(0.0, 1.0 - (z - INNER_SIGMAS) / (REJECT_SIGMAS - INNER_SIGMAS))
        conf = float(post[0] * close)
        ranking = tuple((self.prototypes[i].colour, round(float(d[i]), 2)) for i in idx)
        colour = self.prototypes[top].colour if z < REJECT_SIGMAS else UNKNOWN
        return Reading(colour, round(conf, 4), round(float(dist[0]), 2), ranking,
                       tuple(round(float(v), 2) for v in lab))
