"""Elios rules, one rule (or clarification) per test, driven through the public events."""

from dataclasses import replace

import pytest

from companion.catalogue import load
from companion.cues import Announce, AskHuman, PhaseStarted, TimeUp
from companion.errors import IllegalMove, UsageError
from companion.events import ButtonPressed, TimerExpired, from_dict, to_dict
from companion.game import GameConfig
from companion.games.elios import JOKER, AddDisc, Pass, PlaceGroup, Ready, SplitGroup, passing
from companion.games.elios.state import DEFAULT_COLOURS, DISCS_IN_BOX

GAME = load("elios")


def new(players=("ann", "bob"), **options):
    return GAME.initial_state(GameConfig(tuple(players), options))


def play(state, *events):
    for e in events:
        state, _ = GAME.apply(state, e)
    return state


def ready_all(state, last=None):
    """Everyone ready with groups 1, 2 and threes (and the rest); `last` finishes last."""
    names = [h.player for h in state.hands]
    if last:
        names.remove(last)
        names.append(last)
    for p in names:
        n = state.hand(p).dealt
        rest = n - 3
        groups = (3,) * (rest // 3) + ((rest % 3,) if rest % 3 else ()) + (2, 1)
        state, _ = GAME.apply(state, Ready(p, groups))
    return state


def started(players=("ann", "bob"), last="ann", **options):
    """Grouping done, `last` to play; first play (a joker on red) already made by `last`."""
    s = ready_all(new(players, **options), last=last)
    return s


# --- setup ----------------------------------------------------------------------------


@pytest.mark.parametrize("players, beams, jokers", [(2, 16, 2), (3, 10, 1), (4, 8, 1)])
def test_beams_and_jokers_dealt_by_player_count(players, beams, jokers):
    s = new([f"p{i}" for i in range(players)])
    for h in s.hands:
        assert h.dealt == beams + jokers
        assert h.jokers == jokers


def test_sun_starts_with_one_beam_per_colour_no_joker_and_two_discs():
    s = new()
    assert [ray for ray in s.rays] == [(c,) for c in DEFAULT_COLOURS]
    assert all(JOKER not in ray for ray in s.rays)
    assert s.discs == 2


@pytest.mark.parametrize("players", [("solo",), ("a", "b", "c", "d", "e")])
def test_two_to_four_players(players):
    with pytest.raises(UsageError):
        new(players)


def test_colours_option_needs_eight_distinct_non_white():
    assert new(colours=[f"c{i}" for i in range(8)]).colours[0] == "c0"
    for bad in (DEFAULT_COLOURS[:7], DEFAULT_COLOURS[:7] + ("white",), ("red",) * 8):
        with pytest.raises(UsageError):
            new(colours=bad)


def test_bad_turn_timer_is_refused():
    for bad in (-5, "soon"):
        with pytest.raises(UsageError):
            new(turn_timer=bad)
    assert GAME.timer(started(turn_timer=0)) is None


# --- grouping -------------------------------------------------------------------------


def test_groups_must_hold_every_drawn_beam():
    s = new()
    with pytest.raises(IllegalMove, match="17 beams, but 18"):
        GAME.apply(s, Ready("ann", (3, 3, 3, 3, 3, 2)))


def test_a_group_holds_one_to_three_beams():
    s = new()
    with pytest.raises(IllegalMove, match="1 to 3"):
        GAME.apply(s, Ready("ann", (4, 3, 3, 3, 3, 2)))
    with pytest.raises(IllegalMove, match="1 to 3"):
        GAME.apply(s, Ready("ann", (0, 3, 3, 3, 3, 3, 3)))


def test_two_jokers_cannot_share_a_group():
    s = new(("a", "b"))
    # 18 beams as 6 groups is fine; a lone group cannot hold two jokers (both white)
    s3 = GAME.initial_state(GameConfig(("a", "b")))
    s3 = replace(s3, hands=(replace(s3.hands[0], dealt=3), s3.hands[1]))
    with pytest.raises(IllegalMove, match="different groups"):
        GAME.apply(s3, Ready("a", (3,)))
    GAME.apply(s, Ready("a", (3,) * 6))


def test_ready_once_and_no_turns_while_grouping():
    s = play(new(), Ready("ann", (3,) * 6))
    with pytest.raises(IllegalMove, match="already ready"):
        GAME.apply(s, Ready("ann", (3,) * 6))
    with pytest.raises(IllegalMove, match="waiting for bob"):
        GAME.apply(s, AddDisc("ann"))
    assert GAME.current_player(s) is None
    assert GAME.describe(s) == "Grouping: waiting for bob"


def test_last_to_finish_grouping_starts_and_is_reminded_of_the_joker():
    s = play(new(("ann", "bob", "cat")), Ready("cat", (3, 3, 3, 2)), Ready("ann", (3, 3, 3, 2)))
    s, cues = GAME.apply(s, Ready("bob", (3, 3, 3, 2)))
    assert GAME.current_player(s) == "bob"
    assert PhaseStarted("turn", "bob") in cues
    assert any("joker" in c.text for c in cues if isinstance(c, Announce))
    assert "joker" in GAME.describe(s)


def test_grouping_cannot_happen_twice():
    s = started()
    with pytest.raises(IllegalMove, match="grouping is over"):
        GAME.apply(s, Ready("ann", (3,) * 6))


# --- the first turn -------------------------------------------------------------------


def test_first_play_must_hold_a_joker():
    s = started()
    with pytest.raises(IllegalMove, match="joker"):
        GAME.apply(s, PlaceGroup("ann", (("red", "red"),)))
    for e in (AddDisc("ann"), SplitGroup("ann", 3), Pass("ann")):
        with pytest.raises(IllegalMove, match="joker"):
            GAME.apply(s, e)
    s = play(s, PlaceGroup("ann", (("red", JOKER), ("blue", "blue"))))
    assert s.ray("red") == ("red", JOKER)
    assert GAME.current_player(s) == "bob"


# --- placing a group ------------------------------------------------------------------


def opened():
    """ann has played a joker on red; bob to play with groups 3, 3, 3, 3, 3, 2, 1."""
    return play(started(), PlaceGroup("ann", ((("red", JOKER)),)))


def test_group_beams_must_have_distinct_colours():
    s = opened()
    with pytest.raises(IllegalMove, match="same colour"):
        GAME.apply(s, PlaceGroup("bob", (("blue", "blue"), ("red", "blue"))))


def test_group_is_one_to_three_beams():
    s = opened()
    with pytest.raises(IllegalMove, match="1 to 3"):
        GAME.apply(s, PlaceGroup("bob", ()))
    four = tuple((c, c) for c in DEFAULT_COLOURS[1:5])
    with pytest.raises(IllegalMove, match="1 to 3"):
        GAME.apply(s, PlaceGroup("bob", four))


def test_group_must_be_one_the_player_formed():
    s = play(new(), Ready("ann", (3,) * 6), Ready("bob", (3,) * 6))
    s = play(s, PlaceGroup("bob", (("red", JOKER), ("blue", "blue"), ("green", "green"))))
    with pytest.raises(IllegalMove, match="no group of 1"):
        GAME.apply(s, PlaceGroup("ann", (("blue", JOKER),)))


def test_beam_goes_on_same_colour_or_joker():
    s = opened()
    with pytest.raises(IllegalMove, match="goes on a blue beam or a joker"):
        GAME.apply(s, PlaceGroup("bob", (("green", "blue"),)))
    # on the joker any colour fits
    s2 = play(s, AddDisc("bob"), AddDisc("ann"))
    s2 = play(s2, PlaceGroup("bob", (("red", "green"),)))
    assert s2.ray("red") == ("red", JOKER, "green")


def test_a_joker_goes_on_any_colour():
    s = play(opened(), PlaceGroup("bob", (("green", JOKER), ("blue", "blue"))))
    assert s.ray("green") == ("green", JOKER)


def test_all_beams_of_a_group_on_the_same_level():
    s = play(opened(), AddDisc("bob"))
    with pytest.raises(IllegalMove, match="same level"):
        # red ray is two high already: a beam there lands on level 3, blue on level 2
        GAME.apply(s, PlaceGroup("ann", (("red", "green"), ("blue", "blue"))))


def test_no_beam_above_the_discs():
    s = opened()
    with pytest.raises(IllegalMove, match="above the discs"):
        GAME.apply(s, PlaceGroup("bob", (("red", "green"),)))
    s = play(s, AddDisc("bob"), AddDisc("ann"))
    assert s.discs == 4
    s = play(s, PlaceGroup("bob", (("red", "green"),)))
    assert len(s.ray("red")) == 3


def test_player_without_jokers_cannot_place_one():
    s = play(new(("a", "b", "c")), Ready("a", (3, 3, 3, 2)), Ready("b", (3, 3, 3, 2)))
    s = play(s, Ready("c", (3, 3, 2, 2, 1)), PlaceGroup("c", (("red", JOKER),)))
    s = play(s, AddDisc("a"), AddDisc("b"))
    with pytest.raises(IllegalMove, match="no joker left"):
        GAME.apply(s, PlaceGroup("c", (("blue", JOKER), ("green", "green"))))


def test_a_colour_has_only_four_beams_outside_the_sun():
    s = opened()
    s = replace(
        s,
        discs=DISCS_IN_BOX,
        rays=tuple(
            ray + (JOKER, "blue", "blue", "blue", "blue") if ray[0] == "red" else ray
            for ray in s.rays
        ),
    )
    # five placed blues would be too many; a joker on a blue stack is fine
    with pytest.raises(IllegalMove, match="all 5 blue beams"):
        GAME.apply(s, PlaceGroup("bob", (("blue", "blue"),)))


def test_placing_removes_the_group_and_counts_beams():
    s = opened()
    before = GAME.scores(s)["bob"]
    s = play(s, PlaceGroup("bob", (("blue", "blue"), ("green", "green"), ("cyan", JOKER))))
    assert GAME.scores(s)["bob"] == before - 3
    assert s.hand("bob").groups.count(3) == 4
    assert s.hand("bob").jokers == 1


def test_a_player_with_only_jokers_cannot_place_a_coloured_beam():
    s = opened()
    bob = replace(s.hand("bob"), groups=(1, 1), jokers=2)
    s = replace(s, hands=(s.hand("ann"), bob))
    with pytest.raises(IllegalMove, match="only jokers"):
        GAME.apply(s, PlaceGroup("bob", (("blue", "blue"),)))


def test_unknown_ray_or_colour():
    s = opened()
    with pytest.raises(IllegalMove, match="no teal ray"):
        GAME.apply(s, PlaceGroup("bob", (("teal", "blue"),)))
    with pytest.raises(IllegalMove, match="no teal beams"):
        GAME.apply(s, PlaceGroup("bob", (("blue", "teal"),)))
    with pytest.raises(IllegalMove, match="same ray"):
        GAME.apply(s, PlaceGroup("bob", (("blue", "blue"), ("blue", JOKER))))


# --- adding a disc, splitting, passing -------------------------------------------------


def test_add_disc_up_to_the_nine_in_the_box():
    s = opened()
    for _ in range(DISCS_IN_BOX - 2):
        s = play(s, AddDisc(GAME.current_player(s)))
    assert s.discs == DISCS_IN_BOX
    with pytest.raises(IllegalMove, match="all 9 discs"):
        GAME.apply(s, AddDisc(GAME.current_player(s)))
    assert AddDisc(GAME.current_player(s)) not in GAME.legal_actions(s)


def test_split_a_group_into_two_smaller():
    s = opened()
    s = play(s, SplitGroup("bob", 3))
    assert sorted(s.hand("bob").groups) == [1, 1, 2, 2, 3, 3, 3, 3]
    s = play(s, AddDisc("ann"), SplitGroup("bob", 2))
    assert sorted(s.hand("bob").groups) == [1, 1, 1, 1, 2, 3, 3, 3, 3]
    assert GAME.scores(s)["bob"] == 18


def test_cannot_split_a_single_beam_or_a_missing_group():
    s = opened()
    with pytest.raises(IllegalMove, match="2 or 3"):
        GAME.apply(s, SplitGroup("bob", 1))
    bob = replace(s.hand("bob"), groups=(3, 3, 3, 3, 3, 1, 1, 1))
    s = replace(s, hands=(s.hand("ann"), bob))
    with pytest.raises(IllegalMove, match="no group of 2"):
        GAME.apply(s, SplitGroup("bob", 2))


def test_pass_only_when_no_disc_and_no_split_is_left():
    s = opened()
    with pytest.raises(IllegalMove, match="add a disc"):
        GAME.apply(s, Pass("bob"))
    s = replace(s, discs=DISCS_IN_BOX)
    with pytest.raises(IllegalMove, match="split"):
        GAME.apply(s, Pass("bob"))
    assert Pass("bob") not in GAME.legal_actions(s)


def stuck(ann=4, bob=4, red_ray=("red", JOKER, "green"), **options):
    """Two players, all 9 discs out, bob to play. Every beam is on the sun but the red and
    orange ones, which ann and bob hold as single beams (`ann` + `bob` of them). The orange
    ray is covered (a joker, then green); `red_ray` says what lies on the red one."""
    s = ready_all(new(**options), last="ann")
    greens = 4 - red_ray.count("green") - 1
    rays = {
        "red": red_ray,
        "orange": ("orange", JOKER, "green"),
        "yellow": ("yellow", JOKER) + ("yellow",) * 4,
        "green": ("green",) * (1 + greens),
        "cyan": ("cyan", JOKER) + ("cyan",) * 4,
        "blue": ("blue",) * 5,
        "purple": ("purple",) * 5,
        "pink": ("pink",) * 5,
    }
    jokers = sum(ray.count(JOKER) for ray in rays.values())
    rays["blue"] = ("blue",) + (JOKER,) * (4 - jokers) + ("blue",) * 4  # all 4 jokers out
    s = replace(
        s,
        rays=tuple(rays[c] for c in s.colours),
        discs=DISCS_IN_BOX,
        current="bob",
        turn=20,
        hands=(
            replace(s.hand("ann"), groups=(1,) * ann, jokers=0),
            replace(s.hand("bob"), groups=(1,) * bob, jokers=0),
        ),
    )
    held = sum(h.beams for h in s.hands)
    assert held == s.off_sun("red") + s.off_sun("orange"), "the box holds what the table shows"
    return s


def test_issue_29_reproduction_no_pass_while_a_joker_fits():
    """Refereed from the rulebook: 9 discs out, no ray above level 2 and every beam in either
    hand fits, yet two passes used to end the game with Ben winning on 17 beams."""
    s = new(("Ann", "Ben"))
    s = play(s, Ready("Ann", (1,) * 18), Ready("Ben", (1,) * 18))
    s = play(s, PlaceGroup("Ben", (("red", JOKER),)))
    for i in range(7):
        s = play(s, AddDisc(("Ann", "Ben")[i % 2]))
    assert s.discs == DISCS_IN_BOX and GAME.current_player(s) == "Ben"
    with pytest.raises(IllegalMove, match="Ben holds a joker"):
        GAME.apply(s, Pass("Ben"))
    assert Pass("Ben") not in GAME.legal_actions(s)
    # nor may Ann pass on her turn: her jokers fit
    s = play(s, PlaceGroup("Ben", (("orange", "orange"),)))
    with pytest.raises(IllegalMove, match="Ann holds a joker"):
        GAME.apply(s, Pass("Ann"))
    assert not GAME.is_over(s)


def test_a_pass_is_refused_while_a_joker_on_top_has_room():
    s = stuck(red_ray=("red", JOKER))
    with pytest.raises(IllegalMove, match="Any beam fits on the joker on top of the red ray"):
        GAME.apply(s, Pass("bob"))
    assert passing.pass_question(s, "bob") is not None


def test_a_pass_is_refused_when_the_hand_outnumbers_the_beams_that_fit_nowhere():
    # the red ray takes red beams; 3 reds and 4 oranges are off the sun
    s = stuck(ann=2, bob=5, red_ray=("red", "red"))
    with pytest.raises(IllegalMove, match="One of bob's 5 beams fits: only 4 of the beams le"):
        GAME.apply(s, Pass("bob"))
    assert "red on the red ray" in passing.pass_refusal(s, "bob")


def test_passes_in_a_row_are_checked_together():
    s = stuck(ann=3, bob=4, red_ray=("red", "red"))
    assert "red on the red ray" in passing.pass_question(s, "bob")  # the table cannot tell: ask
    s = play(s, Pass("bob"))  # bob holds the 4 oranges
    assert s.passed == ("bob",) and not GAME.is_over(s)
    # ann's 3 beams can only be the 3 reds, which fit: one of them has a beam to play
    with pytest.raises(IllegalMove, match="bob or ann holds a beam that fits: undo the wrong pass"):
        GAME.apply(s, Pass("ann"))
    assert GAME.legal_actions(s) == ()


def test_a_pass_round_is_broken_by_any_other_move():
    s = stuck(ann=3, bob=4, red_ray=("red", "red"))
    s = play(s, Pass("bob"), PlaceGroup("ann", (("red", "red"),)))
    assert s.passed == ()
    s = play(s, Pass("bob"))
    assert not GAME.is_over(s)


def test_when_nothing_fits_anywhere_a_pass_needs_no_question():
    s = stuck(ann=3, bob=5)
    assert passing.pass_refusal(s, "bob") is None and passing.pass_question(s, "bob") is None
    assert GAME.legal_actions(s) == (Pass("bob"),)


def test_a_blocked_sun_ends_the_game_fewest_beams_win_by_default():
    s, cues = GAME.apply(stuck(ann=3, bob=5), Pass("bob"))
    assert not GAME.is_over(s)
    s, cues = GAME.apply(s, Pass("ann"))
    assert GAME.is_over(s)
    assert GAME.winners(s) == ("ann",)
    assert "fewest" in cues[-1].text


def test_a_blocked_sun_can_be_a_draw():
    s = play(stuck(ann=3, bob=5, blocked_sun="draw"), Pass("bob"))
    s, cues = GAME.apply(s, Pass("ann"))
    assert GAME.is_over(s) and GAME.winners(s) == ("ann", "bob")
    assert "draw" in cues[-1].text


def test_blocked_sun_option():
    from companion.games.elios import OPTIONS

    (option,) = OPTIONS
    assert option.key == "blocked_sun" and option.default == "fewest beams"
    for choice in option.choices:
        assert new(blocked_sun=choice).blocked_sun == choice
    with pytest.raises(UsageError, match="blocked_sun"):
        new(blocked_sun="longest ray")


# --- turn order, teams, the end ---------------------------------------------------------


def test_turns_go_clockwise_and_only_the_current_player_acts():
    s = ready_all(new(("ann", "bob", "cat")), last="bob")
    s = play(s, PlaceGroup("bob", (("red", JOKER),)))
    assert GAME.current_player(s) == "cat"
    with pytest.raises(IllegalMove, match="cat's turn, not ann's"):
        GAME.apply(s, AddDisc("ann"))
    s = play(s, AddDisc("cat"))
    assert GAME.current_player(s) == "ann"
    s = play(s, AddDisc("ann"))
    assert GAME.current_player(s) == "bob"


def test_four_players_play_in_alternating_teams():
    s = new(("ann", "bob", "cat", "dan"))
    assert s.teams == (("A", ("ann", "cat")), ("B", ("bob", "dan")))
    # teams given in another seating still alternate A, B, A, B
    s = GAME.initial_state(
        GameConfig(("ann", "bob", "cat", "dan"), teams=("red", "red", "blue", "blue"))
    )
    s = ready_all(s, last="ann")
    seen = ["ann"]
    s = play(s, PlaceGroup("ann", (("red", JOKER),)))
    for _ in range(4):
        p = GAME.current_player(s)
        seen.append(p)
        s = play(s, AddDisc(p))
    assert seen == ["ann", "cat", "bob", "dan", "ann"]


@pytest.mark.parametrize(
    "teams", [("A", "A", "A", "B"), ("A", "B", "C", "D"), ("A", None, "B", "B")]
)
def test_four_players_need_two_teams_of_two(teams):
    with pytest.raises(UsageError):
        GAME.initial_state(GameConfig(("a", "b", "c", "d"), teams=teams))


def test_player_without_beams_skips_and_team_wins_when_both_are_done():
    s = ready_all(new(("ann", "bob", "cat", "dan")), last="ann")
    # ann is down to her last group (a joker alone); cat has one beam left
    s = replace(
        s,
        hands=tuple(
            replace(h, groups=(1,), jokers=1)
            if h.player == "ann"
            else replace(h, groups=(1,), jokers=0)
            if h.player == "cat"
            else h
            for h in s.hands
        ),
    )
    s, cues = GAME.apply(s, PlaceGroup("ann", (("red", JOKER),)))
    assert not GAME.is_over(s)  # cat still has a beam
    s = play(s, AddDisc("bob"), AddDisc("cat"), AddDisc("dan"))
    assert GAME.current_player(s) == "bob"  # ann has no beams: skipped
    s = play(s, AddDisc("bob"))
    s, cues = GAME.apply(s, PlaceGroup("cat", (("blue", "blue"),)))
    assert GAME.is_over(s)
    assert GAME.winners(s) == ("ann", "cat")
    assert "win" in cues[-1].text


def test_first_player_with_no_beams_wins_and_the_game_stops():
    s = opened()
    bob = replace(s.hand("bob"), groups=(2,), jokers=1)
    s = replace(s, hands=(s.hand("ann"), bob))
    s = play(s, PlaceGroup("bob", (("blue", "blue"), ("green", JOKER))))
    assert GAME.is_over(s)
    assert GAME.winners(s) == ("bob",)
    assert GAME.scores(s)["bob"] == 0
    assert GAME.current_player(s) is None
    assert GAME.describe(s) == "bob won"
    with pytest.raises(IllegalMove, match="over"):
        GAME.apply(s, AddDisc("ann"))


def test_foreign_events_are_refused():
    with pytest.raises(IllegalMove, match="has no use for the next button"):
        GAME.apply(opened(), ButtonPressed("next"))


# --- the optional turn timer ------------------------------------------------------------


def test_no_timer_unless_asked():
    assert GAME.timer(opened()) is None


def test_turn_timer_key_is_new_every_turn():
    s = started(turn_timer=45)
    assert GAME.timer(new(turn_timer=45)) is None  # grouping has no clock
    keys = []
    for p in ("ann", "bob", "ann"):
        spec = GAME.timer(s)
        assert spec.seconds == 45
        keys.append(spec.key)
        s = play(s, PlaceGroup(p, (("red", JOKER),)) if p == "ann" and not keys[1:] else AddDisc(p))
    assert len(set(keys)) == 3


def test_time_up_cues_and_asks_but_never_skips():
    s = started(turn_timer=30)
    key = GAME.timer(s).key
    s, cues = GAME.apply(s, TimerExpired(key))
    assert cues[0] == TimeUp(key)
    assert isinstance(cues[1], AskHuman) and "ann" in cues[1].question
    assert GAME.current_player(s) == "ann"  # still ann's turn
    assert GAME.timer(s) is None  # no new countdown until the turn ends
    assert "time is up" in GAME.describe(s)
    with pytest.raises(IllegalMove, match="no running timer"):
        GAME.apply(s, TimerExpired(key))
    s = play(s, PlaceGroup("ann", (("red", JOKER),)))
    assert not s.overtime and GAME.timer(s).key != key


def test_events_round_trip_through_the_log_format():
    for e in (
        Ready("a", (3, 2)),
        PlaceGroup("a", (("red", JOKER),)),
        AddDisc("a"),
        SplitGroup("a", 3),
        Pass("a"),
    ):
        assert from_dict(to_dict(e)) == e


def test_jokers_stay_one_per_group():
    s = opened()
    bob = replace(s.hand("bob"), groups=(2, 1), jokers=2)
    s = replace(s, hands=(s.hand("ann"), bob))
    with pytest.raises(IllegalMove, match="must too"):
        GAME.apply(s, PlaceGroup("bob", (("blue", "blue"),)))
    s = play(s, PlaceGroup("bob", (("blue", JOKER),)))
    assert s.hand("bob").jokers == 1


def test_malformed_beams_are_refused_cleanly():
    with pytest.raises(IllegalMove, match="pair"):
        GAME.apply(started(), PlaceGroup("ann", ("red",)))
