"""Verification: re-run the rules on a log and check they give exactly its events.

Reading a log checks its form and its hash chain; verifying it also checks
that every commitment was opened by its reveal (:func:`check_commitments`)
and replays every recorded command through :func:`decide` from the header's
settings, so an edited outcome, or a rule that changed since the log was
written, is caught at the first entry where the rules and the log differ.
One side's view log (:mod:`multiversus_core.viewlog`) cannot be re-run
through the rules, which need what its viewer did not see: :func:`verify_view`
checks its commitments.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Final, Literal, TypeAlias

import msgspec

from multiversus_core.commitments import Opening, SecretKind, opening, opens, selection_value
from multiversus_core.decide import decide_and_fold
from multiversus_core.errors import LogError, MultiversusError
from multiversus_core.events import (
    ActivationEnded,
    CoinsRevealed,
    CoinsSelected,
    Event,
    MatchEnded,
    ReactionRevealed,
    ReactionSelected,
    RoundStarted,
    SecretChosen,
    SecretRevealed,
    SideChosen,
    TurnStarted,
)
from multiversus_core.log import LogEntry, MatchLog, decode_log, read_bytes
from multiversus_core.match import start_match
from multiversus_core.settings import MatchSettings, SaltSource
from multiversus_core.state import MatchState
from multiversus_core.terms import Seat, Side
from multiversus_core.viewlog import decode_view_log, is_view_log, replayable
from multiversus_core.views import (
    HiddenCoinsSelected,
    HiddenReactionSelected,
    HiddenSecretChosen,
    PlayerViewer,
    RedactedEntry,
    RedactedLog,
    ViewEvent,
)

CommitmentCode: TypeAlias = Literal[
    "unrevealed", "reveal_mismatch", "reveal_without_commitment", "bad_commitment"
]
"""What is wrong with a commitment: never revealed when it had to be, revealed with a
secret or salt that does not open it, a reveal of nothing committed, or a selection whose
own secret and salt do not give its commitment."""

ProblemCode: TypeAlias = (
    Literal["log_error", "bad_settings", "command_refused", "rules_differ", "bad_event"]
    | CommitmentCode
)
"""Why a log failed: unreadable, unknown settings, a refused command, other events, (in a
view log) an event that cannot follow the ones before it, or a commitment problem."""


class Verification(msgspec.Struct, frozen=True):
    """The result of verifying one log."""

    path: str
    ok: bool
    entries: int
    """Entries checked (all of them when the log passes)."""
    finished: bool
    """The match in the log has ended."""
    problem: str | None = None
    """What failed, in one line naming the entry, round and turn."""
    salts: SaltSource | None = None
    """Where the log's commitment salts came from; ``"seed"`` marks a log that is not secret
    (None if the log could not be read)."""
    code: ProblemCode | None = None
    entry: int | None = None
    """The 1-based entry (the log's line is one more) where the first difference is."""
    round: int | None = None
    turn: int | None = None
    view: PlayerViewer | None = None
    """Whose view, for a view log (:mod:`multiversus_core.viewlog`): its form, its
    commitments and that its events follow are checked, not the rules, which cannot be
    re-run without its hidden secrets."""


def verify(log: MatchLog, path: str = "<memory>") -> Verification:
    """Check every commitment, re-run every recorded command and compare the events it gives
    with the log's.

    The first problem, by entry, is reported. Never raises for a bad log: the
    problem is in the result.
    """
    salts = log.header.settings.salts
    try:
        state = start_match(log.header.settings)
    except MultiversusError as exc:
        return Verification(
            path=path,
            ok=False,
            entries=0,
            finished=False,
            problem=str(exc),
            code="bad_settings",
            salts=salts,
        )
    commitments = check_commitments(log)
    for number, entry in enumerate(log.entries, start=1):
        try:
            events, after = decide_and_fold(entry.command, state)
        except MultiversusError as exc:
            where = f"entry {number} (line {number + 1}), {_when(state)}"
            return _failed(
                path,
                number,
                state,
                "command_refused",
                f"{where}: the rules refuse its command ({type(exc).__name__}: {exc})",
            )
        if commitments and commitments[0].entry == number:
            where = f"entry {number} (line {number + 1}), {_when(state)}"
            first = commitments[0]
            return _failed(path, number, state, first.code, f"{where}: {first.message}")
        if events != tuple(entry.events):
            where = f"entry {number} (line {number + 1}), {_when(state)}"
            return _failed(
                path,
                number,
                state,
                "rules_differ",
                f"{where}: {_difference(events, tuple(entry.events))}",
            )
        state = after  # the recorded events, folded while deciding
    return Verification(
        path=path, ok=True, entries=len(log.entries), finished=state.is_over, salts=salts
    )


def verify_view(log: RedactedLog, path: str = "<memory>") -> Verification:
    """Check one side's view of a log: every commitment it shows was honoured.

    A view cannot be re-run through the rules (its hidden secrets are placeholders), so this
    checks what a view can show: that every reveal opens its commitment, that
    nothing committed went unrevealed (:func:`check_commitments`), and that its
    events follow from each other once its secrets are filled in from their
    reveals (:func:`~multiversus_core.viewlog.replayable`; ``bad_event``). The
    first problem, by entry, is reported.
    """
    if log.viewer == "referee":
        raise ValueError("the referee's view is the whole log: verify it with verify()")
    salts = log.header.settings.salts
    finished = bool(log.entries) and any(isinstance(e, MatchEnded) for e in log.entries[-1].events)
    found: list[tuple[int, ProblemCode, str]] = [
        (problem.entry, problem.code, problem.message) for problem in check_commitments(log)
    ]
    try:
        replayable(log, path)
    except LogError as error:
        found.append((error.line - 1, "bad_event", error.reason))
    if not found:
        return Verification(
            path=path,
            ok=True,
            entries=len(log.entries),
            finished=finished,
            salts=salts,
            view=log.viewer,
        )
    entry, code, message = min(found, key=lambda problem: problem[0])
    round_, turn = _round_and_turn(log.entries[: entry - 1])
    when = "set-up" if round_ == 0 else f"round {round_}, turn {turn}"
    return Verification(
        path=path,
        ok=False,
        entries=entry - 1,
        finished=finished,
        problem=f"entry {entry} (line {entry + 1}), {when}: {message}",
        salts=salts,
        code=code,
        entry=entry,
        round=round_,
        turn=turn,
        view=log.viewer,
    )


def verify_file(path: str | os.PathLike[str]) -> Verification:
    """Read a log file and verify it; a log that cannot be read fails with its LogError.

    A view log (one side's view, :mod:`multiversus_core.viewlog`) is recognised
    by its first line and checked with :func:`verify_view`.
    """
    name = os.fspath(path)
    try:
        data = read_bytes(name)
        if is_view_log(data):
            return verify_view(decode_view_log(data, name), name)
        log = decode_log(data, name)
    except LogError as exc:
        return Verification(
            path=name, ok=False, entries=0, finished=False, problem=str(exc), code="log_error"
        )
    return verify(log, name)


def _round_and_turn(entries: Sequence[RedactedEntry]) -> tuple[int, int]:
    """The round and the turn in it after these entries, from their public events."""
    round_ = turn = 0
    for entry in entries:
        for event in entry.events:
            if isinstance(event, RoundStarted):
                round_, turn = event.round, 0
            elif isinstance(event, TurnStarted):
                turn += 1
    return round_, turn


def _when(state: MatchState) -> str:
    if state.round == 0:
        return "set-up"
    return f"round {state.round}, turn {state.turns_in_round}"


def _failed(
    path: str, number: int, state: MatchState, code: ProblemCode, problem: str
) -> Verification:
    return Verification(
        path=path,
        ok=False,
        entries=number - 1,
        finished=False,
        problem=problem,
        code=code,
        entry=number,
        round=state.round,
        turn=state.turns_in_round,
        salts=state.settings.salts,
    )


def _difference(expected: tuple[Event, ...], recorded: tuple[Event, ...]) -> str:
    """Describe the first event where the rules and the log differ."""
    for index, (mine, theirs) in enumerate(zip(expected, recorded, strict=False), start=1):
        if mine != theirs:
            return f"event {index}: the rules give {_show(mine)} where the log has {_show(theirs)}"
    if len(expected) > len(recorded):
        extra = len(expected) - len(recorded)
        return f"the rules give {extra} more event(s), from {_show(expected[len(recorded)])}"
    extra = len(recorded) - len(expected)
    return (
        f"the log has {extra} event(s) the rules do not give, from {_show(recorded[len(expected)])}"
    )


def _show(event: Event) -> str:
    return msgspec.json.encode(event).decode()


# --- commitments -------------------------------------------------------------


class CommitmentProblem(msgspec.Struct, frozen=True):
    """A commitment that a log does not honour."""

    entry: int
    """The 1-based entry where the problem shows (the reveal, or where the reveal was due)."""
    code: CommitmentCode
    message: str
    """What is wrong, naming the secret and the entry that committed to it."""
    committed: int | None = None
    """The 1-based entry of the commitment, if there is one."""


_SIDE_NAMES: Final[dict[Side, str]] = {"heroes": "the Heroes'", "adversaries": "the Adversaries'"}
_KIND_NAMES: Final[dict[SecretKind, str]] = {
    "coins": "coin selection",
    "reaction": "reactive selection",
    "secret": "secret",
}


class _Committed(msgspec.Struct, frozen=True):
    entry: int
    commitment: str
    round: int
    activation: int
    seat: Seat


class _Audit:
    """Walks a log's events (a whole log or one side's redacted log) pairing commitments
    with reveals."""

    def __init__(self, settings: MatchSettings) -> None:
        self.settings = settings
        self.round = 0
        self.activations = 0
        self.seats: dict[Side, Seat] = {}
        self.open: dict[tuple[SecretKind, Side, str], _Committed] = {}
        self.problems: list[CommitmentProblem] = []

    def event(self, entry: int, event: ViewEvent) -> None:
        match event:
            case SideChosen(seat=seat, side=side):
                other: Side = "adversaries" if side == "heroes" else "heroes"
                self.seats = {side: seat, other: 2 if seat == 1 else 1}
            case RoundStarted(round=number):
                self.round = number
            case CoinsSelected() | HiddenCoinsSelected():
                self._due(entry, ("coins",), "before the next activation")
                self.activations += 1
                self._commit(entry, "coins", event.side, "", event.commitment)
                if isinstance(event, CoinsSelected):
                    self._own(entry, "coins", event, selection_value(event.coin, event.actions))
            case ReactionSelected(coin=coin) if coin is not None:
                self._commit(entry, "reaction", event.side, "", event.commitment)
                self._own(entry, "reaction", event, selection_value(coin, event.actions))
            case HiddenReactionSelected():
                self._commit(entry, "reaction", event.side, "", event.commitment)
            case SecretChosen() | HiddenSecretChosen():
                self._commit(entry, "secret", event.side, event.name, event.commitment)
                if isinstance(event, SecretChosen):
                    self._own(entry, "secret", event, (event.choice,), event.name)
            case CoinsRevealed(coin=coin, actions=actions):
                self._reveal(entry, "coins", event.side, "", selection_value(coin, actions), event)
            case ReactionRevealed(coin=coin, actions=actions):
                value = selection_value(coin, actions)
                self._reveal(entry, "reaction", event.side, "", value, event)
            case SecretRevealed(name=name, choice=choice):
                self._reveal(entry, "secret", event.side, name, (choice,), event)
            case ActivationEnded():
                self._due(entry, ("coins", "reaction"), "by the end of its activation")
            case MatchEnded():
                self._due(entry, ("coins", "reaction", "secret"), "by the end of the match")
            case _:
                pass

    def _what(self, kind: SecretKind, side: Side, name: str) -> str:
        secret = f"secret {name!r}" if kind == "secret" else _KIND_NAMES[kind]
        return f"{_SIDE_NAMES[side]} {secret}"

    def _opening(
        self, kind: SecretKind, side: Side, name: str, value: tuple[str, ...], at: _Committed
    ) -> Opening:
        return opening(
            self.settings,
            round=at.round,
            activation=at.activation,
            seat=at.seat,
            side=side,
            kind=kind,
            value=value,
            name=name,
        )

    def _commit(self, entry: int, kind: SecretKind, side: Side, name: str, digest: str) -> None:
        secret = kind == "secret"
        self.open[(kind, side, name)] = _Committed(
            entry=entry,
            commitment=digest,
            round=0 if secret else self.round,
            activation=0 if secret else self.activations,
            seat=self.seats.get(side, 1),
        )

    def _own(
        self,
        entry: int,
        kind: SecretKind,
        event: CoinsSelected | ReactionSelected | SecretChosen,
        value: tuple[str, ...],
        name: str = "",
    ) -> None:
        """A selection the viewer may see carries its salt: check it gives its commitment."""
        at = self.open[(kind, event.side, name)]
        if not opens(at.commitment, event.salt, self._opening(kind, event.side, name, value, at)):
            what = self._what(kind, event.side, name)
            self.problems.append(
                CommitmentProblem(
                    entry,
                    "bad_commitment",
                    f"{what} does not give its own commitment: the choice, the salt or the "
                    "commitment was changed",
                    entry,
                )
            )

    def _reveal(
        self,
        entry: int,
        kind: SecretKind,
        side: Side,
        name: str,
        value: tuple[str, ...],
        event: CoinsRevealed | ReactionRevealed | SecretRevealed,
    ) -> None:
        what = self._what(kind, side, name)
        at = self.open.pop((kind, side, name), None)
        if at is None:
            self.problems.append(
                CommitmentProblem(
                    entry,
                    "reveal_without_commitment",
                    f"{what} is revealed, but no commitment to it is open",
                )
            )
        elif not opens(at.commitment, event.salt, self._opening(kind, side, name, value, at)):
            self.problems.append(
                CommitmentProblem(
                    entry,
                    "reveal_mismatch",
                    f"the reveal of {what} does not open its commitment of entry {at.entry}: "
                    "the secret or the salt differs from what was committed",
                    at.entry,
                )
            )

    def _due(self, entry: int, kinds: tuple[SecretKind, ...], when: str) -> None:
        for key in [k for k in self.open if k[0] in kinds]:
            at = self.open.pop(key)
            self.problems.append(
                CommitmentProblem(
                    entry,
                    "unrevealed",
                    f"{self._what(*key)}, committed in entry {at.entry}, was never revealed "
                    f"({when})",
                    at.entry,
                )
            )


def check_commitments(log: MatchLog | RedactedLog) -> tuple[CommitmentProblem, ...]:
    """Return every commitment problem of a log, in entry order (empty if there is none).

    Works on a whole log and on one side's redacted log: every reveal must
    open the commitment made when its secret was chosen (compared in constant
    time), and every commitment must be revealed when the rules say (a coin
    selection by the end of its activation, everything by the end of the
    match). A log that stops before then is not faulted for what is still due.
    """
    audit = _Audit(log.header.settings)
    entries: tuple[LogEntry | RedactedEntry, ...] = log.entries
    for number, entry in enumerate(entries, start=1):
        for event in entry.events:
            audit.event(number, event)
    return tuple(sorted(audit.problems, key=lambda problem: problem.entry))
