"""Shards: the owner hash, the settings, the PostgreSQL locks that keep a room live in one
process at most, and the notices between shards (parcheesi/server/shards.py, signals.py)."""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest
from people_helpers import finished_game
from tournament_helpers import Site

from parcheesi.server import tournaments as tournaments_module
from parcheesi.server.config import ConfigError, parse
from parcheesi.server.live import COMPUTER, HUMAN, Hub, Seat
from parcheesi.server.people import People
from parcheesi.server.ratings import Ratings
from parcheesi.server.rooms import Busy, Rooms
from parcheesi.server.shards import (
    AdvisoryLocks,
    Elsewhere,
    Shard,
    lock_id,
    owner_path,
    prefixed,
    relative_to,
    room_key,
    shard_of,
)
from parcheesi.server.signals import Notices
from parcheesi.server.store import Store
from parcheesi.server.tournament import Settings
from parcheesi.server.tournaments import Request


def test_the_owner_hash_is_fixed_once_and_for_all() -> None:
    # Every shard and every restart must agree: these owners may never change, or rooms
    # would move to another shard after an upgrade.
    assert [shard_of(room_key(code), 2) for code in ("AFP9XEWM", "ABCD2345", "ZZZZ9999")] \
        == [1, 0, 0]
    assert [shard_of(room_key(code), 3) for code in ("AFP9XEWM", "ABCD2345", "ZZZZ9999")] \
        == [1, 0, 2]
    assert shard_of("any key", 1) == 0


def test_the_hash_spreads_rooms_evenly() -> None:
    owners = Counter(shard_of(room_key(f"ROOM{k:04d}"), 4) for k in range(4000))
    assert set(owners) == {0, 1, 2, 3}
    assert all(900 <= count <= 1100 for count in owners.values())


def test_lock_ids_are_signed_64_bit_numbers() -> None:
    ids = {lock_id(room_key(f"ROOM{k:04d}")) for k in range(1000)}
    assert len(ids) == 1000
    assert all(-(1 << 63) <= i < (1 << 63) for i in ids)


@pytest.mark.parametrize(("text", "index", "count"), [("0/1", 0, 1), ("1/2", 1, 2),
                                                       (" 3/4 ", 3, 4)])
def test_a_shard_is_written_i_of_n(text: str, index: int, count: int) -> None:
    assert Shard.parse(text) == Shard(index, count)


@pytest.mark.parametrize("text", ["2/2", "1", "-1/2", "0/0", "a/b", "0/65", ""])
def test_an_impossible_shard_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="shard"):
        Shard.parse(text)


def test_shards_need_postgresql_and_say_so(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="PostgreSQL"):
        parse(["--shard", "0/2", "--data-dir", str(tmp_path)], environ={})
    with pytest.raises(ConfigError, match="i/N"):
        parse(["--shard", "two", "--data-dir", str(tmp_path)], environ={})
    config = parse(["--data-dir", str(tmp_path)],
                   environ={"PARCHEESI_SHARD": "1/2",
                            "PARCHEESI_DATABASE_URL": "postgresql+psycopg://x@h/db"})
    assert config.shard == Shard(1, 2)
    assert parse(["--data-dir", str(tmp_path)], environ={}).shard.alone


def test_a_lone_server_owns_everything_under_no_prefix() -> None:
    alone = Shard()
    assert alone.owns(room_key("ABCD2345")) and alone.owns("browser-id")
    assert alone.prefix == ""
    second = Shard(1, 2)
    assert second.prefix == "/s/1"
    assert second.owns(room_key("AFP9XEWM")) and not second.owns(room_key("ABCD2345"))


def test_the_way_to_the_owner() -> None:
    assert owner_path(1, "/room/ABCD2345") == "/s/1/room/ABCD2345"
    assert owner_path(0, "/", "a=1") == "/s/0/?a=1"
    # From under a prefix (NiceGUI would put the request's prefix before an absolute path)
    assert relative_to("/s/0/room/ABCD2345", "/s/1/room/ABCD2345") == \
        "../../../s/1/room/ABCD2345"
    assert relative_to("/s/0/", "/s/1/") == "../../s/1/"
    assert prefixed("/s/3/room/X") == (3, "/room/X")
    assert prefixed("/s/3") == (3, "/")
    assert prefixed("/room/X") is None


# --- PostgreSQL: the locks ----------------------------------------------------------------------

async def until(check: Callable[[], Awaitable[bool]], seconds: float = 10.0) -> bool:
    """Whether ``check`` comes true within ``seconds`` (asked every 50 ms)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not await check():
        if loop.time() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


def _never_lost() -> None:
    raise AssertionError("the lock connection was lost")


async def test_a_key_is_held_by_one_process_at_a_time(postgres_url: str) -> None:
    first, second = AdvisoryLocks(postgres_url, _never_lost), AdvisoryLocks(postgres_url,
                                                                           _never_lost)
    try:
        assert await first.take("room:ABCD2345")
        assert await first.take("room:ABCD2345")  # held already: again yes
        assert not await second.take("room:ABCD2345")
        assert await second.take("room:OTHER234")
        await first.keep_only({"room:SOMETHING"})  # no longer live in the first
        assert first.held == set()
        assert await second.take("room:ABCD2345")
        assert not await first.take("room:ABCD2345")
    finally:
        await first.close()
        await second.close()


async def test_a_dead_process_holds_nothing(postgres_url: str) -> None:
    """A shard killed outright: its connection closes and PostgreSQL frees its locks."""
    dead, alive = AdvisoryLocks(postgres_url, _never_lost), AdvisoryLocks(postgres_url,
                                                                          _never_lost)
    try:
        assert await dead.take("room:ABCD2345")
        assert not await alive.take("room:ABCD2345")
        await dead.close()  # what the kernel does to a killed process's sockets
        # PostgreSQL frees them as the dead connection's backend ends, moments later
        assert await until(lambda: alive.take("room:ABCD2345"))
    finally:
        await alive.close()


async def test_a_shard_whose_lock_connection_dies_stops(postgres_url: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("parcheesi.server.shards.HEARTBEAT", 0.05)
    stopped = asyncio.Event()
    locks = AdvisoryLocks(postgres_url, stopped.set)
    try:
        assert await locks.take("room:ABCD2345")
        pid = await locks._ask("SELECT pg_backend_pid()")
        libpq = postgres_url.replace("postgresql+psycopg://", "postgresql://", 1)
        with psycopg.connect(libpq, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        await asyncio.wait_for(stopped.wait(), 10)
        assert locks.held == set()
    finally:
        await locks.close()


@dataclass
class Process:
    """One server process's rooms over the shared database."""

    store: Store
    hub: Hub
    rooms: Rooms


@pytest.fixture
async def two_processes(postgres_url: str) -> AsyncIterator[tuple[Process, Process]]:
    made = []
    for _ in range(2):
        store = Store(postgres_url)
        await store.init()
        hub = Hub(store)
        hub.owners = AdvisoryLocks(postgres_url, _never_lost)
        made.append(Process(store, hub, Rooms(store, hub)))
    yield made[0], made[1]
    for process in made:
        await process.hub.owners.close()
        await process.store.close()


SEATS = [Seat(0, HUMAN, name="Hana"), Seat(2, COMPUTER, level="easy")]


async def test_two_shards_that_disagree_never_hold_one_room(
        two_processes: tuple[Process, Process]) -> None:
    """Both processes think they own everything (started with different shard counts): the
    lock still lets only one have the room live, and its game."""
    first, second = two_processes
    room, token = await first.rooms.create(SEATS)
    game = await first.rooms.start(room, token)
    with pytest.raises(Busy, match="restarting"):
        await second.rooms.get(room.code)
    with pytest.raises(Elsewhere):
        await second.hub.get(game.id)
    # Read only, the other process still sees it (a home page's list)
    seen = await second.rooms.look(room.code)
    assert seen is not None and seen.code == room.code and room.code not in second.rooms.rooms
    # The first lets it go (unloaded as idle): now the second may have it
    first.rooms.rooms.clear()
    first.hub.games.clear()
    await first.hub.owners.keep_only(set())
    assert (await second.rooms.get(room.code)) is not None
    assert (await second.hub.get(game.id)) is not None


async def test_a_room_made_on_any_shard_is_live_only_at_its_code_s_owner(
        two_processes: tuple[Process, Process]) -> None:
    """One browser's rooms spread over the shards by their codes: the shard that made a room
    another owns keeps nothing of it live, and the owner serves it from its first visit."""
    first, second = two_processes
    first.hub.shard, second.hub.shard = Shard(0, 2), Shard(1, 2)
    made = [await first.rooms.create(SEATS) for _ in range(40)]
    owners = [shard_of(room_key(room.code), 2) for room, _ in made]
    assert set(owners) == {0, 1}  # both, but once in 2^39 runs
    for (room, token), owner in zip(made, owners, strict=True):
        maker_has_it = room.code in first.rooms.rooms
        assert maker_has_it == (owner == 0)
        if owner == 0:
            with pytest.raises(Busy):  # not the second's: it never loads it, lock or no lock
                await second.rooms.get(room.code)
            assert (await second.rooms.find(room.code, "b", "a", live=False)).code == room.code
        else:
            theirs = await second.rooms.get(room.code)  # the owner loads it as stored
            assert theirs is not None and theirs.colour_of(token) == 0
            await second.rooms.start(theirs, token)  # and the host's token holds its seat


# --- PostgreSQL: the notices --------------------------------------------------------------------

async def test_a_notice_reaches_the_other_shards_only(postgres_url: str) -> None:
    sender, other = Notices(postgres_url, "0/2"), Notices(postgres_url, "1/2")
    heard: dict[str, list[str]] = {"0/2": [], "1/2": []}
    done = asyncio.Event()

    def listener(name: str):
        async def hear(text: str) -> None:
            heard[name].append(text)
            done.set()
        return hear

    sender.listen("tournament", listener("0/2"))
    other.listen("tournament", listener("1/2"))
    other.listen("elsewhere", listener("nobody"))
    for notices in (sender, other):
        notices.start()
        await asyncio.wait_for(notices.ready.wait(), 10)
    try:
        await sender.send("tournament", "T2345678")
        await asyncio.wait_for(done.wait(), 10)
        await sender.send("tournament", "AGAIN")  # the first's own notice stays its own
        await asyncio.sleep(0.2)
        assert heard == {"0/2": [], "1/2": ["T2345678", "AGAIN"]}
    finally:
        await sender.close()
        await other.close()


async def test_a_room_s_followers_on_another_shard_hear_its_stored_changes(
        two_processes: tuple[Process, Process], postgres_url: str) -> None:
    """A home page on the second shard lists a room of the first: a seat claimed and
    readied there reaches it through a notice; a page coming or going does not."""
    first, second = two_processes
    notices = [Notices(postgres_url, "0/2"), Notices(postgres_url, "1/2")]
    first.rooms.tell_shards(notices[0])
    second.rooms.tell_shards(notices[1])
    for each in notices:
        each.start()
        await asyncio.wait_for(each.ready.wait(), 10)
    try:
        room, _ = await first.rooms.create([Seat(0, HUMAN, name="Hana"), Seat(2, HUMAN)])
        heard: list[str] = []
        arrived = asyncio.Event()

        def follower(code: str) -> None:
            heard.append(code)
            arrived.set()

        second.rooms.follow(room.code, follower)
        token = await first.rooms.claim(room, 2, "Sam")
        await asyncio.wait_for(arrived.wait(), 10)
        assert heard == [room.code]
        first.rooms.connect(room, 2)  # presence: not what a list shows, nobody is told
        arrived.clear()
        await first.rooms.set_ready(room, token, True)
        await asyncio.wait_for(arrived.wait(), 10)  # notices come in the order sent
        assert heard == [room.code, room.code]
        second.rooms.unfollow(room.code, follower)
        assert room.code not in second.rooms.followers
    finally:
        for each in notices:
            await each.close()


async def test_a_finish_card_on_another_shard_hears_its_game_rated(
        two_processes: tuple[Process, Process], postgres_url: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the first shard rates; a finish card on the second waits for the rating and
    hears it through a notice the moment it is stored, not by reading the database again."""
    first, second = two_processes
    people = [People(process.store) for process in (first, second)]
    rater = Ratings(first.store, people[0], rates=True)
    reader = Ratings(second.store, people[1], rates=False)
    notices = [Notices(postgres_url, "0/2"), Notices(postgres_url, "1/2")]
    rater.tell_shards(notices[0])
    reader.tell_shards(notices[1])
    for each in notices:
        each.start()
        await asyncio.wait_for(each.ready.wait(), 10)
    try:
        ann, _ = await people[0].add("Ann")
        ben, _ = await people[0].add("Ben")
        game = await finished_game(first.store, 1, [
            Seat(0, HUMAN, name="Ann", person=ann.id), Seat(2, HUMAN, name="Ben",
                                                            person=ben.id)])
        monkeypatch.setattr("parcheesi.server.ratings.RATED_WAIT", 60.0)
        waiting = asyncio.create_task(reader.changes(game))
        await asyncio.sleep(0.2)
        assert not waiting.done()
        assert await rater.rate_pending() == 1
        shown = await asyncio.wait_for(waiting, 10)
        assert [(c.name, c.rated) for c in shown] == [("Ann", True), ("Ben", True)]
    finally:
        for each in notices:
            await each.close()


async def test_a_malformed_notice_is_dropped(postgres_url: str,
                                             caplog: pytest.LogCaptureFixture) -> None:
    notices = Notices(postgres_url, "1/2")
    heard: list[str] = []

    async def hear(text: str) -> None:
        heard.append(text)

    notices.listen("tournament", hear)
    notices._dispatch("not json")
    notices._dispatch('{"topic": "tournament"}')
    await asyncio.sleep(0)
    assert heard == []
    assert "malformed" in caplog.text


# --- a tournament over two shards ---------------------------------------------------------------

def codes_taking_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tournament's new codes owned by shard 0 and shard 1 in turn (still drawn at random):
    four random tables all land on one of two shards one time in eight."""
    draw = tournaments_module.new_code
    turns = itertools.cycle((0, 1))

    def taking_turns() -> str:
        wanted = next(turns)
        return next(code for code in iter(draw, None)
                    if shard_of(room_key(code), 2) == wanted)

    monkeypatch.setattr(tournaments_module, "new_code", taking_turns)


async def test_a_tournament_whose_tables_are_on_two_shards_is_played_to_its_champion(
        postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Eight computers at tables of two: each shard plays its own tables, whoever ends a
    round draws the next, and the other shard hears of it and sets its new tables going
    (nobody has a page open anywhere)."""
    codes_taking_turns(monkeypatch)
    sites = [Site.open(postgres_url) for _ in range(2)]
    notices = []
    for index, site in enumerate(sites):
        await site.store.init()
        site.hub.shard = Shard(index, 2)
        site.hub.owners = AdvisoryLocks(postgres_url, _never_lost)
        site.ratings.soon = lambda: None  # type: ignore[method-assign]  # not what is tested
        notice = Notices(postgres_url, f"{index}/2")
        site.tournaments.tell_shards(notice)
        notice.start()
        notices.append(notice)
    try:
        for notice in notices:
            await asyncio.wait_for(notice.ready.wait(), 10)
        ann = (await sites[0].people.add("Ann"))[0].id
        contest = await sites[0].tournaments.create(ann, Request(
            "ludo", Settings("knockout", table_size=2, advance=1), (), ("easy",) * 8))
        tables = contest.rooms[0]
        assert {shard_of(room_key(code), 2) for code in tables} == {0, 1}
        for site in sites:
            await site.tournaments.resume()  # each sets its own tables going
        assert await until(lambda: finished(sites[1], contest.code), 120)
        final = await sites[0].tournaments.get(contest.code)
        assert final is not None
        for site in sites:  # each shard played only its own tables' games
            owners = {game.owner for game in site.hub.games.values()}
            assert all(site.hub.shard.owns(owner) for owner in owners)
        assert len(final.tournament.rounds) == 3
    finally:
        for notice in notices:
            await notice.close()
        for site in sites:
            await site.hub.owners.close()
            await site.close()


async def finished(site: Site, code: str) -> bool:
    """Whether the site's copy of the tournament is over (kept up by the notices)."""
    contest = await site.tournaments.get(code)
    return contest is not None and contest.over
