"""A QR code as a Kivy texture, drawn from the `qrcode` package's module matrix (no image
library, no network): a phone's camera reads the result summary straight off the screen."""

from __future__ import annotations

from kivy.graphics import Color, Rectangle
from kivy.graphics.texture import Texture
from kivy.properties import StringProperty
from kivy.uix.widget import Widget


def qr_matrix(text: str) -> list[list[bool]]:
    """The modules (True: dark), with the standard quiet zone of 4 modules around them. The
    lowest error correction (7 %): a code on a screen is never smudged or torn, and fewer,
    larger modules are what lets a camera read a long link from a small screen."""
    import qrcode

    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_L, border=4)
    code.add_data(text)
    code.make(fit=True)
    return code.get_matrix()


def qr_texture(rows: list[list[bool]], scale: int = 4) -> Texture:
    """Black modules on white, each `scale` pixels, top row first as a phone expects."""
    n = len(rows) * scale
    buf = bytearray()
    for row in reversed(rows):  # a texture's first row is its bottom
        line = b"".join((b"\x00\x00\x00" if dark else b"\xff\xff\xff") * scale for dark in row)
        buf += line * scale
    tex = Texture.create(size=(n, n), colorfmt="rgb")
    tex.blit_buffer(bytes(buf), colorfmt="rgb", bufferfmt="ubyte")
    tex.mag_filter = tex.min_filter = "nearest"
    return tex


class QrCode(Widget):
    """Shows `text` as a QR code, square and centred, as large as fits with every module the
    same whole number of pixels and the code on whole pixels (uneven modules are what a
    camera misreads first)."""

    text = StringProperty("")

    def __init__(self, **kw):
        super().__init__(**kw)
        self._rows: list[list[bool]] = []
        with self.canvas:
            Color(1, 1, 1, 1)
            self._rect = Rectangle(size=(0, 0))
        self.bind(text=self._encode, size=self._draw, pos=self._draw)
        self._encode()

    def _encode(self, *_):
        self._rows = qr_matrix(self.text) if self.text else []
        self._rect.texture = None
        self._draw()

    def _draw(self, *_):
        if not self._rows:
            self._rect.size = (0, 0)
            return
        scale = max(1, int(min(self.size) // len(self._rows)))
        side = scale * len(self._rows)
        if self._rect.texture is None or self._rect.texture.width != side:
            self._rect.texture = qr_texture(self._rows, scale)
        # from x, y and size, not center: `center` may not have caught up with a new size yet
        x, y = self.x + (self.width - side) / 2, self.y + (self.height - side) / 2
        self._rect.pos = (round(x), round(y))
        self._rect.size = (side, side)
