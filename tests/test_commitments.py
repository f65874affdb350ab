"""Commit and reveal (R4, R23; issue: hidden information you can trust).

Every secret enters the log as a salted SHA-256 commitment bound to the
match, the round, the activation and the player, and its reveal must open it.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import re
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from multiversus_core import (
    ChooseSecret,
    EndAction,
    InvalidCommandError,
    MatchSettings,
    RollInitiative,
    SelectCoins,
    SelectNoReaction,
    SelectReaction,
    apply,
    decide,
    decider_seat,
    fold,
    legal_commands,
    salted,
    start_match,
)
from multiversus_core.engine.log import (
    LOG_FORMAT,
    LOG_VERSION,
    LogEntry,
    LogHeader,
    MatchLog,
    read_log,
)
from multiversus_core.engine.verify import check_commitments, verify
from multiversus_core.rulesets.multiversus.bots.specs import RandomBot, command_for
from multiversus_core.rulesets.multiversus.events import (
    CoinsRevealed,
    CoinsSelected,
    Event,
    MatchEnded,
    ReactionRevealed,
    ReactionSelected,
    SecretChosen,
    SecretRevealed,
)
from multiversus_core.rulesets.multiversus.secrets import (
    Opening,
    SecretKind,
    commit,
    fresh_salt,
    is_salt,
    match_id,
    opening,
    opens,
    seal,
    seeded_salt,
    selection_value,
)
from multiversus_core.rulesets.multiversus.state import Activation, MatchState
from multiversus_core.rulesets.multiversus.terms import ACTION_KINDS, Seat, Side
from multiversus_core.rulesets.multiversus.views import PLAYER_VIEWERS, redact_log
from tests.positions import at
from tests.support import SETTINGS, play, set_up, when

ROOT = Path(__file__).resolve().parent.parent
SECRET_SETTINGS = MatchSettings(heroes="witch-hunters", adversaries="swartzblak", seed=5)
KNIGHT_MOVE = opening(
    SETTINGS,
    round=1,
    activation=1,
    seat=1,
    side="heroes",
    kind="coins",
    value=("knight.green1", "move"),
)
"""The opening of the first selection in :func:`selected_and_revealed`."""


def bot_log(settings_: MatchSettings, bot_seed: int = 1) -> MatchLog:
    """A whole random match; secret commands are salted as a front end would."""
    state = start_match(settings_)
    bots = {1: RandomBot(bot_seed), 2: RandomBot(bot_seed + 1)}
    entries = []
    while not state.is_over:
        player = decider_seat(state)
        assert player is not None
        command = salted(command_for(bots[player], state, player), settings_)
        state, events = apply(state, command)
        entries.append(LogEntry(command=command, events=events))
    header = LogHeader(format=LOG_FORMAT, version=LOG_VERSION, engine="test", settings=settings_)
    return MatchLog(header=header, entries=tuple(entries))


def selected_and_revealed(state: MatchState) -> tuple[CoinsSelected, CoinsRevealed, MatchState]:
    """Select the Banner Knight with a Move coin, let the reactive player select: both events."""
    (selected,) = when(
        state, SelectCoins(player=1, unit="knight", colour="green", actions=("move",))
    )
    assert isinstance(selected, CoinsSelected)
    state = play(state, SelectCoins(player=1, unit="knight", colour="green", actions=("move",)))
    reaction = legal_commands(state, 2)[0]
    events = when(state, reaction)
    revealed = next(e for e in events if isinstance(e, CoinsRevealed))
    return selected, revealed, play(state, reaction)


# --- the commitment -------------------------------------------------------------------


def test_r23_a_coin_selection_is_committed_when_chosen_and_its_reveal_opens_it() -> None:
    state = set_up()
    selected, revealed, _ = selected_and_revealed(state)
    assert (selected.coin, selected.actions) == ("knight.green1", ("move",))
    assert is_salt(selected.salt) and re.fullmatch("[0-9a-f]{64}", selected.commitment)
    assert revealed.salt == selected.salt
    what = KNIGHT_MOVE
    assert selected.commitment == commit(selected.salt, what)
    assert (
        selected.commitment
        == hashlib.sha256(bytes.fromhex(selected.salt) + msgspec.json.encode(what)).hexdigest()
    )
    assert opens(selected.commitment, revealed.salt, what)


def test_the_opening_is_compact_json_with_its_fields_in_order() -> None:
    what = opening(
        SETTINGS,
        round=2,
        activation=5,
        seat=1,
        side="heroes",
        kind="coins",
        value=("knight.green1", "attack", "move"),
    )
    assert msgspec.json.encode(what) == (
        b'{"match":"' + match_id(SETTINGS).encode() + b'","round":2,"activation":5,"seat":1,'
        b'"side":"heroes","kind":"coins","name":"","value":["knight.green1","attack","move"]}'
    )
    # Settings without a chance commitment hash as version 3 wrote them, without `chance`.
    encoded = msgspec.json.encode(SETTINGS)
    assert encoded.endswith(b',"chance":""}')
    assert match_id(SETTINGS) == hashlib.sha256(encoded[: -len(',"chance":""}')] + b"}").hexdigest()
    secret = replace(SETTINGS, seed=0, chance="ab" * 32)
    assert match_id(secret) == hashlib.sha256(msgspec.json.encode(secret)).hexdigest()


BINDINGS: dict[str, Callable[[Opening], Opening]] = {
    "another match": lambda o: replace(o, match=match_id(replace(SETTINGS, seed=12))),
    "another round": lambda o: replace(o, round=o.round + 1),
    "another activation": lambda o: replace(o, activation=o.activation + 1),
    "another seat": lambda o: replace(o, seat=2),
    "another side": lambda o: replace(o, side="adversaries"),
    "another kind": lambda o: replace(o, kind="reaction"),
    "another coin": lambda o: replace(o, value=("knight.grey1", "move")),
    "another action": lambda o: replace(o, value=("knight.green1", "attack")),
}


@pytest.mark.parametrize("change", BINDINGS.values(), ids=BINDINGS.keys())
def test_r23_a_commitment_is_bound_to_the_match_round_activation_and_player(
    change: Callable[[Opening], Opening],
) -> None:
    state = set_up()
    selected, revealed, _ = selected_and_revealed(state)
    what = KNIGHT_MOVE
    assert opens(selected.commitment, revealed.salt, what)
    assert not opens(selected.commitment, revealed.salt, change(what))


def test_opens_refuses_a_malformed_salt_and_a_wrong_salt() -> None:
    state = set_up()
    selected, _, _ = selected_and_revealed(state)
    what = KNIGHT_MOVE
    assert not opens(selected.commitment, "00" * 32, what)
    assert not opens(selected.commitment, "not a salt", what)
    assert not opens(selected.commitment, selected.salt.upper(), what)


def test_r4_the_reactive_selection_is_committed_and_revealed_with_its_salt() -> None:
    state = play(set_up(), SelectCoins(player=1, unit="knight", colour="green", actions=("move",)))
    events = when(
        state, SelectReaction(player=2, unit="bruisers", colour="grey", actions=("attack",))
    )
    selected = events[0]
    assert isinstance(selected, ReactionSelected)
    what = opening(
        state.settings,
        round=1,
        activation=1,
        seat=2,
        side="adversaries",
        kind="reaction",
        value=("bruisers.grey1", "attack"),
    )
    assert selected.commitment == commit(selected.salt, what)
    state = play(
        state, SelectReaction(player=2, unit="bruisers", colour="grey", actions=("attack",))
    )
    revealed = next(e for e in when(state, EndAction(player=1)) if isinstance(e, ReactionRevealed))
    assert opens(selected.commitment, revealed.salt, what)


def test_r3_selecting_nothing_is_public_and_commits_to_nothing() -> None:
    state = set_up()
    piles = state.adversaries
    state = at(state, f"adversaries={json.dumps({'stash': [], 'discard': sorted(piles.stash)})}")
    state = play(state, SelectCoins(player=1, unit="knight", colour="green", actions=("move",)))
    nothing = when(state, SelectNoReaction(player=2))[0]
    assert nothing == ReactionSelected(side="adversaries", coin=None, actions=())
    assert nothing.commitment == nothing.salt == ""


def test_r23_a_set_up_secret_is_committed_when_chosen_and_revealed_with_its_salt() -> None:
    log = bot_log(SECRET_SETTINGS)
    chosen = [e for entry in log.entries for e in entry.events if isinstance(e, SecretChosen)]
    revealed = {
        (e.side, e.name): e
        for entry in log.entries
        for e in entry.events
        if isinstance(e, SecretRevealed)
    }
    assert len(chosen) == len(revealed) == 2
    state = set_up(SECRET_SETTINGS)
    for secret in chosen:
        what = opening(
            SECRET_SETTINGS,
            round=0,
            activation=0,
            seat=state.seat_of(secret.side) or 1,
            side=secret.side,
            kind="secret",
            name=secret.name,
            value=(secret.choice,),
        )
        reveal = revealed[(secret.side, secret.name)]
        assert reveal.choice == secret.choice
        assert opens(secret.commitment, reveal.salt, what)


def test_r4_a_match_ended_in_an_activation_reveals_the_hidden_reactive_selection() -> None:
    # The last attack of this match eliminates the last Adversary while the
    # Adversaries' reactive coin is still hidden.
    log = read_fixture("v2-elimination")
    before = fold((e for entry in log.entries[:-1] for e in entry.events), log.header.settings)
    act = before.activation
    assert act is not None and act.reaction_coin is not None and not act.reaction_revealed
    events = decide(log.entries[-1].command, before)
    assert events[-2:] == (
        ReactionRevealed(
            side="adversaries",
            coin=act.reaction_coin,
            actions=act.reaction_actions,
            salt=act.reaction_salt,
        ),
        MatchEnded(reason="elimination", winner="heroes"),
    )


# --- where salts come from ------------------------------------------------------------


def test_seeded_salts_are_reproducible_and_differ_for_every_secret() -> None:
    a, b = bot_log(SECRET_SETTINGS), bot_log(SECRET_SETTINGS)
    assert a == b
    salts = [
        e.salt
        for entry in a.entries
        for e in entry.events
        if isinstance(e, CoinsSelected | ReactionSelected | SecretChosen) and e.salt
    ]
    assert len(salts) == len(set(salts)) > 20


def test_a_seeded_salt_is_the_hmac_of_the_seed_over_the_opening_without_its_value() -> None:
    what = KNIGHT_MOVE
    blank = msgspec.json.encode(replace(what, value=()))
    expected = hmac.new((11).to_bytes(8, "big"), blank, hashlib.sha256).hexdigest()
    assert seeded_salt(11, what) == expected
    # The salt does not depend on the secret, only on where it was chosen.
    assert seeded_salt(11, replace(what, value=("knight.grey1", "attack"))) == expected


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 2**64 - 1),
    round_=st.integers(0, 6),
    activation=st.integers(0, 40),
    name=st.text(max_size=12),
)
def test_a_seeded_salt_is_hmac_sha256_for_any_seed_and_opening(
    seed: int, round_: int, activation: int, name: str
) -> None:
    # given any seed and any place a secret is chosen, then the seeded salt (from the seed's
    # precomputed HMAC pads) is the library's HMAC-SHA256 of the seed over the blank opening
    what = replace(KNIGHT_MOVE, round=round_, activation=activation, name=name)
    blank = msgspec.json.encode(replace(what, value=()))
    expected = hmac.new(seed.to_bytes(8, "big"), blank, hashlib.sha256).hexdigest()
    assert seeded_salt(seed, what) == expected


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 2**64 - 1),
    heroes_seat=st.sampled_from((1, 2)),
    side=st.sampled_from(("heroes", "adversaries")),
    kind=st.sampled_from(("coins", "reaction", "secret")),
    round_=st.integers(0, 6),
    activations=st.integers(0, 40),
    value=st.lists(st.text(max_size=12), max_size=3).map(tuple),
    name=st.text(max_size=12),
    salt=st.none() | st.binary(min_size=32, max_size=32).map(bytes.hex),
)
def test_seal_gives_the_commitment_and_salt_of_the_plain_construction(
    seed: int,
    heroes_seat: Seat,
    side: Side,
    kind: SecretKind,
    round_: int,
    activations: int,
    value: tuple[str, ...],
    name: str,
    salt: str | None,
) -> None:
    # given any state and secret (any text in its value and name), then seal (one encoding
    # for salt and commitment, the value filled into the blank opening's encoding) gives
    # commit(salt, opening) with the command's salt or seeded_salt(seed, opening)
    settings_ = MatchSettings(seed=seed)
    act = Activation(side="heroes", unit="knight", coin=None, actions=(), remaining=())
    state = MatchState(
        settings=settings_,
        heroes_seat=heroes_seat,
        round=round_,
        activations=activations,
        activation=replace(act, number=activations),
    )
    seat = state.seat_of(side)
    assert seat is not None
    where = {"coins": (round_, activations + 1), "reaction": (round_, activations)}
    round_of, number = where.get(kind, (0, 0))
    what = opening(
        settings_,
        round=round_of,
        activation=number,
        seat=seat,
        side=side,
        kind=kind,
        value=value,
        name=name,
    )
    expected_salt = salt if salt is not None else seeded_salt(seed, what)
    assert seal(state, kind, side, value, salt, name=name) == (
        commit(expected_salt, what),
        expected_salt,
    )


def test_a_secrets_match_needs_a_salt_on_every_secret_command() -> None:
    settings_ = replace(SETTINGS, salts="secrets")
    state = set_up(settings_)  # set-up secrets: none on these sheets
    command = SelectCoins(player=1, unit="knight", colour="green", actions=("move",))
    with pytest.raises(InvalidCommandError, match="needs a fresh salt"):
        when(state, command)
    command = salted(command, settings_)
    assert isinstance(command, SelectCoins) and command.salt is not None
    (selected,) = when(state, command)
    assert isinstance(selected, CoinsSelected) and selected.salt == command.salt


def test_a_secrets_match_takes_the_salt_the_command_carries() -> None:
    settings_ = replace(SETTINGS, salts="secrets")
    state = set_up(settings_)
    salt = "ab" * 32
    command = SelectCoins(player=1, unit="knight", colour="green", actions=("move",), salt=salt)
    (selected,) = when(state, command)
    assert isinstance(selected, CoinsSelected) and selected.salt == salt


def test_a_seed_match_refuses_a_salt_and_any_match_refuses_a_malformed_one() -> None:
    state = set_up()
    good = SelectCoins(player=1, unit="knight", colour="green", actions=("move",), salt="ab" * 32)
    with pytest.raises(InvalidCommandError, match="derives its salts from the seed"):
        when(state, good)
    secrets_state = set_up(replace(SETTINGS, salts="secrets"))
    for bad in ("ab" * 31, "AB" * 32, "xy" * 32, ""):
        with pytest.raises(InvalidCommandError, match="64 lower-case hex digits"):
            when(secrets_state, replace(good, salt=bad))


def test_salted_adds_a_fresh_salt_only_where_one_is_needed() -> None:
    secrets_settings = replace(SETTINGS, salts="secrets")
    select = SelectCoins(player=1, unit="knight", colour="green", actions=("move",))
    one, two = salted(select, secrets_settings), salted(select, secrets_settings)
    assert isinstance(one, SelectCoins) and isinstance(two, SelectCoins)
    assert one.salt and two.salt and is_salt(one.salt) and one.salt != two.salt
    assert salted(one, secrets_settings) == one  # a salt given is kept
    assert salted(select, SETTINGS) == select  # a seed match needs none
    roll = RollInitiative(player=1)
    assert salted(roll, secrets_settings) == roll
    secret = ChooseSecret(player=1, name="hunters-kit", choice="grapnel")
    assert isinstance(salted(secret, secrets_settings), ChooseSecret)
    assert salted(secret, secrets_settings).salt is not None  # type: ignore[union-attr]
    assert len(fresh_salt()) == 64


def test_a_secrets_match_verifies_and_its_commitments_differ_every_time() -> None:
    settings_ = replace(SECRET_SETTINGS, salts="secrets")
    a, b = bot_log(settings_), bot_log(settings_)
    assert verify(a).ok and verify(b).ok
    assert not check_commitments(a) and not check_commitments(b)
    commitments = [
        [
            e.commitment
            for entry in log.entries
            for e in entry.events
            if isinstance(e, CoinsSelected)
        ]
        for log in (a, b)
    ]
    assert commitments[0] and all(x != y for x, y in zip(*commitments, strict=True))


# --- why the salt matters ----------------------------------------------------------------


def every_selection(state: MatchState) -> list[tuple[str, ...]]:
    """Every unit coin with every choice of up to two action coins: what an attacker tries."""
    coins = [c for u in state.units if u.side == "heroes" for c in u.coins]
    actions = [()] + [
        tuple(sorted(pair))
        for pair in itertools.chain(
            ((a,) for a in ACTION_KINDS), itertools.combinations_with_replacement(ACTION_KINDS, 2)
        )
    ]
    return [selection_value(coin, tuple(a)) for coin in coins for a in actions]


def test_without_a_salt_a_selection_falls_to_brute_force_and_with_one_it_does_not() -> None:
    state = set_up()
    selected, _, _ = selected_and_revealed(state)
    secret = (selected.coin, *selected.actions)
    candidates = every_selection(state)
    assert secret in candidates and len(candidates) < 500  # a few hundred hashes: milliseconds

    def where(value: tuple[str, ...]) -> Opening:
        return opening(
            state.settings,
            round=1,
            activation=1,
            seat=1,
            side="heroes",
            kind="coins",
            value=value,
        )

    # Without a salt, hashing every candidate finds the one that was committed.
    unsalted = hashlib.sha256(msgspec.json.encode(where(secret))).hexdigest()
    found = [
        v
        for v in candidates
        if hashlib.sha256(msgspec.json.encode(where(v))).hexdigest() == unsalted
    ]
    assert found == [secret]
    # With a secret 32-byte salt, the same search finds nothing: an attacker would
    # have to try every salt as well, 2**256 of them for each candidate.
    guesses = ["00" * 32, seeded_salt(state.settings.seed + 1, where(secret)), fresh_salt()]
    assert not [
        v for v in candidates for salt in guesses if opens(selected.commitment, salt, where(v))
    ]


# --- the checker ------------------------------------------------------------------------


def read_fixture(name: str) -> MatchLog:
    return read_log(ROOT / "tests" / "fixtures" / f"{name}.jsonl")


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), salts=st.sampled_from(["seed", "secrets"]))
def test_every_commitment_of_a_random_match_is_opened_in_every_view(seed: int, salts: str) -> None:
    log = bot_log(MatchSettings(seed=seed, salts=salts), bot_seed=seed)  # type: ignore[arg-type]
    assert check_commitments(log) == ()
    for viewer in PLAYER_VIEWERS:
        assert check_commitments(redact_log(log, viewer)) == ()


def edit_event(
    log: MatchLog, wanted: type[Event], change: Callable[[Event], Event | None]
) -> tuple[MatchLog, int]:
    """Change (or, for None, drop) the first event of a kind; return the log and its entry."""
    for number, entry in enumerate(log.entries, start=1):
        for index, event in enumerate(entry.events):
            if isinstance(event, wanted):
                changed = change(event)
                events = list(entry.events)
                if changed is None:
                    del events[index]
                else:
                    events[index] = changed
                entries = list(log.entries)
                entries[number - 1] = replace(entry, events=tuple(events))
                return replace(log, entries=tuple(entries)), number
    raise AssertionError(f"no {wanted.__name__} in the log")


def first_entry_with(log: MatchLog, wanted: type[Event]) -> int:
    return next(
        n for n, e in enumerate(log.entries, 1) if any(isinstance(x, wanted) for x in e.events)
    )


def test_a_reveal_that_does_not_open_its_commitment_is_reported_naming_both_entries() -> None:
    log = bot_log(SETTINGS)
    committed = first_entry_with(log, CoinsSelected)
    edited, number = edit_event(log, CoinsRevealed, lambda e: replace(e, salt="00" * 32))
    (problem,) = check_commitments(edited)
    assert (problem.code, problem.entry, problem.committed) == (
        "reveal_mismatch",
        number,
        committed,
    )
    assert f"commitment of entry {committed}" in problem.message
    # Verification reports it at that entry, with its round and turn.
    result = verify(edited)
    assert (result.code, result.entry, result.round, result.turn) == (
        "reveal_mismatch",
        number,
        1,
        1,
    )


def test_a_reveal_of_another_coin_is_reported() -> None:
    log = bot_log(SETTINGS)
    edited, number = edit_event(
        log,
        CoinsRevealed,
        lambda e: replace(e, actions=("attack",) if e.actions != ("attack",) else ("move",)),  # type: ignore[union-attr]
    )
    problems = check_commitments(edited)
    assert [(p.code, p.entry) for p in problems] == [("reveal_mismatch", number)]


def test_a_secret_never_revealed_is_reported_naming_the_entry_that_committed_it() -> None:
    log = bot_log(SECRET_SETTINGS)
    edited, _ = edit_event(log, SecretRevealed, lambda e: None)
    (dropped,) = {e for entry in log.entries for e in entry.events} - {
        e for entry in edited.entries for e in entry.events
    }
    assert isinstance(dropped, SecretRevealed)
    committed = next(
        n
        for n, e in enumerate(log.entries, 1)
        if any(isinstance(x, SecretChosen) and x.name == dropped.name for x in e.events)
    )
    (problem,) = check_commitments(edited)
    assert (problem.code, problem.entry, problem.committed) == (
        "unrevealed",
        len(log.entries),
        committed,
    )
    assert f"committed in entry {committed}, was never revealed" in problem.message


def test_a_reactive_selection_never_revealed_is_reported_at_the_end_of_its_activation() -> None:
    log = bot_log(SETTINGS)
    edited, _ = edit_event(log, ReactionRevealed, lambda e: None)
    (problem,) = check_commitments(edited)
    assert problem.code == "unrevealed" and "by the end of its activation" in problem.message


def test_a_reveal_with_no_commitment_and_an_edited_commitment_are_reported() -> None:
    log = bot_log(SETTINGS)
    edited, number = edit_event(log, CoinsSelected, lambda e: replace(e, commitment="0" * 64))
    codes = [(p.code, p.entry) for p in check_commitments(edited)]
    assert codes[0] == ("bad_commitment", number)
    assert ("reveal_mismatch", first_entry_with(log, CoinsRevealed)) in codes


def test_a_redacted_log_is_checked_too() -> None:
    log = bot_log(SETTINGS)
    edited, number = edit_event(log, CoinsRevealed, lambda e: replace(e, salt="00" * 32))
    for viewer in PLAYER_VIEWERS:
        problems = check_commitments(redact_log(edited, viewer))
        assert [(p.code, p.entry) for p in problems] == [("reveal_mismatch", number)]


def test_an_unfinished_log_is_not_faulted_for_what_is_still_due() -> None:
    log = bot_log(SECRET_SETTINGS)
    for cut in range(0, len(log.entries), 7):
        assert check_commitments(replace(log, entries=log.entries[:cut])) == ()
