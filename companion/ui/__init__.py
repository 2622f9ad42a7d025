"""The Kivy touchscreen app, imported only by `companion run` and UI tests (Kivy loads slowly)."""
