"""The README's promises: its Python examples run, and its quick start is what CI runs."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def _python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def test_readme_python_examples_run_in_order() -> None:
    blocks = _python_blocks()
    assert len(blocks) >= 3
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, str(README), "exec"), namespace)


def test_readme_quick_start_has_one_play_and_one_test_command() -> None:
    text = README.read_text(encoding="utf-8")
    for marker in ("play-command", "test-command"):
        body = re.search(
            rf"<!-- {marker}:start -->\n```sh\n(.*?)\n```\n<!-- {marker}:end -->", text, re.S
        )
        assert body is not None, marker
        assert "\n" not in body.group(1).strip()
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "test-command:start" in ci
