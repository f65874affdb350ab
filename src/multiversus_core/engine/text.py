"""Text that comes from a file, made safe to print.

Player names come from a log's header, team, unit, character and scenario
names from a sheet or a log, file names from the command line. Any of them
may hold control characters, terminal escape sequences, bidi overrides or
rich markup. :func:`printable` is the one door they pass through on the way to
the screen: every character Python does not call printable (``\\x1b``,
``\\n``, ``\\r``, ``\\u202e``, ...) becomes its visible escape, so nothing in a
name can move the cursor, recolour the terminal, reorder the line or start a
new one. The CLI prints them as plain text (a ``Text``, a table cell given as
``Text``, or ``markup=False``), never through rich markup, so ``[bold red]`` in a
name is printed as it is written.
"""

from __future__ import annotations


def printable(text: str) -> str:
    """Return text with every unprintable character replaced by its visible escape."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else _escape(ch) for ch in text)


def printable_lines(text: str) -> str:
    """Return a text of several lines (the program's own line breaks) with each line printable."""
    return "\n".join(map(printable, text.split("\n")))


def _escape(ch: str) -> str:
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


__all__ = ["printable", "printable_lines"]
