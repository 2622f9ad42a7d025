"""Sizes every screen keeps to (the kv rules import them too)."""

from kivy.metrics import dp

MIN_TOUCH = dp(48)  # smallest touch target anywhere in the app, as drawn
BUTTON_INSET = dp(1)  # a button is drawn this far inside its box: neighbours stay apart
MIN_BUTTON = MIN_TOUCH + 2 * BUTTON_INSET  # the smallest box that draws a full target
