"""`companion doctor` camera checks, on the simulated table."""

from types import SimpleNamespace

from vision.doctor import calibration_path, checks


def test_simulated_camera_checks_pass(tmp_path):
    results = [c() for c in checks(SimpleNamespace(simulate=True, data_dir=str(tmp_path)))]
    assert [r.part for r in results] == ["camera", "camera calibration", "ball reader"]
    assert all(r.ok for r in results), results
    assert "640x480" in results[0].detail


def test_a_damaged_calibration_fails_its_check_and_is_kept(tmp_path):
    path = calibration_path(tmp_path)
    path.write_text("{broken")
    args = SimpleNamespace(simulate=False, data_dir=str(tmp_path))
    calibration = next(c for c in checks(args) if c.part == "camera calibration")
    result = calibration()
    assert not result.ok and "damaged" in result.detail and str(path) in result.detail
    assert path.read_text() == "{broken"
