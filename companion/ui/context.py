"""What every screen needs: where data lives, the log, settings, and the table's runtime."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from companion import catalogue, paths, settings
from companion.clock import Clock, MonotonicClock
from companion.runtime import Runtime
from companion.storage import fault_of, notice
from companion.store import GameLog


@dataclass
class AppContext:
    data_dir: Path
    log: GameLog
    settings: settings.Settings
    clock: Clock = field(default_factory=MonotonicClock)
    simulate: bool = True
    notices: list[str] = field(default_factory=list)  # one-line messages for the home screen
    set_aside: list[str] = field(default_factory=list)  # games that could not be resumed, why
    runtime: Runtime = field(init=False)  # owns the game in play, the table and the camera

    def __post_init__(self) -> None:
        from vision.doctor import calibration_path

        self.settings_unsaved = False
        self.log.storage.subscribe(self._storage_changed)

        # The screen's tick keeps the clock (it draws the countdown anyway).
        self.runtime = Runtime(
            self.settings,
            keep_time=False,
            calibration_file=calibration_path(self.data_dir),
        )

    @classmethod
    def open(cls, data_dir=None, simulate: bool = True) -> AppContext:
        directory = paths.data_dir(data_dir)
        log = GameLog(paths.log_path(directory))
        loaded, warning = settings.load(paths.settings_path(directory))
        ctx = cls(directory, log, loaded, simulate=simulate)
        if warning:
            ctx.notices.append(warning)
        for game_id, name, why in log.set_aside_damaged():  # one damaged game never stops the box
            title = next((g.title for g in catalogue.games() if g.name == name), name)
            players = log.players_of(game_id)
            ctx.set_aside.append(
                f"{title} game #{game_id}{f' ({players})' if players else ''} could not be "
                f"resumed: {why}. It was set aside and stays in the log."
            )
        ctx.notices += ctx.set_aside
        return ctx

    @property
    def table(self):
        """hardware.table.Table when present: .cue(cue), .status, .close()."""
        return self.runtime.table

    @table.setter
    def table(self, table) -> None:
        self.runtime.table = table

    def table_event(self, event) -> None:
        """Called by the hardware (any thread) for every button press or ball."""
        self.runtime.post(event)

    def save_settings(self, new: settings.Settings) -> str | None:
        """The new settings apply at once. If the card refuses them they stay in force and
        are written once the log saves again; returns what to tell people (None: saved)."""
        self.settings = new.validated()
        self.runtime.settings = self.settings
        if self.table is not None:
            self.table.settings = self.settings  # volume, brightness and mute apply at once
        return self._write_settings()

    def _write_settings(self) -> str | None:
        try:
            settings.save(paths.settings_path(self.data_dir), self.settings)
        except OSError as exc:
            self.settings_unsaved = True
            kind = fault_of(exc)
            if kind:
                return notice(kind, "the settings are not saved; they apply until the app stops")
            return f"The settings are not saved ({exc}); they apply until the app stops."
        self.settings_unsaved = False
        return None

    def _storage_changed(self, text: str | None) -> None:
        if text is None and self.settings_unsaved:  # the card takes writes again
            self._write_settings()

    def close(self) -> None:
        """The app stops: the game leaves the table, the hardware and the log close."""
        self.runtime.close()
        self.log.close()
