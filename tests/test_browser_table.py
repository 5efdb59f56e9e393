"""The table in headless Chromium at phone size (390 x 844), and once at desktop size.

Each test's server (``app.create_app``) is started by the ``screen`` fixture (see conftest.py:
Debian's Chromium, the phone viewport through device-metrics emulation, computer pace 0). The
dice seed is fixed: Ruby wins the opening roll against Sapphire (4+3 against 1+1) and then
rolls 5 and 3 with every piece in START, so Enter is the move on offer. Waiting is on
conditions only (``screen.wait_for``, WebDriverWait); the screen fixture saves a screenshot,
``<test>.failed.png`` on failure.
"""

from __future__ import annotations

import contextlib
import math

import pytest
from conftest import PHONE_VIEWPORT
from nicegui.testing import Screen
from selenium.common.exceptions import (
    ElementClickInterceptedException,
    StaleElementReferenceException,
    WebDriverException,
)
from selenium.webdriver import ActionChains, Keys
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

pytestmark = pytest.mark.browser

SEED = 26
DESKTOP_VIEWPORT = {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False}
WAIT = 8.0
RUBY = 0
START = -1


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("parcheesi.server.fairness.dice_seed", lambda secret, added: SEED)


def css(testid: str) -> str:
    return f'[data-testid="{testid}"]'


def by_testid(screen: Screen, testid: str) -> WebElement:
    return screen.find_by_css(css(testid))


def all_now(screen: Screen, selector: str) -> list[WebElement]:
    """The elements matching ``selector`` right now (no implicit wait for absent ones)."""
    with screen.implicitly_wait(0):
        return screen.selenium.find_elements(By.CSS_SELECTOR, selector)


def until(screen: Screen, condition, message: str) -> None:
    """Wait for ``condition`` (an element redrawn while it is read is looked at again)."""
    WebDriverWait(screen.selenium, WAIT, poll_frequency=0.05,
                  ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda _: condition(), message)


def enabled_button(screen: Screen, testid: str, label: str) -> bool:
    buttons = all_now(screen, css(testid))
    return (bool(buttons) and buttons[0].is_enabled()
            and buttons[0].text.strip().lower() == label.lower())


def status(screen: Screen) -> str:
    return by_testid(screen, "status").text


def press(screen: Screen, *keys: str) -> None:
    ActionChains(screen.selenium).send_keys(*keys).perform()


def active_testid(screen: Screen) -> str | None:
    return screen.selenium.switch_to.active_element.get_attribute("data-testid")


def start_solo_game(screen: Screen) -> None:
    """Ruby (the person) against Sapphire, from the form."""
    screen.open("/new")
    screen.click("2 players")
    until(screen, lambda: bool(all_now(screen, css("seat-sapphire")))
          and not all_now(screen, css("seat-emerald")), "the two seats of a game of two")
    by_testid(screen, "start-game").click()
    until(screen, lambda: enabled_button(screen, "roll", "Roll for the start"),
          "the table with Roll for the start")
    screen.wait_for(lambda: len(piece_boxes(screen)) == 1 + 8)


def wait_for_ruby_to_roll(screen: Screen) -> None:
    until(screen, lambda: enabled_button(screen, "roll", "Roll"),
          "Roll, once Sapphire has rolled for the start")


def wait_for_five_and_three(screen: Screen) -> None:
    until(screen, lambda: by_testid(screen, "dice").get_attribute("aria-label")
          == "Dice of Ruby: 5 and 3", "the dice to show 5 and 3")


def movable_ruby_pieces(screen: Screen) -> list[str]:
    return [e.get_attribute("data-testid") for e in all_now(
        screen, '[data-testid^="board-piece-ruby-"][tabindex="0"]')]


def piece_boxes(screen: Screen) -> dict[str, list[float]]:
    """data-testid -> [left, top, right, bottom] of the board and every piece on it."""
    boxes = screen.selenium.execute_script(
        "return [...document.querySelectorAll('[data-testid=board], [data-testid^=board-piece-]')]"
        ".map(e => { const r = e.getBoundingClientRect();"
        " return [e.dataset.testid, r.left, r.top, r.right, r.bottom]; })")
    return {box[0]: box[1:] for box in boxes}


def box(screen: Screen, testid: str) -> list[float]:
    return screen.selenium.execute_script(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
        "return [r.left, r.top, r.right, r.bottom];", css(testid))


def shown(screen: Screen, testid: str) -> bool:
    found = all_now(screen, css(testid))
    return bool(found) and found[0].is_displayed()


def click_once_settled(screen: Screen, testid: str) -> None:
    """Click a control as soon as nothing lies over it: a dialog still opening scales its
    content, so for a moment the point of one row can be another row's."""

    def attempt() -> bool:
        try:
            by_testid(screen, testid).click()
        except ElementClickInterceptedException:
            return False
        return True

    until(screen, attempt, f"{testid} to take a click")


def two_step_moves(screen: Screen) -> None:
    """Turn off "Move at once when a piece has one move" in the settings dialog: a tap on a
    piece then shows its options."""
    by_testid(screen, "settings").click()
    until(screen, lambda: shown(screen, "setting-one-tap"), "the settings dialog")
    assert by_testid(screen, "setting-one-tap").get_attribute("aria-checked") == "true"
    click_once_settled(screen, "setting-one-tap")
    until(screen, lambda: by_testid(screen, "setting-one-tap").get_attribute("aria-checked")
          == "false", "the switch to turn off")
    click_once_settled(screen, "settings-close")
    until(screen, lambda: not shown(screen, "settings-dialog"), "the dialog to close")


def entered(screen: Screen) -> bool:
    label = by_testid(screen, "board-piece-ruby-1").get_attribute("aria-label") or ""
    return "on the track" in label and "Ruby entered piece 1" in status(screen)


def test_phone_roll_and_move_with_the_board(screen: Screen) -> None:
    start_solo_game(screen)
    by_testid(screen, "roll").click()  # for the start
    wait_for_ruby_to_roll(screen)
    by_testid(screen, "roll").click()
    wait_for_five_and_three(screen)
    assert movable_ruby_pieces(screen) == [f"board-piece-ruby-{k}" for k in range(1, 5)]
    assert not all_now(screen, css("move-option"))

    by_testid(screen, "board-piece-ruby-1").click()  # Enter, its one move
    until(screen, lambda: entered(screen), "Ruby's piece 1 to enter")
    width = screen.selenium.execute_script("return innerWidth")
    # The 3 is left, for the piece just entered only.
    until(screen, lambda: movable_ruby_pieces(screen) == ["board-piece-ruby-1"],
          "only piece 1 to stay movable")

    # Everything fits the phone: no sideways scrolling, the whole board on screen.
    assert width == 390
    assert screen.selenium.execute_script(
        "return document.documentElement.scrollWidth") <= width
    boxes = piece_boxes(screen)
    assert len(boxes) == 1 + 8  # the board and two colours' pieces
    height = screen.selenium.execute_script("return innerHeight")
    for testid, (left, top, right, bottom) in boxes.items():
        assert 0 <= left < right <= width, testid
        assert 0 <= top < bottom <= height, testid
    for testid in ("roll", "piece-1", "piece-4", "hint", "play-best", "status"):
        left, _, right, _ = box(screen, testid)
        assert 0 <= left < right <= width, testid


CONTROLS = '[data-testid=roll], [data-testid^="piece-"], [data-testid^="portion-"], ' \
           '[data-testid=move-option], [data-testid=hint], [data-testid=play-best]'


def control_boxes(screen: Screen) -> dict[str, list[float]]:
    """data-testid (numbered when repeated) -> [left, top, right, bottom] of every control
    of the table shown now."""
    boxes = screen.selenium.execute_script(
        "return [...document.querySelectorAll(arguments[0])].filter(e => e.offsetParent)"
        ".map((e, k) => { const r = e.getBoundingClientRect();"
        " return [e.dataset.testid + '#' + k, r.left, r.top, r.right, r.bottom]; })",
        CONTROLS)
    return {box[0]: box[1:] for box in boxes}


def crowded_header(screen: Screen) -> list[str]:
    """The items of the top bar whose words do not fit their box (a squeezed link's text runs
    into its neighbour) or that overlap the next item or the bar's end."""
    return screen.selenium.execute_script(
        "const bar = document.querySelector('.app-header'); const found = [];"
        "const items = [...bar.children].filter(e => e.offsetWidth && !e.matches('.q-space'));"
        "items.forEach((e, k) => { const r = e.getBoundingClientRect();"
        " const name = e.textContent.trim() || e.getAttribute('aria-label');"
        " if (e.scrollWidth > e.clientWidth + 1) found.push(name + ': words wider than it');"
        " const next = items[k + 1];"
        " if (next && r.right > next.getBoundingClientRect().left) found.push(name + ': overlaps');"
        " if (r.right > bar.getBoundingClientRect().right) found.push(name + ': past the end'); });"
        "return found;")


@pytest.mark.parametrize("viewport", [(390, 844), (320, 640)])
def test_chips_pick_the_die_a_piece_uses_and_every_control_is_a_thumb_target(
        screen: Screen, viewport: tuple[int, int]) -> None:
    """The dice chips appear beside Roll without moving it; every control shown is at least
    44 x 44 px and within the width (and, on the larger phone, on screen without scrolling);
    a chip picks the die the next piece press uses. The top bar (the name, three links and
    the settings button) fits on one line without squeezing any of them."""
    width, height = viewport
    driver = screen.selenium
    try:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {**PHONE_VIEWPORT, "width": width, "height": height})
        start_solo_game(screen)
        by_testid(screen, "roll").click()  # for the start
        wait_for_ruby_to_roll(screen)
        roll = box(screen, "roll")
        by_testid(screen, "roll").click()
        wait_for_five_and_three(screen)
        until(screen, lambda: len(all_now(screen, '[data-testid^="portion-"]')) == 2,
              "the chips of 5 and 3")
        assert box(screen, "roll") == roll, "Roll stays where it was when the chips appear"
        boxes = control_boxes(screen)
        assert len(boxes) == 1 + 4 + 2 + 2  # Roll, the piece buttons, two chips, Hint, Play best
        for testid, (left, top, right, bottom) in boxes.items():
            assert right - left >= 44 and bottom - top >= 44, (testid, viewport)
            assert left >= 0 and right <= width, (testid, viewport)
            assert height < 844 or (top >= 0 and bottom <= height), testid
        assert driver.execute_script("return document.documentElement.scrollWidth") <= width
        assert not crowded_header(screen), viewport

        chip = by_testid(screen, "portion-5")
        assert (chip.text, chip.get_attribute("aria-label")) == ("5", "Use 5")
        chip.click()
        until(screen, lambda: by_testid(screen, "portion-5").get_attribute("aria-pressed")
              == "true", "the 5 picked")
        by_testid(screen, "piece-2").click()  # the 5 enters piece 2
        until(screen, lambda: "Ruby entered piece 2" in by_testid(screen, "log").text,
              "piece 2 to enter with the 5")
        until(screen, lambda: [e.get_attribute("data-testid") for e in all_now(
            screen, '[data-testid^="portion-"]')] == ["portion-3"], "the 3 left")
        assert by_testid(screen, "portion-3").get_attribute("aria-pressed") == "false"
    finally:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE_VIEWPORT)


def test_keyboard_only(screen: Screen) -> None:
    start_solo_game(screen)
    press(screen, " ")  # Space rolls as R does: for the start
    wait_for_ruby_to_roll(screen)
    press(screen, "r")
    wait_for_five_and_three(screen)
    assert by_testid(screen, "piece-1").get_attribute("aria-keyshortcuts") == "1"
    press(screen, "1")  # Enter is the piece's one move: the key takes it
    until(screen, lambda: entered(screen), "Ruby's piece 1 to enter")
    assert not all_now(screen, css("move-option"))

    # The setting that shows a piece's options first, reached and turned off with keys.
    tab_to(screen, "settings")
    press(screen, Keys.ENTER)
    until(screen, lambda: shown(screen, "setting-one-tap"), "the settings dialog")
    tab_to(screen, "setting-one-tap")
    press(screen, " ")
    until(screen, lambda: by_testid(screen, "setting-one-tap").get_attribute("aria-checked")
          == "false", "the switch to turn off")
    press(screen, Keys.ESCAPE)
    until(screen, lambda: not shown(screen, "settings-dialog"), "the dialog to close")

    press(screen, "1")  # the 3, piece 1's one move, is now an option to choose
    until(screen, lambda: [e.text for e in all_now(screen, css("move-option"))] == ["Move 3"],
          "the options of piece 1")
    tab_to(screen, "move-option")
    press(screen, Keys.ENTER)
    until(screen, lambda: "Ruby moved piece 1 by 3" in by_testid(screen, "log").text,
          "Ruby's piece 1 to move 3")


def tab_to(screen: Screen, testid: str) -> None:
    """Press Tab until the control with ``testid`` has the focus."""
    for _ in range(60):
        if active_testid(screen) == testid:
            return
        press(screen, Keys.TAB)
    raise AssertionError(f"Tab never reached {testid}")


def test_desktop_puts_board_and_controls_side_by_side(screen: Screen) -> None:
    start_solo_game(screen)
    by_testid(screen, "roll").click()  # for the start: the status line has something to say
    wait_for_ruby_to_roll(screen)
    driver = screen.selenium
    try:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", DESKTOP_VIEWPORT)
        until(screen, lambda: driver.execute_script("return innerWidth") == 1280,
              "the desktop viewport")
        width, height = driver.execute_script("return [innerWidth, innerHeight]")
        assert driver.execute_script("return document.documentElement.scrollWidth") <= width
        board = box(screen, "board")
        until(screen, lambda: box(screen, "roll")[0] >= box(screen, "board")[2],
              "the controls to stand right of the board")
        assert board[2] - board[0] >= 500  # a large board, not a phone-sized one
        for testid in ("board", "turn", "roll", "piece-1", "piece-4", "hint", "play-best",
                       "status", "settings"):
            left, top, right, bottom = box(screen, testid)
            assert 0 <= left < right <= width and 0 <= top < bottom <= height, testid
        for testid in ("roll", "piece-1", "hint", "status"):
            left, top, _, _ = box(screen, testid)
            assert left >= board[2] and top < board[3], testid  # beside the board, not below
        for testid, (left, top, right, bottom) in piece_boxes(screen).items():
            assert 0 <= left < right <= width and 0 <= top < bottom <= height, testid
    finally:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE_VIEWPORT)
    assert driver.execute_script("return innerWidth") == 390


def test_a_double_tap_is_absorbed_by_the_page_and_counted_once(screen: Screen) -> None:
    """Two taps before the server answers: the page holds the table after the first (the
    pressed button is busy) and lets go when the answer's new stamp arrives."""
    start_solo_game(screen)
    roll = by_testid(screen, "roll")
    stamp = roll.get_attribute("data-stamp")
    held = screen.selenium.execute_script(
        "const b = arguments[0]; b.click(); const busy = b.getAttribute('aria-busy');"
        " const pending = document.body.hasAttribute('data-pending'); b.click();"
        " return [busy, pending];", roll)
    assert held == ["true", True]
    until(screen, lambda: by_testid(screen, "roll").get_attribute("data-stamp") != stamp,
          "the answer's new stamp")
    until(screen, lambda: not screen.selenium.execute_script(
        "return document.body.hasAttribute('data-pending')"), "the page to let go")
    assert by_testid(screen, "roll").get_attribute("aria-busy") is None
    ruby = [line for line in by_testid(screen, "log").text.splitlines()
            if line.startswith("Ruby rolled")]
    assert len(ruby) == 1, ruby
    wait_for_ruby_to_roll(screen)  # and the table goes on as usual


def test_the_move_log_is_the_same_after_a_reload(screen: Screen) -> None:
    """The log comes from the game's record, not from the tab: a reload shows the same lines
    (and so would a restart, which rebuilds the record the same way)."""
    start_solo_game(screen)
    by_testid(screen, "roll").click()  # for the start
    wait_for_ruby_to_roll(screen)
    by_testid(screen, "roll").click()
    wait_for_five_and_three(screen)
    by_testid(screen, "board-piece-ruby-1").click()  # Enter, its one move
    until(screen, lambda: entered(screen), "Ruby's piece 1 to enter")
    before = by_testid(screen, "log").text.splitlines()
    assert before[0] == "Ruby entered piece 1" and "Ruby rolled 5 and 3" in before, before
    screen.selenium.refresh()
    until(screen, lambda: bool(all_now(screen, css("log")))
          and by_testid(screen, "log").text.splitlines() == before,
          "the same log after the reload")


def test_badges_mark_the_seat_to_play_and_a_landing_marker_takes_its_move(
        screen: Screen) -> None:
    start_solo_game(screen)
    assert [b.get_attribute("data-testid") for b in all_now(screen, '[data-testid^="player-"]')
            ] == ["player-ruby", "player-sapphire"]
    assert by_testid(screen, "player-ruby").get_attribute("aria-current") == "true"
    assert "you" in by_testid(screen, "player-ruby").text
    assert "medium computer" in by_testid(screen, "player-sapphire").text
    by_testid(screen, "roll").click()  # for the start
    wait_for_ruby_to_roll(screen)
    by_testid(screen, "roll").click()
    wait_for_five_and_three(screen)
    assert by_testid(screen, "dice-owner").text == "Ruby's roll"
    two_step_moves(screen)  # the piece's marker and option first
    by_testid(screen, "board-piece-ruby-1").click()
    until(screen, lambda: len(all_now(screen, css("board-target"))) == 1, "Enter's marker")
    assert [e.text for e in all_now(screen, css("move-option"))] == ["Enter"]
    width = screen.selenium.execute_script("return innerWidth")
    left, _, right, _ = box(screen, "move-option")
    assert 0 <= left < right <= width, "the option fits the phone"
    marker = by_testid(screen, "board-target")
    assert marker.get_attribute("aria-label") == "Enter"
    left, top, right, bottom = screen.selenium.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return [r.left, r.top, r.right, r.bottom];", marker)
    assert right - left >= 44 and bottom - top >= 44, "a thumb-sized landing marker"
    marker.click()
    until(screen, lambda: entered(screen), "the piece entered from its marker")
    entries = all_now(screen, f'{css("log")} > *')
    assert entries[0].text == "Ruby entered piece 1"  # one element per entry, newest first


def something_to_press(screen: Screen) -> bool:
    """The game is over, or Roll or Play best is enabled (an element redrawn while it is
    read counts as not yet)."""
    try:
        return bool(all_now(screen, css("winner"))) or any(
            b.is_enabled() for n in ("roll", "play-best") for b in all_now(screen, css(n)))
    except WebDriverException:
        return False


def test_the_finish_is_in_view_with_play_again(screen: Screen) -> None:
    """A whole game against the computer, played with Roll and Play best: the winner card
    covers the board within the phone's viewport, and Play again starts the same seats."""
    start_solo_game(screen)
    for _ in range(600):
        if all_now(screen, css("winner")):
            break
        with contextlib.suppress(WebDriverException):  # a button redrawn while pressed
            for name in ("roll", "play-best"):
                buttons = all_now(screen, css(name))
                if buttons and buttons[0].is_enabled():
                    buttons[0].click()
                    break
        until(screen, lambda: something_to_press(screen), "a button to press, or the end")
    until(screen, lambda: bool(all_now(screen, css("winner"))), "the winner card")
    left, top, right, bottom = box(screen, "winner")
    width, height = screen.selenium.execute_script("return [innerWidth, innerHeight]")
    assert left >= 0 and right <= width and top >= 0 and bottom <= height, "in view"
    assert "wins!" in by_testid(screen, "winner").text
    by_testid(screen, "play-again").click()
    until(screen, lambda: enabled_button(screen, "roll", "Roll for the start"),
          "the same seats' next game")
    assert not all_now(screen, css("winner"))
    assert [b.get_attribute("data-testid") for b in all_now(screen, '[data-testid^="player-"]')
            ] == ["player-ruby", "player-sapphire"]


def test_a_tap_beside_a_movable_piece_reaches_it(screen: Screen) -> None:
    """A thumb lands near a piece, not on it: the nearest movable piece within reach takes
    the tap (44 px across on the phone)."""
    start_solo_game(screen)
    by_testid(screen, "roll").click()  # for the start
    wait_for_ruby_to_roll(screen)
    by_testid(screen, "roll").click()
    wait_for_five_and_three(screen)
    piece = by_testid(screen, "board-piece-ruby-1")
    left, _, right, _ = box(screen, "board-piece-ruby-1")
    assert right - left < 44, "the piece itself is smaller than a thumb"
    ActionChains(screen.selenium).move_to_element_with_offset(piece, 0, -20).click().perform()
    until(screen, lambda: entered(screen), "the piece entered by the tap beside it")


OPTIONS_WATCH = """
window.optionsSeen = 0;
new MutationObserver(() => {
  window.optionsSeen += document.querySelectorAll('[data-testid=move-option]').length;
}).observe(document.body, {childList: true, subtree: true});
"""
"""Counts movement option buttons in the page after every change of it."""


def test_a_tap_on_a_piece_with_one_move_makes_the_move(screen: Screen) -> None:
    """With 5 and 3 and every piece in START, each piece can only enter, and then only
    piece 1 can use the 3: one tap on the board, then one on its button, makes both moves
    without ever showing an option."""
    start_solo_game(screen)
    by_testid(screen, "roll").click()  # for the start
    wait_for_ruby_to_roll(screen)
    by_testid(screen, "roll").click()
    wait_for_five_and_three(screen)
    screen.selenium.execute_script(OPTIONS_WATCH)
    by_testid(screen, "board-piece-ruby-1").click()
    until(screen, lambda: entered(screen), "Ruby's piece 1 to enter at once")
    until(screen, lambda: by_testid(screen, "piece-1").is_enabled()
          and not by_testid(screen, "piece-2").is_enabled(), "only piece 1 to use the 3")
    by_testid(screen, "piece-1").click()
    until(screen, lambda: "Ruby moved piece 1 by 3" in by_testid(screen, "log").text,
          "the 3 to be played at once")
    assert screen.selenium.execute_script("return window.optionsSeen") == 0


PAIR_SEED = 21
"""Ruby wins the opening roll (6+1 against 3+1), rolls 5 and 5 and enters pieces 1 and 2 (a
blockade on square 5), then rolls 3 and 4: both pieces of the pair may move."""

TO_SCREEN = """
const layer = document.querySelector('[data-testid=board] > g');
const p = new DOMPoint(arguments[0], arguments[1]).matrixTransform(layer.getScreenCTM());
return [p.x, p.y];
"""
SELECTED = """
return [...document.querySelectorAll('[data-testid^=board-piece-]')]
  .filter(g => g.querySelector('circle.selected-ring')).map(g => g.dataset.testid);
"""


def tap_screen_point(screen: Screen, x: float, y: float) -> None:
    """A tap at a point of the page (CSS px), through the board element under it."""
    board = by_testid(screen, "board")
    left, top, right, bottom = box(screen, "board")
    ActionChains(screen.selenium).move_to_element_with_offset(
        board, round(x - (left + right) / 2), round(y - (top + bottom) / 2)).click().perform()


def test_each_piece_of_a_pair_takes_a_thumb_sized_tap_of_its_own(
        screen: Screen, monkeypatch: pytest.MonkeyPatch) -> None:
    """A blockade: the two pieces sit side by side in the square, and taps anywhere in a
    44 x 44 px span on either side of it select that side's piece."""
    from parcheesi.games.parcheesi.layout import CELL, PAIR_REACH, piece_point, square_point

    monkeypatch.setattr("parcheesi.server.fairness.dice_seed", lambda secret, added: PAIR_SEED)
    start_solo_game(screen)
    by_testid(screen, "roll").click()  # for the start
    wait_for_ruby_to_roll(screen)
    by_testid(screen, "roll").click()
    until(screen, lambda: by_testid(screen, "dice").get_attribute("aria-label")
          == "Dice of Ruby: 5 and 5", "the dice to show 5 and 5")
    for piece in (1, 2):  # each piece's one move: enter
        by_testid(screen, f"board-piece-ruby-{piece}").click()
        until(screen, lambda p=piece: "on the track" in (by_testid(
            screen, f"board-piece-ruby-{p}").get_attribute("aria-label") or ""),
            f"piece {piece} to enter")
    wait_for_ruby_to_roll(screen)  # doubles: Ruby rolls again
    by_testid(screen, "roll").click()
    until(screen, lambda: movable_ruby_pieces(screen) == ["board-piece-ruby-1",
                                                          "board-piece-ruby-2"],
          "both pieces of the pair to be movable")
    two_step_moves(screen)  # a tap selects: which piece it reached shows

    pieces = ((0, 0, START, START), (), (START,) * 4, ())
    centre = square_point(RUBY, 0)
    first, second = piece_point(RUBY, 0, pieces), piece_point(RUBY, 1, pieces)
    assert first[0] < centre[0] < second[0] and first[1] < centre[1] < second[1]
    reach = PAIR_REACH - CELL / 10
    probes = {  # angles (degrees, y down) on each piece's side of the diagonal
        "board-piece-ruby-1": (137, 180, 270, 313),
        "board-piece-ruby-2": (317, 0, 90, 133),
    }
    seen: dict[str, list[list[float]]] = {testid: [] for testid in probes}
    for k in range(4):
        for testid, angles in probes.items():
            a = math.radians(angles[k])
            x, y = screen.selenium.execute_script(
                TO_SCREEN, centre[0] + reach * math.cos(a), centre[1] + reach * math.sin(a))
            seen[testid].append([x, y])
            tap_screen_point(screen, x, y)
            until(screen, lambda t=testid: screen.selenium.execute_script(SELECTED) == [t],
                  f"a tap at {angles[k]} degrees to select {testid}")
    for testid, points in seen.items():
        xs, ys = [x for x, _ in points], [y for _, y in points]
        assert max(xs) - min(xs) >= 44 and max(ys) - min(ys) >= 44, (testid, points)
