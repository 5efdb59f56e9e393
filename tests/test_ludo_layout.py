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


def test_pieces_sharing_a_square_are_drawn_apart_and_within_it():
    # Two of Red's pieces, one of Green's and one of Blue's all on track square 5.
    pieces = ((5, 5, YARD, YARD), (44, YARD, YARD, YARD), (), (18, YARD, YARD, YARD))
    on_five = [(0, 0), (0, 1), (1, 0), (3, 0)]
    assert {layout.track_square(c, pieces[c][i]) for c, i in on_five} == {5}
    points = [layout.piece_point(c, i, pieces) for c, i in on_five]
    radii = [layout.piece_radius(c, i, pieces) for c, i in on_five]
    x0, y0, w, h = layout.track_rect(5)
    for x, y in points:
        assert x0 <= x <= x0 + w and y0 <= y <= y0 + h
    for (a, ra), (b, rb) in itertools.combinations(zip(points, radii, strict=True), 2):
        assert math.dist(a, b) >= ra + rb - 1e-6


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
