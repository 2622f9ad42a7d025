"""The four scenes of the rendered development set: their calibration frames, a set-up's
frames and the truth of each, in the table-renders format (image pixels of the moved camera).

Each scene lays its pieces anew for every set-up and frame and renders them with the
project's renderer at the nominal table (`vision.render.tray`, `render_cards`, `render_ring`,
`render_node`); `vision.render.conditions` makes the moved camera's frame of it.

scene         a frame to render with its truth, and what every scene answers
balls_row     the ball tray;  cards_zones: the seat zones and the centre
laser_ring    the Laser ring;  node_table: the Node grid
"""

from vision.render.scenes.balls_row import BallsRow
from vision.render.scenes.cards_zones import CardsZones
from vision.render.scenes.laser_ring import LaserRing
from vision.render.scenes.node_table import NodeTable

SCENES = ("balls_row", "cards_zones", "laser_ring", "node_table")

SCENE_TYPES = {
    "balls_row": BallsRow,
    "cards_zones": CardsZones,
    "laser_ring": LaserRing,
    "node_table": NodeTable,
}
