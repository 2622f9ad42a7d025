"""Random Elios games played with real beams in hand, whose colours the app never learns.

At every turn a pass is tried first, the way a referee tries a likely-illegal move, then one
legal move of the real hand is played. Checked: a pass is never accepted while the table
shows a way to act; a pass by a player who truly cannot act is never refused; a blocked sun
ends the game only when nobody can act.
"""

import copy
import itertools
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.catalogue import load
from companion.errors import IllegalMove
from companion.game import GameConfig
from companion.games.elios import JOKER, AddDisc, Pass, PlaceGroup, Ready, SplitGroup
from companion.games.elios.state import BEAMS_PER_COLOUR, DEAL, DISCS_IN_BOX

GAME = load("elios")


def deal(players, rng):
    """Each player's real groups: beams drawn from the bag, grouped 1-3 of distinct colours
    (two jokers are two whites, so never in one group)."""
    colours = GAME.initial_state(GameConfig(players)).colours
    bag = [c for c in colours for _ in range(BEAMS_PER_COLOUR - 1)]
    rng.shuffle(bag)
    beams, jokers = DEAL[len(players)]
    hands = {}
    for p in players:
        drawn = [bag.pop() for _ in range(beams)] + [JOKER] * jokers
        rng.shuffle(drawn)
        groups = []
        for beam in drawn:
            room = [g for g in groups if len(g) < 3 and beam not in g]
            if room and rng.random() < 0.6:
                rng.choice(room).append(beam)
            else:
                groups.append([beam])
        hands[p] = groups
    return hands


def placements(state, player, group):
    """Every way the real `group` goes on the sun, by the rulebook's three restrictions."""
    if state.turn == 0 and JOKER not in group:
        return
    levels = {}
    for ray in state.rays:
        levels.setdefault(len(ray) + 1, []).append(ray)
    for level, rays in levels.items():
        if level > state.discs:
            continue
        for chosen in itertools.permutations(rays, len(group)):
            pairs = tuple(zip(chosen, group, strict=True))
            if all(b == JOKER or ray[-1] in (b, JOKER) for ray, b in pairs):
                yield PlaceGroup(player, tuple((ray[0], b) for ray, b in pairs))


def ways_to_act(state, player, groups):
    """The real hand's legal moves (splits name the beam that goes off on its own)."""
    moves = []
    for group in groups:
        moves += itertools.islice(placements(state, player, group), 6)
    if state.turn > 0:
        if state.discs < DISCS_IN_BOX:
            moves.append(AddDisc(player))
        moves += [(SplitGroup(player, len(g)), g, b) for g in groups if len(g) > 1 for b in g]
    return moves


def table_shows_a_way(state, passers):
    """Whether the table (and the word of the players who passed in a row before) shows that
    the last of `passers` can act, not knowing a single colour in hand."""
    me = state.hand(passers[-1])
    if state.discs < DISCS_IN_BOX or any(g > 1 for g in me.groups):
        return True
    room = [ray for ray in state.rays if len(ray) < state.discs]
    if not room:
        return False
    if me.jokers or any(ray[-1] == JOKER for ray in room):
        return True  # a joker goes anywhere; anything goes on a joker
    # the passers' hands hold beams off the sun; can they all be beams that fit nowhere?
    on_sun = Counter(b for ray in state.rays for b in ray[1:])
    tops = {ray[-1] for ray in room}
    fit_nowhere = sum(BEAMS_PER_COLOUR - 1 - on_sun[c] for c in state.colours if c not in tops)
    held = sum(state.hand(p).beams - state.hand(p).jokers for p in passers)
    return held > fit_nowhere


def play_game(players, rng, lie=0.3):
    """One game; returns what happened, for the coverage test. Asserts the properties."""
    names = tuple(f"p{i}" for i in range(players))
    hands = deal(names, rng)
    state = GAME.initial_state(GameConfig(names))
    for p in rng.sample(names, players):
        state, _ = GAME.apply(state, Ready(p, tuple(len(g) for g in hands[p])))
    seen = Counter()
    streak, honest = [], True  # players who passed in a row; were all those passes true?
    undo_to = None  # the table before the first false pass of the streak
    while not GAME.is_over(state):
        p = state.current
        moves = ways_to_act(state, p, hands[p])
        try:
            after, _ = GAME.apply(state, Pass(p))
        except IllegalMove:
            after = None
        assert (Pass(p) in GAME.legal_actions(state)) == (after is not None)
        if after is None:
            seen["pass refused"] += 1
            assert moves or not honest, f"{p} cannot act, but the pass was refused"
            if not moves:  # stuck after a false pass: the players undo back to it
                state, hands, streak = undo_to
                honest, undo_to = True, None
                seen["undone to a false pass"] += 1
                continue
        else:
            assert state.turn > 0
            assert not table_shows_a_way(state, (*streak, p)), "a pass the table rules out"
            seen["true pass accepted" if not moves else "unseen lie accepted"] += 1
            if not moves or rng.random() < lie:
                if moves and honest:
                    undo_to = state, copy.deepcopy(hands), list(streak)
                state = after
                streak.append(p)
                honest = honest and not moves
                continue
        move = rng.choice(moves)
        if isinstance(move, tuple):  # a split: which beam goes off on its own
            move, group, beam = move
            group.remove(beam)
            hands[p].append([beam])
        elif isinstance(move, PlaceGroup):
            placed = sorted(c for _, c in move.beams)
            hands[p].remove(next(g for g in hands[p] if sorted(g) == placed))
        state, _ = GAME.apply(state, move)
        streak, honest, undo_to = [], True, None
    if all(not hands[w] for w in GAME.winners(state)):
        seen["won"] += 1  # every beam placed: the rulebook's end
        sides = [m for _, m in state.teams] or [(n,) for n in names]
        assert tuple(GAME.winners(state)) in sides
    else:
        seen["blocked"] += 1
        # Nobody can act. With 2 or 4 players every beam off the sun is in a hand, so the
        # checks hold even when a pass was a lie the table could not see.
        if honest or players in (2, 4):
            for q in names:
                assert not ways_to_act(state, q, hands[q]), f"{q} could still act"
        if players in (2, 4):
            seen["blocked, 2 or 4 players"] += 1
    return seen


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]))
def test_passes_and_blocked_suns_in_random_games_with_real_hands(seed, players):
    play_game(players, random.Random(seed))


def test_the_random_games_reach_every_case():
    """The property above is not vacuous: over a fixed set of games, honest passes, refused
    passes, lies the table cannot see, blocked suns and wins all happen."""
    seen = Counter()
    for seed in range(36):
        seen += play_game(2 + seed % 3, random.Random(seed))
    for case in (
        "true pass accepted",
        "pass refused",
        "unseen lie accepted",
        "blocked",
        "blocked, 2 or 4 players",
        "won",
    ):
        assert seen[case] > 0, (case, seen)
