"""The records of a match log, for any game: header, entry and end lines, and upcasts.

The records are generic over a game's settings, commands and events: the
log reader decodes ``LogHeader[S]`` and ``EntryRecord[C, E]`` with the
game's own types (:mod:`.log` builds the decoders once per game), so a line
that does not fit the game's schema is refused as it is read. What a record
holds is storage; events know nothing of it.

A game whose payload changed keeps reading its old logs through
:class:`Upcast` steps it lists in :attr:`.ruleset.Ruleset.log_upcasts`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any, Final, Generic, Literal, TypeAlias, TypeVar

import msgspec

from multiversus_core.engine.chance import Chance

DEFAULT_GAME: Final = "multiversus"
"""The game a log without a game id plays (logs before games had ids), and the
commands' default."""

LOG_VERSION: Final = 4
"""The log format version this engine writes and the newest it reads."""

MAX_ENTRIES: Final = 10**9
"""The most entries a log may number (a match has a few hundred)."""
EntryNumber: TypeAlias = Annotated[int, msgspec.Meta(ge=1, le=MAX_ENTRIES)]
"""An entry's sequence number in a log: 1 to :data:`MAX_ENTRIES`."""
EntryCount: TypeAlias = Annotated[int, msgspec.Meta(ge=0, le=MAX_ENTRIES)]
"""How many entries an end record seals: 0 to :data:`MAX_ENTRIES`."""

S = TypeVar("S")
C = TypeVar("C")
E = TypeVar("E")


class LogHeader(
    msgspec.Struct,
    Generic[S],
    frozen=True,
    forbid_unknown_fields=True,
    gc=False,
    tag_field="record",
    tag="header",
    omit_defaults=True,
):
    """The first record of a log: what it is, which game, and how the match was set up."""

    format: Literal["multiversus-log"]
    """Always ``"multiversus-log"``."""
    version: int
    """The log format version (4; older logs are upcast to 4 on read)."""
    engine: str
    """The version of the engine that wrote the log (``multiversus_core.__version__``)."""
    settings: S
    """The settings the match was started with (the game's settings struct)."""
    game: str = DEFAULT_GAME
    """The game's id (:mod:`multiversus_core.engine.registry`); left out for Multiversus."""
    rules: int = 0
    """The version of the game's commands, events and settings; left out (0) for
    Multiversus, whose payload version is the format version."""
    position: str = ""
    """The position the match started from (:mod:`.position`), written without its chance
    seed; left out (empty) for a match that started from the game's initial state."""

    def __post_init__(self) -> None:
        # The encoder leaves a default out only when it is the very default object: a
        # header read from a line that names the game is given it, so that such a line
        # is found not canonical (a Multiversus header leaves the game out).
        if self.game == DEFAULT_GAME:
            msgspec.structs.force_setattr(self, "game", DEFAULT_GAME)


class LogEntry(
    msgspec.Struct,
    Generic[C, E],
    frozen=True,
    forbid_unknown_fields=True,
    gc=False,
    tag_field="record",
    tag="entry",
):
    """One accepted command and the events it caused, in order.

    This is an entry's content, without storage metadata; it is also exactly
    the entry record of format version 1.
    """

    command: C
    """The command, exactly as it was accepted."""
    events: tuple[E, ...]
    """The events the game's ``decide`` produced for it."""


class EntryRecord(
    msgspec.Struct,
    Generic[C, E],
    frozen=True,
    forbid_unknown_fields=True,
    gc=False,
    tag_field="record",
    tag="entry",
):
    """An entry line (format version 2 and later): an entry chained to the line before it."""

    seq: EntryNumber
    """The entry's 1-based sequence number (the header is 0)."""
    prev: str
    """The lower-case hex SHA-256 of the previous line's bytes (newline excluded)."""
    command: C
    """The command, exactly as it was accepted."""
    events: tuple[E, ...]
    """The events the game's ``decide`` produced for it."""


class EndRecord(
    msgspec.Struct,
    frozen=True,
    forbid_unknown_fields=True,
    gc=False,
    tag_field="record",
    tag="end",
):
    """The last line of the log of a finished match: seals the entries, reveals the chance."""

    count: EntryCount
    """How many entry records the log holds."""
    head: str
    """The lower-case hex SHA-256 of the last entry line's bytes (newline excluded)."""
    chance: Chance | None = None
    """The chance seed and its salt, opening the settings' ``chance`` commitment; None
    when chance was public (the settings' ``seed``). New in version 4."""


Entries: TypeAlias = tuple[LogEntry[Any, Any], ...]
"""A log's entries."""


class Upcast(msgspec.Struct, frozen=True, gc=False):
    """One step that reads a game's logs of an older payload version as the next version's.

    For a game whose logs carry a ``rules`` version, the step is keyed by the
    rules version it reads; for Multiversus (``rules`` 0), whose payload
    version is the log format version, by the format version.
    """

    step: Callable[[LogHeader[Any], Entries], tuple[LogHeader[Any], Entries]]
    """Returns the header (its version moved on by one) and the entries of the next version."""
    added: re.Pattern[bytes] | None = None
    """The fields the next version added to the records' JSON: a line of this version (or an
    older one) is canonical without them."""
