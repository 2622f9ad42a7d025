"""What the camera set-up screen edits, without Kivy: one set-up per tab.

    base   Setup, what every tab's set-up is (shapes dragged over the picture, learning,
           saving), and the helpers set-ups share (atomic files, fitting shapes to a frame)
    cards  the shared Balls & cards tab: tray, white patch and card zones, and the card sets
           the games declare
    contract  what a game's `camera_setup` module fills (Tab, CardSet)
    tabs   the tabs the screen shows, gathered from the game catalogue

A game's own tables are set up by its `camera_setup` module (companion/games/__init__.py);
this package names no game. It loads OpenCV and the vision
package, so the screen imports it only when it opens.
"""
