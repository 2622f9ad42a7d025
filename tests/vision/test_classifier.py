"""The colour classifier: nearest prototype in weighted CIELAB, reject class, confidence."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.classifier import UNKNOWN, Classifier, Prototype, learn
from vision.colour import robust_colour, to_lab

PROTOS = (
    Prototype("blue", (35.0, 13.0, -45.0), 5.0),
    Prototype("green", (49.0, -34.0, 21.0), 5.0),
    Prototype("orange", (57.0, 30.0, 43.0), 5.0),
    Prototype("pink", (61.0, 32.0, -2.0), 5.0),
    Prototype("purple", (32.0, 28.0, -31.0), 5.0),
)


def test_each_prototype_reads_as_itself_with_high_confidence():
    clf = Classifier(PROTOS)
    for p in PROTOS:
        r = clf.classify(p.lab)
        # blue and purple lie four spreads apart: sure, though not beyond every doubt
        assert r.colour == p.colour and r.confidence > 0.9
        assert r.candidates[0] == p.colour and len(r.candidates) == len(PROTOS)


def test_far_from_every_prototype_is_rejected_with_zero_confidence():
    r = Classifier(PROTOS).classify((90.0, -60.0, 80.0))  # a bright yellow-green: no such ball
    assert r.colour == UNKNOWN and r.confidence == 0.0
    assert r.candidates[0] == "green"  # still ranks the likely answers for the question


def test_halfway_between_two_prototypes_is_not_confident():
    a, b = np.array(PROTOS[3].lab), np.array(PROTOS[4].lab)  # pink and purple
    r = Classifier(PROTOS).classify((a + b) / 2)
    assert r.colour in ("pink", "purple") and r.confidence < 0.8


def test_allowed_colours_restrict_the_answer():
    clf = Classifier(PROTOS)
    r = clf.classify(PROTOS[4].lab, allowed={"blue", "pink"})
    assert r.colour in ("blue", "pink") and r.confidence < 0.8
    with pytest.raises(ValueError):
        clf.classify(PROTOS[0].lab, allowed={"cyan"})


def test_learn_takes_mean_and_spread_per_colour():
    protos = learn([("red", (50, 60, 40)), ("red", (52, 58, 42)), ("blue", (30, 10, -50))])
    by = {p.colour: p for p in protos}
    assert by["red"].lab == pytest.approx((51, 59, 41)) and by["red"].samples == 2
    assert by["blue"].sigma >= 4.0  # never narrower than camera noise


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


def test_white_patch_balance_removes_a_warm_cast():
    grey = np.full((4, 4, 3), 128, np.uint8)
    warm = (grey * np.array([0.5, 0.8, 1.0])).astype(np.uint8)  # BGR: blue weak, red strong
    lab = to_lab(warm, white=np.array([0.5, 0.8, 1.0]) * 255)
    assert abs(lab[..., 1]).max() < 2 and abs(lab[..., 2]).max() < 2  # neutral again
