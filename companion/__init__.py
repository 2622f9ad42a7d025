"""Table Companion: the table's clock, scorekeeper and eyes for five physical colour games."""

__version__ = "0.1.0"
