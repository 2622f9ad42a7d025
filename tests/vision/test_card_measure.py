"""The card reader's own quick measures give the same values as the shared slower ones."""

import numpy as np
import pytest

from vision.card_zones import _face_colour, _median_rows
from vision.colour import robust_colour


@pytest.mark.parametrize("n", [5, 20, 371, 372])
def test_face_colour_is_the_robust_colour(n):
    rng = np.random.default_rng(n)
    lab = rng.normal((60, 10, -20), (15, 20, 20), (n, 3)).astype(np.float32)
    lab[: n // 10, 0] = 98  # glare
    assert np.array_equal(_face_colour(lab), robust_colour(lab))


@pytest.mark.parametrize("n", [21, 40])
def test_median_of_rows_is_numpys_median_for_whole_pixel_values(n):
    px = np.random.default_rng(n).integers(0, 256, (n, 3)).astype(np.uint8)
    assert np.array_equal(_median_rows(px), np.median(px.astype(np.float32), axis=0))
