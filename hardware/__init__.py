"""The table's hardware: LEDs, buzzer, arcade buttons, the ball beam and the chute board.

Start at `hardware.table.open_table()`; docs/hardware.md has the wiring and the protocol.
"""
