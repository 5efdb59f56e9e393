"""A room's tools where people look, in headless Chromium: on a phone (390 x 844) the host's
*Host* button on the turn line above the badges, its dialog and the confirmation before a
replacement, the reactions menu (opened by Quasar in the page) and a reaction shown over the
table; on a TV (1920 x 1080) the room's code and join QR code in the side column's corner,
clear of the board and inside the screen, and a reaction shown large.

The room is made and played through the service on the server's own loop
(``conftest.on_server_loop``); the host's seat token is put in the browser's localStorage, as
the room page would have kept it. The rooms' clock is the test's, so "away for a minute"
needs no wait. Screenshots go to the test's temporary directory, or to the folder named by
``PARCHEESI_ROOM_SHOTS``.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from conftest import PHONE_VIEWPORT, TV_VIEWPORT, on_server_loop
from nicegui.testing import Screen
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

from components.lobby import TOKEN_PREFIX
from components.server import Server
from parcheesi.server.live import COMPUTER, HUMAN, Seat
from parcheesi.server.rooms import Room
from parcheesi.server.runner import ensure_runner

pytestmark = pytest.mark.browser

RUBY, EMERALD, SAPPHIRE, AMBER = 0, 1, 2, 3
WAIT = 10.0


class FakeClock:
    """The rooms' monotonic clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def app_clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("parcheesi.server.fairness.dice_seed", lambda secret, added: 14)


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("PARCHEESI_ROOM_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Page:
    """The browser, found by data-testid."""

    def __init__(self, screen: Screen) -> None:
        self.driver = screen.selenium

    def all(self, testid: str) -> list[WebElement]:
        self.driver.implicitly_wait(0)
        try:
            return self.driver.find_elements(By.CSS_SELECTOR, f'[data-testid="{testid}"]')
        finally:
            self.driver.implicitly_wait(Screen.IMPLICIT_WAIT)

    def visible(self, testid: str) -> bool:
        return any(found.is_displayed() for found in self.all(testid))

    def text(self, testid: str) -> str:
        found = [f for f in self.all(testid) if f.is_displayed()]
        return found[0].text.strip() if found else ""

    def wait(self, condition, what: str) -> None:
        WebDriverWait(self.driver, WAIT, poll_frequency=0.05,
                      ignored_exceptions=(StaleElementReferenceException,)).until(
            lambda _: condition(), f"waiting for {what}")

    def click(self, testid: str) -> None:
        self.wait(lambda: self.visible(testid), f"{testid} to show")
        next(f for f in self.all(testid) if f.is_displayed()).click()

    def box(self, testid: str) -> dict[str, float]:
        found = next(f for f in self.all(testid) if f.is_displayed())
        return self.driver.execute_script(
            "const r = arguments[0].getBoundingClientRect();"
            "return {left: r.left, top: r.top, right: r.right, bottom: r.bottom};", found)

    def still(self) -> None:
        """Wait until the menus and dialogs finished opening or closing (for a screenshot)."""
        self.wait(lambda: self.driver.execute_script(
            "return document.getAnimations().filter(a => a.effect && a.effect.target"
            " && a.effect.target.closest && a.effect.target.closest('.q-menu, .q-dialog'))"
            ".every(a => a.playState !== 'running')"), "the menus to stand still")

    def size(self) -> list[int]:
        return self.driver.execute_script(
            "return [document.documentElement.scrollWidth, "
            "document.documentElement.scrollHeight]")


def apart(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two boxes do not overlap."""
    return (a["right"] <= b["left"] or b["right"] <= a["left"] or a["bottom"] <= b["top"]
            or b["bottom"] <= a["top"])


def make_room(server: Server) -> tuple[Room, str, str]:
    """Hana hosts Ruby, Sam took Sapphire, two computers; the game has started."""

    async def making() -> tuple[Room, str, str]:
        rooms = server.rooms
        room, host = await rooms.create([
            Seat(RUBY, HUMAN, name="Hana"), Seat(EMERALD, COMPUTER, level="easy"),
            Seat(SAPPHIRE, HUMAN), Seat(AMBER, COMPUTER, level="easy")])
        guest = await rooms.claim(room, SAPPHIRE, "Sam", "browser:sam")
        await rooms.set_ready(room, guest, True)
        await rooms.start(room, host)
        return room, host, guest

    return on_server_loop(making())


def play(server: Server, room: Room, tokens: dict[int, str], actions: int) -> None:
    """Play ``actions`` more actions: the two people's through the service (easy moves), the
    computers' by their task (Sam's page counts as open)."""

    async def playing() -> None:
        rooms = server.rooms
        game = await rooms.game(room)
        assert game is not None
        rooms.connect(room, SAPPHIRE)
        ensure_runner(game, 0)
        target = game.version + actions
        async with asyncio.timeout(WAIT):
            while game.version < target and not game.over:
                if game.seat_to_act().is_human:
                    action = game.rules.decide(game.state, "easy").actions[0]
                    await rooms.act(room, tokens[game.turn], action, game.version)
                else:
                    await asyncio.sleep(0.01)

    on_server_loop(playing())


def react(server: Server, room: Room, token: str, index: int) -> None:
    async def reacting() -> None:
        server.rooms.react(room, token, index)

    on_server_loop(reacting())


def test_a_phone_s_host_tools_and_reactions_and_a_tv_s_join_box(
        screen: Screen, app_clock: FakeClock, shots: Path) -> None:
    server: Server = screen.app_server  # type: ignore[attr-defined]
    page = Page(screen)
    driver = screen.selenium
    screen.open("/")
    room, host, guest = make_room(server)
    driver.execute_script("localStorage.setItem(arguments[0], arguments[1])",
                          TOKEN_PREFIX + room.code, host)
    app_clock.now += 61  # Sam never came: the host may replace him
    screen.open(f"/room/{room.code}")
    page.wait(lambda: page.text("turn") == "Opening roll: Hana (Ruby)", "the table")

    # The Host button is on the turn line, above the badges, marked with one player away.
    page.wait(lambda: page.text("host-count") == "1", "the Host button's count")
    host_button, badge = page.box("host-menu"), page.box("player-ruby")
    assert host_button["bottom"] <= badge["top"] and host_button["right"] <= 390
    assert page.size()[0] == 390  # nothing wider than the phone
    page.click("host-menu")
    page.wait(lambda: page.visible("replace-seat-sapphire"), "the host's dialog")
    assert "away for 1 min" in page.text("host-dialog") or "away for 1 min" in \
        driver.find_element(By.TAG_NAME, "body").text
    page.still()
    driver.save_screenshot(str(shots / "phone-host-menu.png"))
    page.click("replace-seat-sapphire")
    page.wait(lambda: page.visible("replace-confirm"), "the confirmation")
    assert page.text("replace-question") == ("Replace Sam with a medium computer? Sam can no "
                                             "longer play this seat in this game.")
    page.still()
    driver.save_screenshot(str(shots / "phone-replace-confirm.png"))
    page.click("replace-cancel")
    page.wait(lambda: not page.visible("replace-confirm"), "the confirmation to close")
    assert room.seats[SAPPHIRE].kind == HUMAN
    page.click("host-close")
    page.wait(lambda: not page.visible("replace-seat-sapphire"), "the dialog to close")

    # The reactions: a menu the page opens itself; the choice shows over the table.
    page.click("reactions")
    page.wait(lambda: page.visible("reaction-1"), "the reactions menu")
    page.still()
    driver.save_screenshot(str(shots / "phone-reactions.png"))
    page.click("reaction-1")
    page.wait(lambda: page.text("reaction") == "Hana: Nice capture!", "Hana's reaction")
    page.still()
    driver.save_screenshot(str(shots / "phone-reaction-shown.png"))
    # it fades out over the time the server shows it for (two numbers that had to agree)
    assert driver.execute_script("return getComputedStyle(document.querySelector("
                                 "'[data-testid=reaction]')).animationDuration") == "3s"

    # The TV: the room code and the QR code of its join link in the side column's corner.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", TV_VIEWPORT)
    try:
        screen.open(f"/tv/{room.code}")
        page.wait(lambda: page.visible("tv-join"), "the TV's join box")
        code = f"{room.code[:4]} {room.code[4:]}"
        assert page.text("tv-join-code") == code
        assert page.text("tv-join-caption").startswith("Join: scan or go to\nhttp")
        play(server, room, {RUBY: host, SAPPHIRE: guest}, 30)  # dice, last move, a full log
        page.wait(lambda: page.text("tv-last-move") != "", "the TV to follow the game")
        join, board, qr = page.box("tv-join"), page.box("board"), page.box("tv-join-qr")
        assert apart(join, board)
        assert join["left"] >= 0 and join["right"] <= 1920 and join["bottom"] <= 1080
        assert qr["right"] - qr["left"] >= 160  # a phone reads it from a few steps away
        size = driver.execute_script("return parseFloat(getComputedStyle(arguments[0])"
                                     ".fontSize)", page.all("tv-join-code")[0])
        assert size >= 44  # the code reads across the room (4 % of the height)
        assert page.size() == [1920, 1080]
        react(server, room, guest, 0)
        page.wait(lambda: page.text("reaction") == "Sam: 👍", "Sam's reaction on the TV")
        driver.save_screenshot(str(shots / "tv-1920x1080.png"))

        # A room still in its lobby: the join box larger, in the corner, clear of the code.
        waiting, _ = on_server_loop(server.rooms.create([Seat(RUBY, HUMAN, name="Kim"),
                                                         Seat(SAPPHIRE, HUMAN)]))
        screen.open(f"/tv/{waiting.code}")
        page.wait(lambda: page.visible("tv-join"), "the waiting room's join box")
        join, code_box = page.box("tv-join"), page.box("room-code")
        assert apart(join, code_box) and join["bottom"] <= 1080 and join["right"] <= 1920
        assert page.box("tv-join-qr")["bottom"] - page.box("tv-join-qr")["top"] >= 300
        driver.save_screenshot(str(shots / "tv-lobby-1920x1080.png"))
    finally:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE_VIEWPORT)
    screen.open(f"/room/{waiting.code}")  # the lobby on a phone: each QR code captioned
    page.wait(lambda: page.visible("invite-qr-caption"), "the lobby")
    assert page.text("invite-qr-caption") == "Scan to join this room"
    assert page.text("tv-qr-caption") == "Scan to open the TV view"
    driver.save_screenshot(str(shots / "phone-lobby.png"))
    try:
        for width, height in ((390, 844), (320, 640)):
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                   {**PHONE_VIEWPORT, "width": width, "height": height})
            screen.open(f"/room/{waiting.code}")
            page.wait(lambda: page.visible("claim-seat-sapphire"), "the guest's lobby")
            assert lobby_misfits(page, width, height) == [], (width, height)
        driver.save_screenshot(str(shots / "phone-lobby-320.png"))
    finally:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE_VIEWPORT)


def lobby_misfits(page: Page, width: int, height: int) -> list[str]:
    """What is wrong with a guest's lobby on a phone: its two QR codes side by side, each
    drawn to its own box, and the open seat's button on the first screen."""
    invite, tv = page.box("invite-qr"), page.box("tv-qr")
    found = []
    if invite["top"] != tv["top"] or invite["right"] > tv["left"] or tv["right"] > width:
        found.append(f"QR codes not side by side: {invite} {tv}")
    for testid in ("invite-qr", "tv-qr"):
        box = page.box(testid)
        drawn = page.driver.execute_script(
            "return arguments[0].querySelector('svg').getBoundingClientRect().width",
            page.all(testid)[0])
        if abs(drawn - (box["right"] - box["left"])) > 0.5:
            found.append(f"{testid} drawn {drawn} px wide in a box of {box}")
    if page.box("claim-seat-sapphire")["bottom"] > height:
        found.append("the open seat below the first screen")
    return found
