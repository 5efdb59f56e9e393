"""The board component: its props after show() (simulated user) and its hooks in Chromium.

These tests define their own pages, so they run without the app (``own_pages``). Fixtures
come from ``nicegui.testing.plugin`` (see conftest.py); the ``screen`` fixture saves a
screenshot of every browser test under ``screenshots/<pid>/``, named ``<test>.failed.png`` when
the test failed, and fails a test on a browser console error.
"""

from __future__ import annotations

import json

import pytest
from nicegui import ui
from nicegui.testing import Screen, User
from selenium.webdriver import ActionChains, Keys
from selenium.webdriver.common.by import By

from components.board_view import Board
from components.pages import STYLE
from parcheesi.games.ludo import layout as ludo_layout
from parcheesi.games.ludo.board import YARD
from parcheesi.games.ludo.game import GAME as LUDO
from parcheesi.games.parcheesi.board import HOME, START
from parcheesi.games.parcheesi.game import GAME as PARCHEESI
from parcheesi.games.parcheesi.layout import CELL, piece_point, square_point, start_slots, tap_area

pytestmark = pytest.mark.own_pages

Pieces = tuple[tuple[int, ...], ...]
RUBY, EMERALD, SAPPHIRE, AMBER = 0, 1, 2, 3
PIECES: Pieces = (
    (START, START, 10, 10),  # two waiting, a blockade on square 15
    (0, 30, 66, HOME),  # on its entry square, on the track, in its lane, HOME
    (START, 62, 68, 68),  # a pair in the lane
    (5, 20, 63, 70),  # on its own turn-off square and the last lane square
)
TWO_PLAYERS: Pieces = ((START, 3, 40, 66), (), (START, START, 12, HOME), ())
RED, GREEN, YELLOW, BLUE = 0, 1, 2, 3
LUDO_STACK: Pieces = ((0, 0, 2, YARD), (39, YARD, YARD, YARD), (26, YARD, YARD, YARD),
                      (13, YARD, YARD, YARD))
"""Five on Red's start square 0 (Red 1 and 2, Green 1, Yellow 1, Blue 1), Red 3 alone on 2."""
PIECE_SELECTOR = '[data-testid^="board-piece-"]'


def pieces_by_key(board: Board) -> dict[tuple[int, int], list]:
    return {(p[0], p[1]): p for p in board.view["pieces"]}


def only_board(user: User) -> Board:
    (board,) = user.find(Board).elements
    return board


# --- simulated user: the props -------------------------------------------------------------


async def test_show_sends_pieces_with_flags_positions_and_labels(user: User) -> None:
    @ui.page("/")
    def page() -> None:
        Board(PARCHEESI).show(
            PIECES,
            movable={(RUBY, 0), (RUBY, 2)},
            selected=(RUBY, 2),
            labels={(AMBER, 0): "Grandma's piece"},
        )

    await user.open("/")
    board = only_board(user)
    state = board.view
    assert state["active"] == [1, 1, 1, 1]
    assert state["rotation"] == 0
    pieces = pieces_by_key(board)
    assert len(pieces) == 16
    flags = {key: p[6] for key, p in pieces.items() if p[6]}
    assert flags == {(RUBY, 0): 1, (RUBY, 2): 3}
    for (c, i), (_, _, x, y, r, tap, _, _, *disc, count) in pieces.items():
        px, py = piece_point(c, i, PIECES)
        assert (x, y) == (pytest.approx(px, abs=0.05), pytest.approx(py, abs=0.05))
        assert 0 < r <= tap
        assert disc == pytest.approx(tap_area(c, i, PIECES), abs=0.05)
        assert count == 0  # no square holds more than two
    # Ruby's blockade on square 15 shares one tap disc round the square's centre.
    assert pieces[(RUBY, 2)][8:] == pieces[(RUBY, 3)][8:]
    assert pieces[(RUBY, 2)][8:10] == pytest.approx(square_point(RUBY, 10), abs=0.05)
    labels = {key: p[7] for key, p in pieces.items()}
    assert labels[(RUBY, 0)] == "Ruby piece 1, in START"
    assert labels[(RUBY, 2)] == "Ruby piece 3, on the track, 61 squares from home"
    assert labels[(SAPPHIRE, 2)] == "Sapphire piece 3, in the home lane, 3 squares from home"
    assert labels[(EMERALD, 3)] == "Emerald piece 4, HOME"
    assert labels[(AMBER, 0)] == "Grandma's piece"
    assert state["moves"] == []


async def test_a_stack_is_drawn_with_its_movable_piece_on_top_and_a_count(user: User) -> None:
    """Five on one Ludo square: the pieces come in drawing order, Red's movable pieces last
    (the top one carries the count, 5), the others flagged as under the top (4); the badge's
    place is sent once, with the geometry. With nothing movable, (colour, index) order."""
    @ui.page("/")
    def page() -> None:
        Board(LUDO).show(LUDO_STACK, movable={(RED, 0), (RED, 1), (RED, 2)}, selected=(RED, 0))
        Board(LUDO).show(LUDO_STACK)

    await user.open("/")
    moving, waiting = sorted(user.find(Board).elements, key=lambda b: b.id)
    assert moving._geometry["badge"] == [round(v, 1) for v in ludo_layout.COUNT_BADGE]
    for board, top, flags in ((moving, (RED, 1), 1), (waiting, (BLUE, 0), 0)):
        drawn = board.view["pieces"]
        assert len(drawn) == 16 and all(len(p) == 12 for p in drawn)
        on_start = [(p[0], p[1]) for p in drawn if p[8:10] == pytest.approx(
            square_point_ludo(RED, 0), abs=0.05)]
        assert len(on_start) == 5 and on_start[-1] == top
        pieces = pieces_by_key(board)
        assert {key: p[11] for key, p in pieces.items() if p[11]} == {top: 5}
        assert pieces[top][6] == flags
        under = {key for key, p in pieces.items() if p[6] & 4}
        assert under == set(on_start[:-1])
        for key in on_start:
            x, y = ludo_layout.piece_point(*key, LUDO_STACK, board._movable)
            assert pieces[key][2:4] == [pytest.approx(x, abs=0.05), pytest.approx(y, abs=0.05)]
    pieces = pieces_by_key(moving)
    assert pieces[(RED, 0)][6] == 4 | 1 | 2  # selected, under the other movable Red piece
    assert pieces[(RED, 2)][6] == 1 and pieces[(RED, 2)][11] == 0  # alone on square 2


def square_point_ludo(colour: int, progress: int) -> tuple[float, float]:
    return ludo_layout.square_point(colour, progress)


async def test_inactive_colours_targets_and_rotation(user: User) -> None:
    @ui.page("/")
    def page() -> None:
        Board(PARCHEESI).show(TWO_PLAYERS, targets=[(RUBY, 45), (SAPPHIRE, HOME), (RUBY, 68)],
                              rotation=3)

    await user.open("/")
    board = only_board(user)
    state = board.view
    assert state["active"] == [1, 0, 1, 0]
    assert {p[0] for p in state["pieces"]} == {RUBY, SAPPHIRE}
    assert state["rotation"] == 3
    ruby_45, sapphire_home, ruby_lane = state["targets"]
    assert ruby_45[:2] == pytest.approx(square_point(RUBY, 45), abs=0.05)
    assert ruby_45[3] == RUBY and ruby_lane[3] == RUBY and sapphire_home[3] == SAPPHIRE
    assert ruby_lane[:2] == pytest.approx(square_point(RUBY, 68), abs=0.05)
    assert 400 < sapphire_home[0] < 600 and 400 < sapphire_home[1] < 500  # Sapphire's triangle


async def test_moves_become_square_by_square_paths(user: User) -> None:
    before: Pieces = ((START, 3, 40, 66), (), (START, START, 34, HOME), ())
    after: Pieces = ((0, 3, 40, 66), (), (START, START, START, HOME), ())

    @ui.page("/")
    def page() -> None:
        board = Board(PARCHEESI)
        board.show(before)
        # Ruby enters onto square 5, where Sapphire's piece 3 (progress 34) is captured.
        board.show(after, moves=[(RUBY, 0, START, 0), (SAPPHIRE, 2, 34, START)])

    await user.open("/")
    state = only_board(user).view
    assert state["seq"] == 2
    (c1, i1, enter, ms1), (c2, i2, capture, ms2) = state["moves"]
    assert (c1, i1, c2, i2) == (RUBY, 0, SAPPHIRE, 2)
    assert enter[:2] == pytest.approx(start_slots(RUBY)[0], abs=0.05)
    assert enter[2:] == pytest.approx(square_point(RUBY, 0), abs=0.05)
    assert capture[-2:] == pytest.approx(start_slots(SAPPHIRE)[2], abs=0.05)
    assert 60 <= ms1 <= 90 and ms2 > ms1  # a capture slide is one long step
    # The capture flashes where Sapphire's piece was taken, once Ruby's entry has landed.
    ((x, y, delay),) = state["flashes"]
    assert (x, y) == pytest.approx(piece_point(SAPPHIRE, 2, before), abs=0.05)
    assert (x, y) == pytest.approx(capture[:2], abs=0.05)
    assert delay == ms1  # the entry is one step


async def test_only_a_capture_flashes_and_not_with_reduced_motion(user: User) -> None:
    before: Pieces = ((START, 3, 40, 66), (), (START, START, 34, HOME), ())
    after: Pieces = ((0, 3, 40, 66), (), (START, START, START, HOME), ())
    moved: Pieces = ((0, 5, 40, 66), (), (START, START, START, HOME), ())

    @ui.page("/")
    def page() -> None:
        loud, quiet = Board(PARCHEESI), Board(PARCHEESI)
        for board in (loud, quiet):
            board.show(before)
            board.show(after, moves=[(RUBY, 0, START, 0), (SAPPHIRE, 2, 34, START)],
                       reduced_motion=board is quiet)
        plain = Board(PARCHEESI)
        plain.show(after)
        plain.show(moved, moves=[(RUBY, 1, 3, 5)])

    await user.open("/")
    loud, quiet, plain = sorted(user.find(Board).elements, key=lambda b: b.id)
    assert len(loud.view["flashes"]) == 1
    assert quiet.view["flashes"] == [] and quiet.view["moves"] == []
    assert plain.view["flashes"] == [] and len(plain.view["moves"]) == 1


async def test_long_moves_are_capped_and_reduced_motion_sends_none(user: User) -> None:
    start: Pieces = ((0, 1, 2, 3), (), (), ())
    end: Pieces = ((20, 21, 22, 23), (), (), ())
    moves = [(RUBY, k, k, 20 + k) for k in range(4)]

    @ui.page("/")
    def page() -> None:
        board = Board(PARCHEESI)
        board.show(start)
        board.show(end, moves=moves)
        ui.label(str(sum((len(m[2]) // 2 - 1) * m[3] for m in board.view["moves"])))
        quiet = Board(PARCHEESI)
        quiet.show(start)
        quiet.show(end, moves=moves, reduced_motion=True)

    await user.open("/")
    total = int(next(iter(user.find(ui.label).elements)).text)
    assert 900 <= total <= 1000  # 80 squares would take 6 s at full pace
    loud, quiet = sorted(user.find(Board).elements, key=lambda b: b.id)
    assert len(loud.view["moves"]) == 4
    assert quiet.view["moves"] == []
    assert quiet.view["reduced"] is True


async def test_pair_end_point_is_where_the_piece_is_drawn(user: User) -> None:
    before: Pieces = ((START, START, 10, 5), (), (), ())
    after: Pieces = ((START, START, 10, 10), (), (), ())

    @ui.page("/")
    def page() -> None:
        board = Board(PARCHEESI)
        board.show(before)
        board.show(after, moves=[(RUBY, 3, 5, 10)])

    await user.open("/")
    (_, _, path, _) = only_board(user).view["moves"][0]
    assert len(path) == 2 * 6
    assert path[-2:] == pytest.approx(piece_point(RUBY, 3, after), abs=0.05)
    assert path[-2:] != pytest.approx(square_point(RUBY, 10), abs=CELL / 10)


async def test_geometry_is_sent_with_the_first_render_only(user: User) -> None:
    @ui.page("/")
    def page() -> None:
        ui.label("page")

    await user.open("/")
    with user:
        board = Board(PARCHEESI)
    first = board._to_dict()  # what the page or the first update message carries
    assert len(first["props"]["geometry"]["track"]) == 68
    assert "preserved_props" not in first
    board.show(PIECES, movable={(RUBY, 0)})
    update = board._to_dict()  # what every later update carries
    assert "geometry" not in update["props"]
    assert update["preserved_props"] == ["geometry"]
    assert len(json.loads(update["props"]["state"])["pieces"]) == 16


async def test_only_movable_pieces_reach_the_callback(user: User) -> None:
    clicks: list[tuple[int, int, object]] = []

    @ui.page("/")
    def page() -> None:
        board = Board(PARCHEESI, on_piece_click=lambda c, i, stamp: clicks.append((c, i, stamp)))
        board.show(PIECES, movable={(EMERALD, 1)}, stamp="4.2")

    await user.open("/")
    interaction = user.find(Board)
    interaction.trigger("piece_click", {"colour": RUBY, "piece": 0, "stamp": "4.2"})
    interaction.trigger("piece_click", {"colour": EMERALD, "piece": 1, "stamp": "4.2"})
    interaction.trigger("piece_click", ["not", "an", "object"])
    for wrong in ([0], {"a": 1}, "1", None, 1.5, True):  # nothing a handler could look up
        interaction.trigger("piece_click", {"colour": wrong, "piece": wrong, "stamp": "4.2"})
        interaction.trigger("piece_click", {"colour": EMERALD, "piece": wrong})
        interaction.trigger("piece_stuck", {"colour": wrong, "piece": wrong})
        interaction.trigger("target_click", {"index": wrong})
    assert clicks == [(EMERALD, 1, "4.2")]


# --- Chromium: the hooks as a person meets them ----------------------------------------------


def board_page(movable: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """A phone page: a button, the board, a button; returns the list the callback fills."""
    clicks: list[tuple[int, int]] = []

    @ui.page("/")
    def page() -> None:
        ui.button("Before").props("data-testid=before")
        Board(PARCHEESI, on_piece_click=lambda c, i, _: clicks.append((c, i))).show(
            PIECES, movable=movable)
        ui.button("After").props("data-testid=after")

    return clicks


def active_testid(screen: Screen) -> str | None:
    return screen.selenium.switch_to.active_element.get_attribute("data-testid")


@pytest.mark.browser
def test_board_and_all_pieces_fit_a_phone(screen: Screen) -> None:
    board_page(movable=set())
    screen.open("/")
    screen.wait_for(
        lambda: len(screen.selenium.find_elements(By.CSS_SELECTOR, PIECE_SELECTOR)) == 16
    )
    width, height, scroll_width = screen.selenium.execute_script(
        "return [innerWidth, innerHeight, document.documentElement.scrollWidth]"
    )
    assert width == 390
    assert scroll_width <= width
    boxes = screen.selenium.execute_script(
        "return [...document.querySelectorAll('[data-testid=board], [data-testid^=board-piece-]')]"
        ".map(e => { const r = e.getBoundingClientRect();"
        " return [e.dataset.testid, r.left, r.top, r.right, r.bottom]; })"
    )
    assert len(boxes) == 17
    for testid, left, top, right, bottom in boxes:
        assert 0 <= left < right <= width and 0 <= top < bottom <= height, testid
    board = screen.find_by_css('[data-testid="board"]')
    assert board.get_attribute("aria-label")
    assert board.size["width"] >= 340  # it fills the phone's width, less the page margin
    pieces = {box[0]: box for box in boxes}
    ruby_1 = pieces["board-piece-ruby-1"]
    assert ruby_1[3] - ruby_1[1] >= 16  # a START piece is a usable tap target


@pytest.mark.browser
def test_a_capture_flashes_a_ring_on_the_board(screen: Screen) -> None:
    before: Pieces = ((START, 3, 40, 66), (), (START, START, 34, HOME), ())
    after: Pieces = ((0, 3, 40, 66), (), (START, START, START, HOME), ())

    @ui.page("/")
    def page() -> None:
        ui.add_css(STYLE)  # the pages' stylesheet, which animates the flash
        board = Board(PARCHEESI)
        board.show(before)
        ui.button("Capture", on_click=lambda: board.show(
            after, moves=[(RUBY, 0, START, 0), (SAPPHIRE, 2, 34, START)])).props(
            "data-testid=capture")

    screen.open("/")
    assert not screen.selenium.find_elements(By.CSS_SELECTOR, "circle.capture-flash")
    screen.find_by_css('[data-testid="capture"]').click()
    screen.wait_for(lambda: bool(screen.selenium.find_elements(
        By.CSS_SELECTOR, "circle.capture-flash")))
    flash = screen.selenium.find_element(By.CSS_SELECTOR, "circle.capture-flash")
    assert flash.value_of_css_property("animation-name") == "capture-flash"
    assert flash.value_of_css_property("animation-delay") == "0.075s"  # after the entry


@pytest.mark.browser
def test_a_tap_on_a_stack_takes_its_movable_top_piece(screen: Screen) -> None:
    """Five on one square, Red to move one of them: a tap on the stack's middle, or on its
    count, takes Red's piece, drawn on top; the count is shown, hidden from screen readers."""
    clicks: list[tuple[int, int]] = []

    @ui.page("/")
    def page() -> None:
        Board(LUDO, on_piece_click=lambda c, i, _: clicks.append((c, i))).show(
            LUDO_STACK, movable={(RED, 1)})

    screen.open("/")
    badge = screen.find_by_css('[data-testid="board-piece-red-2"] .stack-count')
    assert badge.get_attribute("aria-hidden") == "true"
    assert badge.text == "5"
    assert len(screen.selenium.find_elements(By.CSS_SELECTOR, ".stack-count")) == 1
    board = screen.find_by_css('[data-testid="board"]')
    scale = board.size["width"] / ludo_layout.SIZE
    half = ludo_layout.SIZE / 2
    top_x, top_y = ludo_layout.piece_point(RED, 1, LUDO_STACK, {(RED, 1)})
    dx, dy, _ = ludo_layout.COUNT_BADGE
    for x, y in (square_point_ludo(RED, 0), (top_x + dx, top_y + dy)):
        ActionChains(screen.selenium).move_to_element_with_offset(
            board, round((x - half) * scale), round((y - half) * scale)).click().perform()
    screen.wait_for(lambda: clicks == [(RED, 1), (RED, 1)])


@pytest.mark.browser
def test_clicking_a_movable_piece_calls_back(screen: Screen) -> None:
    clicks = board_page(movable={(EMERALD, 1), (RUBY, 1)})
    screen.open("/")
    screen.find_by_css('[data-testid="board-piece-ruby-3"]').click()  # cannot move
    screen.find_by_css('[data-testid="board-piece-emerald-2"]').click()
    screen.wait_for(lambda: clicks == [(EMERALD, 1)])
    screen.find_by_css('[data-testid="board-piece-ruby-2"]').click()
    screen.wait_for(lambda: clicks == [(EMERALD, 1), (RUBY, 1)])


@pytest.mark.browser
def test_tab_reaches_only_movable_pieces_and_enter_activates(screen: Screen) -> None:
    clicks = board_page(movable={(RUBY, 0), (RUBY, 2)})
    screen.open("/")
    ruby_3 = screen.find_by_css('[data-testid="board-piece-ruby-3"]')
    ruby_4 = screen.find_by_css('[data-testid="board-piece-ruby-4"]')
    assert ruby_3.get_attribute("tabindex") == "0"
    assert ruby_4.get_attribute("tabindex") is None
    assert ruby_4.get_attribute("aria-disabled") == "true"
    assert ruby_4.get_attribute("role") == "button"

    screen.find_by_css('[data-testid="before"]').click()
    order = []
    for _ in range(3):
        ActionChains(screen.selenium).send_keys(Keys.TAB).perform()
        order.append(active_testid(screen))
    assert order == ["board-piece-ruby-1", "board-piece-ruby-3", "after"]

    ActionChains(screen.selenium).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(
        Keys.SHIFT
    ).perform()
    assert active_testid(screen) == "board-piece-ruby-3"
    screen.wait_for(lambda: bool(ruby_3.find_elements(By.CSS_SELECTOR, "circle.focus-ring")))
    ActionChains(screen.selenium).send_keys(Keys.ENTER).perform()
    screen.wait_for(lambda: clicks == [(RUBY, 2)])
    ActionChains(screen.selenium).send_keys(Keys.SPACE).perform()
    screen.wait_for(lambda: clicks == [(RUBY, 2), (RUBY, 2)])
