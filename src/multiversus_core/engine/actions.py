"""Commands as integers: the action ids a game's commands have in every state.

Algorithms from outside the engine (OpenSpiel's, see :mod:`multiversus_core.openspiel`)
number a game's moves: an id must mean the same command in every state of
every match of a game's settings. A game declares that numbering as an
:class:`ActionCodec`: each kind of command (a command struct, with some
fields fixed) and the values each of its other fields may take; an id is
the kind's offset plus the field values' positions, mixed radix. The seat
giving the command is not part of its id (the seat to act gives it), nor
its salt, nor the chance it may supply (the chance points below).

A decision given as a :class:`~.choices.CommandTree` is built one choice at
a time: each option key the game's trees may offer has an id of its own,
after the commands' (:attr:`ActionCodec.keys`), meaning "choose this
option" in every state.

Chance: a kind names the field through which a command supplies the chance
it draws (a die rolled at the table). Such a command given without it is a
chance point: its dice are rolled one by one, each a chance outcome, and the
command is then given with them. A field of one die (``die``) always rolls
one die of :attr:`Kind.sides` faces; a field of several (``dice``) rolls
:attr:`Kind.rolls` of them, or as many as the rules ask, which the engine
finds by asking ``decide`` with the dice rolled so far
(:class:`~.chance.TooFewDiceError` names the next die's faces).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final, Generic, Literal, NamedTuple, TypeVar, cast

import msgspec

from multiversus_core.engine.chance import TooFewDiceError

C = TypeVar("C", bound=msgspec.Struct)
"""A game's command type."""


class Kind(NamedTuple):
    """One kind of command: its struct, its fields' values, and where it supplies chance."""

    type: type[msgspec.Struct]
    """The command struct."""
    fields: tuple[tuple[str, tuple[Any, ...]], ...] = ()
    """Each field the id tells, with every value it may take (hashable), in id order."""
    fixed: tuple[tuple[str, Any], ...] = ()
    """Fields with one value for this kind (a command of the struct with other values is of
    another kind)."""
    chance: str | None = None
    """The field through which the command supplies its chance; None if it draws none."""
    dice: Literal["one", "many"] = "one"
    """Whether ``chance`` holds one die (an int) or several (a tuple)."""
    sides: int = 6
    """The faces of a ``"one"`` die (a coin: 2), or of each of ``rolls`` dice."""
    rolls: int | None = None
    """For ``"many"``: how many dice the command always rolls, or None if the rules say."""
    built: bool = False
    """Only ever built by a tree of choices: its one id stands for any command of the struct
    (it tells the kind and its chance) and is never offered: the tree's keys are."""

    @property
    def size(self) -> int:
        """How many ids the kind takes."""
        size = 1
        for _, values in self.fields:
            size *= len(values)
        return size


class ActionCodec(Generic[C]):
    """A game's commands and choice keys as integers, the same in every state.

    Built once per settings (the domains of the fields may come from the game's content).

    :raises ValueError: if a field lists a value twice, or a key is listed twice.
    """

    def __init__(self, kinds: Sequence[Kind], keys: Sequence[str] = ()) -> None:
        self.kinds: Final = tuple(kinds)
        """The kinds of command, in id order."""
        self.keys: Final = tuple(keys)
        """Every option key a tree of the game may offer, in id order, after the commands."""
        self._offsets: list[int] = []
        self._positions: list[tuple[dict[Any, int], ...]] = []
        self._by_type: dict[type, list[int]] = {}
        offset = 0
        for index, kind in enumerate(self.kinds):
            self._offsets.append(offset)
            positions = []
            for name, values in kind.fields:
                position = {value: n for n, value in enumerate(values)}
                if len(position) != len(values):
                    raise ValueError(f"{kind.type.__name__}.{name} lists a value twice")
                positions.append(position)
            self._positions.append(tuple(positions))
            self._by_type.setdefault(kind.type, []).append(index)
            offset += kind.size
        self.commands: Final = offset
        """How many ids the commands take: a key's id comes after them."""
        self._key_ids = {key: self.commands + n for n, key in enumerate(self.keys)}
        if len(self._key_ids) != len(self.keys):
            raise ValueError("a choice key is listed twice")
        self.size: Final = self.commands + len(self.keys)
        """How many ids there are: every id is below it."""
        self.max_sides: Final = max(
            (kind.sides for kind in self.kinds if kind.chance is not None), default=0
        )
        """The most faces of a die a kind declares."""

    def kind_of(self, command: C) -> Kind:
        """The kind of ``command``.

        :raises KeyError: if no kind of the codec matches it.
        """
        return self.kinds[self._kind_index(command)]

    def _kind_index(self, command: C) -> int:
        for index in self._by_type.get(type(command), ()):
            if all(getattr(command, name) == value for name, value in self.kinds[index].fixed):
                return index
        raise KeyError(f"the codec has no kind of command for {command!r}")

    def encode(self, command: C) -> int:
        """The id of ``command`` (its seat, salt and supplied chance aside).

        :raises KeyError: if its kind or a field's value is not in the codec.
        """
        index = self._kind_index(command)
        kind = self.kinds[index]
        action = 0
        for (name, values), position in zip(kind.fields, self._positions[index], strict=True):
            value = getattr(command, name)
            found = position.get(value)
            if found is None:
                raise KeyError(f"{kind.type.__name__}.{name} = {value!r} is not in the codec")
            action = action * len(values) + found
        return self._offsets[index] + action

    def decode(self, action: int, seat: int) -> C:
        """The command of id ``action``, given by ``seat`` (no salt, no chance supplied).

        :raises ValueError: if ``action`` is not a command's id, or is a built kind's.
        """
        if not 0 <= action < self.commands:
            raise ValueError(f"{action} is not the id of a command (0 to {self.commands - 1})")
        index = _last_at_most(self._offsets, action)
        kind = self.kinds[index]
        if kind.built:
            raise ValueError(f"{action} stands for any {kind.type.__name__}, built by its tree")
        rest = action - self._offsets[index]
        values: dict[str, Any] = {}
        for name, domain in reversed(kind.fields):
            rest, at = divmod(rest, len(domain))
            values[name] = domain[at]
        return cast(C, kind.type(player=seat, **values, **dict(kind.fixed)))

    def key_id(self, key: str) -> int:
        """The id of the option key ``key``.

        :raises KeyError: if the codec does not list it.
        """
        found = self._key_ids.get(key)
        if found is None:
            raise KeyError(f"the option key {key!r} is not in the codec")
        return found

    def key_of(self, action: int) -> str:
        """The option key of id ``action``.

        :raises ValueError: if ``action`` is not a key's id.
        """
        if not self.commands <= action < self.size:
            raise ValueError(f"{action} is not the id of an option key")
        return self.keys[action - self.commands]

    def draws_chance(self, command: C) -> bool:
        """Whether ``command`` leaves its chance to be drawn (its kind supplies chance, and the
        command supplies none)."""
        kind = self.kind_of(command)
        return kind.chance is not None and getattr(command, kind.chance) is None

    def supplied(self, command: C, faces: Sequence[int]) -> C:
        """``command`` supplying the dice ``faces`` (a coin's "faces" are 1 and 2).

        :raises ValueError: if its kind supplies no chance, or one die is given more faces.
        """
        kind = self.kind_of(command)
        if kind.chance is None:
            raise ValueError(f"{kind.type.__name__} supplies no chance")
        if kind.dice == "one":
            if len(faces) > 1:
                raise ValueError(f"{kind.type.__name__} supplies one die, not {len(faces)}")
            value: Any = faces[0] if faces else None
        else:
            value = tuple(faces)
        return msgspec.structs.replace(command, **{kind.chance: value})

    def next_die(
        self,
        command: C,
        faces: Sequence[int],
        decide: Callable[[C], object],
    ) -> int | None:
        """The faces of the next die ``command`` rolls once ``faces`` are rolled, or None once
        it has all it rolls. ``decide`` runs the rules on a command (for a command of several
        dice, to learn whether they need one more).

        :raises ValueError: if its kind supplies no chance.
        """
        kind = self.kind_of(command)
        if kind.chance is None:
            raise ValueError(f"{kind.type.__name__} supplies no chance")
        if kind.dice == "one":
            return None if faces else kind.sides
        if kind.rolls is not None:
            return kind.sides if len(faces) < kind.rolls else None
        try:
            decide(self.supplied(command, faces))
        except TooFewDiceError as short:
            return short.sides
        return None


def _last_at_most(offsets: Sequence[int], action: int) -> int:
    low, high = 0, len(offsets) - 1
    while low < high:
        middle = (low + high + 1) // 2
        if offsets[middle] <= action:
            low = middle
        else:
            high = middle - 1
    return low


def domain(*values: Any) -> tuple[Any, ...]:
    """The values of a field, duplicates dropped, in order."""
    return tuple(dict.fromkeys(values))


__all__ = ["ActionCodec", "Kind", "domain"]
