"""The badge clock's page script in headless Chromium (``components.badges.CLOCK_SCRIPT``):
it counts down every second from the deadline the server sent, measured against the
server's time sent with it (so a phone whose clock is off still counts right), and changes
what screen readers are told only at coarse steps. Its own page, no app (``own_pages``).
"""

from __future__ import annotations

import time

import pytest
from nicegui import ui
from nicegui.testing import Screen
from selenium.webdriver.common.by import By

from components.badges import CLOCK_SCRIPT

pytestmark = [pytest.mark.own_pages, pytest.mark.browser]


FREEZE = "window.phoneNow = arguments[0]; Date.now = () => window.phoneNow;"
"""Holds the phone's clock still at a time the test chooses (an injected clock): what the
page shows then depends on the times the test sets, not on how fast the page opened."""


def test_the_badge_clock_counts_down_in_the_browser_and_speaks_at_coarse_steps(
        screen: Screen) -> None:
    now = round(time.time() * 1000)
    skew = 3_600_000  # this server's time is an hour ahead of the phone's
    deadline = now + skew + 12_000

    @ui.page("/")
    def page() -> None:
        ui.add_head_html(CLOCK_SCRIPT)
        ui.element("span").props(
            f'role=timer data-testid=short data-deadline={deadline} data-sent={now + skew}')
        ui.element("span").props(
            f'role=timer data-testid=long data-deadline={now + 86_400_000} data-sent={now}')

    screen.open("/")

    def read(testid: str) -> tuple[str, str]:
        found = screen.selenium.find_element(By.CSS_SELECTOR, f'[data-testid="{testid}"]')
        return found.text, str(found.get_attribute("aria-label"))

    screen.wait_for(lambda: read("short")[0] != "")  # the script has seen the deadline
    # It measures the server's time against the phone's once, when the deadline arrives:
    # an hour ahead, less the time the page took to get here.
    offset = screen.selenium.execute_script(
        "return document.querySelector('[data-testid=short]')._offset")
    assert skew - 30_000 < offset <= skew
    phone = deadline - offset - 11_500  # the phone's time when 11.5 s are left
    screen.selenium.execute_script(FREEZE, phone)
    screen.wait_for(lambda: read("short") == ("0:12", "Under a minute left"))
    screen.selenium.execute_script(FREEZE, phone + 1_000)
    screen.wait_for(lambda: read("short") == ("0:11", "Under a minute left"))
    screen.selenium.execute_script(FREEZE, phone + 2_000)
    screen.wait_for(lambda: read("short") == ("0:10", "10 seconds or less left"))
    screen.selenium.execute_script(FREEZE, phone + 60_000)
    screen.wait_for(lambda: read("short") == ("0:00", "Time is up"))
    text, said = read("long")
    assert text in ("23 h 58 min", "23 h 59 min") and said == "About 24 hours left"
