"""The table's hardware: LEDs, buzzer, arcade buttons, the ball beam and the chute board.

Start at `hardware.table.open_table()`, or `hardware.sim_table.open_simulated_table()` for
the same table on mock pins with simulated hands; docs/hardware.md has the wiring and the
protocol.
"""
