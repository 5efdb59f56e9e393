"""The drawing geometry against docs/rules/parcheesi.md 2: one 19 x 19 grid, Ruby's arm at the
bottom.

Cells are compared as integer grid coordinates (column, row), counted from the top-left
corner; the expected cells below are written out by hand from the arm description (for the
south arm: out down the left column 8, across row 18, back up the right column 10).
"""

from __future__ import annotations

import itertools
import math

import pytest

from parcheesi.core.geometry import SIZE, TAP_REACH, Rect
from parcheesi.games.parcheesi.board import (
    COLOURS,
    FIRST_LANE,
    HOME,
    SAFE_SQUARES,
    START,
    TRACK_LENGTH,
    entry_square,
    track_square,
    turn_off,
)
from parcheesi.games.parcheesi.layout import (
    CELL,
    COUNT_BADGE,
    GRID,
    HOME_RADIUS,
    PAIR_REACH,
    PIECE_RADIUS,
    RIM,
    START_RADIUS,
    centre_rect,
    hit_radius,
    home_slots,
    home_triangle,
    lane_rect,
    path_points,
    piece_point,
    piece_radius,
    safe_squares,
    square_point,
    stacking,
    start_circle,
    start_slots,
    tap_area,
    track_rect,
)

Cell = tuple[int, int]
RUBY, EMERALD, SAPPHIRE, AMBER = 0, 1, 2, 3
PHONE_SCALE = 342 / SIZE
"""CSS px per board unit on a 390 x 844 phone, where the board is about 342 px wide (the
browser tests measure it)."""
DIAGONAL_PAIRS = {(8, 9), (25, 26), (42, 43), (59, 60)}
"""Where the track leaves one arm for the next (17k+8 -> 17k+9): the last square of an arm's
right column and the first of the next arm's left column touch only at a corner."""


def cell_of(rect: Rect) -> Cell:
    """Grid coordinates of a one-cell rectangle, checking that it is one aligned cell."""
    x, y, w, h = rect
    assert w == pytest.approx(CELL) and h == pytest.approx(CELL)
    col, row = round(x / CELL), round(y / CELL)
    assert x == pytest.approx(col * CELL) and y == pytest.approx(row * CELL)
    assert 0 <= col < GRID and 0 <= row < GRID
    return col, row


def track_cell(square: int) -> Cell:
    return cell_of(track_rect(square))


def lane_cell(colour: int, progress: int) -> Cell:
    return cell_of(lane_rect(colour, progress))


def circle_hits_rect(cx: float, cy: float, r: float, rect: Rect) -> bool:
    x, y, w, h = rect
    nearest_x = min(max(cx, x), x + w)
    nearest_y = min(max(cy, y), y + h)
    return math.hypot(cx - nearest_x, cy - nearest_y) < r


def test_every_track_and_lane_square_has_its_own_cell() -> None:
    cells = [track_cell(s) for s in range(TRACK_LENGTH)]
    cells += [lane_cell(c, p) for c in range(4) for p in range(64, 71)]
    assert len(cells) == len(set(cells)) == 68 + 28
    centre = {(c, r) for c in range(8, 11) for r in range(8, 11)}
    assert not centre & set(cells)


def test_the_south_arm_cell_by_cell() -> None:
    # Out (down) the left column: squares 60..67 in column 8, rows 11..18.
    assert [track_cell(s) for s in range(60, 68)] == [(8, r) for r in range(11, 19)]
    assert track_cell(0) == (9, 18)
    # Back in (up) the right column: squares 1..8 in column 10, rows 18..11.
    assert [track_cell(s) for s in range(1, 9)] == [(10, r) for r in range(18, 10, -1)]
    # Lane rows 7..1 of the middle column.
    assert [lane_cell(RUBY, p) for p in range(64, 71)] == [(9, r) for r in range(17, 10, -1)]


def test_neighbours_along_the_track_touch() -> None:
    diagonal = set()
    for s in range(TRACK_LENGTH):
        nxt = (s + 1) % TRACK_LENGTH
        (c1, r1), (c2, r2) = track_cell(s), track_cell(nxt)
        step = (abs(c1 - c2), abs(r1 - r2))
        assert step in {(1, 0), (0, 1), (1, 1)}, (s, nxt)
        if step == (1, 1):
            diagonal.add((s, nxt))
    assert diagonal == DIAGONAL_PAIRS


@pytest.mark.parametrize(
    ("colour", "outer_middle", "entry"),
    [
        (RUBY, (9, 18), (10, 14)),
        (EMERALD, (18, 9), (14, 8)),
        (SAPPHIRE, (9, 0), (8, 4)),
        (AMBER, (0, 9), (4, 10)),
    ],
)
def test_turn_off_and_entry_squares(colour: int, outer_middle: Cell, entry: Cell) -> None:
    assert track_cell(turn_off(colour)) == outer_middle
    assert track_cell(entry_square(colour)) == entry


def test_star_square_mirrors_the_entry_square_on_the_south_arm() -> None:
    assert track_cell(63) == (8, 14)  # the left column's row 4


@pytest.mark.parametrize("colour", range(4))
def test_lane_runs_from_the_outer_end_to_the_centre(colour: int) -> None:
    turn = track_cell(turn_off(colour))
    cells = [turn] + [lane_cell(colour, p) for p in range(64, 71)]
    for (c1, r1), (c2, r2) in itertools.pairwise(cells):
        assert abs(c1 - c2) + abs(r1 - r2) == 1
    distances = [abs(c - 9) + abs(r - 9) for c, r in cells]
    assert distances == list(range(9, 1, -1))  # the last lane cell borders the centre


def test_start_and_home_slots_stay_off_the_track() -> None:
    track = [track_rect(s) for s in range(TRACK_LENGTH)]
    lanes = [lane_rect(c, p) for c in range(4) for p in range(64, 71)]
    for colour in range(4):
        cx, cy, r = start_circle(colour)
        assert not any(circle_hits_rect(cx, cy, r, rect) for rect in track + lanes)
        for x, y in start_slots(colour):
            assert math.hypot(x - cx, y - cy) + START_RADIUS <= r
        for x, y in home_slots(colour):
            assert not any(circle_hits_rect(x, y, HOME_RADIUS, rect) for rect in track + lanes)
            assert circle_hits_rect(x, y, 0.01, centre_rect())


@pytest.mark.parametrize("colour", range(4))
def test_start_sits_beside_the_entry_square(colour: int) -> None:
    cx, cy, _ = start_circle(colour)
    ex, ey, _, _ = track_rect(entry_square(colour))
    sx, sy, _, _ = track_rect((turn_off(colour) - 5) % TRACK_LENGTH)  # the arm's other row 4
    assert math.hypot(ex - cx, ey - cy) < math.hypot(sx - cx, sy - cy)


@pytest.mark.parametrize("colour", range(4))
def test_home_slots_lie_in_the_colours_triangle(colour: int) -> None:
    (ax, ay), (bx, by), (px, py) = home_triangle(colour)
    lane_x, lane_y, _, _ = lane_rect(colour, 70)
    base_mid = ((ax + bx) / 2, (ay + by) / 2)
    # the base borders the colour's last lane cell
    assert math.dist(base_mid, (lane_x + CELL / 2, lane_y + CELL / 2)) == pytest.approx(CELL / 2)
    for x, y in home_slots(colour):
        # inside the triangle: on the same side of each edge as the third corner
        for (x1, y1), (x2, y2), (x3, y3) in (
            ((ax, ay), (bx, by), (px, py)),
            ((bx, by), (px, py), (ax, ay)),
            ((px, py), (ax, ay), (bx, by)),
        ):
            side = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)
            ref = (x2 - x1) * (y3 - y1) - (y2 - y1) * (x3 - x1)
            assert side * ref > 0


def inside_rect(x: float, y: float, r: float, rect: Rect) -> bool:
    rx, ry, w, h = rect
    return rx <= x - r and x + r <= rx + w and ry <= y - r and y + r <= ry + h


LEGIBLE = 0.6
"""A piece sharing its cell is drawn at least this share of a lone piece's radius."""


def side_by_side(pieces, a: tuple[int, int], b: tuple[int, int], rect: Rect) -> None:
    """Both pieces drawn wholly inside the cell, white rims included, at least 60 % of a
    lone piece's radius, and their discs clear of each other (only the rims may touch), so
    both are seen whole."""
    (ax, ay), (bx, by) = piece_point(*a, pieces), piece_point(*b, pieces)
    ra, rb = piece_radius(*a, pieces), piece_radius(*b, pieces)
    assert inside_rect(ax, ay, ra + RIM, rect) and inside_rect(bx, by, rb + RIM, rect)
    assert math.dist((ax, ay), (bx, by)) >= ra + rb - 1e-9
    assert min(ra, rb) >= LEGIBLE * PIECE_RADIUS  # still a piece, not a dot
    assert stacking(*a, pieces)[1] == stacking(*b, pieces)[1] == 0  # no count on a pair


def test_two_pieces_on_one_square_sit_side_by_side_inside_it() -> None:
    pieces = ((10, 10, START, 66), (), (), (30, 66, 66, START))
    # Ruby 10 and 10: a blockade on square 15; Amber's pair in its lane at 66.
    side_by_side(pieces, (RUBY, 0), (RUBY, 1), track_rect(15))
    side_by_side(pieces, (AMBER, 1), (AMBER, 2), lane_rect(AMBER, 66))
    # Ruby's lone lane piece at 66 is not disturbed by Amber's pair at 66 in another lane.
    assert piece_point(RUBY, 3, pieces) == pytest.approx(
        (lane_rect(RUBY, 66)[0] + CELL / 2, lane_rect(RUBY, 66)[1] + CELL / 2)
    )
    assert piece_radius(RUBY, 3, pieces) == PIECE_RADIUS


def test_pieces_of_two_colours_on_one_square_sit_side_by_side_inside_it() -> None:
    # Ruby progress 7 and Emerald progress 58 share the star square 12 ((0 + 5 + 7) and
    # (17 + 5 + 58) mod 68); Amber 17 and Ruby 0 are both on square 5, Ruby's entry square
    # ((51 + 5 + 17) mod 68).
    pieces = ((7, START, START, START), (58, START, START, START), (), ())
    side_by_side(pieces, (RUBY, 0), (EMERALD, 0), track_rect(12))
    pieces = ((0, START, START, START), (), (), (17, START, START, START))
    side_by_side(pieces, (RUBY, 0), (AMBER, 0), track_rect(5))


def test_each_piece_of_a_pair_has_half_a_thumb_wide_disc() -> None:
    """A tap beside a pair goes to the nearer of its two pieces, within one disc round their
    square: each piece's half reaches 44 CSS px across and as high on the phone, and it
    lies on that piece's side."""
    pieces = ((10, 10, START, START), (), (), ())
    centre = square_point(RUBY, 10)
    discs = {tap_area(RUBY, k, pieces) for k in (0, 1)}
    assert discs == {(*centre, PAIR_REACH)}
    own = {0: [], 1: []}
    step = CELL / 40
    n = int(PAIR_REACH / step)
    for i, j in itertools.product(range(-n, n + 1), repeat=2):
        point = (centre[0] + i * step, centre[1] + j * step)
        if math.dist(point, centre) < PAIR_REACH:
            nearer = min((0, 1), key=lambda k: math.dist(point, piece_point(RUBY, k, pieces)))
            own[nearer].append(point)
    for k, points in own.items():
        xs, ys = [x for x, _ in points], [y for _, y in points]
        assert (max(xs) - min(xs)) * PHONE_SCALE >= 44, k
        assert (max(ys) - min(ys)) * PHONE_SCALE >= 44, k
    # a lone piece's own disc is centred on it, 44 px across
    lone = ((10, START, START, START), (), (), ())
    assert tap_area(RUBY, 0, lone) == (*piece_point(RUBY, 0, lone), TAP_REACH)
    assert 2 * TAP_REACH * PHONE_SCALE >= 44


def progress_to(colour: int, square: int) -> int:
    """The track progress that puts a piece of ``colour`` on ``square``."""
    return next(p for p in range(FIRST_LANE) if track_square(colour, p) == square)


def crowd(count: int, square: int = 15) -> tuple[tuple[int, ...], ...]:
    """``count`` pieces on track ``square``, colour by colour (which the rules allow up to
    two), the others in START."""
    pieces = [[START] * 4 for _ in COLOURS]
    for k in range(count):
        pieces[k % 4][k // 4] = progress_to(k % 4, square)
    return tuple(tuple(own) for own in pieces)


def on_cell(pieces, cell: Rect) -> list[tuple[int, int]]:
    return [(c, i) for c, own in enumerate(pieces) for i in range(len(own))
            if own[i] not in (START, HOME)
            and circle_hits_rect(*piece_point(c, i, pieces), 0.01, cell)]


def visible_share(disc: tuple[float, float, float], above: list[tuple[float, float, float]]
                  ) -> float:
    """The share of a disc (x, y, r) that no disc ``above`` covers (sampled)."""
    x, y, r = disc
    step = r / 20
    inside = seen = 0
    for i, j in itertools.product(range(-20, 21), repeat=2):
        px, py = x + i * step, y + j * step
        if math.dist((px, py), (x, y)) <= r:
            inside += 1
            seen += all(math.dist((px, py), (ax, ay)) > ar for ax, ay, ar in above)
    return seen / inside


def check_crowd(pieces, cell: Rect, on_top=()) -> list[tuple[int, int]]:
    """Every piece on ``cell`` lies wholly inside it with its rim, at least 60 % of a lone
    piece; a stack's count is on its top piece, with the badge inside the cell, clear of
    the top piece's middle (its number); the three layers under the top each show at
    least a tenth of their disc (of more, the lower ones hide under the fourth from the
    top). Returns the pieces from the lowest layer to the top."""
    together = on_cell(pieces, cell)
    count = len(together)
    layers = sorted(together, key=lambda p: stacking(*p, pieces, on_top)[0])
    assert [stacking(*p, pieces, on_top)[0] for p in layers] == list(range(count))
    discs = []
    for piece in layers:
        (x, y), r = piece_point(*piece, pieces, on_top), piece_radius(*piece, pieces)
        assert inside_rect(x, y, r + RIM, cell), (count, piece)
        assert r >= LEGIBLE * PIECE_RADIUS, (count, piece)
        assert stacking(*piece, pieces, on_top)[1] == (count if count > 2 else 0)
        discs.append((x, y, r))
    if count > 2:
        tx, ty, tr = discs[-1]
        dx, dy, br = COUNT_BADGE
        assert inside_rect(tx + dx, ty + dy, br, cell)
        assert math.dist((tx + dx, ty + dy), (tx, ty)) >= br + 0.45 * tr
        covers = [(tx + dx, ty + dy, br)]
    else:
        covers = []
    for k in range(max(0, count - 4), count - 1):  # the four upper layers (more hide)
        above = [(x, y, r + RIM) for x, y, r in discs[k + 1:]] + covers
        assert visible_share(discs[k], above) >= 0.1, (count, layers[k])
    return layers


@pytest.mark.parametrize("count", [2, 3, 4, 8, 16])
def test_pieces_sharing_a_track_square_stay_inside_it_and_legible(count: int) -> None:
    """However many share a square (the rules allow two; a pair sits side by side, more
    are stacked with a count), each is drawn inside the cell, rim included, at least 60 %
    of a lone piece's radius, and up to four each show a part of themselves."""
    for square in (15, 17, 26):  # an arm's right column, its turn-off square, the next arm
        pieces = crowd(count, square)
        layers = check_crowd(pieces, track_rect(square))
        assert len(layers) == count
        assert layers == sorted(layers)  # with nothing raised, in (colour, index) order


@pytest.mark.parametrize("count", [2, 3, 4])
def test_pieces_sharing_a_lane_square_stay_inside_it_and_legible(count: int) -> None:
    for colour in range(4):
        pieces = [(START,) * 4 for _ in COLOURS]
        pieces[colour] = (67,) * count + (START,) * (4 - count)
        assert len(check_crowd(pieces, lane_rect(colour, 67))) == count


def test_the_movable_piece_of_a_stack_is_on_top_and_takes_a_tap_on_it() -> None:
    """The board raises the pieces that may move (``on_top``) to a stack's top: drawn last,
    with the count, its disc over the cell's centre, so a tap on the stack takes it. The
    stack's pieces share one tap disc round the cell, beyond the stack."""
    pieces = crowd(4)
    for raised in [(RUBY, 0)], [(EMERALD, 0)], [(SAPPHIRE, 0), (AMBER, 0)]:
        layers = check_crowd(pieces, track_rect(15), raised)
        assert layers[-len(raised):] == raised
        top = layers[-1]
        assert stacking(*top, pieces, raised) == (3, 4)
        assert math.dist(piece_point(*top, pieces, raised), square_point(RUBY, 10)) < (
            piece_radius(*top, pieces))
    for piece in layers:
        assert tap_area(*piece, pieces) == (*square_point(RUBY, 10), PAIR_REACH)
        assert hit_radius(*piece, pieces) == piece_radius(*piece, pieces)
    # a pair keeps its order: both are seen whole
    pair = crowd(2)
    assert piece_point(EMERALD, 0, pair, [(RUBY, 0)]) == piece_point(EMERALD, 0, pair)


def test_pieces_home_are_as_large_as_their_triangle_allows() -> None:
    for colour in range(4):
        triangle = home_triangle(colour)
        for count in range(1, 5):
            pieces = [(START,) * 4 for _ in COLOURS]
            pieces[colour] = (HOME,) * count + (START,) * (4 - count)
            spots = [(piece_point(colour, k, pieces), piece_radius(colour, k, pieces))
                     for k in range(count)]
            for (x, y), r in spots:
                assert in_triangle((x, y), r + RIM, triangle), (colour, count)
                assert r >= HOME_RADIUS
            for (p, r), (q, s) in itertools.combinations(spots, 2):
                assert math.dist(p, q) >= r + s + 2 * RIM, (colour, count)
            if count == 1:
                assert spots[0][1] > PIECE_RADIUS  # one piece HOME: larger than on the track
    # HOME in piece order: piece 4 alone there takes the one-piece place
    pieces = ((START, START, START, HOME), (), (), ())
    assert piece_point(RUBY, 3, pieces) == piece_point(RUBY, 0, ((HOME,) * 1 + (START,) * 3,
                                                                 (), (), ()))


def in_triangle(point: tuple[float, float], r: float, corners) -> bool:
    """The circle round ``point`` lies inside the triangle (on the inner side of each edge,
    at least ``r`` from it)."""
    x, y = point
    for (x1, y1), (x2, y2), (x3, y3) in itertools.permutations(corners):
        edge = math.dist((x1, y1), (x2, y2))
        side = ((x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)) / edge
        ref = (x2 - x1) * (y3 - y1) - (y2 - y1) * (x3 - x1)
        if side * math.copysign(1, ref) < r:
            return False
    return True


def test_pieces_in_start_and_home_use_distinct_slots() -> None:
    pieces = ((START, START, START, START), (HOME, HOME, HOME, HOME), (), ())
    points = [piece_point(c, i, pieces) for c in (RUBY, EMERALD) for i in range(4)]
    assert len(set(points)) == 8
    assert [piece_point(RUBY, i, pieces) for i in range(4)] == list(start_slots(RUBY))
    assert [piece_point(EMERALD, i, pieces) for i in range(4)] == list(home_slots(EMERALD))


def test_everything_is_drawn_inside_the_board() -> None:
    pieces = tuple((START, 30, 66, HOME) for _ in COLOURS)
    for c in range(4):
        for i in range(4):
            x, y = piece_point(c, i, pieces)
            r = piece_radius(c, i, pieces)
            assert r <= x <= SIZE - r and r <= y <= SIZE - r


def test_path_walks_square_by_square() -> None:
    points = path_points(RUBY, 60, 66)  # squares 65, 66, 67, 0, then lane 64..66
    assert len(points) == 7
    for p, q in itertools.pairwise(points):
        assert math.dist(p, q) == pytest.approx(CELL)
    points = path_points(RUBY, 0, 10)  # squares 5..15, across the diagonal step 8 -> 9
    steps = [math.dist(p, q) for p, q in itertools.pairwise(points)]
    assert steps.count(pytest.approx(CELL * math.sqrt(2))) == 1
    assert all(s == pytest.approx(CELL) or s == pytest.approx(CELL * math.sqrt(2)) for s in steps)


def test_entering_goes_from_the_start_slot_to_the_entry_square() -> None:
    points = path_points(SAPPHIRE, START, 0, piece_index=2)
    assert points == [start_slots(SAPPHIRE)[2], path_points(SAPPHIRE, 0, 1)[0]]
    x, y, w, h = track_rect(entry_square(SAPPHIRE))
    assert points[1] == pytest.approx((x + w / 2, y + h / 2))


def test_reaching_home_and_being_captured() -> None:
    points = path_points(EMERALD, 68, HOME, piece_index=1)
    assert len(points) == 4
    assert points[-1] == home_slots(EMERALD)[1]
    captured = path_points(AMBER, 40, START, piece_index=3)
    assert len(captured) == 2
    assert captured[-1] == start_slots(AMBER)[3]


def test_backward_paths_are_refused() -> None:
    with pytest.raises(ValueError):
        path_points(RUBY, 10, 5)


def test_safe_squares_and_their_marks() -> None:
    marks = safe_squares()
    assert {m.square for m in marks} == SAFE_SQUARES
    entries = {m.square: m.colour for m in marks if m.kind == "entry"}
    assert entries == {entry_square(c): c for c in range(4)}
    assert all(m.kind == "star" and m.colour is None for m in marks if m.square not in entries)


def test_a_tap_on_a_piece_reaches_no_other_piece() -> None:
    """A piece's own tap area reaches no piece of another cell, and a pair's two pieces
    touch without overlapping. (A stack's pieces overlap: a tap there takes the one drawn on
    top, see the test above.)"""
    # Ruby's pair on square 15 between lone Amber pieces on 14 and 16, a stack of four
    # (Ruby 12, Emerald 63, Sapphire 46, Amber 29) on 17 beside Amber's 16, Amber's
    # neighbour on 58, pairs in two lanes, pieces in START and HOME.
    pieces = ((START, 12, 10, 10), (63, 65, 65, HOME), (66, 66, 30, 46), (26, 28, 29, 2))
    stack = {(RUBY, 1), (EMERALD, 0), (SAPPHIRE, 3), (AMBER, 2)}
    assert on_cell(pieces, track_rect(17)) == sorted(stack)
    spots = [
        ((c, i), piece_point(c, i, pieces), piece_radius(c, i, pieces), hit_radius(c, i, pieces))
        for c in range(4)
        for i in range(4)
    ]
    for k, (piece, point, radius, hit) in enumerate(spots):
        assert hit >= radius
        for other_piece, other, other_radius, other_hit in spots[k + 1 :]:
            if {piece, other_piece} <= stack:
                continue
            assert math.dist(point, other) >= max(hit + other_radius, other_hit + radius) - 1e-9
