"""When an Elios player may pass, and what to ask when the table cannot tell: the app knows
each hand's group sizes and jokers, never its colours."""

from __future__ import annotations

from .state import DISCS_IN_BOX, JOKER, EliosState


def pass_refusal(state: EliosState, player: str) -> str | None:
    """Why `player` may not pass, or None when they may. "On your turn, you must carry out 1
    of these 3 actions": a pass is only for a player who can do none of them. The app knows a
    hand's group sizes and jokers but not its colours, so it refuses every pass the table
    shows impossible and leaves the rest to the player's word (the screen asks first)."""
    hand = state.hand(player)
    if state.discs < DISCS_IN_BOX:
        return f"{player} can still add a disc"
    if any(g > 1 for g in hand.groups):
        return f"{player} can still split a group"
    open_rays = state.open_rays()
    if not open_rays:
        return None
    if hand.jokers:
        ray = open_rays[0]
        return f"{player} holds a joker: it fits on the {ray[0]} ray (level {len(ray) + 1})"
    wild = next((ray for ray in open_rays if ray[-1] == JOKER), None)
    if wild:
        return f"Any beam fits on the joker on top of the {wild[0]} ray (level {len(wild) + 1})"
    # Beams in hands are beams off the sun. If the players who passed in a row (the sun
    # unchanged since) hold more beams than there are off the sun that fit nowhere, one of
    # them holds a beam that fits.
    fit = fitting_spots(state)
    fitting = {c for _, c in fit}
    nowhere = sum(state.off_sun(c) for c in state.colours if c not in fitting)
    passers = state.passed + (player,)
    held = sum(state.hand(p).beams - state.hand(p).jokers for p in passers)
    if held <= nowhere:
        return None
    # The conclusion first: the banner shows a line of about 60 characters.
    why = f"only {nowhere} of the beams left fit nowhere"
    if len(passers) == 1:
        return f"One of {player}'s {held} beams fits: {why} ({spots_text(fit)})"
    return (
        f"{' or '.join(passers)} holds a beam that fits: undo the wrong pass "
        f"({held} beams held, {why}; {spots_text(fit)})"
    )


def fitting_spots(state: EliosState) -> tuple[tuple[str, str], ...]:
    """(ray, colour) for every ray with room whose top takes a coloured beam still off the sun
    (a joker on top takes any colour)."""
    out = []
    for ray in state.open_rays():
        takes = state.colours if ray[-1] == JOKER else (ray[-1],)
        out += [(ray[0], c) for c in takes if state.off_sun(c) > 0]
    return tuple(out)


def pass_question(state: EliosState, player: str) -> str | None:
    """What to ask a player whose pass the table cannot check, or None when no beam off the
    sun fits anywhere (the pass is certain)."""
    fit = fitting_spots(state)
    if not fit:
        return None
    return f"{player}: can none of your beams go on the sun? Only these fit: {spots_text(fit)}."


def spots_text(spots: tuple[tuple[str, str], ...]) -> str:
    return ", ".join(f"{colour} on the {ray} ray" for ray, colour in spots)
