"""Typed errors. The library raises these and never prints or exits.

A command can be *invalid* (not well formed: an unknown figure, a die of 7)
or *illegal* (well formed, but the rules forbid it now). Both say what is
wrong in the game's words.
"""

from __future__ import annotations


class MultiversusError(Exception):
    """Base class of every error this library raises on purpose."""


class InvalidCommandError(MultiversusError, ValueError):
    """A command that is not well formed, whatever the state of the match."""


class IllegalCommandError(MultiversusError, ValueError):
    """A well-formed command that the rules do not allow at this point."""


class SheetError(MultiversusError, ValueError):
    """A team sheet that cannot be read or breaks the sheet rules."""

    def __init__(self, source: str, reason: str) -> None:
        super().__init__(f"{source}: {reason}")
        self.source = source
        """The file or team the sheet came from."""
        self.reason = reason
        """What is wrong, naming the field."""


class SettingsError(MultiversusError, ValueError):
    """Match settings that name an unknown team, scenario or variant."""


class LogError(MultiversusError, ValueError):
    """A match log that cannot be read, with the file, 1-based line and reason."""

    def __init__(self, path: str, line: int, reason: str) -> None:
        super().__init__(f"{path}, line {line}: {reason}")
        self.path = path
        """The log file (or "<memory>" for logs read from bytes)."""
        self.line = line
        """The 1-based line number of the bad record."""
        self.reason = reason
        """What is wrong with it."""
