"""A game's replay page and SVG board read back, for the tests of a game's HTML: the board
parsed, its groups by class, the entry where something first happened, and the page opened
in the browser of ``tests/test_html_browser.py`` (its errors gathered, the squares its
pieces stand on read back)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from multiversus_cli.presenters import Folded

SVG = "{http://www.w3.org/2000/svg}"


def parsed(text: str) -> ET.Element:
    """An SVG document, parsed: it must be one."""
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    return root


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    """The ``<g>`` of class ``cls``."""
    return [g for g in root.iter(f"{SVG}g") if cls in (g.get("class") or "").split()]


def first_entry(folded: Folded, kind: type, also: Callable[[Any], bool] = lambda e: True) -> int:
    """The number of the first entry with an event of ``kind`` (and ``also``)."""
    return next(
        k
        for k, entry in enumerate(folded.log.entries, start=1)
        if any(isinstance(e, kind) and also(e) for e in entry.events)
    )


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
