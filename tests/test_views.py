"""Views (R4, R23): each side sees its own secrets, nobody else does, until revealed."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import multiversus_core
from multiversus_core import (
    ChooseSecret,
    Command,
    DeclineReaction,
    Event,
    MatchSettings,
    MatchState,
    SelectCoins,
    SelectNoReaction,
    SelectReaction,
    apply,
    decider_seat,
    legal_commands,
    start_match,
)
from multiversus_core.engine.log import LOG_FORMAT, LOG_VERSION, LogEntry, LogHeader, MatchLog
from multiversus_core.engine.viewlog import encode_view_log
from multiversus_core.rulesets.multiversus.bots.specs import RandomBot, command_for
from multiversus_core.rulesets.multiversus.events import (
    CoinsRevealed,
    CoinsSelected,
    ReactionRevealed,
    ReactionSelected,
    SecretChosen,
    SecretRevealed,
)
from multiversus_core.rulesets.multiversus.match import secret_chance_settings
from multiversus_core.rulesets.multiversus.state import Activation, Piles, Secret
from multiversus_core.rulesets.multiversus.terms import Seat, Side, other_side
from multiversus_core.rulesets.multiversus.views import (
    PLAYER_VIEWERS,
    ActivationView,
    HiddenChooseSecret,
    HiddenCoinsSelected,
    HiddenReactionSelected,
    HiddenSecretChosen,
    HiddenSelectCoins,
    HiddenSelectReaction,
    MatchView,
    PilesView,
    SecretView,
    redact,
    redact_command,
    redact_log,
    view,
    viewer_of,
)
from tests.positions import at

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PROPERTY = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SECRET_PAIRINGS = (("witch-hunters", "swartzblak"), ("banner-knight", "black-goblins"))
Entries = list[tuple[Command, tuple[Event, ...]]]


def encode(value: object) -> bytes:
    return msgspec.json.encode(value)


def as_log(settings: MatchSettings, entries: Entries) -> MatchLog:
    header = LogHeader(format=LOG_FORMAT, version=LOG_VERSION, engine="test", settings=settings)
    return MatchLog(header=header, entries=tuple(LogEntry(c, e) for c, e in entries))


def play_until(
    settings: MatchSettings, stop: Callable[[MatchState], bool], seed: int = 0
) -> tuple[MatchState, Entries]:
    """Play random bots from the start until ``stop`` holds (or the match ends)."""
    state = start_match(settings)
    bots = {1: RandomBot(seed), 2: RandomBot(seed + 1)}
    entries: Entries = []
    while not state.is_over and not stop(state):
        seat = decider_seat(state)
        assert seat is not None
        command = command_for(bots[seat], state, seat)
        state, events = apply(state, command)
        entries.append((command, events))
    return state, entries


def options(state: MatchState, kind: type[Command]) -> list[Command]:
    seat = decider_seat(state)
    if seat is None:
        return []
    return sorted((c for c in legal_commands(state, seat) if isinstance(c, kind)), key=encode)


def seat_of(state: MatchState, side: Side) -> Seat:
    seat = state.seat_of(side)
    assert seat is not None
    return seat


def pv(state: MatchState, viewer: Side | str) -> MatchView:
    assert viewer in PLAYER_VIEWERS
    result = view(state, viewer)
    assert isinstance(result, MatchView)
    return result


DEFAULT = MatchSettings(heroes="banner-knight", adversaries="smogon", seed=11)


def at_react(seed: int = 3) -> MatchState:
    """A state waiting for the reactive selection: the active one is hidden."""
    state, _ = play_until(DEFAULT, lambda s: s.pending == "react", seed)
    assert state.pending == "react"
    return state


def at_hidden_reaction(seed: int = 3) -> MatchState:
    """A state with a reactive coin selected and not revealed."""

    def stop(s: MatchState) -> bool:
        act = s.activation
        return bool(act and act.reaction_coin and not act.reaction_revealed)

    state, _ = play_until(DEFAULT, stop, seed)
    assert stop(state)
    return state


# --- the referee and the shape of views --------------------------------------------------


def test_the_referee_view_is_the_state_itself() -> None:
    state = at_hidden_reaction()
    assert view(state, "referee") is state
    events = (CoinsSelected(side="heroes", coin="knight.green1", actions=("move",)),)
    assert redact(events, "referee") == events


def test_an_unknown_viewer_is_refused() -> None:
    with pytest.raises(ValueError, match="no viewer"):
        view(start_match(DEFAULT), "seat1")  # type: ignore[call-overload]


@pytest.mark.parametrize(
    ("full", "redacted", "extra", "withheld"),
    [
        (MatchState, MatchView, {"viewer"}, {"chance"}),
        (Activation, ActivationView, {"hidden", "reaction_hidden"}, set()),
        (Piles, PilesView, {"stash_count", "face_down"}, set()),
        (Secret, SecretView, set(), set()),
    ],
)
def test_every_state_field_is_decided_for_the_views(
    full: type[msgspec.Struct], redacted: type[msgspec.Struct], extra: set[str], withheld: set[str]
) -> None:
    # A field added to the state must be placed in its view, or withheld, on purpose.
    assert set(redacted.__struct_fields__) == (set(full.__struct_fields__) - withheld) | extra


def test_no_view_shows_the_secret_chance_seed() -> None:
    # Item 2: the seed is the referee's until the end; views hold only its commitment.
    secret, chance = secret_chance_settings(DEFAULT)
    state = start_match(secret, chance)
    assert secret.seed == 0 and secret.chance and state.chance == chance
    for viewer in PLAYER_VIEWERS:
        shown = msgspec.json.encode(view(state, viewer))
        assert str(chance.seed).encode() not in shown and chance.salt.encode() not in shown


def test_no_view_shows_the_match_seed() -> None:
    # The seed would tell the dice to come, and seeded salts open every commitment with it.
    settings_ = MatchSettings(heroes="banner-knight", adversaries="smogon", seed=987654321)
    state, _ = play_until(settings_, lambda s: s.pending == "react", 3)
    assert state.pending == "react" and state.settings.salts == "seed"
    other = at(state, 'settings={"seed":5}')
    assert other.settings == msgspec.structs.replace(settings_, seed=5)
    for viewer in PLAYER_VIEWERS:
        shown = view(state, viewer)
        assert shown.settings == msgspec.structs.replace(settings_, seed=0)
        assert b"987654321" not in msgspec.json.encode(shown)
        assert view(other, viewer) == shown


def test_viewer_of_a_seat_is_its_side_or_the_spectator() -> None:
    state = at_react()
    assert viewer_of(state, state.heroes_seat) == "heroes"
    assert viewer_of(state, None) == "spectator"
    assert viewer_of(start_match(DEFAULT), 1) == "spectator"


# --- R4: coin selections ----------------------------------------------------------------


def test_the_active_selection_is_shown_only_to_its_player_until_revealed() -> None:
    state = at_react()
    act = state.activation
    assert act is not None and not act.revealed
    own = pv(state, act.side).activation
    assert own is not None and not own.hidden
    assert (own.unit, own.coin, own.actions) == (act.unit, act.coin, act.actions)
    for viewer in (other_side(act.side), "spectator"):
        seen = pv(state, viewer).activation
        assert seen is not None and seen.hidden
        assert (seen.unit, seen.coin, seen.actions, seen.remaining) == (None, None, None, None)
        piles = pv(state, viewer).piles(act.side)
        assert piles.stash is None
        # The selected coin is known only as one of the face-down coins.
        assert act.coin in piles.face_down and len(piles.face_down) == piles.stash_count + 1


def test_the_reactive_selection_is_shown_only_to_its_player_until_revealed() -> None:
    state = at_hidden_reaction()
    act = state.activation
    assert act is not None and act.revealed
    reactive = other_side(act.side)
    own = pv(state, reactive).activation
    assert own is not None and not own.reaction_hidden
    assert (own.reaction_coin, own.reaction_actions) == (act.reaction_coin, act.reaction_actions)
    for viewer in (act.side, "spectator"):
        seen = pv(state, viewer).activation
        assert seen is not None and seen.reaction_hidden and seen.reaction_selected
        assert (seen.reaction_coin, seen.reaction_actions) == (None, None)
        assert seen.coin == act.coin  # the active selection is revealed by now


def test_a_stash_is_a_count_to_all_but_its_player_and_hides_which_coin_left_it() -> None:
    state = at_hidden_reaction()
    act = state.activation
    assert act is not None and act.reaction_coin is not None
    reactive = other_side(act.side)
    piles = state.piles(reactive)
    for viewer in PLAYER_VIEWERS:
        seen = pv(state, viewer).piles(reactive)
        assert seen.stash == (piles.stash if viewer == reactive else None)
        assert seen.stash_count == len(piles.stash)
        # Every face-down coin is public, the hidden selection among them.
        assert seen.face_down == tuple(sorted((*piles.stash, act.reaction_coin)))
        assert seen.discard == piles.discard


def test_selecting_nothing_is_public() -> None:
    event = ReactionSelected(side="heroes", coin=None, actions=())
    assert redact([event], "adversaries") == (event,)
    command = SelectNoReaction(player=1)
    assert redact_command(command, "heroes", "spectator") == command
    assert redact_command(command, "heroes", "adversaries") == command


def test_revealed_selections_and_secrets_are_shown_to_everyone() -> None:
    # Walk whole random matches and check every state against the referee's.
    for seed in range(4):
        settings_ = MatchSettings(heroes="witch-hunters", adversaries="swartzblak", seed=seed)
        state = start_match(settings_)
        bots = {1: RandomBot(seed), 2: RandomBot(seed + 7)}
        while not state.is_over:
            seat = decider_seat(state)
            assert seat is not None
            state, _ = apply(state, command_for(bots[seat], state, seat))
            check_view_against_state(state)
        assert all(s.revealed for s in state.secrets)


def check_view_against_state(state: MatchState) -> None:
    act = state.activation
    for viewer in PLAYER_VIEWERS:
        seen = pv(state, viewer)
        for secret, shown in zip(state.secrets, seen.secrets, strict=True):
            visible = secret.revealed or viewer == secret.side
            assert shown.choice == (secret.choice if visible else None)
            # The commitment is public; the salt that opens it is not, until revealed.
            assert shown.commitment == secret.commitment
            assert shown.salt == (secret.salt if visible else None)
        if act is None:
            assert seen.activation is None
            continue
        assert seen.activation is not None
        assert seen.activation.commitment == act.commitment
        assert seen.activation.reaction_commitment == act.reaction_commitment
        if act.revealed or viewer == act.side:
            assert (seen.activation.coin, seen.activation.actions) == (act.coin, act.actions)
            assert seen.activation.salt == act.salt
        else:
            assert seen.activation.hidden and seen.activation.salt is None
        if act.reaction_revealed or viewer == other_side(act.side):
            assert seen.activation.reaction_coin == act.reaction_coin
            assert seen.activation.reaction_actions == act.reaction_actions
            assert seen.activation.reaction_salt == act.reaction_salt
        elif act.reaction_coin is not None:
            assert seen.activation.reaction_salt is None


# --- R23: set-up secrets ----------------------------------------------------------------


def test_a_set_up_secret_is_shown_only_to_its_player_until_revealed() -> None:
    settings_ = MatchSettings(heroes="witch-hunters", adversaries="swartzblak", seed=5)
    state, _ = play_until(settings_, lambda s: len(s.secrets) == 2 or s.round > 0)
    assert len(state.secrets) == 2 and not any(s.revealed for s in state.secrets)
    for secret in state.secrets:
        assert pv(state, secret.side).secrets == tuple(
            SecretView(
                s.side,
                s.name,
                s.choice if s.side == secret.side else None,
                False,
                s.commitment,
                s.salt if s.side == secret.side else None,
            )
            for s in state.secrets
        )
    assert all(s.choice is None for s in pv(state, "spectator").secrets)


# --- redacted logs ----------------------------------------------------------------------


def test_a_redacted_log_hides_the_opponents_selections_and_secrets() -> None:
    settings_ = MatchSettings(heroes="witch-hunters", adversaries="swartzblak", seed=2)
    state, entries = play_until(settings_, lambda s: s.round == 2)
    log = as_log(settings_, entries)
    assert state.heroes_seat is not None
    heroes_seat = state.heroes_seat
    assert [(e.command, e.events) for e in redact_log(log, "referee").entries] == [
        (e.command, e.events) for e in log.entries
    ]
    for viewer in PLAYER_VIEWERS:
        redacted = redact_log(log, viewer)
        assert redacted.header == log.header
        assert len(redacted.entries) == len(log.entries)
        for entry, seen in zip(log.entries, redacted.entries, strict=True):
            assert len(seen.events) == len(entry.events)
            side = "heroes" if entry.command.player == heroes_seat else "adversaries"
            mine = viewer == side
            match entry.command:
                case SelectCoins():
                    assert isinstance(seen.command, SelectCoins if mine else HiddenSelectCoins)
                case SelectReaction():
                    assert isinstance(
                        seen.command, SelectReaction if mine else HiddenSelectReaction
                    )
                case ChooseSecret(name=name):
                    assert seen.command == (
                        entry.command if mine else HiddenChooseSecret(entry.command.player, name)
                    )
                case _:
                    assert seen.command == entry.command
            for event, shown in zip(entry.events, seen.events, strict=True):
                match event:
                    case CoinsSelected(side=s, commitment=d) if s != viewer:
                        assert shown == HiddenCoinsSelected(side=s, commitment=d)
                    case ReactionSelected(side=s, coin=c, commitment=d) if (
                        s != viewer and c is not None
                    ):
                        assert shown == HiddenReactionSelected(side=s, commitment=d)
                    case SecretChosen(side=s, name=n, commitment=d) if s != viewer:
                        assert shown == HiddenSecretChosen(side=s, name=n, commitment=d)
                    case _:
                        # Everything else is public, reveals included.
                        assert shown == event
    kinds = {type(e) for entry in entries for e in entry[1]}
    assert {CoinsSelected, ReactionSelected, CoinsRevealed, SecretChosen} <= kinds


def test_a_redacted_log_reveals_a_selection_only_with_its_reveal_event() -> None:
    _, entries = play_until(DEFAULT, lambda s: s.round == 2, seed=4)
    seen = redact_log(as_log(DEFAULT, entries), "spectator")
    hidden = sum(isinstance(e, HiddenReactionSelected) for x in seen.entries for e in x.events)
    reveals = sum(isinstance(e, ReactionRevealed) for x in seen.entries for e in x.events)
    # Every hidden reactive coin is revealed by the end of its activation (R4).
    assert hidden == reveals > 0
    assert not any(
        isinstance(e, CoinsSelected | SecretChosen) for x in seen.entries for e in x.events
    )


# --- no leak: changing only a hidden choice changes nothing the others see ---------------


COMMITMENT = re.compile(rb'"((?:reaction_)?commitment|prev|head)":"[0-9a-f]{64}"')


def masked(data: bytes) -> bytes:
    """Blank every commitment digest, and the view log's chain hashes made from them.

    A commitment is the one thing a hidden secret changes in what others see:
    it is a salted hash of that secret, from which it cannot be recovered
    (test_commitments.py), and it must be public for the reveal to be checked.
    The view log's chain (`prev`, `head`) hashes the lines that hold them.
    """
    return COMMITMENT.sub(rb'"\1":"(digest)"', data)


def views_and_log(
    state: MatchState, entries: Entries, settings_: MatchSettings, viewer: str
) -> bytes:
    # The redacted log as a published view log file: the bytes a side would share.
    log = encode_view_log(redact_log(as_log(settings_, entries), viewer))  # type: ignore[arg-type]
    return masked(encode(pv(state, viewer)) + b"\n" + log)


def find_choice_point(
    settings_: MatchSettings, seed: int, kind: type[Command], pending: str
) -> tuple[MatchState, Entries, list[Command]] | None:
    """Play random bots to a random point where ``kind`` has two or more legal choices."""
    rng = random.Random(seed)
    wanted = rng.randrange(1, 8)
    state = start_match(settings_)
    bots = {1: RandomBot(seed), 2: RandomBot(seed + 1)}
    entries: Entries = []
    found = None
    while not state.is_over:
        if state.pending == pending:
            choices = options(state, kind)
            if len(choices) >= 2:
                found = (state, list(entries), rng.sample(choices, 2))
                wanted -= 1
                if wanted == 0:
                    return found
        seat = decider_seat(state)
        assert seat is not None
        command = command_for(bots[seat], state, seat)
        state, events = apply(state, command)
        entries.append((command, events))
    return found


def assert_same_for(
    a: tuple[MatchState, Entries],
    b: tuple[MatchState, Entries],
    settings_: MatchSettings,
    side: Side,
) -> None:
    """``side``'s player and the spectator see the same in both; so do their legal moves."""
    for viewer in (side, "spectator"):
        assert views_and_log(*a, settings_, viewer) == views_and_log(*b, settings_, viewer)
    seat = seat_of(a[0], side)
    assert legal_commands(a[0], seat) == legal_commands(b[0], seat)


def revealed_in(ea: tuple[Event, ...], eb: tuple[Event, ...], viewer: Side) -> bool:
    """True if either command revealed the reaction; then what came before it must match."""
    ka = next((i for i, e in enumerate(ea) if isinstance(e, ReactionRevealed)), None)
    kb = next((i for i, e in enumerate(eb) if isinstance(e, ReactionRevealed)), None)
    assert ka == kb
    if ka is None:
        return False
    for who in (viewer, "spectator"):
        assert masked(encode(redact(ea[:ka], who))) == masked(encode(redact(eb[:kb], who)))
    return True


def check_reaction_swap(seed: int) -> bool:
    """Two different hidden reactions, then the same play until one is revealed."""
    settings_ = MatchSettings(seed=seed)
    found = find_choice_point(settings_, seed, SelectReaction, "react")
    if found is None:
        return False
    state, prefix, (first, second) = found
    active = state.active
    assert active is not None
    reactive = other_side(active)
    sa, ea = apply(state, first)
    sb, eb = apply(state, second)
    if revealed_in(ea, eb, active):
        return True  # the activation ended and revealed it at once
    a, b = (sa, [*prefix, (first, ea)]), (sb, [*prefix, (second, eb)])
    # The owner does see a difference, so the check below is not empty.
    assert views_and_log(*a, settings_, reactive) != views_and_log(*b, settings_, reactive)
    bot = RandomBot(seed + 2)
    while True:
        assert_same_for(a, b, settings_, active)
        sa = a[0]
        if sa.activation is None or sa.is_over:
            return True
        seat = decider_seat(sa)
        assert seat is not None
        if seat == seat_of(sa, reactive):
            assert sa.pending == "offer"
            command: Command = DeclineReaction(player=seat)
        else:
            command = command_for(bot, sa, seat)
        sa, ea = apply(a[0], command)
        sb, eb = apply(b[0], command)
        if revealed_in(ea, eb, active):
            return True
        a, b = (sa, [*a[1], (command, ea)]), (sb, [*b[1], (command, eb)])


def check_selection_swap(seed: int) -> bool:
    """Two different hidden active selections from the same state."""
    settings_ = MatchSettings(seed=seed)
    found = find_choice_point(settings_, seed, SelectCoins, "select")
    if found is None:
        return False
    state, prefix, (first, second) = found
    assert state.active is not None
    sa, ea = apply(state, first)
    sb, eb = apply(state, second)
    assert_same_for(
        (sa, [*prefix, (first, ea)]),
        (sb, [*prefix, (second, eb)]),
        settings_,
        other_side(state.active),
    )
    return True


def check_secret_swap(seed: int) -> bool:
    """Two different set-up secrets, then the same play until it is revealed."""
    heroes, adversaries = SECRET_PAIRINGS[seed % len(SECRET_PAIRINGS)]
    settings_ = MatchSettings(heroes=heroes, adversaries=adversaries, seed=seed)
    state, prefix = play_until(settings_, lambda s: s.pending == "secret", seed)
    if state.pending != "secret":
        return False
    choices = options(state, ChooseSecret)
    by_name: dict[str, list[Command]] = {}
    for c in choices:
        assert isinstance(c, ChooseSecret)
        by_name.setdefault(c.name, []).append(c)
    pair = next((cs for cs in by_name.values() if len(cs) >= 2), None)
    if pair is None:
        return False
    first, second = random.Random(seed).sample(pair, 2)
    owner = decider_seat(state)
    assert owner is not None
    owner_side = state.side_of(owner)
    assert owner_side is not None
    sa, ea = apply(state, first)
    sb, eb = apply(state, second)
    a, b = (sa, [*prefix, (first, ea)]), (sb, [*prefix, (second, eb)])
    bots = {1: RandomBot(seed + 3), 2: RandomBot(seed + 4)}
    for _ in range(300):
        assert_same_for(a, b, settings_, other_side(owner_side))
        if a[0].is_over:
            break
        seat = decider_seat(a[0])
        assert seat is not None
        command = command_for(bots[seat], a[0], seat)
        sa, ea = apply(a[0], command)
        try:
            sb, eb = apply(b[0], command)
        except multiversus_core.IllegalCommandError:
            # Only the owner's own commands may depend on their secret.
            assert seat == owner
            break
        if any(isinstance(e, SecretRevealed) and e.side == owner_side for e in (*ea, *eb)):
            break
        a, b = (sa, [*a[1], (command, ea)]), (sb, [*b[1], (command, eb)])
    return True


@PROPERTY
@given(seed=SEEDS)
def test_no_leak_a_hidden_reaction_changes_nothing_the_active_player_sees(seed: int) -> None:
    check_reaction_swap(seed)


@PROPERTY
@given(seed=SEEDS)
def test_no_leak_a_hidden_selection_changes_nothing_the_reactive_player_sees(seed: int) -> None:
    check_selection_swap(seed)


@PROPERTY
@given(seed=SEEDS)
def test_no_leak_a_set_up_secret_changes_nothing_the_opponent_sees(seed: int) -> None:
    check_secret_swap(seed)


@pytest.mark.parametrize("seed", [1, 2, 3, 11])
def test_no_leak_on_fixed_matches(seed: int) -> None:
    assert check_reaction_swap(seed)
    assert check_selection_swap(seed)
    assert check_secret_swap(seed)
