"""A replay page opened in the browser of ``tests/test_html_browser.py``, for the tests of a
game's page: its errors gathered, and the squares its pieces stand on read back."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


@contextmanager
def opened_page(browser: Any, html: str, path: Path, ready: str) -> Iterator[tuple[Any, list[str]]]:
    """The page ``html``, written to ``path`` and opened once ``ready`` (a selector) is drawn,
    with the errors it logs as it goes."""
    path.write_text(html, encoding="utf-8")
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda e: errors.append(str(e)))
    opened.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    opened.goto(path.as_uri())
    opened.wait_for_selector(ready)
    try:
        yield opened, errors
    finally:
        context.close()


def squares_shown(opened: Any, pieces: str, key: str) -> dict[str, str]:
    """The square of each piece drawn on the board now: the ``<g>`` of class ``pieces``, by
    their ``data-`` ``key``."""
    found: list[tuple[str, str]] = opened.eval_on_selector_all(
        f"#mv-board g.{pieces}", f"gs => gs.map(g => [g.dataset.{key}, g.dataset.square])"
    )
    return dict(found)
