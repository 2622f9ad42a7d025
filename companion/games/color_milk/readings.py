"""Color Milk's readings of the table: balls crossing the beam and balls seen (or tapped) in
the tray's five slots, checked against what the mill can still hold. A person's tap is
authoritative; doubtful or impossible camera readings become questions."""

from __future__ import annotations

from dataclasses import replace

from companion import cues as c
from companion.errors import IllegalMove
from companion.events import BallPassed, BallSeen, Event
from companion.games.color_milk.mill import BALLS_PER_ROUND, COLOURS, counts_of, fits, minus
from companion.games.color_milk.state import (
    AUTHORITATIVE,
    READING_PHASES,
    Ask,
    MilkState,
    phase_cue,
)


class Readings:
    """ColorMilk's sensor and tray steps (it supplies apply and _maybe_check)."""

    def is_news(self, state: MilkState, event: Event) -> bool:
        """Would this sensor reading change anything? The camera repeats itself every frame;
        only news is worth logging."""
        if isinstance(event, BallSeen):
            if state.phase not in READING_PHASES or not 0 <= event.slot < BALLS_PER_ROUND:
                return False
            try:
                return self.apply(state, event)[0] != state
            except IllegalMove:
                return True  # let the refusal reach a person
        return True

    # balls -------------------------------------------------------------------------------
    def _ball_passed(self, state: MilkState, ev: BallPassed):
        if ev.count < 1:
            raise IllegalMove("a beam count must be at least 1")
        if state.phase == "remix":  # the last five rolling out before the remix
            return replace(state, passed=state.passed + ev.count), ()
        if state.phase in ("choose", "colour"):
            # the round's five are all out: whatever crosses the beam now is one too many
            state = replace(state, passed=max(state.passed, BALLS_PER_ROUND))
        elif state.phase not in READING_PHASES:
            raise IllegalMove("no balls are expected now")
        before = state.extras
        new = replace(state, passed=state.passed + ev.count)
        cues: list[c.Cue] = []
        if state.phase == "predict":
            new = replace(new, phase="mill")
            cues.append(phase_cue("mill", state, state.players[state.leader].name))
        if new.extras > before:
            leader = state.players[state.leader].name
            n = new.extras
            cues.append(
                c.Announce(
                    f"{leader}: {n} ball{'s' if n > 1 else ''} too many rolled out. "
                    "Put the extra ball"
                    + ("s" if n > 1 else "")
                    + " back into the mill without looking; only the first 5 count."
                )
            )
        return new, cues

    def likely_colours(self, state: MilkState, slot: int, read: str | None) -> tuple[str, ...]:
        """Colours that could be at `slot`, the reading first, then the most plentiful."""
        others = tuple(b for i, b in enumerate(state.tray) if b and i != slot)
        room = minus(state.mill, counts_of(others))
        feasible = [col for col, n in zip(COLOURS, room, strict=True) if n > 0]
        feasible.sort(key=lambda col: (col != read, -room[COLOURS.index(col)]))
        return tuple(feasible)

    def _ball_seen(self, state: MilkState, ev: BallSeen):
        if ev.colour not in COLOURS:
            raise IllegalMove(f"{ev.colour!r} is not a Color Milk ball ({', '.join(COLOURS)})")
        if not 0 <= ev.slot < BALLS_PER_ROUND:
            raise IllegalMove(
                f"only the first {BALLS_PER_ROUND} balls count; put ball {ev.slot + 1} back "
                "into the mill without looking"
            )
        if state.phase not in READING_PHASES:
            raise IllegalMove("this round's balls are already checked; undo to correct one")
        tray = list(state.tray)
        tapped = list(state.tapped)
        current = tray[ev.slot]
        asks = tuple(a for a in state.asks if a.slot != ev.slot)
        authoritative = ev.confidence >= AUTHORITATIVE
        if current == ev.colour and len(asks) == len(state.asks):
            return state, ()  # the camera saw it again
        if tapped[ev.slot] and not authoritative:
            return state, ()  # a person said what this ball is; the camera does not overrule
        others = [b for i, b in enumerate(tray) if b and i != ev.slot]
        possible = fits([*others, ev.colour], state.mill)
        slot_words = f"ball {ev.slot + 1}"
        if not possible and authoritative:
            # A person overrules the camera: balls of this colour the camera read elsewhere
            # become questions. Only taps against taps are refused.
            suspects = [
                i for i, b in enumerate(tray) if b == ev.colour and i != ev.slot and not tapped[i]
            ]
            sure = [b for i, b in enumerate(tray) if b and i != ev.slot and i not in suspects]
            if not suspects or not fits([*sure, ev.colour], state.mill):
                left = state.mill[COLOURS.index(ev.colour)] - others.count(ev.colour)
                raise IllegalMove(
                    f"the mill holds no more {ev.colour} balls ({left} left this cycle); "
                    f"check {slot_words} or correct an earlier one"
                )
            for i in suspects:
                tray[i] = ""
            tray[ev.slot], tapped[ev.slot] = ev.colour, True
            new = replace(state, tray=tuple(tray), tapped=tuple(tapped), asks=asks)
            cues: list[c.Cue] = []
            for i in suspects:
                choices = self.likely_colours(new, i, None)
                new = replace(new, asks=(*new.asks, Ask(i, choices)))
                cues.append(
                    c.AskHuman(
                        f"Which colour is ball {i + 1}? It was read as {ev.colour}, "
                        f"but {slot_words} is {ev.colour}.",
                        choices,
                    )
                )
            return new, cues
        doubtful = ev.confidence < state.ask_threshold
        conflict = bool(current) and current != ev.colour and not authoritative
        if not possible or doubtful or conflict:
            choices = self.likely_colours(state, ev.slot, ev.colour if possible else None)
            if conflict:  # the two readings first
                first = (ev.colour, current) if possible else (current,)
                choices = (*first, *[x for x in choices if x not in first])
            why = (
                f"looks {ev.colour}, but the mill has no {ev.colour} left"
                if not possible
                else f"was read as {current}, now as {ev.colour}"
                if conflict
                else f"looks {ev.colour}, but I am not sure"
            )
            ask = Ask(ev.slot, choices)
            return replace(state, asks=(*asks, ask)), (
                c.AskHuman(f"Which colour is {slot_words}? It {why}.", choices),
            )
        tray[ev.slot], tapped[ev.slot] = ev.colour, authoritative
        new = replace(state, tray=tuple(tray), tapped=tuple(tapped), asks=asks)
        cues: list[c.Cue] = []
        if new.phase == "predict":
            new = replace(new, phase="mill")
            cues.append(phase_cue("mill", state, state.players[state.leader].name))
        return self._maybe_check(new, cues)
