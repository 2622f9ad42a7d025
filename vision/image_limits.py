"""Images from files are looked at before they are decoded: one that would take more memory
than any photo of a table needs (a small PNG can decode to 30000x30000 pixels, 2.7 GB) is
refused from its header, and a JPEG cut short is refused instead of read as half an image."""

from __future__ import annotations

from pathlib import Path

from companion.errors import UsageError

# A 12-megapixel phone photo is 12 million; the camera's frames are well under one million.
MAX_PIXELS = 40_000_000


def check_image(path: str | Path, max_pixels: int = MAX_PIXELS) -> None:
    """UsageError if the image at `path` is larger than `max_pixels` (by its header) or is a
    JPEG that ends before its end marker. Formats whose header cannot be read here are left
    to the decoder."""
    path = Path(path)
    size = _header_size(path)
    if size is not None and size[0] * size[1] > max_pixels:
        raise UsageError(
            f"cannot read image {path}: it is {size[0]}x{size[1]} pixels, more than the "
            f"{max_pixels // 1_000_000} million an image may have here"
        )
    with open(path, "rb") as f:
        if f.read(2) == b"\xff\xd8":  # a JPEG ends with its end-of-image marker
            f.seek(0, 2)
            f.seek(max(0, f.tell() - 64))
            if b"\xff\xd9" not in f.read().rstrip(b"\x00\r\n "):
                raise UsageError(f"cannot read image {path}: the JPEG is cut short")


def _header_size(path: Path) -> tuple[int, int] | None:
    try:
        from PIL import Image
    except ImportError:  # Pillow comes with Kivy; without it the decoder decides alone
        return None
    Image.MAX_IMAGE_PIXELS = None  # the size is judged here, not by Pillow's own warning
    try:
        with Image.open(path) as image:  # reads the header only
            return image.size
    except Exception:  # not a format Pillow knows: OpenCV may still read it
        return None
