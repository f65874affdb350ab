"""JSON for tools, safe on any terminal: every character past ASCII written as an escape.

A name in a log may hold U+202E (right-to-left override) or other characters that reorder
or hide what a terminal shows; escaped, the JSON means exactly the same to a parser and
shows the same to a person.
"""

from __future__ import annotations

import re
from typing import Final

_PAST_ASCII: Final = re.compile(r"[^\x00-\x7f]")


def ascii_json(data: bytes) -> str:
    """JSON text (UTF-8 bytes, as msgspec encodes it) with every character past ASCII as a
    ``\\u`` escape, a surrogate pair for one past U+FFFF; valid because JSON puts such
    characters only inside strings."""

    def escape(found: re.Match[str]) -> str:
        code = ord(found.group())
        if code > 0xFFFF:
            code -= 0x10000
            return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
        return f"\\u{code:04x}"

    return _PAST_ASCII.sub(escape, data.decode("utf-8"))


__all__ = ["ascii_json"]
