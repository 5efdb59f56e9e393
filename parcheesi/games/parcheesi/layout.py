"""Drawing geometry of the board: where every square, slot and piece sits in a 1000-unit SVG.

The board is a 19 x 19 grid of cells: four arms of 3 x 8 cells around a 3 x 3 centre, with
Ruby's arm at the bottom (docs/rules/parcheesi.md 2). Everything is computed once here, in pure
Python, so the browser component only draws the rectangles and points it is sent, and the tests can
check the geometry against the rules without a browser. Screen rotation for other seats is
the component's business; this module always has Ruby at the bottom.

Internally every shape is first placed in Ruby's (south) frame, in cell units relative to the
board's centre (x to the right, y downwards), and then turned a quarter turn per colour:
the arms follow one another counterclockwise as seen from above (south, east, north, west),
which on screen (y down) is the map ``(u, v) -> (v, -u)``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...core import geometry
from ...core.geometry import Grid, Point, Rect, SafeSquare
from . import board
from .board import COLOURS, LANE_LENGTH, entry_square, track_square, turn_off

# What the board component asks every game's layout under the same names
# (parcheesi.core.geometry.BoardLayout); the facts stay in .board.
START = board.START
HOME = board.HOME
FIRST_LANE = board.FIRST_LANE
TRACK_LENGTH = board.TRACK_LENGTH
is_track = board.is_track
is_lane = board.is_lane
SIZE = geometry.SIZE
MAX_ANIMATION_MS = geometry.MAX_ANIMATION_MS
rect_centre = geometry.rect_centre
star_points = geometry.star_points

GRID = 19
FRAME = Grid(cells=GRID, clockwise=False)
"""How shapes are placed in Ruby's frame and turned to each colour's: the arms follow one
another counterclockwise on screen."""
CELL = FRAME.cell
ARM_SPAN = 17
"""Track squares per arm: 8 out, the turn-off square, 8 back in."""

PIECE_RADIUS = 0.42 * CELL
"""A lone piece nearly fills its cell, so it is easy to tap on a phone."""
RIM = geometry.RIM
"""The white rim ``board.js`` draws round every piece, beyond its radius (board units)."""
CROWDING = geometry.Crowding(rim=RIM / CELL, stack_radius=0.28, spread=0.17,
                             badge_radius=0.25)
"""Pieces sharing a cell (:class:`~parcheesi.core.geometry.Crowding`): two side by side
on its diagonal, each 0.27 cells (64 % of a lone piece), more (which the rules never allow)
as a stack of 0.29-cell pieces (69 %) with a count."""
COUNT_BADGE = geometry.scaled(CROWDING.badge(), CELL)
"""The count on a stack's top piece: (dx, dy, radius) from its centre."""
START_RADIUS = 0.50 * CELL
"""Pieces in START have room to be larger, which helps the frequent tap that enters one."""
HOME_RADIUS = 0.30 * CELL
"""The size of a piece in HOME when all four are there; fewer are drawn larger."""
LONE_HIT = 0.45 * CELL
"""Tap radius of a lone piece itself: past its rim, yet short of a pair's or a stack's piece
reaching over from the next cell."""
START_HIT = 0.65 * CELL
TAP_REACH = geometry.TAP_REACH
PAIR_REACH = 1.6 * CELL
"""The reach of a pair's pieces, from their cell's centre: the nearer of the two takes a
tap, so each has the half of that disc on its side of the diagonal, which is 1.71 * 1.6
cells (47 CSS px on the phone) wide and as high."""

START_CENTRE_LOCAL: Point = (5.5, 5.5)
"""Centre of Ruby's START circle in the middle of the 8 x 8 corner to the right of its arm
as seen from the south edge, which is the side of its entry square (cell units)."""
START_CIRCLE_RADIUS = 2.4
START_SLOT_OFFSET = 0.85

_HOME_LAYOUTS: dict[int, tuple[float, tuple[Point, ...]]] = {
    1: (0.55, ((0.0, 0.9),)),
    2: (0.39, ((-0.43, 1.06), (0.43, 1.06))),
    3: (0.32, ((-0.36, 1.14), (0.36, 1.14), (0.0, 0.515))),
    4: (0.30, ((-0.678, 1.16), (0.0, 1.16), (0.678, 1.16), (0.0, 0.481))),
}
"""How the pieces HOME sit in Ruby's triangle (base y = 1.5, apex at the centre), by how
many there are: the radius (cells) and the centres, as large as the triangle allows with
their rims inside it and clear of each other (one in the middle; two side by side; two and
one above; three along the base and one above)."""
_HOME_SLOTS_LOCAL = _HOME_LAYOUTS[4][1]


def _cell_rect(colour: int, column: int, row: int) -> Rect:
    """The cell of an arm: ``column`` -1/0/+1 is left/middle/right seen from the colour's
    side, ``row`` 1..8 counts outwards from the centre."""
    return FRAME.cell_rect(colour, column, 1.0 + row)


def _arm_position(square: int) -> tuple[int, int, int]:
    """(arm colour, column, row) of a track square (docs/rules/parcheesi.md 2, arm geometry).

    Arm ``k`` holds squares 17k-8 .. 17k+8: out along the left column (rows 1..8), the
    turn-off square 17k in the middle of the outer end, back in along the right column.
    """
    shifted = (square + 8) % TRACK_LENGTH
    arm = shifted // ARM_SPAN
    offset = shifted - ARM_SPAN * arm - 8  # -8..8, 0 is the turn-off square
    if offset < 0:
        return arm, -1, offset + 9
    if offset == 0:
        return arm, 0, 8
    return arm, 1, 9 - offset


def track_rect(square: int) -> Rect:
    """The cell of track square 0..67."""
    arm, column, row = _arm_position(square)
    return _cell_rect(arm, column, row)


def lane_rect(colour: int, progress: int) -> Rect:
    """The cell of a home-lane progress 64..70: the middle column, from the outer end in."""
    if not is_lane(progress):
        raise ValueError(f"not a home-lane progress: {progress}")
    return _cell_rect(colour, 0, LANE_LENGTH - (progress - FIRST_LANE))


def start_circle(colour: int) -> tuple[float, float, float]:
    """(cx, cy, r) of the colour's START circle."""
    cx, cy = FRAME.place(START_CENTRE_LOCAL, colour)
    return (cx, cy, START_CIRCLE_RADIUS * CELL)


def start_slots(colour: int) -> tuple[Point, ...]:
    """Where pieces 1..4 wait in START: a 2 x 2 square around the circle's centre."""
    return FRAME.square_of_four(colour, START_CENTRE_LOCAL, START_SLOT_OFFSET)


home_triangle = FRAME.home_triangle
"""The colour's triangle of the centre square: its base borders the colour's lane."""
centre_rect = FRAME.centre_rect


def home_slots(colour: int) -> tuple[Point, ...]:
    """Where pieces 1..4 rest once all four are HOME."""
    return tuple(FRAME.place(p, colour) for p in _HOME_SLOTS_LOCAL)


def _home_spot(colour: int, piece_index: int, pieces: Sequence[Sequence[int]]
               ) -> tuple[Point, float]:
    """Where a piece HOME is drawn and how large: the fewer pieces HOME, the larger, each
    in its place among them in piece order."""
    home = [i for i, p in enumerate(pieces[colour]) if p == HOME]
    radius, local = _HOME_LAYOUTS[len(home)]
    return FRAME.place(local[home.index(piece_index)], colour), radius * CELL


def square_point(colour: int, progress: int, piece_index: int = 0) -> Point:
    """The centre of where a piece of ``colour`` at ``progress`` stands when alone there.

    START and HOME have one slot per piece, hence ``piece_index``.
    """
    if progress == START:
        return start_slots(colour)[piece_index]
    if progress == HOME:
        return home_slots(colour)[piece_index]
    if is_track(progress):
        return rect_centre(track_rect(track_square(colour, progress)))
    return rect_centre(lane_rect(colour, progress))


def _place(colour: int, progress: int) -> tuple[str, int, int] | None:
    """A key equal for exactly the pieces that share one drawn cell (None off the board)."""
    if is_track(progress):
        return ("track", track_square(colour, progress), 0)
    if is_lane(progress):
        return ("lane", colour, progress)
    return None


STEP_MS = 75
"""Time per square of a walking piece."""
CAPTURE_MS = 320
"""A captured piece slides home in one long step; give it time to be seen."""


def safe_squares(house: Sequence[str] = ()) -> tuple[SafeSquare, ...]:
    """The 12 safe squares: each colour's entry square (coloured) and two star squares,
    its turn-off square t and t + 12 (docs/rules/parcheesi.md 2). Parcheesi has no house rules that
    move them (``house`` is for the board component, which asks every game the same way)."""
    marks: list[SafeSquare] = []
    for colour in range(len(COLOURS)):
        t = turn_off(colour)
        marks.append(SafeSquare(t, "star", None))
        marks.append(SafeSquare(entry_square(colour), "entry", colour))
        marks.append(SafeSquare((t + 12) % TRACK_LENGTH, "star", None))
    return tuple(sorted(marks, key=lambda mark: mark.square))


def yard_rects() -> tuple[Rect, ...]:
    """The corner areas drawn in each colour: none on this board (START is a circle)."""
    return ()


def quarter_turns(colour: int) -> int:
    """How many clockwise quarter turns of the drawing bring ``colour``'s arm to the bottom
    (the arms follow one another counterclockwise on screen)."""
    return colour % 4


PIECES = geometry.PieceDrawing(
    square_point=square_point, place=_place, home_spot=_home_spot, start=START, home=HOME,
    cell=CELL, crowding=CROWDING, lone_radius=PIECE_RADIUS, start_radius=START_RADIUS,
    lone_hit=LONE_HIT, start_hit=START_HIT, crowd_reach=PAIR_REACH, step=STEP_MS,
    capture=CAPTURE_MS)
"""The pieces: alone, in pairs (a blockade, two colours on a safe square) and in stacks;
in START each in its slot; HOME sharing their colour's triangle (:func:`_home_spot`)."""
stacking = PIECES.stacking
piece_point = PIECES.piece_point
piece_radius = PIECES.piece_radius
hit_radius = PIECES.hit_radius
tap_area = PIECES.tap_area
path_points = PIECES.path_points
step_ms = PIECES.step_ms
