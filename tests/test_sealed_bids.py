"""The rules of Sealed Bids, one test per rule (see ``multiversus_core.rulesets.sealed_bids``)."""

from __future__ import annotations

import itertools
import random
from typing import Final

import msgspec
import pytest
from msgspec.structs import replace

from multiversus_core.engine.audit import Committed, Due, Revealed, check_commitments
from multiversus_core.engine.chance import Chance, chance_commitment, roll
from multiversus_core.engine.commit import commit, is_salt, opens, seeded_salt
from multiversus_core.engine.errors import IllegalCommandError, InvalidCommandError, SettingsError
from multiversus_core.engine.ismcts import search
from multiversus_core.engine.registry import load_ruleset
from multiversus_core.engine.ruleset import REFEREE, Table
from multiversus_core.rulesets.sealed_bids import RULESET, SealedBidsSettings, SealedBidsState
from multiversus_core.rulesets.sealed_bids.hidden import SealedBidsView
from multiversus_core.rulesets.sealed_bids.rules import (
    Bid,
    BidCommitted,
    BidOpening,
    BidsRevealed,
    Command,
    Event,
    HiddenBid,
    HiddenBidCommitted,
    MatchEnded,
    PrizeCarried,
    PrizeRolled,
    RevealedBid,
    RollPrize,
    RoundWon,
    opening,
)
from multiversus_core.rulesets.sealed_bids.ruleset import GreedyBot, win_chance
from tests.positions import at

SETTINGS = SealedBidsSettings(players=("Ann", "Bob", "Cy"), seed=11)
"""A public seed and seeded salts: every command is reproducible."""

CHANCE = Chance(seed=2**63 + 12345, salt="ab" * 32)
SECRET = replace(SETTINGS, seed=0, salts="secrets", chance=chance_commitment(CHANCE))
"""Secret chance and secret salts, as in real play."""

SALT = "5a" * 32


def start(settings: SealedBidsSettings = SETTINGS, chance: Chance | None = None) -> SealedBidsState:
    return RULESET.initial_state(settings, chance)


def when(state: SealedBidsState, command: Command) -> tuple[Event, ...]:
    return RULESET.decide(command, state)[0]


def refused(state: SealedBidsState, command: Command) -> tuple[str, str]:
    """The kind of error ``decide`` refuses ``command`` with, and its message."""
    with pytest.raises((InvalidCommandError, IllegalCommandError)) as caught:
        when(state, command)
    return type(caught.value).__name__, str(caught.value)


def play(state: SealedBidsState, *commands: Command) -> SealedBidsState:
    for command in commands:
        state = RULESET.decide(command, state)[1]
    return state


def bids(*tokens: int) -> tuple[Bid, ...]:
    """Seat 1, 2 and 3 bid these tokens, in seat order."""
    return tuple(Bid(player=seat, token=token) for seat, token in enumerate(tokens, start=1))


def round_of(state: SealedBidsState, tokens: tuple[int, int, int], die: int) -> SealedBidsState:
    """Play one round: the seats bid ``tokens`` and the roller rolls ``die``."""
    state = play(state, *bids(*tokens))
    (roller,) = RULESET.to_act(state)
    return play(state, RollPrize(player=roller, die=die))


# --- bidding ----------------------------------------------------------------------------------


def test_each_seat_starts_with_the_tokens_1_to_5() -> None:
    state = start()
    for seat in (1, 2, 3):
        assert RULESET.legal_commands(state, seat) == tuple(
            Bid(player=seat, token=token) for token in (1, 2, 3, 4, 5)
        )


def test_all_three_seats_bid_at_once_in_any_order() -> None:
    state = start()
    assert RULESET.to_act(state) == (1, 2, 3)
    state = play(state, Bid(player=3, token=2))
    assert RULESET.to_act(state) == (1, 2)
    state = play(state, Bid(player=1, token=4))
    assert RULESET.to_act(state) == (2,)
    reveals = set()
    for order in itertools.permutations(bids(4, 5, 2)):
        events = RULESET.decide(order[2], play(start(), *order[:2]))[0]
        assert isinstance(events[-1], BidsRevealed)
        reveals.add(events[-1])
    assert len(reveals) == 1


def test_a_seat_bids_once_a_round() -> None:
    state = play(start(), Bid(player=2, token=3))
    assert RULESET.legal_commands(state, 2) == ()
    assert refused(state, Bid(player=2, token=4)) == (
        "IllegalCommandError",
        "seat 2 has already bid in round 1",
    )


def test_each_token_can_be_bid_once_in_a_match() -> None:
    state = round_of(start(), (4, 5, 2), die=3)
    assert [c.token for c in RULESET.legal_commands(state, 1)] == [1, 2, 3, 5]
    assert refused(state, Bid(player=1, token=4)) == (
        "IllegalCommandError",
        "seat 1 has already used its 4 token",
    )


def test_a_bid_enters_the_log_as_a_commitment_its_salt_opens() -> None:
    (event,) = when(start(), Bid(player=2, token=3))
    assert isinstance(event, BidCommitted)
    bound = opening(SETTINGS, 1, 2, 3)
    assert bound.value == ("3",)
    assert event.salt == seeded_salt(SETTINGS.seed, bound)
    assert event.commitment == commit(event.salt, bound)
    assert not opens(event.commitment, event.salt, opening(SETTINGS, 1, 2, 4))


def test_a_bid_is_hidden_from_the_other_seats_until_all_have_bid() -> None:
    state = start()
    command = Bid(player=1, token=4)
    events, state = RULESET.decide(command, state)
    (event,) = events
    for viewer in ("seat-2", "seat-3", "spectator"):
        seen = RULESET.view(state, viewer)
        assert isinstance(seen, SealedBidsView)
        hidden = HiddenBidCommitted(seat=1, round=1, commitment=event.commitment)
        assert seen.bids == (hidden,)
        assert RULESET.redact_event(event, viewer) == hidden
        assert RULESET.redact_command(command, state, viewer) == HiddenBid(player=1)
        assert b'"token":4' not in msgspec.json.encode(seen)
        assert event.salt.encode() not in msgspec.json.encode(seen)
    own = RULESET.view(state, "seat-1")
    assert isinstance(own, SealedBidsView)
    assert own.bids == (event,)
    assert RULESET.redact_event(event, "seat-1") == event


def test_the_referee_has_no_view_the_engine_shows_them_the_state() -> None:
    state, command = start(), Bid(player=1, token=4)
    with pytest.raises(ValueError, match="the referee has no view: they see the state itself"):
        RULESET.view(state, REFEREE)
    (event,) = when(state, command)
    assert RULESET.redact_event(event, REFEREE) == event
    assert RULESET.redact_command(command, state, REFEREE) == command


def test_the_last_bid_reveals_all_three_with_their_salts() -> None:
    state = play(start(), Bid(player=2, token=5), Bid(player=1, token=4))
    events, state = RULESET.decide(Bid(player=3, token=2), state)
    committed, revealed = events
    assert isinstance(committed, BidCommitted)
    salts = [b.salt for b in state.bids]
    assert revealed == BidsRevealed(
        round=1,
        bids=(
            RevealedBid(seat=1, token=4, salt=salts[1]),
            RevealedBid(seat=2, token=5, salt=salts[0]),
            RevealedBid(seat=3, token=2, salt=committed.salt),
        ),
    )
    seen = RULESET.view(state, "spectator")
    assert isinstance(seen, SealedBidsView)
    assert seen.bids == state.bids
    assert [b.token for b in state.bids] == [5, 4, 2]


def test_the_tokens_each_seat_has_left_are_public() -> None:
    state = round_of(start(), (4, 5, 2), die=3)
    state = play(state, Bid(player=1, token=1))
    seen = RULESET.view(state, "seat-2")
    assert isinstance(seen, SealedBidsView)
    assert seen.public.spent == ((4,), (5,), (2,))  # seat 1's hidden 1 is not spent yet


# --- the prize --------------------------------------------------------------------------------


def test_seat_1_rolls_the_prize_of_round_1_then_each_seat_in_turn() -> None:
    state = start(replace(SETTINGS, rounds=4))
    rollers = []
    for tokens in ((1, 2, 3), (2, 3, 4), (3, 4, 5), (4, 5, 1)):
        state = play(state, *bids(*tokens))
        rollers.append(RULESET.to_act(state))
        state = play(state, RollPrize(player=rollers[-1][0]))
    assert rollers == [(1,), (2,), (3,), (1,)]


def test_the_prize_die_is_drawn_from_the_seed_with_the_draw_counter() -> None:
    state = play(start(), *bids(4, 5, 2))
    events, state = RULESET.decide(RollPrize(player=1), state)
    assert events[0] == PrizeRolled(round=1, die=roll(11, 0, 6), prize=roll(11, 0, 6))
    state = play(state, *bids(1, 2, 3))
    events = when(state, RollPrize(player=2))
    assert events[0] == PrizeRolled(round=2, die=roll(11, 1, 6), prize=roll(11, 1, 6))


def test_a_die_rolled_at_the_table_is_taken_as_rolled() -> None:
    state = play(start(), *bids(4, 5, 2))
    events = when(state, RollPrize(player=1, die=6))
    assert events[0] == PrizeRolled(round=1, die=6, prize=6)


def test_the_highest_unique_bid_wins_the_die() -> None:
    state = play(start(), *bids(5, 5, 3))
    events, state = RULESET.decide(RollPrize(player=1, die=4), state)
    assert events[1] == RoundWon(round=1, seat=3, token=3, prize=4)
    assert state.scores == (0, 0, 4)
    state = round_of(state, (4, 1, 2), die=2)
    assert state.scores == (2, 0, 4)


def test_no_unique_bid_carries_the_prize_over_to_the_next_round() -> None:
    state = play(start(), *bids(2, 2, 2))
    events, state = RULESET.decide(RollPrize(player=1, die=5), state)
    assert events[1:] == (PrizeCarried(round=1, prize=5),)
    assert state.scores == (0, 0, 0)
    state = play(state, *bids(1, 3, 4))
    events, state = RULESET.decide(RollPrize(player=2, die=3), state)
    assert events == (
        PrizeRolled(round=2, die=3, prize=8),
        RoundWon(round=2, seat=3, token=4, prize=8),
    )
    assert state.scores == (0, 0, 8)


def test_a_prize_carried_out_of_the_last_round_is_lost() -> None:
    state = play(at(start(), f"{LAST_ROUND} pot=4"), *bids(2, 2, 2))
    events, state = RULESET.decide(RollPrize(player=3, die=6), state)
    assert events[1:] == (
        PrizeCarried(round=3, prize=10),
        MatchEnded(scores=(0, 0, 0), winners=()),
    )
    assert RULESET.narrate(events[1], state, None) == (
        "No bid of round 3 was unique: the prize of 10 is lost."
    )
    assert state.pot == 0


# --- the end ----------------------------------------------------------------------------------


def test_the_match_lasts_the_rounds_the_settings_say() -> None:
    state = start(replace(SETTINGS, rounds=2))
    state = round_of(state, (1, 2, 3), die=1)
    assert RULESET.outcome(state) is None
    state = round_of(state, (2, 3, 4), die=1)
    assert RULESET.outcome(state) is not None
    assert RULESET.to_act(state) == ()
    assert all(RULESET.legal_commands(state, seat) == () for seat in (1, 2, 3))


LAST_ROUND: Final = "round=3 spent=[[5,1],[4,5],[3,4]]"
"""The last round of three begun, with the tokens of rounds 1 and 2 spent."""


def test_the_top_score_wins_after_the_last_round() -> None:
    state = at(start(), f"{LAST_ROUND} scores=[6,2,0]")
    state = play(state, *bids(4, 3, 5), RollPrize(player=3, die=1))
    outcome = RULESET.outcome(state)
    assert outcome is not None
    assert state.scores == (6, 2, 1)
    assert (outcome.winners, outcome.returns) == ((1,), (1.0, -1.0, -1.0))


def test_seats_tied_on_the_top_score_share_the_win() -> None:
    state = round_of(at(start(), f"{LAST_ROUND} scores=[3,3,0]"), (2, 2, 2), die=3)
    outcome = RULESET.outcome(state)
    assert outcome is not None
    assert (outcome.winners, outcome.returns) == ((1, 2), (1.0, 1.0, -1.0))


def test_all_three_tied_is_a_draw() -> None:
    state = round_of(at(start(), f"{LAST_ROUND} scores=[2,2,0]"), (2, 2, 5), die=2)
    outcome = RULESET.outcome(state)
    assert outcome is not None
    assert state.scores == (2, 2, 2)
    assert (outcome.winners, outcome.returns) == ((), (0.0, 0.0, 0.0))


def test_nothing_may_be_done_once_the_match_is_over() -> None:
    state = round_of(start(replace(SETTINGS, rounds=1)), (1, 2, 3), die=1)
    over = ("IllegalCommandError", "the match is over")
    assert refused(state, Bid(player=1, token=5)) == over
    assert refused(state, RollPrize(player=1)) == over


# --- invalid and illegal commands -------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (Bid(player=4, token=1), "player must be seat 1, 2 or 3, not 4"),
        (RollPrize(player=0), "player must be seat 1, 2 or 3, not 0"),
        (Bid(player=1, token=0), "a bid is one of the tokens 1 to 5, not 0"),
        (Bid(player=1, token=6), "a bid is one of the tokens 1 to 5, not 6"),
        (Bid(player=1, token=True), "a bid is one of the tokens 1 to 5, not True"),
        (RollPrize(player=1, die=7), "the prize die shows 1 to 6, not 7"),
        (RollPrize(player=1, die=0), "the prize die shows 1 to 6, not 0"),
    ],
)
def test_a_command_that_is_not_well_formed_is_invalid(command: Command, message: str) -> None:
    assert refused(start(), command) == ("InvalidCommandError", message)


def test_the_prize_is_rolled_only_once_all_three_have_bid() -> None:
    state = play(start(), *bids(1, 2))
    assert refused(state, RollPrize(player=1)) == (
        "IllegalCommandError",
        "the prize of round 1 is rolled once all three seats have bid",
    )


def test_only_the_round_s_roller_rolls_the_prize() -> None:
    state = play(start(), *bids(1, 2, 3))
    assert refused(state, RollPrize(player=2)) == (
        "IllegalCommandError",
        "seat 1 rolls the prize of round 1, not seat 2",
    )


def test_no_bid_is_taken_once_the_round_s_bids_are_revealed() -> None:
    state = play(start(), *bids(1, 2, 3))
    assert refused(state, Bid(player=1, token=5)) == (
        "IllegalCommandError",
        "the bids of round 1 are in: seat 1 rolls the prize",
    )


# --- salts ------------------------------------------------------------------------------------


def test_a_secrets_match_needs_a_salt_on_every_bid() -> None:
    state = start(SECRET, CHANCE)
    assert refused(state, Bid(player=1, token=3)) == (
        "InvalidCommandError",
        "this match salts its bids from `secrets`: the bid needs a salt",
    )
    salted = RULESET.salted(Bid(player=1, token=3), SECRET)
    assert isinstance(salted, Bid)
    assert salted.salt is not None and is_salt(salted.salt)
    (event,) = when(state, salted)
    assert isinstance(event, BidCommitted)
    assert event.salt == salted.salt
    assert event.commitment == commit(salted.salt, opening(SECRET, 1, 1, 3))


def test_salted_leaves_other_commands_and_seed_matches_alone() -> None:
    assert RULESET.salted(RollPrize(player=1), SECRET) == RollPrize(player=1)
    assert RULESET.salted(Bid(player=1, token=3), SETTINGS) == Bid(player=1, token=3)
    given = Bid(player=1, token=3, salt=SALT)
    assert RULESET.salted(given, SECRET) == given


def test_a_seed_match_refuses_a_salt() -> None:
    assert refused(start(), Bid(player=1, token=3, salt=SALT)) == (
        "InvalidCommandError",
        "this match derives its salts from the seed: leave the salt out",
    )


def test_a_salt_is_64_lower_case_hex_digits() -> None:
    assert refused(start(SECRET, CHANCE), Bid(player=1, token=3, salt="AB" * 32)) == (
        "InvalidCommandError",
        "a salt is 64 lower-case hex digits (32 bytes)",
    )


def test_a_seeded_salt_depends_on_where_the_bid_was_made_not_on_the_token() -> None:
    (three,) = when(start(), Bid(player=1, token=3))
    (four,) = when(start(), Bid(player=1, token=4))
    (other,) = when(start(), Bid(player=2, token=3))
    assert isinstance(three, BidCommitted) and isinstance(four, BidCommitted)
    assert isinstance(other, BidCommitted)
    assert three.salt == four.salt != other.salt
    assert three.commitment != four.commitment


# --- secrets ----------------------------------------------------------------------------------


WHAT = "seat 1's bid in round 1"


def test_a_bid_commits_its_secret_and_the_bidder_s_own_copy_opens_it() -> None:
    (event,) = when(start(), Bid(player=1, token=4))
    assert isinstance(event, BidCommitted)
    committed, own = RULESET.auditor(SETTINGS).read(event)
    blank = replace(opening(SETTINGS, 1, 1, 4), value=())
    assert committed == Committed("bid:1:1", event.commitment, blank, WHAT)
    assert own == Revealed("bid:1:1", event.salt, ("4",), WHAT, own=True)
    assert isinstance(committed.blank, BidOpening)
    assert opens(committed.digest, own.salt, replace(committed.blank, value=own.value))


def test_a_placeholder_commits_the_same_secret_without_the_bidder_s_copy() -> None:
    (event,) = when(start(), Bid(player=2, token=1))
    hidden = RULESET.redact_event(event, "seat-1")
    assert isinstance(hidden, HiddenBidCommitted)
    facts = RULESET.auditor(SETTINGS).read(event)
    assert RULESET.auditor(SETTINGS).read(hidden) == facts[:1]


def test_the_reveal_opens_every_bid_of_the_round_and_makes_them_due() -> None:
    state = play(start(), *bids(4, 5))
    events = when(state, Bid(player=3, token=2))
    facts = RULESET.auditor(SETTINGS).read(events[1])
    assert [type(f) for f in facts] == [Revealed, Revealed, Revealed, Due]
    reveals = [f for f in facts if isinstance(f, Revealed)]
    assert [(f.key, f.value, f.own) for f in reveals] == [
        ("bid:1:1", ("4",), False),
        ("bid:1:2", ("5",), False),
        ("bid:1:3", ("2",), False),
    ]
    assert facts[3] == Due(("bid:1:",), "with the other bids of round 1")
    assert RULESET.auditor(SETTINGS).read(MatchEnded(scores=(0, 0, 0), winners=())) == (
        Due(("bid:",), "by the end of the match"),
    )


TWO_ROUNDS = replace(SETTINGS, rounds=2)


def entries(settings: SealedBidsSettings, chance: Chance | None = None) -> list[tuple[Event, ...]]:
    """The log of a match of two rounds (each entry a command's events)."""
    state, log = start(settings, chance), []
    commands = (*bids(4, 5, 2), RollPrize(player=1), *bids(1, 2, 3), RollPrize(player=2))
    for command in commands:
        events, state = RULESET.decide(RULESET.salted(command, settings), state)
        log.append(events)
    return log


def changed(event: BidCommitted | BidsRevealed) -> BidCommitted | BidsRevealed:
    """The event with its (first) salt changed."""
    if isinstance(event, BidCommitted):
        return replace(event, salt=SALT)
    first, *others = event.bids
    return replace(event, bids=(replace(first, salt=SALT), *others))


@pytest.mark.parametrize(
    ("settings", "chance"), [(TWO_ROUNDS, None), (replace(SECRET, rounds=2), CHANCE)]
)
def test_a_match_s_log_and_every_viewer_s_log_keep_their_commitments(
    settings: SealedBidsSettings, chance: Chance | None
) -> None:
    log = entries(settings, chance)
    assert check_commitments(RULESET.auditor(settings), log) == ()
    for viewer in RULESET.viewers:
        seen = [tuple(RULESET.redact_event(e, viewer) for e in events) for events in log]
        assert check_commitments(RULESET.auditor(settings), seen) == ()


def test_a_reveal_with_another_salt_does_not_open_the_bid() -> None:
    log = entries(TWO_ROUNDS)
    log[2] = (log[2][0], changed(log[2][1]))
    (problem,) = check_commitments(RULESET.auditor(TWO_ROUNDS), log)
    assert (problem.entry, problem.code, problem.committed) == (3, "reveal_mismatch", 1)
    assert problem.message.startswith(f"the reveal of {WHAT} does not open its commitment")


def test_a_bid_whose_salt_was_changed_does_not_give_its_commitment() -> None:
    log = entries(TWO_ROUNDS)
    log[1] = (changed(log[1][0]),)
    (problem,) = check_commitments(RULESET.auditor(TWO_ROUNDS), log)
    assert (problem.entry, problem.code) == (2, "bad_commitment")
    assert problem.message.startswith("seat 2's bid in round 1 does not give its own commitment")


def test_a_reveal_missing_a_bid_leaves_it_unrevealed() -> None:
    log = entries(TWO_ROUNDS)
    committed, revealed = log[2]
    log[2] = (committed, replace(revealed, bids=revealed.bids[:2]))
    (problem,) = check_commitments(RULESET.auditor(TWO_ROUNDS), log)
    assert (problem.entry, problem.code, problem.committed) == (3, "unrevealed", 3)
    assert problem.message == (
        "seat 3's bid in round 1, committed in entry 3, was never revealed "
        "(with the other bids of round 1)"
    )


def test_bids_never_revealed_are_due_by_the_end_of_the_match() -> None:
    log = entries(TWO_ROUNDS)
    log[2] = log[2][:1]  # the reveal of round 1 is lost
    problems = check_commitments(RULESET.auditor(TWO_ROUNDS), log)
    assert [(p.entry, p.code, p.committed) for p in problems] == [
        (8, "unrevealed", 1),
        (8, "unrevealed", 2),
        (8, "unrevealed", 3),
    ]
    assert problems[0].message.endswith("(by the end of the match)")


# --- chance -----------------------------------------------------------------------------------


def test_secret_chance_draws_the_die_from_the_secret_seed() -> None:
    state = play(start(SECRET, CHANCE), *(RULESET.salted(b, SECRET) for b in bids(1, 2, 3)))
    events = when(state, RollPrize(player=1))
    die = roll(CHANCE.seed, 0, 6)
    assert events[0] == PrizeRolled(round=1, die=die, prize=die)
    assert die != roll(SECRET.seed, 0, 6)  # not the settings' seed (0)


def test_without_the_secret_seed_the_die_is_supplied_as_recorded() -> None:
    state = play(start(SECRET), *(RULESET.salted(b, SECRET) for b in bids(1, 2, 3)))
    assert refused(state, RollPrize(player=1)) == (
        "IllegalCommandError",
        "this match's chance is secret and not known here: supply the die as rolled",
    )
    recorded = when(play(start(SECRET, CHANCE), *state_commands(state)), RollPrize(player=1))
    command = RULESET.with_recorded_chance(RollPrize(player=1), recorded)
    assert command == RollPrize(player=1, die=roll(CHANCE.seed, 0, 6))
    assert when(state, command) == recorded
    assert RULESET.with_recorded_chance(Bid(player=1, token=2), recorded) == Bid(player=1, token=2)


def state_commands(state: SealedBidsState) -> tuple[Bid, ...]:
    """The bids that made this round's state, salts and all."""
    return tuple(Bid(player=b.seat, token=b.token, salt=b.salt) for b in state.bids)


def test_a_chance_seed_must_open_the_settings_commitment() -> None:
    with pytest.raises(SettingsError) as caught:
        start(SECRET, replace(CHANCE, seed=1))
    assert str(caught.value) == "chance: the chance seed does not open the settings' commitment"


def test_no_viewer_sees_the_chance_seed() -> None:
    for settings, chance in ((SETTINGS, None), (SECRET, CHANCE)):
        for viewer in RULESET.viewers:
            seen = RULESET.view(start(settings, chance), viewer)
            assert isinstance(seen, SealedBidsView)
            assert seen.public.settings.seed == 0
            assert str(CHANCE.seed).encode() not in msgspec.json.encode(seen)


# --- settings ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"players": ("Ann", "Bob")}, "players: name all three players, seat 1 first"),
        ({"players": ("Ann", " ", "Cy")}, "players: name all three players, seat 1 first"),
        ({"rounds": 0}, "rounds: a match lasts 1 to 5 rounds, not 0"),
        ({"rounds": 6}, "rounds: a match lasts 1 to 5 rounds, not 6"),
        ({"seed": -1}, "seed: the seed is from 0 to 2**64 - 1, not -1"),
        ({"seed": 2**64}, f"seed: the seed is from 0 to 2**64 - 1, not {2**64}"),
        ({"salts": "dice"}, "salts: salts come from 'seed' or 'secrets', not 'dice'"),
        ({"chance": "not hex"}, "chance: a chance commitment is 64 lower-case hex digits"),
        ({"chance": "ab" * 32}, "seed: the seed is 0 when chance is secret"),
    ],
)
def test_bad_settings_are_refused_naming_the_field(
    changes: dict[str, object], message: str
) -> None:
    with pytest.raises(SettingsError) as caught:
        RULESET.check_settings(replace(SETTINGS, **changes))
    assert str(caught.value) == message


def test_the_default_settings_and_secret_chance_settings_are_good() -> None:
    RULESET.check_settings(SealedBidsSettings())
    RULESET.check_settings(SECRET)
    table = Table(0, "cd" * 32, "secrets", ("A", "B", "C"))
    assert RULESET.with_table(SETTINGS, table) == replace(
        SETTINGS, seed=0, chance="cd" * 32, salts="secrets", players=("A", "B", "C")
    )
    table = RULESET.table(SECRET)
    assert (table.seed, table.chance, table.salts) == (0, SECRET.chance, "secrets")


def test_settings_with_an_unknown_field_do_not_decode() -> None:
    with pytest.raises(msgspec.ValidationError, match="unknown field"):
        msgspec.json.decode(b'{"rounds": 3, "teams": 2}', type=SealedBidsSettings)


# --- events, views and words ------------------------------------------------------------------


def test_events_and_commands_are_tagged_by_kind() -> None:
    state = play(start(), *bids(1, 2))
    events = when(state, Bid(player=3, token=3))
    events += when(play(state, Bid(player=3, token=3)), RollPrize(player=1, die=2))
    kinds = [msgspec.json.decode(msgspec.json.encode(e))["kind"] for e in events]
    assert kinds == ["bid_committed", "bids_revealed", "prize_rolled", "round_won"]
    decoded = msgspec.json.decode(msgspec.json.encode(events), type=tuple[RULESET.event_type, ...])
    assert decoded == events
    assert msgspec.json.encode(HiddenBid(player=1)) == b'{"kind":"hidden_bid","player":1}'


def test_determinize_draws_hidden_bids_from_the_seat_s_unused_tokens() -> None:
    state = round_of(start(), (5, 4, 3), die=2)
    state = play(state, Bid(player=1, token=1), Bid(player=2, token=2))
    seen = RULESET.view(state, "seat-3")
    drawn = set()
    for seed in range(40):
        full = RULESET.determinize(seen, random.Random(seed))
        assert RULESET.view(full, "seat-3") == seen
        drawn.add((full.bids[0].token, full.bids[1].token))
    assert {one for one, _ in drawn} == {1, 2, 3, 4}
    assert {two for _, two in drawn} == {1, 2, 3, 5}


def test_every_event_is_told_in_one_line_a_bid_s_token_to_its_bidder_alone() -> None:
    state = play(start(), *bids(2, 2))
    told = []
    for command in (Bid(player=3, token=2), RollPrize(player=1, die=4)):
        events, after = RULESET.decide(command, state)
        for event in events:
            told.append(RULESET.narrate(event, state, 3))
            told.append(RULESET.narrate(event, state, 1))
            told.append(RULESET.narrate(RULESET.redact_event(event, "spectator"), state, None))
        state = after
    state = round_of(state, (5, 4, 4), die=1)
    events, _ = RULESET.decide(RollPrize(player=3, die=6), play(state, *bids(1, 1, 1)))
    told += [RULESET.narrate(event, state, None) for event in events]
    assert told == [
        "Cy sealed a bid of 2 in round 1.",
        "Cy sealed a bid in round 1.",
        "Cy sealed a bid in round 1.",
        "The bids of round 1 are revealed: Ann 2, Bob 2, Cy 2.",
        "The bids of round 1 are revealed: Ann 2, Bob 2, Cy 2.",
        "The bids of round 1 are revealed: Ann 2, Bob 2, Cy 2.",
        "Ann rolled a 4: the prize is 4.",
        "Ann rolled a 4: the prize is 4.",
        "Ann rolled a 4: the prize is 4.",
        "No bid of round 1 was unique: the prize of 4 carries over.",
        "No bid of round 1 was unique: the prize of 4 carries over.",
        "No bid of round 1 was unique: the prize of 4 carries over.",
        "Cy rolled a 6: the prize is 6.",
        "No bid of round 3 was unique: the prize of 6 is lost.",
        "The match is over: Ann wins (Ann 5, Bob 0, Cy 0).",
    ]


def test_where_says_whom_the_match_waits_for() -> None:
    state = start()
    assert RULESET.where(state) == "round 1, seats 1, 2 and 3 to bid"
    state = play(state, Bid(player=2, token=1))
    assert RULESET.where(state) == "round 1, seats 1 and 3 to bid"
    state = play(state, Bid(player=1, token=1))
    assert RULESET.where(state) == "round 1, seat 3 to bid"
    state = play(state, Bid(player=3, token=1))
    assert RULESET.where(state) == "round 1, seat 1 to roll the prize"


# --- bots and search --------------------------------------------------------------------------


def test_the_greedy_bot_bids_the_token_likeliest_to_be_the_highest_unique_bid() -> None:
    # Round 4 of 5: Ann has 1 and 5 left, Bob and Cy 4 and 5. A 5 wins only if both
    # others bid 4 (1 in 4); a 1 wins whenever they bid alike (1 in 2).
    state = start(replace(SETTINGS, rounds=5))
    for tokens in ((2, 1, 1), (3, 2, 2), (4, 3, 3)):
        state = round_of(state, tokens, die=1)
    assert win_chance(5, [(4, 5), (4, 5)]) == 0.25
    assert win_chance(1, [(4, 5), (4, 5)]) == 0.5
    legal = RULESET.legal_commands(state, 1)
    assert GreedyBot(0).choose(RULESET.view(state, "seat-1"), legal) == Bid(player=1, token=1)


def test_a_seat_searches_its_own_bids_while_others_bid_first_in_the_search() -> None:
    game = RULESET.search_game()
    assert game is RULESET.search_game()  # one for every search: it keeps nothing
    seen = RULESET.view(start(), "seat-3")
    full = game.determinize(seen, random.Random(1))
    assert game.to_move(full) == 1
    legal = RULESET.legal_commands(start(), 3)
    found = search(game, seen, legal, 3, random.Random(2), iterations=60)
    assert found.command in legal
    assert set(found.visits) == set(legal)


def test_the_search_stops_at_the_end_of_the_round_and_judges_the_lead() -> None:
    game = RULESET.search_game()
    begun = play(start(), *bids(5, 4))
    ended = play(begun, Bid(player=3, token=1), RollPrize(player=1, die=6))
    assert not game.is_horizon(begun, play(begun, Bid(player=3, token=1)))
    assert game.is_horizon(begun, ended)
    assert game.evaluate(ended, 1) == pytest.approx(6 / 18)
    assert game.evaluate(ended, 2) == pytest.approx(-6 / 18)


# --- the registry -----------------------------------------------------------------------------


def test_the_engine_finds_sealed_bids_by_its_id() -> None:
    assert load_ruleset("sealed-bids") is RULESET


def test_a_players_name_is_bounded_as_in_every_game() -> None:
    # Sealed Bids checks its table with the engine's check_table, as tiles-d6 and
    # worlds-collide do: a name longer than 64 characters is refused.
    from multiversus_core.engine.errors import SettingsError
    from multiversus_core.rulesets.sealed_bids.rules import SealedBidsSettings, check_settings

    with pytest.raises(SettingsError, match="seat 2 is longer than 64 characters"):
        check_settings(SealedBidsSettings(players=("Ann", "B" * 65, "Cy")))
