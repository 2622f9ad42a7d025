"""One colour path for every reader: no reader converts camera colour or keeps a white of its
own; each hands its pixels and their place to `vision.colour`.

Checked on the code itself: outside `vision/colour.py`, no module of `vision/` converts a frame
into a colour space (CIELAB, HSV, ...) with OpenCV, and none defines its own white (a function
or method whose name says white). Renderers (`vision/render/`) make colours, they do not read
them, and are left out; turning a frame grey (brightness, for edges and texture) is not
reading colour.
"""

import ast
from pathlib import Path

VISION = Path(__file__).resolve().parents[2] / "vision"
RENDERERS = VISION / "render"
GREY = {"COLOR_BGR2GRAY", "COLOR_RGB2GRAY", "COLOR_GRAY2BGR", "COLOR_BGR2RGB", "COLOR_RGB2BGR"}


PATH = {"colour", "layout"}  # the colour path itself: the white, found in the frame


def readers() -> list[Path]:
    return [
        p
        for p in sorted(VISION.rglob("*.py"))
        if RENDERERS not in p.parents and not (p.parent == VISION and p.stem in PATH)
    ]


def colour_conversions(tree: ast.AST) -> list[str]:
    """Names of the cv2.COLOR_* conversions a module uses, other than to and from grey."""
    out = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and node.attr.startswith("COLOR_")
            and node.attr not in GREY
        ):
            out.append(node.attr)
    return out


def own_whites(tree: ast.AST) -> list[str]:
    return [
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and "white" in node.name
    ]


def test_the_check_finds_what_it_looks_for():
    sneaky = ast.parse(
        "import cv2\n"
        "def tile_white(px): return px.mean(0)\n"
        "def read(f): return cv2.cvtColor(f, cv2.COLOR_BGR2Lab)\n"
    )
    assert colour_conversions(sneaky) == ["COLOR_BGR2Lab"]
    assert own_whites(sneaky) == ["tile_white"]


def test_no_reader_converts_camera_colour_or_keeps_its_own_white():
    found = {}
    for path in readers():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        bad = colour_conversions(tree) + own_whites(tree)
        if bad:
            found[path.name] = bad
    assert found == {}, f"colour read outside vision/colour.py: {found}"


def test_the_readers_take_their_colour_from_the_colour_path():
    # where the readers measure colour: balls in a frame of the tray, a card's face
    for name in ("ball_tray", "card_face", "detect", "segment"):
        tree = ast.parse((VISION / f"{name}.py").read_text(encoding="utf-8"))
        sources = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert "vision.colour" in sources, name
