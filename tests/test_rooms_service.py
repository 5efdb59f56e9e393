"""Online rooms at the domain level: ``Rooms`` over a real ``Store`` (SQLite and PostgreSQL) and
``Hub``, with a controllable clock. No NiceGUI here, so these tests are fast.

The dice seed is fixed (``SEED``) so the first turns are known. In a Ruby (host) and Sapphire
(guest) room: Ruby rolls 2+5 and Sapphire 3+5 for the start, so Sapphire begins, rolling 5+4
(enter a piece with the 5, move it 4); then Ruby rolls 6+5.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import re
import secrets
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import create_engine
from sqlalchemy import text as sql_text

from parcheesi.core.actions import Roll
from parcheesi.core.state import IllegalAction, Phase
from parcheesi.games.parcheesi.ai import decide
from parcheesi.games.parcheesi.turns import Move
from parcheesi.server.live import (
    COMPUTER,
    HUMAN,
    IDLE_BEFORE_UNLOAD,
    STALE,
    Hub,
    LiveGame,
    Refused,
    Seat,
)
from parcheesi.server.migrate import sync_url
from parcheesi.server.records import read_record, replay, stored_record
from parcheesi.server.rooms import (
    ALPHABET,
    ATTEMPTS_PER_MINUTE,
    CODE_LENGTH,
    GUESSING_BROWSERS_PER_ADDRESS,
    LIMITER_KEYS,
    REACTION_GAP,
    REACTIONS,
    REACTIONS_PER_MINUTE,
    TOO_MANY,
    UNKNOWN_ANSWERS_PER_MINUTE,
    GuessLimiter,
    Reaction,
    Room,
    RoomError,
    Rooms,
    RoomSeating,
    SlowDown,
    normalise_code,
)
from parcheesi.server.runner import play_computers
from parcheesi.server.store import Store

SEED = 14
RUBY, EMERALD, SAPPHIRE, AMBER = 0, 1, 2, 3
ME, HER, OTHER = ("browser:me", "address:10.0.0.2"), ("browser:her", "address:10.0.0.3"), (
    "browser:other", "address:10.0.0.4")
"""Rate-limit keys (browser id, address) of three different phones."""
TIMEOUT = 10.0


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("parcheesi.server.fairness.dice_seed", lambda secret, added: SEED)


class FakeClock:
    """The rooms' monotonic clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass
class Server:
    """One server process's view: a store over the database file, its hub and rooms."""

    url: str
    clock: FakeClock
    store: Store
    hub: Hub
    rooms: Rooms

    @classmethod
    async def start(cls, url: str, clock: FakeClock) -> Server:
        store = Store(url)
        await store.init()
        hub = Hub(store)
        return cls(url, clock, store, hub, Rooms(store, hub, clock))

    async def stop(self) -> None:
        for game in self.hub.games.values():
            if game.runner is not None:
                game.runner.cancel()
        await drain()
        await self.store.close()

    async def restart(self) -> None:
        """Stop, then start afresh over the same database file: new store, hub and rooms."""
        await self.stop()
        fresh = await Server.start(self.url, self.clock)
        self.store, self.hub, self.rooms = fresh.store, fresh.hub, fresh.rooms

    def rows(self, sql: str, *args: Any) -> list[dict[str, Any]]:
        """Read the database directly, as another program would (``?`` placeholders)."""
        parts = sql.split("?")
        named = "".join(f"{part}:p{k}" for k, part in enumerate(parts[:-1])) + parts[-1]
        engine = create_engine(sync_url(self.url))
        try:
            with engine.connect() as connection:
                params = {f"p{k}": value for k, value in enumerate(args)}
                return [dict(row) for row in connection.execute(sql_text(named), params).mappings()]
        finally:
            engine.dispose()


async def drain() -> None:
    """Let the background work this test started (rooms saving after an action) finish."""
    others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    if others:
        await asyncio.wait(others, timeout=TIMEOUT)


@pytest.fixture
async def server(database_url: str):
    """A server over an empty SQLite or PostgreSQL database (each test runs on both)."""
    running = await Server.start(database_url, FakeClock())
    yield running
    await running.stop()


async def lobby(server: Server, guests: tuple[int, ...] = (SAPPHIRE,),
                computers: tuple[int, ...] = ()) -> tuple[Room, str]:
    """A room hosted by Hana on Ruby, with invited human seats and computer seats."""
    seats = [Seat(RUBY, HUMAN, name="Hana")]
    seats += [Seat(c, HUMAN) for c in guests]
    seats += [Seat(c, COMPUTER, level="easy") for c in computers]
    return await server.rooms.create(seats)


@dataclass
class Started:
    room: Room
    game: LiveGame
    host: str
    guest: str
    """Seat tokens of the host (Ruby) and the guest (Sapphire)."""


async def started(server: Server) -> Started:
    """A Ruby-Sapphire room whose guest claimed, got ready and whose host started."""
    room, host = await lobby(server)
    guest = await server.rooms.claim(room, SAPPHIRE, "Sam", *HER)
    await server.rooms.set_ready(room, guest, True)
    game = await server.rooms.start(room, host)
    return Started(room, game, host, guest)


async def snapshot(server: Server, room: Room, game: LiveGame) -> tuple[Any, ...]:
    """Everything an action could change: the live game, its stored record and the room."""
    row = await server.store.game(game.id)
    assert row is not None
    return (game.version, game.state, dict(game.seats), row.version, row.state,
            len(await server.store.actions(game.id)), room.status, room.to_row().seats)


async def refused(server: Server, room: Room, game: LiveGame, attempt: Awaitable[Any],
                  message: str) -> None:
    """``attempt`` is rejected with a message (or, for a refusal by the engine, a detail)
    matching ``message`` and changes nothing."""
    before = await snapshot(server, room, game)
    with pytest.raises((IllegalAction, RoomError)) as refusal:
        await attempt
    words = f"{refusal.value} {getattr(refusal.value, 'detail', '')}"
    assert re.search(message, words), words
    assert await snapshot(server, room, game) == before


async def until(predicate: Callable[[], bool], what: str) -> None:
    """Wait (on the event loop, bounded) until ``predicate`` holds."""
    async with asyncio.timeout(TIMEOUT):
        while not predicate():
            await asyncio.sleep(0.001)
    assert predicate(), what


async def instant(_: float) -> None:
    """The computers' pacing sleep, without the wait."""
    await asyncio.sleep(0)


# --- codes -------------------------------------------------------------------------------------


async def test_codes_are_unambiguous_and_typed_codes_are_normalised(server: Server) -> None:
    assert not set("IO01") & set(ALPHABET)
    codes = set()
    for _ in range(20):
        room, _ = await lobby(server)
        assert len(room.code) == CODE_LENGTH == 8
        assert set(room.code) <= set(ALPHABET)
        codes.add(room.code)
    assert len(codes) == 20
    code = room.code
    typed = [code.lower(), f"{code[:4]} {code[4:]}", f"{code[:4]}-{code[4:]}".lower(),
             f"  {code[:2]} - {code[2:5].lower()}-{code[5:]} "]
    for text in typed:
        assert normalise_code(text) == code
        assert await server.rooms.find(text, *ME) is room
    await server.restart()
    assert (await server.rooms.find(typed[1], *ME)).code == code


# --- seats and tokens --------------------------------------------------------------------------


async def test_claim_gives_a_random_token_and_only_its_hash_is_stored(server: Server) -> None:
    room, host = await lobby(server, guests=(EMERALD, SAPPHIRE), computers=(AMBER,))
    emerald = await server.rooms.claim(room, EMERALD, "  Eli  ", *HER)
    sapphire = await server.rooms.claim(room, SAPPHIRE, "", *OTHER)
    tokens = [host, emerald, sapphire]
    assert len(set(tokens)) == 3
    for token in tokens:
        assert re.fullmatch(r"[A-Za-z0-9_-]{22,}", token), token
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        assert len(raw) * 8 >= 128
    assert room.colour_of(host) == RUBY
    assert room.colour_of(emerald) == EMERALD
    assert room.colour_of(sapphire) == SAPPHIRE
    assert room.seats[EMERALD].name == "Eli"

    (row,) = server.rows("SELECT * FROM rooms WHERE code = ?", room.code)
    stored = json.dumps(dict(row), default=str)
    seats = {s["colour"]: s for s in json.loads(row["seats"])}
    for token, colour in zip(tokens, (RUBY, EMERALD, SAPPHIRE), strict=True):
        assert token not in stored
        assert seats[colour]["token_hash"] == hashlib.sha256(token.encode()).hexdigest()
    assert seats[AMBER]["token_hash"] is None
    # The stored hash does not work as a token: reading the database gives no seat.
    assert room.colour_of(seats[EMERALD]["token_hash"]) is None


async def test_only_open_human_seats_can_be_claimed_and_only_before_the_start(
        server: Server) -> None:
    room, host = await lobby(server, guests=(EMERALD, SAPPHIRE), computers=(AMBER,))
    rooms = server.rooms
    before = room.to_row().seats
    with pytest.raises(RoomError, match="already taken"):
        await rooms.claim(room, RUBY, "Mallory", *HER)  # the host's seat
    with pytest.raises(RoomError, match="not open to players"):
        await rooms.claim(room, AMBER, "Mallory", *HER)  # a computer's seat
    with pytest.raises(RoomError, match="not open to players"):
        await rooms.claim(room, 7, "Mallory", *HER)  # no such seat
    assert room.to_row().seats == before

    # Two phones pressing "Take this seat" at once: exactly one gets it.
    results = await asyncio.gather(rooms.claim(room, EMERALD, "Eli", *HER),
                                   rooms.claim(room, EMERALD, "Eve", *OTHER),
                                   return_exceptions=True)
    tokens = [r for r in results if isinstance(r, str)]
    errors = [r for r in results if isinstance(r, Exception)]
    assert len(tokens) == 1 and len(errors) == 1
    assert "already taken" in str(errors[0])
    assert room.colour_of(tokens[0]) == EMERALD
    assert room.seats[EMERALD].name == ("Eli" if results[0] == tokens[0] else "Eve")

    sapphire = await rooms.claim(room, SAPPHIRE, "Sam", *OTHER)
    for token in (tokens[0], sapphire):
        await rooms.set_ready(room, token, True)
    await rooms.start(room, host)
    room_seats = room.to_row().seats
    with pytest.raises(RoomError, match="already started"):
        await rooms.claim(room, EMERALD, "Late", *HER)
    assert room.to_row().seats == room_seats


async def test_ready_and_start_rules(server: Server) -> None:
    room, host = await lobby(server, guests=(EMERALD, SAPPHIRE), computers=(AMBER,))
    rooms = server.rooms
    assert room.status == "lobby" and not room.can_start()
    with pytest.raises(RoomError, match="must be taken and ready"):
        await rooms.start(room, host)  # nobody has joined yet
    eli = await rooms.claim(room, EMERALD, "Eli", *HER)
    sam = await rooms.claim(room, SAPPHIRE, "Sam", *OTHER)
    with pytest.raises(RoomError, match="must be taken and ready"):
        await rooms.start(room, host)  # taken, not ready
    await rooms.set_ready(room, eli, True, name="Elias")
    assert room.seats[EMERALD].ready and room.seats[EMERALD].name == "Elias"
    with pytest.raises(RoomError, match="must be taken and ready"):
        await rooms.start(room, host)  # one of two ready
    await rooms.set_ready(room, sam, True)
    await rooms.set_ready(room, eli, False)  # changed their mind
    assert not room.can_start()
    await rooms.set_ready(room, eli, True)
    assert room.can_start()

    # Only the host starts; a guest's token, a forged one or none does not.
    for token in (eli, sam, secrets.token_urlsafe(32), None):
        with pytest.raises(RoomError, match="Only the host"):
            await rooms.start(room, token)
    with pytest.raises(IllegalAction, match="holds no seat"):
        await rooms.set_ready(room, secrets.token_urlsafe(32), False)
    assert room.status == "lobby" and room.game_id is None

    game = await rooms.start(room, host)
    assert room.status == "playing" and room.game_id == game.id
    assert game.mode == "online" and game.owner == f"room:{room.code}"
    assert {c: (s.kind, s.name) for c, s in game.seats.items()} == {
        RUBY: (HUMAN, "Hana"), EMERALD: (HUMAN, "Elias"), SAPPHIRE: (HUMAN, "Sam"),
        AMBER: (COMPUTER, "")}
    with pytest.raises(RoomError, match="already started"):
        await rooms.start(room, host)
    assert room.game_id == game.id
    with pytest.raises(RoomError, match="already started"):
        await rooms.set_ready(room, eli, False)


async def test_the_host_seat_must_be_a_person_and_the_seats_valid(server: Server) -> None:
    with pytest.raises(RoomError, match="host's own seat"):
        await server.rooms.create([Seat(RUBY, COMPUTER), Seat(SAPPHIRE, HUMAN)])
    with pytest.raises(RoomError, match="opposite"):
        await server.rooms.create([Seat(RUBY, HUMAN), Seat(EMERALD, HUMAN)])
    assert server.rows("SELECT code FROM rooms") == []


# --- forbidden actions -------------------------------------------------------------------------


async def test_stale_and_replayed_actions_are_rejected(server: Server) -> None:
    s = await started(server)
    rooms, room, game = server.rooms, s.room, s.game
    assert (game.state.phase, game.state.turn, game.version) == (Phase.OPENING, RUBY, 0)
    await rooms.act(room, s.host, Roll(), 0)
    assert game.version == 1 and game.state.turn == SAPPHIRE
    # The same request again (a double tap, a replayed message): stale, refused.
    await refused(server, room, game, rooms.act(room, s.host, Roll(), 0), STALE)
    # Sapphire's turn, but made against the position before Ruby's roll: refused too.
    await refused(server, room, game, rooms.act(room, s.guest, Roll(), 0), STALE)
    await refused(server, room, game, rooms.act(room, s.guest, Roll(), 7), STALE)
    await rooms.act(room, s.guest, Roll(), 1)
    assert game.version == 2 and game.state.phase is Phase.ROLL


async def test_two_phones_pressing_at_once_exactly_one_wins(server: Server) -> None:
    s = await started(server)
    rooms, room, game = server.rooms, s.room, s.game
    results = await asyncio.gather(*(rooms.act(room, s.host, Roll(), 0) for _ in range(3)),
                                   return_exceptions=True)
    wins = [r for r in results if isinstance(r, list)]
    losses = [r for r in results if isinstance(r, Exception)]
    assert len(wins) == 1 and len(losses) == 2
    assert all(isinstance(e, Refused) and str(e) == STALE for e in losses)
    assert game.version == 1
    assert await server.store.actions(game.id) == [{"type": "roll"}]

    # Two live copies of one game (as two server processes would hold): the versioned append
    # in the database lets exactly one of them extend version 1.
    other = await Hub(server.store).get(game.id)
    assert other is not None and other is not game and other.version == 1
    results = await asyncio.gather(game.act(Roll(), version=1, colour=SAPPHIRE),
                                   other.act(Roll(), version=1, colour=SAPPHIRE),
                                   return_exceptions=True)
    assert sum(isinstance(r, list) for r in results) == 1
    (loss,) = [r for r in results if isinstance(r, Exception)]
    assert isinstance(loss, Refused) and str(loss) == STALE
    assert len(await server.store.actions(game.id)) == 2
    row = await server.store.game(game.id)
    assert row is not None and row.version == 2
    # The copy that lost caught up with the database: both now hold the same position.
    assert (game.version, other.version) == (2, 2) and game.state == other.state


async def test_actions_for_another_seat_or_out_of_turn_are_rejected(server: Server) -> None:
    s = await started(server)
    rooms, room, game = server.rooms, s.room, s.game
    # Ruby's opening roll: Sapphire's phone may not make it.
    await refused(server, room, game, rooms.act(room, s.guest, Roll(), 0),
                  "It is Hana's turn, not yours")
    # A browser without a seat (a watcher) acts for nobody.
    await refused(server, room, game, rooms.act(room, None, Roll(), 0), "holds no seat")
    # Ruby's own seat, but not an action the rules allow now.
    await refused(server, room, game, rooms.act(room, s.host, Move(0, (5,)), 0),
                  "cannot move with the dice now")
    await rooms.act(room, s.host, Roll(), 0)
    await rooms.act(room, s.guest, Roll(), 1)
    assert game.state.phase is Phase.ROLL and game.state.turn == SAPPHIRE
    await refused(server, room, game, rooms.act(room, s.host, Roll(), 2),
                  "It is Sam's turn, not yours")
    await rooms.act(room, s.guest, Roll(), 2)
    assert game.state.phase is Phase.MOVE and game.state.dice == (5, 4)
    await refused(server, room, game, rooms.act(room, s.guest, Roll(), 3), "cannot roll now")
    await refused(server, room, game, rooms.act(room, s.guest, Move(0, (4,)), 3),
                  "cannot use 4")  # a piece in START enters with a 5 only
    await refused(server, room, game, rooms.act(room, s.host, Move(0, (5,)), 3),
                  "not yours")
    await rooms.act(room, s.guest, Move(0, (5,)), 3)
    assert game.state.pieces[SAPPHIRE][0] == 0


async def test_forged_and_other_rooms_tokens_are_rejected(server: Server) -> None:
    s = await started(server)
    other = await started(server)
    rooms, room, game = server.rooms, s.room, s.game
    hashed = room.seats[RUBY].token_hash
    assert hashed is not None
    forged = [secrets.token_urlsafe(32), "", s.host[:-1] + ("A" if s.host[-1] != "A" else "B"),
              hashed, other.host, other.guest]
    for token in forged:
        await refused(server, room, game, rooms.act(room, token, Roll(), 0), "holds no seat")
    # The other room's tokens still work there, and this room's do here.
    await rooms.act(other.room, other.host, Roll(), 0)
    await rooms.act(room, s.host, Roll(), 0)
    assert (game.version, other.game.version) == (1, 1)


async def test_unknown_and_expired_rooms_are_rejected(server: Server) -> None:
    rooms = server.rooms
    for text in ("ZZZZZZZZ", "abc", "", "ABCD-EFG1", "A" * 40):
        with pytest.raises(RoomError, match="no room with that code"):
            await rooms.find(text, *ME)
    s = await started(server)
    await rooms.act(s.room, s.host, Roll(), 0)
    s.room.last_action_at = datetime.now(UTC) - timedelta(days=31)
    await server.store.save_room(s.room.to_row())
    # Expired: closed, even while the room is still held in memory, and not playable.
    with pytest.raises(RoomError, match="That room has closed"):
        await rooms.find(s.room.code, *ME)
    await refused(server, s.room, s.game, rooms.act(s.room, s.guest, Roll(), 1), "expired")


async def test_actions_after_the_end_are_rejected_and_play_again_keeps_the_seats(
        server: Server) -> None:
    s = await started(server)
    rooms, room, game = server.rooms, s.room, s.game
    tokens = {RUBY: s.host, SAPPHIRE: s.guest}
    with pytest.raises(RoomError, match="not finished"):
        await rooms.play_again(room, s.host)
    while not game.over:  # both people play "easy" moves through their own phones
        seat = game.state.turn
        for action in decide(game.state, "easy").actions:
            await rooms.act(room, tokens[seat], action, game.version)
    assert room.status == "finished"
    winner = game.state.winner
    assert winner in tokens
    await refused(server, room, game, rooms.act(room, tokens[winner], Roll(), game.version),
                  "The game is over")
    await refused(server, room, game, rooms.act(room, tokens[winner], Roll(), 3), STALE)
    await drain()
    (row,) = server.rows("SELECT status, game_id FROM rooms WHERE code = ?", room.code)
    assert (row["status"], row["game_id"]) == ("finished", game.id)

    seats = room.to_row().seats
    with pytest.raises(RoomError, match="Only the host"):
        await rooms.play_again(room, s.guest)
    again = await rooms.play_again(room, s.host)
    assert again is not None and again.id != game.id and again.version == 0 and not again.over
    assert room.status == "playing" and room.game_id == again.id
    assert room.to_row().seats == seats  # same people, same tokens, same names
    assert {c: (x.kind, x.name) for c, x in again.seats.items()} == {
        RUBY: (HUMAN, "Hana"), SAPPHIRE: (HUMAN, "Sam")}
    assert await rooms.game(room) is again
    await rooms.act(room, s.guest, Roll(), 0)  # the next seat begins the opening roll
    assert again.version == 1 and game.over


# --- rate limiting -----------------------------------------------------------------------------


async def test_code_attempts_are_rate_limited_per_browser_and_per_address(
        server: Server) -> None:
    room, _ = await lobby(server)
    rooms, clock = server.rooms, server.clock
    assert ATTEMPTS_PER_MINUTE == 20
    for k in range(20):
        clock.advance(1)
        with pytest.raises(RoomError, match="no room with that code"):
            await rooms.find(f"{k:02d}ZZZZZZ".replace("0", "A").replace("1", "B"), *ME)
    # The 21st attempt within the minute is refused, even with the right code, also from
    # the same browser on another address ...
    with pytest.raises(RoomError, match="Too many attempts"):
        await rooms.find(room.code, *ME)
    with pytest.raises(RoomError, match="Too many attempts"):
        await rooms.find(room.code, "browser:me", "address:10.9.9.9")
    # ... but one browser's wrong codes never shut out another browser, on its address too.
    assert await rooms.find(room.code, "browser:new", "address:10.0.0.2") is room
    assert await rooms.find(room.code, *HER) is room
    clock.advance(41)  # over 60 s after the first attempt: that one no longer counts
    assert await rooms.find(room.code, *ME) is room
    assert await rooms.find(room.code, *ME) is room  # opening a real room costs nothing
    with pytest.raises(RoomError, match="no room with that code"):
        await rooms.find("ZZZZZZZZ", *ME)  # the 20th wrong code within the minute
    with pytest.raises(RoomError, match="Too many attempts"):
        await rooms.find(room.code, *ME)
    clock.advance(60)
    for _ in range(20):
        assert await rooms.find(room.code, *ME) is room


async def test_an_address_making_a_new_browser_for_every_guess_is_stopped(
        server: Server) -> None:
    """A script can make a browser per request; the address then fills up with guessing
    browsers and further new ones are refused, while those already there keep their own
    allowance."""
    room, _ = await lobby(server)
    rooms, clock = server.rooms, server.clock
    address = "address:10.0.0.9"
    for k in range(GUESSING_BROWSERS_PER_ADDRESS):
        with pytest.raises(RoomError, match="no room with that code"):
            await rooms.find("ZZZZZZZZ", f"browser:script-{k}", address)
    with pytest.raises(RoomError, match="Too many attempts"):
        await rooms.find(room.code, "browser:script-new", address)
    assert await rooms.find(room.code, "browser:script-0", address) is room
    assert await rooms.find(room.code, "browser:elsewhere", "address:10.0.0.10") is room
    clock.advance(61)
    assert await rooms.find(room.code, "browser:script-new", address) is room


async def test_unknown_codes_get_at_most_the_servers_bound_of_answers_a_minute(
        server: Server) -> None:
    """Guesses each from an address and a browser of their own (as IPv6 allows by the
    million): past the server-wide bound, a code that names no room is answered as too many
    attempts, while a guest with the right code, from anywhere, still joins at once."""
    room, _ = await lobby(server)
    rooms, clock = server.rooms, server.clock
    answers: Counter[str] = Counter()
    for k in range(3 * UNKNOWN_ANSWERS_PER_MINUTE):
        clock.advance(50 / (3 * UNKNOWN_ANSWERS_PER_MINUTE))  # all within 50 s
        try:
            await rooms.find(f"ZZZZ{k:04d}".replace("0", "A").replace("1", "B"),
                             f"browser:guess-{k}", f"address:2001:db8::{k:x}")
        except RoomError as refusal:
            answers["no room" if "no room" in str(refusal) else str(refusal)] += 1
    assert answers == {"no room": UNKNOWN_ANSWERS_PER_MINUTE,
                       TOO_MANY: 2 * UNKNOWN_ANSWERS_PER_MINUTE}
    assert await rooms.find(room.code, "browser:guest", "address:2001:db8::ffff") is room
    assert await rooms.find(room.code, *ME) is room
    clock.advance(11)  # a minute after the first answers: they no longer count
    with pytest.raises(RoomError, match="no room with that code"):
        await rooms.find("ZZZZZZZZ", "browser:late", "address:2001:db8::1:0")


def test_attempt_counters_are_bounded_and_expire() -> None:
    clock = FakeClock()
    guesses = GuessLimiter(clock, capacity=100)
    for k in range(1000):
        guesses.ensure_allowed(f"browser:{k}", f"address:10.1.{k // 250}.{k % 250}")
        guesses.wrong(f"browser:{k}", f"address:10.1.{k // 250}.{k % 250}")
    assert len(guesses.browsers.attempts) == len(guesses.addresses) == 100
    assert LIMITER_KEYS == 10_000  # what the server keeps at most, per kind of counter
    clock.advance(30)
    guesses.sweep()
    assert len(guesses) == 200
    clock.advance(31)
    guesses.sweep()
    assert len(guesses) == 0


async def test_seat_claims_are_rate_limited(server: Server) -> None:
    room, _ = await lobby(server, guests=(EMERALD, SAPPHIRE), computers=(AMBER,))
    for _ in range(20):
        with pytest.raises(RoomError, match="already taken"):
            await server.rooms.claim(room, RUBY, "", *ME)
    with pytest.raises(RoomError, match="Too many attempts"):
        await server.rooms.claim(room, EMERALD, "", *ME)
    assert not room.seats[EMERALD].claimed
    server.clock.advance(60)
    token = await server.rooms.claim(room, EMERALD, "", *ME)
    assert room.colour_of(token) == EMERALD


# --- absent players ----------------------------------------------------------------------------


async def test_the_host_may_replace_a_player_absent_for_a_minute(server: Server) -> None:
    s = await started(server)
    rooms, room, game, clock = server.rooms, s.room, s.game, server.clock
    rooms.connect(room, RUBY)
    rooms.connect(room, SAPPHIRE)
    await rooms.act(room, s.host, Roll(), 0)  # Ruby's opening roll; Sapphire's turn now
    assert rooms.replaceable(room) == []

    rooms.disconnect(room, SAPPHIRE)  # Sam's phone went to sleep
    clock.advance(59)
    assert rooms.replaceable(room) == []
    await refused(server, room, game, rooms.replace(room, s.host, SAPPHIRE, "easy"),
                  "away for a minute")
    rooms.connect(room, SAPPHIRE)  # back just in time: the minute starts again
    rooms.disconnect(room, SAPPHIRE)
    clock.advance(59)
    assert rooms.replaceable(room) == []
    clock.advance(1)
    assert rooms.replaceable(room) == [SAPPHIRE]
    assert rooms.why_replaceable(room, SAPPHIRE) == "away for 1 min"  # the host tools' words

    # Never by anyone but the host, never the host's own seat, only as a real computer.
    rooms.disconnect(room, RUBY)
    clock.advance(120)
    assert rooms.replaceable(room) == [SAPPHIRE]
    await refused(server, room, game, rooms.replace(room, s.guest, SAPPHIRE, "easy"),
                  "Only the host")
    await refused(server, room, game, rooms.replace(room, None, SAPPHIRE, "easy"),
                  "Only the host")
    await refused(server, room, game, rooms.replace(room, s.host, RUBY, "easy"),
                  "away for a minute")
    await refused(server, room, game, rooms.replace(room, s.host, SAPPHIRE, "grandmaster"),
                  "easy, medium, hard or expert")

    await rooms.replace(room, s.host, SAPPHIRE, "hard")  # the host acts while away
    seat = room.seats[SAPPHIRE]
    assert (seat.kind, seat.level, seat.token_hash) == (COMPUTER, "hard", None)
    assert game.seats[SAPPHIRE].kind == COMPUTER and game.seats[SAPPHIRE].level == "hard"
    row = await server.store.game(game.id)
    assert row is not None and {s["colour"]: s["kind"] for s in json.loads(row.seats)} == {
        RUBY: HUMAN, SAPPHIRE: COMPUTER}
    assert rooms.replaceable(room) == []
    await refused(server, room, game, rooms.act(room, s.guest, Roll(), 1), "holds no seat")

    # The computers' task now plays Sapphire, through the same checked path, while a player
    # of the room is connected (the host is back); it stops where Ruby, a person, must act.
    rooms.connect(room, RUBY)
    runner = asyncio.create_task(play_computers(game, 0, instant))
    await until(lambda: game.seat_to_act().is_human, "Sapphire's turn to be played")
    assert game.state.turn == RUBY and game.version == 5  # opening roll, roll, enter, move 4
    assert await server.store.actions(game.id) == [
        {"type": "roll"}, {"type": "roll"}, {"type": "roll"},
        {"type": "move", "piece": 1, "portions": [5]},
        {"type": "move", "piece": 1, "portions": [4]}]
    assert not runner.done()
    runner.cancel()


async def test_replacement_is_only_for_games_in_play(server: Server) -> None:
    room, host = await lobby(server)
    await server.rooms.claim(room, SAPPHIRE, "Sam", *HER)
    server.clock.advance(600)  # claimed ten minutes ago, never connected
    assert server.rooms.replaceable(room) == []
    with pytest.raises(RoomError, match="away for a minute"):
        await server.rooms.replace(room, host, SAPPHIRE, "easy")
    assert room.seats[SAPPHIRE].kind == HUMAN


async def test_computers_pause_while_nobody_is_connected_and_resume(server: Server) -> None:
    room, host = await lobby(server, guests=(), computers=(EMERALD, SAPPHIRE, AMBER))
    rooms = server.rooms
    game = await rooms.start(room, host)
    paced: list[int] = []

    async def pace(_: float) -> None:
        paced.append(game.version)  # the computers are about to act
        await asyncio.sleep(0)

    runner = asyncio.create_task(play_computers(game, 0, pace))
    await rooms.act(room, host, Roll(), 0)  # Ruby's opening roll; the computers' turn now
    for _ in range(50):
        await asyncio.sleep(0)
    assert not game.seat_to_act().is_human
    assert (game.version, paced) == (1, [])  # nobody is watching: paused
    assert not runner.done()

    # Someone watching without a seat does not count: the computers still wait.
    game.subscribe(lambda *_: None)
    for _ in range(50):
        await asyncio.sleep(0)
    assert (game.version, paced) == (1, [])

    # The host's phone connects: the computers play one action, then the phone goes away.
    acted = asyncio.Event()

    def once(live: LiveGame, _: list[Any]) -> None:
        live.watchers.remove(once)
        rooms.disconnect(room, RUBY)
        acted.set()

    game.watchers.append(once)
    rooms.connect(room, RUBY)
    async with asyncio.timeout(TIMEOUT):
        await acted.wait()
    for _ in range(50):
        await asyncio.sleep(0)
    assert game.version == 2
    assert not game.seat_to_act().is_human  # still the computers' turn, but they wait
    waited = len(paced)
    for _ in range(50):
        await asyncio.sleep(0)
    assert game.version == 2 and len(paced) == waited

    # The host reconnects: they carry on until Ruby must act.
    rooms.connect(room, RUBY)
    await until(lambda: game.seat_to_act().is_human or game.over, "Ruby's turn")
    assert game.version > 2
    assert not runner.done()
    runner.cancel()


# --- expiry and restarts -----------------------------------------------------------------------


async def set_updated(server: Server, game_id: str, moment: datetime) -> None:
    """Set when a stored game last changed, as another program could."""
    engine = create_engine(sync_url(server.url))
    try:
        with engine.begin() as connection:
            connection.execute(sql_text("UPDATE games SET updated_at = :moment WHERE id = :id"),
                               {"moment": moment, "id": game_id})
    finally:
        engine.dispose()


async def test_rooms_idle_for_thirty_days_are_deleted_with_their_tokens_and_games(
        server: Server) -> None:
    rooms = server.rooms
    old = await started(server)
    await rooms.act(old.room, old.host, Roll(), 0)
    fresh = await started(server)
    waiting, _ = await lobby(server)
    now = datetime.now(UTC)
    old.room.last_action_at = now - timedelta(days=30, minutes=1)
    waiting.last_action_at = now - timedelta(days=29, hours=23)
    for room in (old.room, waiting):
        await server.store.save_room(room.to_row())
    assert len(server.rows("SELECT id FROM games")) == 2
    # The old room's game moved a minute ago (its turn clock, say): the room is kept.
    assert await rooms.cleanup(now=now) == 0
    await set_updated(server, old.game.id, now - timedelta(days=30, minutes=1))

    assert await rooms.cleanup(now=now) == 1
    codes = {r["code"] for r in server.rows("SELECT code FROM rooms")}
    assert codes == {fresh.room.code, waiting.code}
    assert server.rows("SELECT id FROM games WHERE id = ?", old.game.id) == []
    assert server.rows("SELECT * FROM actions WHERE game_id = ?", old.game.id) == []
    assert len(server.rows("SELECT * FROM actions")) == 0  # the fresh game has no action yet
    assert old.room.seats[RUBY].token_hash not in json.dumps(
        [dict(r) for r in server.rows("SELECT * FROM rooms")], default=str)
    with pytest.raises(RoomError, match="no room with that code"):
        await rooms.find(old.room.code, *ME)
    await refused(server, fresh.room, fresh.game,
                  rooms.act(old.room, old.guest, Roll(), 1), "expired")
    assert old.game.version == 1
    assert await rooms.find(fresh.room.code, *ME) is fresh.room
    assert await rooms.find(waiting.code, *ME) is waiting

    # Later clean-ups take the others once they have been idle for 30 days too.
    assert await rooms.cleanup(now=now + timedelta(days=31)) == 2
    assert server.rows("SELECT * FROM rooms") == server.rows("SELECT * FROM games") == []


async def test_a_restarted_server_finds_the_rooms_seats_and_games(server: Server) -> None:
    s = await started(server)
    rooms, room, game = server.rooms, s.room, s.game
    waiting, waiting_host = await lobby(server, guests=(EMERALD, SAPPHIRE))
    eli = await rooms.claim(waiting, EMERALD, "Eli", *HER)
    await rooms.set_ready(waiting, eli, True)

    # Every accepted action is in the database before anyone is told about it.
    seen: list[tuple[int, int]] = []

    def listener(live: LiveGame, _: list[Any]) -> None:
        (row,) = server.rows("SELECT version FROM games WHERE id = ?", live.id)
        seen.append((live.version, row["version"]))

    game.subscribe(listener)
    await rooms.act(room, s.host, Roll(), 0)
    await rooms.act(room, s.guest, Roll(), 1)
    await rooms.act(room, s.guest, Roll(), 2)
    await rooms.act(room, s.guest, Move(0, (5,)), 3)
    assert seen == [(1, 1), (2, 2), (3, 3), (4, 4)]
    state, seats = game.state, room.to_row().seats

    await server.restart()
    again = await server.rooms.find(room.code.lower(), *ME)
    assert again is not room
    assert (again.status, again.host, again.game_id) == ("playing", RUBY, game.id)
    assert again.to_row().seats == seats
    assert again.colour_of(s.host) == RUBY and again.colour_of(s.guest) == SAPPHIRE
    live = await server.rooms.game(again)
    assert live is not None and live is not game
    assert (live.version, live.state) == (4, state)
    assert live.state.portions == (4,) and live.state.turn == SAPPHIRE
    # The guest's phone reconnects with its token and carries on from the same version.
    await refused(server, again, live, server.rooms.act(again, s.host, Roll(), 4), "not yours")
    await server.rooms.act(again, s.guest, Move(0, (4,)), 4)
    assert live.version == 5 and live.state.turn == RUBY

    lobby_again = await server.rooms.find(waiting.code, *ME)
    assert lobby_again.status == "lobby"
    assert lobby_again.colour_of(eli) == EMERALD and lobby_again.seats[EMERALD].ready
    assert not lobby_again.seats[SAPPHIRE].claimed
    sam = await server.rooms.claim(lobby_again, SAPPHIRE, "Sam", *OTHER)
    await server.rooms.set_ready(lobby_again, sam, True)
    started_again = await server.rooms.start(lobby_again, waiting_host)
    assert started_again.version == 0 and lobby_again.status == "playing"


# --- exactly once across restarts and faults ---------------------------------------------------


async def play_until_over(server: Server, s: Started, crash_before_room_save: bool) -> None:
    """Both people play "easy" moves until the game is won. With ``crash_before_room_save``
    the room's own save after the win never happens (the process dies right after the
    winning move is committed)."""
    rooms, room, game = server.rooms, s.room, s.game
    tokens = {RUBY: s.host, SAPPHIRE: s.guest}
    if crash_before_room_save:
        async def lost(_: Room) -> None:
            raise asyncio.CancelledError
        rooms._save = lost  # type: ignore[method-assign]
    while not game.over:
        seat = game.state.turn
        for action in decide(game.state, "easy").actions:
            await rooms.act(room, tokens[seat], action, game.version)


async def test_a_crash_right_after_the_winning_move_leaves_a_finished_room(
        server: Server) -> None:
    s = await started(server)
    await play_until_over(server, s, crash_before_room_save=True)
    (row,) = server.rows("SELECT status FROM rooms WHERE code = ?", s.room.code)
    assert row["status"] == "playing"  # the room's own row never heard of the win

    await server.restart()
    room = await server.rooms.find(s.room.code, *ME)
    assert room.status == "finished"  # ... but its game says so, and the game decides
    again = await server.rooms.play_again(room, s.host)
    assert room.game_id == again.id and again.version == 0


async def test_pages_loading_a_room_at_the_same_moment_share_one_room_and_game(
        server: Server) -> None:
    s = await started(server)
    await server.rooms.act(s.room, s.host, Roll(), 0)
    await server.restart()
    found = await asyncio.gather(*(server.rooms.find(s.room.code, *ME) for _ in range(4)))
    assert all(room is found[0] for room in found)
    games = await asyncio.gather(*(server.rooms.game(room) for room in found))
    assert all(game is games[0] for game in games) and games[0] is not None
    assert len(server.hub.games) == 1 and len(server.rooms.rooms) == 1
    # Each phone's action is seen by the others: there is one live object to tell.
    seen: list[int] = []
    games[0].subscribe(lambda live, _: seen.append(live.version))
    await server.rooms.act(found[3], s.guest, Roll(), 1)
    assert seen == [2]


async def test_after_a_restart_players_who_never_come_back_can_be_replaced(
        server: Server) -> None:
    s = await started(server)
    await server.restart()
    room = await server.rooms.find(s.room.code, *ME)
    server.rooms.connect(room, RUBY)  # only the host comes back
    assert server.rooms.replaceable(room) == []
    server.clock.advance(60)
    assert server.rooms.replaceable(room) == [SAPPHIRE]
    await server.rooms.replace(room, s.host, SAPPHIRE, "easy")
    game = await server.rooms.game(room)
    assert game is not None and not game.seats[SAPPHIRE].is_human
    server.rooms.disconnect(room, RUBY)


async def test_starting_a_game_and_replacing_a_seat_are_one_write_each(server: Server) -> None:
    room, host = await lobby(server)
    guest = await server.rooms.claim(room, SAPPHIRE, "Sam", *HER)
    await server.rooms.set_ready(room, guest, True)
    original = server.store.save_room

    async def failing(*args: Any, **kwargs: Any) -> None:
        raise OSError("disk full")

    server.store.save_room = failing  # type: ignore[method-assign]
    with pytest.raises(OSError):
        await server.rooms.start(room, host)
    assert (room.status, room.game_id) == ("lobby", None)
    assert server.rows("SELECT id FROM games") == [] and server.hub.games == {}
    server.store.save_room = original  # type: ignore[method-assign]
    game = await server.rooms.start(room, host)
    server.rooms.connect(room, RUBY)
    server.clock.advance(60)

    server.store.save_room = failing  # type: ignore[method-assign]
    with pytest.raises(OSError):
        await server.rooms.replace(room, host, SAPPHIRE, "hard")
    assert room.seats[SAPPHIRE].kind == HUMAN and room.colour_of(guest) == SAPPHIRE
    assert game.seats[SAPPHIRE].is_human
    server.store.save_room = original  # type: ignore[method-assign]
    await server.rooms.replace(room, host, SAPPHIRE, "hard")
    (row,) = server.rows("SELECT seats FROM games WHERE id = ?", game.id)
    stored = {seat["colour"]: seat["kind"] for seat in json.loads(row["seats"])}
    assert stored == {RUBY: HUMAN, SAPPHIRE: COMPUTER}
    (room_row,) = server.rows("SELECT seats FROM rooms WHERE code = ?", room.code)
    assert {seat["colour"]: seat["kind"] for seat in json.loads(room_row["seats"])} == stored
    server.rooms.disconnect(room, RUBY)


async def test_rooms_and_games_nobody_uses_leave_memory_and_come_back(server: Server) -> None:
    s = await started(server)
    rooms, hub, clock = server.rooms, server.hub, server.clock
    await rooms.act(s.room, s.host, Roll(), 0)
    hub.clock = clock  # the hub measures idleness with the same clock
    for game in hub.games.values():
        game.clock = clock
        game.touched = clock()
    def page(_: Room) -> None:
        """A room page following the room."""

    s.game.hold()  # a page is built on the game: both stay
    rooms.subscribe(s.room, page)
    clock.advance(IDLE_BEFORE_UNLOAD)
    assert hub.unload_idle() == [] and rooms.unload_idle() == []
    s.game.release()
    rooms.unsubscribe(s.room, page)
    assert hub.unload_idle() == [] and rooms.unload_idle() == []  # just let go of
    clock.advance(IDLE_BEFORE_UNLOAD)
    assert hub.unload_idle() == [s.game.id] and rooms.unload_idle() == [s.room.code]
    assert hub.games == {} and rooms.rooms == {}
    room = await rooms.find(s.room.code, *ME)
    game = await rooms.game(room)
    assert room is not s.room and game is not None and game is not s.game
    assert (game.version, game.state) == (1, s.game.state)
    await rooms.act(room, s.guest, Roll(), 1)
    assert room.watched is game and game.version == 2


async def test_an_abandoned_room_creation_leaves_no_room(server: Server) -> None:
    room, _ = await lobby(server)
    await server.rooms.discard(room)
    assert server.rows("SELECT code FROM rooms") == []
    with pytest.raises(RoomError, match="no room with that code"):
        await server.rooms.find(room.code, *ME)


# --- seats between people and computers, and the next game --------------------------------------

async def finish(server: Server, room: Room, game: LiveGame, tokens: dict[int, str]) -> None:
    """Both people play "easy" moves through their own phones until the game is over."""
    while not game.over:
        for action in decide(game.state, "easy").actions:
            await server.rooms.act(room, tokens[game.state.turn], action, game.version)


async def test_a_player_hands_their_seat_to_a_computer_and_takes_it_back(
        server: Server) -> None:
    s = await started(server)
    rooms, room, game = server.rooms, s.room, s.game
    await refused(server, room, game, rooms.take_back(room, s.guest), "already yours")
    await refused(server, room, game, rooms.hand_over(room, "forged"), "holds no seat")
    await rooms.act(room, s.host, Roll(), 0)  # Ruby's opening roll; Sapphire's turn now
    await rooms.hand_over(room, s.guest)
    seat = room.seats[SAPPHIRE]
    assert seat.away and seat.kind == COMPUTER and seat.level == room.stand_in == "medium"
    assert room.colour_of(s.guest) == SAPPHIRE  # the seat is still Sam's to take back
    assert game.seats[SAPPHIRE].kind == COMPUTER
    row = await server.store.game(game.id)
    assert row is not None and {x["colour"]: x["kind"] for x in json.loads(row.seats)} == {
        RUBY: HUMAN, SAPPHIRE: COMPUTER}
    await refused(server, room, game, rooms.hand_over(room, s.guest), "under way")
    await refused(server, room, game, rooms.act(room, s.guest, Roll(), 1), "not played by")
    assert rooms.replaceable(room) == []  # nothing for the host to replace

    # Sam's phone alone keeps the computers going (he watches his stand-in play).
    rooms.connect(room, SAPPHIRE)
    runner = asyncio.create_task(play_computers(game, 0, instant))
    await until(lambda: game.seat_to_act().is_human, "the stand-in's turn to be played")
    assert game.state.turn == RUBY and game.version == 5
    await refused(server, room, game, rooms.take_back(room, s.host), "already yours")
    await rooms.take_back(room, s.guest)
    assert not room.seats[SAPPHIRE].away and game.seats[SAPPHIRE].kind == HUMAN
    await rooms.act(room, s.host, Roll(), 5)
    await finish(server, room, game, {RUBY: s.host, SAPPHIRE: s.guest})
    assert game.over  # Sam played his own moves to the end
    runner.cancel()

    await server.restart()  # as stored: Sam's own seat again
    again = await server.rooms.get(room.code)
    assert again is not None and not again.seats[SAPPHIRE].away
    assert again.seats[SAPPHIRE].kind == HUMAN and again.colour_of(s.guest) == SAPPHIRE


async def test_a_seat_handed_over_stays_with_the_stand_in_in_the_next_game(
        server: Server) -> None:
    s = await started(server)
    rooms, room, game = server.rooms, s.room, s.game
    await rooms.hand_over(room, s.host)  # the host may hand over their own seat, too
    assert room.seats[RUBY].away and game.seats[RUBY].kind == COMPUTER
    rooms.connect(room, RUBY)
    runner = asyncio.create_task(play_computers(game, 0, instant))
    await until(lambda: game.seat_to_act().is_human or game.over, "Sam's turn")
    runner.cancel()
    await rooms.take_back(room, s.host)
    assert game.seats[RUBY].kind == HUMAN


async def test_play_again_passes_the_first_opening_roll_to_the_next_seat(
        server: Server) -> None:
    s = await started(server)
    rooms, room, tokens = server.rooms, s.room, {RUBY: s.host, SAPPHIRE: s.guest}
    assert s.game.state.turn == RUBY  # the first game: the usual opening, Ruby first
    row = await server.store.game(s.game.id)
    assert row is not None and row.start == ""
    began = []
    game = s.game
    for _ in range(3):
        await finish(server, room, game, tokens)
        again = await rooms.play_again(room, s.host)
        assert again is not None and again.version == 0
        began.append(again.state.turn)
        assert again.state.contenders == (again.state.turn, RUBY + SAPPHIRE - again.state.turn)
        game = again
    assert began == [SAPPHIRE, RUBY, SAPPHIRE]
    await rooms.act(room, s.guest, Roll(), 0)  # Sapphire begins this game's opening roll
    record = await stored_record(server.store, game.id)
    assert record is not None
    steps = replay(read_record(record))  # the start is part of the record
    assert steps[0].state.turn == SAPPHIRE and steps[-1].state == game.state


async def test_a_player_leaves_after_the_game_and_the_seat_opens_again(
        server: Server) -> None:
    s = await started(server)
    rooms, room, game = server.rooms, s.room, s.game
    await refused(server, room, game, rooms.leave(room, s.guest), "once the game is over")
    await finish(server, room, game, {RUBY: s.host, SAPPHIRE: s.guest})
    await refused(server, room, game, rooms.leave(room, s.host), "host keeps the room")
    await rooms.leave(room, s.guest)
    assert room.colour_of(s.guest) is None and not room.seats[SAPPHIRE].claimed
    assert room.seats[SAPPHIRE].name == "" and room.seats[SAPPHIRE].kind == HUMAN
    with pytest.raises(Refused, match="holds no seat"):
        await rooms.leave(room, s.guest)  # leaving twice: the seat is not theirs any more

    # Play again opens the lobby for the free seat; a new player takes it.
    assert await rooms.play_again(room, s.host) is None
    assert room.status == "lobby" and room.game_id == game.id
    await drain()
    (row,) = server.rows("SELECT status FROM rooms WHERE code = ?", room.code)
    assert row["status"] == "lobby"
    with pytest.raises(RoomError, match="taken and ready"):
        await rooms.start(room, s.host)
    newcomer = await rooms.claim(room, SAPPHIRE, "Kim", *OTHER)
    await rooms.set_ready(room, newcomer, True)
    second = await rooms.start(room, s.host)
    assert second.id != game.id and second.seats[SAPPHIRE].name == "Kim"
    assert second.state.turn == SAPPHIRE  # the next game: the opening roll passes on
    with pytest.raises(Refused, match="holds no seat"):
        await rooms.act(room, s.guest, Roll(), 0)


async def test_a_seat_taken_back_after_the_game_plays_the_next_one_itself(
        server: Server) -> None:
    s = await started(server)
    rooms, room, game = server.rooms, s.room, s.game
    await rooms.hand_over(room, s.guest)
    rooms.connect(room, SAPPHIRE)
    runner = asyncio.create_task(play_computers(game, 0, instant))
    async with asyncio.timeout(TIMEOUT):
        while not game.over:  # Hana plays; Sam's stand-in plays for him
            if game.seat_to_act().is_human:
                for action in decide(game.state, "easy").actions:
                    await rooms.act(room, s.host, action, game.version)
            else:
                await asyncio.sleep(0.001)
    runner.cancel()
    row = await server.store.game(game.id)
    assert row is not None
    played_with = row.seats
    assert {x["colour"]: x["kind"] for x in json.loads(played_with)}[SAPPHIRE] == COMPUTER

    await rooms.take_back(room, s.guest)  # between games: for the next one
    assert not room.seats[SAPPHIRE].away and room.seats[SAPPHIRE].kind == HUMAN
    row = await server.store.game(game.id)
    assert row is not None and row.seats == played_with  # the record keeps who played
    again = await rooms.play_again(room, s.host)
    assert again is not None and again.seats[SAPPHIRE].kind == HUMAN
    assert again.seats[SAPPHIRE].name == "Sam"


# --- reactions -----------------------------------------------------------------------------------


async def test_a_seated_player_s_reaction_reaches_every_page_of_the_room(server: Server) -> None:
    s = await started(server)
    rooms, room = server.rooms, s.room
    heard: list[Reaction] = []
    rooms.subscribe_reactions(room, heard.append)
    sent = rooms.react(room, s.guest, 1)
    assert heard == [sent]
    assert (sent.colour, sent.name, sent.text) == (SAPPHIRE, "Sam", "Sam: Nice capture!")
    assert sent.at == server.clock.now
    server.clock.advance(REACTION_GAP)
    assert rooms.react(room, s.host, 0).text == "Hana: 👍"
    rooms.unsubscribe_reactions(room, heard.append)
    server.clock.advance(REACTION_GAP)
    rooms.react(room, s.guest, 5)
    assert len(heard) == 2  # a page that went hears nothing more
    assert len(REACTIONS) == 6
    # Nothing is stored: the room's row and the game's record are as they were.
    assert await server.store.actions(s.game.id) == []


async def test_reactions_are_refused_for_an_unknown_index_and_anyone_without_a_seat(
        server: Server) -> None:
    s = await started(server)
    rooms, room = server.rooms, s.room
    heard: list[Reaction] = []
    rooms.subscribe_reactions(room, heard.append)
    for index in (-1, len(REACTIONS), 99, True, "1", 1.0, None, [1]):
        with pytest.raises(RoomError, match="no such reaction"):
            rooms.react(room, s.guest, index)
    forged = base64.urlsafe_b64encode(secrets.token_bytes(32)).decode().rstrip("=")
    for token in (None, "", forged, s.guest + "x"):  # a watcher, a forged or missing token
        with pytest.raises(Refused, match="holds no seat"):
            rooms.react(room, token, 0)
    assert heard == []
    rooms.react(room, s.guest, 0)  # the refusals did not count against Sam's pace
    assert len(heard) == 1

    lobby_room, host = await lobby(server)  # the lobby has no table to show them on
    with pytest.raises(RoomError, match="for the game"):
        rooms.react(lobby_room, host, 0)


async def test_reactions_are_limited_to_one_every_two_seconds_and_ten_a_minute(
        server: Server) -> None:
    s = await started(server)
    rooms, room, clock = server.rooms, s.room, server.clock
    heard: list[Reaction] = []
    rooms.subscribe_reactions(room, heard.append)
    began = clock.now
    rooms.react(room, s.guest, 0)
    clock.advance(REACTION_GAP - 0.1)
    with pytest.raises(SlowDown, match="Slow down"):
        rooms.react(room, s.guest, 1)
    rooms.react(room, s.host, 1)  # each seat has its own pace
    clock.advance(0.1)
    for _ in range(REACTIONS_PER_MINUTE - 1):  # ten in all, one every two seconds
        rooms.react(room, s.guest, 2)
        clock.advance(REACTION_GAP)
    assert sum(r.colour == SAPPHIRE for r in heard) == REACTIONS_PER_MINUTE
    with pytest.raises(SlowDown):  # the eleventh in a minute
        rooms.react(room, s.guest, 3)
    clock.now = began + 60  # the first one leaves the window
    rooms.react(room, s.guest, 3)
    assert sum(r.colour == SAPPHIRE for r in heard) == REACTIONS_PER_MINUTE + 1
    assert len(rooms.reaction_gap.attempts) == 2  # one counter per seat token, no more
    clock.advance(120)
    rooms.unload_idle()
    assert not rooms.reaction_gap.attempts and not rooms.reaction_minute.attempts


async def test_the_room_says_which_players_are_away(server: Server) -> None:
    room, host = await lobby(server)
    guest = await server.rooms.claim(room, SAPPHIRE, "Sam", *HER)
    rooms = server.rooms
    assert rooms.away(room) == frozenset()  # nothing waits for anyone in a lobby
    await rooms.set_ready(room, guest, True)
    game = await rooms.start(room, host)
    assert rooms.away(room) == {RUBY, SAPPHIRE}
    rooms.connect(room, RUBY)
    rooms.connect(room, SAPPHIRE)
    rooms.connect(room, SAPPHIRE)  # two tabs
    assert rooms.away(room) == frozenset()
    rooms.disconnect(room, SAPPHIRE)
    assert rooms.away(room) == frozenset()
    rooms.disconnect(room, SAPPHIRE)
    seating = RoomSeating(rooms, room, host, game, RUBY)
    assert rooms.away(room) == seating.away() == {SAPPHIRE}
    await rooms.hand_over(room, guest)  # a computer plays for Sam: nobody is waited for
    assert rooms.away(room) == frozenset()
