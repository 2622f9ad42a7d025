"""From camera to events on a reader thread: rendered round in, BallSeen events out, in order."""

import threading
import time

import numpy as np

from vision.balls import BallReader
from vision.camera import Camera, CameraStatus
from vision.feed import STILL_READS, VisionFeed
from vision.learn import rendered_calibration
from vision.render.tray import arrival_frames
from vision.sources import RenderedSource


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


class SlowToRelease(RenderedSource):
    """A camera that takes its time to let go, as a webcam being unplugged does."""

    def close(self) -> None:
        time.sleep(0.5)


def test_a_resume_while_the_camera_is_still_closing_reads_again_once_it_is_shut():
    reads = []

    def read(image):
        reads.append(image)
        return []

    camera = Camera(SlowToRelease(lambda i: np.full((4, 4, 3), i % 255, np.uint8), fps=50))
    with VisionFeed(camera, read, on_events=lambda e: None, max_fps=50) as feed:
        assert _wait_for(lambda: len(reads) >= 2)
        pausing = threading.Thread(target=feed.pause)
        pausing.start()
        assert _wait_for(lambda: feed.paused)  # the camera is being released ...
        feed.resume()  # ... when the game wants the table read again
        pausing.join()
        read_then = len(reads)
        assert _wait_for(lambda: len(reads) > read_then + 2)
        assert not feed.paused and camera.status is CameraStatus.RUNNING


def test_a_pause_after_a_resume_that_waits_for_the_camera_keeps_it_closed():
    camera = Camera(SlowToRelease(lambda i: np.zeros((4, 4, 3), np.uint8), fps=50))
    with VisionFeed(camera, lambda image: [], on_events=lambda e: None) as feed:
        assert _wait_for(lambda: camera.status is CameraStatus.RUNNING)
        pausing = threading.Thread(target=feed.pause)
        pausing.start()
        assert _wait_for(lambda: feed.paused)
        feed.resume()
        feed.pause()  # not wanted after all, before the camera was shut
        pausing.join()
        assert feed.paused and camera.status is CameraStatus.STOPPED


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


def test_an_unchanged_view_is_read_a_few_times_then_once_a_still_gap():
    """A table nobody touches costs almost nothing to watch: the same view is read a few
    times (the readers' steady frames), then once a `still_gap`, and at once when it changes
    or when asked to look again."""
    view = {"image": np.full((48, 64, 3), 90, np.uint8)}
    reads = []

    def read(image):
        reads.append(int(image[0, 0, 0]))
        return []

    def at_most(started: float) -> int:  # the steady reads, then one a gap
        return STILL_READS + int((time.monotonic() - started) / 0.5) + 1

    camera = Camera(RenderedSource(lambda i: view["image"], fps=100))
    with VisionFeed(camera, read, on_events=lambda e: None, max_fps=50, still_gap=0.5) as feed:
        started = time.monotonic()
        assert _wait_for(lambda: len(reads) >= STILL_READS)
        time.sleep(1.0)  # some 50 frames at the full pace
        assert len(reads) <= at_most(started), reads
        # camera noise (a level or two) is the same view
        noise = np.random.default_rng(1).integers(0, 3, (48, 64, 3), np.uint8)
        view["image"] = view["image"] + noise
        time.sleep(0.5)
        assert len(reads) <= at_most(started), reads
        view["image"] = np.full((48, 64, 3), 200, np.uint8)  # a hand, a card, a ball
        changed = time.monotonic()
        assert _wait_for(lambda: reads.count(200) >= STILL_READS)
        time.sleep(1.0)
        assert reads.count(200) <= at_most(changed), reads
        before = len(reads)
        feed.look_again()
        assert _wait_for(lambda: len(reads) >= before + STILL_READS)


def test_without_a_still_gap_every_frame_is_read():
    reads = []
    camera = Camera(RenderedSource(lambda i: np.zeros((4, 4, 3), np.uint8), fps=100))
    with VisionFeed(camera, lambda image: reads.append(1) or [], on_events=lambda e: None):
        assert _wait_for(lambda: len(reads) >= 3 * STILL_READS)


def test_the_same_view_at_another_size_is_read_at_once():
    """A camera replugged at another resolution: its first frame is read (the app asks for
    the set-up, or scales it), however like the last view it looks."""
    view = {"image": np.full((48, 64, 3), 90, np.uint8)}
    shapes = []
    camera = Camera(RenderedSource(lambda i: view["image"], fps=100))
    read = lambda image: shapes.append(image.shape) or []  # noqa: E731
    with VisionFeed(camera, read, on_events=lambda e: None, max_fps=50, still_gap=60):
        assert _wait_for(lambda: len(shapes) >= STILL_READS)
        view["image"] = np.full((96, 128, 3), 90, np.uint8)
        assert _wait_for(lambda: (96, 128, 3) in shapes)
