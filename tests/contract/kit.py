"""The contract kit's machinery: play matches through the protocol, and check its promises.

Every check takes a ruleset (anything with the members of
:class:`~multiversus_core.engine.ruleset.Ruleset`) and a played :class:`Match`,
and returns the problems it found, in words: an empty list is a pass. The
checks never look inside a game's commands, events, states or views: they
compare their canonical encodings.
"""

from __future__ import annotations

import functools
import random
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import msgspec

from multiversus_core.engine.audit import (
    CommitmentProblem,
    Committed,
    Revealed,
    SecretFact,
    check_commitments,
)
from multiversus_core.engine.chance import Chance, chance_commitment
from multiversus_core.engine.choices import Ask, is_empty, is_legal, is_tree, listed, random_command
from multiversus_core.engine.errors import IllegalCommandError, InvalidCommandError
from multiversus_core.engine.ismcts import search
from multiversus_core.engine.log import (
    LogEntry,
    MatchLog,
    decode_log,
    encode_log,
    new_header,
    replay,
)
from multiversus_core.engine.render import renderer_of
from multiversus_core.engine.ruleset import REFEREE, Table
from multiversus_core.engine.verify import verify, verify_against, verify_view
from multiversus_core.engine.viewlog import (
    decode_view_log,
    encode_view_log,
    redact_log,
    replayable,
)

_encode: Final = msgspec.json.Encoder().encode

REFUSED: Final = (InvalidCommandError, IllegalCommandError)
"""How ``decide`` refuses a command."""


def encoded(value: Any) -> bytes:
    """The canonical encoding of a struct: how the kit compares what it cannot look inside."""
    return _encode(value)


TREE_LISTED: Final = 200
"""A tree of choices with at most this many ways through is checked command by command."""
TREE_WALKS: Final = 24
"""Else this many walks of it, chosen at random from a fixed seed: two equal trees give the
same commands."""


def listing(legal: Any) -> list[Any]:
    """The commands of ``legal`` the kit checks: a list whole, a tree's every command when
    few, else :data:`TREE_WALKS` of them, each walk choosing at random."""
    if not is_tree(legal):
        return list(legal)
    if is_empty(legal):
        return []
    every = listed(legal, TREE_LISTED)
    if every is not None:
        return list(every)
    rng = random.Random(0)
    return [random_command(legal, rng) for _ in range(TREE_WALKS)]


# --- settings -------------------------------------------------------------------------


@dataclass(frozen=True)
class Example:
    """Settings to start a match from, and the secret chance seed they commit to (if any)."""

    name: str
    settings: Any
    chance: Chance | None = None


def examples(ruleset: Any, base: msgspec.Struct, seed: int) -> tuple[Example, ...]:
    """Return ``base`` as a seeded match, with secret salts, and with secret chance.

    Only what :meth:`table` reads is changed, through :meth:`with_table`.
    """
    rng = random.Random(seed)
    table = ruleset.table(base)

    def settings(seed: int, chance: str, salts: str) -> msgspec.Struct:
        return ruleset.with_table(base, Table(seed, chance, salts, table.players))

    # A long seed (19 or 20 digits): finding it in a view's encoding is no accident.
    chance = Chance(seed=rng.getrandbits(64) | 1 << 63, salt=f"{rng.getrandbits(256):064x}")
    return (
        Example("seeded", settings(seed, "", "seed")),
        Example("secret-salts", settings(seed, "", "secrets")),
        Example("secret-chance", settings(0, chance_commitment(chance), "secrets"), chance),
    )


def seats(ruleset: Any, settings: Any) -> tuple[int, ...]:
    """Every seat of a match with these settings, from 1."""
    return tuple(range(1, len(ruleset.table(settings).players) + 1))


# --- playing ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One command of a match: who gave it where, and what it caused."""

    before: Any
    seat: int
    chosen: Any
    """The command as listed by ``legal_commands`` (unsalted)."""
    command: Any
    """The command as given: ``chosen``, salted."""
    events: tuple[Any, ...]
    after: Any


@dataclass(frozen=True)
class Match:
    """A match played through the protocol, from its start."""

    example: Example
    start: Any
    steps: tuple[Step, ...]

    @property
    def states(self) -> tuple[Any, ...]:
        """Every state of the match, the start first."""
        return (self.start, *(step.after for step in self.steps))

    @property
    def events(self) -> tuple[Any, ...]:
        """Every event of the match, in order."""
        return tuple(event for step in self.steps for event in step.events)


Chooser = Callable[[Any, int, Sequence[Any]], Any]
"""Chooses a command for a seat: (state, seat, legal) -> one of legal."""


def play(
    ruleset: Any,
    example: Example,
    rng: random.Random,
    choose: Chooser | None = None,
    limit: int = 5000,
) -> Match:
    """Play a match: a random seat among those to act gives a command (random unless
    ``choose`` is given), salted, until the match ends or ``limit`` commands."""
    start = state = ruleset.initial_state(example.settings, example.chance)
    steps: list[Step] = []
    while (waiting := ruleset.to_act(state)) and len(steps) < limit:
        seat = rng.choice(waiting)
        legal = ruleset.legal_commands(state, seat)
        chosen = random_command(legal, rng) if choose is None else choose(state, seat, legal)
        command = ruleset.salted(chosen, example.settings)
        events, after = ruleset.decide(command, state)
        steps.append(Step(state, seat, chosen, command, tuple(events), after))
        state = after
    return Match(example, start, tuple(steps))


def bot_chooser(ruleset: Any, maker: Callable[[int], Any], seed: int) -> Chooser:
    """Return a chooser in which each seat's bot sees only that seat's view."""
    bots: dict[int, Any] = {}

    def choose(state: Any, seat: int, legal: Sequence[Any]) -> Any:
        bot = bots.setdefault(seat, maker(seed + seat))
        return bot.choose(ruleset.view(state, ruleset.viewer_of(state, seat)), legal)

    return choose


# --- legal commands, decide and fold -----------------------------------------------------


MAX_STATES: Final = 40
"""The most states of one match the costlier checks look at (a long match is sampled)."""


def _some(states: Sequence[Any], rng: random.Random) -> list[tuple[int, Any]]:
    """Up to :data:`MAX_STATES` of ``states`` with their numbers, in order."""
    numbered = list(enumerate(states))
    if len(numbered) <= MAX_STATES:
        return numbered
    return sorted(rng.sample(numbered, MAX_STATES), key=lambda pair: pair[0])


def check_legal(ruleset: Any, match: Match, rng: random.Random, sample: int = 60) -> list[str]:
    """Legal commands are exactly what ``decide`` accepts.

    Every listed command (salted) is accepted; a command listed somewhere in
    the match but not now is refused with InvalidCommandError or
    IllegalCommandError; a seat to act has some legal command, a seat not to
    act has none. A tree of choices (:mod:`multiversus_core.engine.choices`)
    has no dead end, holds every command its walks build, and holds exactly
    the commands ``decide`` accepts.
    """
    problems: list[str] = []
    settings = match.example.settings
    everyone = seats(ruleset, settings)
    pool: dict[bytes, Any] = {}
    for state in match.states:
        for seat in everyone:
            try:
                commands = listing(ruleset.legal_commands(state, seat))
            except ValueError:
                continue  # a dead end, told below where the state is looked at
            for command in commands:
                pool.setdefault(encoded(command), command)
    for number, state in _some(match.states, rng):
        where = f"state {number} ({ruleset.where(state)})"
        waiting = ruleset.to_act(state)
        listed_now: set[bytes] = set()
        trees = []
        for seat in everyone:
            legal = ruleset.legal_commands(state, seat)
            try:
                empty = is_empty(legal)
                commands = listing(legal)
            except ValueError as exc:  # a walk of a tree met a dead end
                problems.append(f"{where}: seat {seat}'s choices: {exc}")
                continue
            if seat in waiting and empty:
                problems.append(f"{where}: seat {seat} is to act but has no legal command")
            if seat not in waiting and not empty:
                problems.append(f"{where}: seat {seat} is not to act but has legal commands")
            if is_tree(legal):
                trees.append(legal)
                first = legal.ask(())
                if isinstance(first, Ask) and len({o.key for o in first.options}) != len(
                    first.options
                ):
                    problems.append(f"{where}: seat {seat}'s first choice repeats a key")
            for command in commands:
                listed_now.add(encoded(command))
                if not is_legal(legal, command):
                    problems.append(f"{where}: {command!r} is built but not held by the tree")
                try:
                    ruleset.decide(ruleset.salted(command, settings), state)
                except REFUSED as exc:
                    problems.append(f"{where}: listed {command!r} is refused: {exc}")
        others = [c for key, c in pool.items() if key not in listed_now]
        for command in rng.sample(others, min(sample, len(others))):
            held = any(is_legal(tree, command) for tree in trees)
            try:
                ruleset.decide(ruleset.salted(command, settings), state)
            except REFUSED:
                if held:
                    problems.append(f"{where}: {command!r} is held by a tree but refused")
                continue
            except Exception as exc:  # a refusal of the wrong kind
                problems.append(f"{where}: {command!r} raised {type(exc).__name__}: {exc}")
            else:
                if not held:
                    problems.append(f"{where}: {command!r} is accepted but not listed")
    return problems


def check_fold(ruleset: Any, match: Match) -> list[str]:
    """``decide``'s state is the fold of its events, and ``evolve`` step by step; deciding
    again gives the same events."""
    problems: list[str] = []
    for number, step in enumerate(match.steps, start=1):
        where = f"command {number} ({step.command!r})"
        if ruleset.fold(step.before, step.events) != step.after:
            problems.append(f"{where}: fold of its events differs from decide's state")
        state = step.before
        for event in step.events:
            state = ruleset.evolve(state, event)
        if state != step.after:
            problems.append(f"{where}: evolve, event by event, differs from decide's state")
        events, after = ruleset.decide(step.command, step.before)
        if tuple(events) != step.events or after != step.after:
            problems.append(f"{where}: deciding it again gives something else")
    return problems


def check_ending(ruleset: Any, match: Match) -> list[str]:
    """The match ended with an outcome; nobody is to act exactly when there is one."""
    problems: list[str] = []
    n = len(seats(ruleset, match.example.settings))
    for number, state in enumerate(match.states):
        over = ruleset.outcome(state)
        if (not ruleset.to_act(state)) != (over is not None):
            problems.append(f"state {number}: to_act is {ruleset.to_act(state)} but outcome {over}")
    result = ruleset.outcome(match.states[-1])
    if result is None:
        return [*problems, f"the match has no outcome after {len(match.steps)} commands"]
    if len(result.returns) != n or not all(-1 <= r <= 1 for r in result.returns):
        problems.append(f"the returns {result.returns} are not one from -1 to 1 per seat")
    if not set(result.winners) <= set(range(1, n + 1)):
        problems.append(f"the winners {result.winners} are not seats")
    return problems


# --- secrets: what the events commit, reveal and make due -------------------------------------


Entries = list[tuple[Any, ...]]
"""A log's entries as the engine's audit takes them: each entry's events."""


def entries_of(match: Match) -> Entries:
    """The match's log: one entry per command, its events."""
    return [step.events for step in match.steps]


def redacted_entries(ruleset: Any, match: Match, viewer: str) -> Entries:
    """The match's log as ``viewer`` sees it: every event redacted for them."""
    return [
        tuple(ruleset.redact_event(event, viewer) for event in step.events) for step in match.steps
    ]


Reader = Callable[[Iterable[Any]], list[SecretFact]]
"""Reads one entry's events more, and returns what they say about the secrets."""


def reader(ruleset: Any, settings: Any, entries: Iterable[Sequence[Any]] = ()) -> Reader:
    """Return a reader of a log whose ``entries`` it has read already, through one auditor
    (the ruleset's, for these settings) that sees only the event types it audits, as the
    engine's audit does."""
    auditor = ruleset.auditor(settings)

    def read(events: Iterable[Any]) -> list[SecretFact]:
        return [
            fact
            for event in events
            if type(event) in auditor.audited
            for fact in auditor.read(event)
        ]

    for events in entries:
        read(events)
    return read


def facts_of(ruleset: Any, settings: Any, entries: Entries) -> list[list[SecretFact]]:
    """What each entry says about the secrets, read in order by one auditor."""
    read = reader(ruleset, settings)
    return [read(events) for events in entries]


def _committed(facts: Iterable[SecretFact]) -> list[Committed]:
    return [fact for fact in facts if isinstance(fact, Committed)]


def _reveals(facts: Iterable[SecretFact], keys: Iterable[str] | None = None) -> list[Revealed]:
    """The public reveals among ``facts`` (of these keys, if given): a chooser's own copy is
    no reveal."""
    return [
        fact
        for fact in facts
        if isinstance(fact, Revealed) and not fact.own and (keys is None or fact.key in keys)
    ]


def problems_of(ruleset: Any, settings: Any, entries: Entries) -> tuple[CommitmentProblem, ...]:
    """The engine's audit of a log (:func:`~multiversus_core.engine.audit.check_commitments`),
    through the ruleset's auditor."""
    return check_commitments(ruleset.auditor(settings), entries)


def codes_of(ruleset: Any, settings: Any, entries: Entries) -> set[str]:
    """The codes of the problems the engine's audit finds in a log."""
    return {problem.code for problem in problems_of(ruleset, settings, entries)}


def keeps_secrets(ruleset: Any, settings: Any) -> bool:
    """Whether the game hides anything but its chance seed: its audit reads some event, or its
    view unions hold placeholders. A game of open information (tiles-d6) keeps none."""
    return (
        bool(ruleset.auditor(settings).audited)
        or ruleset.view_event_type != ruleset.event_type
        or ruleset.view_command_type != ruleset.command_type
    )


def check_open_game(ruleset: Any, match: Match) -> list[str]:
    """A game that keeps no secret commits to nothing and redacts nothing: every event and
    command reaches every viewer as it is, and no event states a secret fact."""
    problems: list[str] = []
    settings = match.example.settings
    if any(facts for facts in facts_of(ruleset, settings, entries_of(match))):
        problems.append("a game that keeps no secret states secret facts")
    for number, step in enumerate(match.steps, start=1):
        for viewer in ruleset.viewers:
            if ruleset.redact_command(step.command, step.before, viewer) != step.command:
                problems.append(f"step {number}: {viewer} is not shown the command as it is")
            if any(ruleset.redact_event(e, viewer) != e for e in step.events):
                problems.append(f"step {number}: {viewer} is not shown the events as they are")
    return problems


def check_commitments_kept(ruleset: Any, match: Match) -> list[str]:
    """The engine's audit finds no problem in the match's log, nor in any viewer's redacted
    log; a placeholder says what its event says about the secrets (the chooser's own copy
    aside); and the auditor's ``audited`` names every event type that says anything."""
    settings = match.example.settings
    full = entries_of(match)
    problems = [
        f"the log: {p.code} at entry {p.entry}: {p.message}"
        for p in problems_of(ruleset, settings, full)
    ]
    facts = facts_of(ruleset, settings, full)
    if keeps_secrets(ruleset, settings) and not any(_committed(entry) for entry in facts):
        problems.append("the match has no secrets to check")

    def public(facts: list[SecretFact]) -> list[bytes]:
        return [encoded(f) for f in facts if not (isinstance(f, Revealed) and f.own)]

    probe = ruleset.auditor(settings)
    unaudited: set[str] = set()
    for viewer in (None, *ruleset.viewers):
        entries = full if viewer is None else redacted_entries(ruleset, match, viewer)
        for event in (event for events in entries for event in events):
            if type(event) not in probe.audited and probe.read(event):
                unaudited.add(type(event).__name__)
        if viewer is None:
            continue
        problems += [
            f"{viewer}'s log: {p.code} at entry {p.entry}: {p.message}"
            for p in problems_of(ruleset, settings, entries)
        ]
        seen = facts_of(ruleset, settings, entries)
        for number, (theirs, ours) in enumerate(zip(seen, facts, strict=True), start=1):
            if public(theirs) != public(ours):
                problems.append(f"entry {number} as {viewer} sees it states other secret facts")
    problems += [f"{name} states secret facts but is not audited" for name in sorted(unaudited)]
    return problems


def _other_salt(salt: str) -> str:
    return ("0" if salt[0] != "0" else "1") + salt[1:]


def tampered(ruleset: Any, match: Match, own: bool = False) -> Entries | None:
    """The match's log with the salt changed in the first event revealing a secret (``own``:
    giving a chooser's own copy of one); None if no event does."""
    settings = match.example.settings
    entries = entries_of(match)
    read = reader(ruleset, settings)
    for number, events in enumerate(entries):
        for i, event in enumerate(events):
            for fact in read((event,)):
                if isinstance(fact, Revealed) and fact.own == own:
                    text = encoded(event).replace(
                        fact.salt.encode(), _other_salt(fact.salt).encode()
                    )
                    changed = msgspec.json.decode(text, type=ruleset.event_type)
                    entries[number] = (*events[:i], changed, *events[i + 1 :])
                    return entries
    return None


def dropped(ruleset: Any, match: Match) -> Entries | None:
    """The match's log without the first event that reveals a secret; None if none does."""
    settings = match.example.settings
    entries = entries_of(match)
    read = reader(ruleset, settings)
    for number, events in enumerate(entries):
        for i, event in enumerate(events):
            if _reveals(read((event,))):
                entries[number] = (*events[:i], *events[i + 1 :])
                return entries
    return None


# --- hidden information -------------------------------------------------------------------


@dataclass
class Secret:
    """One secret of a match, as the facts of its log tell it."""

    key: str
    digest: str
    committed: int
    """The step (from 0) whose events committed it."""
    owner: str
    """The viewer who chose it (and may see it)."""
    salt: str | None = None
    """Its salt, from its chooser's own copy or its reveal."""
    revealed: int | None = None
    """The step whose events revealed it, if any."""


def secrets_of(ruleset: Any, match: Match) -> list[Secret]:
    """Every secret of the match, in the order committed (a key may be committed again once
    revealed)."""
    facts = facts_of(ruleset, match.example.settings, entries_of(match))
    found: list[Secret] = []
    open_: dict[str, Secret] = {}
    for number, (step, entry) in enumerate(zip(match.steps, facts, strict=True)):
        for fact in entry:
            match fact:
                case Committed(key=key, digest=digest):
                    owner = ruleset.viewer_of(step.before, step.seat)
                    open_[key] = Secret(key, digest, number, owner)
                    found.append(open_[key])
                case Revealed(key=key, salt=salt, own=True) if key in open_:
                    open_[key].salt = salt
                case Revealed(key=key, salt=salt) if key in open_:
                    secret = open_.pop(key)
                    secret.salt, secret.revealed = secret.salt or salt, number
                case _:
                    pass
    return found


def _seen_by(ruleset: Any, match: Match, viewer: str) -> list[tuple[int, list[bytes]]]:
    """What ``viewer`` sees after each step (-1: the start): the view, and the step's
    command and events redacted for them."""
    seen = [(-1, [encoded(ruleset.view(match.start, viewer))])]
    for number, step in enumerate(match.steps):
        texts = [
            encoded(ruleset.view(step.after, viewer)),
            encoded(ruleset.redact_command(step.command, step.before, viewer)),
            *(encoded(ruleset.redact_event(event, viewer)) for event in step.events),
        ]
        seen.append((number, texts))
    return seen


def check_no_leaked_secrets(ruleset: Any, match: Match) -> list[str]:
    """No viewer's view, redacted command or redacted event holds the chance seed, or the salt
    of a secret of another viewer not revealed yet."""
    problems: list[str] = []
    chance = match.example.chance
    seed = str(chance.seed).encode() if chance is not None else None
    found = secrets_of(ruleset, match)
    for viewer in ruleset.viewers:
        for number, texts in _seen_by(ruleset, match, viewer):
            hidden = [
                s
                for s in found
                if s.salt is not None
                and s.owner != viewer
                and s.committed <= number
                and (s.revealed is None or s.revealed > number)
            ]
            for text in texts:
                if seed is not None and seed in text:
                    problems.append(f"{viewer} sees the chance seed after step {number}")
                for secret in hidden:
                    if secret.salt is not None and secret.salt.encode() in text:
                        problems.append(
                            f"{viewer} sees the salt of {secret.key} after step {number}, "
                            "before it is revealed"
                        )
    return problems


def _masked(text: bytes, digests: dict[str, str]) -> bytes:
    for digest, key in digests.items():
        text = text.replace(digest.encode(), f"<{key}>".encode())
    return text


def check_indistinguishable(
    ruleset: Any, match: Match, rng: random.Random, tries: int = 6
) -> list[str]:
    """Changing one seat's secret choice changes nothing another viewer can see, until it
    is revealed.

    For some steps that commit a secret, the seat's command is replaced by
    another legal one committing the same secrets, and the match replayed up to
    the step that reveals them. Every other viewer must then see the same views,
    the same redacted commands and events (commitments aside, which differ by
    design), and every other seat the same legal commands; their commands must
    still be accepted.
    """
    problems: list[str] = []
    settings = match.example.settings
    everyone = seats(ruleset, settings)
    steps = match.steps
    facts = facts_of(ruleset, settings, entries_of(match))
    committing = [k for k, entry in enumerate(facts) if _committed(entry)]
    compared = 0
    for k in rng.sample(committing, min(tries, len(committing))):
        step = steps[k]
        keys = sorted(f.key for f in _committed(facts[k]))
        owner = ruleset.viewer_of(step.before, step.seat)
        fresh = functools.partial(reader, ruleset, settings, entries_of(match)[:k])
        other = _other_secret(ruleset, step, keys, fresh, rng, settings)
        if other is None:
            continue  # no other choice commits the same secrets
        alternative, read, alternative_facts = other
        if _reveals(alternative_facts, keys):
            continue  # revealed at once: nobody could see it hidden
        digests = {f.digest: f.key for f in _committed((*facts[k], *alternative_facts))}
        pairs = [(step, alternative)]
        state = alternative.after
        for j in range(k + 1, len(steps)):
            later = steps[j]
            if _reveals(facts[j], keys):
                break
            try:
                events, after = ruleset.decide(later.command, state)
            except REFUSED as exc:
                if ruleset.viewer_of(later.before, later.seat) != owner:
                    problems.append(
                        f"step {j}: seat {later.seat}'s {later.command!r} is refused once "
                        f"{owner} chose otherwise at step {k} ({exc}): its legality leaks it"
                    )
                break
            replayed = Step(state, later.seat, later.chosen, later.command, tuple(events), after)
            replayed_facts = read(events)
            if _reveals(replayed_facts, keys):
                break  # the other choice is revealed here (used, say): now anyone may know it
            digests.update({f.digest: f.key for f in _committed(replayed_facts)})
            pairs.append((later, replayed))
            state = after
        others = [s for s in everyone if ruleset.viewer_of(step.before, s) != owner]
        for original, replayed in pairs:
            problems += _compare(ruleset, original, replayed, owner, others, digests, f"step {k}")
        compared += 1
    if committing and not compared:
        problems.append("no secret choice could be made otherwise: nothing was compared")
    return problems


def _other_secret(
    ruleset: Any,
    step: Step,
    keys: list[str],
    fresh: Callable[[], Reader],
    rng: random.Random,
    settings: Any,
) -> tuple[Step, Reader, list[SecretFact]] | None:
    """Another legal command of the step's seat committing the same secrets, as a step; with
    the reader of the log that took it instead (``fresh``: one that read the log before it),
    and what its events say about the secrets."""
    legal = listing(ruleset.legal_commands(step.before, step.seat))
    alternatives = [c for c in legal if encoded(c) != encoded(step.chosen)]
    rng.shuffle(alternatives)
    for other in alternatives:
        command = ruleset.salted(other, settings)
        try:
            events, after = ruleset.decide(command, step.before)
        except REFUSED:
            continue  # check_legal reports it
        read = fresh()
        facts = read(events)
        if sorted(f.key for f in _committed(facts)) == keys:
            return Step(step.before, step.seat, other, command, tuple(events), after), read, facts
    return None


def _compare(
    ruleset: Any,
    original: Step,
    replayed: Step,
    owner: str,
    others: Sequence[int],
    digests: dict[str, str],
    when: str,
) -> list[str]:
    """What every viewer but ``owner`` sees of two steps, commitments masked, must be equal."""
    problems: list[str] = []

    def seen(step: Step, viewer: str) -> list[bytes]:
        texts = [
            ruleset.view(step.after, viewer),
            ruleset.redact_command(step.command, step.before, viewer),
            *(ruleset.redact_event(e, viewer) for e in step.events),
        ]
        return [_masked(encoded(text), digests) for text in texts]

    for viewer in ruleset.viewers:
        if viewer != owner and seen(original, viewer) != seen(replayed, viewer):
            problems.append(f"{viewer} can tell {owner}'s secret choice at {when}")
    for seat in others:
        mine = encoded(listing(ruleset.legal_commands(original.after, seat)))
        if mine != encoded(listing(ruleset.legal_commands(replayed.after, seat))):
            problems.append(f"seat {seat}'s legal commands depend on {owner}'s choice at {when}")
    return problems


def check_determinize(ruleset: Any, match: Match, rng: random.Random) -> list[str]:
    """A determinized view is seen as the view: view(determinize(view(s, v)), v) == view(s, v),
    and every seat the viewer is has the same legal commands in it.

    Only the ruleset's viewers have views: the referee sees the state itself.
    """
    problems: list[str] = []
    everyone = seats(ruleset, match.example.settings)
    for number, state in _some(match.states, rng):
        for viewer in ruleset.viewers:
            seen = ruleset.view(state, viewer)
            full = ruleset.determinize(seen, rng)
            if ruleset.view(full, viewer) != seen:
                problems.append(f"state {number}: {viewer}'s view of its determinization differs")
                continue
            if ruleset.to_act(full) != ruleset.to_act(state):
                problems.append(f"state {number}: {viewer}'s determinization waits for others")
            for seat in everyone:
                if viewer == ruleset.viewer_of(state, seat) and encoded(
                    listing(ruleset.legal_commands(full, seat))
                ) != encoded(listing(ruleset.legal_commands(state, seat))):
                    problems.append(
                        f"state {number}: seat {seat}'s legal commands differ in {viewer}'s "
                        "determinization"
                    )
    return problems


# --- the log ----------------------------------------------------------------------------------


def check_log(ruleset: Any, match: Match) -> list[str]:
    """The match's log names its game, reads back to the same log and bytes, replays to the
    match's last state and verifies; with its chance seed withheld, it still verifies."""
    problems: list[str] = []
    entries = tuple(LogEntry(step.command, step.events) for step in match.steps)
    settings = match.example.settings
    log = MatchLog(header=new_header(settings), entries=entries, chance=match.example.chance)
    if not log.finished:
        return ["the match did not end"]
    data = encode_log(log)
    if log.game != ruleset.id:
        problems.append(f"the log names the game {log.game!r}, not {ruleset.id!r}")
    read = decode_log(data)
    if read != log or encode_log(read) != data:
        problems.append("the log does not read back to the same log, byte for byte")
    if encoded(replay(read)) != encoded(match.states[-1]):
        problems.append("replaying the log does not give the match's last state")
    result = verify(read)
    if not result.ok:
        problems.append(f"the log does not verify: {result.problem}")
    if match.example.chance is not None:
        unfinished = MatchLog(header=log.header, entries=entries[:-1])
        withheld = verify(unfinished)
        if not withheld.ok:
            problems.append(f"without its chance seed, the log does not verify: {withheld.problem}")
    return problems


def check_view_logs(ruleset: Any, match: Match, cut: int) -> list[str]:
    """Each viewer's view log of the match, whole and cut after entry ``cut``, reads back to
    the same view log and bytes, verifies, agrees with the match log, and, filled in,
    replays to exactly what its viewer saw after every entry."""
    problems: list[str] = []
    entries = tuple(LogEntry(step.command, step.events) for step in match.steps)
    settings = match.example.settings
    header = new_header(settings)
    whole = MatchLog(header=header, entries=entries, chance=match.example.chance)
    # A cut after the last entry is the whole match, whose end reveals its chance.
    part = whole if cut >= len(entries) else MatchLog(header=header, entries=entries[:cut])
    for log in (whole, part):
        which = "the whole" if log is whole else f"the first {cut} entries' "
        views = []
        for viewer in ruleset.viewers:
            mine = f"{viewer}'s view log of {which} match"
            redacted = redact_log(log, viewer)
            data = encode_view_log(redacted)
            read = decode_view_log(data)
            views.append(read)
            if read != redacted or encode_view_log(read) != data:
                problems.append(f"{mine} does not read back to the same view log, byte for byte")
            result = verify_view(read)
            if not result.ok:
                problems.append(f"{mine} does not verify: {result.problem}")
                continue
            state = ruleset.initial_state(settings, None)
            filled = replayable(read).entries
            for number, (entry, step) in enumerate(zip(filled, match.steps, strict=False), 1):
                state = ruleset.fold(state, entry.events)
                if encoded(ruleset.view(state, viewer)) != encoded(
                    ruleset.view(step.after, viewer)
                ):
                    problems.append(f"{mine}, filled in, shows another view after entry {number}")
                    break
        for result in verify_against(log, views)[1:]:
            if not result.ok:
                problems.append(f"{result.view}'s view log of {which} match: {result.problem}")
    return problems


# --- words ---------------------------------------------------------------------------------


def check_words(ruleset: Any, match: Match) -> list[str]:
    """Every command, whole or redacted for any viewer, is told in words, and every event
    (or placeholder) is told or passed over, without failing; ``where`` always answers."""
    problems: list[str] = []
    everyone = seats(ruleset, match.example.settings)
    for number, step in enumerate(match.steps):
        try:
            told = [ruleset.where(step.before)]
            for viewer in (*ruleset.viewers, REFEREE):
                shown = step.command
                if viewer != REFEREE:
                    shown = ruleset.redact_command(step.command, step.before, viewer)
                told.append(ruleset.describe_command(shown, step.before))
            state = step.before
            for event in step.events:
                for seat in (None, *everyone):
                    viewer = REFEREE if seat is None else ruleset.viewer_of(state, seat)
                    seen = event if seat is None else ruleset.redact_event(event, viewer)
                    line = ruleset.narrate(seen, state, seat)
                    if line is not None:
                        told.append(line)
                state = ruleset.evolve(state, event)
        except Exception as exc:
            problems.append(f"step {number}: telling it failed: {type(exc).__name__} {exc}")
            continue
        if not all(isinstance(line, str) and line and "\n" not in line for line in told):
            problems.append(f"step {number}: a line is empty, not text, or more than one line")
    return problems


# --- pictures and words of a position ------------------------------------------------------


def check_renderer(ruleset: Any, match: Match, rng: random.Random) -> list[str]:
    """The ruleset's renderer, if it offers one (``engine/render.py``), draws sampled positions
    from each viewer's view without failing: an SVG document whose root is ``<svg>`` and a
    text board, or None for both (a game without a board); and it tells every legal command
    of each seat to act in one line from the seat's view, different commands differently."""
    looks = renderer_of(ruleset)
    if looks is None:
        return []
    problems: list[str] = []
    for number, state in _some(match.states, rng):
        try:
            for viewer in ruleset.viewers:
                seen = ruleset.view(state, viewer)
                svg, text = looks.board_svg(seen), looks.board_text(seen)
                if (svg is None) != (text is None):
                    problems.append(f"state {number}: one board of two drawn for {viewer}")
                if svg is not None and ET.fromstring(svg).tag != f"{_SVG}svg":
                    problems.append(f"state {number}: the picture for {viewer} is not an SVG")
                if text is not None and not text.strip():
                    problems.append(f"state {number}: the text board for {viewer} is empty")
            for seat in ruleset.to_act(state):
                seen = ruleset.view(state, ruleset.viewer_of(state, seat))
                legal = {encoded(c): c for c in listing(ruleset.legal_commands(state, seat))}
                words = {looks.command_words(c, seen) for c in legal.values()}
                if not all(isinstance(w, str) and w.strip() and "\n" not in w for w in words):
                    problems.append(f"state {number}: a command of seat {seat} is not told")
                if len(words) != len(legal):
                    problems.append(f"state {number}: two commands of seat {seat} read the same")
        except Exception as exc:
            problems.append(f"state {number}: drawing failed: {type(exc).__name__} {exc}")
    return problems


_SVG: Final = "{http://www.w3.org/2000/svg}"
"""The SVG namespace, as ElementTree names a tag in it."""


# --- encoding and chance --------------------------------------------------------------------


def check_encoding(ruleset: Any, match: Match) -> list[str]:
    """Every command and event comes back whole from JSON as its union decodes it: full ones
    through ``command_type`` and ``event_type``, every viewer's redacted ones (placeholders
    included) through ``view_command_type`` and ``view_event_type``."""
    problems: list[str] = []

    def round_trip(value: Any, union: Any, what: str) -> None:
        try:
            back = msgspec.json.decode(encoded(value), type=union)
        except msgspec.ValidationError as exc:
            problem = f"{what} {type(value).__name__} does not decode: {exc}"
        else:
            if back == value and type(back) is type(value):
                return
            problem = f"{what} {type(value).__name__} decodes to {back!r}"
        if problem not in problems:
            problems.append(problem)

    for step in match.steps:
        round_trip(step.command, ruleset.command_type, "the command")
        for event in step.events:
            round_trip(event, ruleset.event_type, "the event")
        for viewer in ruleset.viewers:
            shown = ruleset.redact_command(step.command, step.before, viewer)
            round_trip(shown, ruleset.view_command_type, f"{viewer}'s command")
            for event in step.events:
                seen = ruleset.redact_event(event, viewer)
                round_trip(seen, ruleset.view_event_type, f"{viewer}'s event")
    return problems


def check_recorded_chance(ruleset: Any, match: Match) -> list[str]:
    """Replayed without the secret chance seed, each command supplying the chance its events
    recorded gives the same events, and every viewer sees the same."""
    problems: list[str] = []
    state = ruleset.initial_state(match.example.settings, None)
    for number, step in enumerate(match.steps, start=1):
        command = ruleset.with_recorded_chance(step.command, step.events)
        try:
            events, state = ruleset.decide(command, state)
        except REFUSED as exc:
            return [*problems, f"command {number}: refused without the chance seed: {exc}"]
        if tuple(events) != step.events:
            problems.append(f"command {number}: other events without the chance seed")
        for viewer in ruleset.viewers:
            if encoded(ruleset.view(state, viewer)) != encoded(ruleset.view(step.after, viewer)):
                problems.append(f"command {number}: {viewer} can tell the chance seed is known")
    return problems


# --- bots and search --------------------------------------------------------------------------


BOT_DECISIONS: Final = 40
"""The most decisions each bot makes in one match of :func:`check_bots`: a search bot of
a long game would take minutes for a whole match; random choices then finish it."""


def check_bots(
    ruleset: Any, example: Example, seed: int, decisions: int = BOT_DECISIONS
) -> list[str]:
    """Every bot, given only its seat's view, chooses a legal command, and its match ends."""
    problems: list[str] = []
    for name, maker in ruleset.bots.items():
        choose = bot_chooser(ruleset, maker, seed)
        rng = random.Random(seed)
        made = 0

        def checked(
            state: Any,
            seat: int,
            legal: Sequence[Any],
            name: str = name,
            choose: Chooser = choose,
            rng: random.Random = rng,
        ) -> Any:
            nonlocal made
            if made >= decisions:
                return random_command(legal, rng)
            made += 1
            command = choose(state, seat, legal)
            if not is_legal(legal, command):
                problems.append(f"bot {name!r} chose {command!r}, not a legal command")
                return listing(legal)[0]
            return command

        match = play(ruleset, example, random.Random(seed), checked)
        problems.extend(f"{name!r} bots: {problem}" for problem in check_ending(ruleset, match))
    if "random" not in ruleset.bots:
        problems.append("there is no 'random' bot")
    return problems


def check_search(ruleset: Any, match: Match, rng: random.Random, states: int = 3) -> list[str]:
    """The search game's search, from a seat's view, returns a legal command, and it is
    accepted once salted."""
    problems: list[str] = []
    waiting = [s for s in match.states if ruleset.to_act(s)]
    for state in rng.sample(waiting, min(states, len(waiting))):
        seat = rng.choice(ruleset.to_act(state))
        legal = listing(ruleset.legal_commands(state, seat))
        seen = ruleset.view(state, ruleset.viewer_of(state, seat))
        found = search(ruleset.search_game(), seen, legal, seat, rng, iterations=24)
        if encoded(found.command) not in {encoded(c) for c in legal}:
            problems.append(f"search chose {found.command!r}, not a legal command")
            continue
        try:
            ruleset.decide(ruleset.salted(found.command, match.example.settings), state)
        except REFUSED as exc:
            problems.append(f"search's {found.command!r} is refused: {exc}")
    return problems


# --- a ruleset with one member replaced, to show each check can fail ----------------------------


@dataclass
class Patched:
    """A ruleset with some members replaced: ``Patched(ruleset, view=...)``."""

    inner: Any
    members: dict[str, Any] = field(default_factory=dict)

    def __getattr__(self, name: str) -> Any:
        if name in self.members:
            return self.members[name]
        return getattr(self.inner, name)


def patched(ruleset: Any, **members: Any) -> Patched:
    """Return ``ruleset`` with these members replaced."""
    return Patched(ruleset, members)
