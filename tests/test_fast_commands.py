"""The command pipeline's fast paths agree with plain reference computations.

Deciding finds a command's rule in a table keyed by the command's class and
checks its form there; the checks are compared here with the plain check of
every command shape in one ``match`` that they replace. Verifying audits
only the events that take part in commitments, and every commitment binds a
match id kept per settings: both are checked against the plain computation.
"""

from __future__ import annotations

import ast
import hashlib
import inspect
import itertools
import textwrap
import typing
from functools import lru_cache
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from multiversus_core.engine.audit import Committed, Due
from multiversus_core.engine.commit import opens
from multiversus_core.engine.errors import InvalidCommandError, MultiversusError
from multiversus_core.engine.log import MatchLog
from multiversus_core.engine.play import play_match
from multiversus_core.engine.verify import (
    CommitmentProblem,
    Verification,
    _difference,
    _failed,
    _Match,
    check_commitments,
    verify,
)
from multiversus_core.rulesets.multiversus import layout, selections
from multiversus_core.rulesets.multiversus.abilities import abilities_of
from multiversus_core.rulesets.multiversus.audit import AUDITED, Auditor
from multiversus_core.rulesets.multiversus.board import Figure
from multiversus_core.rulesets.multiversus.bots.specs import RandomBot, command_for
from multiversus_core.rulesets.multiversus.catalog import installed_teams
from multiversus_core.rulesets.multiversus.commands import (
    AfterAttack,
    Attack,
    BeginAction,
    BlockForcedMove,
    ChooseSecret,
    ChooseSide,
    ChooseStartingTeam,
    ChooseTeams,
    Command,
    DeclineReaction,
    EndAction,
    FlipForSetUp,
    GiveUpInitiative,
    React,
    RollInitiative,
    SelectCoins,
    SelectNoReaction,
    SelectReaction,
    Step,
    StopForcedMove,
    Stunt,
)
from multiversus_core.rulesets.multiversus.decide import (
    _RULES,
    decide,
    decide_and_fold,
    decider_seat,
)
from multiversus_core.rulesets.multiversus.events import (
    CoinsRevealed,
    CoinsSelected,
    ReactionRevealed,
    ReactionSelected,
)
from multiversus_core.rulesets.multiversus.legal import (
    _LISTINGS,
    _selection_commands,
    legal_commands,
)
from multiversus_core.rulesets.multiversus.match import apply, start_match
from multiversus_core.rulesets.multiversus.ruleset import RULESET
from multiversus_core.rulesets.multiversus.secrets import match_id
from multiversus_core.rulesets.multiversus.settings import MatchSettings
from multiversus_core.rulesets.multiversus.state import MatchState, Pending
from multiversus_core.rulesets.multiversus.terms import ACTION_KINDS, SEATS, SIDES, Seat
from multiversus_core.rulesets.multiversus.units import Unit, coin_colour, coin_kind, coin_unit
from multiversus_core.rulesets.multiversus.variants import VARIANTS
from tests.support import plain_decider_seat

# --- deciding: one rule per command class ------------------------------------


def test_every_kind_of_command_has_its_rule() -> None:
    # given the union of commands, then each class has exactly one rule, and nothing else does
    assert set(_RULES) == set(typing.get_args(Command))


def _is_unit_step(direction: object) -> bool:
    if not isinstance(direction, tuple) or len(direction) != 2:
        return False
    dc, dr = direction
    return dc in (-1, 0, 1) and dr in (-1, 0, 1) and (dc, dr) != (0, 0)


def _reference_well_formed(command: Any) -> None:
    """The plain check of every command's form, in one ``match``, as deciding did it."""
    if command.player not in SEATS:
        raise InvalidCommandError(f"player must be seat 1 or 2, not {command.player!r}")
    match command:
        case FlipForSetUp(winner=winner) if winner is not None and winner not in SEATS:
            raise InvalidCommandError(f"the coin favours seat 1 or 2, not {winner!r}")
        case ChooseStartingTeam(side=side) | ChooseSide(side=side) if side not in SIDES:
            raise InvalidCommandError(f"a team is 'heroes' or 'adversaries', not {side!r}")
        case (
            SelectCoins(colour=colour, actions=actions)
            | SelectReaction(colour=colour, actions=actions)
        ):
            if colour not in ("green", "grey"):
                raise InvalidCommandError(f"a unit coin is green or grey, not {colour!r}")
            if len(actions) > 2:
                raise InvalidCommandError("at most two action coins can be selected")
            if any(a not in ACTION_KINDS for a in actions):
                raise InvalidCommandError(f"action coins are {', '.join(ACTION_KINDS)}")
            if tuple(sorted(actions)) != actions:
                raise InvalidCommandError("list the action coins in alphabetical order")
            if isinstance(command, SelectReaction) and not actions:
                raise InvalidCommandError("a reaction needs at least one action coin")
        case BeginAction(action=kind) if kind not in ACTION_KINDS:
            raise InvalidCommandError(f"actions are {', '.join(ACTION_KINDS)}, not {kind!r}")
        case AfterAttack(choice=choice, direction=direction) if choice not in (
            "step",
            "push",
            "stay",
        ) or (direction is not None and not _is_unit_step(direction)):
            raise InvalidCommandError("after an attack: step (with a direction), push, or stay")
        case Step(direction=direction):
            dc, dr = direction
            if dc not in (-1, 0, 1) or dr not in (-1, 0, 1) or (dc, dr) == (0, 0):
                raise InvalidCommandError(
                    f"a step is one space: each of the direction's parts is -1, 0 or 1, "
                    f"not both 0 (got {direction!r})"
                )
        case BlockForcedMove(block=block) if not isinstance(block, bool):
            raise InvalidCommandError(f"block is true or false, not {block!r}")
        case StopForcedMove(spaces=spaces) if spaces < 0:
            raise InvalidCommandError(f"a forced move goes 0 or more spaces, not {spaces!r}")
        case RollInitiative(die=die) if die is not None and not 1 <= die <= 6:
            raise InvalidCommandError(f"a six-sided die shows 1 to 6, not {die!r}")
        case _:
            pass


_SEATS: list[Any] = [0, 1, 2, 3]
_SIDES = ["heroes", "adversaries", "villains"]
_KINDS = [*ACTION_KINDS, "dance"]
_ACTIONS: list[tuple[Any, ...]] = [
    (),
    *((kind,) for kind in _KINDS),
    *itertools.product(_KINDS, repeat=2),
    ("attack", "move", "stunt"),
]
_COLOURS = ["green", "grey", "blue"]
_DIRECTIONS = list(itertools.product(range(-2, 3), repeat=2))
_NAMES = ["hero1", "nobody"]


def _every_command() -> list[Any]:
    """Every command shape with values inside and outside the game's vocabulary."""
    out: list[Any] = []
    for p in _SEATS:
        out += [FlipForSetUp(p, w) for w in [None, *_SEATS]]
        out += [ChooseTeams(p, h, a, "x") for h in _NAMES for a in _NAMES]
        out += [ChooseStartingTeam(p, side) for side in _SIDES]
        out += [ChooseSide(p, side) for side in _SIDES]
        for kind in (SelectCoins, SelectReaction):
            out += [kind(p, "militia", c, a) for c in _COLOURS for a in _ACTIONS]
        out += [SelectNoReaction(p), EndAction(p), React(p), DeclineReaction(p)]
        out += [GiveUpInitiative(p)]
        out += [BeginAction(p, kind) for kind in _KINDS]
        out += [Step(p, f, d) for f in _NAMES for d in _DIRECTIONS]
        out += [ChooseSecret(p, "scheme", c) for c in _NAMES]
        out += [Attack(p, a, t) for a in _NAMES for t in _NAMES]
        for choice in ("step", "push", "stay", "jump"):
            out += [AfterAttack(p, choice, d) for d in [None, *_DIRECTIONS]]
        out += [Stunt(p, f, a) for f in _NAMES for a in [None, *_NAMES]]
        out += [RollInitiative(p, die) for die in [None, *range(-1, 9)]]
        out += [BlockForcedMove(p, "hero1", block) for block in (True, False, 0, 1)]
        out += [StopForcedMove(p, spaces) for spaces in range(-2, 4)]
    return out


def _states() -> list[MatchState]:
    """States of a random match at several kinds of decision, the set-up included."""
    state = start_match(MatchSettings(seed=3))
    bots = {1: RandomBot(3), 2: RandomBot(4)}
    states: dict[str, MatchState] = {}
    while not state.is_over and len(states) < 12:
        states.setdefault(state.pending, state)
        seat = decider_seat(state)
        assert seat is not None
        state, _ = apply(state, command_for(bots[seat], state, seat))
    return list(states.values())


_STATES = _states()


def test_a_command_is_refused_as_malformed_exactly_as_the_plain_check_refuses_it() -> None:
    # given every command shape, well formed or not, and states at several decisions
    verdicts: list[tuple[Any, MatchState, str | None]] = []
    for command in _every_command():
        try:
            _reference_well_formed(command)
            verdicts += [(command, state, None) for state in _STATES]
        except InvalidCommandError as error:
            verdicts += [(command, state, str(error)) for state in _STATES]
    form_problems = {expected for _, _, expected in verdicts if expected is not None}
    assert len(form_problems) > 20
    for command, state, expected in verdicts:
        # when it is decided
        try:
            decide(command, state)
            got: str | None = None
            kind: type[Exception] | None = None
        except MultiversusError as error:
            got, kind = str(error), type(error)
        # then a malformed command is refused for the same reason, whatever the state;
        # a well-formed one is never refused for its form
        if expected is not None:
            assert (kind, got) == (InvalidCommandError, expected), command
        else:
            assert got not in form_problems, command


# --- verifying: the audit of commitments ---------------------------------------


def _class_patterns(node: ast.AST) -> set[str]:
    return {
        n.cls.id
        for n in ast.walk(node)
        if isinstance(n, ast.MatchClass) and isinstance(n.cls, ast.Name)
    }


def test_the_audit_passes_by_only_events_it_has_no_case_for() -> None:
    # given the audit's match over events, then the events it lets in are exactly those
    # its cases name: no case is ever skipped
    tree = ast.parse(textwrap.dedent(inspect.getsource(Auditor.read)))
    assert _class_patterns(tree) == {kind.__name__ for kind in AUDITED}


@given(
    st.lists(
        st.builds(
            MatchSettings,
            heroes=st.none() | st.sampled_from(["a", "b"]),
            variants=st.lists(st.sampled_from(["x", "y"]), max_size=2).map(tuple),
            seed=st.integers(0, 2**64 - 1),
            salts=st.sampled_from(["seed", "secrets"]),
            chance=st.sampled_from(["", "0" * 64]),
        ),
        min_size=1,
        max_size=40,
    )
)
def test_a_match_id_kept_per_settings_is_the_hash_of_its_encoding(
    many: list[MatchSettings],
) -> None:
    # given settings met in any order, some again, then each id is the plain hash
    for one in many + many[::-1]:
        encoded = msgspec.json.encode(one)
        if not one.chance:
            encoded = encoded[: -len(b',"chance":""}')] + b"}"
        assert match_id(one) == hashlib.sha256(encoded).hexdigest()


def test_a_layout_kept_per_pairing_is_the_one_laid_out_afresh() -> None:
    # given every pairing of the installed teams and scenarios, laid out twice (the second
    # time from the kept layouts), then each is what laying it out afresh gives
    teams = installed_teams()
    heroes = [t for t in teams if t.side == "heroes"]
    adversaries = [t for t in teams if t.side == "adversaries"]
    pairings = [(h, a, s) for h in heroes for a in adversaries for s in a.scenarios]
    layout.lay_out.cache_clear()
    for _ in range(2):
        for hero, adversary, scenario in pairings:
            kept = layout.lay_out(hero, adversary, scenario)
            assert kept == layout.lay_out.__wrapped__(hero, adversary, scenario)
    assert layout.lay_out.cache_info().hits == len(pairings)


# --- selections: kept per unit while the figures stay the same ----------------


def _plain_terrain(unit: Unit) -> list[tuple[str, ...]]:
    kinds = set()
    if not unit.is_terrain or selections.DRIFTING in unit.abilities:
        kinds.add("move")
    if any(a.kind in ("stunt", "double_stunt") for a in abilities_of(unit)):
        kinds.add("stunt")
    return [a for a in selections.ACTION_SELECTIONS if set(a) <= kinds]


def _plain_selections(state: MatchState, unit: Unit) -> tuple[list[tuple[str, ...]], ...]:
    """A unit's active and reactive selections from a plain scan of the figures (R1, R3)."""
    on_board = [f for f in state.figures if f.unit == unit.id and f.square is not None]
    able = [f for f in on_board if f.condition != "disabled"]
    if not on_board:
        active: list[tuple[str, ...]] = []
    elif unit.is_terrain:
        active = _plain_terrain(unit)
    else:
        hurt = any(f.condition in ("wounded", "disabled") for f in on_board)
        active = ([()] if hurt else []) + (list(selections.ACTION_SELECTIONS) if able else [])
    reactive = (
        [
            a
            for a in (_plain_terrain(unit) if unit.is_terrain else selections.ACTION_SELECTIONS)
            if a in selections.REACTIVE_SELECTIONS
        ]
        if able
        else []
    )
    return active, reactive


_ADVERSARIES = sorted(t.id for t in installed_teams() if t.side == "adversaries")


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    adversaries=st.sampled_from(_ADVERSARIES),
    variants=st.sets(st.sampled_from(sorted(VARIANTS))),
)
@example(seed=1, adversaries="smogon", variants=set())  # Drifting clouds move and stunt
def test_figures_and_selections_kept_while_the_figures_stay_are_the_plain_ones(
    seed: int, adversaries: str, variants: set[str]
) -> None:
    # given a random match against any team under any variants, then at every state (those
    # after a step keep what the step left alone) each unit's figures and selections, and
    # whether a side can act or react, are what a plain scan of the figures gives, and so
    # are the selection commands listed
    state = start_match(
        MatchSettings(seed=seed, adversaries=adversaries, variants=tuple(sorted(variants)))
    )
    bots = {1: RandomBot(seed), 2: RandomBot(seed + 1)}
    while not state.is_over:
        for figure in state.figures:
            assert state.figure(figure.id) is figure
        for unit in state.units:
            on_board = tuple(f for f in state.figures if f.unit == unit.id and f.square is not None)
            assert selections.figures_of(state, unit) == on_board
            able = tuple(f for f in on_board if f.condition != "disabled")
            assert selections.able_figures(state, unit) == able
            active, reactive = _plain_selections(state, unit)
            assert list(selections.active_selections(state, unit)) == active
            assert list(selections.reactive_selections(state, unit)) == reactive
        for side in SIDES:
            stash = {coin_unit(c) for c in state.piles(side).stash}
            mine = [u for u in state.units if u.side == side and u.id in stash]
            plain = [_plain_selections(state, u) for u in mine]
            assert selections.has_legal_activation(state, side) == any(a for a, _ in plain)
            assert selections.can_react(state, side) == any(r for _, r in plain)
        seat = decider_seat(state)
        assert seat is not None
        if state.pending in ("select", "react"):
            assert legal_commands(state, seat) == _plain_selection_listing(state, seat)
        state, _ = apply(state, command_for(bots[seat], state, seat))


def _plain_selection_listing(state: MatchState, seat: Seat) -> tuple[Command, ...]:
    """The selection commands of a player, built afresh from the stash and plain selections."""
    side = state.side_of(seat)
    assert side is not None
    commands: list[Command] = []
    for unit_id, colour in dict.fromkeys(map(coin_kind, state.piles(side).stash)):
        unit = state.unit(unit_id)
        active, reactive = _plain_selections(state, unit)
        if state.pending == "select":
            commands += [SelectCoins(seat, unit_id, colour, tuple(a)) for a in active]
        else:
            commands += [SelectReaction(seat, unit_id, colour, tuple(a)) for a in reactive]
    if state.pending == "select" and state.may_give_up:
        commands.append(GiveUpInitiative(seat))
    if state.pending == "react" and not commands:
        commands.append(SelectNoReaction(seat))
    return tuple(commands)


@pytest.mark.parametrize(
    "abilities",
    [
        (),
        ("Drifting",),
        ("Torches",),
        ("Smoke Breath",),
        ("Drifting", "Torches"),
        ("Rally", "Troll Sweep"),
    ],
)
def test_terrain_selections_kept_per_unit_are_the_plain_ones(abilities: tuple[str, ...]) -> None:
    # given a Terrain unit with any abilities, on the board, then what it may select as the
    # active and as the reactive unit is what its abilities allow (R1), asked twice
    unit = Unit("rocks", "Rock", "adversaries", "terrain", ("rocks-1",), (), abilities=abilities)
    rock = Figure("rocks-1", "Rock 1", "rocks", "adversaries", (0, 0), terrain=True)
    state = msgspec.structs.replace(
        start_match(MatchSettings(seed=1)), units=(unit,), figures=(rock,)
    )
    for _ in range(2):
        active, reactive = _plain_selections(state, unit)
        assert list(selections.active_selections(state, unit)) == active
        assert list(selections.reactive_selections(state, unit)) == reactive


# --- the decider and the listing: found by what the match waits for -----------


def test_every_decision_has_its_listing() -> None:
    assert set(_LISTINGS) == set(typing.get_args(Pending))


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    adversaries=st.sampled_from(_ADVERSARIES),
    variants=st.sets(st.sampled_from(sorted(VARIANTS))),
)
def test_the_seat_to_decide_is_the_plain_one_at_every_decision(
    seed: int, adversaries: str, variants: set[str]
) -> None:
    # given a random match, then at every state the seat to decide is the plain answer, and
    # only that seat has commands listed
    state = start_match(
        MatchSettings(seed=seed, adversaries=adversaries, variants=tuple(sorted(variants)))
    )
    bots = {1: RandomBot(seed), 2: RandomBot(seed + 1)}
    seen = set()
    while True:
        seat = plain_decider_seat(state)
        assert decider_seat(msgspec.structs.replace(state)) == seat
        seen.add(state.pending)
        for other in SEATS:
            assert bool(legal_commands(state, other)) == (other == seat)
        if seat is None:
            break
        state, _ = apply(state, command_for(bots[seat], state, seat))
    assert state.is_over
    assert {"flip", "select", "react", "move", "roll", "over"} <= seen


# --- coins: each id read once ---------------------------------------------------


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["militia", "hero.1", "", "a.b.c"]),
            st.sampled_from(["green", "grey", "gre", "greyish", ""]),
            st.integers(0, 800),
        ),
        max_size=60,
    )
)
def test_a_coin_kind_kept_per_id_is_its_unit_and_colour(
    coins: list[tuple[str, str, int]],
) -> None:
    # given coin ids, well formed or not, more than are kept, some again: each kind is the
    # plain reading of its id
    ids = [f"{unit}.{colour}{n}" for unit, colour, n in coins]
    ids += [f"coin{n}" for n in range(600)] + ids
    for coin in ids:
        assert coin_kind(coin) == (coin_unit(coin), coin_colour(coin))


def test_selection_commands_kept_per_unit_are_built_from_the_selections_asked() -> None:
    # given a unit asked for its commands with selections that change, come back, or are
    # equal but another tuple, then each answer is the plain list of its selections
    unit = Unit("militia", "Militia", "heroes", "mob", ("m1",), ())
    asked = [
        selections.ACTION_SELECTIONS,
        selections.REACTIVE_SELECTIONS,
        tuple(a for a in selections.REACTIVE_SELECTIONS),  # equal, not the same
        ((),),
        (),
        selections.ACTION_SELECTIONS,
    ]
    for kind in (SelectCoins, SelectReaction):
        for player in SEATS:
            for colour in ("green", "grey"):
                for options in asked:
                    plain = tuple(kind(player, "militia", colour, actions) for actions in options)
                    assert _selection_commands(unit, kind, player, colour, options) == plain


# --- the audit: a selection's own opening taken at its reveal -----------------


def _hashing_commitments(log: MatchLog) -> tuple[CommitmentProblem, ...]:
    """check_commitments done plainly: every event read, every reveal hashed, each commitment
    kept with the entry that made it."""
    auditor = Auditor(log.header.settings)
    committed: dict[str, tuple[int, Committed]] = {}
    problems = []
    for number, entry in enumerate(log.entries, start=1):
        for event in entry.events:
            for fact in auditor.read(event):
                if isinstance(fact, Committed):
                    committed[fact.key] = (number, fact)
                elif isinstance(fact, Due):
                    for key in [k for k in committed if k.split(":")[0] + ":" in fact.prefixes]:
                        made, at = committed.pop(key)
                        problems.append(
                            CommitmentProblem(
                                number,
                                "unrevealed",
                                f"{at.what}, committed in entry {made}, was never revealed "
                                f"({fact.when})",
                                made,
                            )
                        )
                elif fact.own or fact.key in committed:
                    made, at = committed[fact.key] if fact.own else committed.pop(fact.key)
                    opening = msgspec.structs.replace(at.blank, value=fact.value)
                    if not opens(at.digest, fact.salt, opening):
                        problems.append(
                            CommitmentProblem(
                                number,
                                "bad_commitment",
                                f"{fact.what} does not give its own commitment: the choice, "
                                "the salt or the commitment was changed",
                                number,
                            )
                            if fact.own
                            else CommitmentProblem(
                                number,
                                "reveal_mismatch",
                                f"the reveal of {fact.what} does not open its commitment of "
                                f"entry {made}: the secret or the salt differs from what was "
                                "committed",
                                made,
                            )
                        )
                else:
                    problems.append(
                        CommitmentProblem(
                            number,
                            "reveal_without_commitment",
                            f"{fact.what} is revealed, but no commitment to it is open",
                        )
                    )
    return tuple(sorted(problems, key=lambda problem: problem.entry))


_SECRET_EVENTS = (CoinsSelected, ReactionSelected, CoinsRevealed, ReactionRevealed)


@lru_cache(maxsize=4)
def _audited_log(seed: int) -> MatchLog:
    return play_match(MatchSettings(seed=seed), {1: RandomBot(seed), 2: RandomBot(seed + 1)})[0]


_EDITS = ("salt", "coin", "actions", "commitment", "drop")


def _tampered(log: MatchLog, edits: list[tuple[int, str]]) -> MatchLog:
    """The log with some selections and reveals changed: salt, coin, actions or commitment
    edited, or the event dropped."""
    places = [
        (i, j)
        for i, entry in enumerate(log.entries)
        for j, event in enumerate(entry.events)
        if isinstance(event, _SECRET_EVENTS)
    ]
    entries = list(log.entries)
    for pick, what in edits:
        i, j = places[pick % len(places)]
        events: list[Any] = list(entries[i].events)
        if j >= len(events) or not isinstance(events[j], _SECRET_EVENTS):
            continue  # dropped by an earlier edit
        event = events[j]
        if what == "salt":
            event = msgspec.structs.replace(
                event, salt=hashlib.sha256(event.salt.encode()).hexdigest()
            )
        elif what == "coin" and event.coin is not None:
            event = msgspec.structs.replace(event, coin=event.coin.replace("1", "2"))
        elif what == "actions":
            event = msgspec.structs.replace(event, actions=("move",))
        elif what == "commitment" and isinstance(event, CoinsSelected | ReactionSelected):
            event = msgspec.structs.replace(event, commitment="0" * 64)
        elif what == "drop":
            event = None
        events[j] = event
        kept = tuple(e for e in events if e is not None)
        entries[i] = msgspec.structs.replace(entries[i], events=kept)
    return msgspec.structs.replace(log, entries=tuple(entries))


_TAMPERINGS = st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from(_EDITS)), max_size=3)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 3), _TAMPERINGS)
def test_reveals_of_a_selection_already_opened_are_judged_as_hashing_them_judges(
    seed: int, edits: list[tuple[int, str]]
) -> None:
    # given a match log whose selections and reveals have their salt, coin or actions
    # changed, then the audit finds exactly the problems it finds hashing every reveal
    tampered = _tampered(_audited_log(seed), edits)
    assert check_commitments(tampered) == _hashing_commitments(tampered)


def _verify_auditing_first(log: MatchLog) -> Verification:
    """verify as it was: every commitment audited before the first command is re-run."""
    problems = check_commitments(log)
    state = start_match(log.header.settings, log.chance)
    match = _Match(RULESET, log.header.settings)
    for number, entry in enumerate(log.entries, start=1):
        where = f"entry {number} (line {number + 1}), {RULESET.where(state)}"
        try:
            events, after = decide_and_fold(entry.command, state)
        except MultiversusError as exc:
            why = f"the rules refuse its command ({type(exc).__name__}: {exc})"
            return _failed(match, "<memory>", number, state, "command_refused", f"{where}: {why}")
        if problems and problems[0].entry == number:
            first = problems[0]
            return _failed(
                match, "<memory>", number, state, first.code, f"{where}: {first.message}"
            )
        if events != entry.events:
            why = _difference(events, entry.events)
            return _failed(match, "<memory>", number, state, "rules_differ", f"{where}: {why}")
        state = after
    return Verification(
        path="<memory>",
        ok=True,
        entries=len(log.entries),
        finished=state.is_over,
        salts=log.header.settings.salts,
        chance="public",
        format=match.format,
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 3), _TAMPERINGS)
def test_verify_auditing_commitments_only_on_a_failure_reports_what_auditing_first_reports(
    seed: int, edits: list[tuple[int, str]]
) -> None:
    # given a match log with selections and reveals tampered with (or none), then verify,
    # which audits the commitments only once an entry fails, gives exactly the result of
    # auditing them before re-running the first command
    tampered = _tampered(_audited_log(seed), edits)
    assert verify(tampered) == _verify_auditing_first(tampered)
