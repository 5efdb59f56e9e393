"""The drawing geometry every game's board shares: its names and units, and the helpers the
layouts are built from.

A game's layout (``games/<kind>/layout.py``) answers :class:`BoardLayout`: the same names in
every game, in board units of a 1000-unit square, pieces given by their colour's own
progress, so one board component draws any game. The board is a square grid of cells; each
colour's part of it is the first colour's part turned by quarter turns (:class:`Grid`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
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

SIZE = 1000.0
"""Width and height of every board in SVG user units."""
MAX_ANIMATION_MS = 1000
"""All moves of one action together; longer sequences are played faster."""
TAP_REACH = 1.25 * (SIZE / 19)
"""How far from a lone movable piece's centre a tap beside it still reaches it, in board
units (a cell and a quarter of a 19-cell board): 44 CSS px across on a 390 px wide phone,
where a board is about 342 px wide. The same on every board."""


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
    def piece_point(self, colour: int, piece_index: int, pieces: PiecesSeen) -> Point: ...
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
    return sorted((c, i) for c, own in enumerate(pieces) for i, p in enumerate(own)
                  if place(c, p) == where)


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
