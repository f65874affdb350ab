"""Why commitments are salted: time a brute-force search for a hidden coin selection.

An unsalted hash of a coin selection falls to enumeration: a side has a few
hundred possible selections, and hashing them all takes milliseconds. With
a secret 32-byte salt the same search must also guess the salt, 2**256
possibilities per candidate; the script shows the search coming up empty.
Run::

    PYTHONPATH=src python benchmarks/brute_force.py
"""

from __future__ import annotations

import hashlib
import itertools
import time

import msgspec

from multiversus_core import (
    MatchSettings,
    SelectCoins,
    apply,
    decider_seat,
    legal_commands,
    salted,
    start_match,
)
from multiversus_core.rulesets.multiversus.events import CoinsSelected
from multiversus_core.rulesets.multiversus.secrets import Opening, fresh_salt, opening, opens
from multiversus_core.rulesets.multiversus.terms import ACTION_KINDS


def main() -> None:
    settings = MatchSettings(heroes="banner-knight", adversaries="smogon", seed=7, salts="secrets")
    state = start_match(settings)
    while state.pending != "select" or decider_seat(state) != 1:
        seat = decider_seat(state)
        assert seat is not None
        state, _ = apply(state, salted(legal_commands(state, seat)[0], settings))
    command = salted(
        SelectCoins(player=1, unit="knight", colour="grey", actions=("attack", "move")), settings
    )
    _, events = apply(state, command)
    selected = events[0]
    assert isinstance(selected, CoinsSelected)

    def where(value: tuple[str, ...]) -> Opening:
        return opening(
            settings, round=1, activation=1, seat=1, side="heroes", kind="coins", value=value
        )

    coins = [c for u in state.units if u.side == "heroes" for c in u.coins]
    choices = [()] + [
        tuple(sorted(c))
        for c in itertools.chain(
            ((a,) for a in ACTION_KINDS), itertools.combinations_with_replacement(ACTION_KINDS, 2)
        )
    ]
    candidates = [(coin, *actions) for coin in coins for actions in choices]
    secret = (selected.coin, *selected.actions)

    unsalted = hashlib.sha256(msgspec.json.encode(where(secret))).hexdigest()
    start = time.perf_counter()
    found = [
        v
        for v in candidates
        if hashlib.sha256(msgspec.json.encode(where(v))).hexdigest() == unsalted
    ]
    took = time.perf_counter() - start
    print(f"{len(candidates)} possible selections for the Heroes.")
    print(f"Unsalted: found {found} in {took * 1000:.2f} ms.")

    guesses = 1000
    start = time.perf_counter()
    hits = [
        v
        for v in candidates
        for salt in (fresh_salt() for _ in range(guesses // len(candidates) + 1))
        if opens(selected.commitment, salt, where(v))
    ]
    took = time.perf_counter() - start
    print(
        f"Salted: {len(hits)} found after guessing salts for {took * 1000:.2f} ms; "
        "each candidate has 2**256 salts to try."
    )


if __name__ == "__main__":
    main()
