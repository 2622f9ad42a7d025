"""One exception root for the project; each error also inherits the builtin that fits."""


class CompanionError(Exception):
    """Root of every error Table Companion raises on purpose."""


class IllegalMove(CompanionError, ValueError):
    """A rules engine refused an event. The state is unchanged; the message says why."""


class LogError(CompanionError, OSError):
    """The game log cannot be used: corrupt, foreign, or unwritable. It is never overwritten."""


class UsageError(CompanionError, ValueError):
    """Bad command-line input or a malformed JSON document."""


class LogLost(LogError):
    """The log lacks what a backup or its own WAL holds (or is gone while backups exist)."""
