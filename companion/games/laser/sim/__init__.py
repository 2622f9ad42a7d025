"""The simulated Laser table and `companion demo laser` on it."""
