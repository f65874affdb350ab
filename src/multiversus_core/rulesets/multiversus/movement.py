"""Movement: free spaces, regular (orthogonal) movement and forced movement.

Rulebook: *Spaces and movement*, *Terrain* (free spaces), *Blocking terrain and
characters*, *Forced Movement*, *Sizes*; rulings R19, R20.

A figure moves by its origin (top-left space). A step enters the spaces of the
new footprint that the old one did not cover; only those have to be free, so
a Large figure never blocks itself and may slip diagonally past blockers at
its corners (the rulebook's Large diagonal example). A character may pass
through an allied character its player lets it through, but never end a move
sharing a space with it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from typing import Final, cast

from multiversus_core.rulesets.multiversus.board import Board, Figure, Tile
from multiversus_core.rulesets.multiversus.geometry import (
    DIRECTIONS,
    ORTHOGONAL,
    are_adjacent,
    figure_squares,
    footprint,
    tile_squares,
)
from multiversus_core.rulesets.multiversus.terms import Direction, Size, Square


class Occupancy:
    """Which figures and special tiles cover each space: one index for many movers.

    Build it once for a board and its figures (a state caches one) and pass it
    to the movement functions, which otherwise build their own. It also
    answers which spaces lie beside a unit's characters (:meth:`beside`).
    """

    __slots__ = ("_beside", "at", "board", "figures", "height", "tiles", "width")

    def __init__(self, board: Board, figures: Sequence[Figure]) -> None:
        at: dict[Square, list[Figure]] = {}
        for figure in figures:
            if figure.square is None:
                continue
            if figure.size == "medium":
                at.setdefault(figure.square, []).append(figure)
            else:
                for square in footprint(figure.square, figure.size):
                    at.setdefault(square, []).append(figure)
        self.board = board
        self.width = board.width
        self.height = board.height
        self.figures = figures
        self.at: dict[Square, list[Figure]] = at
        """The on-board figures covering each space (in no particular order)."""
        self.tiles: dict[Square, Tile] = _tile_map(board)
        """The special tile covering each space."""
        self._beside: dict[str, tuple[frozenset[Square], frozenset[Square]]] = {}

    def beside(self, unit: str) -> tuple[frozenset[Square], frozenset[Square]]:
        """Return the spaces one space from a space of a character of ``unit`` on the board,
        and the spaces those characters cover; computed once per index and unit.

        A figure is adjacent to one of the unit's characters (rulebook
        *Adjacency*, R21) exactly when it is not of the unit and one of its
        spaces is in the first set, or it is a terrain piece and one of its
        spaces is in the second.
        """
        found = self._beside.get(unit)
        if found is None:
            ring: set[Square] = set()
            covered: set[Square] = set()
            for figure in self.figures:
                if figure.unit != unit or figure.terrain or figure.square is None:
                    continue
                for c, r in footprint(figure.square, figure.size):
                    covered.add((c, r))
                    ring.update(_around(c, r))
            found = self._beside[unit] = (frozenset(ring), frozenset(covered))
        return found

    def is_beside(self, figure: Figure, unit: str) -> bool:
        """Return whether ``figure`` is adjacent to a character of ``unit`` on the board
        (rulebook *Adjacency*, R21): what :func:`~.geometry.are_adjacent`
        says of it and each of them."""
        square = figure.square
        if square is None:
            return False
        if figure.unit == unit:
            return any(
                are_adjacent(figure, other)
                for other in self.figures
                if other.unit == unit and not other.terrain and other.square is not None
            )
        found = self._beside.get(unit)
        ring, covered = found if found is not None else self.beside(unit)
        # One space from a character's space; or, for a terrain piece, sharing one.
        if figure.size == "medium":
            return square in ring or (figure.terrain and square in covered)
        squares = footprint(square, figure.size)
        return not ring.isdisjoint(squares) or (figure.terrain and not covered.isdisjoint(squares))

    def empty(self, square: Square) -> bool:
        """Return whether the space is an ordinary one on the board: no special tile, no figure.

        Every mover may enter such a space and stop there.
        """
        c, r = square
        return (
            0 <= c < self.width
            and 0 <= r < self.height
            and square not in self.at
            and square not in self.tiles
        )

    def alone(self, figure: Figure) -> bool:
        """Return whether no other figure covers a space of ``figure``."""
        at = self.at
        for square in _covers(figure):
            for other in at.get(square, ()):
                if other.id != figure.id:
                    return False
        return True

    def near(self, figure: Figure) -> set[str]:
        """Return the ids of the other figures within one space of ``figure``: adjacent to
        it (rulebook *Adjacency*) or sharing a space with it. Empty when it is off the board."""
        found: set[str] = set()
        if figure.square is None:
            return found
        c, r = figure.square
        span = 2 if figure.size == "medium" else 3  # the figure's spaces, and one more around
        at = self.at
        for column in range(c - 1, c + span):
            for row in range(r - 1, r + span):
                others = at.get((column, row))
                if others is not None:
                    found.update(other.id for other in others)
        found.discard(figure.id)
        return found

    def moved(self, before: Figure, after: Figure, figures: Sequence[Figure]) -> Occupancy:
        """Return the index of ``figures``: these figures once ``before`` has become ``after``.

        ``after`` is the same figure (same id) elsewhere or off the board, and
        every other figure is as it was: only the spaces the two cover change,
        which is far cheaper than indexing every figure again.
        """
        at = self.at.copy()
        old, new = before.square, after.square
        if before.size == "medium" and old is not None and new is not None:
            # The usual step: one space left, one entered (what _covers gives).
            found = at[old]
            if len(found) == 1:
                del at[old]  # it was alone there, the usual case
            else:
                at[old] = [f for f in found if f.id != before.id]
            there = at.get(new)
            at[new] = [after] if there is None else [*there, after]
        else:
            for square in _covers(before):
                found = at[square]
                if len(found) == 1:
                    del at[square]
                else:
                    at[square] = [f for f in found if f.id != before.id]
            for square in _covers(after):
                there = at.get(square)
                at[square] = [after] if there is None else [*there, after]
        index = Occupancy.__new__(Occupancy)
        index.board = self.board
        index.width = self.width
        index.height = self.height
        index.figures = figures
        index.at = at
        index.tiles = self.tiles
        # The spaces beside the other units' characters stay as they were.
        index._beside = self._beside.copy()
        index._beside.pop(before.unit, None)
        return index


def _covers(figure: Figure) -> tuple[Square, ...]:
    """Return the spaces ``figure`` covers (:func:`figure_squares`), without a call if Medium."""
    square = figure.square
    if square is not None and figure.size == "medium":
        return (square,)
    return figure_squares(figure)


def _tile_map(board: Board) -> dict[Square, Tile]:
    """Return the special tile of each space, cached on the board (which never changes)."""
    cache = board.__dict__
    try:
        return cast(dict[Square, Tile], cache["_tile_map"])
    except KeyError:
        tiles = cache["_tile_map"] = {s: tile for tile in board.tiles for s in tile_squares(tile)}
        return tiles


def _around(c: int, r: int) -> tuple[Square, ...]:
    """Return the eight spaces one space from (c, r), on the board or not."""
    return (
        (c - 1, r - 1),
        (c, r - 1),
        (c + 1, r - 1),
        (c - 1, r),
        (c + 1, r),
        (c - 1, r + 1),
        (c, r + 1),
        (c + 1, r + 1),
    )


_NO_ONE: Final[frozenset[str]] = frozenset()

_BLOCKED: Final = 1
_SOFT: Final = 2
_TERRAIN: Final = 4


class _Spaces:
    """Which spaces one mover may enter, and which it may only pass through, for one call.

    Each space is classified when first asked about, from the occupancy index:
    *blocked* (the mover may not enter), *soft* (it may pass through but not
    stop: a passable character) and *terrain* (blocking terrain, for corners).
    """

    __slots__ = (
        "allies",
        "corners",
        "height",
        "into_terrain",
        "kinds",
        "mover",
        "occupancy",
        "passable",
        "width",
    )

    def __init__(
        self,
        board: Board,
        figures: Sequence[Figure],
        mover: Figure,
        passable: frozenset[str] | None,
        into_terrain: bool = False,
        occupancy: Occupancy | None = None,
    ) -> None:
        self.occupancy = occupancy if occupancy is not None else Occupancy(board, figures)
        self.mover = mover
        # None: every allied character may be passed through (see _allies).
        self.allies = passable is None
        self.passable = passable or _NO_ONE
        # An ability may let a character move into and through blocking terrain.
        self.into_terrain = into_terrain and not mover.terrain
        self.width = board.width
        self.height = board.height
        self.kinds: dict[Square, int] = {}
        self.corners = False
        """When True, a diagonal step may not cut across blocking terrain."""

    def kind(self, square: Square) -> int:
        """Return the space's flags: _BLOCKED, _SOFT and _TERRAIN, for this mover.

        A space off the board is _BLOCKED.
        """
        kind = self.kinds.get(square)
        if kind is not None:
            return kind
        c, r = square
        if not (0 <= c < self.width and 0 <= r < self.height):
            self.kinds[square] = _BLOCKED
            return _BLOCKED
        tile = self.occupancy.tiles.get(square)
        others = self.occupancy.at.get(square)
        if tile is None and others is None:
            self.kinds[square] = 0  # an ordinary empty space, the usual case
            return 0
        mover = self.mover
        into_terrain = self.into_terrain
        kind = 0
        if tile is not None:
            # Terrain never shares a space with terrain, blocking or not.
            if (tile.blocking and not into_terrain) or mover.terrain:
                kind |= _BLOCKED
            if tile.blocking:
                kind |= _TERRAIN
        for other in others or ():
            if other.id == mover.id:
                continue
            if other.terrain:
                if (other.blocking and not into_terrain) or mover.terrain:
                    kind |= _BLOCKED
                if other.blocking:
                    kind |= _TERRAIN
            elif mover.terrain:
                # A terrain piece never enters or passes a character's space (R26).
                kind |= _BLOCKED
            elif self._passes(other) or not other.blocking:
                kind |= _SOFT
            else:
                kind |= _BLOCKED
        if kind & _BLOCKED:
            kind &= ~_SOFT
        self.kinds[square] = kind
        return kind

    def _passes(self, other: Figure) -> bool:
        """Return whether the mover, a character, may pass through ``other``, another."""
        if self.allies:
            return other.side == self.mover.side
        return other.id in self.passable

    def free(self, square: Square) -> bool:
        """Return whether the mover may enter the space."""
        return not self.kind(square) & _BLOCKED

    def rests(self, origin: Square, size: Size) -> bool:
        """Return whether the mover shares no space with a character it may only pass through."""
        if size == "medium":
            return not self.kind(origin) & _SOFT
        return not any(self.kind(s) & _SOFT for s in footprint(origin, size))

    def stands(self, origin: Square, size: Size) -> bool:
        """Return whether every space is free and none holds a pass-through character."""
        return all(self.free(s) and not self.kind(s) & _SOFT for s in footprint(origin, size))

    def advance(self, origin: Square, size: Size, direction: Direction) -> Square | None:
        """Return the origin one step in direction, or None if a newly entered space is not free."""
        new = (origin[0] + direction[0], origin[1] + direction[1])
        if size == "medium":
            if self.kind(new) & _BLOCKED:
                return None
        else:
            old = footprint(origin, size)
            if not all(self.free(s) for s in footprint(new, size) if s not in old):
                return None
        if self.corners and direction[0] and direction[1]:
            # The two spaces the step cuts across must hold no blocking terrain.
            old = footprint(origin, size)
            for corner in (
                (origin[0] + direction[0], origin[1]),
                (origin[0], origin[1] + direction[1]),
            ):
                if any(self.kind(s) & _TERRAIN for s in footprint(corner, size) if s not in old):
                    return None
        return new

    def distances(
        self, start: Square, size: Size, limit: int, directions: tuple[Direction, ...] = ORTHOGONAL
    ) -> dict[Square, int]:
        """Return the fewest steps to each origin reachable in at most limit steps."""
        found = {start: 0}
        found.update(self._search(start, size, limit, directions))
        return found

    def _search(
        self, start: Square, size: Size, limit: int, directions: tuple[Direction, ...]
    ) -> Iterator[tuple[Square, int]]:
        """Yield each origin other than start reachable in at most limit steps, with its
        fewest steps, nearest first (breadth first): lazily, so that a caller may stop."""
        seen = {start}
        queue = deque(((start, 0),))
        while queue:
            origin, steps = queue.popleft()
            if steps >= limit:
                continue
            for direction in directions:
                new = self.advance(origin, size, direction)
                if new is not None and new not in seen:
                    seen.add(new)
                    yield new, steps + 1
                    queue.append((new, steps + 1))

    def opens(
        self,
        origin: Square,
        size: Size,
        direction: Direction,
        steps_left: int,
        directions: tuple[Direction, ...],
    ) -> bool:
        """Return whether a step in direction is possible and still lets the move end legally.

        steps_left counts this step; the move may go on in ``directions``.
        """
        if size == "medium" and not (self.corners and direction[0] and direction[1]):
            # The usual step, written out: one space entered, no corner to cut.
            new = (origin[0] + direction[0], origin[1] + direction[1])
            kind = self.kind(new)
            if kind & _BLOCKED:
                return False
            return not kind & _SOFT or self.escapes(new, size, steps_left - 1, directions)
        advanced = self.advance(origin, size, direction)
        if advanced is None:
            return False
        return self.rests(advanced, size) or self.escapes(
            advanced, size, steps_left - 1, directions
        )

    def escapes(
        self, start: Square, size: Size, limit: int, directions: tuple[Direction, ...]
    ) -> bool:
        """Return whether some origin within limit steps of start rests (see :meth:`rests`).

        The search of :meth:`distances`, stopped at the first such origin.
        """
        return any(self.rests(new, size) for new, _ in self._search(start, size, limit, directions))

    def walk(self, start: Square, size: Size, direction: Direction, distance: int) -> list[Square]:
        """Return the origins of a straight move, stopping before the first blocked step."""
        path: list[Square] = []
        origin = start
        for _ in range(distance):
            new = self.advance(origin, size, direction)
            if new is None:
                break
            path.append(new)
            origin = new
        return path

    def settle(self, path: Sequence[Square], size: Size) -> int:
        """Return how many origins of path to keep so that it does not end on a passed character."""
        keep = len(path)
        while keep and not self.rests(path[keep - 1], size):
            keep -= 1
        return keep


def _allies(figures: Iterable[Figure], mover: Figure) -> frozenset[str]:
    """Return the ids of the on-board characters that could let mover pass through.

    Project ruling: only a character can be let through, by allied characters
    (its own side's); terrain pieces are not characters and have no allies.
    """
    if mover.terrain:
        return frozenset()
    return frozenset(
        other.id
        for other in figures
        if other.side == mover.side
        and other.is_character
        and other.id != mover.id
        and other.square is not None
    )


def is_free_for(
    board: Board,
    figures: Sequence[Figure],
    mover: Figure,
    square: Square,
    *,
    passable: frozenset[str] = frozenset(),
) -> bool:
    """Return whether mover may enter the space (rulebook *Free spaces*, *Blocking*).

    For a character: the space is on the board, not a blocking special tile,
    holds no blocking terrain piece, and holds no other character unless that
    character is in passable or is not blocking. For a terrain piece: on the
    board, on no special tile and no other terrain piece (terrain never
    shares with terrain), and on no character, blocking or not (R26). The
    mover's own spaces and off-board figures are ignored.
    """
    return _Spaces(board, figures, mover, passable).free(square)


def can_stand(
    board: Board,
    figures: Sequence[Figure],
    mover: Figure,
    origin: Square,
    *,
    passable: frozenset[str] = frozenset(),
) -> bool:
    """Return whether mover may end a move with its top-left space at origin.

    Every space of its footprint must be free for it, and none may hold a
    character it may only pass through (one in passable, or a non-blocking
    character when the mover is a character).
    """
    return _Spaces(board, figures, mover, passable).stands(origin, mover.size)


def step(figure: Figure, direction: Direction) -> Square:
    """Return the figure's origin after one step in direction.

    :raises ValueError: if the figure is off the board.
    """
    if figure.square is None:
        raise ValueError(f"{figure.id} is off the board")
    return (figure.square[0] + direction[0], figure.square[1] + direction[1])


def _regular_spaces(
    board: Board,
    figures: Sequence[Figure],
    mover: Figure,
    pass_through_allies: bool,
    corners_block: bool = False,
    into_terrain: bool = False,
    occupancy: Occupancy | None = None,
) -> _Spaces:
    # None stands for _allies(figures, mover), decided space by space.
    passable: frozenset[str] | None = None if pass_through_allies else frozenset()
    spaces = _Spaces(board, figures, mover, passable, into_terrain, occupancy)
    spaces.corners = corners_block
    return spaces


def step_options(
    board: Board,
    figures: Sequence[Figure],
    mover: Figure,
    steps_left: int,
    *,
    pass_through_allies: bool,
    diagonal: bool = False,
    corners_block: bool = False,
    into_terrain: bool = False,
    occupancy: Occupancy | None = None,
) -> tuple[Direction, ...]:
    """Return the directions in which mover may take its next step (R19).

    With ``diagonal`` (a variant), diagonal steps are offered too; with
    ``corners_block`` a diagonal step may not cut across blocking terrain; with
    ``into_terrain`` (an ability) a character may enter blocking terrain.
    ``occupancy``, if given, is the :class:`Occupancy` of these board and figures.

    steps_left counts this step. A direction is offered when every space the
    footprint newly enters is free for the mover (allied characters are
    passable when pass_through_allies) and the mover can still end the move
    legally: some origin within steps_left - 1 further steps where it shares
    no space with a character it passed through. Returns () for a mover off
    the board or with no steps left.
    """
    if mover.square is None or steps_left < 1:
        return ()
    index = occupancy if occupancy is not None else Occupancy(board, figures)
    directions = DIRECTIONS if diagonal else ORTHOGONAL
    origin = mover.square
    medium = mover.size == "medium"
    spaces: _Spaces | None = None  # classified only when a step is not into an empty space
    options: list[Direction] = []
    for direction in directions:
        if (
            medium
            and index.empty((origin[0] + direction[0], origin[1] + direction[1]))
            and not (corners_block and direction[0] and direction[1])
        ):
            # The usual step: a Medium mover into an ordinary empty space, cutting no corner
            # that corners_block forbids, is open, and the move may end there, whatever the
            # mover and the rules (what _Spaces.opens says of it).
            options.append(direction)
            continue
        if spaces is None:
            spaces = _regular_spaces(
                board, figures, mover, pass_through_allies, corners_block, into_terrain, index
            )
        if spaces.opens(origin, mover.size, direction, steps_left, directions):
            options.append(direction)
    return tuple(options)


def can_step(
    board: Board,
    figures: Sequence[Figure],
    mover: Figure,
    direction: Direction,
    steps_left: int,
    *,
    pass_through_allies: bool,
    diagonal: bool = False,
    corners_block: bool = False,
    into_terrain: bool = False,
    occupancy: Occupancy | None = None,
) -> bool:
    """Return whether ``direction`` is one of :func:`step_options` (same arguments).

    Asks about that one direction only: what deciding a step needs.
    """
    directions = DIRECTIONS if diagonal else ORTHOGONAL
    if mover.square is None or steps_left < 1 or direction not in directions:
        return False
    index = occupancy if occupancy is not None else Occupancy(board, figures)
    origin = mover.square
    if (
        mover.size == "medium"
        and not (corners_block and direction[0] and direction[1])
        and index.empty((origin[0] + direction[0], origin[1] + direction[1]))
    ):
        return True  # the usual step (see step_options)
    spaces = _regular_spaces(
        board, figures, mover, pass_through_allies, corners_block, into_terrain, index
    )
    return spaces.opens(mover.square, mover.size, direction, steps_left, directions)


def can_stop_here(
    board: Board,
    figures: Sequence[Figure],
    mover: Figure,
    *,
    pass_through_allies: bool,
    occupancy: Occupancy | None = None,
) -> bool:
    """Return whether mover may end its move where it stands.

    False when it shares a space with a character it is passing through, or
    is off the board.
    """
    if mover.square is None:
        return False
    if occupancy is not None and occupancy.alone(mover):
        return True  # the usual case: it shares no space, so passes through nothing
    spaces = _regular_spaces(board, figures, mover, pass_through_allies, occupancy=occupancy)
    return spaces.rests(mover.square, mover.size)


def reachable(
    board: Board,
    figures: Sequence[Figure],
    mover: Figure,
    max_steps: int,
    *,
    pass_through_allies: bool,
    occupancy: Occupancy | None = None,
) -> frozenset[Square]:
    """Return every origin where a move of up to max_steps orthogonal steps may end (R19).

    Includes the start (a move may be zero steps) unless the mover stands on
    an ally it is passing through; empty for a mover off the board. Agrees
    with repeatedly taking :func:`step_options` and stopping where
    :func:`can_stop_here` holds.
    """
    if mover.square is None:
        return frozenset()
    spaces = _regular_spaces(board, figures, mover, pass_through_allies, occupancy=occupancy)
    return frozenset(
        origin
        for origin in spaces.distances(mover.square, mover.size, max_steps)
        if spaces.rests(origin, mover.size)
    )


def forced_path(
    board: Board,
    figures: Sequence[Figure],
    mover: Figure,
    direction: Direction,
    distance: int,
    *,
    passable: frozenset[str] = frozenset(),
    occupancy: Occupancy | None = None,
) -> tuple[Square, ...]:
    """Return the successive origins of a push, pull or slide, excluding the start (R20).

    The figure moves in a straight line, diagonals allowed, and stops before
    the first step whose newly entered spaces are not all free for it; other
    blocked spaces do not matter. A path that would end sharing a space with
    a passable character is cut back to the last origin where it does not.
    Returns () for a figure off the board or a distance below one.
    ``occupancy``, if given, is the :class:`Occupancy` of these board and figures.
    """
    if mover.square is None or distance < 1:
        return ()
    spaces = _Spaces(board, figures, mover, passable, occupancy=occupancy)
    path = spaces.walk(mover.square, mover.size, direction, distance)
    return tuple(path[: spaces.settle(path, mover.size)])


def forced_move_options(
    board: Board,
    figures: Sequence[Figure],
    mover: Figure,
    direction: Direction,
    distance: int,
) -> frozenset[Square]:
    """Return every origin a forced move can end on, over the allies' choices to let it pass.

    Each allied character in the way blocks or lets the mover through, at its
    player's choice (the rulebook's Orc and Goblin example); enemies and
    blocking terrain always block. Includes the start when the mover cannot
    move (or an ally stops it at once); empty for a figure off the board.
    """
    if mover.square is None:
        return frozenset()
    start, size = mover.square, mover.size
    allies = _allies(figures, mover)
    spaces = _Spaces(board, figures, mover, allies)
    ally_squares = frozenset(
        s for other in figures if other.id in allies for s in figure_squares(other)
    )
    # Walk as if every ally lets the mover through; each ally the walk meets
    # could instead have stopped it just before.
    path = spaces.walk(start, size, direction, distance)

    def end(steps: int) -> Square:
        keep = spaces.settle(path[:steps], size)
        return path[keep - 1] if keep else start

    ends = {end(len(path))}
    previous = footprint(start, size)
    for k, origin in enumerate(path):
        current = footprint(origin, size)
        if any(s in ally_squares and s not in previous for s in current):
            ends.add(end(k))
        previous = current
    return frozenset(ends)


def forced_walk(
    board: Board,
    figures: Sequence[Figure],
    mover: Figure,
    direction: Direction,
    distance: int,
    *,
    passable: frozenset[str] = frozenset(),
) -> tuple[Square, ...]:
    """Return the origins of a straight move up to its first blocked step, not cut back (R20).

    Like :func:`forced_path`, but an origin may share a space with a passable
    character: the walk a forced move makes while allies let it through.
    """
    if mover.square is None or distance < 1:
        return ()
    spaces = _Spaces(board, figures, mover, passable)
    return tuple(spaces.walk(mover.square, mover.size, direction, distance))
