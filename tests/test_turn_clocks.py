"""Turn clocks at the domain level: ``Rooms`` and ``Hub`` over a real ``Store`` (SQLite and
PostgreSQL), with the time of day injected (``FakeWall``), so no test waits for a clock.

A room is Hana (the host, Ruby) against Sam (Sapphire); the seat to act changes with the
dice, so the tests ask the game whose turn it is rather than assume it.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

import pytest

from parcheesi.server.clocks import TIMEOUTS_BEFORE_REPLACE, TURN_CLOCKS, ClockWatch, play_if_due
from parcheesi.server.live import (
    COMPUTER,
    HUMAN,
    Hub,
    LiveGame,
    Seat,
    TimedOut,
    same_move,
)
from parcheesi.server.rooms import Room, RoomError, Rooms
from parcheesi.server.runner import ensure_runner
from parcheesi.server.store import Store

RUBY, SAPPHIRE = 0, 2
HER = ("browser:her", "address:10.0.0.3")


class FakeWall:
    """The time of day, moved by the test."""

    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@dataclass
class Server:
    """One server process over the database: its store, hub, rooms and clock watch."""

    url: str
    wall: FakeWall
    store: Store
    hub: Hub
    rooms: Rooms
    watch: ClockWatch

    @classmethod
    async def start(cls, url: str, wall: FakeWall, migrated: bool = False) -> Server:
        """A server process; ``migrated``: the schema is current already (as the start-up
        check leaves it), so the store does not check it again."""
        store = Store(url)
        if migrated:
            store.migrated()
        await store.init()
        hub = Hub(store, time.monotonic, wall)
        return cls(url, wall, store, hub, Rooms(store, hub), ClockWatch(hub))

    async def stop(self) -> None:
        await drain()
        await self.store.close()

    async def restarted(self) -> Server:
        """Stop, then a new server process over the same database."""
        await self.stop()
        return await Server.start(self.url, self.wall, migrated=True)


async def drain() -> None:
    """Let the rooms' background saves finish."""
    others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    if others:
        await asyncio.wait(others, timeout=10)


@pytest.fixture
async def server(database_url: str):
    running = await Server.start(database_url, FakeWall())
    yield running
    await running.stop()


@dataclass
class Table:
    room: Room
    game: LiveGame
    tokens: dict[int, str]
    """Seat tokens by colour."""


async def clocked_room(server: Server, clock: int) -> Table:
    """Hana (Ruby, host) and Sam (Sapphire) in a room with a turn clock, game started."""
    room, host = await server.rooms.create(
        [Seat(RUBY, HUMAN, name="Hana"), Seat(SAPPHIRE, HUMAN)], clock=clock)
    guest = await server.rooms.claim(room, SAPPHIRE, "Sam", *HER)
    await server.rooms.set_ready(room, guest, True)
    game = await server.rooms.start(room, host)
    return Table(room, game, {RUBY: host, SAPPHIRE: guest})


async def one_decision(server: Server, table: Table) -> None:
    """The player to act makes one decision of their own (a roll, or the roll's moves), as
    a person would, through the room."""
    game = table.game
    decision = game.rules.decide(game.state, "easy")
    for action in decision.actions:
        await server.rooms.act(table.room, table.tokens[game.turn], action, game.version)


async def own_move(server: Server, table: Table) -> None:
    """The player to act makes their whole move: the roll and the roll's moves."""
    game = table.game
    mover = game.turn
    await one_decision(server, table)
    while not game.over and game.turn == mover and not game.rules.rolling(game.state):
        await one_decision(server, table)


async def stored_actions(server: Server, game: LiveGame) -> tuple[int, set[int]]:
    """How many actions the game's record has, and which of them timed out."""
    return len(await server.store.actions(game.id)), await server.store.timed_out_actions(
        game.id)


@pytest.mark.parametrize("clock", [30, 120, 3600, 86400])
async def test_each_clock_length_times_out_to_exactly_one_computer_move_on_the_right_seat(
        server: Server, clock: int) -> None:
    table = await clocked_room(server, clock)
    game, started = table.game, server.wall()
    seat = game.turn
    assert table.room.clock == game.turn_clock == clock
    assert game.deadline == started + timedelta(seconds=clock)
    row = await server.store.game(game.id)
    assert row is not None and row.clock == clock and row.deadline is not None

    server.wall.advance(clock - 1)  # a second left: nothing happens
    assert not await play_if_due(game) and game.version == 0
    server.wall.advance(1)
    heard: list[list[object]] = []
    game.subscribe(lambda _, events: heard.append(events))
    assert await play_if_due(game)
    assert game.version == 1  # the opening roll: one action
    assert heard[0][0] == TimedOut(seat)
    assert await stored_actions(server, game) == (1, {0})
    assert game.seats[seat].kind == HUMAN  # the seat stays the player's
    assert game.timed_out_in_a_row(seat) == 1
    assert game.deadline == server.wall() + timedelta(seconds=clock)
    assert not await play_if_due(game)  # the next move has its full time
    assert await stored_actions(server, game) == (1, {0})
    # The room's clock and the game's deadline are stored and read back.
    assert (await server.rooms._load(table.room.code)).clock == clock  # type: ignore[union-attr]


async def at_a_roll_of_several_moves(server: Server) -> Table:
    """A 30-second room played on until the computer's decision for a roll is several moves."""
    table = await clocked_room(server, 30)
    game = table.game
    for _ in range(400):
        if game.state.phase.name == "MOVE" and len(game.rules.decide(
                game.state, game.rules.default_level).actions) > 1:
            break
        await one_decision(server, table)
    return table


async def test_a_timed_out_roll_with_several_moves_is_played_whole_and_counted_once(
        server: Server) -> None:
    table = await at_a_roll_of_several_moves(server)
    game = table.game
    seat, version = game.turn, game.version
    planned = game.rules.decide(game.state, game.rules.default_level).actions
    server.wall.advance(30)
    assert await play_if_due(game)
    assert game.version == version + len(planned)
    assert game.timed_out_in_a_row(seat) == 1
    assert [type(e) for e in game.stats.recent].count(TimedOut) == 1
    _, timed = await stored_actions(server, game)
    assert timed == set(range(version, version + len(planned)))


async def test_a_timed_out_roll_is_played_with_its_moves_as_one_move(server: Server) -> None:
    table = await clocked_room(server, 30)
    game = table.game
    while game.state.phase.name != "ROLL" or game.turn != SAPPHIRE:
        await own_move(server, table)
    version, deadline = game.version, game.deadline
    assert deadline == server.wall() + timedelta(seconds=30)
    server.wall.advance(30)
    assert await play_if_due(game)
    # The roll, then every move of it, by the stand-in (none when the roll has none); then
    # the next move (the other seat's, or Sam's roll after doubles) has its whole time.
    assert not same_move(game.rules, SAPPHIRE, game.state)
    assert game.timed_out_in_a_row(SAPPHIRE) == 1
    assert game.deadline == server.wall() + timedelta(seconds=30)
    _, timed = await stored_actions(server, game)
    assert timed == set(range(version, game.version))


async def test_the_moves_of_a_roll_share_the_rolls_deadline(server: Server) -> None:
    table = await at_a_roll_of_several_moves(server)
    game = table.game
    seat, version, deadline = game.turn, game.version, game.deadline
    assert deadline is not None and deadline > server.wall()
    server.wall.advance(20)
    await server.rooms.act(table.room, table.tokens[seat],
                           game.rules.decide(game.state, "easy").actions[0], version)
    assert game.turn == seat and game.deadline == deadline  # no new time mid-roll
    server.wall.advance(10)
    assert await play_if_due(game)  # the rest of the roll, by the stand-in
    assert game.turn != seat or game.rules.rolling(game.state)
    assert game.timed_out_in_a_row(seat) == 1


async def test_the_stand_in_is_the_level_the_host_chose(
        server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(RoomError, match="Computers are"):
        await server.rooms.create([Seat(RUBY, HUMAN), Seat(SAPPHIRE, HUMAN)], clock=30,
                                  stand_in="grandmaster")
    room, host = await server.rooms.create([Seat(RUBY, HUMAN), Seat(SAPPHIRE, COMPUTER)],
                                           clock=30, stand_in="hard")
    game = await server.rooms.start(room, host)
    assert room.stand_in == game.stand_in == "hard"
    asked: list[str] = []
    decide = game.rules.decide
    monkeypatch.setattr(game, "rules", replace(
        game.rules, decide=lambda state, level: asked.append(level) or decide(state, level)))
    assert game.turn == RUBY  # the host's seat begins the opening roll
    server.wall.advance(30)
    assert await play_if_due(game)
    assert asked == ["hard"]
    reloaded = await server.restarted()
    try:
        again = await reloaded.rooms.get(room.code)
        assert again is not None and again.stand_in == "hard"
        assert (await reloaded.hub.get(game.id)).stand_in == "hard"  # type: ignore[union-attr]
    finally:
        server.store = reloaded.store


async def test_a_human_move_just_before_the_deadline_cancels_the_timeout(
        server: Server) -> None:
    table = await clocked_room(server, 120)
    game = table.game
    server.wall.advance(119.999)
    await own_move(server, table)  # in time
    version = game.version
    server.wall.advance(0.002)  # the first deadline has passed, the new one has not
    assert not await play_if_due(game)
    assert game.version == version and await stored_actions(server, game) == (version, set())

    # At the deadline, a person's move and the computer's race: exactly one is played.
    server.wall.advance(120)
    seat = game.turn
    action = game.rules.decide(game.state, "easy").actions[0]
    results = await asyncio.gather(
        server.rooms.act(table.room, table.tokens[seat], action, game.version),
        play_if_due(game), return_exceptions=True)
    assert game.version == version + 1
    assert await stored_actions(server, game) in ((version + 1, set()),
                                                  (version + 1, {version}))
    timed_out = results[1] is True
    assert isinstance(results[0], Exception) == timed_out


async def test_three_timeouts_in_a_row_offer_the_seat_for_replacement(server: Server) -> None:
    table = await clocked_room(server, 30)
    game, room, rooms = table.game, table.room, server.rooms
    rooms.connect(room, SAPPHIRE)  # Sam is connected all along: only his clock runs out
    rooms.connect(room, RUBY)
    counts = []
    while game.timed_out_in_a_row(SAPPHIRE) < TIMEOUTS_BEFORE_REPLACE:
        assert rooms.replaceable(room) == []
        if game.turn == SAPPHIRE:
            server.wall.advance(30)
            assert await play_if_due(game)
            counts.append(game.timed_out_in_a_row(SAPPHIRE))
        else:
            await own_move(server, table)  # Hana plays her own moves
    assert counts == [1, 2, 3]
    assert rooms.replaceable(room) == [SAPPHIRE]
    assert game.timed_out_in_a_row(RUBY) == 0
    with pytest.raises(RoomError, match="Only the host"):
        await rooms.replace(room, table.tokens[SAPPHIRE], SAPPHIRE, "easy")
    await rooms.replace(room, table.tokens[RUBY], SAPPHIRE, "hard")
    assert game.seats[SAPPHIRE].kind == COMPUTER and game.timeouts == {}
    if game.turn == SAPPHIRE:
        assert game.deadline is None
    row = await server.store.game(game.id)
    assert row is not None and row.timeouts == "{}"


async def test_a_seats_own_move_sets_its_timeouts_in_a_row_back_to_none(
        server: Server) -> None:
    table = await clocked_room(server, 30)
    game = table.game
    while game.timed_out_in_a_row(SAPPHIRE) < 2:
        if game.turn == SAPPHIRE:
            server.wall.advance(30)
            await play_if_due(game)
        else:
            await own_move(server, table)
    while game.turn != SAPPHIRE:
        await own_move(server, table)
    await own_move(server, table)  # Sam is back in time
    assert game.timed_out_in_a_row(SAPPHIRE) == 0
    assert server.rooms.replaceable(table.room) == []
    row = await server.store.game(game.id)
    assert row is not None and "2" not in row.timeouts  # stored with the move


async def test_a_deadline_that_passed_during_a_restart_is_played_once_on_start(
        server: Server) -> None:
    first = await clocked_room(server, 3600)
    server.wall.advance(60)
    second = await clocked_room(server, 3600)
    ids = [first.game.id, second.game.id]
    seats = [first.game.turn, second.game.turn]

    server.wall.advance(3 * 86400)  # the server is down for three days
    again = await server.restarted()
    try:
        assert [g for g, _ in await again.store.due(again.wall())] == ids  # earliest deadline first
        assert await again.watch.expire_due() == 2
        assert await again.watch.expire_due() == 0  # once: the next moves have their hour
        for game_id, seat in zip(ids, seats, strict=True):
            game = again.hub.games[game_id]
            assert game.version == 1 and game.timed_out_in_a_row(seat) == 1
            assert game.deadline == again.wall() + timedelta(hours=1)
            assert await stored_actions(again, game) == (1, {0})
        rows = [await again.store.game(game_id) for game_id in ids]
        assert rows[0].updated_at <= rows[1].updated_at  # type: ignore[union-attr]

        # Another restart: the log still says why the computer moved, nothing is replayed.
        third = await again.restarted()
        try:
            game = await third.hub.get(ids[0])
            assert game is not None and TimedOut(seats[0]) in game.stats.recent
            assert await third.watch.expire_due() == 0 and game.version == 1
        finally:
            again = third
    finally:
        server.store = again.store  # the fixture closes the newest store


async def test_two_racing_timeout_tasks_play_once(server: Server) -> None:
    table = await clocked_room(server, 30)
    server.wall.advance(30)
    results = await asyncio.gather(play_if_due(table.game), play_if_due(table.game))
    assert sorted(results) == [False, True]
    assert await stored_actions(server, table.game) == (1, {0})

    # Two server processes over one database, each with the game in memory, both late.
    other = await Server.start(server.url, server.wall)
    try:
        theirs = await other.hub.get(table.game.id)
        assert theirs is not None and theirs.version == 1
        server.wall.advance(30)
        results = await asyncio.gather(server.watch.expire_due(), other.watch.expire_due())
        assert sum(results) == 1
        assert await stored_actions(server, table.game) == (2, {0, 1})
    finally:
        await other.stop()


async def test_the_watch_plays_a_move_when_its_time_comes(server: Server) -> None:
    table = await clocked_room(server, 30)
    task = asyncio.create_task(server.watch.run())
    try:
        await asyncio.sleep(0.05)
        assert table.game.version == 0  # time left: the watch sleeps
        server.wall.advance(30)
        server.watch.wake.set()  # (a real clock would wake it at the deadline)
        async with asyncio.timeout(10):
            while table.game.version == 0:
                await asyncio.sleep(0.01)
        assert await stored_actions(server, table.game) == (1, {0})
    finally:
        task.cancel()


async def test_rooms_offer_the_clocks_of_the_issue_and_no_other(server: Server) -> None:
    assert list(TURN_CLOCKS) == [0, 30, 120, 3600, 86400]
    with pytest.raises(RoomError) as refused:
        await server.rooms.create([Seat(RUBY, HUMAN)], clock=45)
    assert str(refused.value) == "A turn clock is off, 30 seconds, 2 minutes, 1 hour or 1 day."
    room, host = await server.rooms.create([Seat(RUBY, HUMAN), Seat(SAPPHIRE, COMPUTER)])
    assert room.clock == 0
    game = await server.rooms.start(room, host)
    assert game.deadline is None  # no clock: the table waits as long as it takes
    server.wall.advance(10 * 86400)
    assert not await play_if_due(game) and await server.watch.expire_due() == 0


async def test_a_one_day_clock_plays_forty_moves_over_forty_days_restarted_between_each(
        server: Server) -> None:
    """A slow game: each day the server starts afresh; on most days the player to act lets
    the day run out (the watch moves for them at start), on every third day they are back in
    time and move themselves. Every move is in the record exactly once."""
    table = await clocked_room(server, 86400)
    code, game_id = table.room.code, table.game.id
    running = server
    timed: set[int] = set()
    own = timeouts = 0
    try:
        for day in range(40):
            running = await running.restarted()
            room = await running.rooms.get(code)
            assert room is not None and room.clock == 86400
            game = await running.rooms.game(room)
            assert game is not None and not game.over
            before = game.version
            if day % 3 == 2:  # back after half a day, in time
                running.wall.advance(43200)
                assert await running.watch.expire_due() == 0
                await own_move(running, Table(room, game, table.tokens))
                own += game.version - before
            else:  # the day runs out while nobody looks; the start plays it
                running.wall.advance(86400)
                assert await running.watch.expire_due() == 1
                timed |= set(range(before, game.version))
                timeouts += 1
            assert game.version > before
            assert game.deadline == running.wall() + timedelta(days=1)
        running = await running.restarted()
        game = await running.hub.get(game_id)
        assert game is not None
        count, stored_timed = await stored_actions(running, game)
        assert count == game.version == len(timed) + own
        assert stored_timed == timed and timeouts == 27
        assert game.state == game.rules.state_from_json(
            json.loads((await running.store.game(game_id)).state))  # type: ignore[union-attr]
        if len(game.stats.recent) < game.stats.recent.maxlen:  # type: ignore[operator]
            assert sum(isinstance(e, TimedOut) for e in game.stats.recent) == timeouts
        assert await running.watch.expire_due() == 0  # nothing runs out twice
    finally:
        server.store = running.store


async def test_a_player_back_while_the_computer_plays_their_roll_takes_over_cleanly(
        server: Server) -> None:
    table = await at_a_roll_of_several_moves(server)
    game = table.game
    seat, version = game.turn, game.version

    async def back(_: LiveGame) -> None:  # between the computer's first and second move
        if game.turn == seat and not game.over:
            action = game.rules.decide(game.state, "easy").actions[0]
            await server.rooms.act(table.room, table.tokens[seat], action, game.version)

    server.wall.advance(30)
    assert await play_if_due(game, back)
    _, timed = await stored_actions(server, game)
    assert timed == {version}  # the computer's first move only; the player made the next
    assert game.timed_out_in_a_row(seat) == 0  # their own move counts


async def test_a_seat_handed_to_a_computer_has_no_clock_and_taken_back_its_whole_time(
        server: Server) -> None:
    table = await clocked_room(server, 120)
    game, room, rooms = table.game, table.room, server.rooms
    assert game.turn == RUBY and game.deadline is not None
    server.wall.advance(100)
    await rooms.hand_over(room, table.tokens[RUBY])
    assert game.deadline is None  # a computer is to act: no clock, nothing times out
    assert (await server.store.game(game.id)).deadline is None  # type: ignore[union-attr]
    server.wall.advance(600)
    assert not await play_if_due(game) and await server.watch.expire_due() == 0
    await rooms.take_back(room, table.tokens[RUBY])
    assert game.deadline == server.wall() + timedelta(seconds=120)  # the whole time again
    row = await server.store.game(game.id)
    assert row is not None and row.deadline is not None
    assert row.deadline.replace(tzinfo=UTC) == game.deadline


async def test_a_clocked_room_plays_on_with_nobody_there(server: Server) -> None:
    """Hana (Ruby) against a Sapphire computer, an hour a move, nobody's page open: her
    timed-out move hands the turn to the computer, which plays at once; after a restart
    on the computer's turn, the watch starts it again."""
    room, host = await server.rooms.create(
        [Seat(RUBY, HUMAN, name="Hana"), Seat(SAPPHIRE, COMPUTER, level="easy")], clock=3600)
    game = await server.rooms.start(room, host)
    started: list[LiveGame] = []

    def computers(live: LiveGame) -> None:
        started.append(live)
        ensure_runner(live, 0)

    server.watch.computers = computers
    assert not any(room.connections.values()) and game.present()
    server.wall.advance(3600)
    assert await server.watch.expire_due() == 1  # her opening roll, by the stand-in
    assert started == [game] and game.turn == SAPPHIRE
    async with asyncio.timeout(10):
        while not (game.seat_to_act().is_human or game.over):
            await asyncio.sleep(0.001)
    assert game.over or game.deadline == server.wall() + timedelta(hours=1)
    assert game.runner is not None
    game.runner.cancel()

    second, host2 = await server.rooms.create(
        [Seat(RUBY, HUMAN, name="Hana"), Seat(SAPPHIRE, COMPUTER, level="easy")], clock=3600)
    other = await server.rooms.start(second, host2)
    await server.rooms.act(second, host2, other.rules.decide(other.state, "easy").actions[0],
                           0)  # her opening roll; the computer's, with no runner, is next
    assert other.turn == SAPPHIRE and other.deadline is None
    again = await server.restarted()
    try:
        resumed: list[LiveGame] = []
        again.watch.computers = lambda live: (resumed.append(live), ensure_runner(live, 0))
        assert await again.watch.resume_computers() == 1
        (live,) = resumed
        assert live.id == other.id
        async with asyncio.timeout(10):
            while not (live.seat_to_act().is_human or live.over):
                await asyncio.sleep(0.001)
        assert live.version > 1 and (live.over or live.deadline is not None)
        assert live.runner is not None
        live.runner.cancel()
    finally:
        server.store = again.store
