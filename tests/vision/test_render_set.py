"""The spectral renderer and the development set it writes (`companion vision render-set`)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import UsageError
from vision import cli
from vision.render import spectral
from vision.render.dataset import SCENES, write_set
from vision.render.tray import render_tray

OWN = Path(__file__).resolve().parents[1] / "data" / "own-renders"
W, H = 640, 480

# The truth format of the independent table-renders set: keys every record has, and each
# scene's own keys (test frames may add `empty`, `before`, `new_card`, `laser_mode`,
# `mixed_d65_fraction`; calib frames `calib_colour`).
COMMON = {"light", "setup", "camera", "white_patch", "hand", "patch_covered", "objects"}
SCENE_KEYS = {
    "balls_row": {"colours", "centres", "radius", "first_end", "tray_end", "tray", "visible"},
    "cards_zones": {"zones", "cards"},
    "laser_ring": {
        "tiles",
        "tile_centres",
        "figure_centres",
        "spares",
        "spare_centres",
        "colour_cards",
        "tile_shape",
        "off_centre",
    },
    "node_table": {"cards", "grid", "grid_geometry"},
}
CARD_KEYS = {"game", "colour", "face", "floor", "corners", "ink", "visible"}
NEW_CARD_KEYS = {"cells", "rotation", "colours", "node_centres", "aligned", "angle_off_deg"}


def _inside(pts, margin=0.0) -> bool:
    p = np.asarray(pts, float).reshape(-1, 2)
    return bool(
        (p[:, 0] >= margin).all()
        and (p[:, 0] <= W - margin).all()
        and (p[:, 1] >= margin).all()
        and (p[:, 1] <= H - margin).all()
    )


def _points(pts, n=None) -> bool:
    ok = all(len(p) == 2 and all(isinstance(v, float | int) for v in p) for p in pts)
    return ok and (n is None or len(pts) == n)


def check_set(root: Path, truth: dict, setups: int) -> None:
    """Every frame on disk and described, in the table-renders format, objects in frame."""
    assert set(truth) == set(SCENES)
    for scene, records in truth.items():
        files = {p.relative_to(root / scene).as_posix() for p in (root / scene).rglob("*.jpg")}
        assert files == set(records), scene
        names = {n for n in records if n.startswith("test/")}
        per_setup = 6
        assert len(names) == setups * per_setup, scene
        assert "calib/empty.jpg" in records
        for name, t in records.items():
            where = f"{scene}/{name}"
            assert COMMON | SCENE_KEYS[scene] <= set(t), (where, set(t))
            assert name.startswith("test/") != ("calib_colour" in t), where
            assert isinstance(t["hand"], bool) and isinstance(t["patch_covered"], bool)
            assert {"rotation_deg", "scale"} <= set(t["camera"])
            assert _points(t["white_patch"], 4) and _inside(t["white_patch"]), where
            if t["light"] == "MIXED":
                f = t["mixed_d65_fraction"]
                assert len(f["x"]) == len(f["f"]) and all(0 <= v <= 1 for v in f["f"])
            for o in t["objects"]:
                assert {"set", "colour", "shape", "visible"} <= set(o), where
                assert 0.0 <= o["visible"] <= 1.0
                if o["shape"] == "disc":
                    x, y = o["c"]
                    r = o["r"]
                    assert r > 3 and _inside([[x - r, y - r], [x + r, y + r]]), (where, o)
                else:
                    assert o["shape"] == "poly" and _inside(o["pts"]), (where, o)
            if not t["hand"]:
                assert all(o["visible"] == 1.0 for o in t["objects"]), where
            _check_scene(scene, name, t)


def _check_scene(scene: str, name: str, t: dict) -> None:
    if scene == "balls_row":
        assert len(t["colours"]) == len(t["centres"]) == len(t["objects"]) <= 5
        assert t["first_end"] in ("left", "right", "top", "bottom")
        assert _points(t["tray"], 4) and _inside(t["tray"])
    elif scene == "cards_zones":
        assert set(t["cards"]) == set(t["zones"]) and "centre" in t["zones"]
        cards = [c for cs in t["cards"].values() for c in cs]
        assert len(cards) == len(t["objects"])
        for c in cards:
            assert set(c) == CARD_KEYS
            assert (c["colour"] is None) == (c["face"] == "down")
            assert _points(c["corners"], 4) and _inside(c["corners"])
        if name.startswith("test/") and "empty" not in name:
            assert t["laser_mode"] in ("team", "competitive")
    elif scene == "laser_ring":
        assert len(t["tiles"]) == len(t["tile_centres"]) == len(t["figure_centres"]) == 12
        for tile, centre in zip(t["tiles"], t["figure_centres"], strict=True):
            assert (tile is None) == (centre is None)
        assert sum(t["spares"].values()) == sum(len(v) for v in t["spare_centres"].values())
        assert t["tile_shape"] in ("square", "round")
        for corners in t["colour_cards"].values():
            assert _inside(corners)
    else:
        g = t["grid_geometry"]
        assert len(t["grid"]) == g["rows"] and len(t["grid"][0]) == g["cols"]
        if "new_card" in t:
            new = t["new_card"]
            assert set(new) >= NEW_CARD_KEYS and len(new["cells"]) == 6
            assert t["before"].startswith("test/")
            for (r, c), colour in zip(new["cells"], new["colours"], strict=True):
                assert t["grid"][r][c] == colour
            c00, cs, rs = (np.array(g[k]) for k in ("cell00_centre", "col_step", "row_step"))
            for (r, c), p in zip(new["cells"], new["node_centres"], strict=True):
                # a node lies on its cell, off by the card's turn and shift at most
                assert np.linalg.norm(c00 + c * cs + r * rs - p) < 0.75 * np.linalg.norm(cs)


@pytest.fixture(scope="module")
def one_setup(tmp_path_factory):
    out = tmp_path_factory.mktemp("render-set")
    assert cli.main(["render-set", "--out", str(out), "--setups", "1", "--seed", "3"]) == 0
    return out


def test_render_set_writes_the_table_renders_format(one_setup):
    truth = json.loads((one_setup / "truth.json").read_text())
    check_set(one_setup, truth, 1)
    assert "render-set" in (one_setup / "README.md").read_text()
    frame = cv2.imread(str(one_setup / "node_table" / "test" / "s00_f1.jpg"))
    assert frame.shape == (H, W, 3)


def test_render_set_is_the_same_for_a_seed(one_setup, tmp_path):
    write_set(tmp_path, 1, 3, scenes=("balls_row",))
    for path in sorted((tmp_path / "balls_row").rglob("*.jpg")):
        again = one_setup / path.relative_to(tmp_path)
        assert path.read_bytes() == again.read_bytes(), path.name
    mine = json.loads((tmp_path / "truth.json").read_text())["balls_row"]
    assert mine == json.loads((one_setup / "truth.json").read_text())["balls_row"]


def test_render_set_needs_a_set_up(tmp_path):
    with pytest.raises(UsageError, match="setups"):
        cli.main(["render-set", "--out", str(tmp_path), "--setups", "0"])


def test_the_committed_own_renders_are_a_valid_set():
    truth = json.loads((OWN / "truth.json").read_text())
    setups = len({n.split("_")[0] for n in truth["balls_row"] if n.startswith("test/")})
    assert setups >= 6
    check_set(OWN, truth, setups)
    lights = {t["light"] for records in truth.values() for t in records.values()}
    assert lights == {"D65", "A", "FL2", "LED-B2", "D50", "MIXED"}
    assert any(t["hand"] for records in truth.values() for t in records.values())


def _patch(frame, scene_truth=None):
    """Mean sRGB of the rendered tray's white patch (RGB order)."""
    from vision.render.tray_geometry import scene_calibration

    x, y, w, h = scene_calibration().white_roi
    return frame[y : y + h, x : x + w].reshape(-1, 3).mean(axis=0)[::-1]


def test_spectral_daylight_keeps_the_white_patch_neutral():
    white = spectral.camera_rgb("white", "D65")
    assert np.ptp(white) < 0.01 * white.max()
    r, g, b = _patch(render_tray([], "D65", 4))
    assert max(abs(r - g), abs(g - b)) < 4


def test_spectral_tungsten_with_daylight_white_balance_turns_white_orange():
    r, g, b = spectral.camera_rgb("white", "A")
    assert r > 1.5 * g > 2.5 * b  # orange, not merely warm
    r, g, b = _patch(render_tray([], "A", 4))
    assert r > g + 25 > b + 60


def test_spectral_lights_keep_each_games_colours_apart():
    """Laser's blue and green are not Color Milk's: each game's pieces are their own inks."""
    for colour in ("blue", "green"):
        cm = spectral.camera_rgb(spectral.piece(colour, "cm"), "D65")
        laser = spectral.camera_rgb(spectral.piece(colour, "laser"), "D65")
        assert np.abs(cm - laser).max() > 0.03
    with pytest.raises(ValueError, match="unknown light"):
        render_tray([], "candle", 0)


def test_render_command_takes_a_spectral_light(tmp_path):
    out = tmp_path / "a.png"
    assert cli.main(["render", "--light", "A", "--balls", "blue", "--out", str(out)]) == 0
    assert cv2.imread(str(out)).shape == (H, W, 3)
