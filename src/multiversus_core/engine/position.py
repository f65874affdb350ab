"""Positions as text, as FEN is for chess: any state a game can reach, on one line.

A position reads ``GAME/VERSION FIELD FIELD ...``: the game's id and the version of
its payload (its rules version; the log format version for a game whose rules
version is 0), then ``name=value`` fields naming the state's fields. A value is a
bare word (``phase=play``, ``active=heroes``) or compact JSON (``round=2``,
``acted=["1.captain"]``, ``settings={"seed":7}``).

The text is short because it is written *against a template*: the state a match
has before anything happens (:meth:`Ruleset.initial_state`, where each game lays
out its bundled content: maps, rosters, team sheets, named by id in the
settings), and only what differs from it is written. A field equal to the
template's is left out; a struct is written as the fields that differ
(``{"health":2,"at":[3,4]}``), a tuple of structs as the elements that differ,
by id where they have one (``units={"1.captain":{"prone":true}}``), by index
otherwise; ``{"=": value}`` replaces a struct whole. A game whose content is
laid out later in the match (Multiversus' teams, chosen at set-up) offers a
:class:`Notation`: the fields the template depends on (written first), and the
template they give.

A position read is one the game can hold: its types as a log's, then each integer
within the bounds the rules give it and each id one that exists (the game's
:meth:`Notation.limits`, checked by :func:`check_limits`), then the game's own
checks; :class:`PositionError` names the first field wrong.

A position written from the referee's state holds everything, its secrets
included (hidden selections, their salts, the chance seed when known): it is
the referee's, as the state is. To share one publicly, write it without its
chance seed (:func:`without_chance`), as a log's header records the position its
match started from, and mind that any other secret it holds is then public.

A viewer's position (:func:`redact_position`) is a referee's position as one
viewer may know it: each secret committed before it and hidden from them is
replaced by a stand-in that depends only on what they see (the game's
:meth:`Notation.hide`), and a last field, ``hidden``, lists the audit keys of
the secrets stood in for (``hidden=["coins:heroes:"]``). It is read with
:func:`read_redacted_position`, never as a position to play from; a reveal later
in the match fills each stand-in in (:func:`fill_position`, the game's
:meth:`Notation.fill`), as a view log's placeholders are.

Every state is a msgspec struct with a ``settings`` field; a game with secret
chance keeps its chance seed in a field named ``chance`` (every bundled game does).
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final, NamedTuple, Protocol, TypeAlias

import msgspec

from multiversus_core.engine.audit import Revealed
from multiversus_core.engine.chance import Chance
from multiversus_core.engine.errors import MultiversusError, SettingsError, UnknownGameError
from multiversus_core.engine.records import LOG_VERSION, LogHeader
from multiversus_core.engine.registry import AnyRuleset, load_ruleset, ruleset_of
from multiversus_core.engine.ruleset import REFEREE, Table, with_secret_chance

__all__ = [
    "HIDDEN",
    "MAX_DRAWS",
    "MAX_POSITION",
    "Bound",
    "Initial",
    "Known",
    "Limit",
    "Notation",
    "PositionError",
    "Redacted",
    "check_limits",
    "check_squares",
    "edit_position",
    "fill_position",
    "notation_version",
    "opening_position",
    "opening_state",
    "read_position",
    "read_redacted_position",
    "redact_position",
    "start_position",
    "with_opened_chance",
    "without_chance",
    "write_position",
]

Square: TypeAlias = tuple[int, int]
"""A square of a board: (column, row)."""

MAX_POSITION: Final = 16_384
"""The longest position text, in characters: longer text is refused before it is read."""


MAX_DRAWS: Final = 1_000_000
"""The most chance draws a position's ``draws`` counter may count, in any game: far more
than any match takes, and it keeps a counter from being absurd."""


class PositionError(MultiversusError, ValueError):
    """A position text that cannot be read: not well formed, of an unknown game or
    version, or naming a state the game cannot hold. The message is one line."""


class Bound(NamedTuple):
    """An integer of a position, and the range the rules allow it."""

    path: str
    """Where it is, as an error names it: ``round``, ``units.1.captain.health``."""
    value: int
    low: int
    high: int


class Known(NamedTuple):
    """An id a position names, and the ids that exist where it is used."""

    path: str
    """Where it is, as an error names it: ``acted``, ``heroes.stash``."""
    value: str | int
    ids: Collection[str | int]
    what: str = "an id"
    """What the ids are, in words, as an error says the value is not one: ``a unit``,
    ``a coin of the heroes``, ``a seat``."""


Limit: TypeAlias = Bound | Known
"""What a game bounds in a position: an integer's range, or an id that must exist."""


class Notation(Protocol):
    """What a game whose content is laid out during the match tells the notation.

    Offered as the ruleset's ``notation`` attribute; a game without one is written
    against its initial state.
    """

    @property
    def keys(self) -> tuple[str, ...]:
        """The state's fields the template depends on (beyond the settings), written first."""
        ...

    def template(self, state: Any) -> Any:
        """The state to write a position against: ``state`` (the initial state with the
        :attr:`keys` fields set) with the content those fields name laid out.

        :raises PositionError: if the content they name is not installed.
        """
        ...

    def limits(self, state: Any) -> Iterable[Limit]:
        """What the rules bound in ``state``, beyond its types: each integer with the range
        the rules allow it (the round within the match's rounds, a figure's health within
        its own), each id with the ids that exist (a unit, a coin). The engine checks them
        (:func:`check_limits`) before :meth:`check`; the ``draws`` counter is bounded for
        every game."""
        ...

    def check(self, state: Any) -> None:
        """Check what the types and :meth:`limits` of a state read from text do not: every
        piece on the board and no square held twice, and the like.

        :raises PositionError: naming the first thing wrong.
        """
        ...

    def hide(self, state: Any, viewer: str) -> tuple[Any, tuple[str, ...]]:
        """``state`` as ``viewer`` (one of the game's viewers) may know it, as a position: each
        secret it holds that is hidden from them replaced by a stand-in that depends only on
        what they see (so that ``view(hidden, viewer) == view(state, viewer)``), its salt
        empty; and the audit keys of the secrets stood in for (the keys its auditor's
        :meth:`~.audit.Auditor.start_at` holds them under), in order.

        Hiding a state already hidden for ``viewer`` gives it back, with the same keys.
        """
        ...

    def fill(self, state: Any, key: str, revealed: Revealed | None) -> Sequence[Any]:
        """The states the stand-in for the secret under ``key`` in a hidden ``state`` may
        stand for: with ``revealed`` (what its reveal later in the match gives), the one
        state holding that secret and salt; without, stand-ins the viewer cannot tell from
        the truth, ``state`` first, and every one the rules could later tell apart (as the
        game's ``fill_event`` offers for a placeholder never revealed)."""
        ...


class Initial:
    """The notation of a game whose initial state holds all its content: a game may
    subclass it for :meth:`check`."""

    keys: tuple[str, ...] = ()

    def template(self, state: Any) -> Any:
        """The state itself: the initial state of its settings."""
        return state

    def limits(self, state: Any) -> Iterable[Limit]:
        """No limits beyond the types (and the engine's bound on ``draws``): override to
        bound more."""
        return ()

    def check(self, state: Any) -> None:
        """Nothing beyond the types: override to check more."""

    def hide(self, state: Any, viewer: str) -> tuple[Any, tuple[str, ...]]:
        """The state itself, hiding nothing: for a game whose positions hold no secret (its
        chance seed aside, which a position to share leaves out); override to hide one."""
        return state, ()

    def fill(self, state: Any, key: str, revealed: Revealed | None) -> Sequence[Any]:
        """Nothing is hidden: no key is ever filled in.

        :raises ValueError: always.
        """
        raise ValueError(f"no secret is hidden under {key!r} in a position of this game")


def check_squares(pieces: Iterable[tuple[str, Iterable[Square]]], width: int, height: int) -> None:
    """Check each named piece's squares are on a board ``width`` by ``height`` (columns and
    rows from 0), and that no square is held twice.

    :raises PositionError: naming the piece.
    """
    held: dict[Square, str] = {}
    for name, squares in pieces:
        for column, row in squares:
            if not (0 <= column < width and 0 <= row < height):
                raise PositionError(f"{name} stands at ({column},{row}), off the board")
            other = held.setdefault((column, row), name)
            if other != name:
                raise PositionError(f"{name} and {other} both stand at ({column},{row})")


def check_limits(limits: Iterable[Limit]) -> None:
    """Check each integer is within its bound and each id exists.

    :raises PositionError: naming the first field out of bounds, in one line.
    """
    for limit in limits:
        match limit:
            case Bound(path, value, low, high):
                if not low <= value <= high:
                    raise PositionError(f"{path}: {_number(value)} is not within {low} to {high}")
            case Known(path, value, ids, what):
                if value not in ids:
                    named = repr(value[:40]) if isinstance(value, str) else _number(value)
                    raise PositionError(f"{path}: {named} is not {what}")


def _number(value: int) -> str:
    text = str(value)
    return text if len(text) <= 12 else f"a number of {len(text.lstrip('-'))} digits"


_WORD: Final = re.compile(r"[A-Za-z][A-Za-z0-9_.:-]*")
_NAME: Final = re.compile(r"[a-z_][a-z0-9_]*")
_HEAD: Final = re.compile(r"([a-z0-9][a-z0-9-]*)/(\d{1,6})")
_JSON: Final = json.JSONDecoder()
_KEYWORDS: Final = frozenset({"true", "false", "null"})
_WHOLE: Final = "="


def notation_version(ruleset: AnyRuleset) -> int:
    """The version a game's positions name: its rules version, or the log format version
    for a game whose rules version is 0 (its payload's version is the format's)."""
    return ruleset.rules_version or LOG_VERSION


def _notation(ruleset: AnyRuleset) -> Notation:
    notation: Notation = getattr(ruleset, "notation", None) or Initial()
    return notation


def without_chance(state: Any) -> Any:
    """``state`` without its secret chance seed: what may be shown to anyone."""
    if getattr(state, "chance", None) is None:
        return state
    return msgspec.structs.replace(state, chance=None)


# --- writing ----------------------------------------------------------------------------------


def write_position(state: Any) -> str:
    """Return the position text of a state of any installed game.

    ``read_position(write_position(state))`` gives back a state equal to ``state``.

    :raises UnknownGameError: if no installed game has settings of the state's type.
    :raises PositionError: if the content the state names is not installed, or the text
        would be longer than :data:`MAX_POSITION`.
    """
    ruleset = ruleset_of(state.settings)
    notation = _notation(ruleset)
    fields: list[tuple[str, Any]] = []
    settings = state.settings
    default = _default_settings(ruleset)
    if settings != default:
        fields.append(("settings", _diff(settings, default)))
    base = ruleset.initial_state(settings, None)
    keyed = msgspec.structs.replace(base, **{k: getattr(state, k) for k in notation.keys})
    for name in notation.keys:
        if getattr(state, name) != getattr(base, name):
            fields.append((name, _diff(getattr(state, name), getattr(base, name))))
    template = notation.template(keyed)
    for name in state.__struct_fields__:
        if name == "settings" or name in notation.keys:
            continue
        value, was = getattr(state, name), getattr(template, name)
        if value != was:
            fields.append((name, _diff(value, was)))
    head = f"{ruleset.id}/{notation_version(ruleset)}"
    text = " ".join([head, *(f"{name}={_value_text(value)}" for name, value in fields)])
    if len(text) > MAX_POSITION:
        raise PositionError(
            f"the position is {len(text)} characters, more than the {MAX_POSITION} allowed"
        )
    return text


def _default_settings(ruleset: AnyRuleset) -> Any:
    try:
        return ruleset.settings_type()
    except TypeError:  # settings with a field no default fills: written whole
        return None


def _diff(value: Any, template: Any) -> Any:
    """What a value differs by from the template's (as JSON builtins); they differ."""
    if isinstance(template, msgspec.Struct):
        if type(value) is type(template):
            return {
                name: _diff(getattr(value, name), getattr(template, name))
                for name in value.__struct_fields__
                if getattr(value, name) != getattr(template, name)
            }
        if isinstance(value, msgspec.Struct):
            return {_WHOLE: _sparse(value)}
        return _sparse(value)
    if _alike(value, template):
        if _has_ids(template):
            return {
                new.id: _diff(new, old)
                for new, old in zip(value, template, strict=True)
                if new != old
            }
        return {
            str(i): _diff(new, old)
            for i, (new, old) in enumerate(zip(value, template, strict=True))
            if new != old
        }
    return _sparse(value)


def _sparse(value: Any) -> Any:
    """A value as JSON builtins, each struct without the fields equal to their defaults."""
    if isinstance(value, msgspec.Struct):
        config = value.__struct_config__
        out: dict[str, Any] = {}
        if isinstance(config.tag_field, str):
            out[config.tag_field] = config.tag
        for field in _fields_of(type(value)):
            item = getattr(value, field.name)
            if field.default is not msgspec.NODEFAULT and item == field.default:
                continue
            if field.default_factory is not msgspec.NODEFAULT and item == field.default_factory():
                continue
            out[field.encode_name] = _sparse(item)
        return out
    if isinstance(value, (tuple, list)):
        return [_sparse(item) for item in value]
    return msgspec.to_builtins(value)


_FIELDS: Final[dict[type, tuple[msgspec.structs.FieldInfo, ...]]] = {}
_TYPES: Final[dict[type, Mapping[str, Any]]] = {}


def _fields_of(struct: type) -> tuple[msgspec.structs.FieldInfo, ...]:
    """A struct type's fields, found once: msgspec evaluates a struct's annotations
    (postponed, as strings) again at each asking, the most of a position's reading."""
    found = _FIELDS.get(struct)
    if found is None:
        found = _FIELDS[struct] = msgspec.structs.fields(struct)
    return found


def _types_of(struct: type) -> Mapping[str, Any]:
    """A struct type's field types, by field name, found once."""
    found = _TYPES.get(struct)
    if found is None:
        found = _TYPES[struct] = MappingProxyType({f.name: f.type for f in _fields_of(struct)})
    return found


def _alike(value: Any, template: Any) -> bool:
    """Both tuples of structs, element by element of the same type (and ids, if any)."""
    if not (isinstance(value, tuple) and isinstance(template, tuple)):
        return False
    if not template or len(value) != len(template):
        return False
    if not all(
        isinstance(old, msgspec.Struct) and type(new) is type(old)
        for new, old in zip(value, template, strict=True)
    ):
        return False
    return not _has_ids(template) or [n.id for n in value] == [o.id for o in template]


def _has_ids(items: tuple[Any, ...]) -> bool:
    return all(isinstance(getattr(item, "id", None), str) for item in items)


def _value_text(value: Any) -> str:
    if isinstance(value, str) and _WORD.fullmatch(value) and value not in _KEYWORDS:
        return value
    return msgspec.json.encode(value).decode()


# --- reading ----------------------------------------------------------------------------------


def read_position(text: str, game: str | None = None) -> Any:
    """Return the state a position text names, of the game it names.

    ``game``, when given, is the game the text must be of.

    :raises PositionError: naming the first thing wrong, in one line; for a viewer's
        position (its stand-ins are not the match's secrets).
    """
    ruleset, fields = _read(text, game)
    if HIDDEN in fields:
        raise PositionError(
            "the position is a viewer's, with secrets hidden (its field hidden): "
            "it names no state to play from"
        )
    return _state(ruleset, fields)


def _read(text: str, game: str | None) -> tuple[AnyRuleset, dict[str, Any]]:
    """The game a position text names, and its fields (unread)."""
    if not isinstance(text, str):
        raise PositionError("a position is text")
    if len(text) > MAX_POSITION:
        raise PositionError(f"a position is at most {MAX_POSITION} characters, not {len(text)}")
    text = text.strip()
    head, _, rest = text.partition(" ")
    matched = _HEAD.fullmatch(head)
    if matched is None:
        raise PositionError(
            f"a position begins with its game and version, such as 'tiles-d6/1', not {head[:40]!r}"
        )
    game_id, version = matched.group(1), int(matched.group(2))
    if game is not None and game_id != game:
        raise PositionError(f"the position is of {game_id}, not of {game}")
    try:
        ruleset = load_ruleset(game_id)
    except UnknownGameError:
        raise PositionError(f"no installed game is called {game_id!r}") from None
    if version != notation_version(ruleset):
        raise PositionError(
            f"the position is of {game_id} version {version}; "
            f"this engine reads version {notation_version(ruleset)}"
        )
    return ruleset, _fields(rest)


def _fields(text: str) -> dict[str, Any]:
    """The ``name=value`` fields of a position's body, in order."""
    fields: dict[str, Any] = {}
    at = 0
    while at < len(text):
        if text[at] == " ":
            raise PositionError(f"character {at + 1} of the fields: one space between fields")
        equals = text.find("=", at)
        name = text[at:equals] if equals >= 0 else text[at:].split(" ")[0]
        if equals < 0 or not _NAME.fullmatch(name):
            raise PositionError(f"a field is name=value, not {text[at:].split(' ')[0][:40]!r}")
        if name in fields:
            raise PositionError(f"field {name} is given twice")
        at = equals + 1
        value, at = _value(text, at, name)
        fields[name] = value
        if at < len(text):
            if text[at] != " ":
                raise PositionError(f"field {name}: a space must follow its value")
            at += 1
    return fields


def _value(text: str, at: int, name: str) -> tuple[Any, int]:
    if at < len(text) and text[at] in '"[{':
        try:
            return _JSON.raw_decode(text, at)
        except json.JSONDecodeError as error:
            where = f"character {error.pos - at + 1} of its value"
            reason = error.msg.lower().removesuffix(" at")
            raise PositionError(f"field {name}: {reason}, {where}") from None
        except RecursionError:
            raise PositionError(f"field {name}: its value is nested too deeply") from None
    end = text.find(" ", at)
    end = len(text) if end < 0 else end
    word = text[at:end]
    if not word:
        raise PositionError(f"field {name} has no value")
    if _WORD.fullmatch(word) and word not in _KEYWORDS:
        return word, end
    try:
        return json.loads(word), end
    except json.JSONDecodeError:
        raise PositionError(f"field {name}: {word[:40]!r} is neither a word nor JSON") from None


def _state(ruleset: AnyRuleset, fields: dict[str, Any]) -> Any:
    notation = _notation(ruleset)
    default = _default_settings(ruleset)
    if "settings" in fields or default is None:
        settings = _apply(fields.pop("settings", None), default, ruleset.settings_type, "settings")
    else:
        settings = default
    try:
        ruleset.check_settings(settings)
        base = ruleset.initial_state(settings, None)
    except SettingsError as error:
        raise PositionError(f"settings: {error}") from None
    known = base.__struct_fields__
    for name in fields:
        if name not in known or name == "settings":
            raise PositionError(f"{ruleset.id} has no field {name!r}")
    annotations = _types_of(type(base))
    keyed = {
        k: _apply(fields.pop(k), getattr(base, k), annotations[k], k)
        for k in notation.keys
        if k in fields
    }
    template = notation.template(msgspec.structs.replace(base, **keyed))
    changes = {
        name: _apply(value, getattr(template, name), annotations[name], name)
        for name, value in fields.items()
    }
    state = msgspec.structs.replace(template, **changes)
    _check(ruleset, state)
    return state


def _check(ruleset: AnyRuleset, state: Any) -> None:
    """Check a state read or edited from text: the limits, the game's checks, the questions."""
    draws = getattr(state, "draws", None)
    if isinstance(draws, int):
        check_limits([Bound("draws", draws, 0, MAX_DRAWS)])
    notation = _notation(ruleset)
    check_limits(notation.limits(state))
    notation.check(state)
    _check_state(ruleset, state)


def _apply(diff: Any, template: Any, annotation: Any, path: str) -> Any:
    """The value a diff (as :func:`_diff` writes it) makes of the template's."""
    if isinstance(template, msgspec.Struct) and isinstance(diff, dict):
        if _WHOLE in diff:
            if len(diff) != 1:
                raise PositionError(f"{path}: a whole value ({{'=': ...}}) stands alone")
            return _convert(diff[_WHOLE], annotation, path)
        fields = _types_of(type(template))
        changes = {}
        for name, value in diff.items():
            if name not in fields:
                raise PositionError(f"{path} has no field {name!r}")
            changes[name] = _apply(value, getattr(template, name), fields[name], f"{path}.{name}")
        return msgspec.structs.replace(template, **changes)
    if isinstance(template, tuple) and isinstance(diff, dict) and template:
        items = list(template)
        if _has_ids(template):
            index = {item.id: i for i, item in enumerate(template)}
        else:
            index = {str(i): i for i in range(len(template))}
        for key, value in diff.items():
            if key not in index:
                raise PositionError(f"{path} has no {key!r}")
            old = items[index[key]]
            if not isinstance(old, msgspec.Struct):
                raise PositionError(f"{path}.{key}: give the whole value, not its changes")
            items[index[key]] = _apply(value, old, type(old), f"{path}.{key}")
        return tuple(items)
    return _convert(diff, annotation, path)


def _convert(value: Any, annotation: Any, path: str) -> Any:
    try:
        return msgspec.convert(value, annotation)
    except msgspec.ValidationError as error:
        reason = str(error).replace("\n", " ")
        raise PositionError(f"{path}: {reason[:1].lower()}{reason[1:]}") from None


def _check_state(ruleset: AnyRuleset, state: Any) -> None:
    """Ask the game the questions every position must answer, as one line if it cannot."""
    try:
        ruleset.where(state)
        ruleset.outcome(state)
        for seat in ruleset.to_act(state):
            ruleset.legal_commands(state, seat)
    except MultiversusError as error:
        raise PositionError(f"the game cannot hold this position: {error}") from None
    except (LookupError, ValueError, TypeError, AttributeError, AssertionError) as error:
        reason = str(error) or type(error).__name__
        raise PositionError(f"the game cannot hold this position: {reason}") from None


# --- a viewer's position -----------------------------------------------------------------------

HIDDEN: Final = "hidden"
"""The field of a viewer's position that lists the audit keys of the secrets stood in for."""


class Redacted(NamedTuple):
    """A viewer's position, read: the state with its stand-ins, and what they stand in for."""

    state: Any
    """The state, each secret hidden from the viewer a stand-in with an empty salt."""
    hidden: tuple[str, ...]
    """The audit keys of the secrets stood in for, in order."""


def redact_position(text: str, viewer: str) -> str:
    """Return the position ``text`` (a referee's) as ``viewer`` may know it: each secret it
    holds that is hidden from them replaced by a stand-in (the game's
    :meth:`Notation.hide`), and, if any, a last field ``hidden`` listing their audit keys
    (``hidden=["bid:2:3"]``). The referee's is ``text`` itself, written again.

    :raises PositionError: if ``text`` cannot be read.
    :raises ValueError: if ``viewer`` is not one of the game's viewers nor the referee, or
        the game hides a secret so that the viewer's view of the state changes, or leaves
        the salt of one its view hides in the text (its bugs).
    """
    state = read_position(text)
    ruleset = ruleset_of(state.settings)
    if viewer == REFEREE:
        return write_position(state)
    if viewer not in ruleset.viewers:
        raise ValueError(f"no viewer {viewer!r} ({', '.join(ruleset.viewers)} or {REFEREE})")
    hidden, keys = _notation(ruleset).hide(state, viewer)
    seen = ruleset.view(state, viewer)
    if ruleset.view(hidden, viewer) != seen:
        raise ValueError(f"{ruleset.id}: hiding a position changes what {viewer} sees of it")
    written = write_position(hidden)
    # A salt the viewer's view does not show is a secret hidden from them: never written.
    shown = msgspec.json.encode(seen).decode()
    for held in ruleset.auditor(state.settings).start_at(hidden):
        if held.salt and held.salt in written and held.salt not in shown:
            raise ValueError(f"{ruleset.id}: a position as {viewer} sees it shows {held.what}")
    return f"{written} {HIDDEN}={_value_text(list(keys))}" if keys else written


def read_redacted_position(text: str, viewer: str, game: str | None = None) -> Redacted:
    """Return the state a viewer's position names, its stand-ins as they are, and the keys of
    the secrets they stand in for. A referee's position, or one hiding nothing, is a
    viewer's with nothing hidden.

    ``game``, when given, is the game the text must be of.

    :raises PositionError: naming the first thing wrong, in one line; or if its stand-ins
        or its ``hidden`` field are not what ``viewer``'s position has (it was edited, or is
        another viewer's).
    """
    ruleset, fields = _read(text, game)
    keys = fields.pop(HIDDEN, None)
    if keys is None:
        keys = []
    elif not (isinstance(keys, list) and keys and all(isinstance(k, str) for k in keys)):
        raise PositionError(f"field {HIDDEN}: a list of the keys of the secrets hidden")
    state = _state(ruleset, fields)
    if viewer == REFEREE:
        if keys:
            raise PositionError("the referee's position hides nothing")
        return Redacted(state, ())
    if viewer not in ruleset.viewers:
        raise PositionError(f"no viewer {viewer!r} of {ruleset.id}")
    again, hidden = _notation(ruleset).hide(state, viewer)
    if hidden != tuple(keys) or again != state:
        raise PositionError(
            f"the position is not as the {viewer} sees it: a stand-in, or the list of the "
            f"secrets it hides ({HIDDEN}), was changed"
        )
    return Redacted(state, hidden)


def fill_position(
    position: Redacted, revealed: Mapping[str, Revealed], most: int = 64
) -> tuple[Any, ...]:
    """Return the states a viewer's position may stand for, each stand-in filled in from
    what its reveal gives (``revealed``, by key), or, never revealed, with each stand-in
    the game offers (its :meth:`Notation.fill`); at most ``most``, the first with every
    unrevealed stand-in as it is.

    :raises ValueError: if the game fills a stand-in with nothing (its bug).
    """
    if not position.hidden:
        return (position.state,)
    notation = _notation(ruleset_of(position.state.settings))
    ways = [position.state]
    for key in position.hidden:
        grown = [way for state in ways for way in notation.fill(state, key, revealed.get(key))]
        if not grown:
            raise ValueError(f"the game filled the stand-in for {key!r} with nothing")
        ways = grown[:most]
    return tuple(ways)


# --- editing ------------------------------------------------------------------------------------


def edit_position(text: str, changes: str) -> str:
    """Return the position ``text`` with ``changes`` made: fields as a position writes them
    (``round=6 units={"1.captain":{"prone":true}}``), each written against the position's
    own value rather than the match's start (a struct's fields or a tuple's elements named
    change, the others stay; any other value replaces it).

    :raises PositionError: if either cannot be read, or the result is not a position.
    """
    state = read_position(text)
    ruleset = ruleset_of(state.settings)
    annotations = _types_of(type(state))
    fields = _fields(changes.strip())
    for name in fields:
        if name not in annotations:
            raise PositionError(f"{ruleset.id} has no field {name!r}")
    edited = msgspec.structs.replace(
        state,
        **{
            name: _apply(value, getattr(state, name), annotations[name], name)
            for name, value in fields.items()
        },
    )
    _check(ruleset, edited)
    return write_position(edited)


# --- starting from a position -----------------------------------------------------------------


def start_position(
    text: str, *, seed: int | None = None, players: tuple[str, ...] | None = None
) -> tuple[Any, Chance | None]:
    """Return the state a new match starts from at a position, and its secret chance seed.

    The position's chance is never kept: the match gets a fresh secret chance seed
    (None is returned for it only when ``seed`` is given, a public seed for its
    chance, as for reproducible tests). ``players`` renames the seats.

    :raises PositionError: if the text cannot be read, or ``seed`` or ``players`` are not
        fit for the game.
    """
    state = read_position(text)
    ruleset = ruleset_of(state.settings)
    settings = state.settings
    table = ruleset.table(settings)
    names = table.players if players is None else tuple(players)
    chance: Chance | None = None
    if seed is None:
        settings, chance = with_secret_chance(
            ruleset, ruleset.with_table(settings, Table(0, "", table.salts, names))
        )
    else:
        settings = ruleset.with_table(settings, Table(seed, "", table.salts, names))
    try:
        ruleset.check_settings(settings)
    except SettingsError as error:
        raise PositionError(f"settings: {error}") from None
    fields = {"settings": settings}
    if "chance" in state.__struct_fields__:
        fields["chance"] = chance
    return msgspec.structs.replace(state, **fields), chance


def opening_state(ruleset: AnyRuleset, header: LogHeader[Any], chance: Chance | None) -> Any:
    """The state a log's match begins from: the position its header names, or the game's
    initial state; with ``chance``, the secret chance seed the settings commit to, if known.

    :raises PositionError: if the header's position cannot be read, or is not of its
        settings.
    :raises SettingsError: if ``chance`` does not open the settings' commitment.
    """
    if not header.position:
        return ruleset.initial_state(header.settings, chance)
    state = opening_position(ruleset, header).state
    return with_opened_chance(ruleset, header, state, chance)


def opening_position(
    ruleset: AnyRuleset, header: LogHeader[Any], viewer: str = REFEREE
) -> Redacted:
    """The position a log's match begins from as ``viewer`` knows it (the header of a
    viewer's log names their position; a match log's, the referee's): the game's initial
    state, hiding nothing, for a match from the start. No chance seed is in it.

    :raises PositionError: if the header's position cannot be read, is not ``viewer``'s,
        holds its chance seed, or is not of its settings.
    """
    if not header.position:
        return Redacted(ruleset.initial_state(header.settings, None), ())
    if viewer == REFEREE:
        found = Redacted(read_position(header.position, ruleset.id), ())
    else:
        found = read_redacted_position(header.position, viewer, ruleset.id)
    if found.state.settings != header.settings:
        raise PositionError("the header's position and settings name different settings")
    if getattr(found.state, "chance", None) is not None:
        raise PositionError("the header's position holds its chance seed: it must not")
    return found


def with_opened_chance(
    ruleset: AnyRuleset, header: LogHeader[Any], state: Any, chance: Chance | None
) -> Any:
    """``state``, a log's first, with ``chance``, the secret chance seed its header's
    settings commit to, if known.

    :raises SettingsError: if ``chance`` does not open the settings' commitment.
    """
    if chance is None:
        return state
    ruleset.initial_state(header.settings, chance)  # checks it opens the commitment
    return msgspec.structs.replace(state, chance=chance)
