"""Your turn, across games, in headless Chromium at phone size (390 x 844): a table's tab
says "(Your turn)" in its title while its viewer's move is to make, in a tab in view and in
a hidden one, and a hidden tab shows a notification when the setting is on and the browser
allowed it; the home page's list counts a turn clock down with the table's own script.

The browser is Sam, the guest of an online room made through the service (the host, Hana,
acts through it too: ``conftest.on_server_loop``); Sam's seat token is put into the
browser's localStorage as the lobby would. The dice seed is fixed: Hana (Ruby) rolls 2+5
and Sam (Sapphire) 3+5 for the start, so Sam begins with 5+4 (enter a piece, move it 4);
then Hana rolls 6+5. Headless Chromium has no notification service, so the page's
``Notification`` is replaced by a recorder before the setting is switched on. Waiting is on
conditions only (WebDriverWait).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from conftest import on_server_loop
from nicegui.testing import Screen
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

from components.lobby import token_key
from components.server import Server
from parcheesi.server.live import HUMAN, LiveGame, Seat
from parcheesi.server.rooms import Room

pytestmark = pytest.mark.browser

SEED = 14
WAIT = 10.0
RUBY, SAPPHIRE = 0, 2
TITLE = "Parcheesi room · Family Table"
YOURS = f"(Your turn) {TITLE}"

RECORDER = """
window.turnsTold = [];
const told = window.parcheesiYourTurn;
window.parcheesiYourTurn = (yours, words, notify) => {
  window.turnsTold.push([yours, document.hidden, notify]);
  told(yours, words, notify);
};
window.notes = [];
window.Notification = class {
  constructor(title, options) { window.notes.push([title, options.body, document.hidden]); }
  close() {}
  static requestPermission() {
    window.Notification.permission = 'granted';
    return Promise.resolve('granted');
  }
};
window.Notification.permission = 'default';
"""
"""Records what the table tells its tab and stands in for the browser's notifications."""


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("parcheesi.server.fairness.dice_seed", lambda secret, added: SEED)


def wait(screen: Screen, condition: Callable[[], object], what: str) -> None:
    """Until ``condition`` holds; an element not drawn yet (``found(...)[0]`` of nothing) or
    redrawn meanwhile is "not yet", not a failure."""
    WebDriverWait(screen.selenium, WAIT, poll_frequency=0.05,
                  ignored_exceptions=(StaleElementReferenceException, IndexError)).until(
        lambda _: condition(), f"{what} within {WAIT} s")


def found(screen: Screen, testid: str) -> list[WebElement]:
    with screen.implicitly_wait(0):
        return screen.selenium.find_elements(By.CSS_SELECTOR, f'[data-testid="{testid}"]')


def click(screen: Screen, testid: str) -> None:
    def attempt() -> bool:
        for candidate in found(screen, testid):
            if candidate.is_displayed() and candidate.is_enabled():
                candidate.click()
                return True
        return False

    wait(screen, attempt, f"{testid} to be clickable")


def titles(screen: Screen) -> dict[str, str]:
    """Every tab's title, by its window handle (read without switching to it, which would
    bring it into view)."""
    targets = screen.selenium.execute_cdp_cmd("Target.getTargets", {})["targetInfos"]
    return {t["targetId"]: t["title"] for t in targets if t["type"] == "page"}


def room_of_two(server: Server, clock: int = 0) -> tuple[Room, str, str, LiveGame]:
    """Hana hosts Ruby, Sam takes Sapphire and is ready, and the game starts."""
    rooms = server.rooms

    async def make() -> tuple[Room, str, str, LiveGame]:
        room, host = await rooms.create([Seat(RUBY, HUMAN, name="Hana"), Seat(SAPPHIRE, HUMAN)],
                                        clock=clock)
        guest = await rooms.claim(room, SAPPHIRE, "Sam", "browser:sam")
        await rooms.set_ready(room, guest, True)
        game = await rooms.start(room, host)
        return room, host, guest, game

    return on_server_loop(make())


def play(server: Server, room: Room, token: str, game: LiveGame, colour: int) -> None:
    """The seat ``colour`` plays (the computers' easy decisions) through the room until the
    turn passes."""
    async def acting() -> None:
        assert game.turn == colour
        while game.turn == colour:
            for action in game.rules.decide(game.state, "easy").actions:
                await server.rooms.act(room, token, action, game.version)
    on_server_loop(acting())


def test_the_tab_title_says_your_turn_while_it_is_and_a_hidden_tab_notifies(
        screen: Screen) -> None:
    server: Server = screen.app_server  # type: ignore[attr-defined]
    driver = screen.selenium
    screen.open("/rules")  # a page of the server's origin, for its localStorage
    room, host, guest, game = room_of_two(server)
    driver.execute_script("localStorage.setItem(arguments[0], arguments[1])",
                          token_key(room.code), guest)
    screen.open(f"/room/{room.code}")
    wait(screen, lambda: found(screen, "turn") and found(screen, "turn")[0].text
         == "Opening roll: Hana (Ruby)", "Sam's table")
    assert driver.title == TITLE  # Hana's move
    driver.execute_script(RECORDER)

    # In view: the turn comes to Sam, and goes when Sam's moves are made.
    play(server, room, host, game, RUBY)
    wait(screen, lambda: driver.title == YOURS, "the title to say it is Sam's turn")
    click(screen, "roll")  # Sam's roll for the start: Sam begins, so it stays Sam's turn
    wait(screen, lambda: found(screen, "turn")[0].text == "Turn: Sam (Sapphire)", "Sam's turn")
    assert driver.title == YOURS
    click(screen, "roll")
    click(screen, "piece-1")  # enter with the 5 (a piece's one move: one tap makes it)
    wait(screen, lambda: found(screen, "log")[0].text.startswith("Sam entered piece 1"),
         "the entry")
    click(screen, "piece-1")  # then on by 4: Hana's turn
    wait(screen, lambda: driver.title == TITLE, "the title to be the page's own again")
    assert driver.execute_script("return window.turnsTold") == [[True, False, False],
                                                                [False, False, False]]

    # The setting, offered on this secure page (localhost), asks for permission when on.
    click(screen, "settings")
    wait(screen, lambda: found(screen, "setting-notify")[0].is_displayed(), "the setting")
    assert not found(screen, "notify-blocked")[0].is_displayed()
    assert found(screen, "setting-notify")[0].get_attribute("aria-checked") == "false"
    click(screen, "setting-notify")
    wait(screen, lambda: driver.execute_script("return Notification.permission") == "granted",
         "the browser to be asked")
    wait(screen, lambda: found(screen, "setting-notify")[0].get_attribute("aria-checked")
         == "true", "the switch to be on")
    click(screen, "settings-close")

    # Hidden behind another tab: the title follows, and the turn's arrival is notified.
    table = driver.current_window_handle
    driver.switch_to.new_window("tab")
    try:
        play(server, room, host, game, RUBY)  # Hana: 6+5, then Sam's turn
        wait(screen, lambda: titles(screen).get(table) == YOURS,
             "the hidden tab's title to say it is Sam's turn")
        play(server, room, guest, game, SAPPHIRE)  # Sam's roll and moves, from elsewhere
        wait(screen, lambda: titles(screen).get(table) == TITLE,
             "the hidden tab's title to be its own again")
    finally:
        driver.close()
        driver.switch_to.window(table)
    assert driver.execute_script("return window.turnsTold")[2:] == [[True, True, True],
                                                                    [False, True, True]]
    assert driver.execute_script("return window.notes") == [
        ["Your turn", f"Parcheesi, room {room.code[:4]} {room.code[4:]}: Sam to play", True]]
    errors = [e for e in driver.get_log("browser") if e.get("level") in ("SEVERE", "ERROR")]
    assert errors == [], errors


def test_the_home_page_counts_a_turn_clock_down_and_marks_the_move_to_make(
        screen: Screen) -> None:
    server: Server = screen.app_server  # type: ignore[attr-defined]
    driver = screen.selenium
    screen.open("/rules")
    room, host, guest, game = room_of_two(server, clock=3600)
    play(server, room, host, game, RUBY)  # Sam's roll for the start is to make
    driver.execute_script("localStorage.setItem(arguments[0], arguments[1])",
                          token_key(room.code), guest)
    screen.open("/")
    wait(screen, lambda: found(screen, f"your-game-{room.code}"), "Sam's room in the list")
    (entry,) = found(screen, f"your-game-{room.code}")
    assert entry.tag_name == "a" and entry.get_attribute("href").endswith(f"/room/{room.code}")
    assert entry.rect["height"] >= 44 and entry.rect["width"] >= 44
    mark = entry.find_element(By.CSS_SELECTOR, '[data-testid="your-turn"]')
    assert mark.is_displayed() and mark.text == "Your turn"
    assert entry.text.startswith("Your turn")
    clock = entry.find_element(By.CSS_SELECTOR, '[data-testid="game-clock"]')
    first = clock.text
    assert re.fullmatch(r"1 h 00 min|59:[0-5]\d", first), first  # as the server drew it
    wait(screen, lambda: clock.text not in ("1 h 00 min", first), "the clock to count down")
    assert clock.get_attribute("aria-label") == "About 60 minutes left"
    assert found(screen, "resume")  # Resume goes on working beside the list
    errors = [e for e in driver.get_log("browser") if e.get("level") in ("SEVERE", "ERROR")]
    assert errors == [], errors
