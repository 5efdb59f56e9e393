"""My games and the replay in headless Chromium at phone size: a local and an online game
are listed, a replay steps forward and back with the board showing each step's position,
and a game's record is downloaded from its table.

Waiting is on conditions only (WebDriverWait through ``until``).
"""

from __future__ import annotations

import json
import sqlite3
import urllib.request
from typing import Any

import pytest
from conftest import PHONE_VIEWPORT
from nicegui.outbox import Outbox
from nicegui.testing import Screen
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from sqlalchemy.engine import make_url
from test_browser_ludo import press_something
from test_browser_table import all_now, by_testid, css, until

from parcheesi.core.registry import rules_for
from parcheesi.server.config import Config
from parcheesi.server.records import read_record, replay


def start_from_setup(screen: Screen, *choices: str, computer: str = "") -> None:
    """Fill in /new with ``choices`` (the buttons' words), ``computer`` a computer's seat
    where the form's default is an invited player, and start."""
    screen.open("/new")
    for choice in choices:
        screen.click(choice)
    if computer:
        until(screen, lambda: pressed(screen, css(f"kind-{computer}")), "the seat's menu open")
        until(screen, lambda: pressed(screen, ".q-menu .q-item", "Computer"), "Computer chosen")
        until(screen, lambda: bool(all_now(screen, css(f"level-{computer}"))), "a computer seat")
    by_testid(screen, "start-game").click()


def pressed(screen: Screen, selector: str, words: str | None = None) -> bool:
    """Click the element of ``selector`` (saying ``words``, if given) once it is there; the
    form redraws its seats after each choice, so one found a moment ago may be gone."""
    try:
        found = [e for e in all_now(screen, selector) if words is None or e.text == words]
        if found:
            found[0].click()
        return bool(found)
    except StaleElementReferenceException:
        return False


def table_ready(screen: Screen) -> None:
    until(screen, lambda: bool(all_now(screen, css("roll")))
          and all_now(screen, css("roll"))[0].is_enabled(), "the table to wait for a roll")


def fetch_record(path: str) -> dict:
    with urllib.request.urlopen(f"http://localhost:{Screen.PORT}{path}", timeout=10) as answer:
        return json.load(answer)


def board_labels(screen: Screen) -> list[str]:
    return [p.get_attribute("aria-label") or ""
            for p in all_now(screen, '[data-testid^="board-piece-"]')]


def expected_labels(kind: str, state: Any) -> list[str]:
    """What the board's pieces say at ``state``, as the board words them."""
    rules = rules_for(kind)
    look = rules.look
    return [look.piece_label(rules.colours[c].capitalize(), i, progress)
            for c in range(len(rules.colours)) for i, progress in enumerate(state.pieces[c])]


@pytest.mark.browser
def test_my_games_lists_a_local_and_an_online_game_and_a_replay_steps_through_one(
        screen: Screen) -> None:
    # an online room with a computer opponent, started, and its opening roll made
    start_from_setup(screen, "Online room", "2 players", computer="sapphire")
    until(screen, lambda: bool(all_now(screen, css("room-code"))), "the room")
    by_testid(screen, "start-game").click()
    table_ready(screen)
    by_testid(screen, "roll").click()
    until(screen, lambda: bool(by_testid(screen, "log").text.strip()), "the roll logged")
    # a game on this device, with a few actions
    start_from_setup(screen, "Solo")
    table_ready(screen)
    link = by_testid(screen, "export-record")
    record_path = link.get_attribute("href").split(f":{Screen.PORT}", 1)[1]
    by_testid(screen, "roll").click()
    until(screen, lambda: len(fetch_record(record_path)["actions"]) >= 2, "two actions")

    by_testid(screen, "my-games").click()
    until(screen, lambda: len(all_now(screen, '[data-testid^="game-"].game-entry')) == 2,
          "both games listed")
    entries = all_now(screen, '[data-testid^="game-"].game-entry')
    assert [("online" in e.text, "on this device" in e.text) for e in entries] in (
        [(False, True), (True, False)], [(True, False), (False, True)])
    local = next(e for e in entries if "on this device" in e.text)
    assert local.find_element(By.CSS_SELECTOR, css("open-game")).get_attribute(
        "href").endswith("/play")
    local.find_element(By.CSS_SELECTOR, css("replay-game")).click()

    until(screen, lambda: bool(all_now(screen, css("replay-step"))), "the replay")
    record = fetch_record(record_path)
    steps = replay(read_record(record))
    last = len(steps) - 1
    kind = record["game"]

    def at(k: int) -> None:
        until(screen, lambda: by_testid(screen, "replay-step").text.startswith(
            f"Step {k} of {last}"), f"step {k}")
        until(screen, lambda: board_labels(screen) == expected_labels(kind, steps[k].state),
              f"the board at step {k}")

    at(last)
    by_testid(screen, "replay-back").click()
    at(last - 1)
    by_testid(screen, "replay-start").click()
    at(0)
    by_testid(screen, "replay-forward").click()
    at(1)
    assert all_now(screen, '#step-1[aria-current="step"]')
    body = screen.selenium.find_element(By.TAG_NAME, "body")
    body.send_keys("\ue010")  # End
    at(last)
    body.send_keys("\ue012")  # left arrow
    at(last - 1)
    assert "dice not yet verifiable" in by_testid(screen, "verification").get_attribute(
        "textContent")

    # on the narrowest phone, at the last step (the slider's thumb at its right end)
    driver = screen.selenium
    try:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {**PHONE_VIEWPORT, "width": 320, "height": 640})
        body.send_keys("\ue010")  # End
        at(last)
        until(screen, lambda: driver.execute_script(
            "return document.getAnimations().every(a => a.playState !== 'running')"),
            "the slider's thumb to reach the end")
        assert driver.execute_script("return document.documentElement.scrollWidth") <= 320
        lines = driver.execute_script(
            "return [...document.querySelectorAll('.replay-buttons button')].map(b => {"
            " const words = document.createRange(); words.selectNodeContents(b);"
            " return words.getClientRects().length; })")
        assert lines == [1] * 6, lines  # each button's words on one line
    finally:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE_VIEWPORT)


@pytest.mark.browser
def test_no_seed_or_future_die_reaches_the_browser_during_a_game(
        screen: Screen, app_config: Config, monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[str] = []
    emit = Outbox._emit

    async def recording(self: Outbox, message: Any) -> None:
        sent.append(json.dumps(message, default=str))
        await emit(self, message)

    monkeypatch.setattr(Outbox, "_emit", recording)
    start_from_setup(screen, "Solo")
    table_ready(screen)
    record_path = by_testid(screen, "export-record").get_attribute("href").split(
        f":{Screen.PORT}", 1)[1]
    pages = []
    for _ in range(12):
        until(screen, lambda: press_something(screen), "something to press")
        pages.append(screen.selenium.page_source)
    record = fetch_record(record_path)
    path = make_url(app_config.database_url).database
    with sqlite3.connect(str(path)) as db:
        secret, seed, contributions = db.execute(
            "SELECT secret, seed, contributions FROM games").fetchone()
    assert len(secret) == 64 and json.loads(contributions)  # the browser added its share
    assert "seed" not in record and record["commitment"]
    made = read_record(record).rules.rolls(replay(read_record(record))[-1].state)
    assert [index for index, _ in record["rolls"]] == list(range(made))
    for text in (*sent, *pages, json.dumps(record)):
        assert secret not in text and str(seed) not in text
        assert f"{seed:x}" not in text
