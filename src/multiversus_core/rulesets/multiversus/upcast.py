"""Multiversus logs of format versions 1 to 3, read as version 4 (:class:`.records.Upcast`).

Multiversus logs carry no rules version: their payload changed with the log
format. Version 2 chained the entries, version 3 committed to every secret,
version 4 let chance be secret; each step brings a log one version on.
"""

from __future__ import annotations

import re
from typing import Final

import msgspec

from multiversus_core.engine.records import Entries, LogEntry, LogHeader, Upcast
from multiversus_core.rulesets.multiversus.commands import Command
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
from multiversus_core.rulesets.multiversus.evolve import evolve, initial_state
from multiversus_core.rulesets.multiversus.secrets import reaction_reveal, seal, selection_value
from multiversus_core.rulesets.multiversus.settings import MatchSettings
from multiversus_core.rulesets.multiversus.state import MatchState


def _upcast_1_to_2(
    header: LogHeader[MatchSettings], entries: Entries
) -> tuple[LogHeader[MatchSettings], Entries]:
    """Version 1 to 2: the entries gain `seq` and `prev`, computed when encoded; no end record."""
    return msgspec.structs.replace(header, version=2), entries


def _upcast_2_to_3(
    header: LogHeader[MatchSettings], entries: Entries
) -> tuple[LogHeader[MatchSettings], Entries]:
    """Version 2 to 3: every secret gains the commitment and salt version 3 records.

    Version 2 kept no commitments, so the salts are derived from the seed as
    in a ``salts="seed"`` match (the settings' default, so the header says
    the log is not secret), and every commitment is computed from the secret
    the log shows. A match that ended in the middle of an activation also
    gains the reveal of its reactive selection, which version 3 makes at the
    end of the match. Events that cannot be folded are left as they are, for
    :func:`~multiversus_core.engine.log.replay` to report.
    """
    header = msgspec.structs.replace(header, version=3)
    state = initial_state(header.settings)
    upcast: list[LogEntry[Command, Event]] = []
    try:
        for entry in entries:
            events: list[Event] = []
            for event in entry.events:
                if isinstance(event, MatchEnded):
                    reveal = reaction_reveal(state)
                    if reveal is not None:
                        events.append(reveal)
                        state = evolve(state, reveal)
                event = _with_commitment(state, event)
                events.append(event)
                state = evolve(state, event)
            upcast.append(LogEntry(command=entry.command, events=tuple(events)))
    except Exception:  # an edited log: keep the rest as it was
        upcast.extend(entries[len(upcast) :])
    return header, tuple(upcast)


def _with_commitment(state: MatchState, event: Event) -> Event:
    """Return ``event`` with the commitment or salt a version 3 engine gives it from the seed."""
    replace = msgspec.structs.replace
    match event:
        case CoinsSelected(side=side, coin=coin, actions=actions):
            commitment, salt = seal(state, "coins", side, selection_value(coin, actions), None)
            return replace(event, commitment=commitment, salt=salt)
        case ReactionSelected(side=side, coin=coin, actions=actions) if coin is not None:
            commitment, salt = seal(state, "reaction", side, selection_value(coin, actions), None)
            return replace(event, commitment=commitment, salt=salt)
        case SecretChosen(side=side, name=name, choice=choice):
            commitment, salt = seal(state, "secret", side, (choice,), None, name=name)
            return replace(event, commitment=commitment, salt=salt)
        case CoinsRevealed() if state.activation is not None:
            return replace(event, salt=state.activation.salt)
        case ReactionRevealed() if state.activation is not None:
            return replace(event, salt=state.activation.reaction_salt)
        case SecretRevealed(side=side, name=name):
            salt = next((s.salt for s in state.secrets if (s.side, s.name) == (side, name)), "")
            return replace(event, salt=salt)
        case _:
            return event


def _upcast_3_to_4(
    header: LogHeader[MatchSettings], entries: Entries
) -> tuple[LogHeader[MatchSettings], Entries]:
    """Version 3 to 4: the settings gain ``chance`` and the end record its reveal, both empty.

    Version 3 kept chance public (the settings' seed), as version 4 does when
    ``chance`` is empty; nothing else changes.
    """
    return msgspec.structs.replace(header, version=4), entries


V3_FIELDS: Final = re.compile(rb',"(?:commitment|salt|salts)":(?:"[^"]*"|null)')
"""The fields version 3 added: a line of an older version is canonical without them."""
V4_FIELDS: Final = re.compile(rb',"chance":(?:"[^"]*"|null|\{[^{}]*\})')
"""The fields version 4 added: a line of an older version is canonical without them."""

UPCASTS: Final[dict[int, Upcast]] = {
    1: Upcast(_upcast_1_to_2),
    2: Upcast(_upcast_2_to_3, V3_FIELDS),
    3: Upcast(_upcast_3_to_4, V4_FIELDS),
}
"""The steps by the format version they read."""
