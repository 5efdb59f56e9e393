"""The people's pages in headless Chromium at phone size (390 x 844): the leaderboard and a
person's page fit the phone's width (a table scrolls in its own box, never the page), the
rating chart is drawn (light on dark in dark colours), the link for another device shows
its QR code, axe finds nothing serious on the pages (the host's tools and a dialog among
them), and the header with its People link still fits a 320 px phone.

The screenshots go to /tmp/people-*.png.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import PHONE_VIEWPORT
from fastapi.responses import JSONResponse
from nicegui import app
from nicegui.testing import Screen
from people_helpers import finished_game, human
from selenium.webdriver.common.by import By
from test_browser_axe import Audit
from test_browser_table import all_now, by_testid, css, until
from test_people_pages import household

from components.charts_page import DARK
from components.person import PERSON_KEY
from parcheesi.core.registry import DEFAULT_GAME

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp")


def sideways(screen: Screen) -> int:
    return screen.selenium.execute_script(
        "return document.documentElement.scrollWidth - innerWidth")


def canvas_width(screen: Screen) -> float:
    """The width of the rating chart's drawn canvas (0 until ECharts has drawn it)."""
    return screen.selenium.execute_script("""
        const canvas = document.querySelector(arguments[0] + ' canvas');
        return canvas ? canvas.getBoundingClientRect().width : 0;""", css("rating-chart"))


def text_colour(screen: Screen) -> str | None:
    return screen.selenium.execute_script("""
        const box = document.querySelector(arguments[0]);
        const chart = box && getElement(box.id.slice(1))?.chart;
        const style = chart && chart.getOption().textStyle;
        return style ? (Array.isArray(style) ? style[0] : style).color : null;""",
                                          css("rating-chart"))


@pytest.fixture
def forget_person(screen: Screen) -> Iterator[None]:
    """The session's browser is nobody again after the test (its storage outlives it)."""
    yield
    screen.selenium.execute_script("localStorage.removeItem(arguments[0])", PERSON_KEY)


@pytest.mark.usefixtures("forget_person")
def test_the_people_pages_fit_a_phone(screen: Screen) -> None:
    server = screen.app_server

    @app.get("/test/household")
    async def made() -> JSONResponse:
        people = await household(server)
        long, _ = await server.people.add("Maximiliana Rosenberg")
        await finished_game(server.store, 9, [human(0, long), human(2, people["Ann"])],
                            DEFAULT_GAME)
        await server.ratings.rate_pending()
        _, token = await server.people.choose(people["Ann"].id)
        return JSONResponse([people["Ann"].id, token])

    screen.open("/test/household")
    ann, token = json.loads(screen.selenium.find_element(By.TAG_NAME, "body").text)
    screen.selenium.execute_script("localStorage.setItem(arguments[0], arguments[1])",
                                   PERSON_KEY, token)  # this browser is Ann
    screen.open("/people")
    until(screen, lambda: len(all_now(screen, css("person-row"))) >= 5, "the leaderboard")
    assert screen.selenium.execute_script("return innerWidth") == 390
    assert sideways(screen) <= 0
    board = by_testid(screen, "leaderboard").rect
    assert board["x"] >= 0 and board["x"] + board["width"] <= 390
    screen.selenium.save_screenshot(str(SHOTS / "people-leaderboard.png"))
    by_testid(screen, "people-limit-save").location_once_scrolled_into_view  # noqa: B018
    screen.selenium.save_screenshot(str(SHOTS / "people-manage.png"))

    screen.open(f"/people/{ann}")
    until(screen, lambda: canvas_width(screen) > 280, "the rating chart drawn")
    assert sideways(screen) <= 0
    assert by_testid(screen, "person-title").text == "Ann"
    screen.selenium.save_screenshot(str(SHOTS / "people-person.png"))
    by_testid(screen, "person-link-make").click()
    until(screen, lambda: bool(all_now(screen, css("person-link-qr") + " svg")), "the QR code")
    assert "/people/link/" in by_testid(screen, "person-link-url").text
    assert sideways(screen) <= 0
    screen.selenium.save_screenshot(str(SHOTS / "people-person-link.png"))
    by_testid(screen, "recent-games").location_once_scrolled_into_view  # noqa: B018
    screen.selenium.save_screenshot(str(SHOTS / "people-person-recent.png"))
    # Dark: the page asks the browser and redraws the chart's words light on dark.
    emulate = screen.selenium.execute_cdp_cmd
    emulate("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    try:
        screen.open(f"/people/{ann}")
        until(screen, lambda: text_colour(screen) == DARK.text, "the dark chart")
        screen.selenium.save_screenshot(str(SHOTS / "people-person-dark.png"))
    finally:
        emulate("Emulation.setEmulatedMedia", {"features": []})

    audit = Audit(screen)  # the host's tools are on the page too: Chromium is the host's
    for page in ("/people", f"/people/{ann}"):
        screen.open(page)
        until(screen, lambda: bool(all_now(screen, css("meeting-row") + ", "
                                           + css("people-manage"))), page)
        audit.look(page)
    screen.open("/people")
    all_now(screen, css("person-merge"))[0].click()
    until(screen, lambda: bool(all_now(screen, css("merge-confirm"))), "the merge dialog")
    audit.look("/people, merging")
    screen.selenium.save_screenshot(str(SHOTS / "people-merge.png"))
    audit.check()

    driver = screen.selenium
    try:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {**PHONE_VIEWPORT, "width": 320, "height": 640})
        screen.open("/people")
        until(screen, lambda: bool(all_now(screen, css("person-row"))), "the leaderboard")
        assert sideways(screen) <= 0
        for link in ("people-link", "my-games", "rules-link"):
            box = by_testid(screen, link).rect
            assert box["x"] + box["width"] <= 320, link
        header = driver.find_element(By.CSS_SELECTOR, ".app-header").rect
        assert header["height"] < 70  # one line
        # A name too long for its column ends in an ellipsis (text-overflow does nothing in
        # a flex box: the name was cut mid-letter), on one line of the 44 px target.
        cut = driver.execute_script("""
            return [...document.querySelectorAll('.lb-name')]
              .filter(name => name.scrollWidth > name.clientWidth)
              .map(name => [name.textContent, getComputedStyle(name).display,
                            getComputedStyle(name).textOverflow,
                            name.getBoundingClientRect().height]);""")
        assert any(name == "Maximiliana Rosenberg" for name, *_ in cut), cut
        for name, display, overflow, height in cut:
            assert "flex" not in display and overflow == "ellipsis" and height >= 44, name
        driver.save_screenshot(str(SHOTS / "people-320.png"))
    finally:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE_VIEWPORT)
