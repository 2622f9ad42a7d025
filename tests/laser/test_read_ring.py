"""Laser's ring adapter for the camera link: it finds the ring on the game's empty ring (the
simulated table's, or a real camera's first view of the ring empty), then posts Laser's
RingRead for a steady reading only."""

import json
import random

import pytest

from companion import paths
from companion.cues import Announce
from companion.game import ReaderSpec
from companion.games.laser.read_ring import WAITING, RingAdapter
from companion.games.laser.sensing.ring import RingRead
from companion.games.laser.sim.ring import SimulatedRing
from companion.runtime.readers import Setup
from vision.render.ring import render_ring, ring_calibration
from vision.render.ring_board import EMPTY_BOARD, random_board
from vision.ring.calibration import to_json

SPEC = ReaderSpec("ring", "round 1")


class Scene:
    """A simulated table with Laser's part only: the ring."""

    def __init__(self) -> None:
        self.ring = SimulatedRing("daylight", seed=3)
        self.ring.start()

    def part(self, game: str):
        assert game == "laser"
        return self


def adapter(tmp_path, scene=None) -> tuple[RingAdapter, list]:
    cues: list = []
    setup = Setup(scene is not None, tmp_path / "camera.json", 0.8, cues.append, scene)
    ring = RingAdapter(setup)
    ring.want(SPEC)
    return ring, cues


def read_until_posted(ring: RingAdapter, frame, limit: int = 8) -> list:
    for _ in range(limit):
        posted = ring.read(frame)
        if posted:
            return posted
    return []


def test_the_simulated_ring_is_found_on_its_empty_ring_and_read(tmp_path):
    scene = Scene()
    ring, cues = adapter(tmp_path, scene)
    (reading,) = read_until_posted(ring, scene.ring.frame(1))
    assert isinstance(reading, RingRead) and not reading.hand
    board = scene.ring.board
    for k, (got, want) in enumerate(zip(reading.tiles, board.tiles, strict=True)):
        assert reading.confidence[k] < 0.8 or got == want
    assert ring.read(scene.ring.frame(2)) == []  # the same again is no news
    assert cues == []


@pytest.fixture
def real_calibration(tmp_path):
    path = paths.calibration_path(tmp_path, "ring")
    path.write_text(json.dumps(to_json(ring_calibration())))
    return path


def test_a_real_camera_waits_for_the_empty_ring_then_reads(tmp_path, real_calibration):
    ring, cues = adapter(tmp_path)
    board = random_board(random.Random(5))
    laid = render_ring(board, "daylight", 5)
    assert read_until_posted(ring, laid) == []  # never seen empty: nothing is read
    assert [c.text for c in cues if isinstance(c, Announce)] == [WAITING]  # said once
    assert ring.read(render_ring(EMPTY_BOARD, "daylight", 5)) == []  # the empty ring
    (reading,) = read_until_posted(ring, laid)
    sure = [t for t, c in zip(reading.tiles, reading.confidence, strict=True) if c >= 0.8]
    assert len(sure) >= 10
    for k, (got, want) in enumerate(zip(reading.tiles, board.tiles, strict=True)):
        assert reading.confidence[k] < 0.8 or got == want


def test_a_real_camera_moved_too_far_says_so_and_stops(tmp_path, real_calibration):
    import cv2
    import numpy as np

    ring, cues = adapter(tmp_path)
    empty = render_ring(EMPTY_BOARD, "daylight", 5)
    away = cv2.warpAffine(empty, np.float32([[1, 0, 150], [0, 1, 90]]), (640, 480))
    assert ring.read(away) == [] and ring.off
    assert any("The camera has moved" in c.text for c in cues if isinstance(c, Announce))
