"""Ludo in headless Chromium at phone size: a solo game played to its end with the table's
own controls, the house rules on the table at 320 x 640, and an online Ludo room in two
browsers (the host's and a guest's, each with its own storage); and the play-on question of
a Parcheesi game of three, which both games share.

Waiting is on conditions only (WebDriverWait, ``screen.wait_for``).
"""

from __future__ import annotations

import contextlib
from urllib.parse import urlsplit

import pytest
from conftest import start_chromium
from nicegui.testing import Screen
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from test_app_flows import near_the_end
from test_browser_table import all_now, box, by_testid, css, enabled_button, until
from test_rooms_browser import Phone

SEED = 5


__all__ = ["near_the_end"]  # the fixture, used here as in test_app_flows


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("parcheesi.server.fairness.dice_seed", lambda secret, added: SEED)


def choose_ludo(screen: Screen, players: str = "2 players") -> None:
    screen.open("/new")
    screen.click("Ludo")
    screen.wait_for(lambda: bool(all_now(screen, css("seat-red"))))
    screen.click(players)


def press_something(screen: Screen) -> bool:
    """Roll, or tap the first movable piece (and its first option if the table asks which);
    False when nothing is to be pressed yet. A control redrawn while pressed is retried."""
    with contextlib.suppress(WebDriverException):
        roll = all_now(screen, css("roll"))
        if roll and roll.pop().is_enabled():
            by_testid(screen, "roll").click()
            return True
        for k in range(1, 5):
            piece = all_now(screen, css(f"piece-{k}"))
            if piece and piece[0].is_enabled():
                piece[0].click()
                options = all_now(screen, css("move-option"))
                if options and options[0].is_displayed():
                    options[0].click()
                return True
    return False


def no_sideways_scroll(screen: Screen) -> bool:
    return bool(screen.selenium.execute_script(
        "return document.documentElement.scrollWidth <= innerWidth"))


@pytest.mark.browser
def test_a_solo_ludo_game_is_played_to_the_end_on_a_phone(
        screen: Screen, reduced_motion: None) -> None:
    choose_ludo(screen)
    by_testid(screen, "start-game").click()
    until(screen, lambda: enabled_button(screen, "roll", "Roll for the start"), "the table")
    assert by_testid(screen, "board").get_attribute("aria-label") == "Ludo board"
    assert [b.get_attribute("data-testid") for b in all_now(screen, '[data-testid^="player-"]')
            ] == ["player-red", "player-yellow"]
    assert no_sideways_scroll(screen)
    for _ in range(2000):
        if all_now(screen, css("winner")):
            break
        if not press_something(screen):
            until(screen, lambda: bool(all_now(screen, css("winner"))) or any(
                b.is_enabled() for b in all_now(screen, '[data-testid="roll"], '
                                                        '[data-testid^="piece-"]')),
                  "something to press, or the end")
    until(screen, lambda: bool(all_now(screen, css("winner"))), "the finish")
    left, top, right, bottom = box(screen, "winner")
    width, height = screen.selenium.execute_script("return [innerWidth, innerHeight]")
    assert left >= 0 and right <= width and top >= 0 and bottom <= height, "in view"
    assert "wins!" in by_testid(screen, "winner").text
    assert all_now(screen, css("play-again"))
    # The card closes (Escape; a tap beside it) to show the final board, and comes back.
    screen.selenium.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
    until(screen, lambda: not all_now(screen, css("winner")), "Escape to close the card")
    left, top, right, bottom = box(screen, "board")
    assert top >= 0 and bottom <= height and left >= 0 and right <= width, "the board in view"
    by_testid(screen, "show-result").click()
    until(screen, lambda: bool(all_now(screen, css("winner"))), "the card to come back")
    tap = ActionBuilder(screen.selenium)
    tap.pointer_action.move_to_location(4, 4).click()  # the corner: beside the card
    tap.perform()
    until(screen, lambda: not all_now(screen, css("winner")), "a tap beside the card")
    assert all_now(screen, css("show-result"))


@pytest.mark.browser
def test_house_rules_show_on_a_small_phones_ludo_table(screen: Screen) -> None:
    screen.selenium.set_window_size(320, 640)
    choose_ludo(screen, "4 players")
    for switch in ("house-stars", "house-six_again"):
        by_testid(screen, switch).click()
    by_testid(screen, "start-game").click()
    until(screen, lambda: enabled_button(screen, "roll", "Roll for the start"), "the table")
    assert by_testid(screen, "house-rules").text == "House rules: Six again, Star squares"
    stars = screen.selenium.find_elements(By.CSS_SELECTOR, '[data-testid="board"] polygon')
    assert len(stars) >= 8 + 4  # the eight marked squares' stars and the four triangles
    assert no_sideways_scroll(screen)


@pytest.mark.browser
def test_an_online_ludo_room_in_two_browsers(
        screen: Screen, nicegui_chrome_options: webdriver.ChromeOptions) -> None:
    host = Phone(screen.selenium)
    choose_ludo(screen)
    screen.click("Online room")
    host.click("kind-yellow")
    screen.selenium.find_element(
        By.XPATH, "//div[contains(@class, 'q-item')][normalize-space(.)='Invited player']"
    ).click()
    host.wait(lambda: "joins with the code" in host.page_text(), "Yellow to be invited")
    host.click("house-third_six")
    host.type("name-red", "Hana")
    host.click("start-game")
    host.wait(lambda: host.all("room-code"), "the room")
    assert host.text("room-game") == "Ludo · house rules: Third six"
    link = urlsplit(host.all("invite-link")[0].get_attribute("href") or "")

    guest = Phone(start_chromium(nicegui_chrome_options))
    try:
        guest.driver.get(f"http://localhost:{Screen.PORT}{link.path}")
        guest.type("guest-name", "Sam")
        guest.click("claim-seat-yellow")
        guest.wait(lambda: "Sam (you)" in guest.page_text(), "Sam's seat")
        guest.click("ready")
        host.shows("seat-status-yellow", "ready")
        host.click("start-game")
        for phone in (host, guest):
            phone.shows("turn", "Opening roll: Hana (Red)")
            assert phone.text("house-rules") == "House rules: Third six"
        host.click("roll")
        guest.shows("turn", "Opening roll: Sam (Yellow)")
        assert not host.enabled("roll")
        guest.click("roll")
        for phone in (host, guest):
            phone.wait(lambda p=phone: p.text("turn").startswith("Turn: "), "the first turn")
        starter = host.text("turn")
        assert starter in ("Turn: Hana (Red)", "Turn: Sam (Yellow)")
        mover, other = (host, guest) if "Hana" in starter else (guest, host)
        name = "Hana" if mover is host else "Sam"
        seen_before = other.text("log")
        mover.click("roll")
        other.wait(lambda: other.text("log") != seen_before, "the roll, seen by the other")
        new = other.text("log").splitlines()[:3]
        assert any(line.startswith(f"{name} rolled ") for line in new), new
        errors = [entry for entry in guest.driver.get_log("browser")
                  if entry.get("level") in ("SEVERE", "ERROR")]
        assert errors == [], errors
    finally:
        guest.driver.quit()


@pytest.mark.browser
def test_the_play_on_question_is_in_view_and_the_places_show_as_decided(
        screen: Screen, near_the_end: None) -> None:
    """A Parcheesi game of three from NEAR_THE_END (test_app_flows): once Emerald finishes,
    the person is asked on the phone's screen, answers with a button, and Emerald's badge
    keeps its place while the race for second goes on."""
    screen.open("/new")
    screen.click("3 players")
    screen.wait_for(lambda: bool(all_now(screen, css("seat-sapphire"))))
    by_testid(screen, "start-game").click()
    until(screen, lambda: enabled_button(screen, "roll", "Roll for the start"), "the table")
    asked = "Play on for the next places"
    for _ in range(200):
        if any(o.text == asked for o in all_now(screen, css("move-option"))):
            break
        with contextlib.suppress(WebDriverException):
            for name in ("roll", "play-best"):
                buttons = all_now(screen, css(name))
                if buttons and buttons[0].is_enabled():
                    # Play best would answer the question too: not once it is asked (the
                    # computers' move that asks it may have come since the look above).
                    if not any(o.text == asked for o in all_now(screen, css("move-option"))):
                        buttons[0].click()
                    break
        until(screen, lambda: any(b.is_enabled() for n in ("roll", "play-best")
                                  for b in all_now(screen, css(n)))
              or bool(all_now(screen, css("move-option"))), "a button to press")
    options = all_now(screen, css("move-option"))
    assert [o.text for o in options] == [asked, "End the game now"]
    width, height = screen.selenium.execute_script("return [innerWidth, innerHeight]")
    for option in options:
        rect = option.rect
        assert rect["x"] >= 0 and rect["x"] + rect["width"] <= width
        assert rect["y"] >= 0 and rect["y"] + rect["height"] <= height, "in view"
        assert rect["height"] >= 44
    assert not all_now(screen, css("winner"))
    assert "1st" in by_testid(screen, "player-emerald").text
    assert not by_testid(screen, "piece-1").is_displayed()  # room for the answers
    options[0].click()
    until(screen, lambda: not all_now(screen, css("move-option"))
          and "Ruby plays on" in by_testid(screen, "log").text, "the race to go on")
    assert "1st" in by_testid(screen, "player-emerald").text
    assert not all_now(screen, css("winner"))
    until(screen, lambda: by_testid(screen, "piece-1").is_displayed(), "the pieces again")
