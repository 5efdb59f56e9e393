"""What a phone shows at once, in headless Chromium: the table at 390 x 844 keeps the whole
board, what just happened (the status line), the dice and Roll in view with no scrolling,
after a roll and after Hint; at 1280 x 800 the whole board is in view; the setup form has no
sideways scrolling at 320 x 640, in every mode and game.

The seed and the game are ``test_browser_table.py``'s: Ruby (the person) against Sapphire;
Ruby rolls 5 and 3 with every piece in START.
"""

from __future__ import annotations

import pytest
from conftest import PHONE_VIEWPORT
from nicegui.testing import Screen
from test_browser_table import (
    DESKTOP_VIEWPORT,
    SEED,
    all_now,
    box,
    by_testid,
    css,
    start_solo_game,
    until,
    wait_for_five_and_three,
    wait_for_ruby_to_roll,
)

pytestmark = pytest.mark.browser

IN_VIEW_ON_A_PHONE = ("board", "status", "dice", "roll", "piece-1", "hint")
"""What a phone in portrait shows at once at the table."""


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("parcheesi.server.fairness.dice_seed", lambda secret, added: SEED)


def out_of_view(screen: Screen, testids: tuple[str, ...]) -> list[str]:
    """The controls not wholly in the viewport as it is (the page not scrolled)."""
    width, height, scrolled = screen.selenium.execute_script(
        "return [innerWidth, innerHeight, scrollY]")
    assert scrolled == 0, "the page scrolled"
    found = []
    for testid in testids:
        left, top, right, bottom = box(screen, testid)
        if left < 0 or top < 0 or right > width or bottom > height:
            found.append(f"{testid} {[round(v) for v in (left, top, right, bottom)]}")
    return found


def press_in_place(screen: Screen, testid: str) -> None:
    """Press a control as a finger does, without the driver scrolling it into view first."""
    screen.selenium.execute_script("document.querySelector(arguments[0]).click()", css(testid))


def test_a_phone_shows_the_board_what_happened_the_dice_and_roll_at_once(
        screen: Screen) -> None:
    start_solo_game(screen)
    assert not out_of_view(screen, IN_VIEW_ON_A_PHONE)
    press_in_place(screen, "roll")  # for the start
    wait_for_ruby_to_roll(screen)
    press_in_place(screen, "roll")
    wait_for_five_and_three(screen)
    until(screen, lambda: "Ruby rolled 5 and 3" in by_testid(screen, "status").text,
          "the roll in the status line")
    assert not out_of_view(screen, IN_VIEW_ON_A_PHONE)
    press_in_place(screen, "hint")
    until(screen, lambda: by_testid(screen, "status").text.startswith("Hint: "), "the hint")
    assert not out_of_view(screen, IN_VIEW_ON_A_PHONE)


def test_a_desktop_shows_the_whole_board(screen: Screen) -> None:
    driver = screen.selenium
    try:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", DESKTOP_VIEWPORT)
        start_solo_game(screen)
        assert not out_of_view(screen, ("board", "status", "dice", "roll"))
    finally:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE_VIEWPORT)


def sideways(screen: Screen) -> int:
    return screen.selenium.execute_script(
        "return document.documentElement.scrollWidth - innerWidth")


def choose(screen: Screen, toggle: str, label: str) -> None:
    """Press the option ``label`` of the form's toggle ``toggle``."""
    button = next(b for b in all_now(screen, f"{css(toggle)} button") if b.text == label)
    button.click()


def test_the_setup_form_fits_the_narrowest_phone(screen: Screen) -> None:
    driver = screen.selenium
    try:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {**PHONE_VIEWPORT, "width": 320, "height": 640})
        screen.open("/new")
        until(screen, lambda: bool(all_now(screen, css("game"))), "the form")
        for game in ("Parcheesi", "Ludo"):
            choose(screen, "game", game)
            for mode in ("Solo", "Same device", "Online room"):
                choose(screen, "mode", mode)
                for count in ("2 players", "3 players", "4 players"):
                    choose(screen, "player-count", count)
                    until(screen, lambda: bool(all_now(screen, '[data-testid^="seat-"]')),
                          "the seats")
                    assert sideways(screen) <= 0, (game, mode, count)
        link = by_testid(screen, "rules-link")
        assert box(screen, "rules-link")[2] <= 320 and link.is_displayed()
    finally:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE_VIEWPORT)


def two_people_on_one_phone(screen: Screen) -> None:
    """A shared-screen game of Ruby and Sapphire, both people, from the form."""
    screen.open("/new")
    until(screen, lambda: bool(all_now(screen, css("mode"))), "the form")
    choose(screen, "mode", "Same device")
    choose(screen, "player-count", "2 players")
    until(screen, lambda: bool(all_now(screen, css("kind-sapphire"))), "Sapphire's seat")
    by_testid(screen, "kind-sapphire").click()
    until(screen, lambda: any(o.text == "Human" for o in all_now(screen, ".q-menu .q-item")),
          "the seat's menu")
    next(o for o in all_now(screen, ".q-menu .q-item") if o.text == "Human").click()
    until(screen, lambda: not all_now(screen, ".q-menu"), "the menu to close")
    by_testid(screen, "start-game").click()


def covers_the_phone(screen: Screen) -> bool:
    """Whether the hand-over screen fills the viewport, its button in view."""
    width, height = screen.selenium.execute_script("return [innerWidth, innerHeight]")
    left, top, right, bottom = box(screen, "hand-over")
    ready = box(screen, "hand-over-ready")
    return ((left, top, right, bottom) == (0, 0, width, height)
            and ready[1] >= 0 and ready[3] <= height)


def test_the_hand_over_screen_covers_the_phone_until_the_next_person_has_it(
        screen: Screen) -> None:
    two_people_on_one_phone(screen)
    until(screen, lambda: bool(all_now(screen, css("hand-over"))), "the hand-over screen")
    assert by_testid(screen, "hand-over-title").text == "Ruby's turn"
    assert covers_the_phone(screen)
    by_testid(screen, "hand-over-ready").click()
    until(screen, lambda: not all_now(screen, css("hand-over")), "the table")
    until(screen, lambda: by_testid(screen, "roll").is_enabled(), "Roll for the start")
    press_in_place(screen, "roll")
    until(screen, lambda: bool(all_now(screen, css("hand-over"))), "Sapphire's hand-over")
    assert by_testid(screen, "hand-over-title").text == "Sapphire's turn"
    assert by_testid(screen, "hand-over-news").text.startswith("Ruby rolled")
    assert by_testid(screen, "hand-over-dice").get_attribute("aria-label").startswith(
        "Dice of Ruby: ")
    assert covers_the_phone(screen)
    # The table under it takes no key: R rolls nothing for Sapphire before she has the phone.
    version = screen.selenium.execute_script(
        "return document.querySelector('[data-testid=roll]').dataset.stamp")
    screen.selenium.find_element("tag name", "body").send_keys("r")
    by_testid(screen, "hand-over").click()  # a tap anywhere on it
    until(screen, lambda: not all_now(screen, css("hand-over")), "Sapphire's table")
    assert screen.selenium.execute_script(
        "return document.querySelector('[data-testid=roll]').dataset.stamp") == version
