"""An online room in two real browsers: the host (the ``screen`` fixture's Chromium) and a guest
(a second Chromium with the same options and its own profile, so its own cookies and
localStorage). Real localStorage keeps the seat tokens here.

The dice seed is fixed: Ruby (the host) rolls 2+5 and Sapphire (the guest) 3+5 for the start,
so Sapphire begins with 5+4 (enter a piece, move it 4); then Ruby rolls 6+5 (enter, move 6).
Waiting is on conditions only (WebDriverWait).
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

import pytest
from conftest import start_chromium
from nicegui.testing import Screen
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

SEED = 14
WAIT = 10.0


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("parcheesi.server.fairness.dice_seed", lambda secret, added: SEED)


class Phone:
    """One person's browser, driven through the page's data-testid hooks."""

    def __init__(self, driver: webdriver.Chrome) -> None:
        self.driver = driver

    def all(self, testid: str) -> list[WebElement]:
        """The elements with this data-testid right now (no implicit wait)."""
        self.driver.implicitly_wait(0)
        try:
            return self.driver.find_elements(By.CSS_SELECTOR, f'[data-testid="{testid}"]')
        finally:
            self.driver.implicitly_wait(Screen.IMPLICIT_WAIT)

    def wait(self, condition: Callable[[], object], message: str) -> None:
        WebDriverWait(self.driver, WAIT, poll_frequency=0.05,
                      ignored_exceptions=(StaleElementReferenceException,)).until(
            lambda _: condition(), message)

    def text(self, testid: str) -> str:
        found = self.all(testid)
        return found[0].text.strip() if found else ""

    def shows(self, testid: str, text: str) -> None:
        self.wait(lambda: self.text(testid) == text, f"{testid} to say {text!r}")

    def enabled(self, testid: str) -> bool:
        found = self.all(testid)
        return bool(found) and found[0].is_displayed() and found[0].is_enabled()

    def click(self, testid: str, text: str | None = None) -> None:
        """Click the control (the one saying ``text``) as soon as it is there and enabled."""

        def attempt() -> bool:
            for candidate in self.all(testid):
                if text is not None and candidate.text.strip().lower() != text.lower():
                    continue
                if candidate.is_displayed() and candidate.is_enabled():
                    candidate.click()
                    return True
            return False

        self.wait(attempt, f"{testid} {text or ''} to be clickable")

    def type(self, testid: str, text: str) -> None:
        self.wait(lambda: self.all(testid), f"{testid} to appear")
        self.all(testid)[0].send_keys(text)  # Quasar puts the attribute on the <input>

    def page_text(self) -> str:
        return self.driver.find_element(By.TAG_NAME, "body").text

    def seat_token(self, code: str) -> str | None:
        return self.driver.execute_script(
            "return localStorage.getItem(arguments[0])", f"parcheesi-seat-{code}")

    def play_first_move(self, then: str) -> None:
        """Roll, enter piece 1 with the 5, then move it with the other die (``then``, e.g.
        "by 4"): each time its one move, which a tap on the piece makes at once."""
        self.click("roll")
        self.click("piece-1")
        self.wait(lambda: (self.text("log").splitlines() or [""])[0].endswith(
            "entered piece 1"), "the entry to be played")
        self.click("piece-1")
        self.wait(lambda: f"moved piece 1 {then}" in self.text("log"), f"the move {then}")


def invite_sapphire(screen: Screen) -> Phone:
    """The host's browser fills in /new for a two-player room: Hana on Ruby, Sapphire an
    invited player (not created yet)."""
    host = Phone(screen.selenium)
    screen.open("/new")
    screen.click("Online room")
    screen.click("2 players")
    host.click("kind-sapphire")
    screen.selenium.find_element(
        By.XPATH, "//div[contains(@class, 'q-item')][normalize-space(.)='Invited player']"
    ).click()
    host.wait(lambda: "joins with the code" in host.page_text(), "Sapphire to be invited")
    host.type("name-ruby", "Hana")
    return host


@pytest.mark.browser
def test_host_and_guest_play_the_first_turns_in_two_browsers(
        screen: Screen, nicegui_chrome_options: webdriver.ChromeOptions) -> None:
    host = invite_sapphire(screen)
    host.click("start-game")
    host.wait(lambda: host.all("room-code"), "the room")
    code = host.text("room-code").replace(" ", "")
    link = urlsplit(host.all("invite-link")[0].get_attribute("href") or "")
    assert (link.path, link.query, link.fragment) == (f"/r/{code}", "", "")
    host_token = host.seat_token(code)
    assert host_token and len(host_token) >= 22

    guest = Phone(start_chromium(nicegui_chrome_options))
    try:
        guest.driver.get(f"http://localhost:{Screen.PORT}{link.path}")
        guest.type("guest-name", "Sam")
        guest.click("claim-seat-sapphire")
        guest.wait(lambda: "Sam (you)" in guest.page_text(), "Sam's seat")
        guest_token = guest.seat_token(code)
        assert guest_token and guest_token != host_token
        guest.click("ready")
        host.shows("seat-status-sapphire", "ready")
        for phone in (host, guest):
            source = phone.driver.page_source
            assert host_token not in source and guest_token not in source

        host.click("start-game")
        for phone in (host, guest):
            phone.shows("turn", "Opening roll: Hana (Ruby)")
        assert not guest.enabled("roll")
        host.click("roll")
        guest.shows("turn", "Opening roll: Sam (Sapphire)")
        assert not host.enabled("roll")
        guest.click("roll")
        for phone in (host, guest):
            phone.shows("turn", "Turn: Sam (Sapphire)")
        assert not host.enabled("roll")

        guest.play_first_move("by 4")
        for phone in (host, guest):
            phone.shows("turn", "Turn: Hana (Ruby)")
        assert not guest.enabled("roll")
        assert not any(guest.enabled(f"piece-{k}") for k in range(1, 5))
        host.play_first_move("by 6")
        for phone in (host, guest):
            phone.shows("turn", "Turn: Sam (Sapphire)")
        guest.wait(lambda: guest.enabled("roll"), "Sam's next roll")
        assert not host.enabled("roll")
        guest.wait(lambda: "Hana moved piece 1 by 6" in guest.text("log"), "the host's move")
        host.wait(lambda: "Sam moved piece 1 by 4" in host.text("log"), "the guest's move")

        errors = [entry for entry in guest.driver.get_log("browser")
                  if entry.get("level") in ("SEVERE", "ERROR")]
        assert errors == [], errors
    finally:
        guest.driver.quit()
