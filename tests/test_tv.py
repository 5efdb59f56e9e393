"""The TV view of an online room (``/tv/<code>``): the lobby's and the table's link to it, a
clear message for a code that names no room, a TV that only watches (no controls, no seat,
no computers playing for it), and, in Chromium at 1920 x 1080, a TV that follows every move
within a second and goes on to the next game after Play again (within a second too; the
room's first game, the first board that browser draws, has a few seconds). The browser test
acts through the service on the server's own loop (``conftest.on_server_loop``), as the
players' pages would, so one browser is enough.

Dice seeds are fixed (Ruby and Sapphire): Ruby (Hana) rolls 2+5 and Sapphire (Sam) 3+5 for
the start, so Sapphire begins with 5+4 and enters a piece. Waiting is on conditions only.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

import pytest
from conftest import PHONE_VIEWPORT, TV_VIEWPORT, on_server_loop
from nicegui.testing import Screen, User
from room_helpers import (
    SimulatedBrowser,
    click,
    create_room,
    drop_connection,
    restore_connection,
    shown,
    stop_computers,
    text_is,
)
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait
from ui_helpers import board, element, elements, text, until

from components.lobby import qr_svg
from components.meter import percent, words
from components.server import Server
from parcheesi.games.parcheesi.ai import decide
from parcheesi.server.live import HUMAN, LiveGame, Seat
from parcheesi.server.rooms import Room

SEED = 14
RUBY, SAPPHIRE = 0, 2
FOLLOW = 1.0
"""Seconds within which a TV shows what was just played."""
CONTROLS = ("roll", "piece-1", "hint", "play-best", "move-option", "guest-name", "ready",
            "start-game", "claim-seat-sapphire", "settings", "play-again")


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("parcheesi.server.fairness.dice_seed", lambda secret, added: SEED)


@dataclass
class Person:
    user: User
    browser: SimulatedBrowser


@pytest.fixture
async def people(app_server: Server, create_user: Callable[[], User]
                 ) -> AsyncIterator[Callable[[], Person]]:
    def person() -> Person:
        user = create_user()
        return Person(user, SimulatedBrowser(user))

    yield person
    await stop_computers(app_server)


async def room_game(server: Server, code: str) -> tuple[Room, LiveGame]:
    room = await server.rooms.get(code)
    assert room is not None
    game = await server.rooms.game(room)
    assert game is not None
    return room, game


def no_controls(user: User) -> bool:
    return not any(elements(user, testid, visible=False) for testid in CONTROLS)


# --- simulated browsers ----------------------------------------------------------------------


async def test_the_lobby_and_the_table_link_to_the_tv_view_and_a_tv_only_watches(
        app_server: Server, people) -> None:
    host, tv = people(), people()
    code = await create_room(host.user, host.browser, name="Hana", invited=[],
                             computers={"sapphire": "easy"}, count=2)
    link = await shown(host.user, "tv-link")
    assert link.props["href"].endswith(f"/tv/{code}")
    assert "QR code of the TV view" in (await shown(host.user, "tv-qr")).content
    await tv.user.open(f"/tv/{code}")
    await shown(tv.user, "tv-waiting")
    assert text(tv.user, "room-code") == f"{code[:4]} {code[4:]}"

    await click(host.user, "start-game")  # the TV follows the room into its game
    await text_is(tv.user, "turn", "Opening roll: Hana (Ruby)")
    assert (await shown(host.user, "tv-link")).props["href"] == f"/tv/{code}"
    assert no_controls(tv.user) and board(tv.user) is not None
    assert text(tv.user, "tv-last-move") == ""

    # Nobody's seat: with the host's phone away the TV alone does not make Sapphire play.
    room, game = await room_game(app_server, code)
    away = drop_connection(host.user)
    token = host.browser.seat_token(code)
    await app_server.rooms.act(room, token, decide(game.state, "easy").actions[0], 0)
    await text_is(tv.user, "tv-last-move", "Hana rolled 2 and 5 for the start")
    assert not game.present() and game.version == 1
    for _ in range(50):  # the computers' task gets every chance to run; it must not play
        await asyncio.sleep(0)
    assert game.version == 1
    await restore_connection(host.user, away)  # the host is back: Sapphire plays at once
    await until(lambda: game.version > 1 and game.seat_to_act().is_human, "Sapphire's turn")
    await text_is(tv.user, "turn", "Turn: Hana (Ruby)")
    assert text(tv.user, "tv-last-move") == "Sapphire moved piece 1 by 4"
    assert no_controls(tv.user)
    # The meter: each player's chance to win, as the learned evaluation sees the position.
    chances = game.win_chances()
    assert chances is not None and set(chances) == {0, 2}
    meter = element(tv.user, "win-chances")
    assert meter.props["aria-label"] == words(chances, game.rules.colours)
    assert meter.props["aria-label"].startswith("Chances to win: Ruby ")
    for colour, name in ((0, "ruby"), (2, "sapphire")):
        part = element(tv.user, f"win-chance-{name}")
        assert part.style["flex-basis"] == f"{percent(chances[colour])}%"


async def test_the_tv_shows_the_room_code_and_the_qr_code_of_its_join_link(
        app_server: Server, people) -> None:
    host, tv = people(), people()
    code = await create_room(host.user, host.browser, name="Hana", invited=["sapphire"],
                             computers={}, count=2)
    join = f"http://test/r/{code}"
    # The lobby's two QR codes each say what they open.
    assert text(host.user, "invite-qr-caption") == "Scan to join this room"
    assert text(host.user, "tv-qr-caption") == "Scan to open the TV view"

    await tv.user.open(f"/tv/{code}")  # the waiting room: large, in a corner
    await shown(tv.user, "tv-waiting")
    await shown_join(tv.user, code, join)
    assert "tv-join-large" in element(tv.user, "tv-join").classes

    room = await app_server.rooms.get(code)
    assert room is not None
    guest = await app_server.rooms.claim(room, SAPPHIRE, "Sam", "browser:sam")
    await app_server.rooms.set_ready(room, guest, True)
    await app_server.rooms.start(room, host.browser.seat_token(code))
    await text_is(tv.user, "turn", "Opening roll: Hana (Ruby)")  # the game: small, at the side
    await shown_join(tv.user, code, join)
    box = element(tv.user, "tv-join")
    assert "tv-join-large" not in box.classes
    assert any("tv-side" in a.classes for a in box.ancestors())  # beside the board, not on it


async def shown_join(user: User, code: str, join: str) -> None:
    """The TV's join box: the code as the lobby spaces it, the QR code of the join link
    (``/r/<code>``), and words saying what they are for."""
    assert (await shown(user, "tv-join-code")).text == f"{code[:4]} {code[4:]}"
    assert text(user, "tv-join-caption") == f"Join: scan or go to\n{join}"
    assert element(user, "tv-join-qr").content == qr_svg(
        join, "QR code of the room's join link", fit=True)


async def test_a_tv_of_an_unknown_room_says_so(people) -> None:
    tv = people()
    await tv.user.open("/tv/ABCD2345")
    await text_is(tv.user, "tv-error",
                  "There is no room with that code. Check the code and try again.")
    assert board(tv.user) is None and not elements(tv.user, "tv")


# --- Chromium --------------------------------------------------------------------------------


class Tv:
    """The TV's browser (the ``screen`` fixture's Chromium)."""

    def __init__(self, screen: Screen) -> None:
        self.driver = screen.selenium

    def all(self, testid: str) -> list[WebElement]:
        """The elements with this data-testid right now (no implicit wait)."""
        self.driver.implicitly_wait(0)
        try:
            return self.driver.find_elements(By.CSS_SELECTOR, f'[data-testid="{testid}"]')
        finally:
            self.driver.implicitly_wait(Screen.IMPLICIT_WAIT)

    def text(self, testid: str) -> str:
        found = self.all(testid)
        return found[0].text.strip() if found else ""

    def attribute(self, testid: str, name: str) -> str:
        found = self.all(testid)
        return (found[0].get_attribute(name) or "") if found else ""

    def wait(self, condition: Callable[[], bool], what: str, seconds: float) -> None:
        WebDriverWait(self.driver, max(seconds, 0.05), poll_frequency=0.02,
                      ignored_exceptions=(StaleElementReferenceException,)).until(
            lambda _: condition(), f"the TV to show {what} within {seconds:.2f} s")

    def follows(self, act: Callable[[], object], condition: Callable[[], bool],
                what: str) -> None:
        """``act`` (through the service), then the TV shows it within :data:`FOLLOW` s."""
        began = time.monotonic()
        act()
        self.wait(condition, what, FOLLOW - (time.monotonic() - began))


@pytest.mark.browser
def test_a_tv_at_1920x1080_follows_each_move_and_the_next_game(screen: Screen) -> None:
    server: Server = screen.app_server  # type: ignore[attr-defined]
    rooms = server.rooms
    tv = Tv(screen)
    driver = screen.selenium
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", TV_VIEWPORT)
    try:
        screen.open("/tv/ABCD2345")
        tv.wait(lambda: tv.text("tv-error").startswith("There is no room"), "the message", 5)

        async def make_room() -> tuple[Room, str, str]:
            room, host = await rooms.create([Seat(RUBY, HUMAN, name="Hana"),
                                             Seat(SAPPHIRE, HUMAN)])
            guest = await rooms.claim(room, SAPPHIRE, "Sam", "browser:sam")
            await rooms.set_ready(room, guest, True)
            return room, host, guest

        room, host, guest = on_server_loop(make_room())
        tokens = {RUBY: host, SAPPHIRE: guest}
        screen.open(f"/room/{room.code}")  # a watcher's lobby: every seat is taken
        tv.wait(lambda: bool(tv.attribute("tv-link", "href")), "the lobby's TV link", 5)
        assert driver.find_element(By.CSS_SELECTOR, '[data-testid="tv-qr"] svg').is_displayed()
        screen.open(urlsplit(tv.attribute("tv-link", "href")).path)
        tv.wait(lambda: bool(tv.text("tv-waiting")), "the waiting room", 5)

        on_server_loop(rooms.start(room, host))  # the first board this browser draws
        tv.wait(lambda: tv.text("turn") == "Opening roll: Hana (Ruby)", "the game", 5)
        game = on_server_loop(rooms.game(room))
        assert game is not None

        def play(moves: int = 1) -> None:
            async def acting() -> None:
                for _ in range(moves):
                    turn = game.state.turn
                    action = decide(game.state, "easy").actions[0]
                    await rooms.act(room, tokens[turn], action, game.version)
            on_server_loop(acting())

        tv.follows(play, lambda: tv.text("tv-last-move") == "Hana rolled 2 and 5 for the start",
                   "Hana's roll")
        tv.follows(lambda: play(2), lambda: tv.text("tv-last-move") == "Sam rolled 5 and 4",
                   "Sam's roll")
        assert tv.attribute("dice", "aria-label") == "Dice of Sam: 5 and 4"
        pieces = [f"board-piece-sapphire-{k}" for k in range(1, 5)]
        before = [tv.attribute(piece, "aria-label") for piece in pieces]
        assert all(label.endswith("in START") for label in before)
        tv.follows(play, lambda: [tv.attribute(p, "aria-label") for p in pieces] != before,
                   "Sam's piece entering on the board")
        assert tv.text("tv-last-move").startswith("Sam entered piece ")
        assert driver.execute_script(
            "return [document.documentElement.scrollWidth, document.documentElement"
            ".scrollHeight]") == [1920, 1080]
        assert not any(tv.all(testid) for testid in CONTROLS)

        async def to_the_end() -> None:
            while not game.over:
                for action in decide(game.state, "easy").actions:
                    await rooms.act(room, tokens[game.state.turn], action, game.version)
        on_server_loop(to_the_end())
        winner = game.name_of(game.rules.winner(game.state))
        tv.wait(lambda: tv.text("turn") == f"{winner} won", "the winner", 10)

        tv.follows(lambda: on_server_loop(rooms.play_again(room, host)),
                   lambda: (tv.text("turn"), tv.text("tv-last-move"))
                   == ("Opening roll: Sam (Sapphire)", ""), "the next game")
        again = on_server_loop(rooms.game(room))  # Sam begins its opening roll
        assert again is not None and again.id != game.id
        game = again
        tv.follows(play, lambda: tv.text("tv-last-move") == "Sam rolled 2 and 5 for the start",
                   "the next game's first roll")
    finally:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE_VIEWPORT)


@pytest.mark.browser
def test_a_ludo_rooms_tv_shows_each_players_chance_to_win(screen: Screen) -> None:
    """Ludo has a learned evaluation too: its room's TV view draws the meter, and the
    meter follows the chances as the game goes on."""
    server: Server = screen.app_server  # type: ignore[attr-defined]
    rooms = server.rooms
    tv = Tv(screen)
    screen.open("/tv/ABCD2345")  # the server's loop runs once a page is open
    tv.wait(lambda: tv.text("tv-error").startswith("There is no room"), "the message", 5)

    async def make_room() -> tuple[Room, dict[int, str]]:
        room, host = await rooms.create([Seat(0, HUMAN, name="Hana"), Seat(2, HUMAN)],
                                        kind="ludo")
        guest = await rooms.claim(room, 2, "Sam", "browser:sam")
        await rooms.set_ready(room, guest, True)
        await rooms.start(room, host)
        return room, {0: host, 2: guest}

    room, tokens = on_server_loop(make_room())
    screen.open(f"/tv/{room.code}")
    tv.wait(lambda: tv.text("turn").startswith("Opening roll"), "the Ludo game", 5)
    game = on_server_loop(rooms.game(room))
    assert game is not None and game.rules.kind == "ludo"
    assert game.win_chances() == {0: 0.5, 2: 0.5}  # before the opening roll: even
    tv.wait(lambda: tv.attribute("win-chances", "aria-label") == words(
        {0: 0.5, 2: 0.5}, game.rules.colours), "the even meter", 5)
    for name in ("red", "yellow"):
        part = tv.all(f"win-chance-{name}")
        assert part and part[0].is_displayed()

    async def act(actions: int) -> None:
        for _ in range(actions):
            action = game.rules.decide(game.state, "medium").actions[0]
            await rooms.act(room, tokens[game.state.turn], action, game.version)

    on_server_loop(act(40))
    chances = game.win_chances()
    assert chances is not None and chances[0] != 0.5
    tv.wait(lambda: tv.attribute("win-chances", "aria-label") == words(
        chances, game.rules.colours), "the meter after 40 actions", 5)
