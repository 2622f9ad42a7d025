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
# The confidence is also capped by a second opinion: one Gaussian per colour with the full
# covariance of its prototypes, softened by this power. Tight clusters of two neighbouring
# colours (red and orange under shade) can sit side by side in the mixture, each confident
# near itself; the colours' overall shapes show that they overlap (chosen on the development
# photos, with one calibration for both cubes and with each cube calibrated alone, as a table
# calibrates its own pieces: 2.75 leaves no confident wrong answer there; 3 keeps a margin).
SHAPE_TEMPERATURE = 3.0
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
        shapes = [self._shape(c) for c in range(len(self.colours))]
        self._shape_mean = np.array([m for m, _, _ in shapes])
        self._shape_inv = np.array([inv for _, inv, _ in shapes])
        self._shape_logdet = np.array([logdet for _, _, logdet in shapes])

    def _shape(self, c: int) -> tuple[np.ndarray, np.ndarray, float]:
        """One Gaussian with a full covariance over all of a colour's prototypes: the shape of
        its spread (shading stretches a colour along lightness and chroma)."""
        idx = np.flatnonzero(self._colour_of == c)
        n = self._samples[idx]
        mu = self._means[idx].astype(np.float64)
        m = (n[:, None] * mu).sum(axis=0) / n.sum()
        dev = mu - m
        within = float((n * self._sigmas[idx] ** 2).sum() / n.sum()) / 3.0
        cov = (n[:, None, None] * dev[:, :, None] * dev[:, None, :]).sum(axis=0) / n.sum()
        # per axis at least the floor: the whole colour is never as tight as one cluster
        cov = cov + np.eye(3) * max(within, SIGMA_FLOOR**2)
        inv = np.linalg.inv(cov)
        return m, inv, float(np.linalg.slogdet(cov)[1])

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
        return self.classify_many([lab], allowed)[0]

    def classify_many(
        self, labs: Sequence[Sequence[float]], allowed: Iterable[str] | None = None
    ) -> list[Reading]:
        """`classify` for many Lab values at once (every object of a photo)."""
        labs = np.asarray(labs, dtype=np.float32).reshape(-1, 3)
        keep = self._keep(allowed)
        groups = [np.flatnonzero((self._colour_of == c) & keep) for c in range(len(self.colours))]
        groups = [(c, g) for c, g in enumerate(groups) if len(g)]
        d = np.linalg.norm(weighted(labs)[:, None, :] - self._means[None], axis=2)
        d = d.astype(np.float64)
        # per colour: a mixture of its prototypes, each an isotropic Gaussian weighted by
        # its samples (sigma is the RMS distance in 3-D: sigma / sqrt(3) per axis); the
        # ranking uses each colour's nearest prototype
        loglik = -1.5 * (d / self._sigmas) ** 2 + self._log_prior
        score = np.stack([np.logaddexp.reduce(loglik[:, g], axis=1) for _, g in groups], 1)
        nearest = np.stack([g[np.argmin(d[:, g], axis=1)] for _, g in groups], 1)
        post = np.exp((score - score.max(axis=1, keepdims=True)) / TEMPERATURE)
        post /= post.sum(axis=1, keepdims=True)
        if len(groups) > 1:
            cs = [c for c, _ in groups]
            dv = weighted(labs).astype(np.float64)[:, None, :] - self._shape_mean[None, cs]
            maha = np.einsum("ncj,cjk,nck->nc", dv, self._shape_inv[cs], dv)
            ll = -0.5 * (maha + self._shape_logdet[cs])
            shape_post = np.exp((ll - ll.max(axis=1, keepdims=True)) / SHAPE_TEMPERATURE)
            shape_post /= shape_post.sum(axis=1, keepdims=True)
            conf = np.minimum(post, shape_post)
        else:
            conf = post
        out = []
        for k in range(len(labs)):
            b = int(np.argmax(post[k]))
            top = int(nearest[k, b])
            z = d[k, top] / self._sigmas[top]
            close = 1.0
            if z > INNER_SIGMAS:
                close = max(0.0, 1.0 - (z - INNER_SIGMAS) / (REJECT_SIGMAS - INNER_SIGMAS))
            order = sorted(nearest[k], key=lambda i: (i != top, d[k, i]))
            ranking = tuple((self.prototypes[i].colour, round(float(d[k, i]), 2)) for i in order)
            out.append(
                Reading(
                    self.colours[groups[b][0]] if z < REJECT_SIGMAS else UNKNOWN,
                    round(float(conf[k, b] * close), 4),
                    round(float(d[k, top]), 2),
                    ranking,
                    tuple(round(float(v), 2) for v in labs[k]),
                )
            )
        return out
