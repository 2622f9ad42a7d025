"""Write Kivy's config.ini for the kiosk: touch from the official 7" screen, no doubled taps.

    python systemd/kivy_config.py KIVY_HOME

Kivy first writes its own defaults (so every key its version expects is there), then the
input section is replaced: Kivy reads the FT5406 touch controller itself through evdev
(`hidinput`), and the mouse provider keeps a plugged-in mouse usable without its
right-click "multitouch simulation" dots. Running it again gives the same file.
"""

from __future__ import annotations

import os
import sys

INPUT = {
    "mouse": "mouse,disable_multitouch",
    # probesysfs finds the multitouch device (FT5406 / "generic ft5x06") at start-up, so
    # the event number may change between boots without breaking touch.
    "touchscreen": "probesysfs,provider=hidinput",
}
GRAPHICS = {"fullscreen": "auto", "show_cursor": "0"}
KIVY = {"exit_on_escape": "0", "log_level": "info"}


def write(home: str) -> str:
    os.environ["KIVY_HOME"] = home
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    os.environ["KIVY_NO_FILELOG"] = "1"
    os.environ["KIVY_NO_ENV_CONFIG"] = "1"  # the service's KCFG_* must not leak into the file
    from kivy.config import Config  # creates home/config.ini with this Kivy's defaults

    for key in list(Config.options("input")):
        Config.remove_option("input", key)
    for section, values in (("input", INPUT), ("graphics", GRAPHICS), ("kivy", KIVY)):
        for key, value in values.items():
            Config.set(section, key, value)
    Config.filename = os.path.join(home, "config.ini")
    Config.write()
    return Config.filename


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: kivy_config.py KIVY_HOME")
    print(write(os.path.abspath(sys.argv[1])))
