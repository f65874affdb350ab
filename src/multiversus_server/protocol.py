"""The messages between the referee and its clients, and the bounds they are held to.

Every message is one WebSocket text frame holding one JSON object tagged by
its ``type``. The wire format of a match is the log's own: a seat receives
the lines of its view log (``docs/log-format.md``, *View logs*) as the
referee writes them, and, once the match is over, the match log itself.
``docs/serve.md`` describes the exchange.
"""

from __future__ import annotations

import re
from typing import Final, TypeAlias

import msgspec

MAX_MESSAGE_BYTES: Final = 16 * 1024
"""The largest message a client may send: a command is a few hundred bytes."""
MAX_FRAME_BYTES: Final = 1024 * 1024
"""The largest frame the server reads at all; a bigger one closes the connection (1009)."""
RATE: Final = 100.0
"""Messages a second a connection may send, on average."""
BURST: Final = 100.0
"""Messages a connection may send at once, above the average."""
MAX_CONNECTIONS: Final = 16
"""Open connections a match takes at once (its seats' and spectators')."""
TOKEN_BYTES: Final = 16
"""A join link's secret: 128 random bits (:func:`secrets.token_urlsafe`)."""

_TOKEN: Final = re.compile(r"^[A-Za-z0-9_-]{22,64}$")


def is_token(text: str) -> bool:
    """True if ``text`` looks like a join link's token (URL-safe base64, 22 to 64 characters)."""
    return _TOKEN.fullmatch(text) is not None


# --- from a client ---------------------------------------------------------------------


class Join(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type", tag="join"):
    """The first message of a connection: a seat gives its contribution to the chance."""

    contribution: str = ""
    """32 fresh random bytes as 64 lower-case hex digits (a seat's); empty for a spectator.
    Recorded only at the seat's first join: a seat that joins again gets back the one
    recorded."""
    page: bool = False
    """True for a client that cannot run the engine (the browser page): it is sent, besides
    the view log, the board and the choices of its seat's view (:class:`Shown`) and the
    referee's cross-check at the end (:class:`Checked`)."""


class Act(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type", tag="command"):
    """A command for the client's own seat, exactly as the game's legal commands give it
    (no salt, no dice: the referee adds the salt and draws the dice)."""

    command: msgspec.Raw
    """The command as JSON, decoded with the game's commands."""


class Choose(
    msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type", tag="choose"
):
    """For a page, in a game whose decision is a tree of choices (``CommandTree``): the keys
    chosen so far. The referee answers with the next choice (a ``shown`` with ``asked``) or,
    once they make a whole command, takes it as if it were sent in a ``command``."""

    chosen: tuple[str, ...] = ()


ClientMessage: TypeAlias = Join | Act | Choose
"""Any message a client sends."""


# --- from the referee ------------------------------------------------------------------


class Sync(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type", tag="sync"):
    """The whole view log so far: after a join, and whenever the seat's viewer changes (a
    Multiversus seat is the spectator until the sides are chosen)."""

    game: str
    seat: int | None
    """The seat this connection plays, or None for a spectator."""
    viewer: str
    """Whose view the lines are (the game's viewer of the seat now)."""
    lines: tuple[str, ...]
    """Every line of the view log so far, without newlines."""
    contribution: str
    """The seat's contribution to the chance as recorded (empty for a spectator)."""
    waiting: tuple[int, ...]
    """The seats that have not joined yet: the match begins once none is left."""


class Lines(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type", tag="lines"):
    """New lines of the view log, in order: an entry's (its acknowledgement, once on disk),
    and the end record once the match is over."""

    viewer: str
    first: int
    """The 0-based number of the first of these lines in the view log (the header is 0)."""
    lines: tuple[str, ...]


class Published(
    msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type", tag="published"
):
    """The match is over: the whole match log, for every client to check."""

    log: str


class Error(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type", tag="error"):
    """A message refused, for the client that sent it only; the match goes on."""

    message: str
    """One line, in plain words."""


class Choice(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One legal command of the seat's, for a page: the command, its words, and where it is
    given on the board (:class:`~multiversus_core.engine.render.Pick`)."""

    command: msgspec.Raw
    """The command as JSON: a page sends it back as it is, in an ``Act``."""
    words: str
    """The command in the game's words (``command_words``)."""
    piece: str | None = None
    """The piece it moves or acts with (the board's ``data-piece``), if given on the board."""
    square: str | None = None
    """The square it goes to or aims at (the board's ``data-square``)."""


class Option(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One option of a choice on the way to a command: the key that chooses it, its words."""

    key: str
    label: str


class Picked(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A way on from a choice given on the board: the keys it adds to those chosen so far
    (an option's, or an option's and one of the next choice's), in words, and the piece or
    square that gives it (:class:`~multiversus_core.engine.render.Pick`)."""

    keys: tuple[str, ...]
    words: str
    piece: str | None = None
    """The piece an option names (the board's ``data-piece``)."""
    square: str | None = None
    """The square an option names (the board's ``data-square``)."""


class Asked(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A choice on the way to a command, after the keys ``chosen``."""

    chosen: tuple[str, ...]
    prompt: str
    options: tuple[Option, ...]
    picks: tuple[Picked, ...] = ()
    """The options given on the board (the renderer's optional ``option_pick``)."""


class Shown(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type", tag="shown"):
    """What a page draws, made from its seat's view log alone (as the terminal client makes
    it): sent to a page after each ``sync`` or ``lines``."""

    viewer: str
    lines: int
    """How many lines of the view log it was made from."""
    where: str
    """Where the match stands, in the game's words."""
    board: str | None
    """The board of the seat's view as one SVG document (the game's renderer); None: no board."""
    view: msgspec.Raw
    """The seat's view as JSON: its coins, its secrets, what it may know."""
    to_act: tuple[int, ...]
    """The seats the match waits for."""
    choices: tuple[Choice, ...]
    """The seat's legal commands, when it is to act and they can be listed (none for a
    spectator)."""
    asked: Asked | None = None
    """A decision too big to list: its next choice (answered with ``choose``)."""
    odds: tuple[str, ...] = ()
    """What the terminal's ``?`` says of the decision at hand, a line each (none when it says
    nothing, or the referee was started without the program's words: ``create_app``'s
    ``explain``)."""
    facts: str = ""
    """The seat's view beside the board, in words: an HTML fragment of definition lists and
    tables (:func:`~multiversus_core.engine.render.facts_html` of the renderer's optional
    ``view_facts``, else of the whole view): its coins, its secrets, what it may know."""


class Checked(
    msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type", tag="checked"
):
    """The referee's cross-check of the published match log against the view log it sent a
    page (a terminal client runs its own): sent to a page after ``published``."""

    ok: bool
    problems: tuple[str, ...]
    entries: int
    outcome: str | None
    view_log: str
    """The SHA-256 of the view log checked, so that the page can hold it to its own."""


ServerMessage: TypeAlias = Sync | Lines | Published | Error
"""Any message the referee sends to a client that runs the engine."""
PageMessage: TypeAlias = Sync | Lines | Published | Error | Shown | Checked
"""Any message the referee sends to a page."""


class Created(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The answer to ``POST /matches``: one secret link a seat, and one for spectators."""

    seats: tuple[str, ...]
    spectator: str


encoder: Final = msgspec.json.Encoder()
client_decoder: Final = msgspec.json.Decoder(ClientMessage)
server_decoder: Final = msgspec.json.Decoder(ServerMessage)
page_decoder: Final = msgspec.json.Decoder(PageMessage)
