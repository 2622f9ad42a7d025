"""Camera sources and the capture thread: latest frame, unplug and replug, clear status."""

import shutil
import threading

import cv2
import numpy as np
import pytest

from vision.camera import Camera, CameraStatus
from vision.errors import CameraError
from vision.render.tray import render_tray
from vision.sources import ImageDirSource, OpenCVSource, RenderedSource, open_source


class Watcher:
    """Records status changes; tests wait on events with a timeout, never on bare sleeps."""

    def __init__(self):
        self.history = []
        self.events = {s: threading.Event() for s in CameraStatus}

    def __call__(self, status, message):
        self.history.append((status, message))
        self.events[status].set()

    def wait(self, status, timeout=5.0):
        ok = self.events[status].wait(timeout)
        self.events[status].clear()
        return ok


def _frames(n=6):
    return [render_tray(["blue", "pink"][: i % 3], "daylight", 1, frame=i) for i in range(n)]


@pytest.fixture
def video(tmp_path):
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30, (640, 480))
    assert writer.isOpened(), "OpenCV cannot write MJPG here"
    for f in _frames():
        writer.write(f)
    writer.release()
    return path


@pytest.fixture
def image_dir(tmp_path):
    d = tmp_path / "frames"
    d.mkdir()
    for i, f in enumerate(_frames()):
        cv2.imwrite(str(d / f"{i:03d}.png"), f)
    return d


def test_video_file_unplugged_and_replugged(video, tmp_path):
    watch = Watcher()
    cam = Camera(OpenCVSource(str(video), fps=120), on_status=watch, retry_seconds=0.05)
    with cam:
        assert watch.wait(CameraStatus.RUNNING)
        first = cam.wait(0)
        assert first is not None and first.image.shape == (480, 640, 3)
        kept = tmp_path / "kept.avi"
        shutil.move(video, kept)  # the cable is pulled
        assert watch.wait(CameraStatus.DISCONNECTED)
        assert cam.status is CameraStatus.DISCONNECTED
        assert "gone" in cam.message and "asks" in cam.message
        shutil.move(kept, video)  # and plugged back in
        assert watch.wait(CameraStatus.RUNNING)
        last = cam.latest().seq
        assert cam.wait(last).seq > last  # frames flow again
    assert cam.status is CameraStatus.STOPPED
    statuses = [s for s, _ in watch.history]
    assert statuses[:3] == [CameraStatus.STARTING, CameraStatus.RUNNING, CameraStatus.DISCONNECTED]


def test_image_folder_unplugged_and_replugged(image_dir, tmp_path):
    watch = Watcher()
    cam = Camera(ImageDirSource(image_dir, fps=200), on_status=watch, retry_seconds=0.05)
    cam.start()
    try:
        assert watch.wait(CameraStatus.RUNNING)
        assert cam.wait(0) is not None
        aside = tmp_path / "aside"
        shutil.move(image_dir, aside)
        assert watch.wait(CameraStatus.DISCONNECTED)
        assert "image folder" in cam.message
        shutil.move(aside, image_dir)
        assert watch.wait(CameraStatus.RUNNING)
        seq = cam.latest().seq
        assert cam.wait(seq) is not None
    finally:
        cam.close()


def test_a_source_that_never_opens_reports_disconnected(tmp_path):
    watch = Watcher()
    with Camera(ImageDirSource(tmp_path / "none"), on_status=watch, retry_seconds=0.05) as cam:
        assert watch.wait(CameraStatus.DISCONNECTED)
        assert cam.latest() is None
        assert cam.wait(0, timeout=0.1) is None


def test_latest_frame_never_blocks_and_skips_stale_frames():
    gate = threading.Event()

    def slow(i):
        gate.wait(5)  # the camera is slow to deliver
        return np.full((4, 4, 3), i % 256, np.uint8)

    with Camera(RenderedSource(slow, fps=1000)) as cam:
        assert cam.latest() is None  # returns at once, no frame yet
        gate.set()
        a = cam.wait(0)
        b = cam.wait(a.seq)
        assert b.seq > a.seq and b.time >= a.time


def test_a_faulty_status_listener_does_not_stop_capture():
    def boom(status, message):
        raise RuntimeError("listener bug")

    with Camera(RenderedSource(lambda i: np.zeros((2, 2, 3), np.uint8)), on_status=boom) as cam:
        assert cam.wait(0) is not None
        assert cam.wait(cam.latest().seq) is not None


def test_open_source_picks_by_setting(tmp_path, image_dir, video):
    assert isinstance(open_source(str(image_dir)), ImageDirSource)
    assert isinstance(open_source(str(video)), OpenCVSource)
    assert isinstance(open_source("0"), OpenCVSource)
    src = OpenCVSource(str(tmp_path / "missing.avi"))
    with pytest.raises(CameraError, match="gone"):
        src.open()
    with pytest.raises(CameraError):
        ImageDirSource(tmp_path / "missing").open()


class _FailingFolder(ImageDirSource):
    """A folder whose files vanish between the check and the read, as on an unplugged stick."""

    def read(self):
        raise FileNotFoundError(2, "No such file or directory", str(self.folder / "001.png"))


def test_a_read_that_fails_with_an_os_error_is_a_disconnect_not_a_dead_thread(image_dir):
    watch = Watcher()
    with Camera(_FailingFolder(image_dir), on_status=watch, retry_seconds=0.05) as cam:
        assert watch.wait(CameraStatus.DISCONNECTED)
        assert "image folder" in cam.message and "No such file" in cam.message
        assert cam._thread.is_alive()


def test_a_source_that_raises_anything_is_a_disconnect_and_capture_comes_back():
    """A source failing in a way nobody foresaw (a driver's bug, a picture it cannot draw) is
    said as a disconnect, and the next frame it can give is read again: the thread lives."""
    broken = threading.Event()
    broken.set()

    def frames(i):
        if broken.is_set():
            raise ValueError("the tray holds at most 5 balls")
        return np.zeros((2, 2, 3), np.uint8)

    watch = Watcher()
    with Camera(RenderedSource(frames, fps=100), on_status=watch, retry_seconds=0.05) as cam:
        assert watch.wait(CameraStatus.DISCONNECTED)
        assert "ValueError: the tray holds at most 5 balls" in cam.message
        assert cam._thread.is_alive()
        broken.clear()
        assert watch.wait(CameraStatus.RUNNING)
        assert cam.wait(0, timeout=2) is not None
