"""Laser."""
