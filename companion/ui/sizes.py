"""Sizes every screen keeps to, in dp (the kv rules use these numbers with dp()).

The same sizes in pixels (MIN_TOUCH, BUTTON_INSET, MIN_BUTTON) are worked out when first
asked for: dp() needs the window, and importing the UI must not create it before
`companion run` has set the window's size.
"""

MIN_TOUCH_DP = 48  # smallest touch target anywhere in the app, as drawn
BUTTON_INSET_DP = 1  # a button is drawn this far inside its box: neighbours stay apart
MIN_BUTTON_DP = MIN_TOUCH_DP + 2 * BUTTON_INSET_DP  # the smallest box that draws a full target

_IN_DP = {"MIN_TOUCH": MIN_TOUCH_DP, "BUTTON_INSET": BUTTON_INSET_DP, "MIN_BUTTON": MIN_BUTTON_DP}


def __getattr__(name: str) -> float:
    if name in _IN_DP:
        from kivy.metrics import dp

        return dp(_IN_DP[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
