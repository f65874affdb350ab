"""Fuzzing verify with tampered logs: every mutation is refused, or leaves a prefix.

Finished logs (match logs and view logs, chance public or secret) get random
byte edits (flip, insert, delete), and verify is asked about each. It must
never raise, and it may accept only a file that is a prefix of the original
at a line boundary (what a cut unfinished log looks like); a finished log cut
short lacks its end record and is refused too. The counts are printed with
``pytest -s``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache

import msgspec
import pytest

from multiversus_core import MatchSettings
from multiversus_core.engine.log import MatchLog, encode_log, read_log
from multiversus_core.engine.play import play_match
from multiversus_core.engine.verify import verify_data
from multiversus_core.engine.viewlog import encode_view_log
from multiversus_core.rulesets.multiversus.bots.specs import RandomBot
from multiversus_core.rulesets.multiversus.match import secret_chance_settings
from multiversus_core.rulesets.multiversus.views import redact_log
from tests.support import mutated

from .test_viewlog import GOLDEN

MUTATIONS = 200
"""Mutations tried per file: enough to hit every line kind of a 250-line log, cheaply."""


class Counts(msgspec.Struct):
    tried: int = 0
    tracebacks: int = 0
    accepted_prefix: int = 0
    accepted_tampered: int = 0


def fuzz(data: bytes, mutations: int, seed: int) -> Counts:
    """Verify ``mutations`` randomly edited copies of ``data``; count what verify did."""
    rng = random.Random(seed)
    counts = Counts()
    for _ in range(mutations):
        edits = [
            (rng.choice(("flip", "insert", "delete")), rng.randrange(len(data)), rng.randrange(256))
            for _ in range(rng.randint(1, 3))
        ]
        bad = mutated(data, edits)
        if bad == data:
            continue
        counts.tried += 1
        try:
            result = verify_data(bad, "fuzzed.jsonl")
        except Exception:  # the point of the test: never a traceback
            counts.tracebacks += 1
            continue
        if result.ok:
            prefix = data.startswith(bad) and (not bad or bad.endswith(b"\n"))
            if prefix:
                counts.accepted_prefix += 1
            else:
                counts.accepted_tampered += 1
    return counts


@cache
def _golden() -> MatchLog:
    return read_log(GOLDEN)


@cache
def _secret_match() -> MatchLog:
    settings = MatchSettings(heroes="witch-hunters", adversaries="swartzblak", salts="secrets")
    secret, chance = secret_chance_settings(settings)
    return play_match(secret, {1: RandomBot(5), 2: RandomBot(6)}, chance)[0]


FILES: dict[str, Callable[[], bytes]] = {
    "match log": lambda: encode_log(_golden()),
    "heroes view log": lambda: encode_view_log(redact_log(_golden(), "heroes")),
    "adversaries view log": lambda: encode_view_log(redact_log(_golden(), "adversaries")),
    "spectator view log": lambda: encode_view_log(redact_log(_golden(), "spectator")),
    "secret-chance match log": lambda: encode_log(_secret_match()),
    "secret-chance heroes view log": lambda: encode_view_log(redact_log(_secret_match(), "heroes")),
}


@pytest.mark.parametrize("name", list(FILES))
def test_tampered_finished_logs_are_refused_without_a_traceback(name: str) -> None:
    data = FILES[name]()
    assert verify_data(data).ok  # the original passes
    counts = fuzz(data, MUTATIONS, seed=len(name))
    print(f"{name}: {msgspec.json.encode(counts).decode()}")
    assert counts.tried >= MUTATIONS * 9 // 10
    assert counts.tracebacks == 0
    assert counts.accepted_tampered == 0
    assert counts.accepted_prefix == 0  # a finished log cut short has no end record


def _leaves(value: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """Every path to an int or string inside a JSON value (bools and nulls left out)."""
    if isinstance(value, dict):
        return [p for key, item in value.items() for p in _leaves(item, (*path, key))]
    if isinstance(value, list):
        return [p for index, item in enumerate(value) for p in _leaves(item, (*path, index))]
    if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
        return [path]
    return []


def _edit(record: dict[str, object], path: tuple[object, ...], rng: random.Random) -> None:
    """Change the leaf at ``path``: an integer by a small step, a string by one character."""
    *parents, last = path
    holder: object = record
    for key in parents:
        holder = holder[key]  # type: ignore[index]
    value = holder[last]  # type: ignore[index]
    if isinstance(value, int):
        new: object = value + rng.choice((-2, -1, 1, 2))
    else:
        text = str(value) or "x"
        at = rng.randrange(len(text))
        new = text[:at] + rng.choice("0123456789abcdefghijklmnopqrstuvwxyz-.") + text[at + 1 :]
    holder[last] = new  # type: ignore[index]


def rewrite_fuzz(data: bytes, rewrites: int, seed: int) -> Counts:
    """Change one value of a random entry, recompute the chain as a forger can, and verify."""
    import json

    from tests.support import rechained

    rng = random.Random(seed)
    lines = data.split(b"\n")[:-1]
    counts = Counts()
    for _ in range(rewrites):
        number = rng.randrange(1, len(lines) - 1)  # an entry line
        record = json.loads(lines[number])
        body = {k: v for k, v in record.items() if k in ("command", "events")}
        leaves = [p for p in _leaves(body) if p[-1] not in ("kind", "record")]
        if not leaves:
            continue
        _edit(body, rng.choice(leaves), rng)
        record.update(body)
        edited = json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode()
        if edited == lines[number]:
            continue
        bad = rechained(b"\n".join([*lines[:number], edited, *lines[number + 1 :]]) + b"\n")
        counts.tried += 1
        try:
            result = verify_data(bad, "rewritten.jsonl")
        except Exception:
            counts.tracebacks += 1
            continue
        if result.ok:
            counts.accepted_tampered += 1
            print("accepted:", edited[:300])
    return counts


@pytest.mark.parametrize("name", list(FILES))
def test_consistent_rewrites_of_one_value_are_caught_by_the_rules(name: str) -> None:
    # A die changed to another face, a step moved to another square, a coin renamed, with
    # the chain and the end record recomputed: only re-running the rules can tell.
    data = FILES[name]()
    counts = rewrite_fuzz(data, REWRITES, seed=len(name))
    print(f"{name} (rewritten, rechained): {msgspec.json.encode(counts).decode()}")
    assert counts.tried >= REWRITES * 9 // 10
    assert counts.tracebacks == 0
    assert counts.accepted_tampered == 0


REWRITES = 80
