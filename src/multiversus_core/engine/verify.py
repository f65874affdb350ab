"""Verification, for any game: re-run the rules on a log and check they give exactly its events.

Reading a log checks its form and its hash chain; verifying it also replays
every recorded command through the game's ``decide`` from the header's
settings, so an edited outcome, or a rule that changed since the log was
written, is caught at the first entry where the rules and the log differ.
The rules give every commitment and every reveal again (from the seed or the
recorded salts), so a log that agrees with them opens every commitment it
makes; where it does not, the commitments are audited
(:func:`check_commitments`) and a commitment that a reveal does not open is
named as such. A match whose chance was secret is checked against the chance
seed its end record reveals: every draw must follow from it. Before the end
(no seed yet), each draw is taken as the log records it (the game's
``with_recorded_chance``).

A viewer's view log (:mod:`.viewlog`) is held to the same rules:
:func:`verify_view` audits its commitments, fills each placeholder in from
its reveal, and re-runs every command, so that every event it shows must
follow from the commands, the reveals and the state. What stays hidden from
the viewer (a secret never revealed by the end of the log) cannot be
checked: the rules must fit one of the stand-ins the game offers for it.

Reading and verifying prove that a log is well formed and consistent with
the rules; they cannot prove that nobody rewrote it consistently (anyone
holding a log can recompute its commitments from its salts, and its chain).
:func:`verify_against` catches that with another viewer's view log, taken
before the end: every commitment and public event must agree.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, Final, Literal, TypeAlias, cast

import msgspec

from multiversus_core.engine import audit
from multiversus_core.engine.audit import CommitmentCode, CommitmentProblem
from multiversus_core.engine.chance import Chance
from multiversus_core.engine.choices import is_tree, listed
from multiversus_core.engine.commit import SaltSource
from multiversus_core.engine.errors import LogError, MultiversusError, UnknownGameError
from multiversus_core.engine.log import (
    LOG_VERSION,
    MatchLog,
    cannot_follow,
    decode_log,
    first_line,
    read_log,
)
from multiversus_core.engine.position import opening_position, opening_state
from multiversus_core.engine.registry import AnyRuleset, load_ruleset
from multiversus_core.engine.ruleset import REFEREE
from multiversus_core.engine.viewlog import (
    Filler,
    RedactedLog,
    decode_view_log,
    is_view_log,
    read_view_log,
    redact_log,
    view_records_for,
)

ProblemCode: TypeAlias = (
    Literal[
        "log_error",
        "bad_settings",
        "command_refused",
        "rules_differ",
        "bad_event",
        "views_differ",
        "bad_chance",
    ]
    | CommitmentCode
)
"""Why a log failed: unreadable, unknown settings, a refused command, other events, (in a
view log) an event that cannot follow the ones before it, a commitment problem, or (with
:func:`verify_against`) a view log that does not agree with the match log, or seats'
contributions to the chance that are not one a seat (``bad_chance``)."""

MAX_STAND_INS: Final = 64
"""The most ways of filling a view log's unrevealed secrets in that :func:`verify_view` tries."""


class Verification(msgspec.Struct, frozen=True):
    """The result of verifying one log."""

    path: str
    ok: bool
    entries: int
    """Entries checked (all of them when the log passes)."""
    finished: bool
    """The match in the log has ended."""
    problem: str | None = None
    """What failed, in one line naming the entry and where the match stood (the game's
    ``where``)."""
    salts: SaltSource | None = None
    """Where the log's commitment salts came from; ``"seed"`` marks a log that is not secret
    (None if the log could not be read)."""
    code: ProblemCode | None = None
    entry: int | None = None
    """The 1-based entry (the log's line is one more) where the first difference is."""
    round: int | None = None
    """The round the match was in at that entry, for a game whose state counts rounds and
    turns (``round`` and ``turns_in_round``, as Multiversus'); None for others."""
    turn: int | None = None
    """The turn in that round, likewise."""
    view: str | None = None
    """Whose view, for a view log (:mod:`.viewlog`)."""
    chance: Literal["secret", "public"] | None = None
    """Whether the match's chance seed was secret (committed in the header, revealed at
    the end) or public (the settings' seed: anyone can compute every roll ahead); None if
    the log could not be read."""
    against: str | None = None
    """The match log a view log was compared with (:func:`verify_against`)."""
    format: int | None = None
    """The format version the log was written in (an older one is read as the current one:
    format 1 commits to no chance, so anyone could have chosen its rolls); None if it could
    not be read."""


def _progress(state: Any) -> tuple[int | None, int | None]:
    """The round and the turn in it, for a state that counts them (see
    :attr:`Verification.round`)."""
    round_, turn = getattr(state, "round", None), getattr(state, "turns_in_round", None)
    if type(round_) is int and type(turn) is int:
        return round_, turn
    return None, None


class _Match:
    """What every result of one log says about its match: salts and chance."""

    def __init__(self, ruleset: AnyRuleset, settings: Any, written: int | None = None) -> None:
        self.format = written or LOG_VERSION
        table = ruleset.table(settings)
        self.salts = table.salts
        self.chance: Literal["secret", "public"] = "secret" if table.chance else "public"
        self.secret = bool(table.chance)


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
    match = _Match(ruleset, settings, log.upcast_from)
    try:
        ruleset.check_settings(settings)
        state = opening_state(ruleset, log.header, log.chance)
    except MultiversusError as exc:
        return Verification(
            path=path,
            ok=False,
            entries=0,
            finished=False,
            problem=str(exc),
            code="bad_settings",
            salts=match.salts,
            chance=match.chance,
            format=match.format,
        )
    contributed = contributions_problem(ruleset, settings, log.chance)
    if contributed is not None:
        return Verification(
            path=path,
            ok=False,
            entries=0,
            finished=False,
            problem=contributed,
            code="bad_chance",
            salts=match.salts,
            chance=match.chance,
            format=match.format,
        )
    # The commitments are audited only once an entry fails. Until then every
    # event the log records is one the rules gave again, commitments and reveals
    # included, and the rules' own commitments are always opened by their
    # reveals: the audit could only find, at an earlier entry, what it finds then.
    chance_unknown = match.secret and log.chance is None
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
                match,
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
                match,
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
        salts=match.salts,
        chance=match.chance,
        format=match.format,
    )


def contributions_problem(ruleset: AnyRuleset, settings: Any, chance: Chance | None) -> str | None:
    """Why the seats' contributions to a revealed chance are wrong, or None: when there are
    any, there is exactly one a seat, none of them empty (:func:`.chance.dice_seed`)."""
    if chance is None or not chance.contributions:
        return None
    seats = len(ruleset.table(settings).players)
    given = chance.contributions
    if len(given) != seats:
        return f"the chance has {len(given)} contributions, but the match has {seats} seats"
    missing = [str(seat) for seat, value in enumerate(given, start=1) if not value]
    if missing:
        return f"the chance lacks the contribution of seat {', '.join(missing)}"
    return None


def _commitment_failed(
    ruleset: AnyRuleset, log: MatchLog, path: str, last: int
) -> Verification | None:
    """The failure for the log's first commitment problem at entry ``last`` or before, if any.

    A commitment problem comes before a refused command or other events at a
    later entry, and before other events at its own.
    """
    settings = log.header.settings
    problems = check_commitments(log)
    if not problems or problems[0].entry > last:
        return None
    first = problems[0]
    number = first.entry
    state = opening_state(ruleset, log.header, log.chance)
    for entry in log.entries[: number - 1]:  # each passed: its events are the rules'
        state = ruleset.fold(state, entry.events)
    where = f"entry {number} (line {number + 1}), {ruleset.where(state)}"
    match = _Match(ruleset, settings, log.upcast_from)
    return _failed(match, path, number, state, first.code, f"{where}: {first.message}")


def _failed(
    match: _Match, path: str, number: int, state: Any, code: ProblemCode, problem: str
) -> Verification:
    round_, turn = _progress(state)
    return Verification(
        path=path,
        ok=False,
        entries=number - 1,
        finished=False,
        problem=problem,
        code=code,
        entry=number,
        round=round_,
        turn=turn,
        salts=match.salts,
        chance=match.chance,
        format=match.format,
    )


# --- view logs ---------------------------------------------------------------------

_Problem: TypeAlias = tuple[int, ProblemCode, str]


def verify_view(log: RedactedLog, path: str = "<memory>") -> Verification:
    """Check one viewer's view of a log as strictly as a whole log.

    Every reveal must open its commitment and nothing committed may go
    unrevealed (:func:`check_commitments`); the view's events must follow from
    each other once its placeholders are filled in from their reveals
    (:mod:`.viewlog`; ``bad_event``); and every command is re-run through the
    rules, which must give exactly the events the view shows, redacted for its
    viewer (``command_refused``, ``rules_differ``). Draws follow from the chance
    seed once the end record reveals it; before, they are taken as recorded.
    A secret the view never reveals is filled with each stand-in the game
    offers, and the rules must fit one of them; an entry holding one is
    checked but for that secret. The first problem, by entry, is reported.

    :raises ValueError: for the referee's view (verify the match log with :func:`verify`).
    """
    if log.viewer == REFEREE:
        raise ValueError("the referee's view is the whole log: verify it with verify()")
    settings = log.header.settings
    ruleset = load_ruleset(log.game)
    match = _Match(ruleset, settings)
    found: list[_Problem] = []
    befores: list[Any] = []
    try:
        found += [(p.entry, p.code, p.message) for p in check_commitments(log)]
        problem = _ViewRules(ruleset, log, befores).run()
    except MultiversusError as exc:
        problem = (0, "bad_settings", str(exc))
    if problem is not None:
        found.append(problem)
    result = Verification(
        path=path,
        ok=not found,
        entries=len(log.entries),
        finished=log.finished,
        salts=match.salts,
        view=log.viewer,
        chance=match.chance,
        format=match.format,
    )
    if not found:
        return result
    entry, code, message = min(found, key=lambda problem: problem[0])
    if entry == 0:
        return msgspec.structs.replace(result, entries=0, problem=message, code=code)
    before = befores[entry - 1]
    round_, turn = _progress(before)
    return msgspec.structs.replace(
        result,
        entries=entry - 1,
        problem=f"entry {entry} (line {entry + 1}), {ruleset.where(before)}: {message}",
        code=code,
        entry=entry,
        round=round_,
        turn=turn,
    )


MAX_CHOICES_TRIED: Final = 400
"""The most legal commands tried for a hidden choice the view does not reveal."""


class _ViewRules:
    """Re-runs a view's commands through the rules, under every way of filling its unrevealed
    secrets in that still fits (at most :data:`MAX_STAND_INS`)."""

    def __init__(self, ruleset: AnyRuleset, log: RedactedLog, befores: list[Any]) -> None:
        self.ruleset = ruleset
        self.log = log
        self.befores = befores
        """The state before each entry checked (the first way of filling in), for messages."""
        self.filler = Filler(log)
        self.placeholders = view_records_for(log.game).event_placeholders

    def run(self) -> _Problem | None:
        """The view's first problem by the rules, or None.

        :raises MultiversusError: if the view's settings or chance reveal are not a match's.
        """
        ruleset, log = self.ruleset, self.log
        settings = log.header.settings
        ruleset.check_settings(settings)
        ways = list(self.filler.openings(log.chance))
        chance_unknown = bool(ruleset.table(settings).chance) and log.chance is None
        for index, shown in enumerate(log.entries):
            self.befores.append(ways[0])
            fillings, stand_in, failure = self._fill(index, ways)
            if not fillings:
                assert failure is not None
                return failure
            fitting: list[Any] = []
            first: _Problem | None = None
            for before, events, after in fillings:
                command = self.filler.command(shown.command, events, before)
                if command is None:
                    tag = shown.command.__struct_config__.tag
                    reason = f"a {tag} command, but its entry has no hidden event to go with it"
                    return (index + 1, "bad_event", reason)
                if chance_unknown:
                    command = ruleset.with_recorded_chance(command, events)
                problem = self._rerun(index + 1, command, before, shown.events, partial=stand_in)
                if problem is None:
                    fitting.append(after)
                elif first is None:
                    first = problem
            if not fitting:
                return first
            ways = fitting
        return None

    def _fill(
        self, index: int, ways: Sequence[Any]
    ) -> tuple[list[tuple[Any, tuple[Any, ...], Any]], bool, _Problem | None]:
        """Every way of filling entry ``index`` in from each state before it: (state before,
        events, state after); whether a stand-in is among them; the first event that could
        not follow, if any way failed."""
        evolve, filler = self.ruleset.evolve, self.filler
        shown = self.log.entries[index].events
        stand_in = any(
            type(event) in self.placeholders and not filler.revealed(index, position)
            for position, event in enumerate(shown, start=1)
        )
        failure: _Problem | None = None
        done: list[tuple[Any, tuple[Any, ...], Any]] = []
        for before in ways:
            partial: list[tuple[tuple[Any, ...], Any]] = [((), before)]
            for position, seen in enumerate(shown, start=1):
                grown: list[tuple[tuple[Any, ...], Any]] = []
                for events, state in partial:
                    for event in filler.event(index, position, seen, state):
                        try:
                            grown.append(((*events, event), evolve(state, event)))
                        except Exception as error:  # only an edited view log gets here
                            if failure is None:
                                failure = (
                                    index + 1,
                                    "bad_event",
                                    cannot_follow(position, event, error),
                                )
                partial = grown[:MAX_STAND_INS]
            done.extend((before, events, after) for events, after in partial)
        return done[:MAX_STAND_INS], stand_in, failure

    def _rerun(
        self, number: int, command: Any, state: Any, shown: Sequence[Any], *, partial: bool
    ) -> _Problem | None:
        """Decide one filled-in command of a view; return how the view differs, or None."""
        ruleset, viewer = self.ruleset, self.log.viewer
        try:
            events, _ = ruleset.decide(command, state)
        except MultiversusError as exc:
            if partial:  # a stand-in the rules may refuse: what was hidden is unknown
                return self._some_choice_gives(number, command, state, shown)
            reason = f"the rules refuse its command ({type(exc).__name__}: {exc})"
            return (number, "command_refused", reason)
        expected = tuple(ruleset.redact_event(event, viewer) for event in events)
        got = tuple(shown)
        if partial:
            expected, got = self._without_commitments(expected), self._without_commitments(got)
            if expected != got:
                return self._some_choice_gives(number, command, state, shown)
        if expected != got:
            return (number, "rules_differ", _difference(expected, got, "the view"))
        return None

    def _some_choice_gives(
        self, number: int, stand_in: Any, state: Any, shown: Sequence[Any]
    ) -> _Problem | None:
        """None if some legal command of the stand-in's kind, for its player, gives what the
        view shows of the entry (commitments aside); else the entry's problem. The hidden
        choice is unknown, but what the view shows of it must be what one of them gives."""
        ruleset, viewer = self.ruleset, self.log.viewer
        player = getattr(stand_in, "player", None)
        if player is None:
            return None  # a game whose commands name no player: nothing to try
        got = self._without_commitments(shown)
        legal = ruleset.legal_commands(state, player)
        if is_tree(legal):
            choices: Sequence[Any] = listed(legal, MAX_CHOICES_TRIED) or ()
        else:
            choices = cast(Sequence[Any], legal)
        salt = getattr(stand_in, "salt", None)
        for choice in choices[:MAX_CHOICES_TRIED]:
            if type(choice) is not type(stand_in):
                continue
            if salt is not None and hasattr(choice, "salt"):
                choice = msgspec.structs.replace(choice, salt=salt)
            try:
                events, _ = ruleset.decide(choice, state)
            except MultiversusError:
                continue
            expected = tuple(ruleset.redact_event(event, viewer) for event in events)
            if self._without_commitments(expected) == got:
                return None
        reason = "no hidden choice the rules allow gives what the view shows of this entry"
        return (number, "rules_differ", reason)

    def _without_commitments(self, events: Sequence[Any]) -> tuple[Any, ...]:
        """Events with their placeholders' commitments blanked, for a stand-in's entry: a
        stand-in's salt is not the one committed to."""
        return tuple(
            msgspec.structs.replace(event, commitment="")
            if type(event) in self.placeholders and hasattr(event, "commitment")
            else event
            for event in events
        )


# --- view logs against the match log ------------------------------------------------


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
    chain recomputed) disagrees with another viewer's view, which holds the
    commitment made at the time. Returns the match log's result, then one per
    view log (``views_differ`` naming the first disagreement); each view log
    is also verified on its own.
    """
    results = [verify(log, path)]
    for index, shown in enumerate(views):
        name = view_paths[index] if index < len(view_paths) else f"<view {index + 1}>"
        own = verify_view(shown, name) if shown.viewer != REFEREE else None
        difference = _disagreement(log, shown)
        if own is not None and (
            difference is None or (not own.ok and (own.entry or 0) <= difference[0])
        ):
            results.append(msgspec.structs.replace(own, against=path))
            continue
        assert difference is not None  # a referee's "view" always differs
        entry, message = difference
        before = _state_before(log, entry)
        round_, turn = _progress(before)
        where = "the header" if entry == 0 else f"entry {entry} (line {entry + 1})"
        if entry and before is not None:
            where += f", {load_ruleset(log.game).where(before)}"
        results.append(
            Verification(
                path=name,
                ok=False,
                entries=max(entry - 1, 0),
                finished=shown.finished,
                problem=f"{where}: {message} (against {path})",
                salts=own.salts if own else None,
                code="views_differ",
                entry=entry or None,
                round=round_ if entry else None,
                turn=turn if entry else None,
                view=shown.viewer,
                chance=own.chance if own else None,
                against=path,
            )
        )
    return results


def _state_before(log: MatchLog, entry: int) -> Any:
    """The match log's state before entry ``entry`` (1-based), or None if it cannot fold."""
    try:
        ruleset = load_ruleset(log.game)
        state = opening_state(ruleset, log.header, None)
        for number, item in enumerate(log.entries, start=1):
            if number >= entry:
                break
            state = ruleset.fold(state, item.events)
    except Exception:  # a log whose events do not fold: its own verification says so
        return None
    return state


def _disagreement(log: MatchLog, shown: RedactedLog) -> tuple[int, str] | None:
    """Return the first place (entry, what) where a view log disagrees with a match log."""
    if shown.viewer == REFEREE:
        return (0, "a view log is one viewer's view, not the referee's")
    if shown.game != log.game:
        return (0, f"this view log is of a match of {shown.game}, the match log of {log.game}")
    if shown.header.settings != log.header.settings:
        return (0, "the settings differ: this view log is of another match")
    try:
        expected = redact_log(log, shown.viewer)
    except ValueError as error:
        return (0, f"the match log cannot be seen as the {shown.viewer}: {error}")
    if shown.header.position != expected.header.position:
        return (
            0,
            f"the starting position differs from the match log's as the {shown.viewer} may know it",
        )
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


# --- files -------------------------------------------------------------------------


def verify_file(path: str | os.PathLike[str]) -> Verification:
    """Read a log file and verify it; a log that cannot be read fails with its LogError.

    A view log (one viewer's view, :mod:`.viewlog`) is recognised by its first
    line and checked with :func:`verify_view`.
    """
    name = os.fspath(path)
    try:
        if is_view_log(first_line(name)):
            return verify_view(read_view_log(name), name)
        log = read_log(name)  # read as a stream: a bad line stops it
    except LogError as exc:
        return _unreadable(name, exc)
    return verify(log, name)


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
        log = read_log(name)
    except LogError as exc:
        failed = [_unreadable(name, exc)]
        return failed + [verify_file(view) for view in names]
    views: list[RedactedLog] = []
    unreadable: dict[int, Verification] = {}
    for index, view in enumerate(names):
        try:
            views.append(read_view_log(view))
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


def _show(record: object) -> str:
    return msgspec.json.encode(record).decode()


# --- commitments -------------------------------------------------------------------


def check_commitments(log: MatchLog | RedactedLog) -> tuple[CommitmentProblem, ...]:
    """Return every commitment problem of a log, in entry order (empty if there is none).

    Works on a whole log and on one viewer's redacted log: every reveal must
    open the commitment made when its secret was chosen (compared in constant
    time), and every commitment must be revealed when the game's rules say
    (in Multiversus, a coin selection by the end of its activation, everything
    by the end of the match). A log that stops before then is not faulted for
    what is still due. A log started from a position starts with the secrets it
    holds open: a reveal of one must give the position's very secret and salt;
    in a viewer's log, whose position holds a stand-in for a secret hidden from
    them, the reveal of that secret is taken as it is (the match log is held to
    the position's own copy, and :func:`verify_against` holds the view log to the
    match log).

    :raises PositionError: if the header's position cannot be read, or is not the view
        log's viewer's.
    """
    ruleset = load_ruleset(log.game)
    auditor = ruleset.auditor(log.header.settings)
    entries = [entry.events for entry in log.entries]
    if not log.header.position:
        return audit.check_commitments(auditor, entries)
    viewer = log.viewer if isinstance(log, RedactedLog) else REFEREE
    start = opening_position(ruleset, log.header, viewer)
    return audit.check_commitments(auditor, entries, start.state, start.hidden)


__all__ = [
    "MAX_STAND_INS",
    "ProblemCode",
    "Verification",
    "check_commitments",
    "verify",
    "verify_against",
    "verify_against_files",
    "verify_data",
    "verify_file",
    "verify_view",
]
