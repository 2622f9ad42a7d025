"""Laser's screens' parts: the board editor and the competitive phases."""
