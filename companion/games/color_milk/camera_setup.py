"""Color Milk's camera set-up (the contract: companion.ui.camera_setup.contract): its prediction
cards' colours and their backs, learnt on the shared Balls & cards tab."""

from __future__ import annotations

from companion.games.color_milk.mill import COLOURS
from companion.ui.camera_setup.contract import CardSet

CARD_SETS = (
    CardSet("Color Milk", "color-milk", COLOURS),
    CardSet("backs", "color-milk", ("back",)),
)
