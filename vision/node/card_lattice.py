"""The card's own lattice, found in its paper: the turn at which the paper between its nodes
runs straight, the paper's phase along each axis, the cells that changed and those showing a
node, and how much each cell changed."""

from __future__ import annotations

import cv2
import numpy as np

from vision.colour import LAB8_L_WEIGHT, lab8
from vision.node.squaring import PX

MAX_ANGLE = 12.0  # degrees: a card further off the grid is not read
CELL_COVER = 0.3  # share of a cell's middle that must change for the card to lie on it
PAPER_SIDE = 0.7  # share of a cell's side along which paper runs, for a node framed by it


def change_levels(before: np.ndarray, after: np.ndarray, ox: float, oy: float):
    """level(i, j): how much cell (i, j) of the card's frame changed (mean CIELAB
    difference, lightness weighted as the classifier weighs it)."""
    d = (lab8(after) - lab8(before)).astype(np.float32)
    d[..., 0] *= LAB8_L_WEIGHT
    change = np.sqrt((d * d).sum(axis=2))

    def level(i: int, j: int) -> float:
        y0, x0 = int(round(oy + i * PX)), int(round(ox + j * PX))
        cell = change[max(0, y0) : max(0, y0 + PX), max(0, x0) : max(0, x0 + PX)]
        return float(cell.mean()) if cell.size else 0.0

    return level


def card_cells(inside: np.ndarray, paper: np.ndarray, ox: float, oy: float):
    """Cells (i down, j across) of the card's frame that mostly changed, and those showing
    a node (a middle of ink framed by paper)."""
    size = inside.shape[0]
    n = size // PX + 1
    core = int(0.25 * PX)
    edge = int(round(0.15 * PX))
    slack = 2
    changed, nodes = set(), set()
    for i in range(-1, n):
        for j in range(-1, n):
            y0, x0 = int(round(oy + i * PX)), int(round(ox + j * PX))
            y1, x1 = y0 + PX, x0 + PX
            if y0 < 0 or x0 < 0 or y1 > size or x1 > size:
                continue
            mid = (slice(y0 + core, y1 - core), slice(x0 + core, x1 - core))
            if inside[mid].mean() >= CELL_COVER:
                changed.add((i, j))
            # ink within, paper along three sides or four (between nodes, or the card's
            # margin, which may be lost in a shadow or against a light mat),
            # looked for a little beyond the cell too: a narrow margin, a phase a pixel off
            cell = paper[max(0, y0 - slack) : y1 + slack, max(0, x0 - slack) : x1 + slack]
            e = edge + slack
            sides = (
                cell[:e].any(axis=0).mean(),
                cell[-e:].any(axis=0).mean(),
                cell[:, :e].any(axis=1).mean(),
                cell[:, -e:].any(axis=1).mean(),
            )
            if paper[mid].mean() < 0.4 and sorted(sides)[1] >= PAPER_SIDE:
                nodes.add((i, j))
    return changed, nodes


def straighten(paper: np.ndarray) -> float:
    """The turn (degrees, within `MAX_ANGLE` of the lattice) at which the paper of a window's
    card projects onto its rows and columns most sharply: the lines between its nodes run
    straight. Whole degrees, then quarters about the best, then a parabola."""
    size = paper.shape[0]
    centre = (size / 2, size / 2)

    def sharpness(a: float) -> float:
        turned = cv2.warpAffine(
            paper, cv2.getRotationMatrix2D(centre, a, 1.0), (size, size), flags=cv2.INTER_NEAREST
        ).astype(np.float32)
        cols, rows = turned.sum(axis=0), turned.sum(axis=1)
        return float((cols * cols).sum() + (rows * rows).sum())

    best = 0.0
    for step, span in ((1.0, MAX_ANGLE), (0.25, 1.0)):
        angles = best + np.arange(-span, span + 1e-9, step)
        scores = [sharpness(a) for a in angles]
        i = int(np.argmax(scores))
        best = float(angles[i])
    if 0 < i < len(scores) - 1:
        s0, s1, s2 = scores[i - 1], scores[i], scores[i + 1]
        den = s0 - 2 * s1 + s2
        if den < 0:
            best += step * 0.5 * (s0 - s2) / den
    return best


def paper_phase(paper: np.ndarray, total: np.ndarray) -> float:
    """Where the paper between the nodes falls (pixels, 0..PX) along one axis of the card."""
    share = paper / np.maximum(total, 1)
    pos = np.arange(len(share))
    z = ((share * (total > 0)) * np.exp(2j * np.pi * pos / PX)).sum()
    return float((np.angle(z) / (2 * np.pi) * PX) % PX)
