"""Node's clusters after a card: placed nodes join or start clusters of their colour, and a
cluster that grew to strictly the largest of its colour is captured by the placer."""

from __future__ import annotations

from companion.cues import Announce, Cue, Scored
from companion.words import plural

from .geometry import components, neighbours
from .state import Cluster, NodeState, Placement


def grow(state: NodeState, placement: Placement) -> tuple[list[Cluster], list[Cluster]]:
    """Clusters after the placement, and those that gained nodes (each at least one node
    bigger than the largest cluster it absorbed)."""
    by_cell = {cell: k for k in state.clusters for cell in k.cells}
    clusters = list(state.clusters)
    grown: list[Cluster] = []
    for colour in sorted({placement.cells[c] for c in placement.new}):
        fresh = [c for c in placement.new if placement.cells[c] == colour]
        for comp in components(fresh):
            absorbed = {
                id(by_cell[n]): by_cell[n]
                for cell in comp
                for n in neighbours(cell)
                if n in by_cell and by_cell[n].colour == colour
            }
            cells = set(comp)
            for k in absorbed.values():
                cells |= k.cells
            owners = {k.owner for k in absorbed.values() if k.owner}
            merged = Cluster(colour, frozenset(cells), owners.pop() if owners else None)
            clusters = [k for k in clusters if id(k) not in absorbed] + [merged]
            for cell in merged.cells:
                by_cell[cell] = merged
            grown.append(merged)
    # Two fresh components may have been joined through the same old cluster: keep only
    # clusters still current.
    grown = [k for k in grown if any(k is c for c in clusters)]
    return clusters, grown


def capture_cues(state: NodeState, cluster: Cluster, player: str) -> list[Cue]:
    before = state.owner_of(cluster.colour)
    cues: list[Cue] = [
        Announce(f"{player} captures the {cluster.colour} cluster ({plural(cluster.size, 'node')})")
    ]
    if before != player:
        cues.append(Scored(player, 1))
    if before and before != player:
        cues += [Scored(before, -1), Announce(f"{before} loses {cluster.colour}")]
    return cues
