"""`companion vision render-set`: a development set of the four camera scenes rendered with
the project's own renderers under spectral light, in the table-renders layout and truth format.

    companion vision render-set --out DIR [--setups N] [--seed S]

DIR/<scene>/calib/*.jpg   D65, nominal camera: empty.jpg and one frame per colour
DIR/<scene>/test/*.jpg    set-ups sNN: sNN_empty.jpg (not for node_table) and sNN_fK.jpg
DIR/truth.json            {scene: {"calib/x.jpg" | "test/sNN_fK.jpg": truth}}
DIR/README.md             what is in the set

A set-up fixes the light (`SETUP_LIGHTS[i % 6]`), the camera's move against the nominal pose
(rotation, scale, shift), exposure, uneven light, vignetting, blur and noise gain; its frames
differ in the pieces, a hand and the sensor noise. Each scene is rendered by its renderer at
the nominal table, lit by one spectral light (or, for MIXED, by A and D65 alike and blended
across the frame), then seen by the moved camera: warped, a hand drawn over it, exposed,
blurred, given shot and read noise, sRGB encoded and saved as JPEG. The same seed writes the
same files.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from vision.render.conditions import (
    SIZE,
    Setup,
    calib_setup,
    exposure_gain,
    finish,
    hand_masks,
    make_setup,
    random_hand,
    seen_by,
    visible_share,
)
from vision.render.scenes import SCENE_TYPES, SCENES
from vision.render.scenes.balls_row import finish_balls
from vision.render.scenes.scene import Frame, Scene

__all__ = ["SCENES", "write_set"]


def _render_setup(scene: Scene, setup: Setup, frames: list[Frame], rng, out: Path) -> dict:
    """Render `frames` of one set-up into `out`; their truth by file name."""
    ref = frames[0]  # no hand: the set-up's exposure is metered on its white patch
    nominal = {light: ref.render(light) for light in setup.lights()}
    gain = exposure_gain(setup, seen_by(setup, nominal, None), ref.truth["white_patch"])
    truths = {}
    for k, frame in enumerate(frames):
        hand = random_hand(rng, frame.hand_targets) if frame.hand_targets else None
        nominal = {light: frame.render(light) for light in setup.lights()}
        seen = seen_by(setup, nominal, hand)
        cover = None
        if hand:
            skin, sleeve, _ = hand_masks(hand)
            cover = np.maximum(skin, sleeve) > 0.5
        truth = dict(frame.truth)
        truth["hand"] = hand is not None
        patch = {"shape": "poly", "pts": truth["white_patch"]}
        truth["patch_covered"] = visible_share(cover, patch) < 0.95
        for obj in truth["objects"]:
            obj["visible"] = visible_share(cover, obj)
        if scene.name == "balls_row":
            finish_balls(truth)
        if scene.name == "cards_zones":
            by_ink = {tuple(map(tuple, o["pts"])): o["visible"] for o in truth["objects"]}
            for cards in truth["cards"].values():
                for card in cards:
                    card["visible"] = by_ink[tuple(map(tuple, card["ink"]))]
        if setup.light == "MIXED":
            xs = np.arange(0, SIZE[0] + 1, 32)
            truth["mixed_d65_fraction"] = {
                "f": np.round(setup.d65_share(xs.astype(float)), 3).tolist(),
                "x": xs.tolist(),
            }
        noise = np.random.default_rng([setup.seed, 13, k])
        path = out / scene.name / frame.name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(finish(setup, seen, gain, noise))
        truths[frame.name] = dict(sorted(truth.items()))
    return truths


def write_set(out: Path, setups: int = 12, seed: int = 0, scenes: Sequence[str] = SCENES) -> dict:
    """Write the set into `out`; returns the truth written to truth.json."""
    out = Path(out)
    truth: dict = {}
    for si, name in enumerate(scenes):
        scene = SCENE_TYPES[name]()
        rng = np.random.default_rng([seed, 17, si])
        cal = calib_setup(int(rng.integers(1 << 30)))
        truth[name] = _render_setup(scene, cal, scene.calib(cal), rng, out)
        for i in range(setups):
            setup = make_setup(i, seed * 1000 + si, lambda s, sc=scene: sc.keep_inside(s.pose))
            frames = scene.test(setup, np.random.default_rng([seed, 19, si, i]))
            truth[name].update(_render_setup(scene, setup, frames, rng, out))
    (out / "truth.json").write_text(json.dumps(truth, separators=(",", ":")) + "\n")
    (out / "README.md").write_text(readme(truth, setups, seed))
    return truth


def readme(truth: dict, setups: int, seed: int) -> str:
    counts = {s: len(v) for s, v in truth.items()}
    return README.format(
        total=sum(counts.values()),
        setups=setups,
        seed=seed,
        counts=", ".join(f"{s} {n}" for s, n in counts.items()),
    )


README = """# own-renders: the games table rendered by the project's renderers under spectral light

Made by `companion vision render-set --setups {setups} --seed {seed}` ({total} frames: {counts}).
Same layout and truth format as `table-renders` (the independent renderer's set), so one
benchmark reads both; a second, independent guess at how the table looks.

## Layout

```
<scene>/calib/*.jpg   D65, nominal camera: empty.jpg plus one frame per colour (a single object)
<scene>/test/*.jpg    sNN_empty.jpg (balls_row, cards_zones, laser_ring), sNN_fK.jpg
truth.json            {{scene: {{"calib/x.jpg" | "test/sNN_fK.jpg": truth}}}}
```

Set-up `i` has light `(D65, A, FL2, LED-B2, D50, MIXED)[i % 6]`, a camera moved against the
calibration's (rotation +/-5 deg, scale 0.94-1.05, shift +/-10 px, each piece kept in the
frame), exposure x0.8-1.2, uneven light (5-25 % across the frame), vignetting, blur sigma
0.55-1.1 px and a noise gain. Its frames differ in the pieces, a hand (in about 15 % of the
frames with pieces) and the sensor noise. Every truth record has `light`, `setup`, `camera`
(`rotation_deg`, `scale`, and `shift_px`, which the other set lacks), `white_patch` (4
corners), `hand`, `patch_covered`, `objects` (`set`, `colour`, a `disc` `c`, `r` or a `poly`
`pts`, `visible` = the share not under a hand); calib frames have `calib_colour`, test frames
of scenes with an empty frame name it in `empty`, MIXED frames have `mixed_d65_fraction` (the
share of D65 light across x, the rest A). Coordinates are image pixels.

Scenes (a set-up's frames; the scene's own truth keys):
- `balls_row` (empty tray + f1..f5): the tray with five cups; a round's balls (from a
  20-ball mill) arrive one by one, cup 0 at the left end. `colours` (from the tray end),
  `centres`, `radius`, `first_end`, `tray_end`, `tray`.
- `cards_zones` (empty table + f0..f4): five seat zones along the bottom and the centre above
  the tray: 0-5 distinct Color Milk cards a seat (all up, all down or mixed, +/-20 deg), 0-4
  Laser prism cards in a row in the centre, plain (`team`) or printed over a floor
  (`competitive`). `zones` (corners), `cards[zone]`: `game`, `colour` (null face down),
  `face`, `floor`, `corners`, `ink`, `visible`; `laser_mode`.
- `laser_ring` (empty ring + f0..f4): 12 square grey tiles on an ellipse, hexagonal prism
  figures or the white cat standing up to a quarter tile off centre, six colour cards in a
  column on the right with 0-2 spares each. `tiles` (clockwise from the top tile),
  `tile_centres`, `figure_centres`, `spares`, `spare_centres`, `colour_cards`, `tile_shape`,
  `off_centre` (the farthest figure, when 6 px or more off its tile's centre).
- `node_table` (f0..f5): a 20x14 node table area on wood; f0 holds 1-9 cards, each next frame
  adds one legal 2x3 card covering 1-4 nodes of the same colours, most turned up to 8 deg or
  shifted up to a third of a node. `before`, `new_card` (`cells` in printed order,
  `rotation`, `colours`, `node_centres`, `aligned`, `angle_off_deg`, `shift_px`), `grid`,
  `grid_geometry`, `cards`.

## Physics
Materials are reflectance spectra mixed from the ColorChecker patches measured by N. Ohta,
lit by CIE D65, A, FL2, the CIE LED-B2 (a warm white LED), D50, or MIXED (A and D65, the
D65 share rising smoothly across part of the frame), seen through the Nikon D5100's measured
sensitivities with the white balance locked at D65 gains, and a 3x3 matrix fitted on the 24
patches under D65 (white kept white) to linear sRGB (`vision/render/spectral.py`, data in
`vision/render/data/spectra.json`, from colour-science, BSD-3-Clause). Exposure puts the white
patch's brightest channel at 0.78 before the set-up's exposure. Lambert shading with the
renderers' shadows and highlights, shot and read noise, sRGB, JPEG quality 92.
"""
