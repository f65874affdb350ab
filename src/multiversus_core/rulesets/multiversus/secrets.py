"""Commit and reveal: how a hidden choice enters the log before anyone may see it (R23).

Each secret (a coin selection, a reactive selection, a set-up secret) is
recorded as a *commitment* when it is chosen: the lower-case hex SHA-256 of a
32-byte salt followed by the canonical encoding of an :class:`Opening`, which
binds the secret to the match, the round, the activation and the player. The
reveal later gives the salt; anyone can then recompute the digest and compare
(in constant time, :func:`opens`). ``docs/log-format.md`` specifies the bytes.

Salts come from one of two sources, named by ``MatchSettings.salts``:

- ``"secrets"``: each secret command carries a fresh salt (:func:`fresh_salt`,
  from :mod:`secrets`; :func:`salted` fills it in). Real play uses this.
- ``"seed"``: the salt is derived from the match seed (:func:`seeded_salt`), so
  a log made from a seed is reproducible byte for byte. Anyone who knows the
  seed can open every commitment: such a log is **not secret**.

Chance works the same way (:class:`Chance`): in real play the seed of every
die roll and coin flip is drawn fresh by :func:`fresh_chance`, the settings
hold only :func:`chance_commitment` of it, and the end of the match reveals
it, so that anyone can check every roll against it afterwards.

Only :func:`fresh_salt` and :func:`fresh_chance` read randomness; the rules never do (a salt reaches
``decide`` inside the command, as a physical die roll does).
"""

from __future__ import annotations

import functools
import hashlib
from typing import Final, Literal, TypeAlias

import msgspec

from multiversus_core.engine.chance import chance_commitment, fresh_chance, opens_chance
from multiversus_core.engine.commit import (
    SALT_BYTES,
    commit,
    commit_blank,
    fresh_salt,
    is_salt,
    opens,
    seeded_key,
    seeded_salt,
)
from multiversus_core.engine.commit import check_salt as engine_check_salt
from multiversus_core.rulesets.multiversus.builder import Builder
from multiversus_core.rulesets.multiversus.commands import (
    ChooseSecret,
    Command,
    SelectCoins,
    SelectReaction,
)
from multiversus_core.rulesets.multiversus.events import ReactionRevealed, SecretRevealed
from multiversus_core.rulesets.multiversus.settings import Chance, MatchSettings
from multiversus_core.rulesets.multiversus.state import MatchState, Secret
from multiversus_core.rulesets.multiversus.terms import ActionKind, Seat, Side
from multiversus_core.rulesets.multiversus.units import CoinId

__all__ = [
    "SALT_BYTES",
    "Chance",
    "Opening",
    "SecretCommand",
    "SecretKind",
    "chance_commitment",
    "check_salt",
    "commit",
    "fresh_chance",
    "fresh_salt",
    "is_salt",
    "match_id",
    "opening",
    "opens",
    "opens_chance",
    "reaction_reveal",
    "reveal_reaction",
    "reveal_secret",
    "salted",
    "seal",
    "seeded_salt",
    "selection_value",
]

SecretKind: TypeAlias = Literal["coins", "reaction", "secret"]
"""What a commitment hides: the active selection, the reactive selection, or a set-up secret."""

_encoder: Final = msgspec.json.Encoder()


class Opening(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """What a commitment binds: the secret and exactly where it was chosen.

    Encoded as compact JSON with the fields in this order (the canonical
    encoding the commitment hashes).
    """

    match: str
    """:func:`match_id` of the match's settings."""
    round: int
    """The round (0 at set-up)."""
    activation: int
    """The activation's number in the match, from 1 (0 at set-up)."""
    seat: Seat
    """The seat of the player who chose."""
    side: Side
    """The side that player controls."""
    kind: SecretKind
    name: str
    """A set-up secret's name (public); empty for coin selections."""
    value: tuple[str, ...]
    """The secret: ``[coin, *actions]`` for a selection, ``[choice]`` for a set-up secret."""


@functools.lru_cache(maxsize=16)
def match_id(settings: MatchSettings) -> str:
    """Return the hex SHA-256 of the settings' canonical encoding (as in the log header).

    Settings without a chance commitment are hashed without their empty
    ``chance`` field, as format version 3 wrote them, so that commitments made
    before version 4 still open. Every commitment of a match binds its id, so
    the ids of the last few settings are kept (settings are immutable: an id
    never goes stale).
    """
    encoded = _encoder.encode(settings)
    if not settings.chance:
        encoded = encoded.removesuffix(_NO_CHANCE) + b"}"
    return hashlib.sha256(encoded).hexdigest()


_NO_CHANCE: Final = b',"chance":""}'
"""How settings without a chance commitment end: the field version 4 added."""


def opening(
    settings: MatchSettings,
    *,
    round: int,
    activation: int,
    seat: Seat,
    side: Side,
    kind: SecretKind,
    value: tuple[str, ...],
    name: str = "",
) -> Opening:
    """Return the opening of a secret chosen at this point of the match."""
    return Opening(
        match=match_id(settings),
        round=round,
        activation=activation,
        seat=seat,
        side=side,
        kind=kind,
        name=name,
        value=value,
    )


def selection_value(coin: CoinId, actions: tuple[ActionKind, ...]) -> tuple[str, ...]:
    """Return the value a coin selection commits to: the unit coin, then the action coins."""
    return (coin, *actions)


SecretCommand: TypeAlias = SelectCoins | SelectReaction | ChooseSecret
"""A command that carries a secret, and so a salt."""


def salted(command: Command, settings: MatchSettings) -> Command:
    """Return ``command`` with a fresh salt if it carries a secret that needs one.

    A front end calls this on every command it is about to apply: in a match
    whose salts come from ``secrets``, a secret command without a salt is
    refused. Other commands, and every command of a ``"seed"`` match, come
    back unchanged.
    """
    if settings.salts != "secrets":
        return command
    match command:
        case SelectCoins(salt=None) | SelectReaction(salt=None) | ChooseSecret(salt=None):
            return msgspec.structs.replace(command, salt=fresh_salt())
        case _:
            return command


def check_salt(salt: str | None, settings: MatchSettings) -> None:
    """Check a secret command's salt against the match's salt source
    (:func:`multiversus_core.engine.commit.check_salt`).

    :raises InvalidCommandError: if the salt is malformed, missing in a
        ``"secrets"`` match, or given in a ``"seed"`` match.
    """
    engine_check_salt(
        salt,
        settings.salts,
        needs="the command needs a fresh salt (multiversus_core.salted adds one)",
        seeded=" (or start the match with salts='secrets')",
    )


def seal(
    state: MatchState,
    kind: SecretKind,
    side: Side,
    value: tuple[str, ...],
    salt: str | None,
    *,
    name: str = "",
) -> tuple[str, str]:
    """Return ``(commitment, salt)`` for a secret ``side`` chooses now.

    ``salt`` is the command's (a ``"secrets"`` match); None derives it from the seed.
    """
    seat = state.seat_of(side)
    assert seat is not None  # secrets are chosen once sides are
    act = state.activation
    if kind == "secret":
        round_, number = 0, 0
    elif kind == "coins":
        round_, number = state.round, state.activations + 1
    else:
        assert act is not None
        round_, number = state.round, act.number
    # One encoding serves both the seeded salt (the opening without its value) and the
    # commitment (the same with it): the same bytes as seeded_salt and commit, encoding
    # the opening only once.
    settings = state.settings
    blank = _encoder.encode(
        opening(
            settings,
            round=round_,
            activation=number,
            seat=seat,
            side=side,
            kind=kind,
            value=(),
            name=name,
        )
    )
    if salt is None:
        key = seeded_key(settings.seed, blank)
        salt = key.hex()
    else:
        key = bytes.fromhex(salt)
    # The value is the opening's last field: the blank encoding ends with `[]}`, where the
    # value's encoding goes.
    return commit_blank(key, blank, value), salt


def reaction_reveal(state: MatchState) -> ReactionRevealed | None:
    """Return the reveal of the reactive selection, or None if no coin is hidden (R4)."""
    act = state.activation
    if act is None or act.reaction_coin is None or act.reaction_revealed:
        return None
    reactive: Side = "adversaries" if act.side == "heroes" else "heroes"
    return ReactionRevealed(
        side=reactive,
        coin=act.reaction_coin,
        actions=act.reaction_actions,
        salt=act.reaction_salt,
    )


def reveal_reaction(b: Builder) -> None:
    """Reveal the reactive selection, if a coin was selected and is still hidden (R4)."""
    reveal = reaction_reveal(b.state)
    if reveal is not None:
        b.emit(reveal)


def reveal_secret(b: Builder, secret: Secret) -> None:
    """Reveal a set-up secret with the salt that opens its commitment (R23)."""
    b.emit(
        SecretRevealed(side=secret.side, name=secret.name, choice=secret.choice, salt=secret.salt)
    )
