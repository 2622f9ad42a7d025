"""The colour classifier: nearest learnt piece, confidence from the calibration's geometry."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.classify import UNKNOWN, Classifier, Prototype, learn
from vision.colour import linear, reference_white, robust_colour, to_lab

PROTOS = (
    Prototype("blue", (35.0, 13.0, -45.0), 5.0),
    Prototype("green", (49.0, -34.0, 21.0), 5.0),
    Prototype("orange", (57.0, 30.0, 43.0), 5.0),
    Prototype("pink", (61.0, 32.0, -2.0), 5.0),
    Prototype("purple", (32.0, 28.0, -31.0), 5.0),
)


def test_each_prototype_reads_as_itself_with_full_confidence():
    clf = Classifier(PROTOS)
    for p in PROTOS:
        r = clf.classify(p.lab)
        assert r.colour == p.colour and r.confidence == pytest.approx(1.0)
        assert r.candidates[0] == p.colour and len(r.candidates) == len(PROTOS)


def test_confidence_is_the_membership_against_the_nearest_rival():
    # at lightness 50 the feature space is CIELAB's a and b as they are
    clf = Classifier((Prototype("blue", (50.0, 10.0, -50.0), 3.0),
                      Prototype("purple", (50.0, 40.0, -20.0), 3.0)))  # fmt: skip
    blue, purple = np.array([50.0, 10.0, -50.0]), np.array([50.0, 40.0, -20.0])
    halfway = clf.classify((blue + purple) / 2)
    assert halfway.confidence == pytest.approx(0.5, abs=0.01)
    # a third of the way from blue to purple: twice as near blue as purple -> 1 / (1 + 1/4)
    third = clf.classify(blue + (purple - blue) / 3)
    assert third.colour == "blue" and third.confidence == pytest.approx(0.8, abs=0.01)


def test_farther_from_a_piece_than_it_lies_from_another_colour_is_unknown():
    r = Classifier(PROTOS).classify((60.0, -120.0, 60.0))  # a vivid green: no such ball
    assert r.colour == UNKNOWN and r.confidence == 0.0
    assert r.candidates[0] == "green"  # still ranks the likely answers for the question


def test_a_piece_nearer_another_colour_than_its_own_makes_the_two_look_alike():
    # red and orange from two cubes: cube B's red is cube A's orange in shade
    clf = Classifier(
        learn(
            [
                ("red", (45, 60, 40)),
                ("red", (40, 50, 42)),
                ("orange", (42, 48, 43)),
                ("orange", (60, 40, 60)),
                ("blue", (35, 10, -50)),
            ]
        )  # fmt: skip
    )
    assert ("orange", "red") in clf.look_alike()
    between = clf.classify((41, 49, 42))
    assert between.colour in ("red", "orange") and between.confidence <= 0.5
    assert clf.classify((35, 10, -50)).confidence > 0.9  # blue is not in doubt
    # cube A's orange lies far from the pieces that cross: it is not asked for their sake
    assert clf.classify((60, 40, 60)).colour == "orange"
    assert clf.classify((60, 40, 60)).confidence > 0.9


def test_allowed_colours_restrict_the_answer():
    clf = Classifier(PROTOS)
    r = clf.classify(PROTOS[4].lab, allowed={"blue", "pink"})
    assert r.colour in ("blue", "pink", UNKNOWN) and r.confidence < 0.8
    with pytest.raises(ValueError):
        clf.classify(PROTOS[0].lab, allowed={"cyan"})


def test_one_piece_of_each_colour_is_one_prototype_with_its_own_spread():
    protos = learn([("red", (50, 60, 40), 3.0), ("blue", (30, 10, -50), 0.5)], "balls")
    by = {p.colour: p for p in protos}
    assert by["red"].lab == pytest.approx((50, 60, 40)) and by["red"].sigma == pytest.approx(3.0)
    assert by["blue"].sigma >= 2.0  # never narrower than camera noise
    assert {p.set for p in protos} == {"balls"}


def test_many_samples_of_a_colour_are_clustered():
    samples = [("red", (50 + i % 2 * 30, 60, 40)) for i in range(40)]
    protos = learn(samples)
    assert 2 <= len(protos) <= 8


def test_colours_closer_than_three_spreads_are_said_to_look_alike():
    clf = Classifier(
        learn(
            [
                ("red", (45, 55, 35), 4.0),
                ("orange", (50, 50, 45), 4.0),
                ("blue", (30, 10, -50), 4.0),
            ]
        )
    )
    assert clf.look_alike() == [("orange", "red")]


def test_hue_alone_would_fail_but_lab_does_not():
    # a dark and a light colour of the same hue (brown and orange) are told apart
    clf = Classifier(learn([("brown", (20, 15, 14)), ("orange", (62, 32, 58))]))
    assert clf.classify((22, 16, 16)).colour == "brown"
    assert clf.classify((60, 30, 55)).colour == "orange"


@settings(max_examples=200, deadline=None)
@given(st.tuples(st.floats(0, 100), st.floats(-100, 100), st.floats(-100, 100)))
def test_confidence_is_a_probability_and_answer_is_nearest_or_unknown(lab):
    r = Classifier(PROTOS).classify(lab)
    assert 0.0 <= r.confidence <= 1.0
    assert r.colour in (UNKNOWN, r.candidates[0])
    dists = [d for _, d in r.ranking]
    assert dists == sorted(dists)


def test_robust_colour_ignores_highlights_and_shadows():
    rng = np.random.default_rng(1)
    body = np.tile(np.array([[50.0, 40.0, -30.0]], np.float32), (800, 1))
    body += rng.normal(0, 1.0, body.shape).astype(np.float32)
    glare = np.tile(np.array([[98.0, 1.0, 1.0]], np.float32), (100, 1))
    shadow = np.tile(np.array([[5.0, 2.0, -2.0]], np.float32), (100, 1))
    got = robust_colour(np.vstack([body, glare, shadow]))
    assert got == pytest.approx([50.0, 40.0, -30.0], abs=1.0)


def test_a_warm_cast_is_removed_in_linear_light():
    grey = np.full((16, 3), 128, np.uint8)
    gains = np.array([0.35, 0.7, 1.0])  # BGR: a tungsten lamp, blue weak
    encoded = (255 * ((linear(grey) * gains) ** (1 / 2.4))).round().astype(np.uint8)
    lab = to_lab(encoded, reference_white(encoded))
    assert abs(lab[:, 1]).max() < 1.5 and abs(lab[:, 2]).max() < 1.5  # neutral again
