"""A game in progress: the pure rules, the log, the phase timer and whoever listens for cues.

`submit` is the one door for events. The event is checked by the rules (a refusal changes
nothing), written to the log, and only then adopted; the cues go to every sink, and every
watcher hears that the state changed (after submit, undo, redo and a timer's expiry).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict
from typing import Any

from companion import events as ev
from companion.clock import Clock, MonotonicClock
from companion.cues import Cue, GameOver
from companion.entries import fold_entries
from companion.game import Game, GameConfig, TimerSpec
from companion.store import GameLog
from companion.store.integrity import DamagedGame
from companion.timer import EXPIRED, PhaseTimer

CueSink = Callable[[Cue], None]
Watcher = Callable[[], None]  # called after every change of state, on the changing thread
TIMER_SAVE_INTERVAL = 1.0  # seconds between snapshots of the running countdown


def config_from_json(data: dict[str, Any]) -> GameConfig:
    teams = data.get("teams")
    return GameConfig(
        players=tuple(data["players"]),
        options=dict(data.get("options", {})),
        seed=int(data.get("seed", 0)),
        teams=tuple(teams) if teams is not None else None,
    )


def config_to_json(config: GameConfig) -> dict[str, Any]:
    out = asdict(config)
    out["players"] = list(config.players)
    out["options"] = dict(config.options)
    if config.teams is None:
        out.pop("teams")
    else:
        out["teams"] = list(config.teams)
    return out


def replay(game: Game, config: GameConfig, entries: Iterable) -> tuple[list, list]:
    """Re-apply a log. Returns the state after each event in force (index 0: the start) and
    the redo stack (states the undone events lead to, the next redo last)."""
    done, undone = fold_entries(entries)
    states = [game.initial_state(config)]
    for payload in done:
        state, _ = game.apply(states[-1], ev.from_dict(payload))
        states.append(state)
    redo, state = [], states[-1]
    for payload in reversed(undone):
        state, _ = game.apply(state, ev.from_dict(payload))
        redo.append(state)
    return states, redo[::-1]


class Session:
    def __init__(
        self,
        game: Game,
        log: GameLog,
        game_id: int,
        config: GameConfig,
        clock: Clock | None = None,
        sinks: Sequence[CueSink] = (),
    ) -> None:
        self.game = game
        self.log = log
        self.game_id = game_id
        self.config = config
        self.clock = clock or MonotonicClock()
        self.sinks: list[CueSink] = list(sinks)
        self.watchers: list[Watcher] = []
        self._lock = threading.RLock()
        entries = log.entries(game_id)
        self._states, self._redo = replay(game, config, entries)
        self._timer: PhaseTimer | None = None
        self._timer_key: str | None = None
        self._saved_at = float("-inf")
        self._sync_timer(restore=log.saved_timer(game_id))
        self._settle_status()

    # construction -----------------------------------------------------------------
    @classmethod
    def start(cls, game: Game, log: GameLog, config: GameConfig, **kw) -> Session:
        game.initial_state(config)  # refuse a bad config before anything is written
        game_id = log.new_game(game.name, config_to_json(config))
        return cls(game, log, game_id, config, **kw)

    @classmethod
    def resume(cls, game: Game, log: GameLog, game_id: int, **kw) -> Session:
        rec = log.game(game_id)
        if rec.damaged:
            raise DamagedGame(game_id, rec.damaged)
        return cls(game, log, game_id, config_from_json(rec.config), **kw)

    def __repr__(self) -> str:
        return f"<Session {self.game.name} #{self.game_id} events={len(self._states) - 1}>"

    # reading ----------------------------------------------------------------------
    @property
    def state(self) -> Any:
        return self._states[-1]

    @property
    def can_undo(self) -> bool:
        return len(self._states) > 1

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def timer(self) -> PhaseTimer | None:
        return self._timer

    # changing -----------------------------------------------------------------------
    def submit(self, event: ev.Event) -> tuple[Cue, ...]:
        """Apply one event. Raises IllegalMove (nothing written, nothing changed)."""
        with self._lock:
            was_over = self.game.is_over(self.state)
            new_state, cues = self.game.apply(self.state, event)
            self.log.append(self.game_id, "event", ev.to_dict(event))
            self._states.append(new_state)
            self._redo.clear()
            cues = tuple(cues)
            if not was_over and self.game.is_over(new_state):
                winners = tuple(self.game.winners(new_state))
                self.log.finish(self.game_id, self.result())
                cues += (GameOver(winners),)
            self._sync_timer()
        self._changed()
        self._emit(cues)
        return cues

    def undo(self) -> bool:
        with self._lock:
            if not self.can_undo:
                return False
            was_over = self.game.is_over(self.state)
            self.log.append(self.game_id, "undo")
            self._redo.append(self._states.pop())
            if was_over and not self.game.is_over(self.state):
                self.log.reopen(self.game_id)
            self._sync_timer()
        self._changed()
        return True

    def redo(self) -> bool:
        with self._lock:
            if not self.can_redo:
                return False
            self.log.append(self.game_id, "redo")
            self._states.append(self._redo.pop())
            if self.game.is_over(self.state):
                self.log.finish(self.game_id, self.result())
            self._sync_timer()
        self._changed()
        return True

    def abandon(self) -> None:
        self.log.finish(self.game_id, self.result(), status="abandoned")

    def result(self) -> dict[str, Any]:
        state = self.state
        return {
            "scores": dict(self.game.scores(state)),
            "winners": list(self.game.winners(state)),
        }

    def _settle_status(self) -> None:
        """A power cut between writing an entry and marking the game finished (or reopened)
        leaves the status behind the log; the log is the truth."""
        status, over = self.log.game(self.game_id).status, self.game.is_over(self.state)
        if over and status == "active":
            self.log.finish(self.game_id, self.result())
        elif not over and status == "finished":
            self.log.reopen(self.game_id)

    # time ---------------------------------------------------------------------------
    def poll(self) -> tuple[Cue, ...]:
        """Call often (the UI does, ~10 times a second). Fires warnings and expiry."""
        with self._lock:
            timer = self._timer
            if timer is None:
                return ()
            fired = timer.poll()
            self._save_timer()
        cues: list[Cue] = []
        for item in fired:
            if item is EXPIRED:
                cues.extend(self.submit(ev.TimerExpired(self._timer_key)))
            else:
                cues.append(item)
                self._emit((item,))
        return tuple(cues)

    def pause_timer(self) -> None:
        with self._lock:
            if self._timer:
                self._timer.pause()
                self._save_timer(force=True)

    def resume_timer(self) -> None:
        with self._lock:
            if self._timer:
                self._timer.resume()
                self._save_timer(force=True)

    def add_time(self, seconds: float) -> None:
        with self._lock:
            if self._timer:
                self._timer.add_time(seconds)
                self._save_timer(force=True)

    # internals ------------------------------------------------------------------------
    def _changed(self) -> None:
        for watcher in list(self.watchers):
            watcher()

    def _emit(self, cues: Iterable[Cue]) -> None:
        for cue in cues:
            for sink in list(self.sinks):
                sink(cue)

    def _sync_timer(self, restore: tuple[str, float, bool] | None = None) -> None:
        """Make the running countdown the one the state asks for."""
        spec: TimerSpec | None = self.game.timer(self.state)
        if spec is None:
            self._timer, self._timer_key = None, None
            return
        if spec.key == self._timer_key:
            return
        self._timer = PhaseTimer(self.clock, spec.seconds, spec.warnings)
        self._timer_key = spec.key
        if restore and restore[0] == spec.key:
            self._timer.start(remaining=restore[1])
            if restore[2]:
                self._timer.pause()
        else:
            self._timer.start()
        self._save_timer(force=True)

    def _save_timer(self, force: bool = False) -> None:
        now = self.clock.now()
        if self._timer and (force or now - self._saved_at >= TIMER_SAVE_INTERVAL):
            self._saved_at = now
            self.log.save_timer(
                self.game_id, self._timer_key, self._timer.remaining(), self._timer.paused
            )
