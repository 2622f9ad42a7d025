"""Watching a Laser demonstration: the moves that explain each change the camera sees.

Between two stable views of the table (no hand in view) the demonstrator made one move, or
two when no stable view came between them. `decode` looks for the moves of the solver's own
state space (space.py) that turn the position before into the table seen after: a figure
from tile s onto tile d with the colour it makes, or the cat's one move and the figure it
takes. A change only a move against the rules explains names the rule it breaks; a change
no move explains is said in words. Both are for a person to judge, never a silent score.

The camera cannot see which way round a figure was carried, so a decoded move goes the
short way. `settle` folds the round: when the cards are done but the short ways do not spend
the bid exactly, it takes the fewest moves that, carried the long way round, make it exact
(the rulebook allows either direction) and says which, so a person confirms that.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass, replace

from ..board import COLOURS, MIXES, TILES, Position, distance
from ..solver.moves import Move
from ..solver.space import Space, State

MOST_BETWEEN = 2  # moves looked for between two stable views


@dataclass(frozen=True)
class Table:
    """What the camera sees: 12 tiles clockwise (colour index or None; the cat's tile is
    None), the cat's tile and the spare figures per colour card in circle order. `unsure`:
    tiles read without confidence, which anything may fill (the reader's likely answers are
    no bound: under a harsh light the truth is not always among them); `cat` None when the
    cat was not seen for sure (its tile is unsure); `supply` None when a colour card was
    not."""

    tiles: tuple[int | None, ...]
    cat: int | None
    supply: tuple[int, ...] | None
    unsure: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Demonstration:
    """The round so far: the position before the first move, the solver's state now, the
    cat's tile on the table (the solver's state forgets it once the cat moved) and the
    moves decoded, each the short way round."""

    pos: Position
    state: State
    cat: int
    moves: tuple[Move, ...] = ()

    @property
    def table(self) -> Table:
        tiles, supply = self.state[0], self.state[1]
        return Table(tuple(None if t < 0 else t for t in tiles), self.cat, tuple(supply))

    @property
    def done(self) -> bool:
        """Every card completed and no mixed figure left waiting for its use."""
        return Space.is_goal(self.state)

    @property
    def cost(self) -> int:
        return sum(m.cost for m in self.moves)

    @property
    def removed(self) -> int:
        return sum(m.removed for m in self.moves)

    def open_cards(self) -> tuple[str, ...]:
        kinds = _space(self.pos).kinds
        return tuple(kinds[k].label() for k in self.state[3])


@dataclass(frozen=True)
class Change:
    """What one stable view means. `kind`:
    "none"        nothing changed
    "maybe"       nothing changed, or a move the unsure tiles hide: `why` says so (the next
                  sure view tells; the decoder stays where it was)
    "moves"       `moves` explain it by the rules; `after` is the round with them
    "illegal"     only a move against the rules explains it: `moves` is that move, `why` the rule
    "unexplained" no move explains it: `why` says what changed
    "ambiguous"   moves of different costs or outcomes explain it (unsure tiles or more than
                  one move between views): `why` says so"""

    kind: str
    moves: tuple[Move, ...] = ()
    after: Demonstration | None = None
    why: str = ""


@dataclass(frozen=True)
class Result:
    """The round as folded: `done` every card completed with no unneeded move left open;
    `success` done with exactly the bid; `cost` the movement points (the bid when the long
    way round of `long_way` makes it exact, else the short ways); `moves` with the
    directions assumed, as the solver's `replay` takes them."""

    success: bool
    done: bool
    cost: int
    bid: int
    removed: int
    moves: tuple[Move, ...]
    long_way: tuple[int, ...] = ()  # indices into moves assumed carried the long way round


@functools.lru_cache(maxsize=32)
def _space(pos: Position) -> Space:
    return Space(pos)


def start(pos: Position) -> Demonstration:
    """The round before its first move."""
    return Demonstration(pos, _space(pos).start, pos.cat)


def fits(mine: Table, seen: Table) -> bool:
    """Whether the table seen is `mine` (the unsure tiles fit anything)."""
    for k in range(TILES):
        if k not in seen.unsure and mine.tiles[k] != seen.tiles[k]:
            return False
    if seen.cat is None:
        if mine.cat not in seen.unsure:
            return False
    elif seen.cat != mine.cat:
        return False
    return seen.supply is None or tuple(seen.supply) == mine.supply


def _legal(demo: Demonstration) -> list[tuple[Move, Demonstration]]:
    """Every move the rules allow now, the short way round, with the round after it (none
    once every card is done: no unneeded moves)."""
    if demo.done:
        return []
    space, s = _space(demo.pos), demo.state
    out = []
    for step, _cost in space.steps(s, long_way=False):
        move = space.make_move(s, step)
        cat = move.dst if move.kind == "cat" else demo.cat
        after = Demonstration(demo.pos, space.apply(s, step), cat, demo.moves + (move,))
        out.append((move, after))
    return out


def _outcome(demo: Demonstration) -> tuple:
    return (demo.cost, demo.removed, demo.state, demo.cat)


def decode(demo: Demonstration, seen: Table) -> Change:
    """The move(s) that turn `demo` into the table seen (see Change)."""
    still = fits(demo.table, seen)
    if still and not seen.unsure:
        return Change("none", after=demo)
    found: list[Demonstration] = []
    frontier = [demo]
    for _depth in range(1 if still else MOST_BETWEEN):
        nxt = []
        for d in frontier:
            for _move, after in _legal(d):
                nxt.append(after)
                if fits(after.table, seen):
                    found.append(after)
        if found:
            break
        frontier = nxt
    if still:  # unless the unsure tiles may hide a move, nothing happened
        if not found:
            return Change("none", after=demo)
        return Change("maybe", after=demo, why=_ambiguity(seen, "a move or none"))
    if found:
        outcomes = {_outcome(d) for d in found}
        first = found[0]
        new_moves = first.moves[len(demo.moves) :]
        if len(outcomes) == 1:
            return Change("moves", new_moves, first)
        return Change("ambiguous", why=_ambiguity(seen, f"{len(outcomes)} different moves"))
    # a move against the rules is named only from a view the camera is sure of
    broken = None if seen.unsure or seen.supply is None else _illegal(demo, seen)
    if broken is not None:
        return broken
    return Change("unexplained", why=difference(demo.table, seen))


def _ambiguity(seen: Table, what: str) -> str:
    unsure = ", ".join(str(k + 1) for k in sorted(seen.unsure))
    return f"{what} fit what the camera sees" + (f" (unsure of tile {unsure})" if unsure else "")


# moves against the rules ------------------------------------------------------------------


def _illegal(demo: Demonstration, seen: Table) -> Change | None:
    """The one move against the rules that explains the table seen, if any."""
    space = _space(demo.pos)
    tiles, supply = demo.state[0], demo.state[1]
    legal = {(m.kind, m.src, m.dst) for m, _ in _legal(demo)}
    tried: list[Change] = []
    occupied = [t for t in range(TILES) if tiles[t] >= 0]
    for src in occupied:
        for dst in occupied:
            p = MIXES[tiles[src]][tiles[dst]] if src != dst else None
            if p is None or ("mix", src, dst) in legal:
                continue
            new_tiles, new_supply = list(tiles), list(supply)
            new_tiles[src] = -1
            new_tiles[dst] = p if supply[p] else -1
            if supply[p]:
                new_supply[p] -= 1
            after = Table(_plain(new_tiles), demo.cat, tuple(new_supply))
            if fits(after, seen):
                steps = distance(src, dst)
                move = Move("mix", src, dst, steps, _cw(src, dst), steps, tiles[src], tiles[dst], p)
                tried.append(Change("illegal", (move,), why=_why_not(demo, move)))
    for dst in range(TILES):
        if dst == demo.cat or ("cat", demo.cat, dst) in legal:
            continue
        new_tiles = list(tiles)
        new_tiles[dst] = -1
        if fits(Table(_plain(new_tiles), dst, tuple(supply)), seen):
            steps = distance(demo.cat, dst)
            move = Move(
                "cat", demo.cat, dst, steps, _cw(demo.cat, dst), steps * space.catk, tiles[dst]
            )
            tried.append(Change("illegal", (move,), why=_why_not(demo, move)))
    # green onto blue or blue onto green, when neither places anything: the same rule broken
    return tried[0] if len({c.why for c in tried}) == 1 else None


def _why_not(demo: Demonstration, move: Move) -> str:
    """The rule a move breaks, for people."""
    space, (tiles, supply, cat, open_, owed) = _space(demo.pos), demo.state
    if demo.done:
        return "every card was already completed: no unneeded moves are allowed"
    must = owed.bit_length() - 1 if owed else -1
    if must >= 0 and (move.kind == "cat" or must not in (move.src, move.dst)):
        return f"the {COLOURS[tiles[must]]} mixed on tile {must + 1} had to be used straight away"
    if move.kind == "cat":
        if cat < 0:
            return "the cat moves only once a round"
        if tiles[move.dst] < 0:
            return "the cat may not end its move on an empty tile"
        wanted = ", ".join(space.kinds[k].label() for k in open_)
        return f"the cat may only take a figure an open card needs ({wanted})"
    if not supply[move.makes]:
        return (
            f"the {COLOURS[move.makes]} colour card is empty, so the mix places nothing "
            "and completes no card"
        )
    return "that mix is not allowed here"


def _plain(tiles) -> tuple[int | None, ...]:
    return tuple(None if t < 0 else t for t in tiles)


def _cw(src: int, dst: int) -> bool:
    return (dst - src) % TILES == distance(src, dst)


# what changed, for people ---------------------------------------------------------------


def _name(t: int | None) -> str:
    return "empty" if t is None else COLOURS[t]


def difference(before: Table, seen: Table) -> str:
    """What changed between two tables, in words ("tile 3: green -> empty; ...")."""
    parts = []
    for k in range(TILES):
        if k in seen.unsure:
            continue
        a = "cat" if k == before.cat else _name(before.tiles[k])
        b = "cat" if k == seen.cat else _name(seen.tiles[k])
        if a != b:
            parts.append(f"tile {k + 1}: {a} -> {b}")
    if seen.supply is not None and before.supply is not None:
        for c, (a, b) in enumerate(zip(before.supply, seen.supply, strict=True)):
            if a != b:
                parts.append(f"{COLOURS[c]} card: {a} -> {b} spare")
    if seen.unsure:
        parts.append("unsure of tile " + ", ".join(str(k + 1) for k in sorted(seen.unsure)))
    return "; ".join(parts) or "nothing the camera is sure of"


def describe(move: Move) -> str:
    """One move for people, tiles numbered 1-12 as on the board editor."""
    if move.kind == "cat":
        took = "onto an empty tile" if move.colour < 0 else f"takes the {_name(move.colour)}"
        return f"the cat from tile {move.src + 1} to {move.dst + 1} {took}"
    return (
        f"the {_name(move.colour)} from tile {move.src + 1} onto the {_name(move.onto)} on "
        f"tile {move.dst + 1} makes {_name(move.makes)}"
    )


# the round's totals -----------------------------------------------------------------------


def advance(demo: Demonstration, seen: Table) -> tuple[Demonstration, Change]:
    """Fold one stable view: the round after it (unchanged unless legal moves explain it)."""
    change = decode(demo, seen)
    return (change.after if change.kind == "moves" else demo), change


def fold(pos: Position, views) -> tuple[Demonstration, tuple[Change, ...]]:
    """Fold a sequence of stable views from the position before the first move."""
    demo, changes = start(pos), []
    for seen in views:
        demo, change = advance(demo, seen)
        changes.append(change)
    return demo, tuple(changes)


def _long(move: Move) -> Move:
    steps = TILES - move.steps
    per = move.cost // move.steps
    return replace(move, steps=steps, clockwise=not move.clockwise, cost=steps * per)


def settle(demo: Demonstration, bid: int) -> Result:
    """The round's result against the bid (see Result)."""
    moves, short = demo.moves, demo.cost
    if demo.done and short != bid:
        # each move carried the long way round adds its own extra; the fewest moves that
        # make the bid exact (no move is 6 tiles: either way is the same)
        extra = [(i, _long(m).cost - m.cost) for i, m in enumerate(moves) if m.steps * 2 != TILES]
        for n in range(1, len(extra) + 1):
            for pick in itertools.combinations(extra, n):
                if short + sum(e for _, e in pick) == bid:
                    chosen = tuple(i for i, _ in pick)
                    moves = tuple(_long(m) if i in chosen else m for i, m in enumerate(moves))
                    return Result(True, True, bid, bid, demo.removed, moves, chosen)
    success = demo.done and short == bid
    return Result(success, demo.done, short, bid, demo.removed, moves)


def tables(pos: Position, moves) -> list[Table]:
    """The table after each move of a legal move list (the solver's, or a settled one):
    what the camera should see as the demonstration goes."""
    space, s, cat = _space(pos), _space(pos).start, pos.cat
    out = []
    for move in moves:
        done = -1 if move.completes is None else space.kinds.index(move.completes)
        s = space.apply(s, (move.kind, move.src, move.dst, move.steps, move.clockwise, done))
        cat = move.dst if move.kind == "cat" else cat
        out.append(Table(_plain(s[0]), cat, tuple(s[1])))
    return out
