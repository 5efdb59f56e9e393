"""The drawing geometry every game's board shares: its names and units, and the helpers the
layouts are built from.

A game's layout (``games/<kind>/layout.py``) answers :class:`BoardLayout`: the same names in
every game, in board units of a 1000-unit square, pieces given by their colour's own
progress, so one board component draws any game. The board is a square grid of cells; each
colour's part of it is the first colour's part turned by quarter turns (:class:`Grid`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Collection, Hashable, Sequence
from dataclasses import dataclass
from typing import NamedTuple, Protocol

Point = tuple[float, float]
Rect = tuple[float, float, float, float]
"""x, y (top-left corner), width, height in board units."""
Motion = tuple[int, int, int, int]
"""One piece's move as the board animates it: (colour, piece, from, to) in the colour's
own progress; ``to`` is where pieces wait for a piece sent back."""
PiecesSeen = Sequence[Sequence[int]]
"""Every colour's pieces' progress, as the engine's ``pieces``."""
PieceId = tuple[int, int]
"""(colour, piece index)."""

SIZE = 1000.0
"""Width and height of every board in SVG user units."""
MAX_ANIMATION_MS = 1000
"""All moves of one action together; longer sequences are played faster."""
TAP_REACH = 1.25 * (SIZE / 19)
"""How far from a lone movable piece's centre a tap beside it still reaches it, in board
units (a cell and a quarter of a 19-cell board): 44 CSS px across on a 390 px wide phone,
where a board is about 342 px wide. The same on every board."""
RIM = 2.0
"""The white rim ``board.js`` draws round every piece, beyond its radius (board units)."""


class SafeSquare(NamedTuple):
    square: int
    kind: str
    """``"entry"`` (drawn filled in the owner's colour) or ``"star"`` (marked with a star)."""
    colour: int | None
    """The owner of an entry square; ``None`` for a star square."""


class BoardLayout(Protocol):
    """A game's board geometry, as the board component and the computers' pace read it."""

    SIZE: float
    CELL: float
    TAP_REACH: float
    """How far from a lone movable piece a tap beside it still reaches it (and a landing
    marker): 44 CSS px across on a 390 px wide phone."""
    START: int
    """The progress of a piece waiting to come in (START, the yard)."""
    HOME: int
    FIRST_LANE: int
    TRACK_LENGTH: int
    MAX_ANIMATION_MS: int
    COUNT_BADGE: tuple[float, float, float]
    """(dx, dy, r): the count on a stack of pieces (more than two on one square), a disc
    drawn from its top piece's centre, board units (see :meth:`Crowding.badge`)."""

    def __hash__(self) -> int: ...
    def is_track(self, progress: int) -> bool: ...
    def is_lane(self, progress: int) -> bool: ...
    def track_rect(self, square: int) -> Rect: ...
    def lane_rect(self, colour: int, progress: int) -> Rect: ...
    def rect_centre(self, rect: Rect) -> Point: ...
    def yard_rects(self) -> tuple[Rect, ...]: ...
    def start_circle(self, colour: int) -> tuple[float, float, float]: ...
    def start_slots(self, colour: int) -> tuple[Point, ...]: ...
    def home_triangle(self, colour: int) -> tuple[Point, Point, Point]: ...
    def centre_rect(self) -> Rect: ...
    def square_point(self, colour: int, progress: int, piece_index: int = 0) -> Point: ...
    def piece_point(self, colour: int, piece_index: int, pieces: PiecesSeen,
                    on_top: Collection[PieceId] = ()) -> Point:
        """Where a piece is drawn; of a stack (more than two on one square), ``on_top``
        pieces take its upper layers (the board raises the movable ones)."""
        ...
    def stacking(self, colour: int, piece_index: int, pieces: PiecesSeen,
                 on_top: Collection[PieceId] = ()) -> tuple[int, int]:
        """(layer, stack): the piece's layer on its square (0 lowest, drawn first) and, when
        the pieces there are drawn as a stack with a count (more than two), how many they
        are, else 0; the stack's top piece (layer ``stack - 1``) carries the count."""
        ...
    def piece_radius(self, colour: int, piece_index: int, pieces: PiecesSeen) -> float: ...
    def hit_radius(self, colour: int, piece_index: int, pieces: PiecesSeen) -> float: ...
    def tap_area(self, colour: int, piece_index: int, pieces: PiecesSeen
                 ) -> tuple[float, float, float]: ...
    def path_points(self, colour: int, start_progress: int, end_progress: int,
                    piece_index: int = 0) -> list[Point]: ...
    def step_ms(self, end: int) -> int: ...
    def quarter_turns(self, colour: int) -> int: ...
    def safe_squares(self, house: Sequence[str] = ()) -> Sequence[SafeSquare]: ...
    def star_points(self, radius: float, inner_ratio: float = 0.45) -> tuple[Point, ...]: ...


def motion_ms(layout: BoardLayout, moves: Sequence[Motion]) -> int:
    """How long ``layout``'s board shows the moves of one action, walked square by square:
    what the computers wait for before their next action."""
    total = sum((len(layout.path_points(c, start, end, piece)) - 1) * layout.step_ms(end)
                for c, piece, start, end in moves)
    return min(total, layout.MAX_ANIMATION_MS)


def rect_centre(rect: Rect) -> Point:
    x, y, w, h = rect
    return (x + w / 2, y + h / 2)


def star_points(radius: float, inner_ratio: float = 0.45) -> tuple[Point, ...]:
    """A five-pointed star around the origin, point up (the safe-square mark)."""
    points = []
    for k in range(10):
        r = radius if k % 2 == 0 else radius * inner_ratio
        angle = math.pi * k / 5
        points.append((r * math.sin(angle), -r * math.cos(angle)))
    return tuple(points)


@dataclass(frozen=True)
class Grid:
    """A board of ``cells`` x ``cells`` square cells filling :data:`SIZE`. Shapes are placed
    in the first colour's frame, in cell units from the board's centre (x to the right, y
    downwards), and turned a quarter turn per colour: ``clockwise`` on screen
    (``(u, v) -> (-v, u)``) or counterclockwise (``(u, v) -> (v, -u)``)."""

    cells: int
    clockwise: bool

    @property
    def cell(self) -> float:
        return SIZE / self.cells

    def turn(self, point: Point, quarter_turns: int) -> Point:
        """Turn a centre-relative point by whole arms in the direction of travel."""
        u, v = point
        for _ in range(quarter_turns % 4):
            u, v = (-v, u) if self.clockwise else (v, -u)
        return u, v

    def to_board(self, point: Point) -> Point:
        """Centre-relative cell units -> board units."""
        u, v = point
        return ((self.cells / 2 + u) * self.cell, (self.cells / 2 + v) * self.cell)

    def place(self, point: Point, colour: int) -> Point:
        """A point of the first colour's frame, in ``colour``'s, in board units."""
        return self.to_board(self.turn(point, colour))

    def cell_rect(self, colour: int, column: float, row: float) -> Rect:
        """The cell centred on (``column``, ``row``) of the first colour's frame, in
        ``colour``'s."""
        x, y = self.place((column, row), colour)
        return (x - self.cell / 2, y - self.cell / 2, self.cell, self.cell)

    def square_of_four(self, colour: int, centre: Point, offset: float) -> tuple[Point, ...]:
        """Four slots in a 2 x 2 square round ``centre`` (where pieces 1..4 wait)."""
        u0, v0 = centre
        d = offset
        local = ((u0 - d, v0 - d), (u0 + d, v0 - d), (u0 - d, v0 + d), (u0 + d, v0 + d))
        return tuple(self.place(p, colour) for p in local)

    def home_triangle(self, colour: int) -> tuple[Point, Point, Point]:
        """The colour's triangle of the 3 x 3 centre: its base borders the colour's lane."""
        a, b, c = (self.place(p, colour) for p in ((-1.5, 1.5), (1.5, 1.5), (0.0, 0.0)))
        return a, b, c

    def centre_rect(self) -> Rect:
        """The 3 x 3 centre."""
        x, y = self.to_board((-1.5, -1.5))
        return (x, y, 3 * self.cell, 3 * self.cell)


def companions(place: Callable[[int, int], Hashable | None], colour: int, piece_index: int,
               pieces: PiecesSeen) -> list[tuple[int, int]]:
    """All pieces (colour, index), sorted, drawn on the same cell as the given piece, itself
    included (``place``: a key equal for exactly the pieces on one cell, None off the
    track and lanes)."""
    where = place(colour, pieces[colour][piece_index])
    if where is None:
        return [(colour, piece_index)]
    return list(_cells(place, tuple(map(tuple, pieces)))[where])


@functools.lru_cache(maxsize=64)
def _cells(place: Callable[[int, int], Hashable | None], pieces: tuple[tuple[int, ...], ...]
           ) -> dict[Hashable, tuple[PieceId, ...]]:
    """The pieces on each cell, sorted: worked out once for a position. A board's drawing
    asks for every piece's companions several times (its layer, its size, its tap area), for
    every tab of a table on every action."""
    cells: dict[Hashable, list[PieceId]] = {}
    for c, own in enumerate(pieces):
        for i, progress in enumerate(own):
            where = place(c, progress)
            if where is not None:
                cells.setdefault(where, []).append((c, i))
    return {where: tuple(together) for where, together in cells.items()}


def stack_order(together: Sequence[PieceId], on_top: Collection[PieceId] = ()
                ) -> list[PieceId]:
    """The pieces of one cell from the lowest layer to the top: in order, except that in a
    stack (more than two) the ``on_top`` pieces are raised above the others. A pair keeps
    its order, as both its pieces are seen whole."""
    if len(together) <= 2:
        return list(together)
    return sorted(together, key=lambda piece: piece in on_top)


def crowd(place: Callable[[int, int], Hashable | None], colour: int, piece_index: int,
          pieces: PiecesSeen, on_top: Collection[PieceId] = ()) -> tuple[int, int]:
    """(layer, how many share the cell) of the given piece (``place`` as for
    :func:`companions`): layer 0 is drawn first."""
    layers = stack_order(companions(place, colour, piece_index, pieces), on_top)
    return layers.index((colour, piece_index)), len(layers)


@dataclass(frozen=True)
class Crowding:
    """How pieces sharing one cell are drawn, in cells from the cell's centre (x to the
    right, y downwards, on the unturned board).

    Two sit side by side on the cell's diagonal, the first towards the top-left: as large
    as the cell allows with their rims inside it while their discs do not overlap (only
    the white rims touch), so both are seen whole. More make a stack: pieces of
    ``stack_radius``, fanned along the same diagonal from the lowest layer (top-left) to
    the top one (bottom-right) over at most ``places`` places (further lower pieces share
    the lowest), so the lower ones show an edge each, and a count badge in the cell's top
    right corner over the top piece. Every piece, rim included, and the badge lie inside
    the cell.
    """

    rim: float
    """The white rim round a piece, in cells."""
    stack_radius: float
    spread: float
    """The top piece's offset from the centre along both axes (the lowest's is minus it)."""
    badge_radius: float
    places: int = 4

    @property
    def pair_radius(self) -> float:
        """The largest radius two pieces on the diagonal may have, touching, rims inside."""
        return math.floor((0.5 - self.rim) / (1 + math.sqrt(0.5)) * 1000) / 1000

    def spot(self, layer: int, count: int) -> tuple[float, float, float]:
        """(dx, dy, radius) of the piece on ``layer`` of ``count`` >= 2 on one cell."""
        if count == 2:
            d = self.pair_radius * math.sqrt(0.5)
            return (-d, -d, self.pair_radius) if layer == 0 else (d, d, self.pair_radius)
        places = min(count, self.places)
        place = max(0, layer - (count - places))
        t = self.spread * (2 * place / (places - 1) - 1)
        return (t, t, self.stack_radius)

    def badge(self) -> tuple[float, float, float]:
        """(dx, dy, radius) of the count badge from the top piece's centre: the badge sits
        in the cell's top right corner, a rim's width in from its sides."""
        corner = 0.5 - self.rim - self.badge_radius
        return (corner - self.spread, -corner - self.spread, self.badge_radius)


@dataclass(frozen=True)
class PieceDrawing:
    """Where a board draws its pieces, how large, how far a tap reaches them and how they
    walk: the same on every board that crowds its pieces by :class:`Crowding`, from the
    game's cells and sizes (board units). A game's layout module answers the
    :class:`BoardLayout` names for pieces with these methods.

    A piece alone on a cell sits in its centre; two on one cell (a blockade, two colours on
    a safe square) sit side by side on the cell's diagonal, the lower (colour, index)
    towards the top-left; more make a fanned stack, ``on_top`` pieces uppermost. Pieces
    waiting to come in (``start``) and pieces HOME have places of their own.
    """

    square_point: Callable[[int, int, int], Point]
    """The centre of where a piece (colour, progress, index) stands when alone there."""
    place: Callable[[int, int], Hashable | None]
    """A key equal for exactly the pieces drawn on one cell (None off the track and lanes):
    see :func:`companions`."""
    home_spot: Callable[[int, int, PiecesSeen], tuple[Point, float]]
    """Where a piece HOME is drawn and how large (colour, index, every piece)."""
    start: int
    home: int
    cell: float
    crowding: Crowding
    lone_radius: float
    """A piece alone on a cell."""
    start_radius: float
    lone_hit: float
    """How far from a lone piece's centre a tap lands on the piece itself: beyond the drawn
    piece where there is room (phones), never over a piece of another cell."""
    start_hit: float
    crowd_reach: float
    """The reach of the pieces sharing a cell, from the cell's centre: the nearest takes a
    tap."""
    step: int
    """Milliseconds per square of a walking piece."""
    capture: int
    """Milliseconds of a captured piece's slide back (one long step, slow enough to see)."""

    def companions(self, colour: int, piece_index: int, pieces: PiecesSeen) -> list[PieceId]:
        return companions(self.place, colour, piece_index, pieces)

    def stacking(self, colour: int, piece_index: int, pieces: PiecesSeen,
                 on_top: Collection[PieceId] = ()) -> tuple[int, int]:
        """(layer, stack): the piece's layer on its cell (0 is drawn first) and, in a stack
        of three or more with a count on its top piece (layer ``stack - 1``), how many,
        else 0."""
        layer, count = crowd(self.place, colour, piece_index, pieces, on_top)
        return layer, count if count > 2 else 0

    def piece_point(self, colour: int, piece_index: int, pieces: PiecesSeen,
                    on_top: Collection[PieceId] = ()) -> Point:
        """Where a piece is drawn, given every piece's progress (the engine's ``pieces``)."""
        progress = pieces[colour][piece_index]
        if progress == self.home:
            return self.home_spot(colour, piece_index, pieces)[0]
        x, y = self.square_point(colour, progress, piece_index)
        layer, count = crowd(self.place, colour, piece_index, pieces, on_top)
        if count < 2:
            return (x, y)
        dx, dy, _ = self.crowding.spot(layer, count)
        return (x + dx * self.cell, y + dy * self.cell)

    def piece_radius(self, colour: int, piece_index: int, pieces: PiecesSeen) -> float:
        """How large a piece is drawn: smaller when it shares its cell."""
        progress = pieces[colour][piece_index]
        if progress == self.start:
            return self.start_radius
        if progress == self.home:
            return self.home_spot(colour, piece_index, pieces)[1]
        count = len(self.companions(colour, piece_index, pieces))
        if count < 2:
            return self.lone_radius
        return self.cell * (self.crowding.pair_radius if count == 2 else
                            self.crowding.stack_radius)

    def hit_radius(self, colour: int, piece_index: int, pieces: PiecesSeen) -> float:
        """How far from a piece's centre a tap lands on the piece itself. A pair's pieces
        touch, so each has its own disc; a stack's overlap, and a tap on it takes the top
        one, drawn last. (A tap further away may still reach a piece: :meth:`tap_area`.)"""
        progress = pieces[colour][piece_index]
        if progress == self.start:
            return self.start_hit
        if progress == self.home or len(self.companions(colour, piece_index, pieces)) > 1:
            return self.piece_radius(colour, piece_index, pieces)
        return self.lone_hit

    def tap_area(self, colour: int, piece_index: int, pieces: PiecesSeen
                 ) -> tuple[float, float, float]:
        """(x, y, reach): the disc within which a tap that lands on no piece reaches this
        one, when it may move and no other movable piece whose disc holds the tap is
        nearer. A lone piece's disc is centred on it; the pieces sharing a cell share one
        larger disc round the cell's centre, which the nearer of them takes."""
        if len(self.companions(colour, piece_index, pieces)) > 1:
            x, y = self.square_point(colour, pieces[colour][piece_index], 0)
            return (x, y, self.crowd_reach)
        x, y = self.piece_point(colour, piece_index, pieces)
        return (x, y, TAP_REACH)

    def path_points(self, colour: int, start_progress: int, end_progress: int,
                    piece_index: int = 0) -> list[Point]:
        """Centres of every place a moving piece passes, square by square (:func:`walk`)."""
        return walk(self.square_point, colour, start_progress, end_progress, piece_index,
                    self.start, self.home)

    def step_ms(self, end: int) -> int:
        """The time of one step of a move that ends at ``end`` (a capture's slide is
        slower)."""
        return self.capture if end == self.start else self.step


def scaled(values: tuple[float, float, float], factor: float) -> tuple[float, float, float]:
    """Three lengths (e.g. cells) times ``factor`` (e.g. board units per cell)."""
    a, b, c = values
    return (a * factor, b * factor, c * factor)


def walk(square_point: Callable[[int, int, int], Point], colour: int, start: int, end: int,
         piece_index: int, waiting: int, home: int) -> list[Point]:
    """Centres of every place a moving piece passes, square by square, for animation: the
    first where it starts, the last where it lands. Coming in goes from its waiting slot to
    its first square; a piece sent back (``end`` is ``waiting``) goes straight from its
    square to its slot, since captured pieces do not walk."""
    first = square_point(colour, start, piece_index)
    if end == waiting:
        return [first, square_point(colour, waiting, piece_index)]
    if not waiting <= start < end <= home:
        raise ValueError(f"not a forward move: {start} -> {end}")
    return [first] + [square_point(colour, p, piece_index)
                      for p in range(max(start + 1, 0), end + 1)]
