"""The Laser solver's admissible bounds: a least cost still to pay from a state.

The quick bound charges every open card its own completing move: at least the distance
between two parent figures, or the cheapest two-mix chain, or 3 for longer chains (less when
another open card's figure, whose placing move that card pays for, is a parent or
grandparent); the cat covers at most one card at its own price; counting spares rules out
hopeless states. With "straight away" the chain bounds (chains.py) lift it: the next chain
must complete some card using only the figures standing on the board, then the other cards
cost at least their quick bound. A state between chains gets the forward chain bound
(`refined`); the states inside a chain read theirs (`in_chain`) from one backward pass made
where the chain starts (`chain_bounds`).
"""

from __future__ import annotations

from typing import NamedTuple

from ..board import MIXES, TILE_DISTANCE, TILES, Position, parents
from . import chains
from .chains import INF
from .space import PARTNERS, Space, State

_MIX = MIXES
_PARTNERS = PARTNERS
_DIST = TILE_DISTANCE

# Colour-circle distance 0-3; an owed product of colour p needs at least this many more mixes
# to reach an open card of colour x (2 when p == x: it must mix away and back).
_NEED = [[(min((x - p) % 6, (p - x) % 6) or 2) for x in range(6)] for p in range(6)]

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


class Bounds(Space):
    """The state space with its bounds, each memoised per state."""

    def __init__(self, pos: Position, straight_away: bool = True) -> None:
        super().__init__(pos, straight_away)
        self._h: dict[State, int] = {}
        self._parts: dict[State, _Parts] = {}
        self._refined: dict[State, tuple[int, int]] = {}  # (bound, cap it was computed to)
        self._chains: dict[State, tuple[int, tuple]] = {}  # (cap, chain_bounds)
        self._target_cache: dict[tuple[int, ...], list[tuple[int, ...]]] = {}

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
