"""Drawing geometry of the Ludo board: where every square, yard slot and piece sits in a
1000-unit SVG.

The board is a 15 x 15 grid (docs/rules/ludo.md 2): a 6 x 6 yard in each corner, a cross of
paths three squares wide and a 3 x 3 centre with the four HOME triangles. Red's arm is at
the bottom with its yard to the left of it; the arms follow one another clockwise on screen
(bottom, left, top, right), the direction of travel.

Every shape is first placed in Red's frame, in cell units relative to the board's centre
(x to the right, y downwards), and then turned a quarter turn per colour, the map
``(u, v) -> (-v, u)``. The module answers the same names as every game's layout
(:class:`parcheesi.core.geometry.BoardLayout`), so one board component draws any game.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...core import geometry
from ...core.geometry import Grid, Point, Rect, SafeSquare
from . import board
from .board import LAST_TRACK, STARS, START_SQUARES, YARD

# What the board component asks every game's layout under the same names
# (parcheesi.core.geometry.BoardLayout); the facts stay in .board.
HOME = board.HOME
FIRST_LANE = board.FIRST_LANE
TRACK_LENGTH = board.TRACK_LENGTH
is_track = board.is_track
is_lane = board.is_lane
SIZE = geometry.SIZE
MAX_ANIMATION_MS = geometry.MAX_ANIMATION_MS
rect_centre = geometry.rect_centre
star_points = geometry.star_points

GRID = 15
FRAME = Grid(cells=GRID, clockwise=True)
"""How shapes are placed in Red's frame and turned to each colour's: the arms follow one
another clockwise on screen."""
CELL = FRAME.cell
ARM_SQUARES = 13
"""Track squares per arm: 6 in along one column, the end square, 6 out along the other."""
START_OFFSET = 8
"""A colour's start square is the ninth of its arm's squares in travel order."""
START = YARD
"""Where a piece waits to come in, under the name the board component uses for it."""

PIECE_RADIUS = 0.40 * CELL
"""A lone piece nearly fills its square."""
RIM = geometry.RIM
CROWDING = geometry.Crowding(rim=RIM / CELL, stack_radius=0.28, spread=0.17,
                             badge_radius=0.25)
"""Pieces sharing a square (any number may, :class:`~parcheesi.core.geometry.Crowding`):
two side by side on its diagonal, each 0.275 cells (69 % of a lone piece); three or more as
a stack of 0.30-cell pieces (75 %), fanned over four places at most, with a count."""
COUNT_BADGE = geometry.scaled(CROWDING.badge(), CELL)
"""The count on a stack's top piece: (dx, dy, radius) from its centre."""
YARD_RADIUS = 0.55 * CELL
"""Pieces in the yard have room to be large, which helps the tap that brings one out."""
HOME_RADIUS = 0.26 * CELL
LONE_HIT = 0.47 * CELL
YARD_HIT = 0.9 * CELL
TAP_REACH = geometry.TAP_REACH
CROWD_REACH = 1.25 * CELL
"""The reach of pieces sharing a square, from the square's centre: the nearest takes a tap."""

YARD_CENTRE_LOCAL: Point = (-4.5, 4.5)
"""The middle of Red's 6 x 6 yard, bottom left (cell units from the board's centre)."""
YARD_SLOT_OFFSET = 1.1
_HOME_SLOTS_LOCAL: tuple[Point, ...] = ((-0.62, 1.12), (0.0, 1.12), (0.62, 1.12), (0.0, 0.62))
"""Red's HOME slots inside its triangle (base y = 1.5, apex at the centre)."""
_ARM_LOCAL: tuple[tuple[int, int], ...] = (
    (1, 2), (1, 3), (1, 4), (1, 5), (1, 6), (1, 7), (0, 7),
    (-1, 7), (-1, 6), (-1, 5), (-1, 4), (-1, 3), (-1, 2),
)
"""Red's arm's track squares in travel order (column, row), coming in from Blue's arm."""


def track_rect(square: int) -> Rect:
    """The cell of track square 0..51 (square 0 is Red's start square)."""
    arm, offset = divmod((square + START_OFFSET) % TRACK_LENGTH, ARM_SQUARES)
    return FRAME.cell_rect(arm, *_ARM_LOCAL[offset])


def track_square(colour: int, progress: int) -> int:
    return (START_SQUARES[colour] + progress) % TRACK_LENGTH


def lane_rect(colour: int, progress: int) -> Rect:
    """The cell of a home-lane progress 51..55: the arm's middle column, from the outside in."""
    if not is_lane(progress):
        raise ValueError(f"not a home-lane progress: {progress}")
    return FRAME.cell_rect(colour, 0, 7 - (progress - LAST_TRACK))


def yard_rect(colour: int) -> Rect:
    """The colour's 6 x 6 corner."""
    x, y = FRAME.place(YARD_CENTRE_LOCAL, colour)
    return (x - 3 * CELL, y - 3 * CELL, 6 * CELL, 6 * CELL)


def yard_rects() -> tuple[Rect, ...]:
    return tuple(yard_rect(c) for c in range(4))


def start_circle(colour: int) -> tuple[float, float, float]:
    """(cx, cy, r) of the round patch in the yard where the pieces wait."""
    cx, cy = FRAME.place(YARD_CENTRE_LOCAL, colour)
    return (cx, cy, 2.2 * CELL)


def start_slots(colour: int) -> tuple[Point, ...]:
    """Where pieces 1..4 wait in the yard: a 2 x 2 square round its middle."""
    return FRAME.square_of_four(colour, YARD_CENTRE_LOCAL, YARD_SLOT_OFFSET)


home_triangle = FRAME.home_triangle
centre_rect = FRAME.centre_rect


def home_slots(colour: int) -> tuple[Point, ...]:
    return tuple(FRAME.place(p, colour) for p in _HOME_SLOTS_LOCAL)


def square_point(colour: int, progress: int, piece_index: int = 0) -> Point:
    """The centre of where a piece of ``colour`` at ``progress`` stands when alone there;
    the yard and HOME have one slot per piece, hence ``piece_index``."""
    if progress == YARD:
        return start_slots(colour)[piece_index]
    if progress == HOME:
        return home_slots(colour)[piece_index]
    if is_track(progress):
        return rect_centre(track_rect(track_square(colour, progress)))
    return rect_centre(lane_rect(colour, progress))


def _place(colour: int, progress: int) -> tuple[int, int] | None:
    """A key equal for exactly the pieces drawn on one cell (None for yard and HOME)."""
    if is_track(progress):
        return (-1, track_square(colour, progress))
    if is_lane(progress):
        return (colour, progress)
    return None


STEP_MS = 110
"""Time per square: a Ludo move is at most six squares, so each can be seen."""
CAPTURE_MS = 360


def safe_squares(house: Sequence[str] = ()) -> tuple[SafeSquare, ...]:
    """The marked squares: every start square in its colour, and the star squares when the
    ``stars`` house rule is on."""
    marks = [SafeSquare(s, "entry", c) for c, s in enumerate(START_SQUARES)]
    if "stars" in house:
        marks += [SafeSquare(s, "star", None) for s in STARS]
    return tuple(sorted(marks, key=lambda mark: mark.square))


def quarter_turns(colour: int) -> int:
    """How many clockwise quarter turns of the drawing bring ``colour``'s yard and arm to
    the bottom (the arms follow one another clockwise on screen)."""
    return -colour % 4


def _home_spot(colour: int, piece_index: int, pieces: Sequence[Sequence[int]]
               ) -> tuple[Point, float]:
    """A piece HOME keeps its own slot in its colour's triangle, at one size."""
    return home_slots(colour)[piece_index], HOME_RADIUS


PIECES = geometry.PieceDrawing(
    square_point=square_point, place=_place, home_spot=_home_spot, start=YARD, home=HOME,
    cell=CELL, crowding=CROWDING, lone_radius=PIECE_RADIUS, start_radius=YARD_RADIUS,
    lone_hit=LONE_HIT, start_hit=YARD_HIT, crowd_reach=CROWD_REACH, step=STEP_MS,
    capture=CAPTURE_MS)
"""The pieces: alone, in pairs and in stacks on a square (any number may share one); in
the yard and HOME each in its slot."""
stacking = PIECES.stacking
piece_point = PIECES.piece_point
piece_radius = PIECES.piece_radius
hit_radius = PIECES.hit_radius
tap_area = PIECES.tap_area
path_points = PIECES.path_points
step_ms = PIECES.step_ms
