"""A knockout of four people and four computers, made on the tournaments page and played to
its champion in four browsers with Play best, the server restarted between the rounds: each
person finds their table from the home page, the bracket and standings follow, the TV view
shows the champion."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest
from conftest import on_server_loop, start_chromium
from nicegui.testing import Screen
from room_helpers import restart_server, stop_computers
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from test_rooms_browser import Phone

from components.person import ASKED_KEY, PERSON_KEY
from components.server import Server

PEOPLE = ("Ann", "Ben", "Cat", "Dan")
GAME_WAIT = 240
"""Seconds at most the people of a round take to play it (about half a minute here; each
poll presses what it can)."""


@pytest.fixture
def phones(screen: Screen, nicegui_chrome_options: webdriver.ChromeOptions
           ) -> Iterator[dict[str, Phone]]:
    """A phone per person, each its own browser (its own localStorage): Ann's is the
    screen's. Each is that person from the start."""
    server: Server = screen.app_server  # type: ignore[attr-defined]
    screen.open("/")
    tokens = {}
    for name in PEOPLE:
        _, token = on_server_loop(server.people.add(name))
        tokens[name] = token
    drivers = [screen.selenium] + [start_chromium(nicegui_chrome_options) for _ in PEOPLE[1:]]
    made = {}
    try:
        for name, driver in zip(PEOPLE, drivers, strict=True):
            driver.set_window_size(390, 844)
            # Reduced motion: every position shown without waiting for the slides.
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
                "features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
            driver.get(f"http://localhost:{Screen.PORT}/")
            driver.execute_script("localStorage.setItem(arguments[0], arguments[1]);"
                                  "localStorage.setItem(arguments[2], '1')",
                                  PERSON_KEY, tokens[name], ASKED_KEY)
            made[name] = Phone(driver)
        yield made
    finally:
        on_server_loop(stop_computers(screen.app_server))  # type: ignore[attr-defined]
        screen.selenium.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        for driver in drivers[1:]:
            driver.quit()


def pick(phone: Phone, testid: str, option: str) -> None:
    """Choose ``option`` in the select ``testid``."""
    phone.click(testid)

    def chosen() -> bool:  # a menu item redrawn under the look is looked for again
        for item in phone.driver.find_elements(By.CSS_SELECTOR, ".q-menu .q-item"):
            if item.text.strip() == option:
                item.click()
                return True
        return False

    phone.wait(chosen, f"{option} in {testid}")


def make_knockout(ann: Phone) -> str:
    """Ann makes the knockout on the tournaments page; returns its code."""
    ann.driver.get(f"http://localhost:{Screen.PORT}/")
    ann.click("tournaments-link")
    ann.click("new-tournament")
    pick(ann, "tournament-game", "Parcheesi")
    pick(ann, "tournament-format", "Knockout")
    for name in PEOPLE[1:]:
        ann.click(f"tournament-entrant-{name}")
    pick(ann, "tournament-computers", "4")
    pick(ann, "tournament-computer-level", "Easy")
    ann.click("start-tournament")
    ann.wait(lambda: "/t/" in ann.driver.current_url, "the tournament's page")
    return ann.driver.current_url.rsplit("/", 1)[1]


PRESS = """
for (const name of ["roll", "play-best"]) {
  const button = document.querySelector(`[data-testid="${name}"]`);
  if (button && !button.disabled && button.offsetParent !== null) { button.click(); return name; }
}
for (const option of document.querySelectorAll('[data-testid="move-option"]')) {
  if (option.textContent.trim() === "End the game now" && !option.disabled) {
    option.click(); return "end";
  }
}
return null;
"""
"""Click Roll or Play best, whichever the table offers now, or end the game once someone
has finished (the question Play best leaves to the person; the others are then placed by
how far they got). One round trip a phone: four browsers and the server share two cores."""


def press_what_is_open(phone: Phone) -> None:
    phone.driver.execute_script(PRESS)


def play_round(phones: dict[str, Phone], server: Server, code: str, round_no: int) -> None:
    """Every person of the round goes to their table from the home page and plays it with
    Play best until the round's tables are all over."""
    contest = on_server_loop(server.tournaments.get(code))
    assert contest is not None
    playing = {contest.name(e) for _, table, _ in contest.playing() for e in table.seats}
    seated = [phone for name, phone in phones.items() if name in playing]
    assert seated, "a round with a person in it"
    for phone in seated:
        phone.driver.get(f"http://localhost:{Screen.PORT}/")
        phone.click("your-table-open")
        phone.wait(lambda p=phone: p.all("board"), "the table")

    def round_over() -> bool:
        contest = on_server_loop(server.tournaments.get(code))
        return contest is not None and (len(contest.tournament.rounds) > round_no
                                        or contest.over)

    def pressed() -> bool:
        for phone in seated:
            # A button redrawn under the click is pressed again at the next poll.
            with contextlib.suppress(StaleElementReferenceException, WebDriverException):
                press_what_is_open(phone)
        return round_over()

    WebDriverWait(seated[0].driver, GAME_WAIT, poll_frequency=0.05).until(
        lambda _: pressed(), f"round {round_no} to be played")


@pytest.mark.browser
def test_a_knockout_of_four_people_and_four_computers_to_its_champion(
        screen: Screen, phones: dict[str, Phone]) -> None:
    server: Server = screen.app_server  # type: ignore[attr-defined]
    ann = phones["Ann"]
    code = make_knockout(ann)
    ann.wait(lambda: len(ann.all("bracket-table")) == 2, "two tables of four")
    assert [t.get_attribute("data-round") for t in ann.all("bracket-table")] == ["1", "1"]
    assert len(ann.all("standing-row")) == 8
    assert len(ann.all("bracket-later")) == 1  # the final, drawn once round 1 ends
    contest = on_server_loop(server.tournaments.get(code))
    assert contest is not None
    for name in PEOPLE:  # every person has a table of the first round
        phones[name].driver.get(f"http://localhost:{Screen.PORT}/")
        phones[name].wait(lambda n=name: phones[n].all("your-table"), f"{name}'s table")
    play_round(phones, server, code, 1)
    ann.driver.get(f"http://localhost:{Screen.PORT}/t/{code}")
    ann.wait(lambda: len(ann.all("bracket-table")) == 3, "the final drawn")
    assert not ann.all("bracket-later")
    # The server stops between the rounds; the final goes on after its start.
    store = on_server_loop(restart_server(server))
    try:
        on_server_loop(server.tournaments.resume())
        play_round(phones, server, code, 2)
        champion_shown(phones, server, code)
    finally:
        on_server_loop(stop_computers(server))
        on_server_loop(server.tournaments.close())
        on_server_loop(server.ratings.close())
        on_server_loop(store.close())


def champion_shown(phones: dict[str, Phone], server: Server, code: str) -> None:
    """The champion on the tournament's page and its TV; no table left on a home page."""
    ann = phones["Ann"]
    contest = on_server_loop(server.tournaments.get(code))
    assert contest is not None and contest.over and contest.champion is not None
    champion = contest.name(contest.champion)
    ann.driver.get(f"http://localhost:{Screen.PORT}/t/{code}")
    ann.wait(lambda: ann.all("champion"), "the champion")
    assert champion in ann.text("champion")
    finals = [t for t in ann.all("bracket-table") if t.get_attribute("data-round") == "2"]
    assert len(finals) == 1
    ann.driver.get(f"http://localhost:{Screen.PORT}/tv/t/{code}")
    ann.wait(lambda: champion in ann.text("champion"), "the champion on the TV")
    for name in PEOPLE:  # nothing left to play
        phones[name].driver.get(f"http://localhost:{Screen.PORT}/")
        phones[name].wait(lambda n=name: phones[n].all("who-am-i"), "the home page")
        assert not phones[name].all("your-table")
