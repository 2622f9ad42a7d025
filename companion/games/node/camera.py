"""Node at the camera (see companion.games): the placement reader, and Node's part of the
simulated table, the table with the cards laid from each player's scripted hand
(sim_node.py)."""

from __future__ import annotations

from companion.runtime.sim_scene import ScenePart

from .read_node import NodeAdapter
from .sim_node import SimulatedNode

READERS = {"node": NodeAdapter}


class NodeScene(ScenePart):
    def __init__(self, scene) -> None:
        super().__init__(scene)
        self.node = SimulatedNode(scene.light)

    def play(self, state) -> None:
        super().play(state)
        self.node.start(state)

    def follow(self, state, kinds: set[str]) -> None:
        self.scene.view = self.node

    def act(self, what: str, state, kinds: set[str]) -> str | None:
        return self.node.lay(state) if what == "lay" else None


SCENE_PART = NodeScene
