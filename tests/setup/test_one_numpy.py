"""Where picamera2 comes from apt beside the venv (Raspberry Pi OS), its compiled apt
dependencies and OpenCV must load the same numpy: the apt one they were built against."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest

# picamera2's apt dependencies that link numpy's C interface, and OpenCV from the venv.
PROBE = """
import json, importlib.metadata as md
import numpy, simplejpeg, picamera2, cv2
numpys = [d for d in md.distributions() if d.metadata["Name"] == "numpy"]
print(json.dumps({
    "numpy": numpy.__file__,
    "numpys": sorted(str(d.locate_file("")) for d in numpys),
    "cv2": cv2.__version__,
}))
"""


@pytest.mark.skipif(
    importlib.util.find_spec("picamera2") is None,
    reason="picamera2 is not installed here (python3-picamera2 comes with Raspberry Pi OS)",
)
def test_picamera2_its_apt_dependencies_and_opencv_share_the_apt_numpy():
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120, check=True
    )
    found = json.loads(out.stdout.splitlines()[-1])
    assert found["numpy"].startswith("/usr/lib/python3/dist-packages/"), found
    assert len(found["numpys"]) == 1, found
