"""Bot matches of any game: each seat's bot given its view and legal commands only.

A bot is given its seat's view and the legal commands, never the referee's
state, so it cannot peek at another seat's hidden choices by accident; its
randomness is its own seed's, never the match's chance.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from multiversus_core.engine.bots import Bot
from multiversus_core.engine.chance import Chance
from multiversus_core.engine.errors import IllegalCommandError
from multiversus_core.engine.log import LogEntry, MatchLog, new_header
from multiversus_core.engine.position import start_position, without_chance, write_position
from multiversus_core.engine.registry import ruleset_of
from multiversus_core.engine.ruleset import Seat

__all__ = ["play_from", "play_match"]


def play_match(
    settings: Any, bots: Mapping[Seat, Bot], chance: Chance | None = None
) -> tuple[MatchLog, Any]:
    """Play a whole match of any game with one bot per seat; return its log and final state.

    For example, ``play_match(SealedBidsSettings(seed=7), {1: bot, 2: bot, 3: bot})``.
    The game is the one whose settings these are. Each bot gets its seat's view
    and legal commands only; where several seats decide at once, the first
    decides first. Secret commands get fresh salts when the settings ask for
    them; ``chance`` is the secret chance seed of settings that commit to one
    (:func:`~multiversus_core.engine.ruleset.with_secret_chance`).

    :raises UnknownGameError: if no installed game has settings of this type.
    :raises IllegalCommandError: if a bot chooses a command that is not legal.
    """
    state = ruleset_of(settings).initial_state(settings, chance)
    entries, state = _play(state, bots)
    log = MatchLog(header=new_header(settings), entries=entries, chance=chance)
    return log, state


def play_from(
    position: str, bots: Mapping[Seat, Bot], *, seed: int | None = None
) -> tuple[MatchLog, Any]:
    """Play a match of any game on from a position (:mod:`.position`) with one bot per seat;
    return its log and final state.

    The match gets a fresh secret chance seed, revealed by the log's end record,
    unless ``seed`` gives a public one. The log's header records the position
    without its chance seed, so that the log replays and verifies from it.

    :raises PositionError: if the position cannot be read.
    :raises IllegalCommandError: if a bot chooses a command that is not legal.
    """
    state, chance = start_position(position, seed=seed)
    header = new_header(state.settings, write_position(without_chance(state)))
    entries, state = _play(state, bots)
    # A log without entries has no end record to reveal its chance by (a match already over).
    return MatchLog(header=header, entries=entries, chance=chance if entries else None), state


def _play(state: Any, bots: Mapping[Seat, Bot]) -> tuple[tuple[LogEntry[Any, Any], ...], Any]:
    """Play from ``state`` to the end: each command given and its events, and the last state."""
    ruleset = ruleset_of(state.settings)
    settings = state.settings
    entries = []
    while seats := ruleset.to_act(state):
        seat = seats[0]
        legal = ruleset.legal_commands(state, seat)
        command = bots[seat].choose(ruleset.view(state, ruleset.viewer_of(state, seat)), legal)
        if command not in legal:
            raise IllegalCommandError(f"the bot chose a command that is not legal: {command!r}")
        command = ruleset.salted(command, settings)
        events, state = ruleset.decide(command, state)
        entries.append(LogEntry(command=command, events=events))
    return tuple(entries), state
