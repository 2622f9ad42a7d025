"""The referee: the solver's optimum for the round just played, worked out in a process of
its own so the screen and the clock never wait for it; the screen shows that it is thinking."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from companion.words import plural

from . import solve

# How the referee asks the solver; a time budget for the search joins here as one more option.
SOLVE_OPTIONS: dict = {"totals": False}
THINKING = "Referee: working out the best play..."


def referee_text(game, state) -> str:
    """The solver's optimum for the round just played, for people (slow: seconds)."""
    return explain(game.position(state, state.last_board, state.last_cards), state.last_bid)


def explain(pos, bid: int | None) -> str:
    """The optimum of `pos` in words, the bid beside it (runs in the referee's process)."""
    sol = solve(pos, **SOLVE_OPTIONS)
    if sol.min_cost is None:
        return "Referee: no solution within 20 MP" + (
            " - it was impossible." if sol.impossible else "."
        )
    shown = f" (bid {bid})" if bid is not None else ""
    lines = [f"Referee: best {sol.min_cost} MP{shown}, removes {plural(sol.removed, 'figure')}"]
    lines += [f"  {i}. {m.describe()}" for i, m in enumerate(sol.moves, 1)]
    return "\n".join(lines)


class Referee:
    """Answers per round, computed once each on a worker thread. `text()` returns the answer
    or THINKING at once; `on_ready()` runs on Kivy's thread when an answer arrives."""

    def __init__(self, on_ready: Callable[[], None]) -> None:
        # imported here: the referee's process unpickles `explain` from this module and
        # needs the solver, not Kivy
        from companion.worker import Worker

        self._worker = Worker("laser-referee", process=True)
        self._answers: dict = {}
        self._on_ready = on_ready

    @staticmethod
    def key(state):
        return state.last_board, state.last_cards, state.last_bid

    def text(self, game, state) -> str:
        key = self.key(state)
        if key in self._answers:
            return self._answers[key]
        pos = game.position(state, state.last_board, state.last_cards)
        self._worker.ask(key, partial(explain, pos, state.last_bid), lambda a: self._got(key, a))
        return THINKING

    def thinking(self, state) -> bool:
        return self._worker.asking(self.key(state))

    def _got(self, key, answer) -> None:
        if isinstance(answer, Exception):
            answer = f"Referee: could not work it out ({answer})."
        self._answers[key] = answer
        self._on_ready()

    def close(self) -> None:
        self._worker.close()
