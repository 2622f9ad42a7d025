"""Put the test-only sixth game on the catalogue's search path, and take it off again."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import companion.games

FOLDER = str(Path(__file__).parent)


@contextmanager
def sixth_game_in_catalogue():
    """While inside, `companion.games` finds `colour_race` as if it were one of its folders."""
    added = FOLDER not in companion.games.__path__
    if added:
        companion.games.__path__.append(FOLDER)
    try:
        yield
    finally:
        if added:
            companion.games.__path__.remove(FOLDER)
