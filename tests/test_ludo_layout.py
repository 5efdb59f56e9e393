"""The Ludo board's geometry against docs/rules/ludo.md 2: a 15 x 15 grid, four 6 x 6 yards,
the 52-square track round a three-wide cross, home lanes up the middle of each arm, and
pieces that share a square drawn apart."""

from __future__ import annotations

import itertools
import math

import pytest

from parcheesi.games.ludo import layout
from parcheesi.games.ludo.board import HOME, START_SQUARES, YARD

CELL = layout.CELL


def cell_of(rect: tuple[float, float, float, float]) -> tuple[int, int]:
    x, y, w, h = rect
    assert (w, h) == (pytest.approx(CELL), pytest.approx(CELL))
    return round(x / CELL), round(y / CELL)


def test_the_track_is_52_distinct_cells_each_next_to_the_one_before():
    """Side by side along each arm; corner to corner at the four inner corners of the
    cross, where the track turns from one arm into the next."""
    cells = [cell_of(layout.track_rect(s)) for s in range(52)]
    assert len(set(cells)) == 52
    steps = [(abs(a[0] - b[0]), abs(a[1] - b[1]))
             for a, b in itertools.pairwise([*cells, cells[0]])]  # 51 -> 0 wraps
    assert all(max(step) == 1 for step in steps)
    assert steps.count((1, 1)) == 4


def test_track_lanes_and_centre_tile_the_cross_and_yards_fill_the_corners():
    track = {cell_of(layout.track_rect(s)) for s in range(52)}
    lanes = {cell_of(layout.lane_rect(c, p)) for c in range(4) for p in range(51, 56)}
    centre = {(x, y) for x in range(6, 9) for y in range(6, 9)}
    cross = {(x, y) for x in range(15) for y in range(15) if 6 <= x <= 8 or 6 <= y <= 8}
    assert len(lanes) == 20 and not lanes & track and not centre & (track | lanes)
    assert track | lanes | centre == cross
    corners = {cell_of((x, y, CELL, CELL)) for c in range(4)
               for x0, y0, w, _ in [layout.yard_rects()[c]]
               for x in [x0 + k * CELL for k in range(round(w / CELL))]
               for y in [y0 + k * CELL for k in range(round(w / CELL))]}
    assert len(corners) == 4 * 36 and not corners & cross


def test_red_starts_at_the_bottom_beside_its_yard_and_travels_clockwise():
    x, y = cell_of(layout.track_rect(START_SQUARES[0]))
    assert y == 13 and x == 6  # the left column of the bottom arm, one in from the edge
    yard_x, yard_y, _, _ = layout.yard_rects()[0]
    assert (round(yard_x / CELL), round(yard_y / CELL)) == (0, 9)  # bottom left
    ahead = cell_of(layout.track_rect(1))
    assert ahead == (6, 12)  # up towards the centre, then left: clockwise on screen
    green_yard = layout.yard_rects()[1]
    assert (round(green_yard[0] / CELL), round(green_yard[1] / CELL)) == (0, 0)


def test_each_colour_turns_from_progress_50_into_its_own_lane_and_home():
    for colour in range(4):
        last = cell_of(layout.track_rect(layout.track_square(colour, 50)))
        lane = [cell_of(layout.lane_rect(colour, p)) for p in range(51, 56)]
        assert abs(last[0] - lane[0][0]) + abs(last[1] - lane[0][1]) == 1
        for a, b in itertools.pairwise(lane):
            assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
        assert lane[-1] in {(7, 9), (5, 7), (7, 5), (9, 7)}  # next to the centre
        assert layout.path_points(colour, 50, HOME)[-1] == layout.home_slots(colour)[0]


LEGIBLE = 0.6
"""A piece sharing its square is drawn at least this share of a lone piece's radius."""


def inside(x: float, y: float, r: float, rect: tuple[float, float, float, float]) -> bool:
    rx, ry, w, h = rect
    return rx <= x - r and x + r <= rx + w and ry <= y - r and y + r <= ry + h


def crowd(count: int, square: int) -> tuple[tuple[int, ...], ...]:
    """``count`` pieces on track ``square``, colour by colour, the rest in the yard (any
    number of pieces, of any colours, may share a Ludo square; a colour passes every square
    but the one before its start square)."""
    pieces = [[YARD] * 4 for _ in range(4)]
    colours = [c for c in range(4) if layout.is_track((square - START_SQUARES[c]) % 52)]
    for k in range(count):
        colour = colours[k % len(colours)]
        pieces[colour][k // len(colours)] = (square - START_SQUARES[colour]) % 52
    return tuple(tuple(own) for own in pieces)


def covered(point: tuple[float, float], discs: list[tuple[float, float, float]]) -> bool:
    return any(math.dist(point, (x, y)) <= r for x, y, r in discs)


def visible_share(disc: tuple[float, float, float], above: list[tuple[float, float, float]]
                  ) -> float:
    """The share of a disc (x, y, r) that no disc ``above`` covers (sampled)."""
    x, y, r = disc
    points = [(x + i * r / 20, y + j * r / 20) for i, j in itertools.product(range(-20, 21),
                                                                          repeat=2)]
    inner = [q for q in points if math.dist(q, (x, y)) <= r]
    return sum(not covered(q, above) for q in inner) / len(inner)


def check_crowd(pieces, rect, on_top=()) -> list[tuple[int, int]]:
    """Every piece on ``rect`` lies wholly inside it with its white rim, at least 60 % of a
    lone piece; two are seen whole; more are stacked with the count on the top piece (its
    badge inside the square, clear of the top piece's number), and the three layers under
    the top each show at least a tenth of themselves (of more, the lower ones hide under
    the fourth from the top). Returns the pieces from the lowest layer up."""
    together = [(c, i) for c, own in enumerate(pieces) for i, p in enumerate(own)
                if p not in (YARD, HOME)
                and inside(*layout.square_point(c, p), CELL / 2 - 0.01, rect)]
    count = len(together)
    assert count >= 2
    layers = sorted(together, key=lambda p: layout.stacking(*p, pieces, on_top)[0])
    assert [layout.stacking(*p, pieces, on_top) for p in layers] == [
        (k, count if count > 2 else 0) for k in range(count)]
    discs = []
    for piece in layers:
        (x, y), r = layout.piece_point(*piece, pieces, on_top), layout.piece_radius(*piece, pieces)
        assert inside(x, y, r + layout.RIM, rect), (count, piece)
        assert r >= LEGIBLE * layout.PIECE_RADIUS, (count, piece)
        discs.append((x, y, r))
    if count == 2:
        (ax, ay, ar), (bx, by, br) = discs
        assert math.dist((ax, ay), (bx, by)) >= ar + br - 1e-9  # only the rims touch
        return layers
    tx, ty, tr = discs[-1]
    dx, dy, badge = layout.COUNT_BADGE
    assert inside(tx + dx, ty + dy, badge, rect)
    assert math.dist((tx + dx, ty + dy), (tx, ty)) >= badge + 0.45 * tr
    for k in range(max(0, count - 4), count - 1):  # the four upper layers (more hide)
        above = [(x, y, r + layout.RIM) for x, y, r in discs[k + 1:]] + [
            (tx + dx, ty + dy, badge)]
        assert visible_share(discs[k], above) >= 0.1, (count, layers[k])
    return layers


@pytest.mark.parametrize("count", [2, 3, 4, 5, 8, 9, 12])
def test_pieces_sharing_a_square_stay_inside_it_and_legible(count: int):
    """Any number may share a Ludo square: two side by side, more stacked with a count;
    each inside the square, rim included, at least 60 % of a lone piece's radius."""
    for square in (0, 5, 12, 47):  # a start square, an arm's columns, its end, a star
        layers = check_crowd(crowd(count, square), layout.track_rect(square))
        assert len(layers) == count and layers == sorted(layers)
    # every piece of every colour on one square (a start square: all four pass it)
    assert len(check_crowd(crowd(16, 26), layout.track_rect(26))) == 16


@pytest.mark.parametrize("count", [2, 3, 4])
def test_pieces_sharing_a_lane_square_stay_inside_it_and_legible(count: int):
    for colour in range(4):
        pieces = [(YARD,) * 4 for _ in range(4)]
        pieces[colour] = (53,) * count + (YARD,) * (4 - count)
        assert len(check_crowd(pieces, layout.lane_rect(colour, 53))) == count


def test_the_movable_pieces_of_a_stack_are_on_top_and_take_a_tap_on_it():
    """Five on Red's start square, Red to move: the board raises Red's pieces (``on_top``)
    to the stack's top, the last one drawn last with the count, its disc over the square's
    centre, so a tap on the stack takes a piece that may move; the five share one tap disc
    round the square, beyond the stack."""
    pieces = ((0, 0, YARD, YARD), (39, YARD, YARD, YARD), (26, YARD, YARD, YARD),
              (13, YARD, YARD, YARD))
    rect = layout.track_rect(0)
    centre = layout.rect_centre(rect)
    raised = [(0, 0), (0, 1)]
    layers = check_crowd(pieces, rect, raised)
    assert layers == [(1, 0), (2, 0), (3, 0), (0, 0), (0, 1)]
    assert layout.stacking(0, 1, pieces, raised) == (4, 5)
    top = layout.piece_point(0, 1, pieces, raised)
    assert math.dist(top, centre) < layout.piece_radius(0, 1, pieces)
    for piece in layers:
        assert layout.tap_area(*piece, pieces) == (*centre, layout.CROWD_REACH)
        assert layout.tap_area(*piece, pieces)[2] > CELL  # beyond the square
    # nothing raised: (colour, index) order, Blue's piece on top
    assert check_crowd(pieces, rect)[-1] == (3, 0)


def test_a_tap_on_a_piece_reaches_no_piece_of_another_square():
    """A piece's own tap area (``hit_radius``) never reaches a piece drawn on another
    square, whether alone, in a pair or in a stack."""
    # A stack of five on square 0, a pair on 1, lone pieces on 2 and 51, a lane pair.
    pieces = ((0, 0, 1, 1), (39, 40, 38, YARD), (26, 53, 53, YARD), (13, 12, YARD, HOME))
    spots = [(c, i, layout.piece_point(c, i, pieces), layout.piece_radius(c, i, pieces),
              layout.hit_radius(c, i, pieces), layout.square_point(c, pieces[c][i]))
             for c in range(4) for i in range(4)]
    for (c, i, point, radius, hit, home), (d, j, other, other_r, other_hit, there) in (
            itertools.combinations(spots, 2)):
        assert hit >= radius
        if home == there and pieces[c][i] not in (YARD, HOME):
            continue  # the same square
        assert math.dist(point, other) >= max(hit + other_r, other_hit + radius) - 1e-9, (
            (c, i), (d, j))


def test_yard_pieces_wait_in_their_slots_and_walk_out_to_the_start_square():
    for colour in range(4):
        slots = layout.start_slots(colour)
        x, y, w, h = layout.yard_rects()[colour]
        assert all(x < sx < x + w and y < sy < y + h for sx, sy in slots)
        out = layout.path_points(colour, YARD, 0, 2)
        assert out == [slots[2], layout.rect_centre(layout.track_rect(START_SQUARES[colour]))]
        back = layout.path_points(colour, 30, YARD, 1)
        assert back[-1] == slots[1] and len(back) == 2


def test_stars_are_marked_only_with_the_house_rule():
    assert [m.square for m in layout.safe_squares()] == list(START_SQUARES)
    stars = [m.square for m in layout.safe_squares(("stars",)) if m.kind == "star"]
    assert stars == [8, 21, 34, 47]


def test_the_quarter_turns_bring_each_colours_yard_to_the_bottom_left():
    """The board component turns the drawing clockwise by 90 degrees per quarter turn."""
    centre = layout.SIZE / 2
    for colour in range(4):
        x, y, w, h = layout.yard_rects()[colour]
        u, v = x + w / 2 - centre, y + h / 2 - centre
        for _ in range(layout.quarter_turns(colour)):
            u, v = -v, u  # clockwise on screen (y down)
        assert u < 0 < v, colour  # bottom left, where Red's yard is drawn
