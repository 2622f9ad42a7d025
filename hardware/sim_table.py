"""The simulated table: the real hardware.table.Table on a simulated backend, as gpiozero's
mock pin factory is one, with the hands that act on it.

    with open_simulated_table(on_event=handle) as sim:
        sim.table.cue(PhaseStarted("planning", "ann", "red"))   # the app's one interface
        sim.hands.press("next"); sim.hands.drop_ball("pink")     # a person at the table

The backend is gpiozero's mock pins (PWM-capable, for the RGB LED and buzzer) and a chute
board on a pseudo-terminal (hardware.sim_board), so the table runs the same code as on a Pi;
the keyboard and the on-screen strip only move the hands (hardware.sim_hands).
"""

from __future__ import annotations

import collections
from collections.abc import Callable

from companion.clock import Clock
from companion.events import Event
from companion.settings import Settings
from hardware import pins as pinmap
from hardware.sim_board import SimulatedChuteBoard
from hardware.sim_hands import SimulatedHands
from hardware.table import Table, configured_pins

SIM_PIN_HISTORY = 64  # changes a simulated pin remembers (gpiozero's MockPin.states)


def mock_pin_factory():
    """gpiozero's mock factory with PWM-capable pins (the RGB LED and buzzer need PWM)."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    class SimPin(MockPWMPin):
        """A mock pin whose next edge can carry the time the simulation says it happened
        (`stamp`), as lgpio stamps real edges, however late the simulating thread runs."""

        stamp: float | None = None

        def clear_states(self):
            # gpiozero keeps every change a mock pin ever made, for its own tests' asserts:
            # a simulated table left on (LEDs cued, beam broken by every ball) kept them all.
            super().clear_states()
            self.states = collections.deque(self.states, maxlen=SIM_PIN_HISTORY)

        def _change_state(self, value):
            changed = super()._change_state(value)
            if changed and self.stamp is not None:
                self._last_change = self.stamp
            return changed

    return MockFactory(pin_class=SimPin)


class SimulatedTable:
    """A table (`table`, the app's interface), the hands on it (`hands`) and the backend
    they share, opened and closed together."""

    def __init__(
        self, table: Table, hands: SimulatedHands, pin_factory, board: SimulatedChuteBoard | None
    ) -> None:
        self.table, self.hands = table, hands
        self.pin_factory, self.board = pin_factory, board
        self._closed = False

    def close(self) -> None:
        """The hands stop first, then the table's parts, then the backend under them."""
        if self._closed:
            return
        self._closed = True
        self.hands.close()
        self.table.close()
        if self.board is not None:
            self.board.close()
        self.pin_factory.reset()

    def __enter__(self) -> SimulatedTable:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<SimulatedTable {self.table!r}>"


def open_simulated_table(
    on_event: Callable[[Event], None],
    settings: Settings | None = None,
    pins: pinmap.PinMap | None = None,
    clock: Clock | None = None,
    **options,
) -> SimulatedTable:
    """Open every configured part of a table on mock pins and a chute board on a pty (works
    anywhere), and the hands that act on it. Options as hardware.table.open_table's:
    sleep, poll, on_status, on_fault."""
    pins = configured_pins() if pins is None else pins
    factory = mock_pin_factory()
    board = None
    if pins.serial.enabled:
        board = SimulatedChuteBoard(references=dict(pins.references) or None)
    table = Table(
        on_event=on_event,
        settings=settings,
        pins=pins,
        clock=clock,
        pin_factory=factory,
        serial_port=board.port if board is not None else None,
        kind="simulated",
        **options,
    )
    return SimulatedTable(table, SimulatedHands(pins, factory, board), factory, board)
