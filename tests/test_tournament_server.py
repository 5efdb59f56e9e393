"""The server's tournaments: stored, every table a room with its seats assigned, the next
round drawn exactly once when the last table ends (also across a restart and with two
processes settling at once), people taken out, bad requests refused with nothing made."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import select
from tournament_helpers import Site, play_out

from parcheesi.server.live import COMPUTER, HUMAN, Seat
from parcheesi.server.rooms import RoomStatus, expired
from parcheesi.server.store import GameRow, RoomRow
from parcheesi.server.tournament import Settings, TournamentError
from parcheesi.server.tournaments import NO_HOST, Request, TournamentRow

KNOCKOUT = Settings("knockout", table_size=4, advance=2)


@pytest.fixture
async def site(database_url):
    opened = Site.open(database_url)
    yield opened
    await opened.close()


async def four_people(site: Site) -> list[str]:
    return [(await site.people.add(name))[0].id for name in ("Ann", "Ben", "Cat", "Dan")]


def knockout(people: list[str], kind: str = "ludo") -> Request:
    return Request(kind, KNOCKOUT, tuple(people), ("easy",) * 4)


async def stored_rooms(site: Site) -> list[RoomRow]:
    async with site.store.session() as session:
        return list((await session.exec(select(RoomRow))).all())


async def test_a_knockout_of_people_and_computers_seats_every_table_in_a_room(site):
    people = await four_people(site)
    contest = await site.tournaments.create(people[0], knockout(people))
    first = contest.tournament.rounds[0]
    assert [len(t.seats) for t in first.tables] == [4, 4]
    assert len(contest.rooms) == 1 and len(contest.rooms[0]) == 2
    for table, code in zip(first.tables, contest.rooms[0], strict=True):
        room = await site.rooms.get(code)
        assert room is not None and room.tournament == contest.code
        assert room.status == RoomStatus.PLAYING and room.host == NO_HOST
        game = await site.rooms.game(room)
        assert game is not None and game.owner == f"room:{code}"
        for colour, entrant in contest.colours(table).items():
            seat = room.seats[colour]
            if entrant in people:
                assert (seat.kind, seat.person, seat.claimed) == (HUMAN, entrant, False)
                assert game.seats[colour].person == entrant
            else:
                assert (seat.kind, seat.level) == (COMPUTER, "easy")
    # Nobody claims a tournament seat: a person's browser is given theirs, nobody else's.
    room = await site.rooms.get(contest.rooms[0][0])
    assert room is not None
    mine = next(e for e in first.tables[0].seats if e in people)
    theirs = next(e for e in first.tables[1].seats if e in people)
    token = await site.rooms.take_assigned(room, mine)
    assert token is not None and room.seats[room.colour_of(token)].person == mine
    assert await site.rooms.take_assigned(room, theirs) is None
    assert await site.rooms.take_assigned(room, "") is None
    tables = await site.tournaments.tables_of(mine)
    assert [(t.code, t.round, t.table, t.room) for t in tables] == [
        (contest.code, 1, 1, contest.rooms[0][0])]


async def test_the_next_round_is_drawn_once_when_the_last_table_ends(site):
    people = await four_people(site)
    contest = await site.tournaments.create(people[0], knockout(people))
    first = contest.tournament.rounds[0]
    await play_out(await site.table_game(contest.rooms[0][0]))
    contest = await site.settled(contest, 1)
    assert len(contest.tournament.rounds) == 1 and contest.tournament.rounds[0].tables[0].played
    await play_out(await site.table_game(contest.rooms[0][1]))
    contest = await site.settled(contest, 2)
    final = contest.tournament.rounds[1].tables[0]
    through = {e for table in contest.tournament.rounds[0].tables
               for e, _ in table.finish()[:2]}
    assert set(final.seats) == through and len(contest.rooms[1]) == 1
    assert [t.seats for t in contest.tournament.rounds[0].tables] == [
        t.seats for t in first.tables]
    assert len(await stored_rooms(site)) == 3
    await play_out(await site.table_game(contest.rooms[1][0]))
    contest = await site.settled(contest, 3)
    assert contest.over
    assert contest.champion == contest.tournament.rounds[1].tables[0].finish()[0][0]
    async with site.store.session() as session:
        row = await session.get(TournamentRow, contest.code)
    assert row is not None and row.finished
    # Every table is an ordinary game record, rated like any game.
    await site.ratings.rate_pending()
    rated = {r.game_id for r in await site.ratings.results_of("ludo")}
    games = {(await site.store.room(code)).game_id for codes in contest.rooms
             for code in codes}
    assert games <= rated
    answer = site.tournaments.results(contest)
    assert answer["champion"] == contest.champion and answer["code"] == contest.code
    assert [len(r["tables"]) for r in answer["rounds"]] == [2, 1]
    assert answer["names"][people[0]] == "Ann"
    assert json.loads(json.dumps(answer)) == answer


async def test_a_round_ended_while_the_server_was_down_is_drawn_at_start_once(database_url):
    first = Site.open(database_url, settle_on_finish=False)  # stops before settling
    people = await four_people(first)
    contest = await first.tournaments.create(people[0], knockout(people))
    for code in contest.rooms[0]:
        await play_out(await first.table_game(code))
    await first.close()
    # Two processes start over the same database and settle at once: one round is drawn.
    again, other = Site.open(database_url), Site.open(database_url)
    try:
        for site in (again, other):  # Alembic migrates one database at a time per process
            await site.store.init()
        await asyncio.gather(again.tournaments.resume(), other.tournaments.resume())
        for site in (again, other):
            await asyncio.gather(*site.tournaments._tasks)
        async with again.store.session() as session:
            row = await session.get(TournamentRow, contest.code)
            games = (await session.exec(select(GameRow))).all()
        assert row is not None and len(json.loads(row.rooms)) == 2
        assert len(json.loads(row.state)["rounds"]) == 2
        assert len(await stored_rooms(again)) == 3 and len(games) == 3
        resumed = await again.tournaments.get(contest.code)
        assert resumed is not None and len(resumed.playing()) == 1
    finally:
        await again.close()
        await other.close()


async def test_an_entrant_taken_out_is_played_by_the_stand_in(site):
    people = await four_people(site)
    contest = await site.tournaments.create(people[0], knockout(people))
    out = people[1]
    number = next(k for k, t in enumerate(contest.tournament.rounds[0].tables)
                  if out in t.seats)
    colour = next(c for c, e in contest.colours(
        contest.tournament.rounds[0].tables[number]).items() if e == out)
    with pytest.raises(TournamentError, match="Only the person who made"):
        await site.tournaments.withdraw(contest.code, people[2], out)
    with pytest.raises(TournamentError, match="Only a person entered"):
        await site.tournaments.withdraw(contest.code, people[0], "easy-1")
    await site.tournaments.withdraw(contest.code, people[0], out)
    with pytest.raises(TournamentError, match="already out"):
        await site.tournaments.withdraw(contest.code, people[0], out)
    room = await site.rooms.get(contest.rooms[0][number])
    assert room is not None
    seat = room.seats[colour]
    assert (seat.kind, seat.level, seat.person) == (COMPUTER, contest.stand_in, "")
    game = await site.rooms.game(room)
    assert game is not None and not game.seats[colour].is_human
    assert await site.tournaments.tables_of(out) == []
    assert await site.rooms.take_assigned(room, out) is None


@pytest.mark.parametrize("change, message", [
    (dict(people=()), "needs at least 4 entrants"),
    (dict(computers=("expert-ish",)), "computers are"),
    (dict(kind="chess"), "chess"),
    (dict(house=("no-such-rule",)), "no-such-rule"),
    (dict(clock=7), "turn clock"),
    (dict(people=("nobody",)), "not on this server"),
    (dict(computers=("easy",) * 63), "at most 64 entrants"),
    (dict(settings=Settings("knockout", filler="wizard")), "not 'wizard'"),
])
async def test_bad_requests_are_refused_with_nothing_made(site, change, message):
    people = await four_people(site)
    values = dict(kind="ludo", settings=KNOCKOUT, people=tuple(people[:2]),
                  computers=("easy",), house=(), clock=0)
    values.update(change)
    with pytest.raises(TournamentError, match=message):
        await site.tournaments.create(people[0], Request(**values))
    with pytest.raises(TournamentError, match="Choose who you are"):
        await site.tournaments.create("", knockout(people))
    with pytest.raises(TournamentError, match="entered twice"):
        await site.tournaments.create(people[0], knockout([*people, people[0]]))
    assert await stored_rooms(site) == [] and await site.tournaments.everything() == []


async def test_a_swiss_at_tables_of_two_refuses_an_odd_field(site):
    people = await four_people(site)
    with pytest.raises(TournamentError, match="even number"):
        await site.tournaments.create(people[0], Request(
            "ludo", Settings("swiss", table_size=2, rounds=2), tuple(people[:3])))


async def test_computers_play_on_after_a_restart_in_the_middle_of_a_round(database_url):
    """Nobody has a page open: the computers of a table play it out, and a server stopped
    mid-game has them carry on from where the database says when it starts again."""
    first = Site.open(database_url)
    ann = (await first.people.add("Ann"))[0].id
    contest = await first.tournaments.create(ann, Request(
        "ludo", KNOCKOUT, (), ("easy",) * 4))  # Ann makes it; four computers play
    game = await first.table_game(contest.rooms[0][0])
    while game.version < 6:
        game.changed.clear()
        await game.changed.wait()
    await first.close()
    stopped_at = game.version
    again = Site.open(database_url)
    try:
        assert await again.tournaments.resume() == 1
        resumed = await again.table_game(contest.rooms[0][0])
        assert resumed.version >= stopped_at
        await play_out(resumed)
        contest = await again.settled(contest, 1)
        assert contest.over and contest.champion in {"easy-1", "easy-2", "easy-3", "easy-4"}
    finally:
        await again.close()


async def test_a_tournament_table_never_expires(site):
    """Rooms nobody plays in for 30 days are deleted; a tournament's tables stay (its page
    and results name them, and its next round waits for them)."""
    people = await four_people(site)
    contest = await site.tournaments.create(people[0], knockout(people))
    ordinary, _ = await site.rooms.create(
        [Seat(0, HUMAN, name="Ann", person=people[0]), Seat(2, COMPUTER, "easy")])
    later = datetime.now(UTC) + timedelta(days=31)
    assert await site.rooms.cleanup(now=later) == 1
    codes = {row.code for row in await stored_rooms(site)}
    assert codes == set(contest.rooms[0]) and ordinary.code not in codes
    room = await site.rooms.get(contest.rooms[0][0])
    assert room is not None
    room.last_action_at = later - timedelta(days=62)
    assert not expired(room)


async def test_a_database_failing_as_a_table_ends_delays_the_next_round_only(
        site, monkeypatch):
    people = await four_people(site)
    contest = await site.tournaments.create(people[0], knockout(people))
    pauses: list[float] = []

    async def pause(seconds: float) -> None:
        pauses.append(seconds)

    site.tournaments.sleep = pause
    room = site.store.room
    failures = iter([True, True, False])

    async def flaky(code: str):
        if next(failures, False):
            raise OSError("database is locked")
        return await room(code)

    await play_out(await site.table_game(contest.rooms[0][0]))
    await site.settled(contest, 1)
    monkeypatch.setattr(site.store, "room", flaky)
    await play_out(await site.table_game(contest.rooms[0][1]))
    contest = await site.settled(contest, 2)
    assert len(contest.tournament.rounds) == 2 and pauses == [0.5, 1.0]
