"""What the two motion tests share (``test_browser_motion.py``, Parcheesi's, and
``test_browser_ludo_motion.py``, Ludo's): the host's default settings with the computers'
pace, waiting for the page, the Roll button, and nearness on the board."""

from __future__ import annotations

import math
import os
from collections.abc import Callable

from nicegui.testing import Screen
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from parcheesi.server.config import Config, parse


def default_config() -> Config:
    """The settings a host gets by default, the computers' pace included (the other tests
    run the computers without a pause)."""
    return parse([], {k: v for k, v in os.environ.items() if k != "PARCHEESI_PACE"})


def until(screen: Screen, condition: Callable[[], object], message: str,
          timeout: float) -> None:
    WebDriverWait(screen.selenium, timeout, poll_frequency=0.05,
                  ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda _: condition(), message)


def roll_enabled(screen: Screen, label: str) -> bool:
    """Whether the Roll button is there, enabled and says ``label``."""
    with screen.implicitly_wait(0):
        found = screen.selenium.find_elements(By.CSS_SELECTOR, '[data-testid="roll"]')
    return bool(found) and found[0].is_enabled() and found[0].text.strip() == label


def near(point: list[float] | None, goal: tuple[float, float], tolerance: float = 0.6) -> bool:
    """Whether a sampled piece position (board units) is at ``goal``."""
    return point is not None and math.dist(point, goal) <= tolerance
