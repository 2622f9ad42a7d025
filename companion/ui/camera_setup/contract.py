"""The contract a game's `camera_setup` module fills to add to the camera set-up screen
(companion/games/__init__.py):

    TABS       its own tables, each a `Tab`
    CARD_SETS  the cards the shared Balls & cards tab learns for it, each a `CardSet`

Nothing heavy is imported here: a tab's set-up (OpenCV, the vision package) loads when it
opens.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Tab:
    """One tab: the table whose set-up it edits.

    `open(data_dir, frame_size, simulated)` makes its set-up (a base.Setup), off the screen's
    thread; `lay` is what the screen asks for once the Empty table is taken ("one card");
    `naming`, when not "", is the prompt of the step where a person names, spot by spot,
    the colours of what Learn found (see base.Setup)."""

    kind: str  # the tab's key, one per tab over every game
    title: str
    open: Callable[[Path, tuple[int, int], bool], object]
    lay: str
    naming: str = ""


@dataclass(frozen=True)
class CardSet:
    """Cards the Balls & cards tab learns: `cards` are colours of the calibration's set
    `colour_set` (a set of one card is laid in every zone), or with `floors` the floor
    patterns of one card each, laid in the centre."""

    name: str  # on the screen's "Cards:" button
    colour_set: str
    cards: tuple[str, ...]
    floors: bool = False
