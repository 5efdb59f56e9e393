"""Online rooms as people use them: several simultaneous simulated users (NiceGUI ``user``).

Each test's server (``app.create_app``) has its own data directory and computer pace 0
(conftest). Each simulated user gets a ``SimulatedBrowser`` (its own localStorage, where the
room pages keep seat tokens). The server is built with a clock the test moves, so "away for
a minute" needs no real wait.

Dice seeds are fixed. ``SEED_4`` (Ruby, Emerald, Sapphire, Amber): the start rolls are 4+3,
6+4, 2+1 and 6+2, so Emerald begins with 2+5 (enter a piece, move it 2); Sapphire then rolls
4+4, 3+3 and 2+1 and cannot move; so does Amber (6+2). ``SEED_2`` (Ruby, Sapphire): Ruby rolls
2+5 and Sapphire 3+5 for the start; Sapphire begins with 5+4.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

import pytest
from nicegui import ElementFilter, background_tasks, ui
from nicegui.testing import User
from room_helpers import (
    SimulatedBrowser,
    click,
    create_room,
    drop_connection,
    enabled_now,
    forge_click,
    ids_starting,
    page_dump,
    restart_server,
    restore_connection,
    shown,
    stop_computers,
    text_is,
    type_into,
)
from ui_helpers import (
    element,
    elements,
    enabled,
    send_press,
    settle,
    text,
    two_step_moves,
    until,
)

from components.server import Server
from parcheesi.core.state import Phase
from parcheesi.games.parcheesi.ai import decide
from parcheesi.server.live import COMPUTER, STALE, LiveGame

SEED_4 = 63
SEED_2 = 14
RUBY, EMERALD, SAPPHIRE, AMBER = 0, 1, 2, 3
PLAY_BUTTONS = ("roll", "piece-1", "piece-2", "piece-3", "piece-4")


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Person:
    user: User
    browser: SimulatedBrowser


@pytest.fixture
def seed(monkeypatch: pytest.MonkeyPatch) -> Callable[[int], None]:
    def use(value: int) -> None:
        monkeypatch.setattr("parcheesi.server.fairness.dice_seed", lambda secret, added: value)

    use(SEED_4)
    return use


@pytest.fixture
def app_clock() -> FakeClock:
    """The clock the server's rooms measure absences and attempt windows with."""
    return FakeClock()


@pytest.fixture
def clock(app_clock: FakeClock) -> FakeClock:
    return app_clock


@pytest.fixture
async def people(app_server: Server, create_user: Callable[[], User], clock: FakeClock,
                 seed: object) -> AsyncIterator[Callable[[], Person]]:
    """New simulated people (each its own browser); the computers stop at the end."""

    def person() -> Person:
        user = create_user()
        return Person(user, SimulatedBrowser(user))

    yield person
    await stop_computers(app_server)


async def game_of(server: Server, code: str) -> LiveGame:
    room = await server.rooms.get(code)
    assert room is not None
    game = await server.rooms.game(room)
    assert game is not None
    return game


async def only_turn(everyone: list[Person], who: Person) -> None:
    """Only ``who`` may roll; nobody may choose a piece."""
    for person in everyone:
        await until(lambda p=person: enabled_now(p.user, "roll") == (p is who),
                    "the roll buttons to follow the turn")
        assert not any(enabled(person.user, b) for b in PLAY_BUTTONS[1:])


async def roll(person: Person, game: LiveGame) -> None:
    version = game.version
    await click(person.user, "roll")
    await until(lambda: game.version > version, "the roll to be accepted")


async def claim(person: Person, code: str, colour: str, name: str) -> None:
    await type_into(person.user, "guest-name", name)
    await click(person.user, f"claim-seat-{colour}")
    await person.user.should_see(f"{name} (you)")
    assert person.browser.seat_token(code)


async def open_dialog(user: User, button: str, dialog: str) -> None:
    """Press ``button`` and check that it opened ``dialog``."""
    await click(user, button)
    assert element(user, dialog).value, f"{button} did not open {dialog}"


async def replace_seat(user: User, colour: str) -> None:
    """The host replaces ``colour``'s player: the Host button, the seat's Replace, and the
    confirmation (only which acts)."""
    await open_dialog(user, "host-menu", "host-dialog")
    await open_dialog(user, f"replace-seat-{colour}", "replace-dialog")
    await click(user, "replace-confirm")
    assert not element(user, "replace-dialog").value


async def two_player_room(people: Callable[[], Person], seed: Callable[[int], None]
                          ) -> tuple[Person, Person, str]:
    """Hana hosts Ruby; Sam joins by the link, takes Sapphire and is ready; not started."""
    seed(SEED_2)
    host, guest = people(), people()
    code = await create_room(host.user, host.browser, name="Hana", invited=["sapphire"],
                             computers={}, count=2)
    await guest.user.open(f"/r/{code}")
    await claim(guest, code, "sapphire", "Sam")
    await click(guest.user, "ready")
    await until(lambda: enabled_now(host.user, "start-game"), "the host may start")
    return host, guest, code


async def test_the_lobby_says_whom_the_start_waits_for_and_watchers_only_watch(
        people, seed) -> None:
    seed(SEED_2)
    host, guest, watcher = people(), people(), people()
    code = await create_room(host.user, host.browser, name="Hana", invited=["sapphire"],
                             computers={}, count=2)
    await text_is(host.user, "start-waits-for", "Waiting for Sapphire to be taken.")
    await text_is(host.user, "room-clock", "No turn clock")  # "Turn clock: no turn clock"
    await guest.user.open(f"/r/{code}")
    await claim(guest, code, "sapphire", "Sam")
    await text_is(host.user, "start-waits-for", "Waiting for Sam to be ready.")
    assert not elements(guest.user, "guest-name")  # seated: no name to give any more
    await click(guest.user, "ready")
    await text_is(host.user, "start-waits-for", "")
    await watcher.user.open(f"/r/{code}")
    await shown(watcher.user, "watching")
    assert not elements(watcher.user, "guest-name")
    assert not ids_starting(watcher.user, "claim-seat-")


async def test_host_and_two_guests_fill_a_room_and_play_the_first_turns(
        app_server: Server, people) -> None:
    host, ana, ben = people(), people(), people()
    everyone = [host, ana, ben]
    code = await create_room(host.user, host.browser, name="Hana",
                             invited=["emerald", "sapphire"], computers={"amber": "easy"})

    # The host sees the code (easy to read aloud), the link (only the code in it) and its QR.
    assert text(host.user, "room-code") == f"{code[:4]} {code[4:]}"
    link = element(host.user, "invite-link")
    assert link.props["href"] == link.text == f"http://test/r/{code}"
    await shown(host.user, "invite-qr")
    await host.user.should_see("Hana (you), host")
    assert ids_starting(host.user, "claim-seat-") == set()
    assert not enabled(host.user, "start-game")

    # Ana follows the link; she may take an invited seat, not the host's nor the computer's.
    await ana.user.open(f"/r/{code}")
    await shown(ana.user, "room-code")
    assert ids_starting(ana.user, "claim-seat-") == {"claim-seat-emerald", "claim-seat-sapphire"}
    assert elements(ana.user, "ready") == [] and elements(ana.user, "start-game") == []
    await claim(ana, code, "emerald", "Ana")
    await host.user.should_see("Ana")  # live on the host's page
    await text_is(host.user, "seat-status-emerald", "not ready")

    # Ben types the code on the home page, in lower case and with a dash.
    await ben.user.open("/")
    await type_into(ben.user, "join-code", f"{code[:4]}-{code[4:]}".lower())
    await click(ben.user, "join")
    await shown(ben.user, "room-code")
    assert ids_starting(ben.user, "claim-seat-") == {"claim-seat-sapphire"}
    await claim(ben, code, "sapphire", "Ben")
    await ana.user.should_see("Ben")
    assert ids_starting(ana.user, "claim-seat-") == set()

    # Readiness changes live for the host, who can start once every invited seat is ready.
    await click(ana.user, "ready")
    await text_is(host.user, "seat-status-emerald", "ready")
    assert text(ana.user, "ready") == "Not ready"
    assert not enabled(host.user, "start-game")
    await ana.user.open(f"/room/{code}")  # reloading the lobby keeps her seat and readiness
    await ana.user.should_see("Ana (you)")
    await text_is(ana.user, "seat-status-emerald", "ready")
    await click(ben.user, "ready")
    await text_is(host.user, "seat-status-sapphire", "ready")
    await until(lambda: enabled_now(host.user, "start-game"), "the host may start")

    # No page shows anyone's seat token or browser id.
    hidden = [p.browser.seat_token(code) for p in everyone] + [p.browser.browser_id
                                                              for p in everyone]
    assert all(hidden)
    for person in everyone:
        dump = page_dump(person.user)
        assert code in dump
        assert not [s for s in hidden if s in dump]

    await click(host.user, "start-game")
    for person in everyone:
        await text_is(person.user, "turn", "Opening roll: Hana (Ruby)")
    game = await game_of(app_server, code)

    # The start rolls: each phone rolls for its own seat only, when it is its turn.
    await only_turn(everyone, host)
    await forge_click(ana.user, "roll")  # a tampered page: refused, nothing changes
    assert game.version == 0
    await roll(host, game)
    await only_turn(everyone, ana)
    await roll(ana, game)
    await only_turn(everyone, ben)
    await roll(ben, game)
    await until(lambda: game.state.phase is Phase.ROLL, "Amber, a computer, to roll")
    assert (game.version, game.state.turn) == (4, EMERALD)
    for person in everyone:
        await text_is(person.user, "turn", "Turn: Ana (Emerald)")
    await host.user.should_see("Ana starts")
    await only_turn(everyone, ana)

    # Ana's first turn: 2 and 5. Only her piece buttons work.
    await roll(ana, game)
    assert game.state.dice == (2, 5)
    await until(lambda: enabled_now(ana.user, "piece-1"), "Ana's pieces")
    for person in (host, ben):
        assert not any(enabled(person.user, b) for b in PLAY_BUTTONS)
    await forge_click(ben.user, "piece-1")
    assert elements(ben.user, "move-option") == []

    # Her phone reloads mid-turn: it gets the seat back.
    await ana.user.open(f"/room/{code}")
    await until(lambda: enabled_now(ana.user, "piece-1"), "Ana's pieces after the reload")
    await click(ana.user, "piece-1")  # Enter, its one move
    await until(lambda: game.state.pieces[EMERALD][0] == 0, "the piece to enter")
    await click(ana.user, "piece-1")  # Move 2, its one move now
    await until(lambda: game.state.turn == SAPPHIRE, "Ben's turn")
    assert game.state.pieces[EMERALD][0] == 2
    for person in everyone:
        await text_is(person.user, "turn", "Turn: Ben (Sapphire)")

    # Ben rolls doubles twice and cannot move; then Amber; then it is the host's turn.
    for dice in ((4, 4), (3, 3), (2, 1)):
        await only_turn(everyone, ben)
        await roll(ben, game)
        await host.user.should_see(f"Ben rolled {dice[0]} and {dice[1]}")
    await until(lambda: game.state.turn == RUBY, "Amber's turn to pass")
    await only_turn(everyone, host)
    await ana.user.should_see("Ben cannot move")
    assert game.version == 11
    for person in everyone:
        assert not [s for s in hidden if s in page_dump(person.user)]


async def test_unknown_codes_are_refused_clearly_and_guessing_is_limited(
        people, clock: FakeClock) -> None:
    guesser = people()
    await guesser.user.open("/room/ZZZZZZZZ")
    error = await shown(guesser.user, "room-error")
    assert error.text == "There is no room with that code. Check the code and try again."
    await guesser.user.open("/r/nope")
    await shown(guesser.user, "room-error")
    await guesser.user.open("/")
    for k in range(18):  # 20 attempts in all
        await type_into(guesser.user, "join-code", f"ZZZZ ZZ{k:02d}")
        await click(guesser.user, "join")
        await guesser.user.should_see("There is no room with that code")
    await click(guesser.user, "join")
    await guesser.user.should_see("Too many attempts. Please wait a minute and try again.")
    await guesser.user.open("/room/ZZZZZZZZ")
    await text_is(guesser.user, "room-error",
                  "Too many attempts. Please wait a minute and try again.")
    clock.now += 60
    await guesser.user.open("/room/ZZZZZZZZ")
    await text_is(guesser.user, "room-error",
                  "There is no room with that code. Check the code and try again.")


async def test_home_resume_offers_the_online_seat(people, seed) -> None:
    host, guest, code = await two_player_room(people, seed)
    await guest.user.open("/")
    await shown(guest.user, "resume")
    await click(guest.user, "resume")  # only the online seat: straight to the room
    await guest.user.should_see("Sam (you)")
    assert guest.user.back_history[-1] == f"/room/{code}"

    # With a local game on this device as well, Resume asks which.
    await guest.user.open("/new")
    await click(guest.user, "start-game")  # a solo game against computers
    await shown(guest.user, "turn")
    await guest.user.open("/")
    await shown(guest.user, f"resume-room-{code}")  # once the browser's seats have been read
    await click(guest.user, "resume")
    with guest.user:
        (asking,) = [d for d in ElementFilter(kind=ui.dialog, local_scope=False) if d.value]
    with guest.user:
        offered = {e.props.get("data-testid") for e in ElementFilter(kind=ui.button).within(
            instance=asking)}
    assert offered == {"resume-local", f"resume-room-{code}"}
    await guest.user.should_see("Which game do you want to continue?")
    await guest.user.should_see(f"Online room {code[:4]} {code[4:]}")  # as the lobby shows it
    await click(guest.user, f"resume-room-{code}")
    await guest.user.should_see("Sam (you)")

    # The host's browser holds a seat too (taken when the room was created).
    await host.user.open("/")
    await click(host.user, "resume")
    await host.user.should_see("Hana (you), host")

    # A browser without a seat gets no Resume.
    stranger = people()
    await stranger.user.open("/")
    await shown(stranger.user, "join-code")
    assert elements(stranger.user, "resume") == []


async def test_an_open_home_page_stops_offering_a_room_its_browser_left(
        app_server: Server, people, seed) -> None:
    """Resume offers the rooms "Your games" lists, as they change: nobody reloads."""
    _, guest, code = await two_player_room(people, seed)
    await guest.user.open("/")
    await shown(guest.user, f"your-game-{code}")
    assert elements(guest.user, "resume")
    room = await app_server.rooms.get(code)
    assert room is not None
    await app_server.rooms.leave(room, guest.browser.seat_token(code))  # from another tab
    await until(lambda: not elements(guest.user, f"your-game-{code}"), "the room gone")
    assert not elements(guest.user, "resume")


async def test_a_room_page_that_cannot_draw_its_game_says_so_and_draws_it_again(
        app_server: Server, people, seed, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """The game starts while the host's page cannot reach the database for a moment: the
    page says so instead of staying empty, and Try again draws the table."""
    host, guest, _ = await two_player_room(people, seed)
    took_part = app_server.store.took_part
    failing = [host.browser.browser_id]

    async def flaky(game_id: str, browser: str) -> None:
        if browser in failing:
            failing.remove(browser)
            raise OSError("the database is out of reach")
        await took_part(game_id, browser)

    monkeypatch.setattr(app_server.store, "took_part", flaky)
    await click(host.user, "start-game")
    await text_is(guest.user, "turn", "Opening roll: Hana (Ruby)")
    await text_is(host.user, "room-error", "This table could not be shown just now.")
    assert [r.message for r in caplog.records if r.levelname == "ERROR"] == [
        "a room's page could not be drawn"]
    caplog.clear()  # the one error this test expects
    await click(host.user, "room-retry")
    await text_is(host.user, "turn", "Opening roll: Hana (Ruby)")
    assert not elements(host.user, "room-error")


async def test_a_room_page_that_goes_while_its_table_is_drawn_leaves_nothing_behind(
        app_server: Server, people, seed, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """The host's page goes (a reload, a closed tab) while the game that starts is being
    drawn for it: nothing is drawn on the page that went (NiceGUI warned "Client has been
    deleted but is still being used") and no table of it follows the game."""
    host, guest, _ = await two_player_room(people, seed)
    took_part = app_server.store.took_part
    page = host.user.client
    assert page is not None

    async def going(game_id: str, browser: str) -> None:
        if browser == host.browser.browser_id:
            page.delete()
        await took_part(game_id, browser)

    monkeypatch.setattr(app_server.store, "took_part", going)
    await click(host.user, "start-game")
    await text_is(guest.user, "turn", "Opening roll: Hana (Ruby)")
    room = next(iter(app_server.rooms.rooms.values()))
    game = await app_server.rooms.game(room)
    assert game is not None
    await until(lambda: len(game.listeners) == 1, "the guest's table only")
    assert not [r for r in caplog.records if "deleted" in r.getMessage()]


async def test_a_phone_that_loses_its_connection_keeps_its_seat_and_the_room(
        app_server: Server, people, clock: FakeClock) -> None:
    host, ana, ben = people(), people(), people()
    code = await create_room(host.user, host.browser, name="Hana",
                             invited=["emerald", "sapphire"], computers={}, count=3)
    await ana.user.open(f"/r/{code}")
    await claim(ana, code, "emerald", "Ana")
    await click(ana.user, "ready")
    room = await app_server.rooms.get(code)
    assert room is not None

    document = drop_connection(ana.user)  # her phone sleeps for a few seconds ...
    await ben.user.open(f"/r/{code}")
    await claim(ben, code, "sapphire", "Ben")
    await restore_connection(ana.user, document)  # ... and wakes up on the same page
    await ana.user.should_see("Ben")
    await click(ben.user, "ready")
    await text_is(ana.user, "seat-status-sapphire", "ready")

    await until(lambda: enabled_now(host.user, "start-game"), "the host may start")
    await click(host.user, "start-game")
    await text_is(ana.user, "turn", "Opening roll: Hana (Ruby)")  # the page followed the room
    clock.now += 120
    assert app_server.rooms.absent_for(room, EMERALD) == 0  # she is connected: not replaceable
    assert app_server.rooms.replaceable(room) == []
    drop_connection(ana.user)
    clock.now += 60
    assert app_server.rooms.replaceable(room) == [EMERALD]


async def test_a_phone_that_loses_its_connection_sees_the_moves_made_meanwhile(
        app_server: Server, people, seed) -> None:
    """Fails at present: ``TableView`` (components/table.py) stops listening to the game on
    the first dropped socket (``client.on_disconnect``) and never listens again when the
    same page reconnects, so the phone's table freezes until it is reloaded."""
    host, guest, code = await two_player_room(people, seed)
    await click(host.user, "start-game")
    await text_is(guest.user, "turn", "Opening roll: Hana (Ruby)")
    game = await game_of(app_server, code)

    document = drop_connection(guest.user)  # the phone sleeps for a few seconds
    await roll(host, game)
    await restore_connection(guest.user, document)  # and wakes up on the same page
    await text_is(guest.user, "turn", "Opening roll: Sam (Sapphire)")
    await until(lambda: enabled_now(guest.user, "roll"), "Sam's roll button")
    await roll(guest, game)
    await text_is(host.user, "turn", "Turn: Sam (Sapphire)")


async def test_the_host_replaces_a_guest_gone_for_a_minute(
        app_server: Server, people, seed, clock) -> None:
    host, guest, code = await two_player_room(people, seed)
    await click(host.user, "start-game")
    await text_is(guest.user, "turn", "Opening roll: Hana (Ruby)")
    game = await game_of(app_server, code)
    await roll(host, game)
    await text_is(guest.user, "turn", "Opening roll: Sam (Sapphire)")

    drop_connection(guest.user)  # Sam leaves and does not come back
    clock.now += 59
    await host.user.open(f"/room/{code}")
    await shown(host.user, "turn")
    assert elements(host.user, "host-count") == []  # nobody to replace yet
    await open_dialog(host.user, "host-menu", "host-dialog")
    assert ids_starting(host.user, "replace-seat-") == set()
    await host.user.should_see("Everyone is here.")
    clock.now += 1
    await host.user.open(f"/room/{code}")
    await text_is(host.user, "host-count", "1")  # the Host button says someone is away
    assert element(host.user, "host-menu").props["aria-label"] == (
        "Host tools: 1 player may be replaced")
    await open_dialog(host.user, "host-menu", "host-dialog")
    await host.user.should_see("away for 1 min")
    # Replacing asks first; Cancel leaves Sam his seat.
    await open_dialog(host.user, "replace-seat-sapphire", "replace-dialog")
    await text_is(host.user, "replace-question", "Replace Sam with a medium computer? Sam can "
                  "no longer play this seat in this game.")
    await click(host.user, "replace-cancel")
    assert not element(host.user, "replace-dialog").value
    assert game.seats[SAPPHIRE].is_human
    await replace_seat(host.user, "sapphire")
    assert game.seats[SAPPHIRE].kind == COMPUTER
    # The computer plays Sapphire (start roll, then 5+4: enter, move) until Ruby's turn.
    await until(lambda: game.state.turn == RUBY and game.state.phase is Phase.ROLL,
                "the computer to play Sapphire's turn")
    assert game.version == 5 and game.state.pieces[SAPPHIRE][0] == 4
    await text_is(host.user, "turn", "Turn: Hana (Ruby)")
    assert enabled(host.user, "roll")
    assert ids_starting(host.user, "replace-seat-") == set()

    # Sam's browser comes back later: the seat is no longer his, he is told why and watches.
    await guest.user.open(f"/room/{code}")
    await guest.user.should_see("The host gave your seat (Sapphire) to a computer")
    assert not any(enabled(guest.user, b) for b in PLAY_BUTTONS)


async def test_after_a_restart_everyone_gets_their_seat_and_the_game_back(
        app_server: Server, people, seed) -> None:
    host, guest, code = await two_player_room(people, seed)
    await click(host.user, "start-game")
    game = await game_of(app_server, code)
    await text_is(guest.user, "turn", "Opening roll: Hana (Ruby)")
    await roll(host, game)
    await roll(guest, game)
    await roll(guest, game)  # Sapphire begins: 5 and 4
    assert game.version == 3 and game.state.phase is Phase.MOVE

    store = await restart_server(app_server)
    try:
        await guest.user.open(f"/room/{code}")  # the phones reconnect
        await host.user.open(f"/room/{code}")
        again = await game_of(app_server, code)
        assert again is not game
        assert (again.version, again.state) == (3, game.state)
        for person in (host, guest):
            await text_is(person.user, "turn", "Turn: Sam (Sapphire)")
        await until(lambda: enabled_now(guest.user, "piece-1"), "Sam's pieces")
        assert not any(enabled(host.user, b) for b in PLAY_BUTTONS)
        await click(guest.user, "piece-1")  # Enter, its one move
        await click(guest.user, "piece-1")  # Move 4, its one move now
        await text_is(host.user, "turn", "Turn: Hana (Ruby)")
        assert again.version == 5 and again.state.pieces[SAPPHIRE][0] == 4
        await until(lambda: enabled_now(host.user, "roll"), "Hana's roll")
    finally:
        await stop_computers(app_server)
        await store.close()


async def test_a_finished_room_plays_again_with_the_same_seats(
        app_server: Server, people, seed) -> None:
    host, guest, code = await two_player_room(people, seed)
    await click(host.user, "start-game")
    game = await game_of(app_server, code)
    room = await app_server.rooms.get(code)
    assert room is not None
    tokens = {RUBY: host.browser.seat_token(code), SAPPHIRE: guest.browser.seat_token(code)}
    while not game.over:  # both phones play quick "easy" moves to the end
        for action in decide(game.state, "easy").actions:
            await app_server.rooms.act(room, tokens[game.state.turn], action, game.version)
    winner = game.name_of(game.state.winner)
    for person in (host, guest):
        await text_is(person.user, "turn", f"{winner} won")
        await shown(person.user, "winner")

    await click(guest.user, "play-again")  # only the host may start the next game
    await guest.user.should_see("Only the host can do that.")
    assert room.game_id == game.id
    assert elements(host.user, "leave-room") == []  # the host keeps the room
    await click(host.user, "play-again")
    for person in (host, guest):  # the next seat begins this game's opening roll
        await text_is(person.user, "turn", "Opening roll: Sam (Sapphire)")
    again = await game_of(app_server, code)
    assert again.id != game.id and room.status == "playing"
    assert host.browser.seat_token(code) == tokens[RUBY]
    await roll(guest, again)
    await until(lambda: enabled_now(host.user, "roll"), "Hana's start roll")


async def finish_by_hand(server: Server, code: str, people: dict[int, Person]) -> LiveGame:
    """Both phones play quick "easy" moves (through the room, as their pages would) to the
    end of the room's game."""
    game = await game_of(server, code)
    room = await server.rooms.get(code)
    assert room is not None
    tokens = {colour: p.browser.seat_token(code) for colour, p in people.items()}
    while not game.over:
        for action in decide(game.state, "easy").actions:
            await server.rooms.act(room, tokens[game.state.turn], action, game.version)
    return game


async def test_a_guest_leaves_from_the_finish_and_someone_new_takes_the_seat(
        app_server: Server, people, seed) -> None:
    host, guest, code = await two_player_room(people, seed)
    await click(host.user, "start-game")
    await shown(guest.user, "seat-menu")
    game = await finish_by_hand(app_server, code, {RUBY: host, SAPPHIRE: guest})
    await shown(guest.user, "winner")
    await click(guest.user, "leave-room")
    await until(lambda: guest.browser.seat_token(code) is None, "the seat's key forgotten")
    await shown(guest.user, "new-game")  # back on the home page
    room = await app_server.rooms.get(code)
    assert room is not None and not room.seats[SAPPHIRE].claimed

    await click(host.user, "play-again")  # a seat is free: the lobby opens again
    await shown(host.user, "room-code")
    await until(lambda: not enabled_now(host.user, "start-game"), "the start to wait")
    newcomer = people()
    await newcomer.user.open(f"/r/{code}")
    await claim(newcomer, code, "sapphire", "Kim")
    await click(newcomer.user, "ready")
    await until(lambda: enabled_now(host.user, "start-game"), "the host may start")
    await click(host.user, "start-game")
    for person in (host, newcomer):
        await text_is(person.user, "turn", "Opening roll: Kim (Sapphire)")
    assert (await game_of(app_server, code)).id != game.id

    await guest.user.open(f"/room/{code}")  # Sam's old link: he only watches now
    await guest.user.should_see("You are watching this room")


async def test_a_player_lets_a_computer_play_their_seat_and_takes_it_back(
        app_server: Server, people, seed) -> None:
    host, guest, code = await two_player_room(people, seed)
    await click(host.user, "start-game")
    game = await game_of(app_server, code)
    await click(guest.user, "seat-menu")  # on the turn line, in a menu of its own
    await click(guest.user, "hand-over-seat")
    await text_is(guest.user, "seat-away", "A medium computer is playing your seat.")
    assert not game.seats[SAPPHIRE].is_human
    await roll(host, game)  # Hana's opening roll; Sam's stand-in rolls and plays on
    await until(lambda: game.turn == RUBY and game.version > 1 and game.seats[RUBY].is_human,
                "the stand-in to play Sapphire up to Hana's turn")
    assert not enabled_now(guest.user, "roll")
    await click(guest.user, "take-back-seat")
    await shown(guest.user, "seat-menu")
    assert game.seats[SAPPHIRE].is_human
    room = await app_server.rooms.get(code)
    assert room is not None and not room.seats[SAPPHIRE].away
    while game.turn == RUBY and not game.over:  # Hana plays; then it is Sam's own turn
        for action in decide(game.state, "easy").actions:
            await app_server.rooms.act(room, host.browser.seat_token(code), action,
                                       game.version)
    await until(lambda: enabled_now(guest.user, "roll") == (game.turn == SAPPHIRE),
                "Sam's own roll")


def on_the_turn_line(user: User, testid: str) -> bool:
    """Whether ``testid`` is drawn on the table's turn line (above the badges and the board),
    not below the table."""
    return any("turn-row" in ancestor.classes for ancestor in element(user, testid).ancestors())


async def test_the_host_and_seat_tools_are_on_the_turn_line_and_only_the_host_s_for_the_host(
        people, seed) -> None:
    host, guest, code = await two_player_room(people, seed)
    await click(host.user, "start-game")
    watcher = people()
    await watcher.user.open(f"/room/{code}")
    await shown(watcher.user, "turn")
    for testid in ("reactions", "host-menu", "seat-menu"):
        assert on_the_turn_line(host.user, testid), testid
    for testid in ("reactions", "seat-menu"):
        assert on_the_turn_line(guest.user, testid), testid
    assert elements(guest.user, "host-menu") == []
    for testid in ("reactions", "host-menu", "seat-menu"):  # a watcher only watches
        assert elements(watcher.user, testid, visible=False) == [], testid


# --- presses that race -----------------------------------------------------------------------


async def press_together(*presses: tuple[Person, str, str | None]) -> None:
    """Several presses sent at the same moment, each with the stamp given (None: the one
    its control shows now), as phones whose frames cross on the network."""
    before = set(background_tasks.running_tasks)
    for person, testid, stamp in presses:
        target = element(person.user, testid)
        shown_stamp = target.props.get("data-stamp")
        send_press(person.user, target, shown_stamp if stamp is None else stamp)
    await settle(before)


async def test_two_tabs_of_one_seat_pressing_together_make_one_action(
        app_server: Server, people, seed) -> None:
    host, _, code = await two_player_room(people, seed)
    await click(host.user, "start-game")
    game = await game_of(app_server, code)
    twin = people()  # a second tab holding the host's seat
    twin.browser.local_storage.update(host.browser.local_storage)
    await twin.user.open(f"/room/{code}")
    await until(lambda: enabled_now(twin.user, "roll") is True, "the twin tab may roll")
    await press_together((host, "roll", None), (twin, "roll", None), (host, "roll", None))
    assert game.version == 1
    statuses = [text(host.user, "status"), text(twin.user, "status")]
    assert STALE in statuses, statuses
    assert not any(s[:1].islower() for s in statuses), statuses  # no engine text


async def test_a_press_sent_before_it_was_your_turn_never_plays_for_you(
        app_server: Server, people, seed) -> None:
    host, guest, code = await two_player_room(people, seed)
    await click(host.user, "start-game")
    game = await game_of(app_server, code)
    early = element(guest.user, "roll").props["data-stamp"]  # drawn on the host's turn
    await press_together((host, "roll", None), (guest, "roll", early))
    assert game.version == 1 and game.state.turn == SAPPHIRE  # the guest's turn now ...
    await until(lambda: enabled_now(guest.user, "roll") is True, "the guest may roll")
    await press_together((guest, "roll", early))  # ... and the old press, replayed, is stale
    assert game.version == 1 and game.state.turn == SAPPHIRE
    assert text(guest.user, "status") == STALE
    await click(guest.user, "roll")  # what the guest sees now is what counts
    assert game.version == 2


async def test_a_double_tap_on_a_move_option_moves_once(app_server: Server, people, seed) -> None:
    host, guest, code = await two_player_room(people, seed)
    await click(host.user, "start-game")
    game = await game_of(app_server, code)
    tokens = {RUBY: host, SAPPHIRE: guest}
    while game.state.phase is not Phase.MOVE:  # the opening rolls and the first roll
        await click(tokens[game.state.turn].user, "roll")
    mover = tokens[game.state.turn]
    await two_step_moves(mover.user)  # a tap on the piece shows its options
    piece = next(k for k in range(1, 5) if enabled(mover.user, f"piece-{k}"))
    await click(mover.user, f"piece-{piece}")
    version = game.version
    await press_together((mover, "move-option", None), (mover, "move-option", None))
    assert game.version == version + 1
    assert [a["type"] for a in (await game.store.actions(game.id))[version:]] == ["move"]


async def test_presses_without_a_stamp_this_table_drew_change_nothing(
        app_server: Server, people, seed) -> None:
    host, _, code = await two_player_room(people, seed)
    await click(host.user, "start-game")
    game = await game_of(app_server, code)
    for forged in (None, "", "7", "0.x", "-1.0", "0.0.0", "1" * 40, 0, [0], {"stamp": "0.0"}):
        target = element(host.user, "roll")
        before = set(background_tasks.running_tasks)
        send_press(host.user, target, forged)
        await settle(before)
        assert game.version == 0, forged
    assert text(host.user, "status") == "That press was not understood. Please try again."
    await click(host.user, "roll")
    assert game.version == 1


async def test_the_lobby_gives_a_seat_handed_to_a_computer_back(
        app_server: Server, people, seed) -> None:
    host, guest, code = await two_player_room(people, seed)
    await click(host.user, "start-game")
    await click(host.user, "seat-menu")
    await click(host.user, "hand-over-seat")  # Hana lets a computer play her seat
    await shown(host.user, "take-back-seat")
    game = await game_of(app_server, code)
    room = await app_server.rooms.get(code)
    assert room is not None
    token = guest.browser.seat_token(code)
    while not game.over:  # Sam plays; the stand-in plays for Hana
        if game.seat_to_act().is_human:
            for action in decide(game.state, "easy").actions:
                await app_server.rooms.act(room, token, action, game.version)
        else:
            version = game.version
            await until(lambda v=version: game.version > v or game.over, "the stand-in")
    await click(guest.user, "leave-room")
    await shown(guest.user, "new-game")
    await click(host.user, "play-again")  # Sam's seat is free: the lobby again
    await host.user.should_see("Medium computer, playing for Hana (you)")
    await click(host.user, "take-back-seat")
    await host.user.should_see("Hana (you), host")
    assert room.seats[RUBY].kind == "human" and not room.seats[RUBY].away


# --- reactions and presence --------------------------------------------------------------------


def reactions_shown(user: User) -> list[str]:
    """The reactions on the user's screen now, oldest first."""
    return [str(item.text) for item in elements(user, "reaction")]


async def test_a_reaction_shows_on_every_table_and_the_tv_for_a_few_seconds(
        people, seed, clock: FakeClock) -> None:
    host, guest, code = await two_player_room(people, seed)
    await click(host.user, "start-game")
    watcher, tv = people(), people()
    await watcher.user.open(f"/room/{code}")
    await tv.user.open(f"/tv/{code}")
    for person in (host, guest, watcher):
        await text_is(person.user, "turn", "Opening roll: Hana (Ruby)")
    await text_is(tv.user, "turn", "Opening roll: Hana (Ruby)")
    everyone = (host, guest, watcher, tv)
    assert elements(watcher.user, "reactions", visible=False) == []  # no seat, no picker

    # The button opens its menu in the browser (Quasar); here the menu's choices are pressed.
    assert [text(guest.user, f"reaction-{k}") for k in range(6)] == [
        "👍", "Nice capture!", "Oops", "Well played", "Hurry up", "😂"]
    await click(guest.user, "reaction-1")
    assert not element(guest.user, "reactions-menu").value
    for person in everyone:
        await until(lambda p=person: reactions_shown(p.user) == ["Sam: Nice capture!"],
                    "Sam's reaction on every screen")

    # At once again: "Slow down" to Sam, nothing new on anyone's screen.
    await click(guest.user, "reaction-4")
    await guest.user.should_see("Slow down")
    assert all(reactions_shown(p.user) == ["Sam: Nice capture!"] for p in everyone)

    clock.now += 3  # three seconds later it is gone everywhere
    for person in everyone:
        await until(lambda p=person: reactions_shown(p.user) == [], "the reaction to go")
    await click(host.user, "reaction-3")
    for person in everyone:
        await until(lambda p=person: reactions_shown(p.user) == ["Hana: Well played"],
                    "Hana's reaction")


async def test_the_table_says_when_the_player_to_act_is_away(
        app_server: Server, people, seed) -> None:
    host, guest, code = await two_player_room(people, seed)
    await click(host.user, "start-game")
    game = await game_of(app_server, code)
    await text_is(guest.user, "turn", "Opening roll: Hana (Ruby)")
    await roll(host, game)  # Sam's opening roll now
    said = "Hana rolled 2 and 5 for the start"
    await text_is(host.user, "status", said)
    document = drop_connection(guest.user)  # Sam's phone sleeps
    await text_is(host.user, "status", "Sam is away: waiting for them")
    await restore_connection(guest.user, document)
    await text_is(host.user, "status", said)
    await roll(guest, game)
    drop_connection(host.user)  # not Hana's move yet: nobody waits for her
    await until(lambda: text(guest.user, "status") != "", "Sam's table to say something")
    assert "away" not in text(guest.user, "status")
