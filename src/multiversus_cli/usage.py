"""Mistakes on the command line, told in one line whatever Typer and Click say.

Typer's own rendering of a usage error is a box over several lines, and its
wording changes between versions ("Value error, 'x' is not one of ...",
"Input should be a valid integer"). :func:`one_line` turns any of them into
one plain line: ``multiversus replay: --format: 'x' is not one of text, board``.
"""

from __future__ import annotations

import difflib
import re
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

_CHOICES: Final = re.compile(r"'(?P<given>.*)' is not one of (?P<choices>.*?)\.?$", re.DOTALL)
_INTEGER: Final = re.compile(r"valid integer|not a valid int", re.IGNORECASE)
_NUMBER: Final = re.compile(r"valid (number|float)", re.IGNORECASE)
_BOOLEAN: Final = re.compile(r"valid bool", re.IGNORECASE)
_NO_COMMAND: Final = re.compile(r"^no such command '(?P<name>[^']*)'", re.IGNORECASE)
_EXTRA: Final = re.compile(r"got unexpected extra arguments? ?(\(s\))? \((?P<args>.*)\)$")


def program() -> str:
    """How to run this program again, for hints: ``multiversus`` when that is what the shell
    finds, else the path it was started by (``.venv/bin/multiversus`` after the quick start,
    which installs into a virtual environment that is not activated)."""
    invoked = sys.argv[0] if sys.argv else ""
    if Path(invoked).name != "multiversus":
        return "multiversus"  # started some other way (python -m, a test): the usual name
    found = shutil.which("multiversus")
    if found is not None and Path(found).resolve() == Path(invoked).resolve():
        return "multiversus"
    return invoked


def no_such_file(path: object, *, folder: bool = False) -> str:
    """The one sentence for a path that is not there, the same in every command."""
    return f"{path}: no such file or folder" if folder else f"{path}: no such file"


def is_usage_error(error: BaseException) -> bool:
    """True for Click's exceptions that carry a message and an exit code (usage errors among
    them), whichever copy of Click raised it (Typer brings its own from 0.2x)."""
    return hasattr(error, "exit_code") and hasattr(error, "format_message")


def one_line(error: Any, argv: Sequence[str]) -> str:
    """The one line that tells ``error`` (a Click or Typer usage error) for ``argv``."""
    ctx = getattr(error, "ctx", None)
    where = ctx.command_path if ctx is not None else "multiversus"
    kind = type(error).__name__
    param = getattr(error, "param", None)
    if kind == "NoSuchOption":
        return f"{where}: {_no_such_option(str(error.option_name), ctx)}"
    if kind == "MissingParameter" and param is not None:
        what = "option" if _is_option(param) else "argument"
        return f"{where}: missing {what} {_label(param)}"
    if param is not None:
        return f"{where}: {_label(param)}: {_reason(str(error.message), _given(argv, param))}"
    message = _plain(error.format_message())
    command = _NO_COMMAND.search(message)
    if command and ctx is not None:
        known = list(ctx.command.list_commands(ctx))
        close = difflib.get_close_matches(command["name"], known, n=1, cutoff=0.6)
        hint = f" (did you mean {close[0]}?)" if close else f"; the commands: {', '.join(known)}"
        return f"{where}: no command {command['name']!r}{hint}"
    extra = _EXTRA.match(message)
    if extra:
        return f"{where}: one argument too many: {extra['args']}"
    return f"{where}: {message}"


def _no_such_option(option: str, ctx: Any) -> str:
    if ctx is None:
        return f"no option {option}"
    known = ["--help"]
    for param in ctx.command.params:
        known.extend(o for o in (*param.opts, *param.secondary_opts) if o.startswith("-"))
    close = difflib.get_close_matches(option, known, n=1, cutoff=0.75)
    hint = f" (did you mean {close[0]}?)" if close else f"; see {ctx.command_path} --help"
    return f"no option {option}{hint}"


def _is_option(param: Any) -> bool:
    return getattr(param, "param_type_name", "") == "option"


def _label(param: Any) -> str:
    """An option by its longest name (``--format``), an argument by its metavar (``LOG``)."""
    if _is_option(param):
        longest: str = max(param.opts, key=len)
        return longest
    return str(param.metavar or param.name or "").upper()


def _given(argv: Sequence[str], param: Any) -> str | None:
    """The value ``argv`` gave ``param``, if it can be told."""
    names = (*param.opts, *param.secondary_opts) if _is_option(param) else ()
    for i, arg in enumerate(argv):
        for name in names:
            if arg == name and i + 1 < len(argv):
                return argv[i + 1]
            if arg.startswith(f"{name}="):
                return arg[len(name) + 1 :]
    return None


def _reason(message: str, given: str | None) -> str:
    """Typer's or Click's reason a value was refused, in plain words."""
    message = message.removeprefix("Value error, ").strip()
    shown = repr(given) if given is not None else "the value"
    found = _CHOICES.search(message)
    if found:
        choices = ", ".join(c.strip().strip("'\"") for c in found["choices"].split(","))
        return f"{found['given']!r} is not one of {choices}"
    if _INTEGER.search(message):
        return f"{shown} is not a whole number"
    if _NUMBER.search(message):
        return f"{shown} is not a number"
    if _BOOLEAN.search(message):
        return f"{shown} is not yes or no (true, false)"
    return _plain(message)


def _plain(message: str) -> str:
    """One line, without a closing full stop, starting in lower case."""
    line = " ".join(message.split()).rstrip(".")
    return line[:1].lower() + line[1:]


__all__ = ["is_usage_error", "no_such_file", "one_line", "program"]
