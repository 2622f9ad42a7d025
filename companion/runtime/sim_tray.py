"""The simulated table's tray and card zones, drawn as the camera would see them: the balls
dropped on the simulated chute roll into the tray, cards lie in the seats' zones and in the
centre (vision.render.cards)."""

from __future__ import annotations

import threading

BALL_COLOURS = ("blue", "green", "orange", "pink", "purple")


class SimulatedTray:
    """The balls that rolled out this round and the cards laid, as the camera sees them."""

    def __init__(self, light: str = "daylight") -> None:
        self.light = light
        self.round = 0
        self._balls: list[str] = []
        self._seats: dict[str, tuple[str, ...]] = {}  # zone -> cards laid ("back": face down)
        self._lock = threading.Lock()
        self._drawing = threading.Lock()
        self._drawn: tuple | None = None  # ((balls, round), seats) of the picture below
        self._picture = None

    def lay(self, zone: str, cards) -> None:
        """Lay `cards` in a zone (replacing what lay there); () takes them away."""
        with self._lock:
            self._seats[zone] = tuple(cards)

    def laid(self, zone: str) -> tuple[str, ...]:
        with self._lock:
            return self._seats.get(zone, ())

    def clear_cards(self) -> None:
        with self._lock:
            self._seats.clear()

    def add(self, colour: str | None) -> None:
        """A ball rolls in; one more than the tray's cups (turned out of the mill after the
        round's last) rolls on past them, out of the camera's view."""
        from vision.render.tray import TRAY_SLOTS

        if colour:
            with self._lock:
                if len(self._balls) < TRAY_SLOTS:
                    self._balls.append(colour)

    def restore(self, balls) -> None:
        """The tray as a resumed round left it: these balls lie in it (none: emptied)."""
        with self._lock:
            if list(balls) != self._balls:
                self._balls = list(balls)
                self.round += 1

    def clear(self) -> None:
        with self._lock:
            self._balls.clear()
            self.round += 1

    def balls(self) -> tuple[str, ...]:
        with self._lock:
            return tuple(self._balls)

    def frame(self, i: int, empty: bool = False):
        """The tray as the camera sees it (`empty`: before this round's balls), drawn again
        only when a ball arrived, a card was laid or a round began: in between the camera
        gets the same picture, so no frame is rendered for nothing and the renderer's caches
        (some 45 MB of scenes) need not be kept."""
        from vision.render.tray import clear_caches, render_tray

        with self._lock:
            key = (() if empty else tuple(self._balls), self.round)
            seats = () if empty else tuple((z, c) for z, c in sorted(self._seats.items()) if c)
        with self._drawing:
            if (key, seats) != self._drawn:
                if seats:
                    from vision.render.cards import render_seats

                    self._picture = render_seats(
                        dict(seats), self.light, key[1], frame=i, angle=15, balls=list(key[0])
                    )
                else:
                    self._picture = render_tray(list(key[0]), self.light, key[1], frame=i)
                self._drawn = (key, seats)
                clear_caches()
            return self._picture
