"""Turn clocks as people see them, with NiceGUI's simulated users (no browser): the setup
form offers the clock for online rooms, the lobby says it, the badge of the seat to act
carries its deadline for the page's countdown, and the table says when a computer moved for
a player whose time ran out. The server's time of day is the test's (``app_wall``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from nicegui.testing import User
from room_helpers import SimulatedBrowser, choose, click, shown, stop_computers, text_is, type_into
from ui_helpers import element, elements, until

from components.badges import CLOCK_SCRIPT
from components.lobby import TOKEN_PREFIX
from components.server import Server
from parcheesi.server.clocks import TURN_CLOCKS
from parcheesi.server.live import LiveGame

RUBY, SAPPHIRE = 0, 2


class FakeWall:
    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def app_wall() -> FakeWall:
    return FakeWall()


@pytest.fixture
async def host(app_server: Server, user: User) -> AsyncIterator[tuple[User, SimulatedBrowser]]:
    yield user, SimulatedBrowser(user)
    await stop_computers(app_server)


def ms(moment: datetime) -> str:
    return str(round(moment.timestamp() * 1000))


async def clocked_room(user: User, browser: SimulatedBrowser, clock: int,
                       stand_in: str = "medium") -> str:
    """Hana hosts Ruby against a Sapphire computer, with the turn clock ``clock`` and the
    stand-in computer ``stand_in``."""
    await user.open("/new")
    for mode in ("solo", "same_device"):
        await choose(user, "mode", mode)
        assert elements(user, "turn-clock") == []  # local games have no clock
    await choose(user, "mode", "online")
    await choose(user, "player-count", 2)
    offered = await shown(user, "turn-clock")
    assert offered.options == TURN_CLOCKS and offered.value == 0
    await type_into(user, "name-ruby", "Hana")
    await choose(user, "kind-sapphire", "computer")
    await choose(user, "turn-clock", clock)
    stand_in_choice = await shown(user, "stand-in")
    assert list(stand_in_choice.options) == ["easy", "medium", "hard", "expert"]
    assert stand_in_choice.value == "medium"
    await choose(user, "stand-in", stand_in)
    await click(user, "start-game")
    await shown(user, "room-code")
    (code,) = [key.removeprefix(TOKEN_PREFIX) for key in browser.local_storage]
    return code


async def game_of(server: Server, code: str) -> LiveGame:
    room = await server.rooms.get(code)
    assert room is not None
    game = await server.rooms.game(room)
    assert game is not None
    return game


async def test_the_setup_form_offers_the_clock_for_online_rooms_and_the_lobby_shows_it(
        app_server: Server, host: tuple[User, SimulatedBrowser]) -> None:
    user, browser = host
    code = await clocked_room(user, browser, 120, stand_in="hard")
    await text_is(user, "room-clock", "Turn clock: 2 minutes a move, then a hard computer moves")
    room = await app_server.rooms.get(code)
    assert room is not None and room.clock == 120 and room.stand_in == "hard"
    row = await app_server.store.room(code)
    assert row is not None and row.clock == 120 and row.stand_in == "hard"


async def test_the_badge_counts_down_to_the_stored_deadline_and_the_table_says_a_timeout(
        app_server: Server, host: tuple[User, SimulatedBrowser], app_wall: FakeWall) -> None:
    user, browser = host
    code = await clocked_room(user, browser, 30)
    await click(user, "start-game")
    game = await game_of(app_server, code)
    await until(lambda: game.turn == RUBY and game.deadline is not None, "Hana's move")
    deadline = game.deadline
    assert deadline == app_wall() + timedelta(seconds=30)
    await until(lambda: element(user, "clock-ruby").props.get("data-deadline") == ms(deadline),
                "Ruby's badge to carry the deadline")
    badge = element(user, "clock-ruby")
    assert badge.props["data-sent"] == ms(app_wall()) and badge.props["role"] == "timer"
    assert elements(user, "clock-sapphire") == []  # a computer has no clock
    assert "on the clock" in element(user, "player-ruby").props["aria-label"]
    client = user.client
    assert client is not None and CLOCK_SCRIPT in client.head_html

    await stop_computers(app_server)  # Sapphire waits: what the table said stays on it
    app_server.watch.computers = lambda _: None  # (the watch would start them again)
    version = game.version
    app_wall.now += timedelta(seconds=30)
    assert await app_server.watch.expire_due() == 1
    await until(lambda: game.version > version, "the computer's move for Hana")
    said = "Time ran out: a computer moved for Hana"
    await until(lambda: str(element(user, "status").text).startswith(said), "the status")
    assert any(said in line for line in element(user, "log").lines)
    assert game.seats[RUBY].is_human and game.timed_out_in_a_row(RUBY) == 1


async def test_a_connected_guest_whose_time_ran_out_three_times_may_be_replaced_by_the_host(
        app_server: Server, host: tuple[User, SimulatedBrowser], create_user,
        app_wall: FakeWall) -> None:
    user, browser = host
    await user.open("/new")
    await choose(user, "mode", "online")
    await choose(user, "player-count", 2)
    await type_into(user, "name-ruby", "Hana")
    await choose(user, "kind-sapphire", "human")
    await choose(user, "turn-clock", 30)
    await click(user, "start-game")
    await shown(user, "room-code")
    (code,) = [key.removeprefix(TOKEN_PREFIX) for key in browser.local_storage]
    guest = create_user()
    SimulatedBrowser(guest)
    await guest.open(f"/r/{code}")
    await type_into(guest, "guest-name", "Sam")
    await click(guest, "claim-seat-sapphire")
    await click(guest, "ready")
    await until(lambda: bool(elements(user, "start-game")) and element(
        user, "start-game").enabled, "the host may start")
    await click(user, "start-game")
    await text_is(guest, "table-clock", "Turn clock: 30 seconds a move")
    game = await game_of(app_server, code)
    room = await app_server.rooms.get(code)
    assert room is not None
    token = browser.seat_token(code)
    while game.timed_out_in_a_row(SAPPHIRE) < 3:  # Sam is there, but never moves
        if game.turn == SAPPHIRE:
            app_wall.now += timedelta(seconds=30)
            assert await app_server.watch.expire_due() == 1
        else:  # Hana plays her own moves
            for action in game.rules.decide(game.state, "easy").actions:
                await app_server.rooms.act(room, token, action, game.version)
    assert room.connections.get(SAPPHIRE)  # still connected
    await user.open(f"/room/{code}")
    await click(user, "host-menu")
    await user.should_see("time ran out three moves in a row")
    await click(user, "replace-seat-sapphire")  # asks first; only the confirmation acts
    assert game.seats[SAPPHIRE].is_human
    await click(user, "replace-confirm")
    assert not game.seats[SAPPHIRE].is_human
