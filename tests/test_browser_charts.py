"""The post-game charts in headless Chromium at phone size (390 x 844): both ECharts drawn
with their data, stacked full width, light and dark; and the table page, which loads no
ECharts.

The screenshots go to the test's temporary directory; with ``PARCHEESI_SHOTS=1`` they
replace ``docs/screenshots/charts-*.png``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from fastapi.responses import JSONResponse
from nicegui import app
from nicegui.testing import Screen
from selenium.webdriver.common.by import By

from components.charts_page import DARK
from tests.chart_helpers import store_finished_game
from tests.test_browser_table import all_now, by_testid, css, start_solo_game, until

pytestmark = pytest.mark.browser

GAME = "c4a875" * 5 + "01"
DOCS_SHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    return DOCS_SHOTS if os.environ.get("PARCHEESI_SHOTS") else tmp_path


def chart_data(screen: Screen, testid: str) -> dict:
    """What the ECharts instance in the chart element draws: its series' names, lengths and
    the canvas's size."""
    return screen.selenium.execute_script("""
        const box = document.querySelector(arguments[0]);
        const chart = box && getElement(box.id.slice(1))?.chart;
        const canvas = box && box.querySelector('canvas');
        if (!chart || !canvas) return null;
        return {series: chart.getOption().series.map(s => [s.name, s.data.length]),
                width: canvas.getBoundingClientRect().width,
                height: canvas.getBoundingClientRect().height};""", css(testid))


def echarts_requested(screen: Screen) -> list[str]:
    return screen.selenium.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name)"
        ".filter(n => n.includes('echart'))")


def test_a_finished_games_charts_on_a_phone(screen: Screen, shots: Path) -> None:
    server = screen.app_server

    @app.get("/test/finished-game")
    async def finished() -> JSONResponse:
        return JSONResponse(await store_finished_game(server, GAME, "parcheesi", count=4))

    screen.open("/test/finished-game")
    assert json.loads(screen.selenium.find_element(By.TAG_NAME, "body").text) == GAME
    screen.open(f"/games/{GAME}/charts")
    until(screen, lambda: chart_data(screen, "chart-race") is not None
          and chart_data(screen, "chart-luck") is not None, "both charts drawn")
    race, luck = chart_data(screen, "chart-race"), chart_data(screen, "chart-luck")
    rolls = len(race["series"][0][1:]) and race["series"][0][1] - 1
    assert [n for n, _ in race["series"]] == ["Ruby", "Emerald", "Sapphire", "Amber"]
    assert all(length == rolls + 1 > 50 for _, length in race["series"])
    assert luck["series"] == [["Rolled", 4], ["Fair average", 4]] * 2
    width = screen.selenium.execute_script("return innerWidth")
    assert width == 390
    for drawn in (race, luck):  # full width of the card, nothing sideways
        assert width - 40 <= drawn["width"] <= width and drawn["height"] >= 300
    assert screen.selenium.execute_script(
        "return document.documentElement.scrollWidth") <= width
    race_box, luck_box = (by_testid(screen, f"chart-{n}").rect for n in ("race", "luck"))
    assert luck_box["y"] >= race_box["y"] + race_box["height"]  # stacked
    assert by_testid(screen, "chart-race").get_attribute("role") == "img"
    assert by_testid(screen, "chart-race").get_attribute("aria-label").startswith("Race chart")
    assert echarts_requested(screen)
    screen.selenium.save_screenshot(str(shots / "charts-light.png"))
    screen.selenium.execute_script(
        "document.querySelector(arguments[0]).scrollIntoView(); scrollBy(0, -60)",
        css("chart-card-luck"))
    screen.selenium.save_screenshot(str(shots / "charts-luck-light.png"))

    # Dark: the page asks the browser and redraws the charts' words and lines light on dark.
    emulate = screen.selenium.execute_cdp_cmd
    emulate("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    try:
        screen.open(f"/games/{GAME}/charts")
        until(screen, lambda: text_colour(screen, "chart-race") == DARK.text
              and text_colour(screen, "chart-luck") == DARK.text, "the dark charts")
        screen.selenium.save_screenshot(str(shots / "charts-dark.png"))
    finally:
        emulate("Emulation.setEmulatedMedia", {"features": []})


def text_colour(screen: Screen, testid: str) -> str | None:
    return screen.selenium.execute_script("""
        const box = document.querySelector(arguments[0]);
        const chart = box && getElement(box.id.slice(1))?.chart;
        const style = chart && chart.getOption().textStyle;
        return style ? (Array.isArray(style) ? style[0] : style).color : null;""", css(testid))


def test_a_finished_ludo_games_charts_draw_the_chances_to_win(screen: Screen) -> None:
    server = screen.app_server
    ludo_game = "1d0c4a" * 5 + "02"

    @app.get("/test/finished-ludo-game")
    async def finished() -> JSONResponse:
        return JSONResponse(await store_finished_game(server, ludo_game, "ludo", count=4))

    screen.open("/test/finished-ludo-game")
    assert json.loads(screen.selenium.find_element(By.TAG_NAME, "body").text) == ludo_game
    screen.open(f"/games/{ludo_game}/charts")
    until(screen, lambda: chart_data(screen, "chart-chances") is not None, "the chances chart")
    chances = chart_data(screen, "chart-chances")
    assert [n for n, _ in chances["series"]] == ["Red", "Green", "Yellow", "Blue"]
    assert all(length >= 2 for _, length in chances["series"])
    assert chances["height"] >= 200
    assert by_testid(screen, "chart-chances").get_attribute("aria-label").startswith(
        "Chances chart")


def test_the_table_page_loads_no_echarts(screen: Screen) -> None:
    start_solo_game(screen)
    assert not all_now(screen, "canvas")
    assert echarts_requested(screen) == []
    assert "echart" not in screen.selenium.execute_script(
        "return [...document.querySelectorAll('script[type=module], link')]"
        ".map(e => e.textContent + (e.href || '')).join(' ')")
