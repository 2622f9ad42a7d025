"""Imported first by a benchmark that draws Kivy screens without a display: the project on
the path, and Kivy offscreen (SDL's offscreen driver), with no console log and no parsing of
the benchmark's own arguments."""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
