"""A game's content of one kind: the files it bundles, then those other packages offer.

A game whose rosters, factions or maps are TOML data files (read by
:mod:`multiversus_core.engine.datafile`) makes one :class:`Catalog` per kind
of file. The catalog decodes and validates a file, reads the bundled files of
its folder of the game's ``data/`` (named for the kind: ``data/rosters/``),
and adds what the entry points of its group offer: each entry point names a
callable (``"module:attribute"``) returning structs or paths of TOML files.
An offered item that is invalid, or takes an id already taken, is left out
and its one-line error kept.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from importlib import resources
from os import PathLike
from typing import Final, Generic, TypeAlias

from multiversus_core.engine.datafile import S, convert_struct, decode_toml, offered, read_file
from multiversus_core.engine.errors import DataFileError

DATA: Final = "data"
"""The folder of a game's package that holds its bundled files, one folder per kind."""


Provider: TypeAlias = Callable[[], Iterable[S | str | PathLike[str]]]
"""What an entry point of a catalog's group loads to: a callable returning items (structs) or
paths of TOML files (``Provider[Roster]``)."""


class Catalog(Generic[S]):
    """The installed items of one kind (a game's rosters, its maps): bundled, then offered.

    The bundled items are read once, in file name order; the offered ones are
    read once when first asked for, sorted by id (:meth:`forget` reads them
    again). A bundled id is found without reading any entry point.
    """

    def __init__(
        self,
        package: str,
        noun: str,
        group: str,
        struct: type[S],
        validate: Callable[[S, str], None],
        *,
        max_bytes: int,
        max_depth: int,
    ) -> None:
        self.package = package
        """The game's package, whose ``data/<noun>s/`` holds the bundled files."""
        self.noun = noun
        """What an item is called in messages ("roster")."""
        self.folder = f"{noun}s"
        """The folder of ``data/`` with the bundled files ("rosters")."""
        self.group = group
        """The entry point group other packages offer items through."""
        self.struct = struct
        """The struct a file decodes to (it should forbid unknown fields)."""
        self.validate = validate
        """Checks a well-typed item; raises :class:`DataFileError` naming the field."""
        self.max_bytes = max_bytes
        """The largest file read, in bytes."""
        self.max_depth = max_depth
        """The deepest nesting of tables and arrays a file may use."""
        self._bundled: tuple[S, ...] | None = None
        self._installed: tuple[tuple[S, ...], tuple[DataFileError, ...]] | None = None

    @property
    def bundled_folder(self) -> str:
        """Where the bundled files are, as sources name them
        ("multiversus_core/rulesets/tiles_d6/data")."""
        return f"{self.package.replace('.', '/')}/{DATA}"

    def decode(self, data: bytes, source: str) -> S:
        """Decode and validate a TOML file.

        :raises DataFileError: naming the source and the field at fault.
        """
        item = decode_toml(
            data,
            source,
            self.struct,
            DataFileError,
            max_bytes=self.max_bytes,
            max_depth=self.max_depth,
        )
        self.validate(item, source)
        return item

    def load(self, path: str | PathLike[str]) -> S:
        """Read a file (at most :attr:`max_bytes` of it).

        :raises DataFileError: if the file cannot be read or is not a valid item.
        """
        return self.decode(read_file(path, self.max_bytes, DataFileError), str(path))

    def check(self, item: S, source: str) -> S:
        """Return an item built in Python, its field types checked as if read from a file,
        validated.

        :raises DataFileError: naming the source and the field at fault.
        """
        checked = convert_struct(item, self.struct, source, self.noun, DataFileError)
        self.validate(checked, source)
        return checked

    def bundled(self) -> tuple[S, ...]:
        """Return the items that ship with the game, by file name.

        :raises DataFileError: if one is broken or two share an id (a packaging bug).
        """
        if self._bundled is None:
            files = resources.files(self.package).joinpath(DATA, self.folder)
            items: list[S] = []
            for entry in sorted(files.iterdir(), key=lambda e: e.name):
                if entry.name.endswith(".toml"):
                    source = f"{self.bundled_folder}/{self.folder}/{entry.name}"
                    item = self.decode(entry.read_bytes(), source)
                    if any(other.id == item.id for other in items):
                        raise DataFileError(
                            source, f"id: {item.id!r} is taken by another bundled file"
                        )
                    items.append(item)
            self._bundled = tuple(items)
        return self._bundled

    def installed(self) -> tuple[S, ...]:
        """Return the bundled items, then the valid offered ones by id.

        :raises DataFileError: if a bundled item is broken (a packaging bug).
        """
        return self._read()[0]

    def invalid(self) -> tuple[DataFileError, ...]:
        """Return why each offered item was left out of :meth:`installed`: each error names its
        source and, when it could be read that far, the id it claims."""
        return self._read()[1]

    def find(self, item_id: str) -> S | None:
        """Return the installed item with this id, or None (entry points are read only for an
        id no bundled item has).

        :raises DataFileError: if a bundled item is broken (a packaging bug).
        """
        for items in (self.bundled, self.installed):
            for item in items():
                if item.id == item_id:
                    return item
        return None

    def forget(self) -> None:
        """Forget what the entry points offered, so that the next question reads them again."""
        self._installed = None

    def _read(self) -> tuple[tuple[S, ...], tuple[DataFileError, ...]]:
        if self._installed is None:
            bundled = self.bundled()
            sources = {
                item.id: f"{self.bundled_folder}/{self.folder} ({item.id})" for item in bundled
            }
            accepted: list[S] = []
            invalid: list[DataFileError] = []
            for found in offered(
                self.group, self.struct, self.noun, self.load, self.check, DataFileError
            ):
                if isinstance(found, DataFileError):
                    invalid.append(found)
                    continue
                source, item = found
                if item.id in sources:
                    reason = f"id: the {self.noun} id {item.id!r} is taken by {sources[item.id]}"
                    invalid.append(DataFileError(source, reason, item.id))
                    continue
                sources[item.id] = source
                accepted.append(item)
            accepted.sort(key=lambda item: item.id)
            self._installed = ((*bundled, *accepted), tuple(invalid))
        return self._installed
