"""A QR code as a Kivy texture, drawn from the `qrcode` package's module matrix (no image
library, no network): a phone's camera reads the result summary straight off the screen."""

from __future__ import annotations

from kivy.graphics.texture import Texture
from kivy.properties import StringProperty
from kivy.uix.image import Image


def qr_matrix(text: str) -> list[list[bool]]:
    """The modules (True: dark), with the standard quiet zone of 4 modules around them."""
    import qrcode

    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=4)
    code.add_data(text)
    code.make(fit=True)
    return code.get_matrix()


def qr_texture(text: str, scale: int = 4) -> Texture:
    """Black modules on white, each `scale` pixels, top row first as a phone expects."""
    rows = qr_matrix(text)
    n = len(rows) * scale
    buf = bytearray()
    for row in reversed(rows):  # a texture's first row is its bottom
        line = b"".join((b"\x00\x00\x00" if dark else b"\xff\xff\xff") * scale for dark in row)
        buf += line * scale
    tex = Texture.create(size=(n, n), colorfmt="rgb")
    tex.blit_buffer(bytes(buf), colorfmt="rgb", bufferfmt="ubyte")
    tex.mag_filter = tex.min_filter = "nearest"
    return tex


class QrCode(Image):
    """Shows `text` as a QR code, kept square and crisp."""

    text = StringProperty("")

    def __init__(self, **kw):
        kw.setdefault("fit_mode", "contain")
        super().__init__(**kw)
        self.bind(text=self._draw)
        self._draw()

    def _draw(self, *_):
        self.texture = qr_texture(self.text) if self.text else None
