"""Color Milk's board bonuses: zone prediction bonuses, the coins, pencils and counts people
tap as the artwork decides, the King's Tower, and the end bonuses that decide the winner.

Plain functions over the frozen MilkState. tally, count and kings_tower are steps of
rules.STEPS, taken in any phase: the artwork pays whenever a cell is coloured."""

from __future__ import annotations

from dataclasses import replace

from companion import cues as c
from companion.errors import IllegalMove
from companion.games.color_milk import boards
from companion.games.color_milk.events import Count, KingsTower, Tally
from companion.games.color_milk.state import MilkState, PlayerState, bump, put, zone_entry
from companion.words import plural


def zone_bonus(board: int, p: PlayerState) -> tuple[PlayerState, str]:
    """A fulfilled prediction from the prediction zone pays its bonus, once a game."""
    if not p.zone:
        return p, ""
    entry = zone_entry(p.zone, p.prediction)
    if entry in p.zone_done:
        return p, f" (the {p.zone} bonus for these colours is already used this game)"
    kind, label = boards.ZONE_BONUS[board][p.zone]
    p = replace(p, zone_done=(*p.zone_done, entry))
    if p.zone == "double":
        p = replace(p, doubles=p.doubles + 1)
    if kind == "pencil":
        p = replace(p, pencils=p.pencils + 1)
    else:
        p = replace(p, tokens=bump(p.tokens, kind, 1))
    return p, f" — {p.zone} bonus: {label}"


# taps that the artwork decides ---------------------------------------------------------
def tally(state: MilkState, ev: Tally):
    p = state.player(ev.player)
    if ev.item == "coins":
        if p.coins + ev.delta < 0:
            raise IllegalMove(f"{p.name} has only {plural(p.coins, 'coin')}")
        p = replace(p, coins=p.coins + ev.delta)
    elif ev.item == "pencils":
        if p.unused_pencils + ev.delta < 0:
            raise IllegalMove(f"{p.name} has only {p.unused_pencils} unused pencils")
        p = replace(p, pencils=p.pencils + ev.delta)
    elif ev.item == "used":
        if ev.delta > p.unused_pencils or p.used + ev.delta < 0:
            raise IllegalMove(f"{p.name} has {p.unused_pencils} unused bonus pencils")
        p = replace(p, used=p.used + ev.delta)
    else:
        raise IllegalMove(f"tally coins, pencils or used, not {ev.item!r}")
    cues: list[c.Cue] = []
    if ev.item == "coins" and ev.delta:
        cues.append(c.Scored(p.name, ev.delta))
    return check_coin_goal(state.with_player(p), cues)


def check_coin_goal(state: MilkState, cues: list[c.Cue]):
    """Coins changed: the first to the board's goal starts the final round (after this
    one); a corrected tap that takes the goal back, in the same round, cancels it."""
    goal = boards.coin_goal(state.board)
    reached = [p for p in state.players if p.coins >= goal]
    if state.trigger_round is None and reached and state.phase != "tally":
        state = replace(state, trigger_round=state.round)
        cues.append(
            c.Announce(
                f"{reached[0].name} has {reached[0].coins} coins! "
                "Finish this round, then play one final round."
            )
        )
    elif state.trigger_round == state.round and not reached:
        state = replace(state, trigger_round=None)  # a corrected tap takes it back
    return state, cues


def count(state: MilkState, ev: Count):
    p = state.player(ev.player)
    board = boards.COUNT_ITEMS.get(ev.item)
    if board is None:
        raise IllegalMove(f"unknown count {ev.item!r}")
    if board != state.board:
        raise IllegalMove(f"{ev.item} count only on board {board}")
    if ev.value < 0:
        raise IllegalMove("a count cannot be negative")
    if ev.item == "treasure_cave" and ev.value > 1:
        raise IllegalMove("treasure_cave is 1 when the cave is coloured, else 0")
    return state.with_player(replace(p, counts=put(p.counts, ev.item, ev.value))), ()


def kings_tower(state: MilkState, ev: KingsTower):
    p = state.player(ev.player)
    if state.board != 5:
        raise IllegalMove("the King's Tower is on board 5")
    if ev.colour not in boards.KINGS_TOWER:
        raise IllegalMove(f"{ev.colour!r} is not a pencil colour")
    if p.kings_tower:
        raise IllegalMove(f"{p.name} already finished the King's Tower in {p.kings_tower}")
    coins, pencils = boards.KINGS_TOWER[ev.colour]
    p = replace(p, kings_tower=ev.colour, coins=p.coins + coins, pencils=p.pencils + pencils)
    extra = " and a bonus pencil" if pencils else ""
    cues: list[c.Cue] = [
        c.Scored(p.name, coins),
        c.Announce(f"{p.name}: King's Tower in {ev.colour} — {plural(coins, 'coin')}{extra}."),
    ]
    return check_coin_goal(state.with_player(p), cues)


# end of the game ------------------------------------------------------------------------
def solo_rating(state: MilkState) -> str | None:
    return boards.solo_rating(state.board, state.round) if state.solo else None


def needs_tally(state: MilkState) -> bool:
    """Whether the end bonuses need counts confirmed before the winner is decided."""
    if state.board == 6:
        return True
    return state.board in (3, 5) and not state.solo


def settle_warriors(state: MilkState, cues: list[c.Cue]) -> tuple[MilkState, tuple[str, ...]]:
    """Board 5's warriors check: the fewest lose a pencil now; the most (returned) colour
    one cell, which the rules wait for (rounds.after_remix_or_tally)."""
    most, least = boards.most_and_least({p.name: p.count("warriors") for p in state.players})
    if not most:
        cues.append(c.Announce("Warriors: everyone has the same number; nothing happens."))
        return state, most
    for name in most:
        cues.append(c.Announce(f"Warriors: {name} has the most — colour one adjacent cell."))
    for name in least:
        p = state.player(name)
        if p.unused_pencils > 0:
            state = state.with_player(replace(p, lost=p.lost + 1))
            cues.append(c.Announce(f"Warriors: {name} has the fewest — lose a bonus pencil."))
        else:
            cues.append(c.Announce(f"Warriors: {name} has the fewest but no pencil to lose."))
    return state, most


def finish_game(state: MilkState, cues: list[c.Cue]):
    """The end bonuses are paid and the game is over."""
    board, solo = state.board, state.solo
    bonus: dict[str, list[tuple[str, int]]] = {p.name: [] for p in state.players}
    if board == 3 and not solo:
        most, _ = boards.most_and_least({p.name: p.count("railways") for p in state.players})
        for name in most:
            bonus[name].append(("railways", 1))
    if board == 6:
        if not solo:
            market = {p.name: p.count("market") for p in state.players}
            top = max(market.values())
            for name, v in market.items():
                if top > 0 and v == top:
                    bonus[name].append(("market", 1))
        for p in state.players:
            towns = p.count("ghost_towns") * (p.count("camels") // 7)
            if towns:
                bonus[p.name].append(("ghost towns", towns))
            if p.count("treasure_cave") and p.doubles:
                bonus[p.name].append(("treasure cave", p.doubles))
    players = []
    for p in state.players:
        got = tuple(bonus[p.name])
        total = sum(n for _, n in got)
        if total:
            cues.append(c.Scored(p.name, total))
        players.append(replace(p, coins=p.coins + total, end_bonus=got))
    state = replace(state, players=tuple(players), phase="over")
    if solo:
        cues.append(c.Announce(f"{state.round} turns: {solo_rating(state)}"))
    return state, cues
