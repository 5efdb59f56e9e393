"""Your turn, across games, with NiceGUI's simulated users (no browser): the home page lists
this browser's games in progress (its local game, its rooms in the lobby or playing) with
whose move it is, the time left on a turn clock and a "Your turn" mark where the move is
this browser's; My games marks the same; a table tells its tab once each time its viewer's
turn comes or passes (the title and the notification are the page script's:
``test_browser_your_turn``).

Dice seeds are fixed: with ``SEED_SOLO`` the person (Ruby) rolls the opening first against a
Sapphire computer; with ``SEED_ROOM`` the host (Ruby) rolls the opening first, then the
guest (Sapphire). The server's time of day is the test's (``app_wall``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest
from nicegui import ElementFilter, background_tasks, ui
from nicegui.testing import User
from room_helpers import SimulatedBrowser, click, create_room, shown, stop_computers, type_into
from test_turn_clocks_ui import FakeWall, clocked_room, game_of, ms
from ui_helpers import element, elements, settle, start_game, until

import components.table as table_module
from components.server import Server
from components.settings import Settings
from parcheesi.server.live import LiveGame

SEED_SOLO = 26
SEED_ROOM = 14
RUBY, SAPPHIRE = 0, 2


@pytest.fixture
def app_wall() -> FakeWall:
    return FakeWall()


@pytest.fixture
def seed(monkeypatch: pytest.MonkeyPatch):
    def use(value: int) -> None:
        monkeypatch.setattr("parcheesi.server.fairness.dice_seed", lambda secret, added: value)

    use(SEED_SOLO)
    return use


@pytest.fixture
async def host(app_server: Server, user: User, seed
               ) -> AsyncIterator[tuple[User, SimulatedBrowser]]:
    yield user, SimulatedBrowser(user)
    await stop_computers(app_server)


async def open_settled(user: User, path: str) -> None:
    """Open the page and wait for all it does once connected (reading the seat tokens)."""
    before = set(background_tasks.running_tasks)
    await user.open(path)
    await settle(before)


def inside(user: User, container: ui.element, testid: str) -> list[Any]:
    with user:
        return sorted((e for e in ElementFilter(local_scope=False).within(instance=container)
                       if e.props.get("data-testid") == testid), key=lambda e: e.id)


def texts_in(user: User, container: ui.element) -> list[str]:
    """The texts of the labels in ``container``, in the page's order."""
    with user:
        return [str(e.text) for e in sorted(
            ElementFilter(kind=ui.label, local_scope=False).within(instance=container),
            key=lambda e: e.id)]


def marked(user: User, container: ui.element) -> bool:
    marks = inside(user, container, "your-turn")
    assert len(marks) <= 1
    return bool(marks) and marks[0].text == "Your turn"


async def home_entry(user: User, key: str) -> ui.element:
    """The home page's entry of a game of this browser (``local`` or a room's code)."""
    await open_settled(user, "/")
    await shown(user, "your-games")
    entry = element(user, f"your-game-{key}")
    assert isinstance(entry, ui.link)
    return entry


def to_play(user: User, container: ui.element, testid: str) -> str:
    (line,) = inside(user, container, testid)
    return str(line.text)


async def act_for(game: LiveGame, colour: int) -> None:
    """The seat ``colour`` makes its decision (the computers' easy choice) through the live
    game, as its table or the computers' task would."""
    assert game.turn == colour
    computer = not game.seat_to_act().is_human
    for action in game.rules.decide(game.state, "easy").actions:
        await game.act(action, version=game.version, computer=computer)


async def test_a_local_game_is_marked_your_turn_while_a_person_of_this_device_is_to_move(
        app_server: Server, host: tuple[User, SimulatedBrowser]) -> None:
    user, _ = host
    game = await start_game(app_server, user)
    await stop_computers(app_server)  # Sapphire, a computer, waits when its turn comes
    assert game.turn == RUBY

    entry = await home_entry(user, "local")
    assert entry.props["href"] == "/play"
    assert elements(user, "resume")  # the Resume button is still there
    assert marked(user, entry)
    assert texts_in(user, entry)[:3] == ["Your turn", "Parcheesi · On this device",
                                         "Ruby to play"]  # the mark begins the link's name
    assert to_play(user, entry, "game-to-play") == "Ruby to play"
    assert inside(user, entry, "game-clock") == []  # no clock on a local game

    await open_settled(user, "/games")
    listed = element(user, f"game-{game.id}")
    assert marked(user, listed) and to_play(user, listed, "game-standing") == "Ruby to play"

    await act_for(game, RUBY)  # Ruby's opening roll: Sapphire, the computer, to roll
    entry = await home_entry(user, "local")
    assert not marked(user, entry)
    assert to_play(user, entry, "game-to-play") == "Sapphire to play"
    await open_settled(user, "/games")
    listed = element(user, f"game-{game.id}")
    assert not marked(user, listed)
    assert to_play(user, listed, "game-standing") == "Sapphire to play"


async def test_an_online_room_is_marked_for_the_browser_whose_seat_is_to_move(
        app_server: Server, host: tuple[User, SimulatedBrowser], create_user, seed) -> None:
    hana, hana_browser = host
    seed(SEED_ROOM)
    code = await create_room(hana, hana_browser, name="Hana", invited=["sapphire"],
                             computers={}, count=2)
    sam = create_user()
    sam_browser = SimulatedBrowser(sam)
    stranger = create_user()
    SimulatedBrowser(stranger)

    # In the lobby: listed for both seats, with what the start waits for; no turn yet.
    entry = await home_entry(hana, code)
    assert entry.props["href"] == f"/room/{code}" and not marked(hana, entry)
    assert to_play(hana, entry, "game-to-play") == (
        "In the lobby. Waiting for Sapphire to be taken.")
    await sam.open(f"/r/{code}")
    await type_into(sam, "guest-name", "Sam")
    await click(sam, "claim-seat-sapphire")
    await click(sam, "ready")
    entry = await home_entry(sam, code)
    assert to_play(sam, entry, "game-to-play") == "In the lobby. Waiting for the start."
    await hana.open(f"/room/{code}")
    await until(lambda: bool(elements(hana, "start-game")) and element(
        hana, "start-game").enabled, "the host may start")
    await click(hana, "start-game")
    game = await game_of(app_server, code)
    await sam.open(f"/room/{code}")  # Sam's table opens: the game is in Sam's My games
    await shown(sam, "turn")
    assert game.turn == RUBY

    # Hana's move: marked for Hana's browser only.
    entry = await home_entry(hana, code)
    assert marked(hana, entry) and to_play(hana, entry, "game-to-play") == "Hana to play"
    entry = await home_entry(sam, code)
    assert not marked(sam, entry) and to_play(sam, entry, "game-to-play") == "Hana to play"
    await open_settled(stranger, "/")
    assert elements(stranger, "your-games") == []  # no seat, no list

    room = await app_server.rooms.get(code)
    assert room is not None
    token = hana_browser.seat_token(code)
    for action in game.rules.decide(game.state, "easy").actions:  # Hana's opening roll
        await app_server.rooms.act(room, token, action, game.version)
    assert game.turn == SAPPHIRE

    # Sam's move now: marked for Sam's browser only, on the home page and in My games.
    entry = await home_entry(sam, code)
    assert marked(sam, entry) and to_play(sam, entry, "game-to-play") == "Sam to play"
    entry = await home_entry(hana, code)
    assert not marked(hana, entry) and to_play(hana, entry, "game-to-play") == "Sam to play"
    assert sam_browser.seat_token(code)
    await open_settled(sam, "/games")
    listed = element(sam, f"game-{game.id}")
    assert marked(sam, listed) and to_play(sam, listed, "game-standing") == "Sam to play"
    own_machine, app_server.host_addresses = app_server.host_addresses, ()
    try:  # as a phone on the network, Hana's browser lists only its own games
        await open_settled(hana, "/games")
    finally:
        app_server.host_addresses = own_machine
    listed = element(hana, f"game-{game.id}")
    assert not marked(hana, listed) and to_play(hana, listed, "game-standing") == "Sam to play"


def listed(user: User, code: str) -> tuple[str, bool]:
    """What the open home page of ``user`` says of room ``code`` now: its line and its mark
    (the list is drawn anew on every change, so its entry is looked up each time)."""
    found = elements(user, f"your-game-{code}")
    if len(found) != 1:
        return "", False
    lines = inside(user, found[0], "game-to-play")
    return (str(lines[0].text) if lines else ""), marked(user, found[0])


async def test_an_open_home_page_follows_its_rooms_lobby_start_and_turn(
        app_server: Server, host: tuple[User, SimulatedBrowser], create_user, seed) -> None:
    """Nobody reloads: a seat taken and readied in the lobby shows on the host's open home
    page, and the start and the turn passing show on the guest's."""
    hana, hana_browser = host
    seed(SEED_ROOM)
    code = await create_room(hana, hana_browser, name="Hana", invited=["sapphire"],
                             computers={}, count=2)
    sam = create_user()
    SimulatedBrowser(sam)
    await home_entry(hana, code)
    assert listed(hana, code) == ("In the lobby. Waiting for Sapphire to be taken.", False)

    await sam.open(f"/r/{code}")
    await type_into(sam, "guest-name", "Sam")
    await click(sam, "claim-seat-sapphire")
    await until(lambda: listed(hana, code) == ("In the lobby. Waiting for Sam to be ready.",
                                               False), "the seat taken, on Hana's home page")
    await click(sam, "ready")
    await until(lambda: listed(hana, code) == (
        "In the lobby. Everyone is ready: you may start.", False), "Sam ready, on Hana's")

    await home_entry(sam, code)
    assert listed(sam, code) == ("In the lobby. Waiting for the start.", False)
    room = await app_server.rooms.get(code)
    assert room is not None
    token = hana_browser.seat_token(code)
    game = await app_server.rooms.start(room, token)
    await until(lambda: listed(sam, code) == ("Hana to play", False), "the start, on Sam's")
    for action in game.rules.decide(game.state, "easy").actions:  # Hana's opening roll
        await app_server.rooms.act(room, token, action, game.version)
    assert game.turn == SAPPHIRE
    await until(lambda: listed(sam, code) == ("Sam to play", True), "Sam's turn, on Sam's")
    # One follower a page, however often it was drawn: Hana's and Sam's
    assert len(app_server.rooms.followers[code]) == 2


async def test_a_clocked_room_says_how_long_is_left_from_its_stored_deadline(
        app_server: Server, host: tuple[User, SimulatedBrowser], app_wall: FakeWall) -> None:
    user, browser = host
    code = await clocked_room(user, browser, 3600)
    await click(user, "start-game")
    game = await game_of(app_server, code)
    await until(lambda: game.turn == RUBY and game.deadline is not None, "Hana's move")
    await stop_computers(app_server)
    deadline = game.deadline
    assert deadline == app_wall() + timedelta(hours=1)

    entry = await home_entry(user, code)
    assert marked(user, entry) and to_play(user, entry, "game-to-play") == "Hana to play"
    (clock,) = inside(user, entry, "game-clock")
    assert clock.props["role"] == "timer"
    assert (clock.props["data-deadline"], clock.props["data-sent"]) == (ms(deadline),
                                                                        ms(app_wall()))
    assert clock.text == "1 h 00 min"
    assert "·" in texts_in(user, entry) and "left" in texts_in(user, entry)

    app_wall.now += timedelta(minutes=30, seconds=1)
    entry = await home_entry(user, code)
    (clock,) = inside(user, entry, "game-clock")
    assert clock.text == "29:59" and clock.props["data-sent"] == ms(app_wall())
    assert clock.props["data-deadline"] == ms(deadline)

    await open_settled(user, "/games")
    (clock,) = inside(user, element(user, f"game-{game.id}"), "game-clock")
    assert (clock.props["data-deadline"], clock.text) == (ms(deadline), "29:59")


async def test_the_table_tells_its_tab_once_each_time_the_turn_comes_or_passes(
        app_server: Server, host: tuple[User, SimulatedBrowser],
        monkeypatch: pytest.MonkeyPatch) -> None:
    user, _ = host
    told: list[tuple[bool, str, bool]] = []
    monkeypatch.setattr(table_module, "tell_turn", lambda client, yours, words, notify:
                        told.append((yours, words, notify)))
    assert Settings({}).notify_turn is False  # off unless switched on
    game = await start_game(app_server, user)
    words = "Parcheesi on this device: Ruby to play"
    assert told == [(True, words, False)]  # the opening roll is Ruby's

    await click(user, "settings")
    (switch,) = elements(user, "setting-notify")
    assert switch.value is False and "notify-setting" in switch.parent_slot.parent.classes
    await click(user, "setting-notify")
    await click(user, "settings-close")
    await click(user, "hint")  # redraws, the turn stays
    assert told == [(True, words, False)]

    await stop_computers(app_server)
    await click(user, "roll")  # Ruby's opening roll: Sapphire, a computer, to roll
    assert game.turn == SAPPHIRE
    assert told == [(True, words, False), (False, "Parcheesi on this device: Sapphire to play",
                                           True)]
    await act_for(game, SAPPHIRE)  # Ruby won the opening: Ruby's turn again
    await until(lambda: len(told) == 3, "the turn to come back")
    assert told[2] == (True, words, True)
