"""The closing fuzz run of "trust under attack": every attack kind, with counts.

Each kind is tried many times, each try counted once in its row:

* ``view-log forgeries``: every golden of ``replays/`` and Sealed Bids
  matches (a game with hidden choices and no golden there), cut at every
  entry that holds a hidden stand-in, as every viewer; the honest cut must verify
  and each forgery of its last entry's public events (an elimination added,
  an event of a later entry added, an event repeated, an event dropped) must
  not. An accepted forgery is counted.
* ``sheets at the limits``: team sheets at every documented limit (8 units, 24
  figures, a unit of 12, 6 + 6 coins, 12 abilities a unit from the catalogue,
  Large and Terrain units, 8 secrets of 24 options among them those the
  abilities read, 8 win conditions, 8 scenarios: 40 by 40 with 32 tiles and 48
  deployment squares, 2 by 40 and 40 by 2; 32-character ids, 64-character
  names, 2000-character texts, files of 256 KiB), installed as a package's
  are, played by every bot against itself and verified; each decision must
  take at most :data:`DECISION_SECONDS` and a match at most :data:`MATCH_MIB`,
  each verify at most :data:`VERIFY_SECONDS` and :data:`VERIFY_MIB` (the
  bounds ``docs/bots.md`` states). A Hero sheet of 24 figures, which no
  bundled scenario has room for, must be refused at installation in one line.
* ``names and files``: huge names, a huge log bad at line 2, a file beyond
  the size limit, /dev/zero, a FIFO, a directory, read by ``verify``,
  ``replay`` (text, JSON, HTML, SVG) and ``diff``: each must fail in one
  line, within :data:`COMMAND_SECONDS` and :data:`COMMAND_MIB`.
* ``concurrent resumes``: two ``play --resume`` of one log at once: the log
  must read back whole, one of them exit 0 and the other 0 or 2 in one line.
* ``kill -9 of simulate``: local workers, and a real Dask cluster, killed at
  a random moment: no process of it may be left, and the cluster must stop
  its matches, within :data:`ORPHAN_SECONDS`.

Every count but ``cases`` must be 0. Run::

    PYTHONPATH=src python benchmarks/fuzz_trust.py          # about 20 minutes
    PYTHONPATH=src python benchmarks/fuzz_trust.py --quick  # a few minutes
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from msgspec.structs import replace

from multiversus_core import MatchSettings
from multiversus_core.engine.errors import LogError
from multiversus_core.engine.log import MAX_LOG_BYTES, MatchLog, encode_log, read_log
from multiversus_core.engine.play import play_match
from multiversus_core.engine.registry import load_ruleset
from multiversus_core.engine.verify import verify_view
from multiversus_core.engine.viewlog import (
    decode_view_log,
    encode_view_log,
    redact_log,
    view_records_for,
)
from multiversus_core.rulesets.multiversus.sheets import MAX_SHEET_BYTES
from multiversus_core.rulesets.sealed_bids import SealedBidsSettings

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = ROOT / "replays"
DECISION_SECONDS = 20.0
"""The longest a bot may take over one decision, on any sheet inside the limits."""
MATCH_MIB = 1024
"""The most memory (peak resident set) a process playing one match may use."""
VERIFY_SECONDS = 60.0
"""The longest ``multiversus verify`` may take over one match log."""
VERIFY_MIB = 512
"""The most memory ``multiversus verify`` may use."""
COMMAND_SECONDS = 20.0
"""The longest a command may take to refuse a hostile file."""
COMMAND_MIB = 512
"""The most memory a command may use to refuse a hostile file."""
ORPHAN_SECONDS = 30.0
"""How long a killed simulate's processes (and its cluster's matches) have to stop."""


@dataclass
class Row:
    """One attack kind's counts."""

    kind: str
    cases: int = 0
    forgeries: int = 0
    tracebacks: int = 0
    over: int = 0
    orphans: int = 0
    notes: list[str] = field(default_factory=list)

    def note(self, text: str) -> None:
        """Keep the first few things that went wrong, to print under the table."""
        if len(self.notes) < 5:
            self.notes.append(text)


def _env(*paths: Path) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(str(p) for p in (ROOT / "src", *paths)),
    }


@dataclass
class Run:
    """A finished command: exit code, output, seconds and peak memory (MiB)."""

    code: int
    out: str
    seconds: float
    mib: float


# The command runs below a small Python of its own: a child's peak memory counts the peak
# of the process it was forked from, which here would be this script's.
_MEASURE = (
    "import resource, subprocess, sys\n"
    "code = subprocess.call(sys.argv[1:])\n"
    "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
    "sys.stdout.flush()\n"
    "print(f'\\npeak-kib {peak}', flush=True)\n"
    "sys.exit(code)\n"
)


def _run(args: Sequence[str], env: dict[str, str] | None = None, timeout: float = 300.0) -> Run:
    """Run a command, measuring its time and its own peak memory."""
    start = time.monotonic()
    with tempfile.TemporaryFile() as out:
        child = subprocess.Popen(
            [sys.executable, "-c", _MEASURE, *args],
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=env or _env(),
            start_new_session=True,
        )
        try:
            child.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, 9)
            child.wait()
        seconds = time.monotonic() - start
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    text, _, peak = text.rpartition("\npeak-kib ")
    kib = int(peak.strip()) if peak.strip().isdigit() else 0
    return Run(child.returncode, text, seconds, kib / 1024)


CLI = [sys.executable, "-m", "multiversus_cli.app"]


# --- view-log forgeries ---------------------------------------------------------------


def _forgeries(
    game: str, events: tuple[Any, ...], later: Sequence[Any]
) -> Iterator[tuple[Any, ...]]:
    """The last entry's events, forged: an elimination (Multiversus), an event of a later
    entry, an event repeated, an event dropped."""
    if game == "multiversus":
        from multiversus_core.rulesets.multiversus.events import ConditionChanged

        yield (*events, ConditionChanged(figure="smogon", condition="eliminated"))
    for event in later[:2]:
        yield (*events, event)
    yield (*events, events[-1])
    if len(events) > 1:
        yield events[:-1]


def _matches(quick: bool) -> Iterator[tuple[str, MatchLog]]:
    """Every golden of ``replays/``, and Sealed Bids matches (a game with hidden choices and
    no golden there), by name."""
    goldens = sorted(REPLAYS.rglob("*.jsonl"))
    for golden in goldens[:4] if quick else goldens:
        yield golden.name, read_log(golden)
    ruleset = load_ruleset("sealed-bids")
    for seed in range(1, 3 if quick else 9):
        bots = {seat: ruleset.bots["random"](seed * 10 + seat) for seat in (1, 2, 3)}
        log, _ = play_match(SealedBidsSettings(seed=seed), bots)
        yield f"sealed-bids seed {seed}", log


def view_log_forgeries(quick: bool) -> Row:
    row = Row("view-log forgeries")
    for name, log in _matches(quick):
        ruleset = load_ruleset(log.game)
        placeholders = view_records_for(log.game).event_placeholders
        viewers = [v for v in ruleset.viewers if v != "spectator"] + ["spectator"]
        cuts = range(1, len(log.entries) + 1)
        for viewer in viewers:
            whole = redact_log(log, viewer)
            for cut in cuts if not quick else list(cuts)[:60]:
                view = redact_log(MatchLog(log.header, log.entries[:cut], log.chance), viewer)
                last = view.entries[-1]
                if not any(type(event) in placeholders for event in last.events):
                    continue
                try:
                    honest = verify_view(decode_view_log(encode_view_log(view)))
                except Exception:
                    row.tracebacks += 1
                    row.note(f"{name} cut {cut} {viewer}: {traceback.format_exc(limit=2)}")
                    continue
                if not honest.ok:
                    row.note(f"{name} cut {cut} {viewer}: honest refused: {honest.problem}")
                later = [
                    event
                    for entry in whole.entries[cut : cut + 3]
                    for event in entry.events
                    if type(event) not in placeholders
                ]
                for forged in _forgeries(log.game, tuple(last.events), later):
                    row.cases += 1
                    entries = (*view.entries[:-1], replace(last, events=forged))
                    try:
                        result = verify_view(
                            decode_view_log(encode_view_log(replace(view, entries=entries)))
                        )
                    except LogError:
                        continue  # refused at read
                    except Exception:
                        row.tracebacks += 1
                        row.note(f"{name} cut {cut}: {traceback.format_exc(limit=2)}")
                        continue
                    if result.ok:
                        row.forgeries += 1
                        row.note(f"{name} cut {cut} as {viewer}: forgery accepted")
    return row


# --- sheets at the limits ---------------------------------------------------------------

HEROES_ID = "limit-heroes-" + "h" * 19
"""The limit Hero sheet's id: 32 characters, the longest id."""
LARGE_HEROES_ID = "limit-heroes-large-" + "l" * 13
"""A second limit Hero sheet, with a Large Champion."""
ADVERSARIES_ID = "limit-adversaries-" + "a" * 14
"""The limit Adversary sheet's id: 32 characters."""
SHARED_UNIT = "limit-shared-unit-" + "s" * 14
"""A unit id both limit sheets use: the Adversary one is qualified by its team id in a match."""
NAME = ("Ñame 漢字 🐉 " * 8)[:64]
TEXT = ("Text — ñ 漢字 🐉 " * 150)[:2000]

CATALOGUE = (
    "Hunter's Kit", "Troll Sweep", "Smoke Breath", "Torches", "Drag to the Wyrm", "Evil Eye",
    "Rally", "Ranged", "Fleet", "Skulk", "Silver Bullets", "Keen Nose", "Shapeshifter",
    "Under the Banner", "Hold the Line", "Gang Up", "Billowing", "Crawl Through",
    "Behind the Curtains", "Drifting",
)  # fmt: skip
"""Every registered ability but Large, stunts and reactions first: the ones that widen the
bots' search (more commands, reactions, forced moves with a choice, secrets read)."""
TERRAIN_ABILITIES = (
    "Drifting", "Billowing", "Behind the Curtains", "Crawl Through", "Smoke Breath",
    "Troll Sweep", "Evil Eye", "Drag to the Wyrm", "Torches", "Rally", "Hunter's Kit", "Gang Up",
)  # fmt: skip
"""Twelve abilities for a Terrain unit: it moves, is interacted with, and stunts."""
EXTRA_WIN_CONDITIONS = 5
"""Win conditions the limit package registers: with the 3 bundled ones, the 8 a sheet may name."""


def _id(text: str) -> str:
    """An id of exactly 32 characters, the longest allowed."""
    return (text + "-" + "i" * 32)[:32]


def _name(text: str) -> str:
    """A name of exactly 64 characters, some of them beyond ASCII."""
    return (text + " " + NAME)[:64]


def _abilities(i: int, large: bool = False) -> list[str]:
    """Twelve registered abilities (the most a unit may have), a different run of the catalogue
    for each unit ``i``; a Large unit lists Large and eleven more."""
    chosen = [CATALOGUE[(3 * i + k) % len(CATALOGUE)] for k in range(11 if large else 12)]
    return ["Large", *chosen] if large else chosen


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(type(value).__name__)


def _sheet(top: dict[str, object], tables: dict[str, list[dict[str, object]]]) -> str:
    lines = [f"{key} = {_toml(value)}" for key, value in top.items()]
    for name, items in tables.items():
        for item in items:
            lines.append(f"\n[[{name}]]")
            subtables = {
                k: v
                for k, v in item.items()
                if isinstance(v, list) and v and isinstance(v[0], dict)
            }
            lines += [f"{k} = {_toml(v)}" for k, v in item.items() if k not in subtables]
            for sub, rows in subtables.items():
                for entry in rows:  # type: ignore[attr-defined]
                    lines.append(f"\n[[{name}.{sub}]]")
                    lines += [f"{k} = {_toml(v)}" for k, v in entry.items()]
    return "\n".join(lines) + "\n"


def _padded(text: str) -> str:
    """The sheet padded by a closing comment to exactly :data:`MAX_SHEET_BYTES`, the largest
    file read."""
    size = len(text.encode("utf-8"))
    if size + 3 > MAX_SHEET_BYTES:
        raise ValueError(f"the sheet is already {size} bytes")
    return text + "#" + "p" * (MAX_SHEET_BYTES - size - 2) + "\n"


def _secrets(prefix: str, reads: list[tuple[str, str, list[str]]]) -> list[dict[str, object]]:
    """Eight secrets of 24 options (the most): first those the catalogue's abilities and win
    conditions read (``(name, kind, options)``, their options filled up to 24 names), then
    secret powers, every one with a 32-character name (but those read) and a 2000-character
    text."""
    secrets: list[dict[str, object]] = []
    for name, kind, options in reads:
        filler = [_name(f"option {name} {j}") for j in range(24 - len(options))]
        secrets.append({"name": name, "kind": kind, "options": options + filler, "text": TEXT})
    for i in range(8 - len(reads)):
        secrets.append(
            {
                "name": _id(f"{prefix}-secret-{i}"),
                "kind": "scheme" if i % 2 else "power",
                "options": [_name(f"option {i}-{j}") for j in range(24)],
                "text": TEXT,
            }
        )
    return secrets


def _tiles() -> list[dict[str, object]]:
    """32 tiles (the most), a quarter of them blocking and half obscuring, on rows 12 to 19."""
    return [
        {
            "origin": [2 * (i % 16) + 4 * (i // 16 % 2), 12 + 4 * (i // 16)],
            "terrain": _name(f"Tile {i}"),
            **({"blocking": True} if i % 4 == 1 else {}),
            **({"obscuring": True} if i % 4 in (1, 2) else {}),
        }
        for i in range(32)
    ]


def _adversary_units() -> tuple[list[dict[str, object]], list[int]]:
    """Eight units of 24 figures in all (a unit of 12, the most; two Large units; three
    Terrain units), each with 6 + 6 coins and 12 abilities."""
    shapes: list[tuple[str, int, bool]] = [  # role, characters, Large
        ("beast", 1, True),
        ("minions", 12, False),
        ("minions", 3, False),
        ("minions", 2, True),
        ("terrain", 2, False),
        ("terrain", 2, False),
        ("minions", 1, False),
        ("terrain", 1, False),
    ]
    units: list[dict[str, object]] = []
    for i, (role, count, large) in enumerate(shapes):
        unit: dict[str, object] = {
            "id": SHARED_UNIT if i == 6 else _id(f"limit-unit-{i}"),
            "name": _name(f"Unit {i}"),
            "role": role,
            "green_coins": 6,
            "grey_coins": 6,
            "abilities": list(TERRAIN_ABILITIES) if role == "terrain" else _abilities(i, large),
        }
        if count > 1:
            unit["characters"] = count
        if large:
            unit["size"] = "large"
        if role == "terrain":
            unit["blocking"] = i != 5
            unit["obscuring"] = i != 7
        units.append(unit)
    return units, [count for _, count, _ in shapes]


def _figure_ids(units: list[dict[str, object]], counts: list[int]) -> list[str]:
    return [
        str(unit["id"]) if count == 1 else f"{unit['id']}-{n}"
        for unit, count in zip(units, counts, strict=True)
        for n in range(1, count + 1)
    ]


def _scenario(
    k: int, width: int, height: int, units: list[dict[str, object]], counts: list[int]
) -> dict[str, object]:
    """A scenario: the Adversaries packed from the top left corner, row by row, and the
    Heroes' 48 squares (or as many as fit) the free spaces next in that order, so the two
    sides meet at once (but in scenario 1, from the far end: the longest walk); on a 40 by
    40 board, 32 tiles further down."""
    taken: set[tuple[int, int]] = set()
    adversaries = []
    for unit, count in zip(units, counts, strict=True):
        side = 2 if unit.get("size") == "large" else 1
        squares = []
        for _ in range(count):
            square = next(
                (x, y)
                for y in range(height - side + 1)
                for x in range(width - side + 1)
                if not {(x + dx, y + dy) for dx in range(side) for dy in range(side)} & taken
            )
            taken |= {(square[0] + dx, square[1] + dy) for dx in range(side) for dy in range(side)}
            squares.append(list(square))
        adversaries.append({"unit": unit["id"], "squares": squares})
    rows = range(height - 1, -1, -1) if k == 1 else range(height)
    spaces = [(x, y) for y in rows for x in range(width)]
    heroes = [list(s) for s in spaces if s not in taken][:48]
    scenario: dict[str, object] = {
        "id": _id(f"limit-field-{k}"),
        "name": _name(f"Field {k}"),
        "width": width,
        "height": height,
        "heroes": heroes,
        "adversaries": adversaries,
    }
    if width == height == 40:
        scenario["tiles"] = _tiles()
    return scenario


SCENARIO_SHAPES = ((40, 40),) * 6 + ((2, 40), (40, 2))
"""Eight scenarios (the most): six boards of 40 by 40 (the largest) and two of the
narrowest shapes, 2 by 40 and 40 by 2."""


def limit_sheets() -> dict[str, str]:
    """Two Hero sheets and an Adversary sheet at the documented limits, as TOML by team id.

    Every limit of ``docs/teams.md`` is reached by one of them but the nesting (8: the sheet
    format needs only 7) and a Hero sheet's 24 figures and 12 characters a unit: a Hero sheet
    must set up in every installed scenario, and the bundled ones have room for 9 Medium
    figures, or a Large one and 7 more (see :func:`crowded_heroes`).
    """
    units, counts = _adversary_units()
    figures = _figure_ids(units, counts)
    scenarios = [
        _scenario(k, width, height, units, counts)
        for k, (width, height) in enumerate(SCENARIO_SHAPES)
    ]
    tile_names = [str(t["terrain"]) for t in _tiles()]
    reads = [
        ("shapeshifter", "identity", figures),
        ("plunder", "scheme", tile_names[:24]),
    ]
    conditions = [
        "the-smoke-vent",
        *(f"limit-hold-{i}" for i in range(EXTRA_WIN_CONDITIONS)),
        "the-goblins-plunder",
        "the-shapeshifter-hunt",
    ]
    adversary = _sheet(
        {
            "id": ADVERSARIES_ID,
            "name": NAME,
            "side": "adversaries",
            "description": TEXT,
            "win_conditions": conditions,
        },
        {"units": units, "secrets": _secrets("a", reads), "scenarios": scenarios},
    )
    kit = ["holy-water", "smelling-salts", "grapnel"]
    heroes = {
        team: _sheet(
            {"id": team, "name": NAME, "side": "heroes", "description": TEXT},
            {
                "units": _hero_units(large),
                "secrets": _secrets("h", [("hunters-kit", "power", kit)]),
            },
        )
        for team, large in ((HEROES_ID, False), (LARGE_HEROES_ID, True))
    }
    return {ADVERSARIES_ID: _padded(adversary)} | {t: _padded(h) for t, h in heroes.items()}


def _hero_units(large: bool) -> list[dict[str, object]]:
    """Eight Hero units with 6 + 6 coins and 12 abilities each: 9 figures (the most the
    bundled scenarios have room for), or a Large Champion and 7 more."""
    roles = ["champion", "lieutenant", "mob", "mob", "mob", "mob", "mob", "mob"]
    counts = [1] * 8 if large else [1, 1, 2, 1, 1, 1, 1, 1]
    return [
        {
            "id": SHARED_UNIT if i == 7 else _id(f"limit-hero-{i}"),
            "name": _name(f"Hero {i}"),
            "role": role,
            "green_coins": 6,
            "grey_coins": 6,
            "abilities": _abilities(i + 8, large and i == 0),
            **({"characters": count} if count > 1 else {}),
            **({"size": "large"} if large and i == 0 else {}),
        }
        for i, (role, count) in enumerate(zip(roles, counts, strict=True))
    ]


CROWDED_ID = _id("limit-crowded-heroes")
"""The id of a Hero sheet of 24 figures, which no installation with the bundled teams accepts."""


def crowded_heroes() -> dict[str, str]:
    """A Hero sheet at the limits a Hero sheet cannot reach once installed, as TOML by team id.

    24 figures (a Mob of 12, a Large Champion) are valid on the sheet, but a Hero sheet is
    installed only if it sets up in every scenario of every installed Adversary team, and the
    bundled scenarios have room for 9 Medium figures (and none for a Large one): ``multiversus
    teams`` must list it as invalid, in one line, and the other teams stay installed.
    """
    shapes = [("champion", 1, True), ("lieutenant", 1, False), ("mob", 12, False)]
    shapes += [("mob", count, False) for count in (4, 3, 1, 1, 1)]
    units = [
        {
            "id": _id(f"limit-crowd-{i}"),
            "name": _name(f"Crowd {i}"),
            "role": role,
            "green_coins": 6,
            "grey_coins": 6,
            "abilities": _abilities(i, large),
            **({"characters": count} if count > 1 else {}),
            **({"size": "large"} if large else {}),
        }
        for i, (role, count, large) in enumerate(shapes)
    ]
    sheet = _sheet(
        {"id": CROWDED_ID, "name": NAME, "side": "heroes", "description": TEXT},
        {"units": units, "secrets": _secrets("c", [])},
    )
    return {CROWDED_ID: _padded(sheet)}


_LIMIT_MODULE = f"""\
from pathlib import Path

from multiversus_core.rulesets.multiversus.scoring import holder_of_tiles, register_win_condition
from multiversus_core.rulesets.multiversus.sheets import decode_sheet

HERE = Path(__file__).parent
TILES = {[_name(f"Tile {i}") for i in range(EXTRA_WIN_CONDITIONS)]!r}


def _holder(terrain):
    return lambda state: holder_of_tiles(state, terrain)


for i, terrain in enumerate(TILES):
    register_win_condition(f"limit-hold-{{i}}", f"Whoever alone stands on {{terrain}} wins.")(
        _holder(terrain)
    )


def teams():
    found = sorted(HERE.glob("limit-*.toml"))
    return [decode_sheet(p.read_bytes(), p.name) for p in found]
"""
"""The limit package's module: it registers five win conditions (a tile each held) and
offers the sheets beside it."""


def _install(folder: Path, sheets: dict[str, str]) -> None:
    """Install the sheets as a package does: a module offering them, an entry point."""
    for team, text in sheets.items():
        (folder / f"{team}.toml").write_text(text, encoding="utf-8")
    (folder / "limit_teams.py").write_text(_LIMIT_MODULE, encoding="utf-8")
    info = folder / "limit_teams-1.0.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: limit-teams\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[multiversus.teams]\nlimits = limit_teams:teams\n")


class Timed:
    """A bot whose decisions are timed."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.longest = 0.0
        self.decisions = 0

    def choose(self, view: Any, legal: Any) -> Any:
        start = time.perf_counter()
        command = self.bot.choose(view, legal)
        self.longest = max(self.longest, time.perf_counter() - start)
        self.decisions += 1
        return command


def play_one(heroes: str, adversaries: str, scenario: str, bot: str, seed: int, out: str) -> None:
    """In a child process: play one match, write its log, print the longest decision."""
    from multiversus_core.rulesets.multiversus.bots.specs import make_bot

    settings = MatchSettings(heroes=heroes, adversaries=adversaries, scenario=scenario, seed=seed)
    bots = {1: Timed(make_bot(bot, seed)), 2: Timed(make_bot(bot, seed + 1))}
    log, _ = play_match(settings, bots)
    Path(out).write_bytes(encode_log(log))
    longest = max(b.longest for b in bots.values())
    print(json.dumps({"longest": longest, "decisions": sum(b.decisions for b in bots.values())}))


def sheets_at_the_limits(quick: bool, folder: Path) -> Row:
    row = Row("sheets at the limits")
    packages = folder / "packages"
    packages.mkdir()
    _install(packages, limit_sheets())
    env = _env(packages)
    teams = _run([*CLI, "teams"], env)
    if teams.code != 0 or any(
        t not in teams.out for t in (ADVERSARIES_ID, HEROES_ID, LARGE_HEROES_ID)
    ):
        row.tracebacks += "Traceback" in teams.out
        row.over += 1
        row.note(f"the limit sheets are not installed: {teams.out[-400:]}")
        return row
    row.cases += 1
    crowded = folder / "crowded"
    crowded.mkdir()
    _install(crowded, crowded_heroes())
    refused = _run([*CLI, "teams"], _env(crowded))
    said = [
        line
        for line in refused.out.splitlines()
        if line.startswith("invalid:") and CROWDED_ID in line and "has no room" in line
    ]
    if "Traceback" in refused.out:
        row.tracebacks += 1
    elif refused.code != 1 or len(said) != 1 or "banner-knight" not in refused.out:
        row.forgeries += 1  # installed, or not refused in one line naming the reason
        row.note(f"a Hero sheet of 24 figures: exit {refused.code}: {refused.out[-400:]}")
    if refused.seconds > COMMAND_SECONDS or refused.mib > COMMAND_MIB:
        row.over += 1
        row.note(f"a Hero sheet of 24 figures: {refused.seconds:.1f} s, {refused.mib:.0f} MiB")
    row.notes.append(
        f"measured: a Hero sheet of 24 figures refused at installation in "
        f"{refused.seconds:.1f} s, {refused.mib:.0f} MiB: {said[0][:160] if said else '?'}"
    )
    pairings = [(HEROES_ID, ADVERSARIES_ID, _id("limit-field-0")),
                (LARGE_HEROES_ID, ADVERSARIES_ID, _id("limit-field-6")),
                ("witch-hunters", ADVERSARIES_ID, _id("limit-field-7")),
                (HEROES_ID, "smogon", "smoking-crags"),
                (LARGE_HEROES_ID, "black-goblins", "hollowmere-raid")]  # fmt: skip
    bots = ["random", "heuristic", "mcts"]
    seeds = [1] if quick else [1, 2]
    for heroes, adversaries, scenario in pairings[:2] if quick else pairings:
        for bot in bots:
            for seed in seeds:
                row.cases += 1
                log = folder / f"{heroes}-{adversaries}-{bot}-{seed}.jsonl"
                args = [heroes, adversaries, scenario, bot, str(seed), str(log)]
                played = _run([sys.executable, __file__, "--play-one", *args], env, timeout=1800)
                what = f"{bot} on {heroes} v {adversaries} ({scenario}), seed {seed}"
                if played.code != 0:
                    row.tracebacks += 1
                    row.note(f"{what}: {played.out[-300:]}")
                    continue
                found = json.loads(played.out.strip().splitlines()[-1])
                if found["longest"] > DECISION_SECONDS or played.mib > MATCH_MIB:
                    row.over += 1
                    row.note(f"{what}: {found['longest']:.1f} s a decision, {played.mib:.0f} MiB")
                checked = _run([*CLI, "verify", str(log)], env)
                if checked.code != 0 or "Traceback" in checked.out:
                    row.tracebacks += "Traceback" in checked.out
                    row.note(f"{what}: verify: {checked.out[-300:]}")
                    row.forgeries += checked.code != 0 and "Traceback" not in checked.out
                if checked.seconds > VERIFY_SECONDS or checked.mib > VERIFY_MIB:
                    row.over += 1
                    row.note(f"{what}: verify {checked.seconds:.1f} s, {checked.mib:.0f} MiB")
                row.notes.append(
                    f"measured: {what}: {found['decisions']} decisions, longest "
                    f"{found['longest']:.2f} s, {played.mib:.0f} MiB; verify "
                    f"{checked.seconds:.1f} s, {checked.mib:.0f} MiB"
                )
    return row


# --- huge names and odd files -----------------------------------------------------------


def _hostile_files(folder: Path) -> dict[str, Path]:
    golden = (REPLAYS / "banner-knight--smogon--standard.jsonl").read_bytes()
    lines = golden.splitlines(keepends=True)
    files: dict[str, Path] = {}

    def named(name: str, length: int) -> None:
        header = json.loads(lines[0])
        header["settings"]["players"][0] = "x" * length
        path = folder / f"{name}.jsonl"
        path.write_bytes(
            json.dumps(header, separators=(",", ":")).encode() + b"\n" + b"".join(lines[1:])
        )
        files[name] = path

    named("a 100 kB name", 100_000)
    named("a 10 MB name", 10_000_000)
    named("a 100 MB name", 100_000_000)
    start = golden.index(b'"prev":"') + len(b'"prev":"')
    bad = (
        golden[:start] + (b"0" if golden[start : start + 1] != b"0" else b"1") + golden[start + 1 :]
    )
    filler = b"".join(lines[1:-1])
    files["a 60 MB log bad at line 2"] = folder / "bad-line-2.jsonl"
    files["a 60 MB log bad at line 2"].write_bytes(bad + filler * (60 * 2**20 // len(filler)))
    files["a 60 MB log bad at its end"] = folder / "bad-end.jsonl"
    files["a 60 MB log bad at its end"].write_bytes(golden + filler * (60 * 2**20 // len(filler)))
    sparse = folder / "sparse.jsonl"
    with sparse.open("wb") as file:
        file.seek(MAX_LOG_BYTES * 8)
        file.write(b"\n")
    files["a 512 MiB sparse file"] = sparse
    line = folder / "one-line.jsonl"
    line.write_bytes(b"{" + b'"a":' * 0 + b"x" * (50 * 2**20))
    files["a 50 MB line without a newline"] = line
    fifo = folder / "pipe.jsonl"
    os.mkfifo(fifo)
    files["a FIFO"] = fifo
    files["/dev/zero"] = Path("/dev/zero")
    files["a directory"] = folder
    files["a missing file"] = folder / "missing.jsonl"
    return files


def names_and_files(quick: bool, folder: Path) -> Row:
    row = Row("names and files")
    golden = REPLAYS / "banner-knight--smogon--standard.jsonl"
    commands: list[Callable[[Path], list[str]]] = [
        lambda p: ["verify", str(p)],
        lambda p: ["verify", "--format", "json", str(p)],
        lambda p: ["replay", str(p)],
        lambda p: ["replay", str(p), "--format", "json"],
        lambda p: [
            "replay",
            str(p),
            "--format",
            "html",
            "--out",
            str(folder / "page.html"),
        ],
        lambda p: [
            "replay",
            str(p),
            "--format",
            "svg",
            "--out",
            str(folder / "picture.svg"),
        ],
        lambda p: ["diff", str(p), str(golden)],
    ]
    files = _hostile_files(folder)
    worst = (0.0, 0.0)
    for what, path in files.items():
        for command in commands[:3] if quick else commands:
            args = command(path)
            row.cases += 1
            done = _run([*CLI, *args], timeout=120)
            if "Traceback" in done.out or done.code not in (1, 2):
                row.tracebacks += 1
                row.note(f"{what}: {' '.join(args[:1])}: exit {done.code}: {done.out[-300:]}")
            if done.seconds > COMMAND_SECONDS or done.mib > COMMAND_MIB:
                row.over += 1
                row.note(f"{what}: {args[0]}: {done.seconds:.1f} s, {done.mib:.0f} MiB")
            worst = (max(worst[0], done.seconds), max(worst[1], done.mib))
    row.notes.append(f"measured: the slowest {worst[0]:.1f} s, the largest {worst[1]:.0f} MiB")
    # A huge name given to play is refused in one line too.
    for name in ("n" * 100_000, "\u202e" * 1000):
        row.cases += 1
        done = _run([*CLI, "play", "--name1", name, "--player1", "random", "--player2", "random",
                     "--quiet", "--log", str(folder / "named.jsonl")])  # fmt: skip
        if "Traceback" in done.out or done.code != 2:
            row.tracebacks += 1
            row.note(f"play with a hostile name: exit {done.code}: {done.out[-300:]}")
    return row


# --- concurrent resumes -----------------------------------------------------------------


def concurrent_resumes(quick: bool, folder: Path) -> Row:
    row = Row("concurrent resumes")
    rng = random.Random(30)
    whole = folder / "whole.jsonl"
    done = _run([*CLI, "play", "--player1", "random", "--player2", "random", "--quiet",
                 "--seed", "5", "--log", str(whole)])  # fmt: skip
    assert done.code == 0, done.out
    lines = whole.read_bytes().splitlines(keepends=True)
    locked = 0
    for attempt in range(5 if quick else 20):
        row.cases += 1
        log = folder / f"resumed-{attempt}.jsonl"
        log.write_bytes(b"".join(lines[: rng.randrange(2, len(lines) - 2)]))
        resume = [*CLI, "play", "--resume", str(log), "--player1", "random", "--player2", "random",
                  "--quiet"]  # fmt: skip
        children = [
            subprocess.Popen(
                resume,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                env=_env(),
            )
            for _ in range(2)
        ]
        outs = [child.communicate(timeout=300)[0].decode("utf-8", "replace") for child in children]
        codes = sorted(child.returncode for child in children)
        locked += codes == [0, 2]
        if any("Traceback" in out for out in outs):
            row.tracebacks += 1
            row.note(f"resume {attempt}: {outs}")
        refused = [out for child, out in zip(children, outs, strict=True) if child.returncode]
        if (
            codes[0] != 0
            or codes[1] not in (0, 2)
            or any(len(o.strip().splitlines()) != 1 for o in refused)
        ):
            row.forgeries += 1
            row.note(f"resume {attempt}: exits {codes}: {outs}")
        try:
            finished = read_log(log)
        except LogError as error:
            row.forgeries += 1
            row.note(f"resume {attempt}: the log is corrupted: {error}")
            continue
        if not finished.finished:
            row.forgeries += 1
            row.note(f"resume {attempt}: the log is not finished")
    row.notes.append(f"measured: {locked} of {row.cases} second resumes refused (locked)")
    return row


# --- kill -9 of simulate ----------------------------------------------------------------


def _descendants(pid: int) -> list[int]:
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    found: list[int] = []
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        children = [child for child, ppid in parents.items() if ppid == parent]
        found += children
        frontier += children
    return found


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def kill_simulate(quick: bool) -> Row:
    row = Row("kill -9 of simulate")
    rng = random.Random(9)
    games = [["--game", "tiles-d6", "--players", "random,heuristic"],
             ["--players", "random,heuristic"],
             ["--game", "sealed-bids", "--players", "greedy,mcts,random"]]  # fmt: skip
    watched = 0
    for attempt in range(4 if quick else 15):
        row.cases += 1
        command = [*CLI, "simulate", *games[attempt % len(games)], "--matches", "400",
                   "--workers", "2", "--quiet"]  # fmt: skip
        child = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=_env()
        )
        time.sleep(rng.uniform(0.3, 6.0))
        below = _descendants(child.pid)
        child.kill()
        _, err = child.communicate()
        deadline = time.monotonic() + ORPHAN_SECONDS
        while time.monotonic() < deadline and any(_running(pid) for pid in below):
            time.sleep(0.2)
        left = [pid for pid in below if _running(pid)]
        row.orphans += len(left)
        watched += len(below)
        if left:
            row.note(f"simulate {attempt}: {len(left)} of {len(below)} left")
        for pid in left:
            os.kill(pid, 9)
        if b"Traceback" in err:
            row.tracebacks += 1
    row.notes.append(f"measured: {watched} processes below the killed local simulates")
    row.orphans += _kill_dask_simulate(row, rng, 2 if quick else 5)
    return row


def _kill_dask_simulate(row: Row, rng: random.Random, attempts: int) -> int:
    """Kill -9 a simulate on a real Dask cluster; count the matches its workers still play
    :data:`ORPHAN_SECONDS` later."""
    import distributed

    def busy(watch: Any) -> int:
        executing = watch.run(lambda dask_worker: len(dask_worker.state.executing))
        return int(sum(executing.values()))

    orphans = 0
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            host="127.0.0.1",
        ) as cluster,  # fmt: skip
        distributed.Client(cluster.scheduler_address, set_as_default=False) as watch,
    ):
        for attempt in range(attempts):
            row.cases += 1
            address = cluster.scheduler_address
            command = [*CLI, "simulate", "--game", "tiles-d6", "--players", "heuristic,heuristic",
                       "--matches", "800", "--scheduler", address, "--quiet"]  # fmt: skip
            child = subprocess.Popen(
                command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=_env()
            )
            time.sleep(rng.uniform(3.0, 12.0))
            child.kill()
            _, err = child.communicate()
            deadline = time.monotonic() + ORPHAN_SECONDS
            while time.monotonic() < deadline and busy(watch):
                time.sleep(0.5)
            left = busy(watch)
            if left:
                row.note(f"dask simulate {attempt}: {left} matches still played")
            orphans += left
            if b"Traceback" in err:
                row.tracebacks += 1
    return orphans


# --- the table --------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smaller run, of a few minutes")
    parser.add_argument("--only", default="", help="run only the kinds whose name has this")
    parser.add_argument("--play-one", nargs=6, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play_one:
        heroes, adversaries, scenario, bot, seed, out = args.play_one
        play_one(heroes, adversaries, scenario, bot, int(seed), out)
        return
    started = time.monotonic()
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        kinds: list[tuple[str, Callable[[], Row]]] = [
            ("view-log forgeries", lambda: view_log_forgeries(args.quick)),
            (
                "sheets at the limits",
                lambda: sheets_at_the_limits(args.quick, folder / "sheets"),
            ),
            ("names and files", lambda: names_and_files(args.quick, folder / "files")),
            (
                "concurrent resumes",
                lambda: concurrent_resumes(args.quick, folder / "resumes"),
            ),
            ("kill -9 of simulate", lambda: kill_simulate(args.quick)),
        ]
        for name, kind in kinds:
            if args.only not in name:
                continue
            for sub in ("sheets", "files", "resumes"):
                (folder / sub).mkdir(exist_ok=True)
            begun = time.monotonic()
            row = kind()
            rows.append(row)
            print(
                f"{name}: {row.cases} cases in {time.monotonic() - begun:.0f} s",
                flush=True,
            )
    print()
    print(f"{'kind':<22} {'cases':>6} {'accepted forgeries':>19} {'tracebacks':>11} "
          f"{'over bounds':>12} {'orphans':>8}")  # fmt: skip
    for row in rows:
        print(f"{row.kind:<22} {row.cases:>6} {row.forgeries:>19} {row.tracebacks:>11} "
              f"{row.over:>12} {row.orphans:>8}")  # fmt: skip
    print(f"\n{time.monotonic() - started:.0f} s in all; peak memory of this process "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")  # fmt: skip
    for row in rows:
        for note in row.notes:
            print(f"{row.kind}: {note}")
    failed = any(r.forgeries or r.tracebacks or r.over or r.orphans for r in rows)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
