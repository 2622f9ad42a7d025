"""From camera to events on a reader thread: rendered round in, BallSeen events out, in order."""

import threading

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
