"""Colour MY Kritters's set-up and play: who takes the First Player card, the cards bought
(counting the item piles down), the piles that run out, the end trigger and the finishing
round played out to the player on the first player's right, so everyone has had the same
number of turns."""

from __future__ import annotations

from dataclasses import replace

from companion import cues as cue
from companion.errors import IllegalMove
from companion.events import ButtonPressed, TimerExpired

from .events import AgreeToEnd, Bought, CardRemoved, FirstPlayer, PileEmpty, TurnDone
from .flow import current_player, describe, timer
from .state import CARDS, ITEMS, KRITTER_DECK, NEXT_BUTTON, PILES, KrittersState


def end_condition(state: KrittersState) -> str | None:
    """Which end condition the piles now meet, if any."""
    if state.pile(KRITTER_DECK) == 0:
        return "the kritter deck is empty"
    if state.options.junior:
        return None
    empty = [p for p in ("paintbrush", "palette", "paint_bucket") if state.pile(p) == 0]
    if state.options.more_points:
        if len(empty) >= 2:
            return f"the {' and '.join(p.replace('_', ' ') for p in empty[:2])} piles are empty"
        return None
    if "paintbrush" in empty and "palette" in empty:
        return "the paintbrush and palette piles are empty"
    return None


def first_player(state: KrittersState, ev: FirstPlayer):
    if ev.player not in state.players:
        raise IllegalMove(f"{ev.player!r} is not playing")
    new = replace(state, phase="play", first=state.players.index(ev.player))
    return new, [
        cue.Announce(f"{ev.player} takes the First Player card"),
        cue.PhaseStarted("turn", ev.player),
    ]


def bought(state: KrittersState, ev: Bought):
    if ev.card not in CARDS:
        raise IllegalMove(f"unknown card {ev.card!r} (one of: {', '.join(CARDS)})")
    check_purchase(state, ev.card)
    piles = state.piles
    if ev.card in ITEMS:
        piles = tuple((p, n - (p == ev.card)) for p, n in piles)
    new = replace(state, piles=piles, bought=state.bought + (ev.card,))
    return maybe_end(new, [])


def check_purchase(state: KrittersState, card: str) -> None:
    if card in ("paintbrush", "palette") and state.options.junior:
        raise IllegalMove("Junior games use no paintbrushes or palettes")
    if card == "paint_bucket" and not state.options.more_points:
        raise IllegalMove(
            "paint buckets come with the More Points expansion, which this game does not use"
        )
    if card in ITEMS and state.pile(card) == 0:
        raise IllegalMove(f"the {card.replace('_', ' ')} pile is empty")
    limit = 2 if state.options.double_purchase else 1
    if len(state.bought) >= limit:
        raise IllegalMove(
            f"{current_player(state)} already bought {' and '.join(state.bought)} this turn"
        )
    if state.bought and (card in ITEMS and any(b in ITEMS for b in state.bought)):
        raise IllegalMove("a double purchase is 2 kritters or 1 kritter and 1 item, never 2 items")


def pile_empty(state: KrittersState, ev: PileEmpty):
    if ev.pile not in PILES:
        raise IllegalMove(f"unknown pile {ev.pile!r} (one of: {', '.join(PILES)})")
    if state.pile(ev.pile) == 0:
        raise IllegalMove(f"the {ev.pile.replace('_', ' ')} is already empty")
    piles = tuple((p, 0 if p == ev.pile else n) for p, n in state.piles)
    return maybe_end(replace(state, piles=piles), [])


def card_removed(state: KrittersState, ev: CardRemoved):
    if ev.pile not in ("paintbrush", "palette"):
        raise IllegalMove("only paintbrush and palette cards are removed from their piles")
    if len(state.players) != 1:
        raise IllegalMove("cards leave the item piles unbought only in solo games")
    if state.pile(ev.pile) == 0:
        raise IllegalMove(f"the {ev.pile} pile is already empty")
    piles = tuple((p, n - (p == ev.pile)) for p, n in state.piles)
    return maybe_end(replace(state, piles=piles), [])


def agree_to_end(state: KrittersState, ev: AgreeToEnd):
    if not state.options.junior:
        raise IllegalMove("only Junior games may finish early by agreement")
    if state.end_reason:
        raise IllegalMove(f"this is already the last round ({state.end_reason})")
    return call_last_round(state, "the players agreed to finish", [])


def maybe_end(state: KrittersState, cues: list) -> tuple[KrittersState, list]:
    if state.end_reason is None:
        reason = end_condition(state)
        if reason:
            return call_last_round(state, reason, cues)
    return state, cues


def call_last_round(state: KrittersState, reason: str, cues: list):
    n = len(state.players)
    last = (state.turn // n) * n + n - 1  # the player on the first player's right
    final = state.players[(state.first + last) % n]
    new = replace(state, end_reason=reason, last_turn=last)
    text = (
        f"Last round: {reason}. The game ends after {final}'s turn"
        if final != current_player(state)
        else f"Last turn: {reason}. The game ends after this turn"
    )
    return new, [*cues, cue.Announce(text)]


def turn_done(state: KrittersState, ev):
    if state.last_turn is not None and state.turn >= state.last_turn:
        return replace(state, phase="scoring", bought=(), time_up=False), [
            cue.PhaseStarted("scoring"),
            cue.AskHuman("Everyone: enter your cards to find your best score"),
        ]
    new = replace(state, turn=state.turn + 1, bought=(), time_up=False)
    player = current_player(new)
    cues: list[cue.Cue] = [cue.PhaseStarted("turn", player)]
    if new.last_turn is not None and new.turn == new.last_turn:
        cues.append(cue.Announce(f"{player} plays the last turn"))
    return new, cues


def button(state: KrittersState, ev: ButtonPressed):
    if ev.button != NEXT_BUTTON:
        raise IllegalMove(f"the {ev.button!r} button does nothing in Colour MY Kritters")
    if state.phase != "play":
        raise IllegalMove(f"the next button passes the turn during play; now: {describe(state)}")
    return turn_done(state, TurnDone())


def timer_expired(state: KrittersState, ev: TimerExpired):
    spec = timer(state)
    if spec is None or ev.key != spec.key:
        raise IllegalMove(f"no countdown {ev.key!r} is running")
    player = current_player(state)
    return replace(state, time_up=True), [
        cue.TimeUp(ev.key),
        cue.Announce(f"{player}: time is up"),
    ]
