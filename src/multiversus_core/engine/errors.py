"""Typed errors. The library raises these and never prints or exits.

A command can be *invalid* (not well formed: an unknown figure, a die of 7)
or *illegal* (well formed, but the rules forbid it now). Both say what is
wrong in the game's words.
"""

from __future__ import annotations

import errno
from collections.abc import Sequence
from typing import Final, Literal


class MultiversusError(Exception):
    """Base class of every error this library raises on purpose."""


class InvalidCommandError(MultiversusError, ValueError):
    """A command that is not well formed, whatever the state of the match."""


class IllegalCommandError(MultiversusError, ValueError):
    """A well-formed command that the rules do not allow at this point."""


_PLAIN_OS_REASONS: Final[dict[int, str]] = {
    errno.ENOENT: "no such file",
    errno.ENOTDIR: "no such file",
    errno.EISDIR: "a folder, not a file",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EEXIST: "the file already exists",
    errno.ENOSPC: "no space left on the device",
    errno.EROFS: "the file system is read-only",
}


def os_reason(error: OSError) -> str:
    """Why the system refused a file, in the same plain words everywhere ("no such file")."""
    plain = _PLAIN_OS_REASONS.get(error.errno or 0)
    if plain is not None:
        return plain
    reason = error.strerror or str(error)
    return reason[:1].lower() + reason[1:]


class DataFileError(MultiversusError, ValueError):
    """A game's data file (a team sheet, a roster, a map) that cannot be read or breaks its rules.

    The message is one line: the source, then the field at fault and why.
    """

    def __init__(
        self,
        source: str,
        reason: str,
        claimed: str | None = None,
        *,
        problems: Sequence[str] = (),
    ) -> None:
        more = len(problems) - 1
        super().__init__(f"{source}: {reason}" + (f" (and {more} more)" if more > 0 else ""))
        self.source = source
        """The file or entry point the data came from."""
        self.reason = reason
        """What is wrong, naming the field: the first problem."""
        self.claimed = claimed
        """The id the data claims, when it could be read that far (else None)."""
        self.problems: tuple[str, ...] = tuple(problems) or (reason,)
        """Every problem found, each naming its field; the first is :attr:`reason`."""


class SheetError(DataFileError):
    """A team sheet that cannot be read or breaks the sheet rules."""

    def __init__(
        self, source: str, reason: str, team: str | None = None, *, problems: Sequence[str] = ()
    ) -> None:
        super().__init__(source, reason, team, problems=problems)
        self.team = team
        """The id the sheet claims, when it could be read that far (else None)."""


class SettingsError(MultiversusError, ValueError):
    """Match settings that name an unknown team, scenario or variant."""


class UnknownGameError(MultiversusError, LookupError):
    """A game id that no bundled or installed ruleset has."""


LogErrorCode = Literal[
    "io_error",
    "empty",
    "truncated",
    "invalid_utf8",
    "blank_line",
    "carriage_return",
    "malformed_json",
    "too_deep",
    "not_canonical",
    "not_header",
    "misplaced_header",
    "foreign_format",
    "unknown_game",
    "newer_version",
    "bad_version",
    "unknown_field",
    "missing_field",
    "unknown_kind",
    "wrong_type",
    "out_of_range",
    "bad_seq",
    "bad_chain",
    "bad_end",
    "missing_end",
    "after_end",
    "not_appendable",
    "bad_event",
]
"""Why a log was refused: the fixed list of reason codes in ``docs/log-format.md``."""


class LogError(MultiversusError, ValueError):
    """A match log that cannot be read or written: file, 1-based line, byte offset, reason."""

    def __init__(
        self,
        path: str,
        line: int,
        reason: str,
        offset: int = 0,
        code: LogErrorCode = "io_error",
    ) -> None:
        where = f"{path}" if line == 0 else f"{path}, line {line}, byte {offset}"
        text = f"{where}: {reason}" if line == 0 else f"{where}: {reason} ({code})"
        super().__init__(text)
        self.path = path
        """The log file (or "<memory>" for logs read from bytes)."""
        self.line = line
        """The 1-based line number of the bad record (0 if the file cannot be used at all)."""
        self.reason = reason
        """What is wrong with it, in plain words."""
        self.offset = offset
        """The 0-based byte offset in the file where the bad line starts."""
        self.code = code
        """What is wrong with it, as one of the fixed :data:`LogErrorCode` values."""
