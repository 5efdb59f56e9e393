"""A 30-second room in two real browsers: the guest does nothing on their move, the
server's stand-in computer moves for them when the time runs out, both tables say so, and
the guest then plays their next move themselves.

The server's time of day is the test's (``app_wall``): the 30 seconds pass when the test
moves it on, and the clock watch is woken as a real deadline would wake it. The dice seed
is fixed (as in ``test_rooms_browser``): Ruby (the host) rolls 2+5 and Sapphire 3+5 for the
start, so Sapphire begins with 5+4.
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
from conftest import on_server_loop, start_chromium
from nicegui.testing import Screen
from selenium import webdriver
from selenium.webdriver.common.by import By
from test_rooms_browser import Phone, invite_sapphire

from components.server import Server

SEED = 14
TIMED_OUT = "Time ran out: a computer moved for Sam"


class FakeWall:
    """The server's time of day, moved on by the test (from its own thread)."""

    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
        self.lock = threading.Lock()

    def __call__(self) -> datetime:
        with self.lock:
            return self.now

    def advance(self, seconds: float) -> None:
        with self.lock:
            self.now += timedelta(seconds=seconds)


@pytest.fixture
def app_wall() -> FakeWall:
    return FakeWall()


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("parcheesi.server.fairness.dice_seed", lambda secret, added: SEED)


async def wake(server: Server) -> None:
    """What the deadline itself would do: wake the server's clock watch."""
    server.watch.wake.set()


@pytest.mark.browser
def test_a_guest_who_lets_the_time_run_out_sees_the_computer_move_then_plays_on(
        screen: Screen, nicegui_chrome_options: webdriver.ChromeOptions,
        app_wall: FakeWall) -> None:
    server: Server = screen.app_server  # type: ignore[attr-defined]
    screen.selenium.set_window_size(390, 844)
    host = invite_sapphire(screen)
    host.click("turn-clock")
    screen.selenium.find_element(
        By.XPATH, "//div[contains(@class, 'q-item')][normalize-space(.)='30 seconds']").click()
    host.click("start-game")
    host.wait(lambda: host.all("room-code"), "the room")
    code = host.text("room-code").replace(" ", "")
    assert "30 seconds a move" in host.text("room-clock")

    guest = Phone(start_chromium(nicegui_chrome_options))
    try:
        guest.driver.set_window_size(390, 844)
        guest.driver.get(f"http://localhost:{Screen.PORT}/r/{code}")
        guest.type("guest-name", "Sam")
        guest.click("claim-seat-sapphire")
        guest.wait(lambda: "Sam (you)" in guest.page_text(), "Sam's seat")
        guest.click("ready")
        host.click("start-game")
        host.click("roll")  # Hana's opening roll, in time
        guest.shows("turn", "Opening roll: Sam (Sapphire)")
        guest.wait(lambda: guest.text("clock-sapphire") in ("0:30", "0:29", "0:28"),
                   "Sam's badge to count down (from the server's time, not the phone's)")

        app_wall.advance(29)  # Sam does nothing; a second before the end nothing happens
        on_server_loop(wake(server))
        on_server_loop(server.watch.expire_due())
        assert guest.text("turn") == "Opening roll: Sam (Sapphire)"
        app_wall.advance(1)
        on_server_loop(wake(server))
        for phone in (host, guest):
            phone.wait(lambda p=phone: p.text("status").startswith(TIMED_OUT),
                       "the table to say the computer moved for Sam")
            phone.wait(lambda p=phone: TIMED_OUT in p.text("log"), "the log to keep it")
            phone.shows("turn", "Turn: Sam (Sapphire)")  # his 3+5 beat her 2+5

        # The seat is still Sam's: he plays his next move himself, with the whole 30 s.
        guest.wait(lambda: guest.enabled("roll"), "Sam's own roll")
        guest.play_first_move("by 4")
        for phone in (host, guest):
            phone.shows("turn", "Turn: Hana (Ruby)")
        assert "Sam moved piece 1 by 4" in host.text("log")
        game = on_server_loop(server.rooms.game(on_server_loop(server.rooms.get(code))))
        assert game is not None and game.timed_out_in_a_row(2) == 0
        errors = [entry for entry in guest.driver.get_log("browser")
                  if entry.get("level") in ("SEVERE", "ERROR")]
        assert errors == [], errors
    finally:
        guest.driver.quit()
