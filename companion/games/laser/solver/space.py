"""The Laser solver's state space: a round as a compact state and the legal moves from it.

Movement rules (CLARIFICATIONS.md): every figure move is a mix onto a compatible figure; the
mover pays the tiles travelled (either way round); both figures leave the board and the
product is placed on the destination if its colour card still holds a figure. A card is
completed when a placed figure matches it (colour, and floor in competitive mode) or when the
cat, once a round and only onto a matching figure, removes one. The cat pays 2 MP a tile in
team mode, 1 in competitive mode.

"No unneeded moves": a mixed figure must either complete a card or be used in the very next
mix ("straight away", the rulebook's words; `straight_away=False` lets it wait for any later
mix). The state carries this as a mask of tiles holding a product still owed a use, so every
move list the searches return is legal at the table.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..board import COMPETITIVE, MIXES, TILE_DISTANCE, TILES, Card, Position
from .chains import INF
from .moves import Move

_MIX = MIXES
# the colours each colour mixes with
PARTNERS = [tuple(b for b in range(6) if _MIX[a][b] is not None) for a in range(6)]
_DIST = TILE_DISTANCE

# Search state: (tiles, supply, cat, open, owed)
#   tiles  tuple of 12 colour indices, -1 for empty
#   supply tuple of 6 spare counts on the colour cards
#   cat    the cat's tile, -1 once it has moved
#   open   sorted tuple of open card kinds (indices into Space.kinds), repeats allowed
#   owed   bit mask of tiles holding a product that must still be used
State = tuple


class Space:
    """The moves of one position's round; the searches build on it."""

    def __init__(self, pos: Position, straight_away: bool = True) -> None:
        self.pos = pos
        self.straight_away = straight_away
        self.catk = pos.cat_cost
        kinds = sorted(set(pos.cards), key=lambda c: (c.colour, -1 if c.floor is None else c.floor))
        self.kinds: tuple[Card, ...] = tuple(kinds)
        floors = pos.floors if pos.mode == COMPETITIVE else None
        self.floors = floors
        # match[k][t]: a figure of kind k's colour on tile t completes kind k
        self.match = [
            [floors is None or k.floor is None or floors[t] == k.floor for t in range(TILES)]
            for k in self.kinds
        ]
        self.kcol = [k.colour for k in self.kinds]
        self.kmask = [sum(1 << t for t in range(TILES) if m[t]) for m in self.match]
        self.anywhere = [all(m) for m in self.match]
        self.start: State = (
            tuple(-1 if t is None else t for t in pos.tiles),
            tuple(pos.supply),
            pos.cat,
            tuple(sorted(self.kinds.index(c) for c in pos.cards)),
            0,
        )
        self.in_play = sum(1 for t in pos.tiles if t is not None) + sum(pos.supply)

    # the moves -------------------------------------------------------------------------
    def removed(self, s: State) -> int:
        on_board = sum(1 for t in s[0] if t >= 0)
        return self.in_play - on_board - sum(s[1])

    @staticmethod
    def is_goal(s: State) -> bool:
        return not s[3] and not s[4]

    def successors(
        self, s: State, long_way: bool, budget: int = INF
    ) -> Iterable[tuple[tuple, int, State]]:
        """(step, cost, next state) for every legal move costing at most `budget`."""
        for step, cost in self.steps(s, long_way, budget):
            yield step, cost, self.apply(s, step)

    def steps(self, s: State, long_way: bool, budget: int = INF) -> Iterable[tuple[tuple, int]]:
        """(step, cost) for every legal move costing at most `budget`; a step is the light
        tuple (kind, src, dst, steps, clockwise, completed card kind or -1), see make_move.
        The searches weigh a step before they pay for building the state it leads to."""
        tiles, supply, cat, open_, owed = s
        kinds, match = self.kinds, self.match
        occupied = [t for t in range(TILES) if tiles[t] >= 0]
        # straight away: a product owed a use must take part in the very next mix
        must = owed.bit_length() - 1 if (owed and self.straight_away) else -1
        if must >= 0:
            mixes = _MIX[tiles[must]]
            pairs = [(must, t) for t in occupied if mixes[tiles[t]] is not None]
            pairs += [(t, must) for _, t in pairs]
        else:
            at: list[list[int]] = [[], [], [], [], [], []]
            for t in occupied:
                at[tiles[t]].append(t)
            pairs = [(a, b) for a in occupied for c in PARTNERS[tiles[a]] for b in at[c]]
        half = TILES // 2
        for src, dst in pairs:
            p = _MIX[tiles[src]][tiles[dst]]
            short = _DIST[src][dst]
            if not supply[p] or short > budget:
                continue  # a mix placing nothing serves no card
            done = -1
            for k in open_:
                if kinds[k].colour == p and match[k][dst]:
                    done = k
                    break
            cw = (dst - src) % TILES == short
            yield ("mix", src, dst, short, cw, done), short
            if long_way and short != half and TILES - short <= budget:
                yield ("mix", src, dst, TILES - short, not cw, done), TILES - short
        if cat >= 0 and must < 0:
            catk = self.catk
            for i, k in enumerate(open_):
                if i and open_[i - 1] == k:
                    continue
                x = kinds[k].colour
                mk = match[k]
                for t in occupied:
                    short = _DIST[cat][t]
                    if tiles[t] != x or not mk[t] or short * catk > budget:
                        continue
                    cw = (t - cat) % TILES == short
                    yield ("cat", cat, t, short, cw, k), short * catk
                    if long_way and short != half and (TILES - short) * catk <= budget:
                        yield ("cat", cat, t, TILES - short, not cw, k), (TILES - short) * catk

    @staticmethod
    def apply(s: State, step: tuple) -> State:
        """The state a legal step leads to."""
        tiles, supply, cat, open_, owed = s
        kind, src, dst, _steps, _cw, done = step
        new_tiles = list(tiles)
        new_tiles[dst] = -1
        if done >= 0:
            i = open_.index(done)
            open_ = open_[:i] + open_[i + 1 :]
        if kind == "cat":
            return (tuple(new_tiles), supply, -1, open_, owed & ~(1 << dst))
        p = _MIX[tiles[src]][tiles[dst]]
        new_tiles[src] = -1
        new_tiles[dst] = p
        new_supply = list(supply)
        new_supply[p] -= 1
        owed &= ~((1 << src) | (1 << dst))
        if done < 0:
            owed |= 1 << dst
        return (tuple(new_tiles), tuple(new_supply), cat, open_, owed)

    def make_move(self, s: State, step: tuple) -> Move:
        """The full Move for a light step taken from state `s`."""
        kind, src, dst, steps, cw, done = step
        card = self.kinds[done] if done >= 0 else None
        tiles = s[0]
        if kind == "cat":
            return Move("cat", src, dst, steps, cw, steps * self.catk, tiles[dst], completes=card)
        a, b = tiles[src], tiles[dst]
        return Move("mix", src, dst, steps, cw, steps, a, b, _MIX[a][b], card)
