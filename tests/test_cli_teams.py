"""``multiversus teams``: the list of installed teams, one team's sheet, checking sheet files."""

from __future__ import annotations

import importlib.metadata
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from multiversus_cli.app import app
from multiversus_core.rulesets.multiversus.catalog import installed_teams
from multiversus_core.rulesets.multiversus.sheets import ENTRY_POINT_GROUP

BUNDLED = (
    Path(__file__).parent.parent
    / "src"
    / "multiversus_core"
    / "rulesets"
    / "multiversus"
    / "data"
    / "teams"
)


def teams(*args: str) -> Result:
    return CliRunner().invoke(app, ["teams", *args])


def test_teams_lists_every_installed_team_with_its_side() -> None:
    result = teams()
    assert result.exit_code == 0, result.output
    for sheet in installed_teams():
        assert sheet.id in result.output
    assert "Heroes" in result.output
    assert "Adversaries" in result.output


def test_show_prints_units_abilities_with_their_marks_and_rules_text() -> None:
    result = teams("show", "smogon")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Smogon and the Dragonkith (smogon), Adversaries" in out
    assert "Dragonkith Bruisers (bruisers), minions: 2 characters, Medium" in out
    assert "1 green + 2 grey unit coins" in out
    assert "Smoke Breath (!!): Every enemy character adjacent to Smogon" in out
    assert "Drag to the Wyrm (!): " in out
    assert "Large: This character takes up four spaces" in out


def test_show_prints_scenarios_with_board_size_and_win_conditions_with_their_text() -> None:
    out = teams("show", "smogon").output
    assert "The Smoking Crags (smoking-crags): a 10×10 board" in out
    assert "the-smoke-vent: At the end of round 6" in out


def test_show_prints_the_set_up_secrets_but_no_choice() -> None:
    result = teams("show", "swartzblak")
    assert result.exit_code == 0, result.output
    assert "shapeshifter (secret identity; one of cats-1, cats-2, cats-3)" in result.output
    assert "Which Feral Cat is really the shapeshifter" in result.output


def test_show_of_an_unknown_team_is_a_one_line_error_with_exit_2() -> None:
    result = teams("show", "no-such-team")
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1
    assert "no team 'no-such-team'" in lines[0]
    assert "smogon" in lines[0]  # the installed ids, to choose from
    assert "Traceback" not in result.output


def test_validate_says_ok_for_valid_sheets() -> None:
    files = sorted(BUNDLED.glob("*.toml"))
    result = teams("validate", *map(str, files))
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == len(files)
    assert all(": ok" in line for line in lines)


def test_validate_names_the_field_of_a_broken_sheet_and_exits_1(tmp_path: Path) -> None:
    broken = tmp_path / "broken.toml"
    text = (BUNDLED / "smogon.toml").read_text()
    broken.write_text(text.replace('role = "minions"', 'role = "boss"', 1))
    good = BUNDLED / "smogon.toml"
    result = teams("validate", str(good), str(broken))
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert lines[0].endswith(": ok (smogon, Adversaries)")
    assert str(broken) in lines[1]
    assert "units[1] (bruisers).role" in lines[1]
    assert "'boss'" in lines[1]


def test_validate_reports_a_sheet_that_is_not_toml(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("id = \n")
    result = teams("validate", str(bad))
    assert result.exit_code == 1
    assert "not valid TOML" in result.output


@pytest.mark.parametrize(
    ("name", "reason"), [("missing.toml", "no such file"), ("folder", "a folder, not a file")]
)
def test_validate_refuses_a_missing_file_in_one_line_exit_2(
    tmp_path: Path, name: str, reason: str
) -> None:
    (tmp_path / "folder").mkdir()
    result = teams("validate", str(BUNDLED / "smogon.toml"), str(tmp_path / name))
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"multiversus teams validate: {tmp_path / name}: {reason}"
    ]


@pytest.mark.parametrize(
    ("args", "example"),
    [
        ((), "multiversus teams show smogon"),
        (("show",), "multiversus teams show banner-knight"),
        (("validate",), "multiversus teams validate my-team.toml"),
    ],
)
def test_help_shows_an_example(args: tuple[str, ...], example: str) -> None:
    result = teams(*args, "--help")
    assert result.exit_code == 0
    assert example in result.output


def test_docs_teams_md_gives_every_bundled_sheet_text_word_for_word_as_teams_show() -> None:
    # The sheet's text is the rule players read: docs/teams.md must say the same.
    from multiversus_cli.teams import NO_WINNER
    from multiversus_core.rulesets.multiversus import abilities
    from multiversus_core.rulesets.multiversus.catalog import bundled_teams
    from multiversus_core.rulesets.multiversus.scoring import WIN_CONDITIONS

    def words(text: str) -> str:
        return " ".join(text.split())

    docs = words((Path(__file__).parent.parent / "docs" / "teams.md").read_text(encoding="utf-8"))
    for sheet in bundled_teams():
        shown = words(teams("show", sheet.id).output)
        texts = [abilities.REGISTRY[a].text for unit in sheet.units for a in unit.abilities]
        texts += [secret.text for secret in sheet.secrets]
        texts += [WIN_CONDITIONS[name][0] for name in sheet.win_conditions]
        texts += [NO_WINNER] if sheet.win_conditions else []
        for text in texts:
            assert words(text) in shown, (sheet.id, text)
            assert words(text) in docs, (sheet.id, text)


# --- hostile sheets: bounded, refused in one line naming the field ------------------------

SMOGON = (BUNDLED / "smogon.toml").read_text()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x = " + "[" * 100_000 + "]" * 100_000, "nested more than 8 deep"),
        ("x = " + "{a=" * 5_000 + "1" + "}" * 5_000, "nested more than 8 deep"),
        ("a" + ".a" * 20_000 + " = 1", "nested more than 8 deep"),
        ("# " + "x" * 300_000, "the file is larger than 262144 bytes"),
        (
            SMOGON.replace("characters = 2", "characters = 100000000", 1),
            "units[1] (bruisers).characters: must be from 1 to 12, not 100000000",
        ),
        (
            SMOGON.replace("width = 10", "width = 1000000000"),
            "scenarios[0] (smoking-crags).width: must be from 2 to 40, not 1000000000",
        ),
        (
            SMOGON.replace('id = "bruisers"', 'id = "bruisers"\ngreen_coins = 1000000000'),
            "units[1] (bruisers).green_coins: must be from 0 to 6, not 1000000000",
        ),
        (SMOGON.replace('id = "smogon"', 'id = ""', 1), "id: an id is 1 to 32 ASCII letters"),
        (SMOGON.replace('id = "smogon"', 'id = "../smogon"', 1), "not '../smogon'"),
        (SMOGON.replace('id = "bruisers"', 'id = "bru\\nisers"'), "units[1].id: an id is"),
        (
            SMOGON.replace('name = "Smogon and', 'name = "\\u001b[31mSmogon and', 1),
            "name: holds the control or format character '\\x1b'",
        ),
        (
            SMOGON.replace('name = "Smogon"', 'name = "   "', 1),
            "units[0] (smogon).name: must not be blank",
        ),
        (
            SMOGON.replace(
                'abilities = ["Large", "Smoke Breath"]',
                'abilities = ["Large", "Smoke Breath", "Smoke Breath"]',
            ),
            "units[0] (smogon).abilities[2]: 'Smoke Breath' is listed twice",
        ),
        (
            SMOGON.replace(
                'win_conditions = ["the-smoke-vent"]',
                'win_conditions = ["the-smoke-vent", "the-smoke-vent"]',
            ),
            "win_conditions[1]: 'the-smoke-vent' is listed twice",
        ),
        (
            SMOGON.replace("squares = [[4, 0]]", "squares = [[9, 9]]"),
            "adversaries[0].squares[0]: a Large figure's four spaces from [9, 9] is not on",
        ),
        (
            SMOGON.replace("squares = [[1, 3], [8, 3]]", "squares = [[2, 1], [8, 3]]"),
            "adversaries[2].squares[0]: [2, 1] overlaps Dragonkith Bruisers 1's starting space",
        ),
        (
            SMOGON.replace("heroes = [[1, 9], [3, 9]", "heroes = [[4, 0], [3, 9]"),
            "scenarios[0] (smoking-crags).heroes[0]: [4, 0] is Smogon's starting space",
        ),
        (
            SMOGON.replace("heroes = [[1, 9], [3, 9], [5, 9], [7, 9], [9, 9], ", "heroes = ["),
            "scenarios[0] (smoking-crags).heroes: with the Hero team 'banner-knight': "
            "The Smoking Crags has no room to set up",
        ),
    ],
)
def test_validate_refuses_a_hostile_sheet_naming_the_field_first(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "hostile.toml"
    path.write_text(text)
    result = teams("validate", str(path))
    assert result.exit_code == 1, result.output
    # Each problem on a line of its own, naming the file; the field at fault comes first.
    lines = result.output.strip().splitlines()
    assert all(line.startswith(f"{path}: ") for line in lines)
    assert message in lines[0]
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    "text",
    [
        # An Adversary sheet under a Hero team's id: never paired with it, never installable.
        SMOGON.replace('id = "smogon"', 'id = "banner-knight"', 1),
        # A bundled team's id on another sheet: the bundled team keeps it.
        SMOGON.replace('name = "Smogon and the Dragonkith"', 'name = "Smogon Reborn"', 1),
    ],
)
def test_validate_refuses_a_sheet_whose_id_an_installed_team_holds(
    tmp_path: Path, text: str
) -> None:
    path = tmp_path / "taken.toml"
    path.write_text(text)
    result = teams("validate", str(path))
    assert result.exit_code == 1, result.output
    (line,) = result.output.strip().splitlines()
    assert line.startswith(f"{path}: id: the team id ")
    assert "is taken by the installed team" in line


def test_validate_accepts_a_bundled_sheet_that_is_also_installed() -> None:
    result = teams("validate", str(BUNDLED / "smogon.toml"))
    assert result.exit_code == 0, result.output
    assert "ok (smogon, Adversaries)" in result.output


@pytest.fixture
def hostile_installed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """Install, through the entry point group, a sheet whose Large beast starts off the board."""
    path = tmp_path / "hostile.toml"
    text = SMOGON.replace('id = "smogon"', 'id = "hostile"', 1)
    path.write_text(text.replace("squares = [[4, 0]]", "squares = [[9, 9]]"))

    class Point:
        name, value = "hostile", "hostile:teams"

        def load(self) -> object:
            return lambda: [path]

    def points(*, group: str) -> list[Point]:
        return [Point()] if group == ENTRY_POINT_GROUP else []

    monkeypatch.setattr(importlib.metadata, "entry_points", points)
    installed_teams.cache_clear()
    yield path
    installed_teams.cache_clear()


def test_an_invalid_installed_sheet_is_listed_as_invalid(hostile_installed: Path) -> None:
    result = teams()
    assert result.exit_code == 1
    assert "smogon" in result.output  # the valid teams are still listed
    row = next(line for line in result.output.splitlines() if "hostile" in line)
    assert "invalid" in row
    assert "is not on" in result.output


def test_play_refuses_an_invalid_installed_sheet_with_exit_2(
    hostile_installed: Path, tmp_path: Path
) -> None:
    result = CliRunner().invoke(
        app,
        [
            "play",
            "--adversaries",
            "hostile",
            "--player1",
            "bot",
            "--player2",
            "bot",
            "--quiet",
            "--log",
            str(tmp_path / "m.jsonl"),
        ],
    )
    assert result.exit_code == 2, result.output
    (line,) = result.output.strip().splitlines()
    assert line.startswith("multiversus play: the installed team 'hostile' is invalid: ")
    assert "adversaries[0].squares[0]: a Large figure's four spaces from [9, 9]" in line
    assert not (tmp_path / "m.jsonl").exists()
    # A valid team still plays beside it.
    result = CliRunner().invoke(
        app,
        [
            "play",
            "--player1",
            "bot",
            "--player2",
            "bot",
            "--quiet",
            "--seed",
            "3",
            "--log",
            str(tmp_path / "ok.jsonl"),
        ],
    )
    assert result.exit_code == 0, result.output


def test_show_at_a_terminal_wraps_between_words_and_keeps_each_indent() -> None:
    # At 50 columns, Troll Sweep's long text wraps: every line of it at the ability's indent,
    # no word cut in two, and no word lost.
    from rich.console import Console

    from multiversus_cli.teams import indented, sheet_lines
    from multiversus_core.rulesets.multiversus.catalog import find_team

    sheet = find_team("black-goblins")
    assert sheet is not None
    console = Console(width=50, force_terminal=True, color_system=None, record=True)
    (sweep,) = [line for line in sheet_lines(sheet) if "Troll Sweep" in line.plain]
    console.print(indented(sweep), soft_wrap=False)
    lines = console.export_text().rstrip("\n").split("\n")
    assert len(lines) > 4
    assert all(line.startswith("    ") and len(line) <= 50 for line in lines)
    assert " ".join(" ".join(lines).split()) == " ".join(sweep.plain.split())
