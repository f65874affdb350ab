"""Hostile team sheets: mutations of the bundled sheets, generated sheets, and the check.

Used by ``tests/test_sheets_hostile.py`` (hypothesis drives the random
choices) and by ``scripts/fuzz_sheets.py`` (a longer seeded run that prints
the counts). :func:`check_sheet` is the promise under test: a sheet is either
refused with a one-line :class:`SheetError` naming a field, or accepted, and
then it is installed, sets up against every team of the other side and plays.
"""

from __future__ import annotations

import importlib.metadata
import json
import random
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib import resources
from typing import Literal
from unittest import mock

from msgspec.structs import replace

from multiversus_core import (
    ChooseSide,
    ChooseStartingTeam,
    ChooseTeams,
    FlipForSetUp,
    MatchSettings,
    SheetError,
    apply,
    decider_seat,
    legal_commands,
    start_match,
)
from multiversus_core.rulesets.multiversus.bots.specs import RandomBot, command_for
from multiversus_core.rulesets.multiversus.catalog import (
    check_pairings,
    find_team,
    installed_teams,
    invalid_teams,
)
from multiversus_core.rulesets.multiversus.sheets import ENTRY_POINT_GROUP, TeamSheet, decode_sheet

BUNDLED: tuple[bytes, ...] = tuple(
    entry.read_bytes()
    for entry in sorted(
        resources.files("multiversus_core.rulesets.multiversus")
        .joinpath("data", "teams")
        .iterdir(),
        key=lambda e: e.name,
    )
    if entry.name.endswith(".toml")
)
"""The bundled sheets' TOML, the seeds of the mutations."""

HOSTILE_NUMBERS = (-1, 0, 1, 2, 3, 5, 6, 7, 9, 10, 11, 12, 13, 24, 39, 40, 41, 48, 49, 10**9, 2**63)
HOSTILE_STRINGS = (
    "",
    " ",
    "../etc",
    "a\nb",
    "a\rb",
    "\x1b[31mred",
    "\x1b]0;title\x07",
    "[bold red]loud[/]",
    "\u202eevil",
    "\u200b",
    "-rf",
    "x" * 70,
    "cats-1",
    "Large",
    "ok-id",
)
"""Values a hostile sheet might carry where a number or a string belongs."""

_NUMBER = re.compile(rb"(?<![\w.])-?\d+(?![\w.])")
_STRING = re.compile(rb'"(?:[^"\\\n]|\\.)*"')

Mutation = Callable[[bytes, random.Random], bytes]


def _toml_string(value: str) -> bytes:
    # A JSON string with every non-ASCII character escaped is a TOML basic string.
    return json.dumps(value).encode()


def _swap_number(data: bytes, rnd: random.Random) -> bytes:
    found = list(_NUMBER.finditer(data))
    if not found:
        return data
    hit = rnd.choice(found)
    return data[: hit.start()] + str(rnd.choice(HOSTILE_NUMBERS)).encode() + data[hit.end() :]


def _swap_string(data: bytes, rnd: random.Random) -> bytes:
    found = list(_STRING.finditer(data))
    if not found:
        return data
    hit = rnd.choice(found)
    return data[: hit.start()] + _toml_string(rnd.choice(HOSTILE_STRINGS)) + data[hit.end() :]


def _drop_line(data: bytes, rnd: random.Random) -> bytes:
    lines = data.split(b"\n")
    del lines[rnd.randrange(len(lines))]
    return b"\n".join(lines)


def _copy_line(data: bytes, rnd: random.Random) -> bytes:
    lines = data.split(b"\n")
    at = rnd.randrange(len(lines))
    lines.insert(rnd.randrange(len(lines) + 1), lines[at])
    return b"\n".join(lines)


def _nest(data: bytes, rnd: random.Random) -> bytes:
    depth = rnd.choice((7, 8, 9, 50, 5000))
    opening, closing = rnd.choice(((b"[", b"]"), (b"{a=", b"}")))
    value = opening * depth + b"1" + closing * depth
    key = rnd.choice((b"x", b"description", b"a" + b".a" * rnd.choice((3, 8, 5000))))
    return key + b" = " + value + b"\n" + data


def _huge_count(data: bytes, rnd: random.Random) -> bytes:
    field = rnd.choice((b"characters", b"green_coins", b"grey_coins", b"width", b"height"))
    number = str(rnd.choice((10**8, 10**9, 2**63 - 1, -(2**63)))).encode()
    return re.sub(field + rb" = -?\d+", field + b" = " + number, data, count=1)


def _cut(data: bytes, rnd: random.Random) -> bytes:
    return data[: rnd.randrange(len(data) + 1)]


def _noise(data: bytes, rnd: random.Random) -> bytes:
    at = rnd.randrange(len(data) + 1)
    return data[:at] + rnd.randbytes(rnd.randrange(1, 8)) + data[at:]


def _move_square(data: bytes, rnd: random.Random) -> bytes:
    found = list(re.finditer(rb"\[(-?\d+), (-?\d+)\]", data))
    if not found:
        return data
    hit = rnd.choice(found)
    if rnd.random() < 0.5 and len(found) > 1:
        other = rnd.choice(found)  # onto another starting square: an overlap
        square = other.group()
    else:
        square = f"[{rnd.choice((-1, 0, 1, 8, 9, 10, 11, 40))}, {rnd.randrange(-1, 12)}]".encode()
    return data[: hit.start()] + square + data[hit.end() :]


def _large(data: bytes, rnd: random.Random) -> bytes:
    """Make a unit Large: usually with its Large ability, sometimes (wrongly) without."""
    found = list(re.finditer(rb'role = "\w+"\n', data))
    if not found:
        return data
    end = rnd.choice(found).end()
    block_end = data.find(b"[[", end)
    block_end = len(data) if block_end < 0 else block_end
    block = data[end:block_end]
    if rnd.random() < 0.7:
        if b"abilities = [" in block:
            block = block.replace(b"abilities = [", b'abilities = ["Large", ', 1)
        else:
            block = b'abilities = ["Large"]\n' + block
    return data[:end] + b'size = "large"\n' + block + data[block_end:]


MUTATIONS: tuple[Mutation, ...] = (
    _swap_number,
    _swap_number,
    _swap_string,
    _swap_string,
    _drop_line,
    _copy_line,
    _nest,
    _huge_count,
    _cut,
    _noise,
    _move_square,
    _move_square,
    _large,
)


def mutated(rnd: random.Random) -> bytes:
    """Return a bundled sheet with one to three random mutations."""
    data = rnd.choice(BUNDLED)
    for _ in range(rnd.randint(1, 3)):
        data = rnd.choice(MUTATIONS)(data, rnd)
    return data


def _toml(value: object) -> str:
    """Return a value as an inline TOML value (strings, ints, bools, lists, tables)."""
    match value:
        case bool():
            return "true" if value else "false"
        case int():
            return str(value)
        case str():
            return json.dumps(value)
        case list():
            return "[" + ", ".join(_toml(v) for v in value) + "]"
        case dict():
            return "{" + ", ".join(f"{json.dumps(k)} = {_toml(v)}" for k, v in value.items()) + "}"
    raise TypeError(type(value).__name__)


def generated(rnd: random.Random) -> bytes:
    """Return a sheet built from scratch: plausible in shape, hostile in places."""

    def number(low: int, high: int) -> int:
        return rnd.choice(HOSTILE_NUMBERS) if rnd.random() < 0.08 else rnd.randint(low, high)

    def many(low: int, high: int) -> int:
        """A list length: usually in range, sometimes just outside the sheet limits."""
        return rnd.choice((0, 9, 13, 25, 49)) if rnd.random() < 0.08 else rnd.randint(low, high)

    def text(plain: str) -> str:
        return rnd.choice(HOSTILE_STRINGS) if rnd.random() < 0.08 else plain

    side = rnd.choice(("heroes", "adversaries"))
    roles = ("champion", "lieutenant", "mob") if side == "heroes" else ("beast", "minions")
    units: list[dict[str, object]] = []
    for i in range(many(1, 4)):
        role = rnd.choice(roles) if i or side == "heroes" else "beast"
        unit: dict[str, object] = {"id": text(f"u{i}"), "name": text(f"Unit {i}"), "role": role}
        if rnd.random() < 0.5:
            unit["characters"] = number(1, 4)
        if rnd.random() < 0.2:
            unit["size"], unit["abilities"] = "large", ["Large"]
        if side == "adversaries" and rnd.random() < 0.2:
            unit.update(role="terrain", blocking=rnd.random() < 0.5)
            unit.pop("size", None)
            unit.pop("abilities", None)
        units.append(unit)
    sheet: dict[str, object] = {"id": text("made"), "name": text("Made Up"), "side": side}
    sheet["units"] = units
    if side == "adversaries":
        scenarios = []
        for k in range(many(1, 2)):
            width, height = number(2, 8) * 2, number(2, 8) * 2

            def pick(
                width: int = min(max(width, 0), 42), height: int = min(max(height, 0), 42)
            ) -> list[int]:
                return [rnd.randint(-1, width), rnd.randint(-1, height)]

            adversaries = []
            for unit in units:
                count = unit.get("characters", 1)
                count = count if isinstance(count, int) and 0 <= count <= 24 else 1
                adversaries.append({"unit": unit["id"], "squares": [pick() for _ in range(count)]})
            heroes = [pick() for _ in range(many(0, 14))]
            tiles = [
                {
                    "origin": [2 * rnd.randint(0, 8), 2 * rnd.randint(0, 8)],
                    "terrain": "T",
                }
                for _ in range(many(0, 2))
            ]
            scenarios.append(
                {
                    "id": text(f"s{k}"),
                    "name": text(f"Scenario {k}"),
                    "width": width,
                    "height": height,
                    "heroes": heroes,
                    "adversaries": adversaries,
                    "tiles": tiles,
                }
            )
        sheet["scenarios"] = scenarios
    return "".join(f"{key} = {_toml(value)}\n" for key, value in sheet.items()).encode()


Outcome = Literal["refused", "accepted"]

_FIELD = re.compile(
    r"^(?:id|name|side|description|units|scenarios|secrets|win_conditions)\b"
    # a field the file should not have, or one read wrong: named by its path
    r"|^\S.*?: (?:no such field|missing$|should be |.* is not one of )"
    r"|^not valid TOML: "
    r"|^tables, arrays and keys are nested more than \d+ deep$"
    r"|^the file is larger than \d+ bytes$"
)
"""What a refusal's reason starts with: the field at fault, or what is wrong with the file."""


def check_sheet(data: bytes, moves: int = 12) -> Outcome:
    """Validate a sheet as ``teams validate`` does; if accepted, install it and play it.

    :raises AssertionError: if anything but a one-line SheetError naming a
        field escapes, or an accepted sheet fails to install, set up or play.
    """
    try:
        sheet = decode_sheet(data, "fuzz.toml")
        others = [t for t in installed_teams() if t.id != sheet.id]
        check_pairings(sheet, others, "fuzz.toml")
    except SheetError as error:
        refusal = error
    else:
        refusal = None
    if refusal is not None:
        assert refusal.source == "fuzz.toml"
        assert "\n" not in str(refusal) and "\r" not in str(refusal)
        assert _FIELD.search(refusal.reason), refusal.reason
        return "refused"
    if find_team(sheet.id) is not None:  # a mutated bundled sheet: install it beside the original
        sheet = replace(sheet, id=f"fuzz-{sheet.id}")
    with installed(sheet):
        assert find_team(sheet.id) == sheet, invalid_teams()
        for other in [t for t in installed_teams() if t.side != sheet.side]:
            heroes, adversaries = (sheet, other) if sheet.side == "heroes" else (other, sheet)
            for scenario in adversaries.scenarios:
                _play(heroes.id, adversaries.id, scenario.id, moves)
    return "accepted"


def _play(heroes: str, adversaries: str, scenario: str, moves: int) -> None:
    """Set the pairing up through legal commands, then play a few random commands."""
    settings = MatchSettings(heroes=heroes, adversaries=adversaries, scenario=scenario, seed=3)
    state, _ = apply(start_match(settings), FlipForSetUp(player=1, winner=1))
    (teams,) = legal_commands(state, 1)
    assert isinstance(teams, ChooseTeams)
    state, _ = apply(state, teams)
    state, _ = apply(state, ChooseStartingTeam(player=1, side="adversaries"))
    state, _ = apply(state, ChooseSide(player=2, side="heroes"))
    bots = {1: RandomBot(5), 2: RandomBot(6)}
    for _ in range(moves):
        if state.is_over:
            break
        seat = decider_seat(state)
        assert seat is not None
        state, _ = apply(state, command_for(bots[seat], state, seat))


class _Point:
    """An entry point offering one sheet, as another package's would."""

    name = "fuzz"
    value = "fuzz:teams"

    def __init__(self, sheet: TeamSheet) -> None:
        self.sheet = sheet

    def load(self) -> Callable[[], list[TeamSheet]]:
        return lambda: [self.sheet]


@contextmanager
def installed(sheet: TeamSheet) -> Iterator[None]:
    """Install a sheet through the ``multiversus.teams`` entry point group for a while."""

    def points(*, group: str) -> list[_Point]:
        return [_Point(sheet)] if group == ENTRY_POINT_GROUP else []

    installed_teams.cache_clear()
    try:
        with mock.patch.object(importlib.metadata, "entry_points", points):
            yield
    finally:
        installed_teams.cache_clear()
