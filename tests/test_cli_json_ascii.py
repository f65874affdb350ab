"""JSON output for tools is ASCII-safe: a name's U+202E (or any character past ASCII) is an
escape, never the raw character, in replay, diff, verify and simulate; the JSON means the
same."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from multiversus_cli.app import app
from multiversus_cli.jsontext import ascii_json

HOSTILE = "Ann\u202eevil 𝕏 é"


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("ascii")
    paths = []
    for name, seed in (("a", "3"), (f"b {HOSTILE}", "4")):
        log = folder / f"{name}.jsonl"
        result = CliRunner().invoke(
            app,
            ["play", "--player1", "random", "--player2", "random", "--quiet", "--seed", seed,
             "--name1", HOSTILE, "--log", str(log)],
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        paths.append(log)
    return paths[0], paths[1]


def test_ascii_json_escapes_past_ascii_and_means_the_same() -> None:
    data = json.dumps({"name": HOSTILE}, ensure_ascii=False).encode()
    text = ascii_json(data)
    assert text.isascii() and "\\u202e" in text and "\\ud835\\udd4f" in text
    assert json.loads(text) == {"name": HOSTILE}


@pytest.mark.parametrize(
    "args",
    [
        ("replay", "{a}", "--format", "json"),
        ("replay", "{a}", "--format", "json", "--as", "heroes"),
        ("replay", "{b}", "--format", "json", "--as", "spectator"),
        ("diff", "{a}", "{b}", "--format", "json"),
        ("verify", "{a}", "{b}", "--format", "json"),
    ],
)
def test_json_output_carries_a_hostile_name_escaped(
    logs: tuple[Path, Path], args: tuple[str, ...]
) -> None:
    a, b = logs
    result = CliRunner().invoke(app, [arg.format(a=a, b=b) for arg in args])
    assert result.exit_code in (0, 1), result.output
    assert result.output.isascii() and "\\u202e" in result.output
    # Still one JSON document, which carries the name (or the file name) whole.
    assert HOSTILE in json.dumps(json.loads(result.output), ensure_ascii=False)
