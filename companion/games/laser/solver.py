"""Exact Laser solver: the fewest movement points that complete every revealed prism card.

Movement rules (CLARIFICATIONS.md): every figure move is a mix onto a compatible figure; the
mover pays the tiles travelled (either way round); both figures leave the board and the
product is placed on the destination if its colour card still holds a figure. A card is
completed when a placed figure matches it (colour, and floor in competitive mode) or when the
cat, once a round and only onto a matching figure, removes one. The cat pays 2 MP a tile in
team mode, 1 in competitive mode.

"No unneeded moves": a mixed figure must either complete a card or be used in the very next
mix ("straight away", the rulebook's words; `straight_away=False` lets it wait for any later
mix). The search carries this as a mask of tiles holding a product still owed a use, so the
move lists it returns and the exact totals it reports are all legal at the table. With the
rule, a solution is a sequence of chains, each ending in a completed card.

The optimum comes from A* with two admissible bounds. The quick bound charges every open
card its own completing move: at least the distance between two parent figures, or the
cheapest two-mix chain, or 3 for longer chains (less when another open card's figure, whose
placing move that card pays for, is a parent or grandparent); the cat covers at most one
card at its own price; counting spares rules out hopeless states. With "straight away" the
chain bounds (chains.py) lift it: the next chain must complete some card using only the
figures standing on the board, then the other cards cost at least their quick bound. A state
between chains gets the forward chain bound when it comes up; the states inside a chain read
theirs from one backward pass made where the chain starts.

Exact totals come from a depth-first search per bid that stops at the first way found, the
removed-figure counts per cost from a memoised depth-first profile of every completion within
a budget, and impossibility from a depth-first search with the costs ignored; all three are
pruned by the same bounds.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from companion.errors import IllegalMove

from . import chains
from .board import (
    COLOURS,
    COMPETITIVE,
    FLOORS,
    MIXES,
    TEAM,
    TILE_DISTANCE,
    TILES,
    Card,
    Position,
    distance,
    parents,
)
from .chains import INF

DEFAULT_MAX_COST = 20
# more than any round can cost: at most 10 mixes (each leaves one figure fewer) of at most
# 6 MP the short way, and one cat move of at most 12 MP
MOST = 100
TEAM_BIDS = range(2, 11)

_MIX = MIXES
_PARTNERS = [tuple(b for b in range(6) if _MIX[a][b] is not None) for a in range(6)]
_DIST = TILE_DISTANCE
# Colour-circle distance 0-3; an owed product of colour p needs at least this many more mixes
# to reach an open card of colour x (2 when p == x: it must mix away and back).
_NEED = [[(min((x - p) % 6, (p - x) % 6) or 2) for x in range(6)] for p in range(6)]


@dataclass(frozen=True)
class Move:
    """One step of a solution: a mix (figure from src onto dst) or the cat's one move."""

    kind: str  # "mix" | "cat"
    src: int
    dst: int
    steps: int  # tiles travelled
    clockwise: bool
    cost: int  # movement points paid
    colour: int  # the moving figure (cat: the figure it removes)
    onto: int | None = None  # mix: the figure it lands on
    makes: int | None = None  # mix: the colour placed on dst
    completes: Card | None = None

    @property
    def removed(self) -> int:
        return 2 if self.kind == "mix" else 1

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "from": self.src,
            "to": self.dst,
            "steps": self.steps,
            "direction": "clockwise" if self.clockwise else "anticlockwise",
            "cost": self.cost,
            "colour": COLOURS[self.colour],
            "onto": None if self.onto is None else COLOURS[self.onto],
            "makes": None if self.makes is None else COLOURS[self.makes],
            "completes": None if self.completes is None else self.completes.label(),
        }

    def describe(self) -> str:
        way = "clockwise" if self.clockwise else "anticlockwise"
        tiles = f"{self.steps} tile{'s' if self.steps != 1 else ''} {way}"
        done = f", completes {self.completes.label()}" if self.completes else ""
        if self.kind == "cat":
            return (
                f"cat {self.src}->{self.dst} ({tiles}, {self.cost} MP) "
                f"takes {COLOURS[self.colour]}{done}"
            )
        return (
            f"{COLOURS[self.colour]} {self.src}->{self.dst} ({tiles}, {self.cost} MP) onto "
            f"{COLOURS[self.onto]} makes {COLOURS[self.makes]}{done}"
        )


@dataclass(frozen=True)
class Solution:
    min_cost: int | None  # None: no solution within max_cost
    moves: tuple[Move, ...]  # one optimal solution (the one removing most figures)
    removed: int  # figures that solution removes
    max_removed: int  # most figures removable at the optimal cost
    impossible: bool  # no solution at any cost
    exact_totals: tuple[int, ...]  # team: every bid 2-10 that can be spent exactly

    def to_json(self) -> dict[str, Any]:
        return {
            "min_cost": self.min_cost,
            "moves": [m.to_json() for m in self.moves],
            "removed": self.removed,
            "max_removed": self.max_removed,
            "impossible": self.impossible,
            "exact_totals": list(self.exact_totals),
        }


# Search state: (tiles, supply, cat, open, owed)
#   tiles  tuple of 12 colour indices, -1 for empty
#   supply tuple of 6 spare counts on the colour cards
#   cat    the cat's tile, -1 once it has moved
#   open   sorted tuple of open card kinds (indices into _Search.kinds), repeats allowed
#   owed   bit mask of tiles holding a product that must still be used
State = tuple


_FULL = (1 << TILES) - 1


def _near(mask: int) -> int:
    """The tiles next to any tile in `mask` (the circle wraps)."""
    return ((mask << 1) | (mask >> 1) | (mask >> (TILES - 1)) | (mask << (TILES - 1))) & _FULL


def _short_of_figures(at, supply, ncol, cat_free: bool) -> bool:
    """Whether counting alone shows the open cards cannot all be completed. A card a mix
    completes takes a spare of its colour, and the cat completes one card at most. A colour
    with no spare left cannot be made, so the figures of it the cards need must stand on
    the board already: one for its own card (the cat's, then) and one for the last mix of
    each card it is a parent of, but for one such card the cat may take instead."""
    if sum(max(0, ncol[c] - supply[c]) for c in range(6)) > cat_free:
        return True
    for z in range(6):
        if not supply[z]:
            need = ncol[(z - 1) % 6] + ncol[(z + 1) % 6]
            need += ncol[z] if ncol[z] else -cat_free
            if need > len(at[z]):
                return True
    return False


class _Parts(NamedTuple):
    """The quick bound's pieces for one state, which the chain bounds build on."""

    tiles: tuple[int, ...]  # the board the chains may use (less a figure kept for the cat)
    at: list[list[int]]  # tiles of each colour on that board
    ms: list[int]  # each open card's own bound (by position in the open cards)
    cs: list[int]  # the cat's price for each open card (INF: it cannot)
    total: int  # sum of ms
    colours: list[int]  # each open card's colour
    forced: int  # a colour with more open cards than spares (the cat must take one), or -1


def _cat_saving(ms, cs, colours, forced: int, skip: int = -1) -> int:
    """The most the cat saves by taking one card (not position `skip`) at its price `cs`
    instead of the card's own bound `ms`. If colour `forced` has more open cards than spares,
    the cat must take one of those, and may save less than nothing."""
    cards = [j for j in range(len(ms)) if j != skip]
    if forced < 0:
        return max([ms[j] - cs[j] for j in cards] + [0])
    return max([ms[j] - cs[j] for j in cards if colours[j] == forced], default=-INF)


class _Search:
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
        self._h: dict[State, int] = {}
        self._parts: dict[State, _Parts] = {}
        self._refined: dict[State, tuple[int, int]] = {}  # (bound, cap it was computed to)
        self._chains: dict[State, tuple[int, tuple]] = {}  # (cap, chain_bounds)
        self._target_cache: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
        self._profile: dict[State, tuple[int, dict[int, int]]] = {}
        self._spends: dict[tuple[State, int], bool] = {}

    # rules ------------------------------------------------------------------------
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
            pairs = [(a, b) for a in occupied for c in _PARTNERS[tiles[a]] for b in at[c]]
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

    # the admissible bound ------------------------------------------------------------
    def h(self, s: State) -> int:
        got = self._h.get(s)
        if got is None:
            got = self._h[s] = self._bound(s)
        return got

    def _bound(self, s: State) -> int:
        tiles, supply, cat, open_, owed = s
        if not open_:
            return 0 if not owed else INF
        at: list[list[int]] = [[], [], [], [], [], []]
        occ = 0
        for t in range(TILES):
            c = tiles[t]
            if c >= 0:
                at[c].append(t)
                occ |= 1 << t
        # colours that could ever be on the board (ignoring counts and distances)
        have = [bool(at[0]), bool(at[1]), bool(at[2]), bool(at[3]), bool(at[4]), bool(at[5])]
        if not all(have):
            grew = True
            while grew:
                grew = False
                for c in range(6):
                    if not have[c] and supply[c] and have[(c - 1) % 6] and have[(c + 1) % 6]:
                        have[c] = grew = True
        match, kcol, kmask, anywhere = self.match, self.kcol, self.kmask, self.anywhere
        open_colours = {kcol[k] for k in open_}
        ncol = [0] * 6
        for k in open_:
            ncol[kcol[k]] += 1
        if _short_of_figures(at, supply, ncol, cat >= 0):
            return INF
        dist = _DIST
        catk = self.catk
        total = 0
        last = len(open_) - 1
        ms, cs = [], []
        for i, k in enumerate(open_):
            x = kcol[k]
            pa, pb = (x - 1) % 6, (x + 1) % 6
            if supply[x] and have[pa] and have[pb] and occ & kmask[k]:
                direct = INF
                mk = match[k]
                free = anywhere[k]
                for a in at[pa]:
                    da = dist[a]
                    for b in at[pb]:
                        d = da[b]
                        if d < direct and (free or mk[a] or mk[b]):
                            direct = d
                if direct <= 2:
                    m = direct
                else:
                    m = min(direct, self._two_mixes(at, supply, k, pa, pb), 3)
                    # the two-mix chain's first mix may take another open card's figure (a
                    # grandparent colour), which that card pays to place: then only this
                    # card's two mixes remain, 2 MP if both can be one tile long
                    if (
                        m > 2
                        and (ncol[x] > 1 or ncol[(x - 2) % 6] or ncol[(x + 2) % 6])
                        and self._short_chain_via_card(at, occ, supply, open_, k, x)
                    ):
                        m = 2
                if m > 1 and (pa in open_colours or pb in open_colours):
                    m = min(m, self._via_card(s, at, occ, k, pa, pb, open_colours))
            else:
                m = INF
            if cat >= 0:
                c = INF
                mk = match[k]
                dc = dist[cat]
                for t in at[x]:
                    if mk[t] and dc[t] * catk < c:
                        c = dc[t] * catk
                if supply[x] and (
                    (i > 0 and open_[i - 1] == k) or (i < last and open_[i + 1] == k)
                ):
                    c = min(c, catk)  # the cat may take the twin card's placed figure
                cs.append(c)
            else:
                cs.append(INF)
            ms.append(m)
            total += m
        # a colour with more open cards than spares leaves one of them to the cat
        forced = next((c for c in range(6) if ncol[c] > supply[c]), -1)
        colours = [kcol[k] for k in open_]
        bound = total - _cat_saving(ms, cs, colours, forced)
        if bound >= INF:
            return INF
        chain_tiles, chain_at = tiles, at
        if forced >= 0 and len(set(open_)) == len(open_):
            # no twin card: the cat's figure stands on the board now; if only one can be
            # it, no chain may use it
            spots = [t for t in at[forced] if any(match[k][t] for k in open_ if kcol[k] == forced)]
            if len(spots) == 1 and not owed >> spots[0] & 1:
                chain_tiles = tiles[: spots[0]] + (-1,) + tiles[spots[0] + 1 :]
                chain_at = [[t for t in ts if t != spots[0]] for ts in at]
        self._parts[s] = _Parts(chain_tiles, chain_at, ms, cs, total, colours, forced)
        while owed:
            low = owed & -owed
            owed ^= low
            head = low.bit_length() - 1
            p = tiles[head]
            need = min(_NEED[p][x] for x in open_colours)
            # straight away: the head's next mix costs at least the way to its nearest
            # partner (a partner mixed later could be closer when products may wait)
            step = 1
            if self.straight_away:
                step = INF
                dh = dist[head]
                for q in _PARTNERS[p]:
                    if supply[_MIX[p][q]]:
                        for u in at[q]:
                            if dh[u] < step:
                                step = dh[u]
            if step + need - 1 > bound:
                bound = step + need - 1
        return bound if bound < INF else INF

    def _rest(self, s: State) -> list[int]:
        """For each open card position i: a bound on all that is left once a chain completes
        card i, namely the other cards' own bounds less the cat's best saving among them."""
        p = self._parts[s]
        return [
            p.total - p.ms[i] - _cat_saving(p.ms, p.cs, p.colours, p.forced, i)
            for i in range(len(p.ms))
        ]

    def refined(self, s: State, cap: int) -> int:
        """The bound raised by the next chain (straight away only): it must complete a card
        from the figures on the board now. Values over `cap` may read as cap + 1."""
        got = self._refined.get(s)
        if got is not None and (got[0] <= got[1] or got[0] > cap):
            return got[0]
        bound = self.h(s)
        if self.straight_away and s[3] and bound <= cap:
            _tiles, supply, cat, open_, owed = s
            parts = self._parts[s]
            head = owed.bit_length() - 1
            rest = self._rest(s)
            targets = self._targets(open_)
            chain = chains.forward(parts.tiles, supply, parts.at, head, targets, rest, cap)
            if head < 0 and cat >= 0 and len(open_) == 1:
                chain = min(chain, parts.cs[0])  # or the cat takes the last card
            bound = max(bound, chain)
        self._refined[s] = (bound, cap)
        return bound

    def chain_bounds(self, s: State, cap: int) -> tuple[list[int], dict[int, int], dict[int, int]]:
        """Bounds for every state of a chain started from `s` (straight away): (to go from
        each (colour, tile) node, to go once a mix completes each card kind, to go once the
        cat completes each card kind). The cards' own bounds from `s` stay valid later on:
        the moves in between belong to the chain's card."""
        got = self._chains.get(s)
        if got is not None and got[0] >= cap:
            return got[1]
        supply, open_ = s[1], s[3]
        self.h(s)
        p = self._parts[s]
        rest = self._rest(s)
        togo = chains.backward(p.tiles, supply, p.at, self._targets(open_), rest, cap)
        after = {k: rest[i] for i, k in enumerate(open_)}
        # once the cat has gone, every other card needs its mix (and spares for each)
        after_cat = {
            k: p.total - p.ms[i] if p.forced in (-1, p.colours[i]) else INF
            for i, k in enumerate(open_)
        }
        self._chains[s] = (cap, (togo, after, after_cat))
        return togo, after, after_cat

    @staticmethod
    def in_chain(chain: tuple, tiles: tuple[int, ...], step: tuple) -> int:
        """The bound of the state `step` leads to from a state with `tiles`, read from the
        chain bounds of that state."""
        togo, after, after_cat = chain
        kind, src, dst, _steps, _cw, done = step
        if kind == "cat":
            return after_cat[done]
        if done >= 0:
            return after[done]
        return togo[_MIX[tiles[src]][tiles[dst]] * TILES + dst]

    def _targets(self, open_: tuple[int, ...]) -> list[tuple[int, ...]]:
        got = self._target_cache.get(open_)
        if got is None:
            got = chains.targets_for([(self.kcol[k], self.kmask[k]) for k in open_])
            self._target_cache[open_] = got
        return got

    def _via_card(self, s: State, at, occ: int, k: int, pa: int, pb: int, open_colours) -> int:
        """Bound for completing card k with another open card's figure as one parent: that
        figure will stand on an occupied tile with its card's floor; the other parent comes
        from a figure there now, or is made first (one more move)."""
        mk, free = self.match[k], self.anywhere[k]
        best = INF
        for j in set(s[3]):
            sc = self.kcol[j]
            if j == k or sc not in (pa, pb):
                continue
            q = pb if sc == pa else pa
            if q in open_colours:
                return 1
            best = min(best, 2)
            spots = [t for t in range(TILES) if occ >> t & 1 and self.match[j][t]]
            for t in spots:
                dt = _DIST[t]
                for u in at[q]:
                    if u != t and dt[u] < best and (free or mk[t] or mk[u]):
                        best = dt[u]
        return best

    def _two_mixes(self, at, supply, k: int, pa: int, pb: int) -> int:
        """Cheapest two-mix chain placing card k's colour (figures may be reused): the first
        mix makes one parent, the other parent meets it on a tile with the card's floor."""
        mk = self.match[k]
        best = INF
        for h, o in ((pa, pb), (pb, pa)):
            if not supply[h] or not at[o]:
                continue
            h1, h2 = parents(h)
            for th in at[h1] + at[h2]:
                other = h2 if th in at[h1] else h1
                d1 = min((_DIST[i][th] for i in at[other]), default=INF)
                if d1 + 1 >= best:
                    continue
                for u in at[o]:
                    if u != th and (mk[th] or mk[u]):
                        v = d1 + _DIST[u][th]
                        if v < best:
                            best = v
        return best

    def _short_chain_via_card(self, at, occ: int, supply, open_, k: int, x: int) -> bool:
        """Whether card k can be placed by two one-tile mixes whose first takes another open
        card's figure: that figure stands on a tile occupied now with its card's floor."""
        kcol, kmask = self.kcol, self.kmask
        where = [sum(1 << t for t in at[c]) for c in range(6)]
        for j in set(open_):
            c = kcol[j]
            if (c - x) % 6 in (0, 2, 4) and (j != k or open_.count(k) > 1):
                where[c] |= occ & kmask[j]
        km = kmask[k]
        for h, o in (((x - 1) % 6, (x + 1) % 6), ((x + 1) % 6, (x - 1) % 6)):
            if not supply[h] or not at[o]:
                continue
            g1, g2 = where[(h - 1) % 6], where[(h + 1) % 6]
            # tiles where a one-tile first mix can leave h, then o one tile away meets it
            made = (g1 & _near(g2)) | (g2 & _near(g1))
            if made & km & _near(where[o]) or made & _near(where[o] & km):
                return True
        return False

    # optimum ------------------------------------------------------------------------
    def astar(self, max_cost: int) -> tuple[int | None, list[tuple[Move, State]]]:
        """The optimal cost and a path (moves with the states they lead to) to the goal
        state removing most figures among all optimal ones.

        With "straight away", a state between chains gets the refined bound when it comes
        up, and the states inside a chain take theirs from one backward pass made where the
        chain starts; otherwise every state gets the quick bound."""
        start = self.start
        h0 = self.h(start)
        if h0 > max_cost:
            return None, []
        counter = itertools.count()
        heap = [(h0, 0, next(counter), start)]  # (f, -g: deeper first on ties, n, state)
        best = {start: 0}
        parent: dict[State, tuple[State, tuple] | None] = {start: None}
        found: int | None = None
        goals: list[State] = []
        chain_of: dict[State, tuple] = {}  # a state inside a chain: its chain's bounds
        straight = self.straight_away
        while heap:
            f, g, _, s = heapq.heappop(heap)
            g = -g
            if found is not None and f > found:
                break
            if g > best[s]:
                continue
            limit = max_cost if found is None else found
            if straight and not s[4]:
                hs = self.refined(s, limit - g)
                if g + hs > f:
                    if g + hs <= limit:
                        heapq.heappush(heap, (g + hs, -g, next(counter), s))
                    continue
            if self.is_goal(s):
                found = g if found is None else found
                goals.append(s)
                continue
            hs = f - g
            chain = None
            if straight:
                chain = chain_of.get(s) or self.chain_bounds(s, limit - g - 1)
            for step, cost in self.steps(s, False, limit - g):
                ng = g + cost
                if chain is not None:  # or the parent's bound less the step, if that is more
                    hn = max(self.in_chain(chain, s[0], step), hs - cost)
                    if ng + hn > limit:
                        continue
                ns = self.apply(s, step)
                if ng >= best.get(ns, INF):
                    continue
                if chain is None:
                    hn = self.h(ns)
                    if ng + hn > limit:
                        continue
                elif ns[4]:
                    chain_of[ns] = chain
                best[ns] = ng
                parent[ns] = (s, step)
                heapq.heappush(heap, (ng + hn, -ng, next(counter), ns))
        if found is None:
            return None, []
        goal = max(goals, key=self.removed)
        path: list[tuple[Move, State]] = []
        s = goal
        while parent[s] is not None:
            prev, step = parent[s]
            path.append((self.make_move(prev, step), s))
            s = prev
        return found, path[::-1]

    # exact totals ---------------------------------------------------------------------
    def profile(self, s: State, budget: int, chain: tuple | None = None) -> dict[int, int]:
        """Every exact cost <= budget that completes the round from `s`, each with the most
        figures removed (counted from the start of the round) at that cost. `chain`: the
        bounds of the chain `s` is in, if known (see astar)."""
        if self.is_goal(s):
            return {0: self.removed(s)}
        memo = self._profile.get(s)
        if memo is not None and memo[0] >= budget:
            if memo[0] == budget:
                return memo[1]
            return {c: r for c, r in memo[1].items() if c <= budget}
        if chain is None:
            if self.refined(s, budget) > budget:
                return {}
            if self.straight_away:
                chain = self.chain_bounds(s, budget)
        out: dict[int, int] = {}
        for step, cost in self.steps(s, True, budget):
            left = budget - cost
            if chain is not None and self.in_chain(chain, s[0], step) > left:
                continue
            ns = self.apply(s, step)
            for c, r in self.profile(ns, left, chain if ns[4] else None).items():
                total = c + cost
                if r > out.get(total, -1):
                    out[total] = r
        self._profile[s] = (budget, out)
        return out

    def spends(self, s: State, left: int, chain: tuple | None = None) -> bool:
        """Whether exactly `left` more MP can complete the round from `s` (depth-first, stops
        at the first way found; both answers are remembered)."""
        if self.is_goal(s):
            return left == 0
        known = self._spends.get((s, left))
        if known is not None:
            return known
        if chain is None:
            if self.refined(s, left) > left:
                self._spends[s, left] = False
                return False
            if self.straight_away:
                chain = self.chain_bounds(s, max(left, TEAM_BIDS[-1]))
        ok = False
        for step, cost in self.steps(s, True, left):
            rest = left - cost
            if chain is not None and self.in_chain(chain, s[0], step) > rest:
                continue
            ns = self.apply(s, step)
            if self.spends(ns, rest, chain if ns[4] else None):
                ok = True
                break
        self._spends[s, left] = ok
        return ok

    def path_for(self, total: int) -> list[Move] | None:
        """A legal move list costing exactly `total` that removes the most figures."""
        want = self.profile(self.start, total).get(total)
        if want is None:
            return None
        s, left, moves = self.start, total, []
        while left:
            for step, cost, ns in self.successors(s, long_way=True):
                if cost <= left and self.profile(ns, left - cost).get(left - cost) == want:
                    moves.append(self.make_move(s, step))
                    s, left = ns, left - cost
                    break
            else:  # pragma: no cover - the profile promised a continuation
                raise AssertionError("profile and successors disagree")
        return moves

    def feasible(self) -> bool:
        """Whether any solution exists at any cost: depth-first with the costs ignored, dead
        states cut by the same bounds as the A* search."""
        seen: set[State] = set()
        stack: list[tuple[State, tuple | None]] = [(self.start, None)]
        while stack:
            s, chain = stack.pop()
            if self.is_goal(s):
                return True
            if s in seen:
                continue
            seen.add(s)
            if chain is None:
                if self.refined(s, MOST) > MOST:
                    continue
                if self.straight_away:
                    chain = self.chain_bounds(s, MOST)
            for step, _cost in self.steps(s, long_way=False):
                if chain is None or self.in_chain(chain, s[0], step) <= MOST:
                    ns = self.apply(s, step)
                    if ns not in seen:
                        stack.append((ns, chain if ns[4] else None))
        return False


# public API ------------------------------------------------------------------------------
def solve(
    pos: Position,
    max_cost: int = DEFAULT_MAX_COST,
    totals: bool | None = None,
    straight_away: bool = True,
) -> Solution:
    """Solve a position. `totals` (default: team mode only) adds every exact bid 2-10.
    `straight_away` (the rulebook's wording, default): a mixed figure that completes no card
    must be used in the very next mix; False lets it wait for any later mix."""
    search = _Search(pos, straight_away)
    cost, path = search.astar(max_cost)
    if totals is None:
        totals = pos.mode == TEAM
    exact: tuple[int, ...] = ()
    if totals and search.h(search.start) < INF:
        least = cost if cost is not None else max_cost + 1
        exact = tuple(t for t in TEAM_BIDS if t >= least and search.spends(search.start, t))
    if cost is None:
        impossible = not search.feasible()
        return Solution(None, (), 0, 0, impossible, exact)
    moves = tuple(m for m, _ in path)
    removed = sum(m.removed for m in moves)
    return Solution(cost, moves, removed, removed, False, exact)


def exact_profile(pos: Position, budget: int, straight_away: bool = True) -> dict[int, int]:
    """{exact cost: most figures removed at that cost} for every cost <= budget."""
    search = _Search(pos, straight_away)
    return dict(sorted(search.profile(search.start, budget).items()))


def max_removed_for(pos: Position, cost: int, straight_away: bool = True) -> int | None:
    """Most figures a solution costing exactly `cost` removes, or None if none costs that."""
    search = _Search(pos, straight_away)
    return search.profile(search.start, cost).get(cost)


def solution_for(pos: Position, cost: int, straight_away: bool = True) -> list[Move] | None:
    """A legal move list costing exactly `cost` (most figures removed), or None."""
    return _Search(pos, straight_away).path_for(cost)


def replay(
    pos: Position, moves: Sequence[Move | dict], straight_away: bool = True
) -> tuple[int, int]:
    """Play a move list on `pos` by the rules; return (cost, figures removed).
    Raises IllegalMove naming the first move that breaks a rule or leaves a card open."""
    search = _Search(pos, straight_away)
    s = search.start
    cost = 0
    for n, raw in enumerate(moves, 1):
        mv = _as_move(raw)
        for step, c, ns in search.successors(s, long_way=True):
            cand = search.make_move(s, step)
            same_way = cand.clockwise == mv.clockwise or mv.steps == TILES // 2
            if (cand.kind, cand.src, cand.dst, cand.steps) == (
                mv.kind,
                mv.src,
                mv.dst,
                mv.steps,
            ) and same_way:
                s, cost = ns, cost + c
                break
        else:
            owed = s[4]
            if owed and search.straight_away:
                tile = owed.bit_length() - 1
                raise IllegalMove(
                    f"move {n} ({mv.kind} {mv.src}->{mv.dst}) leaves the {COLOURS[s[0][tile]]} "
                    f"mixed on tile {tile} unused; it must be used straight away"
                )
            raise IllegalMove(f"move {n} ({mv.kind} {mv.src}->{mv.dst}) is not allowed here")
    if s[3]:
        open_cards = ", ".join(search.kinds[k].label() for k in s[3])
        raise IllegalMove(f"the moves leave {open_cards} open")
    if s[4]:
        raise IllegalMove("a mixed figure was never used: no unneeded moves are allowed")
    return cost, search.removed(s)


def _as_move(raw: Move | dict) -> Move:
    if isinstance(raw, Move):
        return raw
    kind = raw.get("kind", "mix")
    src, dst = int(raw["from"]), int(raw["to"])
    short = distance(src, dst)
    cw_short = (dst - src) % TILES == short
    clockwise = raw["direction"] == "clockwise" if "direction" in raw else cw_short
    steps = (dst - src) % TILES if clockwise else (src - dst) % TILES
    return Move(kind, src, dst, steps, clockwise, 0, -1)


__all__ = [
    "COLOURS",
    "DEFAULT_MAX_COST",
    "FLOORS",
    "Move",
    "Solution",
    "exact_profile",
    "max_removed_for",
    "replay",
    "solution_for",
    "solve",
]
