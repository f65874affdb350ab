"""Replaying a view log: a side's published view replays as that side saw the match (R4, R23).

Each hidden selection or secret is filled in from the reveal that opens it
later in the view log; what the log never reveals gets a stand-in. Either
way, every state of the replay, seen as the view log's viewer or as the
public, is exactly what they saw in the match.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from multiversus_core import MatchSettings
from multiversus_core.engine.errors import LogError
from multiversus_core.engine.log import LogEntry, MatchLog, read_log
from multiversus_core.engine.viewlog import decode_view_log, encode_view_log, replayable
from multiversus_core.rulesets.multiversus.events import (
    CoinsRevealed,
    CoinsSelected,
    SecretChosen,
    TeamsChosen,
)
from multiversus_core.rulesets.multiversus.evolve import evolve, initial_state
from multiversus_core.rulesets.multiversus.state import MatchState
from multiversus_core.rulesets.multiversus.views import (
    HiddenChooseSecret,
    HiddenCoinsSelected,
    HiddenSecretChosen,
    PlayerViewer,
    RedactedEntry,
    RedactedLog,
    redact_log,
    view,
)
from tests.support import bot_match
from tests.test_viewlog import GOLDEN, ROOT

PAIRINGS = [
    (heroes, adversaries)
    for heroes in ("banner-knight", "witch-hunters")
    for adversaries in ("black-goblins", "smogon", "swartzblak")
]
VIEWERS: tuple[PlayerViewer, ...] = ("heroes", "adversaries", "spectator")


def entries_with(entries: Sequence[LogEntry | RedactedEntry], kind: type) -> list[int]:
    """The 1-based numbers of the entries holding an event of this kind."""
    return [
        number
        for number, entry in enumerate(entries, start=1)
        if any(isinstance(event, kind) for event in entry.events)
    ]


def states(settings: MatchSettings, entries: tuple[LogEntry, ...]) -> Iterator[MatchState]:
    """The referee states before the first entry and after each."""
    state = initial_state(settings)
    yield state
    for entry in entries:
        for event in entry.events:
            state = evolve(state, event)
        yield state


def check_replays_as_seen(log: MatchLog, viewer: PlayerViewer) -> tuple[int, ...]:
    """Check a view log of ``log`` replays as ``viewer`` and the public saw it; return stand-ins."""
    shown = redact_log(log, viewer)
    replay = replayable(decode_view_log(encode_view_log(shown)))
    assert replay.viewer == viewer
    assert replay.header == log.header
    assert len(replay.entries) == len(log.entries)
    # Redacted again, the replay is the view log it came from.
    again = MatchLog(header=log.header, entries=replay.entries)
    assert redact_log(again, viewer) == shown
    settings = log.header.settings
    pairs = zip(states(settings, replay.entries), states(settings, log.entries), strict=True)
    for number, (replayed, real) in enumerate(pairs):
        assert view(replayed, viewer) == view(real, viewer), f"as {viewer} after entry {number}"
        assert view(replayed, "spectator") == view(real, "spectator"), f"after entry {number}"
    if not replay.stand_ins:  # everything hidden was revealed: the referee's states too
        assert replayed == real
    return replay.stand_ins


@pytest.mark.parametrize("path", sorted((ROOT / "replays").glob("*.jsonl")), ids=lambda p: p.stem)
def test_every_golden_view_log_replays_as_seen_with_nothing_stood_in(path: Path) -> None:
    # A finished match reveals every selection and every secret.
    log = read_log(path)
    for viewer in VIEWERS:
        assert check_replays_as_seen(log, viewer) == ()


def test_a_selection_the_log_never_reveals_gets_a_stand_in_the_viewer_cannot_tell() -> None:
    log = read_log(GOLDEN)
    number = entries_with(log.entries, CoinsSelected)[0]
    cut = MatchLog(header=log.header, entries=log.entries[:number])
    active = next(e for e in cut.entries[-1].events if isinstance(e, CoinsSelected)).side
    other: PlayerViewer = "heroes" if active == "adversaries" else "adversaries"
    # (The other side's set-up secrets, not revealed yet, have stand-ins too.)
    assert check_replays_as_seen(cut, other)[-1] == number
    assert number not in check_replays_as_seen(cut, active)  # its own selection, it knows


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    pairing=st.sampled_from(PAIRINGS),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    viewer=st.sampled_from(VIEWERS),
    cut=st.floats(min_value=0, max_value=1),
)
def test_any_view_log_replays_as_its_viewer_and_the_public_saw_the_match(
    pairing: tuple[str, str], seed: int, viewer: PlayerViewer, cut: float
) -> None:
    heroes, adversaries = pairing
    log, _ = bot_match(MatchSettings(heroes=heroes, adversaries=adversaries, seed=seed), seed ^ 1)
    kept = round(cut * len(log.entries))
    check_replays_as_seen(MatchLog(header=log.header, entries=log.entries[:kept]), viewer)


def test_the_referees_view_is_not_replayed_from_a_view() -> None:
    shown = redact_log(read_log(GOLDEN), "referee")
    with pytest.raises(ValueError, match="replay the match log itself"):
        replayable(shown)


def edited(shown: RedactedLog, number: int, entry: RedactedEntry) -> RedactedLog:
    entries = list(shown.entries)
    entries[number - 1] = entry
    return RedactedLog(viewer=shown.viewer, header=shown.header, entries=tuple(entries))


def test_a_reveal_edited_to_a_coin_no_one_has_names_the_selections_line() -> None:
    log = read_log(GOLDEN)
    shown = redact_log(log, "spectator")
    number = entries_with(shown.entries, HiddenCoinsSelected)[0]
    # The hidden selection takes a coin that is not in the stash: it cannot follow.
    reveal_at = next(n for n in entries_with(shown.entries, CoinsRevealed) if n > number)
    revealing = shown.entries[reveal_at - 1]
    events = tuple(
        CoinsRevealed(side=e.side, coin="nobody-red-1", actions=e.actions, salt=e.salt)
        if isinstance(e, CoinsRevealed)
        else e
        for e in revealing.events
    )
    bad = edited(shown, reveal_at, RedactedEntry(command=revealing.command, events=events))
    with pytest.raises(LogError) as caught:
        replayable(bad, "view.jsonl")
    error = caught.value
    assert (error.path, error.line, error.code) == ("view.jsonl", number + 1, "bad_event")
    data = encode_view_log(bad)
    assert error.offset == sum(len(line) + 1 for line in data.split(b"\n")[:number])
    assert "coins_selected" in str(error)


def test_a_hidden_command_without_its_hidden_event_names_its_line() -> None:
    shown = redact_log(read_log(GOLDEN), "spectator")
    number, entry = next(
        (n, e)
        for n, e in enumerate(shown.entries, start=1)
        if isinstance(e.command, HiddenChooseSecret)
    )
    events = tuple(e for e in entry.events if not isinstance(e, HiddenSecretChosen))
    bad = edited(shown, number, RedactedEntry(command=entry.command, events=events))
    with pytest.raises(
        LogError, match="a hidden_choose_secret command, but its entry has no hidden event"
    ) as caught:
        replayable(bad)
    assert (caught.value.line, caught.value.code) == (number + 1, "bad_event")


def test_a_secret_not_revealed_yet_gets_the_first_option_offered_as_its_stand_in() -> None:
    log = read_log(GOLDEN)
    last_secret = entries_with(log.entries, SecretChosen)[-1]
    cut = MatchLog(header=log.header, entries=log.entries[:last_secret])
    assert check_replays_as_seen(cut, "spectator")
    replay = replayable(redact_log(cut, "spectator"))
    chosen = [e for entry in replay.entries for e in entry.events if isinstance(e, SecretChosen)]
    real = [e for entry in cut.entries for e in entry.events if isinstance(e, SecretChosen)]
    offers = {
        (offer.side, offer.name): offer.options
        for entry in cut.entries
        for event in entry.events
        if isinstance(event, TeamsChosen)
        for offer in event.secrets
    }
    assert len(chosen) == len(real) == 2
    for stood, truth in zip(chosen, real, strict=True):
        assert (stood.side, stood.name, stood.commitment) == (
            truth.side,
            truth.name,
            truth.commitment,
        )
        assert (stood.choice, stood.salt) == (offers[stood.side, stood.name][0], "")
