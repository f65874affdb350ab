"""The audit of a log's commitments, for every game: each reveal opens what was committed.

A game says what its events commit, reveal and make due through an
:class:`Auditor` (one per log, as the game's
:meth:`~multiversus_core.engine.ruleset.Ruleset.auditor` makes it); the engine
pairs them the same way for every game, and names every problem:

- a reveal must open the commitment open under its key (the game's opening
  with the revealed value, and the revealed salt: :func:`.commit.opens`);
- a reveal of nothing committed is a problem, and so is a commitment still
  open when the game says it is due;
- a secret its own chooser may see (``own``) is checked against its
  commitment at once, and stays open for its public reveal.

It works the same on a whole log and on one viewer's redacted log, whose
placeholders still commit. A log of a match started from a position begins with
the secrets committed before it open (:class:`Held`: the position holds each
one's value and salt), and a reveal of one must give the very same. A viewer's
log starts from the position as they may know it, where a secret hidden from
them is a stand-in: its reveal is taken as it is (the match log holds it to the
position's own copy), but it must still come when it is due.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Any, Literal, Protocol, TypeAlias

import msgspec

from multiversus_core.engine.commit import opens

CommitmentCode: TypeAlias = Literal[
    "unrevealed", "reveal_mismatch", "reveal_without_commitment", "bad_commitment"
]
"""What is wrong with a commitment: never revealed when it had to be, revealed with a
secret or salt that does not open it, a reveal of nothing committed, or a selection whose
own secret and salt do not give its commitment."""


class CommitmentProblem(msgspec.Struct, frozen=True):
    """A commitment that a log does not honour."""

    entry: int
    """The 1-based entry where the problem shows (the reveal, or where the reveal was due)."""
    code: CommitmentCode
    message: str
    """What is wrong, naming the secret and the entry that committed to it."""
    committed: int | None = None
    """The 1-based entry of the commitment, if there is one."""


class Committed(msgspec.Struct, frozen=True, gc=False):
    """An event committed to a secret, to be opened by a reveal under the same ``key``."""

    key: str
    """Names the secret among those open at once (for example ``"coins:heroes:"``)."""
    digest: str
    """The commitment: 64 lower-case hex digits."""
    blank: msgspec.Struct
    """The secret's opening with an empty ``value``: where and by whom it was chosen."""
    what: str
    """The secret in words, for a problem ("the Heroes' coin selection")."""


class Revealed(msgspec.Struct, frozen=True, gc=False):
    """An event revealed the secret open under ``key``: ``salt`` and ``value`` must open it."""

    key: str
    salt: str
    value: tuple[str, ...]
    what: str
    """The secret in words, for a problem."""
    own: bool = False
    """The chooser's own copy of the secret (shown only to them): checked now, and the
    commitment stays open for the public reveal."""


class Due(msgspec.Struct, frozen=True, gc=False):
    """Every secret still open under a key starting with one of ``prefixes`` had to be
    revealed by now."""

    prefixes: tuple[str, ...]
    when: str
    """The moment in words, for a problem ("by the end of its activation")."""


class Held(msgspec.Struct, frozen=True, gc=False):
    """A secret committed before the position a log starts from, still to be revealed: the
    position holds its value and salt, so its reveal must give the very same (its
    commitment was bound to the match the position was written in, not this one)."""

    key: str
    salt: str
    value: tuple[str, ...]
    what: str
    """The secret in words, for a problem."""


SecretFact: TypeAlias = Committed | Revealed | Due
"""What an event says about the secrets of a match."""


class Auditor(Protocol):
    """Reads a log's events, in order, for what they commit, reveal and make due."""

    @property
    def audited(self) -> frozenset[type]:
        """The event types :meth:`read` needs to see: every other type is passed by."""
        ...

    def read(self, event: msgspec.Struct) -> Sequence[SecretFact]:
        """Return what ``event`` (or its redacted placeholder) says about the secrets."""
        ...

    def start_at(self, state: Any) -> Sequence[Held]:
        """Read on from ``state``, the referee's state a log starts from (a position): return
        the secrets committed before it and not revealed yet."""
        ...


class _Open(msgspec.Struct, gc=False):
    entry: int
    """The commitment's entry; 0 for a secret held by the starting position."""
    digest: str
    blank: msgspec.Struct | None
    """None for a secret held by the starting position: only its very value opens it."""
    what: str
    unseen: bool = False
    """A secret held by the starting position that the log's viewer does not know: any
    reveal of it is taken as it is."""


def check_commitments(
    auditor: Auditor,
    entries: Iterable[Sequence[msgspec.Struct]],
    start: Any = None,
    unseen: Collection[str] = (),
) -> tuple[CommitmentProblem, ...]:
    """Return every commitment problem of a log's entries (their events), in entry order.

    ``start`` is the state the log starts from when it starts from a position (the secrets
    it holds open); None for a log from the start of the match. ``unseen`` are the keys of
    the secrets it holds as stand-ins (a viewer's position): their reveals are taken as
    they are. A log that stops before a secret is due is not faulted for it.
    """
    audited = auditor.audited
    read = auditor.read
    committed: dict[str, _Open] = {}
    opened: dict[str, tuple[str, tuple[str, ...]]] = {}
    """The salt and value each open commitment was found to open by its own copy (or that
    the starting position holds): its public reveal with the very same need not be hashed."""
    problems: list[CommitmentProblem] = []
    if start is not None:
        for held in auditor.start_at(start):
            hidden = held.key in unseen
            committed[held.key] = _Open(0, "", None, held.what, hidden)
            if not hidden:
                opened[held.key] = (held.salt, held.value)
    for number, events in enumerate(entries, start=1):
        for event in events:
            if type(event) not in audited:  # most events neither commit, reveal nor make due
                continue
            for fact in read(event):
                match fact:
                    case Committed(key=key):
                        opened.pop(key, None)
                        committed[key] = _Open(number, fact.digest, fact.blank, fact.what)
                    case Revealed(own=True):
                        _own(number, fact, committed, opened, problems)
                    case Revealed():
                        _reveal(number, fact, committed, opened, problems)
                    case Due():
                        if committed:
                            _due(number, fact, committed, problems)
    return tuple(sorted(problems, key=lambda problem: problem.entry))


def _opening(at: _Open, value: tuple[str, ...]) -> msgspec.Struct:
    assert at.blank is not None  # a held secret is opened by its value alone
    return msgspec.structs.replace(at.blank, value=value)


def _own(
    number: int,
    fact: Revealed,
    committed: dict[str, _Open],
    opened: dict[str, tuple[str, tuple[str, ...]]],
    problems: list[CommitmentProblem],
) -> None:
    at = committed[fact.key]
    if opens(at.digest, fact.salt, _opening(at, fact.value)):
        opened[fact.key] = (fact.salt, fact.value)
        return
    problems.append(
        CommitmentProblem(
            number,
            "bad_commitment",
            f"{fact.what} does not give its own commitment: the choice, the salt or the "
            "commitment was changed",
            number,
        )
    )


def _reveal(
    number: int,
    fact: Revealed,
    committed: dict[str, _Open],
    opened: dict[str, tuple[str, tuple[str, ...]]],
    problems: list[CommitmentProblem],
) -> None:
    at = committed.pop(fact.key, None)
    if at is None:
        problems.append(
            CommitmentProblem(
                number,
                "reveal_without_commitment",
                f"{fact.what} is revealed, but no commitment to it is open",
            )
        )
    elif opened.pop(fact.key, None) == (fact.salt, fact.value):
        pass  # the chooser's own salt and value, found to open it already
    elif at.unseen:
        pass  # a stand-in of the viewer's position: the match log holds it to the secret
    elif at.blank is None:
        problems.append(
            CommitmentProblem(
                number,
                "reveal_mismatch",
                f"the reveal of {fact.what} is not the secret or salt the starting position holds",
            )
        )
    elif not opens(at.digest, fact.salt, _opening(at, fact.value)):
        problems.append(
            CommitmentProblem(
                number,
                "reveal_mismatch",
                f"the reveal of {fact.what} does not open its commitment of entry {at.entry}: "
                "the secret or the salt differs from what was committed",
                at.entry,
            )
        )


def _due(
    number: int, fact: Due, committed: dict[str, _Open], problems: list[CommitmentProblem]
) -> None:
    for key in [k for k in committed if k.startswith(fact.prefixes)]:
        at = committed.pop(key)
        when = f"in entry {at.entry}" if at.entry else "before the starting position"
        problems.append(
            CommitmentProblem(
                number,
                "unrevealed",
                f"{at.what}, committed {when}, was never revealed ({fact.when})",
                at.entry or None,
            )
        )
