"""Verification: re-run the rules on a log and check they give exactly its events.

Reading a log checks its form and its hash chain; verifying it also replays
every recorded command through :func:`decide` from the header's settings, so
an edited outcome, or a rule that changed since the log was written, is
caught at the first entry where the rules and the log differ. The rules give
every commitment and every reveal again (from the seed or the recorded
salts), so a log that agrees with them opens every commitment it makes; where
it does not, the commitments are audited (:func:`check_commitments`) and a
commitment that a reveal does not open is named as such.
A match whose chance was secret is checked against the chance seed its end
record reveals: every roll and flip drawn from chance must follow from it.
Before the end (no seed yet), each roll is taken as the log records it, and
must still be a face of the die.

One side's view log (:mod:`multiversus_core.viewlog`) is held to the same
rules: :func:`verify_view` checks its commitments, fills each hidden
selection and secret in from its reveal, and re-runs every command the viewer
can see, so that every event it shows must follow from the commands, the
reveals and the board. What stays hidden from the viewer (a selection never
revealed by the end of the log) cannot be checked.

Reading and verifying prove that a log is well formed and consistent with
the rules; they cannot prove that nobody rewrote it consistently (anyone
holding a log can recompute its commitments from its salts, and its chain).
:func:`verify_against` catches that with the other side's view log, taken
before the end: every commitment and public event must agree.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, Final, Literal, TypeAlias

import msgspec

from multiversus_core.engine import audit
from multiversus_core.engine.audit import CommitmentCode, CommitmentProblem
from multiversus_core.engine.errors import LogError, MultiversusError, UnknownGameError
from multiversus_core.engine.log import MatchLog, decode_log, read_bytes
from multiversus_core.engine.registry import AnyRuleset, load_ruleset
from multiversus_core.rulesets.multiversus.audit import Auditor
from multiversus_core.rulesets.multiversus.chance import with_recorded_chance
from multiversus_core.rulesets.multiversus.commands import (
    ChooseSecret,
    Command,
    SelectCoins,
    SelectReaction,
)
from multiversus_core.rulesets.multiversus.decide import decide
from multiversus_core.rulesets.multiversus.events import (
    CoinsSelected,
    Event,
    ReactionSelected,
    RoundStarted,
    SecretChosen,
    TurnStarted,
)
from multiversus_core.rulesets.multiversus.match import fold, start_match
from multiversus_core.rulesets.multiversus.settings import MatchSettings, SaltSource
from multiversus_core.rulesets.multiversus.state import MatchState
from multiversus_core.rulesets.multiversus.views import (
    HiddenCoinsSelected,
    HiddenReactionSelected,
    HiddenSecretChosen,
    PlayerViewer,
    RedactedEntry,
    RedactedLog,
    ViewEvent,
    redact,
    redact_log,
)
from multiversus_core.viewlog import decode_view_log, is_view_log, replayable

ProblemCode: TypeAlias = (
    Literal[
        "log_error",
        "bad_settings",
        "command_refused",
        "rules_differ",
        "bad_event",
        "views_differ",
    ]
    | CommitmentCode
)
"""Why a log failed: unreadable, unknown settings, a refused command, other events, (in a
view log) an event that cannot follow the ones before it, a commitment problem, or (with
:func:`verify_against`) a view log that does not agree with the match log."""


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
    """Whose view, for a view log (:mod:`multiversus_core.viewlog`)."""
    chance: Literal["secret", "public"] | None = None
    """Whether the match's chance seed was secret (committed in the header, revealed at
    the end) or public (the settings' seed: anyone can compute every roll ahead); None if
    the log could not be read."""
    against: str | None = None
    """The match log a view log was compared with (:func:`verify_against`)."""


def verify(log: MatchLog, path: str = "<memory>") -> Verification:
    """Re-run every recorded command and compare the events it gives with the log's,
    commitments and reveals included.

    The first problem, by entry, is reported: a commitment its reveal does
    not open, or one never revealed (:func:`check_commitments`), before a
    command the rules refuse or events they do not give. Never raises for a
    bad log: the problem is in the result.
    """
    settings = log.header.settings
    try:
        ruleset = load_ruleset(log.game)
    except UnknownGameError as exc:
        return Verification(path=path, ok=False, entries=0, finished=False, problem=str(exc))
    table = ruleset.table(settings)
    salts = table.salts
    chance: Literal["secret", "public"] = "secret" if table.chance else "public"
    try:
        ruleset.check_settings(settings)
        state = ruleset.initial_state(settings, log.chance)
    except MultiversusError as exc:
        return Verification(
            path=path,
            ok=False,
            entries=0,
            finished=False,
            problem=str(exc),
            code="bad_settings",
            salts=salts,
            chance=chance,
        )
    # The commitments are audited only once an entry fails. Until then every
    # event the log records is one the rules gave again, commitments and reveals
    # included, and the rules' own commitments are always opened by their
    # reveals: the audit could only find, at an earlier entry, what it finds then.
    chance_unknown = bool(table.chance) and log.chance is None
    decide = ruleset.decide
    for number, entry in enumerate(log.entries, start=1):
        command = entry.command
        if chance_unknown:
            command = ruleset.with_recorded_chance(command, entry.events)
        try:
            events, after = decide(command, state)
        except MultiversusError as exc:
            where = f"entry {number} (line {number + 1}), {ruleset.where(state)}"
            return _commitment_failed(ruleset, log, path, number - 1) or _failed(
                path,
                number,
                state,
                "command_refused",
                f"{where}: the rules refuse its command ({type(exc).__name__}: {exc})",
            )
        recorded = entry.events  # a tuple once decoded: compared as it is, without a copy
        if events != recorded and events != tuple(recorded):
            where = f"entry {number} (line {number + 1}), {ruleset.where(state)}"
            return _commitment_failed(ruleset, log, path, number) or _failed(
                path,
                number,
                state,
                "rules_differ",
                f"{where}: {_difference(events, tuple(entry.events))}",
            )
        state = after  # the recorded events, folded while deciding
    return Verification(
        path=path,
        ok=True,
        entries=len(log.entries),
        finished=ruleset.outcome(state) is not None,
        salts=salts,
        chance=chance,
    )


def _commitment_failed(
    ruleset: AnyRuleset, log: MatchLog, path: str, last: int
) -> Verification | None:
    """The failure for the log's first commitment problem at entry ``last`` or before, if any.

    A commitment problem comes before a refused command or other events at a
    later entry, and before other events at its own.
    """
    settings = log.header.settings
    auditor = ruleset.auditor(settings)
    problems = audit.check_commitments(auditor, [entry.events for entry in log.entries])
    if not problems or problems[0].entry > last:
        return None
    first = problems[0]
    number = first.entry
    state = ruleset.initial_state(settings, log.chance)
    for entry in log.entries[: number - 1]:  # each passed: its events are the rules'
        state = ruleset.fold(state, entry.events)
    where = f"entry {number} (line {number + 1}), {ruleset.where(state)}"
    return _failed(path, number, state, first.code, f"{where}: {first.message}")


def _chance_kind(settings: MatchSettings) -> Literal["secret", "public"]:
    return "secret" if settings.chance else "public"


def verify_view(log: RedactedLog, path: str = "<memory>") -> Verification:
    """Check one side's view of a log as strictly as a whole log.

    Every reveal must open its commitment and nothing committed may go
    unrevealed (:func:`check_commitments`); the view's events must follow from
    each other once its secrets are filled in from their reveals
    (:func:`~multiversus_core.viewlog.replayable`; ``bad_event``); and every
    command the viewer can see is re-run through the rules, which must give
    exactly the events the view shows (``command_refused``, ``rules_differ``).
    Rolls follow from the chance seed once the end record reveals it; before,
    they are taken as recorded. An entry holding a selection the view never
    reveals is checked but for that selection. The first problem, by entry,
    is reported.

    :raises ValueError: for the referee's view (verify the match log with :func:`verify`).
    """
    if log.viewer == "referee":
        raise ValueError("the referee's view is the whole log: verify it with verify()")
    viewer: PlayerViewer = log.viewer
    settings = log.header.settings
    found: list[tuple[int, ProblemCode, str]] = [
        (problem.entry, problem.code, problem.message) for problem in check_commitments(log)
    ]
    try:
        problem = _view_rules(log, viewer, path)
    except MultiversusError as exc:
        problem = (0, "bad_settings", str(exc))
    if problem is not None:
        found.append(problem)
    finished = log.finished
    if not found:
        return Verification(
            path=path,
            ok=True,
            entries=len(log.entries),
            finished=finished,
            salts=settings.salts,
            view=viewer,
            chance=_chance_kind(settings),
        )
    entry, code, message = min(found, key=lambda problem: problem[0])
    if entry == 0:
        return Verification(
            path=path,
            ok=False,
            entries=0,
            finished=finished,
            problem=message,
            code=code,
            salts=settings.salts,
            view=viewer,
            chance=_chance_kind(settings),
        )
    round_, turn = _round_and_turn(log.entries[: entry - 1])
    when = "set-up" if round_ == 0 else f"round {round_}, turn {turn}"
    return Verification(
        path=path,
        ok=False,
        entries=entry - 1,
        finished=finished,
        problem=f"entry {entry} (line {entry + 1}), {when}: {message}",
        salts=settings.salts,
        code=code,
        entry=entry,
        round=round_,
        turn=turn,
        view=viewer,
        chance=_chance_kind(settings),
    )


# A salt that stands in for one the view never reveals: the commitment it gives is not
# compared.
_STAND_IN_SALT: Final = "0" * 64


def _view_rules(
    log: RedactedLog, viewer: PlayerViewer, path: str
) -> tuple[int, ProblemCode, str] | None:
    """Re-run a view's commands through the rules; return its first problem, or None.

    :raises SettingsError: if the view's settings or chance reveal are not a match's.
    """
    try:
        filled = replayable(log, path)
    except LogError as error:
        return (error.line - 1, "bad_event", error.reason)
    settings = log.header.settings
    state = start_match(settings, log.chance)
    chance_unknown = bool(settings.chance) and log.chance is None
    stand_ins = set(filled.stand_ins)
    for number, (shown, entry) in enumerate(zip(log.entries, filled.entries, strict=True), 1):
        command = _with_salt(entry.command, entry.events, settings)
        if chance_unknown:
            command = with_recorded_chance(command, entry.events)
        partial = number in stand_ins
        problem: tuple[int, ProblemCode, str] | None = None
        for candidate in _hidden_secret_choices(state):
            problem = _rerun(number, command, candidate, shown.events, viewer, partial=partial)
            if problem is None:
                break
        if problem is not None:
            return problem
        state = fold(entry.events, state)
    return None


def _rerun(
    number: int,
    command: Command,
    state: MatchState,
    shown: Sequence[ViewEvent],
    viewer: PlayerViewer,
    *,
    partial: bool,
) -> tuple[int, ProblemCode, str] | None:
    """Decide one filled-in command of a view; return how the view differs, or None."""
    try:
        events = decide(command, state)
    except MultiversusError as exc:
        if partial:  # a stand-in selection the rules may refuse: what was hidden is unknown
            return None
        reason = f"the rules refuse its command ({type(exc).__name__}: {exc})"
        return (number, "command_refused", reason)
    expected = redact(events, viewer)
    got = tuple(shown)
    if partial:
        expected, got = _without_commitments(expected), _without_commitments(got)
    if expected != got:
        return (number, "rules_differ", _difference(expected, got, "the view"))
    return None


def _hidden_secret_choices(state: MatchState) -> list[MatchState]:
    """The state, then the state with each other choice of the set-up secrets the view has not
    seen revealed yet (their stand-ins have no salt): the rules must fit one of them."""
    hidden = [
        i for i, secret in enumerate(state.secrets) if not secret.revealed and not secret.salt
    ]
    states = [state]
    for index in hidden:
        secret = state.secrets[index]
        options = next(
            (
                o.options
                for o in state.secret_offers
                if (o.side, o.name) == (secret.side, secret.name)
            ),
            (),
        )
        more = []
        for base in states:
            for option in options:
                if option == secret.choice:
                    continue
                secrets = list(base.secrets)
                secrets[index] = msgspec.structs.replace(secret, choice=option)
                more.append(msgspec.structs.replace(base, secrets=tuple(secrets)))
        states.extend(more)
    return states[:64]


def _with_salt(command: Command, events: Sequence[Event], settings: MatchSettings) -> Command:
    """Give a filled-in hidden command the salt of its filled-in event, as it was given."""
    if settings.salts != "secrets":
        return command
    match command:
        case SelectCoins(salt=None) | SelectReaction(salt=None) | ChooseSecret(salt=None):
            for event in events:
                if isinstance(event, CoinsSelected | ReactionSelected | SecretChosen):
                    salt = event.salt or _STAND_IN_SALT
                    return msgspec.structs.replace(command, salt=salt)
            return command
        case _:
            return command


def _without_commitments(events: Sequence[ViewEvent]) -> tuple[ViewEvent, ...]:
    """Events with the commitments of hidden selections blanked, for a stand-in's entry."""
    out: list[ViewEvent] = []
    for event in events:
        if isinstance(event, HiddenCoinsSelected | HiddenReactionSelected | HiddenSecretChosen):
            event = msgspec.structs.replace(event, commitment="")
        out.append(event)
    return tuple(out)


def verify_against(
    log: MatchLog,
    views: Sequence[RedactedLog],
    path: str = "<memory>",
    view_paths: Sequence[str] = (),
) -> list[Verification]:
    """Verify a match log, then check that each view log agrees with it.

    A view log taken from the same match must be the match log redacted for
    its viewer, entry by entry (a view log taken before the end is a prefix):
    the same settings, every commitment and every public event. This catches
    what :func:`verify` alone cannot: a match log rewritten consistently (a
    secret changed, its commitment recomputed with the salt the log holds, its
    chain recomputed) disagrees with the other side's view, which holds the
    commitment made at the time. Returns the match log's result, then one per
    view log (``views_differ`` naming the first disagreement); each view log
    is also verified on its own.
    """
    results = [verify(log, path)]
    for index, shown in enumerate(views):
        name = view_paths[index] if index < len(view_paths) else f"<view {index + 1}>"
        own = verify_view(shown, name)
        difference = _disagreement(log, shown)
        if difference is None or (not own.ok and (own.entry or 0) <= difference[0]):
            results.append(msgspec.structs.replace(own, against=path))
            continue
        entry, message = difference
        round_, turn = _round_and_turn(shown.entries[: max(entry - 1, 0)])
        when = "set-up" if round_ == 0 else f"round {round_}, turn {turn}"
        where = "the header" if entry == 0 else f"entry {entry} (line {entry + 1}), {when}"
        results.append(
            Verification(
                path=name,
                ok=False,
                entries=max(entry - 1, 0),
                finished=shown.finished,
                problem=f"{where}: {message} (against {path})",
                salts=shown.header.settings.salts,
                code="views_differ",
                entry=entry or None,
                round=round_,
                turn=turn,
                view=own.view,
                chance=own.chance,
                against=path,
            )
        )
    return results


def _disagreement(log: MatchLog, shown: RedactedLog) -> tuple[int, str] | None:
    """Return the first place (entry, what) where a view log disagrees with a match log."""
    if shown.viewer == "referee":
        return (0, "a view log is one side's view, not the referee's")
    if shown.header.settings != log.header.settings:
        return (0, "the settings differ: this view log is of another match")
    expected = redact_log(log, shown.viewer)
    if len(shown.entries) > len(expected.entries):
        extra = len(shown.entries) - len(expected.entries)
        return (len(expected.entries) + 1, f"the view log has {extra} entries the match log lacks")
    for number, (theirs, mine) in enumerate(
        zip(shown.entries, expected.entries, strict=False), start=1
    ):
        if theirs.command != mine.command:
            return (
                number,
                f"the command differs: the match log has {_show(mine.command)} where the view "
                f"log has {_show(theirs.command)}",
            )
        for position, (a, b) in enumerate(zip(theirs.events, mine.events, strict=False), start=1):
            if a != b:
                return (
                    number,
                    f"event {position} differs: the match log has {_show(b)} where the view "
                    f"log has {_show(a)}",
                )
        if len(theirs.events) != len(mine.events):
            return (number, "the number of events differs")
    if shown.chance is not None and shown.chance != log.chance:
        return (len(shown.entries), "the chance seed the end records reveal differs")
    return None


def verify_file(path: str | os.PathLike[str]) -> Verification:
    """Read a log file and verify it; a log that cannot be read fails with its LogError.

    A view log (one side's view, :mod:`multiversus_core.viewlog`) is recognised
    by its first line and checked with :func:`verify_view`.
    """
    name = os.fspath(path)
    try:
        data = read_bytes(name)
    except LogError as exc:
        return _unreadable(name, exc)
    return verify_data(data, name)


def verify_data(data: bytes, path: str = "<memory>") -> Verification:
    """Verify a match log or a view log given as bytes, as :func:`verify_file` does a file."""
    try:
        if is_view_log(data):
            return verify_view(decode_view_log(data, path), path)
        log = decode_log(data, path)
    except LogError as exc:
        return _unreadable(path, exc)
    return verify(log, path)


def verify_against_files(
    path: str | os.PathLike[str], view_paths: Sequence[str | os.PathLike[str]]
) -> list[Verification]:
    """Read a match log and view logs of the same match; return :func:`verify_against`'s results.

    A file that cannot be read (or a view log given as the match log, or the
    other way round) fails with its :class:`~multiversus_core.engine.errors.LogError`.
    """
    name = os.fspath(path)
    names = [os.fspath(view) for view in view_paths]
    try:
        log = decode_log(read_bytes(name), name)
    except LogError as exc:
        failed = [_unreadable(name, exc)]
        return failed + [verify_file(view) for view in names]
    views: list[RedactedLog] = []
    unreadable: dict[int, Verification] = {}
    for index, view in enumerate(names):
        try:
            views.append(decode_view_log(read_bytes(view), view))
        except LogError as exc:
            unreadable[index] = _unreadable(view, exc)
    readable = [view for index, view in enumerate(names) if index not in unreadable]
    checked = iter(verify_against(log, views, name, readable))
    results = [next(checked)]
    for index in range(len(names)):
        results.append(unreadable[index] if index in unreadable else next(checked))
    return results


def _unreadable(path: str, exc: LogError) -> Verification:
    return Verification(
        path=path, ok=False, entries=0, finished=False, problem=str(exc), code="log_error"
    )


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


def _failed(path: str, number: int, state: Any, code: ProblemCode, problem: str) -> Verification:
    # Round and turn are Multiversus' words for where a match stands: other games say it
    # in the problem only.
    multiversus = isinstance(state, MatchState)
    return Verification(
        path=path,
        ok=False,
        entries=number - 1,
        finished=False,
        problem=problem,
        code=code,
        entry=number,
        round=state.round if multiversus else None,
        turn=state.turns_in_round if multiversus else None,
        salts=state.settings.salts if multiversus else None,
    )


def _difference(
    expected: Sequence[object], recorded: Sequence[object], holder: str = "the log"
) -> str:
    """Describe the first event where the rules and ``holder`` (the log, or a view) differ."""
    for index, (mine, theirs) in enumerate(zip(expected, recorded, strict=False), start=1):
        if mine != theirs:
            return f"event {index}: the rules give {_show(mine)} where {holder} has {_show(theirs)}"
    if len(expected) > len(recorded):
        extra = len(expected) - len(recorded)
        return f"the rules give {extra} more event(s), from {_show(expected[len(recorded)])}"
    extra = len(recorded) - len(expected)
    return (
        f"{holder} has {extra} event(s) the rules do not give, "
        f"from {_show(recorded[len(expected)])}"
    )


def _show(record: ViewEvent | Command | object) -> str:
    return msgspec.json.encode(record).decode()


# --- commitments -------------------------------------------------------------


def check_commitments(log: MatchLog | RedactedLog) -> tuple[CommitmentProblem, ...]:
    """Return every commitment problem of a log, in entry order (empty if there is none).

    Works on a whole log and on one side's redacted log: every reveal must
    open the commitment made when its secret was chosen (compared in constant
    time), and every commitment must be revealed when the rules say (a coin
    selection by the end of its activation, everything by the end of the
    match). A log that stops before then is not faulted for what is still due.
    """
    auditor = Auditor(log.header.settings)
    return audit.check_commitments(auditor, [entry.events for entry in log.entries])
