"""The headless Chromium that tests and benchmarks drive: Debian's browser and driver (there
is no browser download offline), its flags and the phone-sized window.

Headless Chromium will not make a window narrower than 500 px, so the 390 x 844 viewport is
set through device-metrics emulation as well (:func:`phone_sized`).
"""

from __future__ import annotations

from typing import Any

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
PHONE_WINDOW = (390, 844)
PHONE_VIEWPORT = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}
TV_VIEWPORT = {"width": 1920, "height": 1080, "deviceScaleFactor": 1, "mobile": False}
"""A television's screen, for the TV views."""
CHROMIUM_FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)


def chromium_options(logs: dict[str, str] | None = None,
                     prefs: dict[str, Any] | None = None) -> webdriver.ChromeOptions:
    """Options for a phone-sized headless Chromium; ``logs`` are the log types to keep
    (``goog:loggingPrefs``), ``prefs`` the browser's preferences."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument("--window-size={},{}".format(*PHONE_WINDOW))
    if prefs:
        options.add_experimental_option("prefs", prefs)
    if logs:
        options.set_capability("goog:loggingPrefs", logs)
    return options


def start(options: webdriver.ChromeOptions) -> webdriver.Chrome:
    """A Chromium with Debian's driver, its viewport set to the phone's."""
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        phone_sized(driver)
    except Exception:
        driver.quit()
        raise
    return driver


def phone_sized(driver: webdriver.Chrome) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE_VIEWPORT)
