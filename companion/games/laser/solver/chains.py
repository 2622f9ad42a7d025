"""Chain relaxations: the strong part of the Laser solver's bound.

With "straight away" a round's mixes form chains: each mix takes the previous mix's product
and one figure standing on the board, until a placed figure completes a card. Let the chain
reuse board figures freely and need only one spare of each colour it places, and what is left
is a shortest path over nodes (colour, tile), "a chain product of this colour on this tile",
numbered colour * TILES + tile. From (a, u), for each colour b that mixes with a into p while
p's colour card still holds a spare:

- the product moves onto a figure of b on tile t != u: to (p, t) for dist(u, t) MP;
- the nearest figure of b (not on u) moves onto the product: to (p, u), same price.

Reaching a node whose placed figure completes an open card ends the chain there. `targets`
lists, for each node, the positions in the open cards it completes; `offsets[i]` is a bound on
everything left once the chain completes card position i (the other cards and the cat).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..board import MIXES, TILE_DISTANCE, TILES

INF = 10**6
NODES = 6 * TILES
# (partner, product) for each colour: the two colours two steps round the circle
_STEPS = tuple(
    tuple((b, MIXES[a][b]) for b in range(6) if MIXES[a][b] is not None) for a in range(6)
)
_DIST = TILE_DISTANCE
# the other tiles by distance from each tile: (distance, tile), nearest first
_BY_DISTANCE = tuple(
    tuple(sorted((_DIST[t][u], u) for u in range(TILES) if u != t)) for t in range(TILES)
)


def targets_for(cards: Sequence[tuple[int, int]]) -> list[tuple[int, ...]]:
    """For each node, the positions in `cards` ((colour, tile mask) each) it completes."""
    out: list[tuple[int, ...]] = [()] * NODES
    for i, (colour, mask) in enumerate(cards):
        for t in range(TILES):
            if mask >> t & 1:
                out[colour * TILES + t] += (i,)
    return out


def forward(
    tiles: Sequence[int],
    supply: Sequence[int],
    at: Sequence[Sequence[int]],
    head: int,
    targets: Sequence[tuple[int, ...]],
    offsets: Sequence[int],
    cap: int,
) -> int:
    """The least chain cost plus offset over chains completing a card: the chain of the product
    on `head`, or (head < 0) a new chain from any figure. More than `cap` reads as cap + 1.
    A new chain comes before any other card's, so only figures on the board help it."""
    best = INF
    least = min(offsets)
    dist = [INF] * NODES
    buckets: list[list[int]] = [[] for _ in range(cap + 1)]
    if head >= 0:
        leaves = [[t for t in ts if t != head] for ts in at]
        dist[tiles[head] * TILES + head] = 0
        buckets[0].append(tiles[head] * TILES + head)
    else:
        leaves = at
        for c in range(6):
            for t in at[c]:
                dist[c * TILES + t] = 0
                buckets[0].append(c * TILES + t)
    for level in range(cap + 1):
        if level + 1 + least >= best or level + 1 + least > cap:
            break
        for node in buckets[level]:
            if dist[node] != level:
                continue
            a, u = divmod(node, TILES)
            du = _DIST[u]
            for b, p in _STEPS[a]:
                if not supply[p]:
                    continue
                base = p * TILES
                # the product moves onto a figure of b on t, or the nearest such figure
                # moves onto the product on u
                reached = [(level + du[t], base + t) for t in leaves[b] if t != u]
                if reached:
                    reached.append((min(reached)[0], base + u))
                for v, node in reached:
                    if v + least > cap:
                        continue
                    done = targets[node]
                    if done:
                        for i in done:
                            if v + offsets[i] < best:
                                best = v + offsets[i]
                    elif v < dist[node]:
                        dist[node] = v
                        buckets[v].append(node)
    return best if best <= cap else cap + 1


def backward(
    tiles: Sequence[int],
    supply: Sequence[int],
    at: Sequence[Sequence[int]],
    targets: Sequence[tuple[int, ...]],
    offsets: Sequence[int],
    cap: int,
) -> list[int]:
    """For every node, the least cost of going on from it to a completed card, plus that
    card's offset (INF past `cap`). Computed on one board, it bounds every later state of a
    chain started there: those boards only lack figures the relaxation may reuse anyway."""
    togo = [INF] * NODES
    buckets: list[list[int]] = [[] for _ in range(cap + 1)]

    def reach(node: int, base: int) -> None:
        """Relax every chain step that ends on `node`, which costs `base` to finish from."""
        p, t = divmod(node, TILES)
        pa, pb = (p - 1) % 6, (p + 1) % 6
        dt = _DIST[t]
        b = tiles[t]
        if b in (pa, pb):  # the product, of the other parent, moved onto the figure on t
            a = (pb if b == pa else pa) * TILES
            for d, u in _BY_DISTANCE[t]:
                v = base + d
                if v > cap:
                    break
                if tiles[u] >= 0 and v < togo[a + u]:
                    togo[a + u] = v
                    buckets[v].append(a + u)
        for a, b in ((pa, pb), (pb, pa)):  # a figure of b moved onto a product of a on t
            v = INF
            for w in at[b]:
                if w != t and dt[w] < v:
                    v = dt[w]
            v += base
            if v <= cap and v < togo[a * TILES + t]:
                togo[a * TILES + t] = v
                buckets[v].append(a * TILES + t)

    for node in range(NODES):
        done = targets[node]
        if done and supply[node // TILES] and tiles[node % TILES] >= 0:
            base = min(offsets[i] for i in done)
            if base < cap:
                reach(node, base)
    for level in range(cap + 1):
        for node in buckets[level]:
            if togo[node] == level and supply[node // TILES] and not targets[node]:
                reach(node, level)
    return togo
