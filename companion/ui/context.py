"""What every screen needs: where data lives, the log, settings, the table's hardware."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion import games, paths, settings
from companion.clock import Clock, MonotonicClock
from companion.store import GameLog


@dataclass
class AppContext:
    data_dir: Path
    log: GameLog
    settings: settings.Settings
    clock: Clock = field(default_factory=MonotonicClock)
    simulate: bool = True
    table: Any = None  # hardware.table.Table when present: .cue(cue), .status, .close()
    notices: list[str] = field(default_factory=list)  # one-line messages for the home screen
    set_aside: list[str] = field(default_factory=list)  # games that could not be resumed, why
    listener: Any = None  # where table events go: the game screen in play, if any
    cue_listener: Any = None  # where camera news goes: the game screen in play, if any
    camera_source: str | None = None  # None: no camera (tests, screenshots); set by `run`
    sim_tray: Any = None  # the simulated table's rendered ball tray
    camera: Any = None  # the CameraLink of the game in play

    def table_event(self, event) -> None:
        """Called by the hardware (any thread) for every button press or ball."""
        if self.listener is not None:
            self.listener(event)

    @classmethod
    def open(cls, data_dir=None, simulate: bool = True) -> AppContext:
        directory = paths.data_dir(data_dir)
        log = GameLog(paths.log_path(directory))
        loaded, warning = settings.load(paths.settings_path(directory))
        ctx = cls(directory, log, loaded, simulate=simulate)
        if warning:
            ctx.notices.append(warning)
        for game_id, name, why in log.set_aside_damaged():  # one damaged game never stops the box
            title = next((g.title for g in games.CATALOGUE if g.name == name), name)
            players = log.players_of(game_id)
            ctx.set_aside.append(
                f"{title} game #{game_id}{f' ({players})' if players else ''} could not be "
                f"resumed: {why}. It was set aside and stays in the log."
            )
        ctx.notices += ctx.set_aside
        return ctx

    def watch_balls(self, on: bool) -> None:
        """Start (or stop) reading the ball tray with the camera for the game in play."""
        if self.camera is not None:
            self.camera.close()
            self.camera = None
        if not on or self.camera_source in (None, "off"):
            return
        from companion.ui.camera_link import CameraLink
        from vision.doctor import calibration_path

        self.camera = CameraLink(
            simulate=self.camera_source == "simulated",
            source=self.camera_source,
            calibration_file=calibration_path(self.data_dir),
            ask_threshold=self.settings.ask_threshold,
            on_events=lambda events: [self.table_event(e) for e in events],
            on_cue=lambda cue: self.cue_listener and self.cue_listener(cue),
            tray=self.sim_tray,
        )
        self.camera.start()

    def save_settings(self, new: settings.Settings) -> None:
        self.settings = new.validated()
        settings.save(paths.settings_path(self.data_dir), self.settings)
        if self.table is not None:
            self.table.settings = self.settings  # volume, brightness and mute apply at once
