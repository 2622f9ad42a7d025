"""The vision matrix in small: every reader through the CLI on a little of every development
set, never below the simple baseline on the same objects, and never a silent misread on the
renders. The whole matrix, with figures: `python benchmarks/vision_matrix.py`."""

import pytest

from tests.vision import matrix as M

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    return tmp_path_factory.mktemp("matrix")


def total(scores: dict[str, M.Score]) -> M.Score:
    t = M.Score()
    for s in scores.values():
        t.add(s)
    return t


@pytest.mark.parametrize("name", M.RENDER_SETS)
def test_balls_of_every_light_are_read_at_least_as_well_as_the_baseline(name, out):
    rs = M.RenderSet(name)
    cal = M.calibrate_balls(rs, out)
    s = total(M.score_balls(rs, cal, rs.setups("balls_row", "dev", limit=1)))
    assert s.objects >= 10 and s.silent == 0 and s.ghosts == 0
    assert s.top >= s.base_right, s


def test_cards_of_every_light_are_read_at_least_as_well_as_the_baseline(out):
    rs = M.RenderSet("table-renders")
    cal = M.calibrate_cards(rs, out)
    s = total(M.score_cards(rs, cal, rs.setups("cards_zones", "dev", limit=1)))
    assert s.objects >= 100 and s.silent == 0 and s.ghosts == 0
    assert s.found >= 0.99 * s.objects and s.right >= s.base_right, s


@pytest.mark.parametrize("name", ["mnm-photos", "uno-cards"])
def test_real_photos_are_read_at_least_as_well_as_the_baseline(name, out):
    cal = M.calibrate_photos(name, out)
    s = M.score_photos(name, cal, "dev", limit=6, crops=False)["whole"]
    assert s.objects >= 6 and s.silent == 0
    assert s.top >= s.base_right, s


# Below the baseline today (docs/vision.md, "The vision matrix"): calibrated from one piece of
# each colour, the two cubes' red and orange cross, and colorseg's close light burns pieces a
# few pixels across. These only keep the gap from growing: objects the baseline reads right
# and the reader's top answer does not, on the first six development photos.
GAP_TODAY = {"real-scenes": 2, "colorseg-iitp": 1}


@pytest.mark.parametrize("name", sorted(GAP_TODAY))
def test_real_photos_below_the_baseline_fall_no_further_behind(name, out):
    cal = M.calibrate_photos(name, out)
    s = M.score_photos(name, cal, "dev", limit=6, crops=False)["whole"]
    assert s.objects >= 6
    assert s.base_right - s.top <= GAP_TODAY[name], s


def test_a_reading_counts_once_for_the_piece_whose_box_holds_most_of_it():
    from tests.vision.datasets import Piece

    # two overlapping boxes; the red piece's reading is centred in both, mostly in its own
    blue = Piece("blue", (0, 0, 100, 100), ())
    red = Piece("red", (60, 60, 100, 100), ())
    reading = {"colour": "red", "confidence": 1.0, "x": 90, "y": 90, "radius": 40}
    base = M.Baseline()
    base.learn("red", M.np.zeros(2))
    image = M.np.zeros((200, 200, 3), M.np.uint8)
    s = M.Score()
    M._match(s, [reading], [blue, red], image, base, {"blue", "red"})
    assert (s.objects, s.found, s.right, s.silent) == (2, 1, 1, 0), s
    # in a crop of the blue piece alone, the red neighbour's box still owns its reading
    s = M.Score()
    M._match(s, [reading], [blue], image, base, {"blue", "red"}, others=[red.box])
    assert (s.objects, s.found, s.silent) == (1, 0, 0), s
