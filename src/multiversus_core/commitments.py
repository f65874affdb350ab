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
import hmac
import re
import secrets as _secrets
from typing import Final, Literal, TypeAlias

import msgspec

from multiversus_core.builder import Builder
from multiversus_core.commands import ChooseSecret, Command, SelectCoins, SelectReaction
from multiversus_core.errors import InvalidCommandError
from multiversus_core.events import ReactionRevealed, SecretRevealed
from multiversus_core.settings import Chance, MatchSettings
from multiversus_core.state import MatchState, Secret
from multiversus_core.terms import ActionKind, Seat, Side
from multiversus_core.units import CoinId

SecretKind: TypeAlias = Literal["coins", "reaction", "secret"]
"""What a commitment hides: the active selection, the reactive selection, or a set-up secret."""

SALT_BYTES: Final = 32
"""A salt is 32 random bytes, written as 64 lower-case hex digits."""

_HEX_SALT: Final = re.compile(r"[0-9a-f]{64}")
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


def commit(salt: str, what: Opening) -> str:
    """Return the commitment to ``what`` under ``salt`` (64 hex digits)."""
    return hashlib.sha256(bytes.fromhex(salt) + _encoder.encode(what)).hexdigest()


def opens(commitment: str, salt: str, what: Opening) -> bool:
    """True if ``salt`` and ``what`` open ``commitment``; compares in constant time."""
    if not is_salt(salt):
        return False
    return hmac.compare_digest(commitment.encode(), commit(salt, what).encode())


def is_salt(text: str) -> bool:
    """True if ``text`` is a salt as logs write it: 64 lower-case hex digits."""
    return _HEX_SALT.fullmatch(text) is not None


def seeded_salt(seed: int, what: Opening) -> str:
    """Return the salt derived from the match seed for the secret ``what`` opens.

    HMAC-SHA256 keyed with the seed (8 bytes, big-endian) over the opening's
    encoding with an empty ``value``: a function of where the secret was
    chosen, never of the secret itself.
    """
    return _seeded_salt(seed, _encoder.encode(msgspec.structs.replace(what, value=()))).hex()


def _seeded_salt(seed: int, blank: bytes) -> bytes:
    """The bytes of :func:`seeded_salt`, from the encoding of the opening with an empty value."""
    inner, outer = _hmac_pads(seed)
    inner = inner.copy()
    inner.update(blank)
    outer = outer.copy()
    outer.update(inner.digest())
    return outer.digest()


@functools.lru_cache(maxsize=16)
def _hmac_pads(seed: int) -> tuple[hashlib._Hash, hashlib._Hash]:
    """HMAC-SHA256 (RFC 2104) keyed with the seed, up to the message: SHA-256 begun with the
    key padded and masked for the inner and for the outer hash.

    A secret is sealed at every selection of a match: copying these is much
    quicker than :func:`hmac.digest`, which prepares the key every time.
    """
    key = seed.to_bytes(8, "big").ljust(hashlib.sha256().block_size, b"\0")
    inner = hashlib.sha256(bytes(byte ^ 0x36 for byte in key))
    outer = hashlib.sha256(bytes(byte ^ 0x5C for byte in key))
    return inner, outer


def fresh_salt() -> str:
    """Return a fresh salt from :mod:`secrets` (32 bytes, hex)."""
    return _secrets.token_hex(SALT_BYTES)


def chance_commitment(chance: Chance) -> str:
    """Return the commitment to a chance seed: SHA-256 of the salt's 32 bytes, then the seed
    as 8 bytes big-endian (64 hex digits)."""
    return hashlib.sha256(bytes.fromhex(chance.salt) + chance.seed.to_bytes(8, "big")).hexdigest()


def opens_chance(commitment: str, chance: Chance) -> bool:
    """True if ``chance`` opens ``commitment``; compares in constant time."""
    if not is_salt(chance.salt) or not 0 <= chance.seed < 2**64:
        return False
    return hmac.compare_digest(commitment.encode(), chance_commitment(chance).encode())


def fresh_chance() -> Chance:
    """Return a fresh secret chance seed and salt, from :mod:`secrets`."""
    return Chance(seed=_secrets.randbits(64), salt=fresh_salt())


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
    """Check a secret command's salt against the match's salt source.

    :raises InvalidCommandError: if the salt is malformed, missing in a
        ``"secrets"`` match, or given in a ``"seed"`` match.
    """
    if salt is not None and not is_salt(salt):
        raise InvalidCommandError("a salt is 64 lower-case hex digits (32 bytes)")
    if settings.salts == "secrets" and salt is None:
        raise InvalidCommandError(
            "this match salts its secrets from `secrets`: the command needs a fresh salt "
            "(multiversus_core.salted adds one)"
        )
    if settings.salts == "seed" and salt is not None:
        raise InvalidCommandError(
            "this match derives its salts from the seed: leave the salt out "
            "(or start the match with salts='secrets')"
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
        key = _seeded_salt(settings.seed, blank)
        salt = key.hex()
    else:
        key = bytes.fromhex(salt)
    # The value is the opening's last field: the blank encoding ends with `[]}`, where the
    # value's encoding goes.
    encoded = blank[:-3] + _encoder.encode(value) + b"}"
    return hashlib.sha256(key + encoded).hexdigest(), salt


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
