"""The camera set-up screen's picture: the camera's frame, letterboxed, with the set-up's
shapes drawn over it and dragged by a finger (geometry: calib_geometry, pure)."""

from __future__ import annotations

from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.graphics.texture import Texture
from kivy.metrics import dp, sp
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.widget import Widget

from companion.ui import calib_geometry as geo
from companion.ui import colours, sizes
from companion.ui.widgets import text_texture

HANDLE_DP = 8  # drawn radius of a handle; its touch area is MIN_TOUCH across
OUTLINE = (0.3, 0.85, 0.95, 1)  # a shape that is not a colour card, a seat or below
SHAPE_COLOURS = {"white": (1, 1, 1, 1), "centre": (0.95, 0.4, 0.85, 1)}
SEAT_COLOUR = (1.0, 0.7, 0.2, 1)
SELECTED = (1.0, 1.0, 0.2, 1)


class SetupOverlay(Widget):
    """The camera's picture, letterboxed, with the set-up's shapes; a finger takes the
    nearest handle within reach (MIN_TOUCH across) or the box it is inside, and drags it."""

    setup = ObjectProperty(None, allownone=True)
    selected = StringProperty("")

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.texture: Texture | None = None
        self.frame_size = (640, 480)  # until the first frame says
        self._drag = None  # (touch uid, shape name, handle, grab point, shape at grab)
        self._redraw = Clock.create_trigger(lambda _dt: self.redraw())
        self.bind(pos=self._redraw, size=self._redraw, setup=self._redraw, selected=self._redraw)
        self.on_change = None  # called after a drag moved something

    @property
    def view(self) -> geo.View:
        return geo.View(self.frame_size, (self.x, self.y, self.width, self.height))

    def show_frame(self, image) -> None:
        """A BGR frame from the camera becomes the picture."""
        h, w = image.shape[:2]
        if self.texture is None or tuple(self.texture.size) != (w, h):
            self.texture = Texture.create(size=(w, h), colorfmt="bgr")
            self.texture.flip_vertical()  # frames run top to bottom, textures bottom up
            self.frame_size = (w, h)
            self._redraw()
        self.texture.blit_buffer(image.tobytes(), colorfmt="bgr", bufferfmt="ubyte")
        self.canvas.ask_update()

    # drawing ----------------------------------------------------------------------------
    def redraw(self) -> None:
        self.canvas.clear()
        view = self.view
        px, py, pw, ph = view.picture
        with self.canvas:
            Color(0, 0, 0, 1)
            Rectangle(pos=self.pos, size=self.size)
            Color(1, 1, 1, 1)
            Rectangle(texture=self.texture, pos=(px, py), size=(pw, ph))
            if self.setup is None:
                return
            labels = self.setup.labels()
            for name, shape in self.setup.shapes.items():
                colour = SELECTED if name == self.selected else self._colour(name)
                self._draw(view, name, shape, colour, labels.get(name, ""))

    def _colour(self, name: str):
        if name.startswith("seat"):
            return SEAT_COLOUR
        if name in SHAPE_COLOURS:
            return SHAPE_COLOURS[name]
        return colours.rgba(name) if colours.is_named(name) else OUTLINE  # a colour card

    def _draw(self, view, name, shape, colour, label) -> None:
        s = view.scale
        Color(*colour)
        if isinstance(shape, geo.Rect):
            x, top = view.to_screen((shape.x, shape.y))
            Line(rectangle=(x, top - shape.h * s, shape.w * s, shape.h * s), width=dp(1.5))
            self._label(label, x + dp(3), top - dp(3), colour)
        elif isinstance(shape, geo.Ellipse):
            self._ring(view, shape, colour)
        elif isinstance(shape, geo.Quad):
            cols, rows = self.setup.grid()
            Color(colour[0], colour[1], colour[2], 0.45)
            for a, b in shape.grid_lines(cols, rows):
                Line(points=[*view.to_screen(a), *view.to_screen(b)], width=1)
            Color(*colour)
            pts = [c for p in shape.corners for c in view.to_screen(p)]
            Line(points=pts, close=True, width=dp(1.5))
            x, y = view.to_screen(shape.corners[0])
            self._label(label, x + dp(12), y - dp(12), colour)
        else:
            a, b = view.to_screen(shape.a), view.to_screen(shape.b)
            Line(points=[*a, *b], width=dp(2))
            self._label(label, a[0] + dp(12), a[1] - dp(12), colour)
        if name in self.setup.fixed:
            return  # found in the picture, not dragged: no handles to take
        for key, p in geo.handles(shape, name == self.selected).items():
            self._handle(view.to_screen(p), colour, key)

    def _ring(self, view, ring: geo.Ellipse, colour) -> None:
        s = view.scale
        (cx, cy), (rx, ry) = view.to_screen(ring.centre), ring.radii
        Line(ellipse=(cx - rx * s, cy - ry * s, 2 * rx * s, 2 * ry * s), width=dp(1.5))
        Color(*SELECTED)  # the hand from the centre to the first tile's handle
        Line(points=[cx, cy, *view.to_screen(geo.handles(ring)["first"])], width=dp(1.5))
        tile = self.setup.calibration().tile * s / 2
        for k, p in enumerate(ring.slots()):
            x, y = view.to_screen(p)
            Color(*(SELECTED if k == 0 else colour))
            Line(rectangle=(x - tile, y - tile, 2 * tile, 2 * tile), width=1)
            tex = text_texture(str(k + 1), sp(12))
            Rectangle(texture=tex, pos=(x - tex.width / 2, y - tile - tex.height), size=tex.size)
        Color(*colour)

    def _handle(self, p, colour, key: str) -> None:
        r = dp(HANDLE_DP)
        if key == geo.MOVE:  # a ring with a dot: the whole box goes where it is dragged
            Color(0, 0, 0, 0.7)
            Line(circle=(p[0], p[1], r), width=dp(3))
            Color(*colour)
            Line(circle=(p[0], p[1], r), width=dp(1.5))
            Ellipse(pos=(p[0] - r / 3, p[1] - r / 3), size=(2 * r / 3, 2 * r / 3))
            return
        Color(0, 0, 0, 0.7)
        Ellipse(pos=(p[0] - r - dp(2), p[1] - r - dp(2)), size=(2 * r + dp(4),) * 2)
        Color(*(SELECTED if key == "first" else colour))
        Ellipse(pos=(p[0] - r, p[1] - r), size=(2 * r, 2 * r))

    def _label(self, text: str, x: float, top: float, colour) -> None:
        if not text:
            return
        tex = text_texture(text, sp(13), colour)
        Color(0, 0, 0, 0.6)
        Rectangle(pos=(x - dp(2), top - tex.height), size=(tex.width + dp(4), tex.height))
        Color(1, 1, 1, 1)
        Rectangle(texture=tex, pos=(x, top - tex.height), size=tex.size)

    # fingers ----------------------------------------------------------------------------
    def on_touch_down(self, touch):
        # where the finger landed: on a busy machine the first move may come with the down
        if not self.collide_point(*touch.opos) or self.setup is None:
            return super().on_touch_down(touch)
        view = self.view
        p = view.to_frame(touch.opos)
        movable = {n: s for n, s in self.setup.shapes.items() if n not in self.setup.fixed}
        took = geo.hit(movable, p, sizes.MIN_TOUCH / 2 / view.scale, self.selected)
        if took is None:
            return True
        name, handle = took
        self._drag = (touch.uid, name, handle, p, self.setup.shapes[name])
        self.selected = name
        touch.grab(self)
        return True

    def on_touch_move(self, touch):
        if touch.grab_current is not self or self._drag is None or self._drag[0] != touch.uid:
            return super().on_touch_move(touch)
        _, name, handle, grab, start = self._drag
        now = self.view.to_frame(touch.pos)
        self.setup.move(name, geo.drag(start, handle, grab, now, self.frame_size))
        self._redraw()
        if self.on_change:
            self.on_change()
        return True

    def on_touch_up(self, touch):
        if touch.grab_current is not self:
            return super().on_touch_up(touch)
        touch.ungrab(self)
        self._drag = None
        return True
