"""The contract every ruleset keeps, checked through the protocol alone over random play.

Each test is named for a promise and runs over every ruleset of
``conftest.RULESETS``, in a seeded match, a match with secret salts and one
with secret chance (:func:`tests.contract.kit.examples`). The tests at the end
show that each check can fail: they break one member of a ruleset and expect
the check to say so.
"""

from __future__ import annotations

import random
import typing
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from multiversus_core.engine.audit import Committed, Revealed, SecretFact
from multiversus_core.engine.bots import UniformBot
from multiversus_core.engine.choices import Ask, Grouped, Option, is_tree
from multiversus_core.engine.registry import game_ids, load_ruleset
from tests.contract.kit import (
    REFUSED,
    Match,
    check_bots,
    check_commitments_kept,
    check_determinize,
    check_encoding,
    check_ending,
    check_fold,
    check_indistinguishable,
    check_legal,
    check_log,
    check_no_leaked_secrets,
    check_open_game,
    check_recorded_chance,
    check_renderer,
    check_search,
    check_view_logs,
    check_words,
    codes_of,
    dropped,
    entries_of,
    examples,
    keeps_secrets,
    listing,
    patched,
    play,
    seats,
    tampered,
)

SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
KIT = settings(
    max_examples=10,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def matches(ruleset: Any, base: Any, seed: int) -> list[Match]:
    """A random match of each kind of settings."""
    rng = random.Random(seed)
    return [play(ruleset, example, rng) for example in examples(ruleset, base, seed)]


def one_match(ruleset: Any, base: Any, kind: str, seed: int = 3) -> Match:
    (example,) = [e for e in examples(ruleset, base, seed) if e.name == kind]
    return play(ruleset, example, random.Random(seed))


# --- the promises ------------------------------------------------------------------------


def test_the_ruleset_is_registered_under_its_id(ruleset: Any) -> None:
    assert ruleset.id in game_ids()
    assert load_ruleset(ruleset.id) is ruleset


def test_the_settings_examples_start_a_match_with_the_chance_and_salts_they_say(
    ruleset: Any, base_settings: Any
) -> None:
    for example in examples(ruleset, base_settings, 12345):
        ruleset.check_settings(example.settings)
        table = ruleset.table(example.settings)
        assert (table.salts == "seed") == (example.name == "seeded")
        assert bool(table.chance) == (example.chance is not None)
        assert table.seed == (0 if example.chance else 12345)
        assert ruleset.to_act(ruleset.initial_state(example.settings, example.chance))


@KIT
@given(seed=SEEDS)
def test_legal_commands_are_exactly_what_decide_accepts(
    ruleset: Any, base_settings: Any, seed: int
) -> None:
    for match in matches(ruleset, base_settings, seed):
        assert check_legal(ruleset, match, random.Random(seed)) == []


@KIT
@given(seed=SEEDS)
def test_decide_gives_the_state_its_events_fold_into(
    ruleset: Any, base_settings: Any, seed: int
) -> None:
    for match in matches(ruleset, base_settings, seed):
        assert check_fold(ruleset, match) == []


@KIT
@given(seed=SEEDS)
def test_a_match_has_an_outcome_exactly_when_nobody_is_to_act(
    ruleset: Any, base_settings: Any, seed: int
) -> None:
    for match in matches(ruleset, base_settings, seed):
        assert check_ending(ruleset, match) == []


@settings(KIT, max_examples=4)
@given(seed=SEEDS)
def test_bots_choose_legal_commands_from_a_view_and_finish_a_match(
    ruleset: Any, base_settings: Any, seed: int
) -> None:
    for example in examples(ruleset, base_settings, seed):
        assert check_bots(ruleset, example, seed) == []


@KIT
@given(seed=SEEDS)
def test_no_viewer_sees_the_chance_seed_or_an_unrevealed_salt_of_another(
    ruleset: Any, base_settings: Any, seed: int
) -> None:
    for match in matches(ruleset, base_settings, seed):
        assert check_no_leaked_secrets(ruleset, match) == []


@KIT
@given(seed=SEEDS)
def test_another_secret_choice_looks_the_same_to_everyone_else_until_revealed(
    ruleset: Any, base_settings: Any, seed: int
) -> None:
    for match in matches(ruleset, base_settings, seed):
        assert check_indistinguishable(ruleset, match, random.Random(seed)) == []


@KIT
@given(seed=SEEDS)
def test_a_determinized_view_is_seen_as_the_same_view(
    ruleset: Any, base_settings: Any, seed: int
) -> None:
    for match in matches(ruleset, base_settings, seed):
        assert check_determinize(ruleset, match, random.Random(seed)) == []


@KIT
@given(seed=SEEDS)
def test_every_reveal_opens_its_commitment_in_the_log_and_in_every_viewer_s_log(
    ruleset: Any, base_settings: Any, seed: int
) -> None:
    for match in matches(ruleset, base_settings, seed):
        assert check_commitments_kept(ruleset, match) == []


@KIT
@given(seed=SEEDS)
def test_a_reveal_with_another_salt_does_not_open_its_commitment(
    ruleset: Any, base_settings: Any, seed: int
) -> None:
    for match in matches(ruleset, base_settings, seed):
        entries = tampered(ruleset, match)
        if not keeps_secrets(ruleset, base_settings):  # nothing committed, nothing to tamper
            assert entries is None and check_open_game(ruleset, match) == []
            continue
        assert entries is not None and entries != entries_of(match)
        assert codes_of(ruleset, match.example.settings, entries) == {"reveal_mismatch"}


@KIT
@given(seed=SEEDS)
def test_a_chooser_s_own_copy_with_another_salt_does_not_give_its_commitment(
    ruleset: Any, base_settings: Any, seed: int
) -> None:
    for match in matches(ruleset, base_settings, seed):
        entries = tampered(ruleset, match, own=True)
        if not keeps_secrets(ruleset, base_settings):
            assert entries is None and check_open_game(ruleset, match) == []
            continue
        assert entries is not None and entries != entries_of(match)
        assert codes_of(ruleset, match.example.settings, entries) == {"bad_commitment"}


@KIT
@given(seed=SEEDS)
def test_a_secret_whose_reveal_is_dropped_is_found_unrevealed(
    ruleset: Any, base_settings: Any, seed: int
) -> None:
    for match in matches(ruleset, base_settings, seed):
        entries = dropped(ruleset, match)
        if not keeps_secrets(ruleset, base_settings):
            assert entries is None and check_open_game(ruleset, match) == []
            continue
        assert entries is not None
        assert "unrevealed" in codes_of(ruleset, match.example.settings, entries)


@KIT
@given(seed=SEEDS)
def test_a_played_match_is_logged_read_back_replayed_and_verified(
    ruleset: Any, base_settings: Any, seed: int
) -> None:
    for match in matches(ruleset, base_settings, seed):
        assert check_log(ruleset, match) == []


@KIT
@given(seed=SEEDS)
def test_every_viewer_s_view_log_reads_back_verifies_agrees_and_replays_as_they_saw_it(
    ruleset: Any, base_settings: Any, seed: int
) -> None:
    for match in matches(ruleset, base_settings, seed):
        cut = random.Random(seed).randrange(len(match.steps) + 1)
        assert check_view_logs(ruleset, match, cut) == []


@KIT
@given(seed=SEEDS)
def test_every_command_and_event_is_told_in_one_line_as_each_viewer_may_know_it(
    ruleset: Any, base_settings: Any, seed: int
) -> None:
    for match in matches(ruleset, base_settings, seed):
        assert check_words(ruleset, match) == []


@KIT
@given(seed=SEEDS)
def test_each_view_is_drawn_and_every_legal_command_told_apart_by_the_renderer(
    ruleset: Any, base_settings: Any, seed: int
) -> None:
    for match in matches(ruleset, base_settings, seed):
        assert check_renderer(ruleset, match, random.Random(seed)) == []


@KIT
@given(seed=SEEDS)
def test_every_command_and_event_redacted_or_not_decodes_as_its_union_says(
    ruleset: Any, base_settings: Any, seed: int
) -> None:
    for match in matches(ruleset, base_settings, seed):
        assert check_encoding(ruleset, match) == []


@KIT
@given(seed=SEEDS)
def test_a_secret_chance_match_replays_without_its_seed_from_the_recorded_chance(
    ruleset: Any, base_settings: Any, seed: int
) -> None:
    (match,) = [m for m in matches(ruleset, base_settings, seed) if m.example.chance]
    assert check_recorded_chance(ruleset, match) == []


@settings(KIT, max_examples=3)
@given(seed=SEEDS)
def test_search_returns_a_legal_command(ruleset: Any, base_settings: Any, seed: int) -> None:
    for match in matches(ruleset, base_settings, seed):
        assert check_search(ruleset, match, random.Random(seed)) == []


# --- every check can fail ------------------------------------------------------------------


def test_the_leak_checks_catch_a_view_that_shows_everything(
    ruleset: Any, base_settings: Any
) -> None:
    leaky = patched(ruleset, view=lambda state, viewer: state)
    secrets = keeps_secrets(ruleset, base_settings)  # else only the chance seed is hidden
    for kind in ("seeded", "secret-salts", "secret-chance") if secrets else ("secret-chance",):
        match = one_match(ruleset, base_settings, kind)
        assert check_no_leaked_secrets(leaky, match) != []
        if secrets:  # no secret choice to tell apart in a game of open information
            assert check_indistinguishable(leaky, match, random.Random(1)) != []


def test_the_log_check_catches_a_decide_that_the_log_does_not_hold_to(
    ruleset: Any, base_settings: Any
) -> None:
    match = one_match(ruleset, base_settings, "seeded")
    steps = list(match.steps)
    last = steps[-1]
    steps[-1] = replace(last, events=last.events[:-1] + last.events[-1:] * 2)
    assert check_log(ruleset, replace(match, steps=tuple(steps))) != []


def test_the_view_log_check_catches_events_the_rules_do_not_give(
    ruleset: Any, base_settings: Any
) -> None:
    match = one_match(ruleset, base_settings, "secret-salts")
    steps = list(match.steps)
    last = steps[-1]
    steps[-1] = replace(last, events=last.events[:-1] + last.events[-1:] * 2)
    assert check_view_logs(ruleset, replace(match, steps=tuple(steps)), 0) != []


def test_the_words_check_catches_a_narration_that_fails_or_says_nothing(
    ruleset: Any, base_settings: Any
) -> None:
    match = one_match(ruleset, base_settings, "seeded")

    def failing(event: Any, state: Any, seat: Any) -> str:
        raise KeyError(type(event).__name__)

    assert check_words(patched(ruleset, narrate=failing), match) != []
    assert check_words(patched(ruleset, describe_command=lambda shown, state: ""), match) != []


class Careless:
    """A renderer that draws a broken picture and tells every command the same."""

    def board_svg(self, view: Any) -> str | None:
        return "<svg><g></svg>"

    def board_text(self, view: Any) -> str | None:
        return "a board"

    def command_words(self, command: Any, view: Any) -> str:
        return "something"


class Boardless(Careless):
    """Careless in its words only: it draws no board."""

    def board_svg(self, view: Any) -> str | None:
        return None

    def board_text(self, view: Any) -> str | None:
        return None


def test_the_renderer_check_catches_a_broken_picture_and_words_that_say_the_same(
    ruleset: Any, base_settings: Any
) -> None:
    match = one_match(ruleset, base_settings, "seeded")
    found = check_renderer(patched(ruleset, renderer=Careless()), match, random.Random(1))
    assert any("drawing failed" in problem for problem in found)
    found = check_renderer(patched(ruleset, renderer=Boardless()), match, random.Random(1))
    assert any("read the same" in problem for problem in found)


class Hidden(msgspec.Struct, frozen=True, tag="hidden"):
    """A placeholder a game of open information has no business showing."""


def test_the_open_game_check_catches_a_redaction_or_a_commitment(
    ruleset: Any, base_settings: Any
) -> None:
    match = one_match(ruleset, base_settings, "secret-salts")
    hiding = patched(ruleset, redact_event=lambda event, viewer: Hidden())
    assert check_open_game(hiding, match) != []
    veiled = patched(ruleset, redact_command=lambda command, state, viewer: Hidden())
    assert check_open_game(veiled, match) != []
    every = frozenset(typing.get_args(ruleset.event_type))
    committing = patched(ruleset, auditor=lambda settings: Committing(every))
    assert check_open_game(committing, match) != []


class Committing:
    """An auditor that reads every event as a commitment."""

    def __init__(self, audited: frozenset[type]) -> None:
        self.audited = audited

    def read(self, event: Any) -> Sequence[SecretFact]:
        return (Committed("k", "0" * 64, Hidden(), "a secret"),)


def test_the_leak_checks_catch_events_left_unredacted(ruleset: Any, base_settings: Any) -> None:
    if not keeps_secrets(ruleset, base_settings):
        return  # its events are shown as they are: check_open_game holds it to that
    leaky = patched(ruleset, redact_event=lambda event, viewer: event)
    match = one_match(ruleset, base_settings, "secret-salts")
    assert check_no_leaked_secrets(leaky, match) != []
    assert check_indistinguishable(leaky, match, random.Random(1)) != []


def test_the_leak_checks_catch_commands_left_unredacted(ruleset: Any, base_settings: Any) -> None:
    if not keeps_secrets(ruleset, base_settings):
        return  # its commands are shown as they are: check_open_game holds it to that
    leaky = patched(ruleset, redact_command=lambda command, state, viewer: command)
    match = one_match(ruleset, base_settings, "secret-salts")
    assert check_no_leaked_secrets(leaky, match) != []
    assert check_indistinguishable(leaky, match, random.Random(1)) != []


def test_the_legal_check_catches_a_decide_that_accepts_what_is_not_listed(
    ruleset: Any, base_settings: Any
) -> None:
    def lax(command: Any, state: Any) -> Any:
        try:
            return ruleset.decide(command, state)
        except REFUSED:
            return (), state

    match = one_match(ruleset, base_settings, "seeded")
    assert check_legal(patched(ruleset, decide=lax), match, random.Random(1)) != []


def test_the_legal_check_catches_commands_listed_for_a_seat_not_to_act(
    ruleset: Any, base_settings: Any
) -> None:
    def everyone(state: Any, seat: int) -> Sequence[Any]:
        waiting = ruleset.to_act(state)
        return ruleset.legal_commands(state, waiting[0]) if waiting else ()

    match = one_match(ruleset, base_settings, "seeded")
    assert check_legal(patched(ruleset, legal_commands=everyone), match, random.Random(1)) != []


def test_the_fold_check_catches_a_decide_that_forgets_its_events(
    ruleset: Any, base_settings: Any
) -> None:
    match = one_match(ruleset, base_settings, "seeded")
    forgetful = patched(ruleset, decide=lambda c, s: (ruleset.decide(c, s)[0], s))
    assert check_fold(forgetful, match) != []


def test_the_ending_check_catches_a_match_without_an_outcome(
    ruleset: Any, base_settings: Any
) -> None:
    match = one_match(ruleset, base_settings, "seeded")
    assert check_ending(patched(ruleset, outcome=lambda state: None), match) != []


def test_the_determinize_check_catches_a_determinization_that_ignores_the_view(
    ruleset: Any, base_settings: Any
) -> None:
    match = one_match(ruleset, base_settings, "secret-salts")
    lazy = patched(ruleset, determinize=lambda view, rng: match.start)
    assert check_determinize(lazy, match, random.Random(1)) != []


class Unrevealing:
    """An auditor that reads no reveal but a chooser's own copy."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.audited = inner.audited

    def read(self, event: Any) -> Sequence[SecretFact]:
        facts = self.inner.read(event)
        return [f for f in facts if not isinstance(f, Revealed) or f.own]


def test_the_commitments_check_catches_a_secret_never_revealed(
    ruleset: Any, base_settings: Any
) -> None:
    if not keeps_secrets(ruleset, base_settings):
        return  # nothing is committed to go unrevealed: check_open_game holds it to that
    unrevealing = patched(ruleset, auditor=lambda settings: Unrevealing(ruleset.auditor(settings)))
    match = one_match(ruleset, base_settings, "seeded")
    assert any("unrevealed" in problem for problem in check_commitments_kept(unrevealing, match))


def test_the_commitments_check_catches_a_placeholder_that_commits_nothing(
    ruleset: Any, base_settings: Any
) -> None:
    if not keeps_secrets(ruleset, base_settings):
        return  # no placeholder at all: check_open_game holds it to that

    class Placeholder(msgspec.Struct, frozen=True, tag="placeholder"):
        pass

    def blank(event: Any, viewer: Any) -> Any:
        seen = ruleset.redact_event(event, viewer)
        return seen if seen is event else Placeholder()

    match = one_match(ruleset, base_settings, "secret-salts")
    assert check_commitments_kept(patched(ruleset, redact_event=blank), match) != []


def test_the_encoding_check_catches_placeholders_the_view_unions_leave_out(
    ruleset: Any, base_settings: Any
) -> None:
    match = one_match(ruleset, base_settings, "secret-salts")
    if not keeps_secrets(ruleset, base_settings):  # no placeholders: leave out a real event
        dropped_type = type(match.steps[0].events[0])
        kept = [t for t in typing.get_args(ruleset.event_type) if t is not dropped_type]
        events_only = patched(ruleset, view_event_type=typing.Union[tuple(kept)])  # noqa: UP007
        assert check_encoding(events_only, match) != []
        return
    events_only = patched(ruleset, view_event_type=ruleset.event_type)
    commands_only = patched(ruleset, view_command_type=ruleset.command_type)
    assert check_encoding(events_only, match) != []
    assert check_encoding(commands_only, match) != []


def test_the_chance_check_catches_chance_not_taken_from_the_record(
    ruleset: Any, base_settings: Any
) -> None:
    match = one_match(ruleset, base_settings, "secret-chance")
    forgetful = patched(ruleset, with_recorded_chance=lambda command, events: command)
    assert check_recorded_chance(forgetful, match) != []


def test_the_bot_check_catches_a_bot_that_chooses_an_illegal_command(
    ruleset: Any, base_settings: Any
) -> None:
    class Cheat:
        def __init__(self, seed: int) -> None:
            self.seed = seed

        def choose(self, view: Any, legal: Sequence[Any]) -> Any:
            return None

    example = examples(ruleset, base_settings, 5)[0]
    cheats = patched(ruleset, bots={"random": Cheat})
    assert check_bots(cheats, example, 5) != []


def test_the_kit_plays_every_seat(ruleset: Any, base_settings: Any) -> None:
    match = one_match(ruleset, base_settings, "seeded")
    assert {step.seat for step in match.steps} == set(seats(ruleset, match.example.settings))


# --- commands built from choices -----------------------------------------------------------


def _as_trees(ruleset: Any, extra: Any = None) -> Any:
    """``ruleset`` with each list of legal commands given as a tree of two choices (the
    command's kind, then the command); ``extra(state, seat)`` may add commands to it."""

    def legal_commands(state: Any, seat: int) -> Any:
        legal = ruleset.legal_commands(state, seat)
        if is_tree(legal) and extra is None:
            return legal  # a tree already
        commands = listing(legal)
        if extra is not None and commands:
            commands += extra(state, seat)
        return Grouped(commands, lambda c: c.__struct_config__.tag, repr)

    return patched(ruleset, legal_commands=legal_commands)


def test_legal_commands_given_as_a_tree_of_choices_keep_the_contract(
    ruleset: Any, base_settings: Any
) -> None:
    trees = _as_trees(ruleset)
    (example,) = [e for e in examples(trees, base_settings, 3) if e.name == "seeded"]
    match = play(trees, example, random.Random(3))
    assert match.steps and trees.outcome(match.states[-1]) is not None
    assert check_legal(trees, match, random.Random(1)) == []
    assert check_determinize(trees, match, random.Random(1)) == []
    # A game's own bots take only what its game gives; the engine's take trees.
    assert check_bots(patched(trees, bots={"random": UniformBot}), example, 3) == []


def test_the_legal_check_catches_a_tree_that_holds_a_command_decide_refuses(
    ruleset: Any, base_settings: Any
) -> None:
    match = one_match(ruleset, base_settings, "seeded")
    elsewhere = [s.chosen for s in match.steps]

    def stale(state: Any, seat: int) -> list[Any]:
        return [c for c in elsewhere if c.player == seat][:3]

    assert check_legal(_as_trees(ruleset, stale), match, random.Random(1)) != []


def test_the_legal_check_catches_a_tree_with_a_dead_end(ruleset: Any, base_settings: Any) -> None:
    class DeadEnd:
        def __init__(self, inner: Any) -> None:
            self.inner = inner

        def ask(self, chosen: Sequence[str]) -> Any:
            if chosen and chosen[0] == "dead":
                return Ask("Nothing here", ())
            step = self.inner.ask(chosen)
            if not chosen:
                return Ask(step.prompt, (*step.options, Option("dead", "a way to nowhere")))
            return step

        def __contains__(self, command: object) -> bool:
            return command in self.inner

    trees = _as_trees(ruleset)
    dead = patched(ruleset, legal_commands=lambda s, seat: DeadEnd(trees.legal_commands(s, seat)))
    match = one_match(ruleset, base_settings, "seeded")
    assert any("dead end" in p for p in check_legal(dead, match, random.Random(1)))
