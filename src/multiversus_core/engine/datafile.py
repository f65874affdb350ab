"""Games' data files: TOML read into typed structs, every hostile input refused in one line.

A game's content (Multiversus' team sheets, a game's rosters and maps) comes
as TOML files that anyone may write, so every reader here is bounded: at
most ``max_bytes`` of the file are read, nesting deeper than ``max_depth``
is refused before the TOML parser sees it (and again after), and the TOML is
decoded by msgspec into a struct that refuses unknown fields. Every problem
is a :class:`~multiversus_core.engine.errors.DataFileError` (or the game's
subclass of it) whose message is one line naming the file and the field.

The checks a game runs on a decoded struct share the id and name rules
(:func:`check_id`, :func:`check_name`, :func:`check_range`,
:func:`check_once`, each raising through the file's :func:`failing`), and
packages offer more files through entry points read by :func:`offered`
(:class:`~multiversus_core.engine.catalog.Catalog` puts it all together).
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from os import PathLike
from pathlib import Path
from typing import Any, Final, NoReturn, Protocol, TypeVar

import msgspec
import msgspec.inspect

from multiversus_core.engine.errors import DataFileError, os_reason

MAX_ID: Final = 32
"""The longest id, in characters."""
MAX_NAME: Final = 64
"""The longest name, in characters."""
MAX_TEXT: Final = 2000
"""The longest description or rules text, in characters."""

_ID: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
"""The id alphabet: ASCII letters and digits, then also '-' and '_'."""


class Identified(Protocol):
    """A struct read from a data file: it has an id."""

    @property
    def id(self) -> str: ...


S = TypeVar("S", bound=Identified)
"""The struct a data file decodes to."""
E = TypeVar("E", bound=DataFileError)
"""The error a game raises for its data files."""


class Fail(Protocol):
    """Raises the data file's error for a field: ``fail("units[0].name", "must not be empty")``."""

    def __call__(self, field: str, reason: str) -> NoReturn: ...


def read_file(path: str | PathLike[str], max_bytes: int, error: type[E]) -> bytes:
    """Return at most ``max_bytes + 1`` bytes of a file (one more, so too big can be told).

    :raises DataFileError: (of the type ``error``) if the file cannot be read.
    """
    try:
        with Path(path).open("rb") as file:
            return file.read(max_bytes + 1)
    except OSError as exc:
        raise error(str(path), os_reason(exc)) from None


def decode_toml(
    data: bytes,
    source: str,
    struct: type[S],
    error: type[E],
    *,
    max_bytes: int,
    max_depth: int,
) -> S:
    """Decode a TOML file into ``struct`` (which should forbid unknown fields), unvalidated.

    The size and the nesting are checked before the TOML is parsed, so a
    hostile file costs little time and memory. A msgspec error names the
    field as ``$.units[0].move``.

    :raises DataFileError: (of the type ``error``) naming the source and the field at fault.
    """
    if len(data) > max_bytes:
        raise error(source, f"the file is larger than {max_bytes} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(source, f"not valid TOML: not UTF-8 ({exc.reason})") from None
    if _bracket_depth(text, max_depth) > max_depth:
        raise error(source, f"tables, arrays and keys are nested more than {max_depth} deep")
    try:
        raw = tomllib.loads(text)
    except RecursionError:  # defensive: the depth check above rules it out
        raise error(source, "not valid TOML: nested too deeply") from None
    except ValueError as exc:  # TOMLDecodeError, or an integer with too many digits
        raise error(source, f"not valid TOML: {exc}") from None
    if _depth(raw, max_depth) > max_depth:
        raise error(source, f"tables, arrays and keys are nested more than {max_depth} deep")
    try:
        return msgspec.convert(raw, type=struct)
    except msgspec.ValidationError as exc:
        claimed = raw.get("id")
        problems = structure_problems(raw, struct) or [_plain_validation(str(exc))]
        raise error(
            source, problems[0], claimed if isinstance(claimed, str) else None, problems=problems
        ) from None


MAX_PROBLEMS: Final = 50
"""The most problems :func:`structure_problems` reports of one file."""


def structure_problems(raw: object, struct: type) -> list[str]:
    """Every way ``raw`` (decoded TOML) does not fit ``struct``, each as ``field: reason`` in
    plain words: an unknown field (with the nearest known one, if close), a missing field, a
    value of the wrong kind, a value not among those allowed; at most :data:`MAX_PROBLEMS`."""
    problems: list[str] = []
    _walk(raw, msgspec.inspect.type_info(struct), "", problems)
    return problems[:MAX_PROBLEMS]


def _walk(value: object, info: msgspec.inspect.Type, field: str, problems: list[str]) -> None:
    if len(problems) >= MAX_PROBLEMS:
        return
    types = msgspec.inspect
    if isinstance(info, types.StructType):
        if not isinstance(value, dict):
            problems.append(f"{field or 'the file'}: should be a table, not {_kind(value)}")
            return
        fields = {f.encode_name: f for f in info.fields}
        for key in value:
            if key not in fields:
                close = difflib.get_close_matches(str(key), list(fields), n=1, cutoff=0.6)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                problems.append(f"{_at(field, _key(key))}: no such field{hint}")
        for name, known in fields.items():
            if name in value:
                _walk(value[name], known.type, _at(field, name), problems)
            elif known.required:
                problems.append(f"{_at(field, name)}: missing")
        return
    if isinstance(info, types.ListType | types.VarTupleType | types.SetType):
        if not isinstance(value, list | tuple):
            problems.append(f"{field}: should be a list, not {_kind(value)}")
            return
        for i, item in enumerate(value):
            _walk(item, info.item_type, f"{field}[{i}]", problems)
        return
    if isinstance(info, types.TupleType):
        if not isinstance(value, list | tuple) or len(value) != len(info.item_types):
            problems.append(
                f"{field}: should be a list of {len(info.item_types)}, not {_kind(value)}"
            )
            return
        for i, (item, item_type) in enumerate(zip(value, info.item_types, strict=True)):
            _walk(item, item_type, f"{field}[{i}]", problems)
        return
    if isinstance(info, types.LiteralType):
        if value not in info.values:
            allowed = [str(v) for v in info.values]
            close = difflib.get_close_matches(str(value), allowed, n=1, cutoff=0.6)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            problems.append(f"{field}: {value!r} is not one of {', '.join(allowed)}{hint}")
        return
    try:
        msgspec.convert(value, type=inspect_type(info))
    except (msgspec.ValidationError, TypeError):
        problems.append(f"{field}: should be {_expected(info)}, not {_kind(value)}")


def inspect_type(info: msgspec.inspect.Type) -> Any:
    """The Python type a leaf of :mod:`msgspec.inspect`'s type info stands for."""
    types = msgspec.inspect
    leaves: dict[type, Any] = {
        types.StrType: str,
        types.IntType: int,
        types.FloatType: float,
        types.BoolType: bool,
        types.NoneType: type(None),
    }
    for kind, python in leaves.items():
        if isinstance(info, kind):
            return python
    return Any


def _key(key: object) -> str:
    """A key as a field's name: as it is if plain, else quoted with its escapes visible."""
    text = str(key)
    return text if _PLAIN_KEY.fullmatch(text) else repr(text[:MAX_ID])


_PLAIN_KEY: Final = re.compile(r"[A-Za-z0-9_-]{1,32}")


def _at(field: str, name: str) -> str:
    return f"{field}.{name}" if field else name


_KINDS: Final[tuple[tuple[type, str], ...]] = (
    (bool, "true or false"),
    (int, "a whole number"),
    (float, "a number"),
    (str, "text"),
    (list, "a list"),
    (tuple, "a list"),
    (dict, "a table"),
)


def _kind(value: object) -> str:
    """What a decoded TOML value is, in words ("text", "a list", "the number 3")."""
    if isinstance(value, bool):
        return f"{str(value).lower()}"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {value[:40]!r}"
    return next((words for kind, words in _KINDS if isinstance(value, kind)), type(value).__name__)


def _expected(info: msgspec.inspect.Type) -> str:
    python = inspect_type(info)
    return next((words for kind, words in _KINDS if python is kind), "something else")


def _plain_validation(message: str) -> str:
    """msgspec's message (``Expected `int`, got `str` - at `$.units[0].move```) in the field
    first form the rest of the errors use (``units[0].move: expected int, got str``)."""
    found = re.fullmatch(r"(?P<reason>.*?)(?: - at `\$\.?(?P<field>[^`]*)`)?", message, re.DOTALL)
    if found is None or not found["field"]:
        return message.replace("`", "")
    return f"{found['field']}: {found['reason'].replace('`', '')}"


def convert_struct(item: S, struct: type[S], source: str, what: str, error: type[E]) -> S:
    """Return a struct built in Python with its field types checked as if read from TOML.

    (msgspec does not check the types given to a struct's constructor.)

    :raises DataFileError: (of the type ``error``) naming the source and the field at fault;
        ``what`` names the file's kind in the message ("sheet", "roster").
    """
    claimed = item.id if isinstance(item.id, str) else None
    try:
        plain = msgspec.to_builtins(item)
        return msgspec.convert(plain, type=struct)
    except msgspec.ValidationError as exc:
        problems = structure_problems(plain, struct) or [_plain_validation(str(exc))]
        raise error(source, problems[0], claimed, problems=problems) from None
    except (TypeError, ValueError, RecursionError) as exc:
        raise error(source, f"not a {what}'s plain data: {exc}", claimed) from None


def offered(
    group: str,
    struct: type[S],
    noun: str,
    load: Callable[[str | PathLike[str]], S],
    check: Callable[[S, str], S],
    error: type[E],
) -> Iterator[tuple[str, S] | E]:
    """Yield (source, item) for everything the entry points of ``group`` offer, or the error.

    Each entry point loads to a callable that returns items: structs built in
    Python (passed to ``check`` with their source) or paths of files (passed
    to ``load``). An entry point that cannot be loaded, is not callable,
    fails, or offers something that is not a valid item yields an error
    naming it; ``noun`` names an item in the messages ("team", "roster").
    """
    import importlib.metadata  # only when installed content is first asked for: start-up

    for point in importlib.metadata.entry_points(group=group):
        source = f"entry point {point.name!r} ({point.value})"
        try:
            provider = point.load()
        except Exception as exc:
            yield error(source, f"cannot be loaded: {exc}")
            continue
        if not callable(provider):
            yield error(source, "loads to something that is not callable")
            continue
        try:
            items = list(provider())
        except Exception as exc:
            yield error(source, f"failed to list its {noun}s: {exc}")
            continue
        for i, item in enumerate(items):
            try:
                if isinstance(item, struct):
                    where = f"{source}, {noun} {i} ({item.id})"
                    yield where, check(item, where)
                elif isinstance(item, str | PathLike):
                    yield str(item), load(item)
                else:
                    raise error(
                        source,
                        f"{noun} {i} is a {type(item).__name__}, not a {struct.__name__} or a path",
                    )
            except error as exc:
                yield exc


def check_id(value: str, field: str, fail: Fail) -> None:
    """Check an id: 1 to :data:`MAX_ID` ASCII letters, digits, '-' or '_', not starting with
    '-' or '_'."""
    if not _ID.fullmatch(value) or len(value) > MAX_ID:
        fail(
            field,
            f"an id is 1 to {MAX_ID} ASCII letters, digits, '-' or '_', "
            f"starting with a letter or digit, not {value[: MAX_ID + 8]!r}",
        )


def check_name(
    value: str, field: str, fail: Fail, *, longest: int = MAX_NAME, empty: bool = False
) -> None:
    """Check a name (or, with ``empty``, a text that may be empty): not blank, at most
    ``longest`` characters, none of them a control or format character."""
    if not value and not empty:
        fail(field, "must not be empty")
    if value and not value.strip() and not empty:
        fail(field, "must not be blank: a name of spaces only names nothing on the screen")
    if len(value) > longest:
        fail(field, f"is longer than {longest} characters")
    if not value.isprintable():
        bad = next(ch for ch in value if not ch.isprintable())
        fail(field, f"holds the control or format character {bad!r}")


def check_range(value: int, least: int, most: int, field: str, fail: Fail, below: str = "") -> None:
    """Check a count or number is from ``least`` to ``most``; ``below`` says why, if too small."""
    if value < least and below:
        fail(field, below)
    if not least <= value <= most:
        fail(field, f"must be from {least} to {most}, not {value}")


def check_once(values: Sequence[object], field: str, fail: Fail, key: str = "") -> None:
    """Check no value is listed twice; the error names the second, as ``field[j]`` (or
    ``field[j].key``, when the values are that field of each item of ``field``)."""
    for j, value in enumerate(values):
        if value in values[:j]:
            fail(f"{field}[{j}].{key}" if key else f"{field}[{j}]", f"{value!r} is listed twice")


def failing(source: str, claimed: str | None, error: type[DataFileError] = DataFileError) -> Fail:
    """Return the :class:`Fail` of a data file: it raises ``error`` naming the source, the
    field, and the id the file claims."""

    def fail(field: str, reason: str) -> NoReturn:
        raise error(source, f"{field}: {reason}", claimed)

    return fail


class _Stop(Exception):
    """A part of a data file has a problem: the rest of that part is not checked."""


class Problems:
    """Every problem of a data file, found part by part: within a part (a unit, a scenario)
    the first problem stops it, since what follows may not make sense; the next part is
    checked all the same.

    Use :meth:`fail` as the :class:`Fail` of the checks, each part in ``with problems.part():``,
    and :meth:`raise_if_any` where the checks need the earlier parts sound to go on.
    """

    def __init__(self) -> None:
        self.found: list[str] = []
        """Each problem as ``field: reason``, in the order found."""

    def fail(self, field: str, reason: str) -> NoReturn:
        """Record a problem and stop the part it is in."""
        self.found.append(f"{field}: {reason}")
        raise _Stop

    @contextmanager
    def part(self) -> Iterator[None]:
        """A part of the file: a problem in it stops it, not the checks after it."""
        with suppress(_Stop):
            yield

    def raise_if_any(self, source: str, claimed: str | None, error: type[E]) -> None:
        """Raise ``error`` with every problem found so far, if there is one."""
        if self.found:
            raise error(source, self.found[0], claimed, problems=self.found)


def numbered(item_id: str, name: str, count: int) -> tuple[tuple[str, str], ...]:
    """Return the id and name of each of ``count`` items of a kind: the kind's own when there
    is one, else ``<id>-<n>`` and ``<name> <n>`` from 1 ("goblin-2", "Goblin 2")."""
    if count == 1:
        return ((item_id, name),)
    return tuple((f"{item_id}-{n}", f"{name} {n}") for n in range(1, count + 1))


_STRING: Final = r'"""(?:[^\\]|\\.)*?"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\''
_KEY_PART: Final = r'[A-Za-z0-9_-]+|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\''
_TOKENS: Final = re.compile(
    rf"(?P<key>(?<![A-Za-z0-9_-])(?:{_KEY_PART})(?:[ \t]*\.[ \t]*(?:{_KEY_PART}))+)"
    rf"|{_STRING}|#[^\n]*|[\[\]{{}}]",
    re.DOTALL,
)
"""TOML dotted keys (their parts counted), strings and comments (skipped) and brackets."""
_KEY_PARTS: Final = re.compile(_KEY_PART)


def _bracket_depth(text: str, limit: int) -> int:
    """Return the deepest nesting of brackets, braces and dotted keys outside strings and
    comments, or a number above ``limit`` as soon as it is passed.

    Counted before parsing because the TOML parser recurses on brackets and
    takes time quadratic in the parts of a dotted key.
    """
    depth = deepest = 0
    for token in _TOKENS.finditer(text):
        key = token.group("key")
        if key is not None:
            deepest = max(deepest, depth + len(_KEY_PARTS.findall(key)))
            if deepest > limit:
                break
            continue
        match token.group():
            case "[" | "{":
                depth += 1
                deepest = max(deepest, depth)
                if deepest > limit:
                    break
            case "]" | "}":
                depth = max(0, depth - 1)
    return deepest


def _depth(value: object, limit: int) -> int:
    """Return how deeply tables and arrays nest in a decoded value (dotted keys included), or a
    number above ``limit`` as soon as it is passed."""
    deepest = 0
    stack: list[tuple[dict[str, object] | list[object], int]] = []
    if isinstance(value, dict | list):
        stack.append((value, 1))
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if deepest > limit:
            break
        children = item.values() if isinstance(item, dict) else item
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return deepest
