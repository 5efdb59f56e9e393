"""Drawing geometry of the race's board, in the names every game's layout answers
(:class:`parcheesi.core.geometry.BoardLayout`), so the one board component draws it.

A 27 x 27 grid: each colour's lane is the middle column of its arm, twelve squares from
the board's edge to the 3 x 3 centre with the HOME triangles; its waiting area is the
corner before its arm. Violet's arm is at the bottom; the arms follow one another clockwise
on screen (bottom, left, top, right). There is no shared track (``TRACK_LENGTH`` 0): every
square is a lane square.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from parcheesi.core import geometry
from parcheesi.core.geometry import Grid, PieceId, PiecesSeen, Point, Rect, SafeSquare

from . import board

SIZE = geometry.SIZE
MAX_ANIMATION_MS = geometry.MAX_ANIMATION_MS
TAP_REACH = geometry.TAP_REACH
TRACK_LENGTH = 0
rect_centre = geometry.rect_centre
star_points = geometry.star_points
START = board.START
HOME = board.HOME
FIRST_LANE = board.FIRST_LANE

FRAME = Grid(cells=27, clockwise=True)
CELL = FRAME.cell
EDGE_ROW = 13
"""The row (cells below the centre, in Violet's frame) of a lane's first square."""
YARD_CENTRE: Point = (-7.5, 7.5)
YARD_HALF = 5.0
SLOT_OFFSET = 1.6
HOME_SLOTS: tuple[Point, ...] = ((-0.62, 1.12), (0.0, 1.12), (0.62, 1.12), (0.0, 0.62))
"""Violet's HOME slots inside its triangle (base at y = 1.5, apex at the centre)."""
CROWD_RADII = (0.42 * CELL, 0.32 * CELL, 0.26 * CELL, 0.26 * CELL)
"""Radius of each of 1..4 pieces of one colour on one square."""
COUNT_BADGE = (0.0, 0.0, 0.0)
"""Never drawn: at most four pieces, of one colour, share a square, each seen."""
START_RADIUS = 0.7 * CELL
HOME_RADIUS = 0.26 * CELL
STEP_MS = 90


def is_track(progress: int) -> bool:
    return False


def is_lane(progress: int) -> bool:
    return FIRST_LANE <= progress < HOME


def track_rect(square: int) -> Rect:
    raise ValueError(f"the race has no shared track (square {square})")


def lane_rect(colour: int, progress: int) -> Rect:
    if not is_lane(progress):
        raise ValueError(f"not a lane progress: {progress}")
    return FRAME.cell_rect(colour, 0, EDGE_ROW - progress)


def yard_rects() -> tuple[Rect, ...]:
    def rect(colour: int) -> Rect:
        x, y = FRAME.place(YARD_CENTRE, colour)
        side = 2 * YARD_HALF * CELL
        return (x - side / 2, y - side / 2, side, side)
    return tuple(rect(c) for c in range(4))


def start_circle(colour: int) -> tuple[float, float, float]:
    return (*FRAME.place(YARD_CENTRE, colour), 3.6 * CELL)


def start_slots(colour: int) -> tuple[Point, ...]:
    """Where pieces 1..4 wait: the board's script draws four slots per colour."""
    return FRAME.square_of_four(colour, YARD_CENTRE, SLOT_OFFSET)


home_triangle = FRAME.home_triangle
centre_rect = FRAME.centre_rect


def square_point(colour: int, progress: int, piece_index: int = 0) -> Point:
    """Where a lone piece at ``progress`` stands (START and HOME: its own slot)."""
    if progress == START:
        return start_slots(colour)[piece_index]
    if progress == HOME:
        return FRAME.place(HOME_SLOTS[piece_index], colour)
    return rect_centre(lane_rect(colour, progress))


def _place(colour: int, progress: int) -> tuple[int, int] | None:
    return (colour, progress) if is_lane(progress) else None


def _together(colour: int, piece_index: int, pieces: PiecesSeen) -> list[tuple[int, int]]:
    return geometry.companions(_place, colour, piece_index, pieces)


def stacking(colour: int, piece_index: int, pieces: PiecesSeen,
             on_top: Collection[PieceId] = ()) -> tuple[int, int]:
    """(layer, 0): the pieces of a square are drawn apart, without a count."""
    return _together(colour, piece_index, pieces).index((colour, piece_index)), 0


def piece_point(colour: int, piece_index: int, pieces: PiecesSeen,
                on_top: Collection[PieceId] = ()) -> Point:
    """A piece's centre; pieces sharing a square sit diagonally or in a 2 x 2 square."""
    x, y = square_point(colour, pieces[colour][piece_index], piece_index)
    together = _together(colour, piece_index, pieces)
    if len(together) < 2:
        return (x, y)
    rank = together.index((colour, piece_index))
    d = 0.24 * CELL
    if len(together) == 2:
        return (x - d, y - d) if rank == 0 else (x + d, y + d)
    return (x + (-d, d)[rank % 2], y + (-d, d)[rank // 2])


def piece_radius(colour: int, piece_index: int, pieces: PiecesSeen) -> float:
    progress = pieces[colour][piece_index]
    if progress in (START, HOME):
        return START_RADIUS if progress == START else HOME_RADIUS
    return CROWD_RADII[len(_together(colour, piece_index, pieces)) - 1]


def hit_radius(colour: int, piece_index: int, pieces: PiecesSeen) -> float:
    """A waiting piece is easy to tap; others no further than their own disc."""
    if pieces[colour][piece_index] == START:
        return 1.2 * CELL
    return piece_radius(colour, piece_index, pieces)


def tap_area(colour: int, piece_index: int, pieces: PiecesSeen) -> tuple[float, float, float]:
    """A lone piece reaches :data:`TAP_REACH`; pieces on one square share its centre."""
    if len(_together(colour, piece_index, pieces)) > 1:
        return (*square_point(colour, pieces[colour][piece_index]), 0.6 * CELL)
    return (*piece_point(colour, piece_index, pieces), TAP_REACH)


def path_points(colour: int, start_progress: int, end_progress: int, piece_index: int = 0
                ) -> list[Point]:
    return geometry.walk(square_point, colour, start_progress, end_progress, piece_index,
                         START, HOME)


def step_ms(end: int) -> int:
    return STEP_MS


def quarter_turns(colour: int) -> int:
    """Clockwise quarter turns that bring ``colour``'s arm to the bottom."""
    return -colour % 4


def safe_squares(house: Sequence[str] = ()) -> tuple[SafeSquare, ...]:
    """None: nothing can be captured in a race."""
    return ()
