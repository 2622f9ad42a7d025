"""From camera to events on a reader thread: rendered round in, BallSeen events out, in order."""

import threading
import time

import numpy as np

from vision.balls import BallReader
from vision.camera import Camera, CameraStatus, RenderedSource
from vision.feed import VisionFeed
from vision.learn import rendered_calibration
from vision.render import arrival_frames


def test_a_rendered_round_becomes_ball_events():
    colours = ["green", "blue", "purple"]
    frames = list(arrival_frames(colours, "fluorescent", 21, rest_frames=3))
    frames += [frames[-1]] * 5
    delivered = threading.Event()

    def frame(i):
        if i >= len(frames):
            delivered.set()
            return frames[-1]
        return frames[i]

    got, done = [], threading.Event()

    def on_events(events):
        got.extend(events)
        if len(got) >= len(colours):
            done.set()

    reader = BallReader(rendered_calibration(0), background=frames[0])
    # slow enough that the reader thread sees every frame at least once
    camera = Camera(RenderedSource(frame, fps=25))
    with VisionFeed(camera, reader.feed, on_events=on_events) as feed:
        assert done.wait(10), (got, feed)
    assert [(e.colour, e.slot) for e in got] == [(c, i) for i, c in enumerate(colours)]


def test_a_reader_failure_is_reported_not_raised():
    statuses = []

    def broken(image):
        raise RuntimeError("bad frame")

    camera = Camera(RenderedSource(lambda i: np.zeros((4, 4, 3), np.uint8)), retry_seconds=0.05)
    told = threading.Event()

    def on_status(status, message):
        statuses.append((status, message))
        if "reading failed" in message:
            told.set()

    with VisionFeed(camera, broken, on_events=lambda e: None, on_status=on_status) as feed:
        assert told.wait(5)
        assert "bad frame" in feed.error
    assert any(s is CameraStatus.DISCONNECTED for s, _ in statuses)


def test_camera_status_becomes_a_screen_cue():
    from companion.cues import Announce, ErrorCue
    from vision.feed import camera_cue

    lost = camera_cue(CameraStatus.DISCONNECTED, "camera 0 is gone; the table asks instead")
    assert isinstance(lost, ErrorCue) and "camera 0 is gone" in lost.message
    assert isinstance(camera_cue(CameraStatus.RUNNING, "running"), Announce)
    assert camera_cue(CameraStatus.STARTING, "opening") is None


def test_a_paused_feed_takes_no_frames_until_resumed():
    captured, reads = [], []

    def frame(i):
        captured.append(i)
        return np.zeros((4, 4, 3), np.uint8)

    def read(image):
        reads.append(image)
        return []

    camera = Camera(RenderedSource(frame, fps=100))
    with VisionFeed(camera, read, on_events=lambda e: None, max_fps=100) as feed:
        assert _wait_for(lambda: len(reads) >= 2)
        feed.pause()
        assert feed.paused and camera.status is CameraStatus.STOPPED  # capture has ended
        taken, read = len(captured), len(reads)
        assert not _wait_for(lambda: len(captured) > taken or len(reads) > read + 1, 0.3)
        feed.resume()
        assert _wait_for(lambda: len(reads) > read + 2)
        assert camera.status is CameraStatus.RUNNING and len(captured) > taken


def test_frames_are_read_at_most_max_fps_however_fast_the_camera():
    stamps, enough = [], threading.Event()

    def read(image):
        stamps.append(time.monotonic())
        if len(stamps) >= 5:
            enough.set()
        return []

    camera = Camera(RenderedSource(lambda i: np.zeros((4, 4, 3), np.uint8), fps=200))
    with VisionFeed(camera, read, on_events=lambda e: None, max_fps=20):
        assert enough.wait(10)
    gaps = [b - a for a, b in zip(stamps, stamps[1:], strict=False)]
    assert min(gaps[:4]) >= 0.045, gaps  # 1/20 s apart, give or take the clock's grain


def _wait_for(condition, timeout=5.0) -> bool:
    done = threading.Event()
    deadline = time.monotonic() + timeout
    while not condition() and time.monotonic() < deadline:
        done.wait(0.01)
    return condition()
