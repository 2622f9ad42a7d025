"""The pin map: which BCM pin drives which part, read from TOML with per-install overrides.

`hardware/pins.toml` holds the defaults. An install overrides them with a file at
$COMPANION_PINS or `<data dir>/pins.toml`; only the keys present there change.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hardware.errors import PinMapError

DEFAULTS = Path(__file__).with_name("pins.toml")
ENV_VAR = "COMPANION_PINS"
BUTTON_NAMES = ("next", "bid", "impossible", "undo")


@dataclass(frozen=True)
class LedPins:
    red: int | None
    green: int | None
    blue: int | None
    common_anode: bool = False

    @property
    def fitted(self) -> bool:
        return None not in (self.red, self.green, self.blue)


@dataclass(frozen=True)
class BuzzerPin:
    pin: int | None
    kind: str = "passive"


@dataclass(frozen=True)
class ButtonPins:
    pins: tuple[tuple[str, int], ...]  # (name, BCM pin), in pin-map order
    bounce: float = 0.08
    hold: float = 1.0
    hold_buttons: frozenset[str] = frozenset({"undo"})

    def as_dict(self) -> dict[str, int]:
        return dict(self.pins)


@dataclass(frozen=True)
class BeamPin:
    pin: int | None
    active_low: bool = True
    clear: float = 0.015
    blocked: float = 1.0


@dataclass(frozen=True)
class SerialPort:
    enabled: bool = True
    port: str = "/dev/ttyACM0"
    baud: int = 115200
    counts_balls: bool = False
    colour_events: bool = False
    silent_after: float = 3.0
    backoff_min: float = 0.2
    backoff_max: float = 5.0


@dataclass(frozen=True)
class PinMap:
    led: LedPins
    buzzer: BuzzerPin
    buttons: ButtonPins
    beam: BeamPin
    serial: SerialPort
    references: tuple[tuple[str, tuple[float, float, float]], ...] = ()
    source: tuple[str, ...] = field(default=(), compare=False)  # files read, defaults first
    unreadable: str | None = field(default=None, compare=False)  # why no part is fitted

    def gpio_pins(self) -> dict[str, int]:
        """Every fitted GPIO part -> its BCM pin."""
        parts = {
            "led red": self.led.red,
            "led green": self.led.green,
            "led blue": self.led.blue,
            "buzzer": self.buzzer.pin,
            **{f"button {n}": p for n, p in self.buttons.pins},
            "beam": self.beam.pin,
        }
        return {k: v for k, v in parts.items() if v is not None}


def nothing_fitted(unreadable: str | None = None) -> PinMap:
    """A table with no parts: what runs when the pin map cannot be read (`unreadable`: why;
    touch only)."""
    return PinMap(
        LedPins(None, None, None),
        BuzzerPin(None),
        ButtonPins(()),
        BeamPin(None),
        SerialPort(enabled=False),
        unreadable=unreadable,
    )


def _merge(base: dict, over: Mapping) -> dict:
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, Mapping) and isinstance(out.get(k), dict):
            out[k] = _merge(out[k], v)
        else:
            out[k] = v
    return out


def _read(path: Path) -> dict:
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise PinMapError(f"{path}: not valid TOML: {exc}") from None


def override_path(data_dir: str | os.PathLike | None = None) -> Path | None:
    """The per-install pin map, if any: $COMPANION_PINS, else <data dir>/pins.toml."""
    env = os.environ.get(ENV_VAR)
    if env:
        p = Path(env).expanduser()
        if not p.exists():
            raise PinMapError(f"${ENV_VAR} names {p}, which does not exist")
        return p
    if data_dir is not None:
        p = Path(data_dir) / "pins.toml"
        if p.exists():
            return p
    return None


def load(path: str | os.PathLike | None = None, *, data_dir=None) -> PinMap:
    """Defaults merged with `path` (or the per-install override when `path` is None)."""
    raw = _read(DEFAULTS)
    sources = [str(DEFAULTS)]
    extra = Path(path) if path is not None else override_path(data_dir)
    if extra is not None:
        raw = _merge(raw, _read(extra))
        sources.append(str(extra))
    return from_dict(raw, source=tuple(sources))


def _pin(section: str, key: str, value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PinMapError(f"[{section}] {key} must be a BCM pin number, not {value!r}")
    if value == -1:
        return None
    if not 0 <= value <= 27:
        raise PinMapError(f"[{section}] {key} = {value} is not a BCM GPIO pin (0-27)")
    return value


def _number(section: str, key: str, value: Any, lo: float, hi: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not lo <= value <= hi:
        raise PinMapError(f"[{section}] {key} must be a number from {lo} to {hi}, not {value!r}")
    return float(value)


def from_dict(raw: Mapping[str, Any], source: tuple[str, ...] = ()) -> PinMap:
    try:
        led_raw, buz_raw = raw["led"], raw["buzzer"]
        btn_raw, beam_raw, ser_raw = raw["buttons"], raw["beam"], raw["serial"]
    except KeyError as exc:
        raise PinMapError(f"pin map has no [{exc.args[0]}] section") from None
    led = LedPins(
        red=_pin("led", "red", led_raw.get("red", -1)),
        green=_pin("led", "green", led_raw.get("green", -1)),
        blue=_pin("led", "blue", led_raw.get("blue", -1)),
        common_anode=bool(led_raw.get("common_anode", False)),
    )
    kind = buz_raw.get("kind", "passive")
    if kind not in ("passive", "active"):
        raise PinMapError(f'[buzzer] kind must be "passive" or "active", not {kind!r}')
    buzzer = BuzzerPin(_pin("buzzer", "pin", buz_raw.get("pin", -1)), kind)
    opts = btn_raw.get("options", {})
    pins = []
    for name, value in btn_raw.items():
        if name == "options":
            continue
        p = _pin("buttons", name, value)
        if p is not None:
            pins.append((name, p))
    hold = opts.get("hold", ["undo"])
    if not isinstance(hold, list) or not all(isinstance(h, str) for h in hold):
        raise PinMapError("[buttons.options] hold must be a list of button names")
    buttons = ButtonPins(
        pins=tuple(pins),
        bounce=_number("buttons.options", "bounce_ms", opts.get("bounce_ms", 80), 0, 1000) / 1e3,
        hold=_number("buttons.options", "hold_ms", opts.get("hold_ms", 1000), 100, 10_000) / 1e3,
        hold_buttons=frozenset(hold),
    )
    beam = BeamPin(
        pin=_pin("beam", "pin", beam_raw.get("pin", -1)),
        active_low=bool(beam_raw.get("active_low", True)),
        clear=_number("beam", "clear_ms", beam_raw.get("clear_ms", 15), 0, 1000) / 1e3,
        blocked=_number("beam", "blocked_ms", beam_raw.get("blocked_ms", 1000), 50, 60_000) / 1e3,
    )
    serial = SerialPort(
        enabled=bool(ser_raw.get("enabled", True)),
        port=str(ser_raw.get("port", "/dev/ttyACM0")),
        baud=int(_number("serial", "baud", ser_raw.get("baud", 115200), 300, 4_000_000)),
        counts_balls=bool(ser_raw.get("counts_balls", False)),
        colour_events=bool(ser_raw.get("colour_events", False)),
        silent_after=_number(
            "serial", "silent_after_s", ser_raw.get("silent_after_s", 3.0), 0.1, 3600
        ),
        backoff_min=_number(
            "serial", "backoff_min_s", ser_raw.get("backoff_min_s", 0.2), 0.001, 60
        ),
        backoff_max=_number(
            "serial", "backoff_max_s", ser_raw.get("backoff_max_s", 5.0), 0.001, 600
        ),
    )
    refs = []
    for name, shares in raw.get("sensor", {}).get("references", {}).items():
        if (
            not isinstance(shares, list)
            or len(shares) != 3
            or not all(isinstance(x, int | float) for x in shares)
        ):
            raise PinMapError(f"[sensor.references] {name} must be three numbers [r, g, b]")
        refs.append((name, (float(shares[0]), float(shares[1]), float(shares[2]))))
    pm = PinMap(led, buzzer, buttons, beam, serial, tuple(refs), source)
    used: dict[int, str] = {}
    for part, p in pm.gpio_pins().items():
        if p in used:
            raise PinMapError(f"BCM {p} is used twice: {used[p]} and {part}")
        used[p] = part
    if pm.serial.port in ("", None):
        raise PinMapError("[serial] port must name a device")
    return pm
