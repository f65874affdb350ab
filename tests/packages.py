"""A package installed for one test: a dist-info folder on ``sys.path``, as pip leaves it.

``importlib.metadata`` finds its entry points as it finds those of any
installed distribution, so the code under test loads them the real way.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

from multiversus_cli.presenters import presenter_for
from multiversus_core.engine.registry import load_ruleset


@contextlib.contextmanager
def installed(
    folder: Path,
    name: str,
    entry_points: Mapping[str, Mapping[str, str]],
    modules: Mapping[str, str] | None = None,
) -> Iterator[Path]:
    """Install the distribution ``name`` in ``folder`` for the duration: its modules (name to
    source) and entry points (group to name to ``"module:attribute"``)."""
    for module, source in (modules or {}).items():
        (folder / f"{module}.py").write_text(source)
    info = folder / f"{name.replace('-', '_')}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "".join(
            f"[{group}]\n" + "".join(f"{key} = {value}\n" for key, value in points.items())
            for group, points in entry_points.items()
        )
    )
    sys.path.insert(0, str(folder))
    load_ruleset.cache_clear()
    presenter_for.cache_clear()
    try:
        yield folder
    finally:
        sys.path.remove(str(folder))
        for module in modules or {}:
            sys.modules.pop(module, None)
        load_ruleset.cache_clear()
        presenter_for.cache_clear()
