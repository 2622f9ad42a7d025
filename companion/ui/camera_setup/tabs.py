"""The tabs the camera set-up screen shows: Balls & cards first, then the games' own tabs
(their `camera_setup` modules' `TABS`, see contract.py) in the catalogue's order.
"""

from __future__ import annotations

from pathlib import Path

from companion import catalogue
from companion.ui.camera_setup.contract import CardSet, Tab


def _open_cards(data_dir: Path, frame_size, simulated: bool):
    from companion.ui.camera_setup.cards import CardsSetup
    from vision.doctor import calibration_path

    return CardsSetup(calibration_path(data_dir), frame_size, card_sets())


CARDS = Tab("cards", "Balls & cards", _open_cards, "the balls and the cards")


def tabs() -> tuple[Tab, ...]:
    """Balls & cards, then every game's own tabs."""
    found = (CARDS, *(t for m in catalogue.camera_setups() for t in getattr(m, "TABS", ())))
    kinds = [t.kind for t in found]
    twice = sorted({k for k in kinds if kinds.count(k) > 1})
    if twice:
        raise ValueError(f"camera set-up tabs named twice: {', '.join(twice)}")
    return found


def card_sets() -> tuple[CardSet, ...]:
    """Every game's card sets, in the catalogue's order."""
    return tuple(s for m in catalogue.camera_setups() for s in getattr(m, "CARD_SETS", ()))
