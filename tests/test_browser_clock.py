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


def test_the_badge_clock_counts_down_in_the_browser_and_speaks_at_coarse_steps(
        screen: Screen) -> None:
    now = round(time.time() * 1000)
    skew = 3_600_000  # this server's time is an hour ahead of the phone's

    @ui.page("/")
    def page() -> None:
        ui.add_head_html(CLOCK_SCRIPT)
        ui.element("span").props(
            f'role=timer data-testid=short data-deadline={now + skew + 12_000} '
            f'data-sent={now + skew}')
        ui.element("span").props(
            f'role=timer data-testid=long data-deadline={now + 86_400_000} data-sent={now}')

    screen.open("/")

    def read(testid: str) -> tuple[str, str]:
        found = screen.selenium.find_element(By.CSS_SELECTOR, f'[data-testid="{testid}"]')
        return found.text, str(found.get_attribute("aria-label"))

    screen.wait_for(lambda: read("short")[0] in ("0:12", "0:11", "0:10"))
    first = read("short")
    assert first[1] == "Under a minute left" or first[0] == "0:10"
    screen.wait_for(lambda: read("short")[0] == "0:10")
    assert read("short")[1] == "10 seconds or less left"
    text, said = read("long")
    assert text in ("24 h 00 min", "23 h 59 min") and said == "About 24 hours left"
