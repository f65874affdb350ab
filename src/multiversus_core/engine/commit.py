"""Commit and reveal, for every game: how a hidden choice enters a log before anyone may see it.

A secret is recorded as a *commitment* when it is chosen: the lower-case hex
SHA-256 of a 32-byte salt followed by the canonical encoding of an *opening*,
a struct the game defines that binds the secret to where it was chosen (the
match, the round, the seat). An opening's last field is ``value``, a tuple of
strings: the secret itself. The reveal later gives the salt; anyone can then
recompute the digest and compare in constant time (:func:`opens`).

Salts come from one of two sources:

- ``"secrets"``: each secret command carries a fresh salt (:func:`fresh_salt`,
  from :mod:`secrets`). Real play uses this.
- ``"seed"``: the salt is derived from the match seed (:func:`seeded_salt`),
  so a log made from a seed is reproducible byte for byte. Anyone who knows
  the seed can open every commitment: such a log is **not secret**.

``docs/log-format.md`` specifies the bytes.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import re
import secrets
from typing import Final, Literal, Protocol, TypeAlias

import msgspec

from multiversus_core.engine.errors import InvalidCommandError

SaltSource: TypeAlias = Literal["seed", "secrets"]
"""Where the salts of a match's commitments come from."""

SALT_BYTES: Final = 32
"""A salt is 32 random bytes, written as 64 lower-case hex digits."""

STAND_IN_SALT: Final = "0" * (2 * SALT_BYTES)
"""The salt of a secret no one chose for real: one a filled-in view log never reveals
(:mod:`.viewlog`), or one a search imagines in a sampled state. Its commitment is never
compared."""

_HEX_SALT: Final = re.compile(r"[0-9a-f]{64}")
_encoder: Final = msgspec.json.Encoder()


class Opening(Protocol):
    """What a commitment binds: any frozen struct whose last field is ``value``."""

    @property
    def value(self) -> tuple[str, ...]:
        """The secret itself."""
        ...


def commit(salt: str, what: msgspec.Struct) -> str:
    """Return the commitment to the opening ``what`` under ``salt`` (64 hex digits)."""
    return hashlib.sha256(bytes.fromhex(salt) + _encoder.encode(what)).hexdigest()


def commit_blank(key: bytes, blank: bytes, value: tuple[str, ...]) -> str:
    """Return :func:`commit` of an opening from the encoding of it with an empty value.

    ``blank`` ends with ``[]}``, where the value's encoding goes: one encoding
    then serves both the seeded salt and the commitment.
    """
    return hashlib.sha256(key + blank[:-3] + _encoder.encode(value) + b"}").hexdigest()


def opens(commitment: str, salt: str, what: msgspec.Struct) -> bool:
    """True if ``salt`` and ``what`` open ``commitment``; compares in constant time."""
    if not is_salt(salt):
        return False
    return hmac.compare_digest(commitment.encode(), commit(salt, what).encode())


def is_salt(text: str) -> bool:
    """True if ``text`` is a salt as logs write it: 64 lower-case hex digits."""
    return _HEX_SALT.fullmatch(text) is not None


def check_salt(
    salt: str | None,
    source: SaltSource,
    *,
    salted: str = "its secrets",
    needs: str = "the command needs a fresh salt",
    seeded: str = "",
) -> None:
    """Check a secret command's salt against the match's salt source, for any game.

    ``salted`` names what the game salts ("its bids"), ``needs`` says what a command
    without a salt lacks, and ``seeded`` (if given) how else to start the match, in the
    messages.

    :raises InvalidCommandError: if the salt is malformed, missing in a ``"secrets"``
        match, or given in a ``"seed"`` match.
    """
    if salt is not None and not is_salt(salt):
        raise InvalidCommandError("a salt is 64 lower-case hex digits (32 bytes)")
    if source == "secrets" and salt is None:
        raise InvalidCommandError(f"this match salts {salted} from `secrets`: {needs}")
    if source == "seed" and salt is not None:
        raise InvalidCommandError(
            f"this match derives its salts from the seed: leave the salt out{seeded}"
        )


def fresh_salt() -> str:
    """Return a fresh salt from :mod:`secrets` (32 bytes, hex)."""
    return secrets.token_hex(SALT_BYTES)


def seeded_salt(seed: int, what: msgspec.Struct) -> str:
    """Return the salt derived from the match seed for the secret ``what`` opens.

    HMAC-SHA256 keyed with the seed (8 bytes, big-endian) over the opening's
    encoding with an empty ``value``: a function of where the secret was
    chosen, never of the secret itself.
    """
    return seeded_key(seed, _encoder.encode(msgspec.structs.replace(what, value=()))).hex()


def seeded_key(seed: int, blank: bytes) -> bytes:
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


def encode_blank(what: msgspec.Struct) -> bytes:
    """Return the canonical encoding of an opening (its value should be empty)."""
    return _encoder.encode(what)
