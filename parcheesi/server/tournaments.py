"""The server's tournaments: stored, each table a room with its seats assigned, each next
round drawn once its last table ends, across restarts.

The drawing, seating and scoring are the pure engine's (:mod:`.tournament`); this module
keeps what a server adds: the row that stores a tournament (its engine value as JSON, the
room of every table, the entrants taken out), the rooms and games of a round, and the one
step that moves a tournament on (:meth:`Tournaments.settle`).

Exactly once. A table's game ends with its last action, committed as any game's. Settling
then reads every table of the round being played; the places of the tables whose games are
over, the next round drawn when none is left, and that round's rooms and games are written
in **one transaction**, guarded by the tournament's version, so a round is never drawn
twice (two tasks, two processes) and never lost: settling runs after every table's last
move and again at start, so a server stopped between a game's end and its settling draws the
round when it is back. Settling is idempotent: with nothing new ended it changes nothing.

Who plays. A person's seat is theirs alone: their browser takes it on opening the room (no
claiming, :meth:`~.rooms.Rooms.take_assigned`); computer entrants and the fillers play their
own seats, and a person taken out of the tournament has the stand-in computer play every
seat they still have. A tournament's computers play whether or not anyone watches (a room of
four computers has nobody to wait for); a person's turn waits for them, or for the turn
clock's stand-in.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import update
from sqlmodel import Field, SQLModel, col, select

from ..core.registry import AnyRules, rules_for
from .clocks import TURN_CLOCKS, UNKNOWN_CLOCK
from .live import COMPUTER, HUMAN, LiveGame, Seat, load_record
from .people import People
from .ratings import UNRATED, Ratings
from .rooms import Room, Rooms, RoomSeat, RoomStatus, new_code, normalise_code
from .shards import room_key, room_of
from .signals import Quiet, Signals
from .stopping import wind_down
from .store import ONLINE, GameRow, RoomRow, Store, VersionConflict, house_of, house_text
from .tournament import (
    Entrant,
    Settings,
    Table,
    Tournament,
    TournamentError,
    champion,
    create,
    next_round,
    over,
    record,
    standings,
)
from .tournament.play import summary

log = logging.getLogger(__name__)

ENTRANTS_LIMIT = 64
"""Entrants one tournament takes at most (a family's or a club's night, not a league)."""
RETRY_FIRST = 0.5
RETRY_MAX = 30.0
"""Seconds between tries to settle a tournament the database refused: doubling from the
first to the largest."""
SETTLE_TRIES = 3
"""Times a tournament is read and settled again when another process moved it on first."""
NO_HOST = -1
"""The host colour of a tournament table's room: nobody hosts it (nobody may start, replace
or play it again), the tournament's rules do."""


def _now() -> datetime:
    return datetime.now(UTC)


class TournamentRow(SQLModel, table=True):
    __tablename__ = "tournaments"

    code: str = Field(primary_key=True, max_length=8)
    host: str = Field(max_length=32)
    """The person who made it: they may take an entrant out."""
    kind: str = Field(max_length=16)
    house: str = Field(default="", max_length=120)
    clock: int = 0
    """Seconds a person has for each move at its tables (0: no clock)."""
    stand_in: str = Field(max_length=16)
    """The computer level that plays for a person out of time or taken out."""
    state: str
    """The engine's value (``Tournament.to_json``)."""
    rooms: str = "[]"
    """JSON: the room code of each table, a list per round."""
    names: str = "{}"
    """JSON: entrant id -> the name it was entered with (a person's current name wins)."""
    withdrawn: str = "[]"
    """JSON: the entrants taken out (their seats go to the stand-in computer)."""
    version: int = 0
    """One more with every change: a change is written only over the version it read."""
    finished: bool = Field(default=False, index=True)
    created_at: datetime = Field(default_factory=_now)
    updated_at: datetime = Field(default_factory=_now)


@dataclass
class Contest:
    """One stored tournament as the server holds it."""

    code: str
    host: str
    kind: str
    house: tuple[str, ...]
    clock: int
    stand_in: str
    tournament: Tournament
    rooms: list[list[str]]
    names: dict[str, str]
    withdrawn: frozenset[str] = frozenset()
    version: int = 0
    created_at: datetime = field(default_factory=_now)
    listeners: list[Callable[[Contest], None]] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def rules(self) -> AnyRules:
        return rules_for(self.kind)

    @property
    def over(self) -> bool:
        return over(self.tournament)

    @property
    def champion(self) -> str | None:
        return champion(self.tournament)

    def standings(self) -> list[tuple[str, int]]:
        return standings(self.tournament)

    def is_person(self, entrant: str) -> bool:
        return self.tournament.entrant(entrant).level is None

    def name(self, entrant: str) -> str:
        return self.names.get(entrant, entrant)

    def colours(self, table: Table) -> dict[int, str]:
        """Colour -> entrant of a table: its seats in order take the game's first colour set
        for that many players (as the command line's tables do)."""
        colours = self.rules.colour_sets(len(table.seats))[0]
        return dict(zip(colours, table.seats, strict=True))

    def tables(self) -> list[tuple[int, int, Table, str]]:
        """(round, table, its value, its room) of every table drawn, oldest round first."""
        return [(r, t, table, self.rooms[r][t])
                for r, round_ in enumerate(self.tournament.rounds)
                for t, table in enumerate(round_.tables)]

    def playing(self) -> list[tuple[int, Table, str]]:
        """(table, value, room) of the tables of the round under way still playing."""
        if not self.tournament.rounds:
            return []
        last = len(self.tournament.rounds) - 1
        return [(t, table, self.rooms[last][t])
                for t, table in enumerate(self.tournament.rounds[last].tables)
                if not table.played]

    def to_row(self) -> TournamentRow:
        return TournamentRow(code=self.code, host=self.host, kind=self.kind,
                             house=house_text(self.house), clock=self.clock,
                             stand_in=self.stand_in,
                             state=json.dumps(self.tournament.to_json()),
                             rooms=json.dumps(self.rooms), names=json.dumps(self.names),
                             withdrawn=json.dumps(sorted(self.withdrawn)),
                             version=self.version, finished=self.over,
                             created_at=self.created_at)

    @classmethod
    def from_row(cls, row: TournamentRow) -> Contest:
        return cls(code=row.code, host=row.host, kind=row.kind, house=house_of(row.house),
                   clock=row.clock, stand_in=row.stand_in,
                   tournament=Tournament.from_json(json.loads(row.state)),
                   rooms=json.loads(row.rooms), names=json.loads(row.names),
                   withdrawn=frozenset(json.loads(row.withdrawn)), version=row.version,
                   created_at=row.created_at)


@dataclass(frozen=True)
class Request:
    """What the person making a tournament asks for (checked by :meth:`Tournaments.create`)."""

    kind: str
    settings: Settings
    people: tuple[str, ...]
    """The ids of the people entered."""
    computers: tuple[str, ...] = ()
    """The level of each computer entrant."""
    house: tuple[str, ...] = ()
    clock: int = 0


@dataclass(frozen=True)
class YourTable:
    """A table waiting for a person: which tournament, which round and table, which room."""

    code: str
    round: int
    table: int
    room: str
    title: str


class Tournaments:
    """Every tournament of this server."""

    def __init__(self, store: Store, rooms: Rooms, people: People, ratings: Ratings,
                 start_computers: Callable[[LiveGame], None] = lambda _: None,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.store = store
        self.rooms = rooms
        self.people = people
        self.ratings = ratings
        self.start_computers = start_computers
        """Starts a table's computers (its runner): they play with nobody watching."""
        self.sleep = sleep
        """Waits between tries to settle (tests pass their own)."""
        self.contests: dict[str, Contest] = {}
        self.watchers: list[Callable[[Contest], None]] = []
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closed = False
        """Set at shutdown: nothing is settled after it."""
        self.signals: Signals = Quiet()
        """Tells the other shards when a tournament moves on (:meth:`moved_elsewhere`)."""

    def tell_shards(self, signals: Signals) -> None:
        """Tell the other shards of every change, and hear theirs."""
        self.signals = signals
        signals.listen("tournament", self.moved_elsewhere)

    async def moved_elsewhere(self, code: str) -> None:
        """Another shard moved tournament ``code`` on: read it again, set going the tables
        this shard owns, and tell this shard's pages."""
        async with self.store.session() as session:
            row = await session.get(TournamentRow, code)
        if row is None:
            return
        fresh = Contest.from_row(row)
        contest = self.contests.setdefault(code, fresh)
        async with contest.lock:
            if fresh.version > contest.version:
                contest.tournament, contest.rooms = fresh.tournament, fresh.rooms
                contest.withdrawn, contest.version = fresh.withdrawn, fresh.version
        await self._start_tables(contest)
        self._notify(contest)

    # --- making ---------------------------------------------------------------------------------

    async def create(self, host: str, request: Request) -> Contest:
        """A new tournament made by person ``host``, its first round drawn and its tables'
        rooms made, in one transaction. :class:`TournamentError` (words fit to show) for
        anything that cannot be played: an unknown game, level, house rule or person, too few
        or too many entrants, a table size the entrants cannot fill."""
        if not host or await self.people.get(host) is None:
            raise TournamentError("Choose who you are first: a tournament is made by one of "
                                  "the people of this server.")
        rules = _checked(request)
        entrants, names = await self._entrants(rules, request)
        settings = request.settings
        if settings.format == "knockout" and settings.filler is None:
            settings = replace(settings, filler=rules.table_levels[0])
        drawn = next_round(create(settings, entrants))
        assert drawn is not None  # a new tournament has a first round
        contest = Contest(code=new_code(), host=host, kind=request.kind,
                          house=tuple(sorted(request.house)), clock=request.clock,
                          stand_in=rules.default_level, tournament=drawn, rooms=[],
                          names=names)
        rooms, games = self._round_rooms(contest)
        async with self.store.write_session() as session:
            session.add(contest.to_row())
            for row in (*games, *rooms):
                session.add(row)
            await session.commit()
        self.contests[contest.code] = contest
        log.info("tournament created", extra={"tournament": contest.code,
                                              "entrants": len(entrants)})
        await self._start_tables(contest)
        self._notify(contest)
        return contest

    async def _entrants(self, rules: AnyRules, request: Request
                        ) -> tuple[list[Entrant], dict[str, str]]:
        """The entrants (people by id, computers as ``<level>-<n>``), each rated as the
        leaderboard rates them for seeding, with their names."""
        current = await self.ratings.shown_ratings(request.kind)
        entrants, names = [], {}
        for person_id in request.people:
            person = await self.people.get(person_id)
            if person is None or person.is_computer:
                raise TournamentError("One of the people entered is not on this server "
                                      "any more.")
            entrants.append(Entrant(person.id, current.get(person.id, UNRATED)))
            names[person.id] = person.name
        numbers: dict[str, int] = {}
        for level in request.computers:
            numbers[level] = numbers.get(level, 0) + 1
            computer = await self.people.computer(request.kind, level)
            entrant = f"{level}-{numbers[level]}"
            entrants.append(Entrant(entrant, current.get(computer.id, UNRATED), level))
            names[entrant] = f"{level.title()} computer {numbers[level]}"
        return entrants, names

    # --- reading --------------------------------------------------------------------------------

    async def get(self, code: str) -> Contest | None:
        text = normalise_code(code)
        contest = self.contests.get(text)
        if contest is None:
            async with self.store.session() as session:
                row = await session.get(TournamentRow, text)
            if row is None:
                return None
            contest = self.contests.setdefault(text, Contest.from_row(row))
        return contest

    async def everything(self) -> list[TournamentRow]:
        """Every tournament, the newest first (for the list page)."""
        async with self.store.session() as session:
            rows = await session.exec(select(TournamentRow).order_by(
                col(TournamentRow.created_at).desc()))
            return list(rows.all())

    async def tables_of(self, person: str) -> list[YourTable]:
        """The tables of tournaments under way that wait for ``person`` (not played yet)."""
        if not person:
            return []
        found = []
        for row in await self._unfinished():
            contest = await self.get(row.code)
            if contest is None or person in contest.withdrawn:
                continue
            for number, table, room in contest.playing():
                if person in table.seats:
                    found.append(YourTable(contest.code, len(contest.tournament.rounds),
                                           number + 1, room, contest.rules.title))
        return found

    async def _unfinished(self) -> list[TournamentRow]:
        async with self.store.session() as session:
            rows = await session.exec(select(TournamentRow).where(
                col(TournamentRow.finished).is_(False)))
            return list(rows.all())

    def results(self, contest: Contest) -> dict[str, Any]:
        """The tournament as one JSON object to download: the command line's answer
        (``docs/contracts.md``) with the entrants' names and every table's room."""
        answer = summary(contest.tournament, contest.kind)
        answer.update(code=contest.code, house=list(contest.house),
                      names={e.id: contest.name(e.id) for e in contest.tournament.entrants},
                      withdrawn=sorted(contest.withdrawn))
        for number, round_ in enumerate(answer["rounds"]):
            for k, table in enumerate(round_["tables"]):
                table["room"] = contest.rooms[number][k]
        return answer

    # --- following ------------------------------------------------------------------------------

    def subscribe(self, contest: Contest, listener: Callable[[Contest], None]) -> None:
        contest.listeners.append(listener)

    def unsubscribe(self, contest: Contest, listener: Callable[[Contest], None]) -> None:
        if listener in contest.listeners:
            contest.listeners.remove(listener)

    def watch_all(self, listener: Callable[[Contest], None]) -> None:
        """Tell ``listener`` whenever any tournament moves on (a home page, for *Your table
        is ready*)."""
        self.watchers.append(listener)

    def unwatch_all(self, listener: Callable[[Contest], None]) -> None:
        if listener in self.watchers:
            self.watchers.remove(listener)

    def _notify(self, contest: Contest) -> None:
        for listener in [*contest.listeners, *self.watchers]:
            listener(contest)

    # --- moving on ------------------------------------------------------------------------------

    def game_over(self, game: LiveGame) -> None:
        """A game ended (the hub's hook): settle its tournament, if it is a table of one."""
        if (code := room_of(game.owner)) is not None:
            self._run(self._settle_room(code))

    def soon(self) -> None:
        """Resume the tournaments under way in the background (at start)."""
        self._run(self.resume())

    def _run(self, work: Coroutine[Any, Any, Any]) -> None:
        if self._closed:  # the server is stopping: the next start settles what is left
            work.close()
            return
        task = asyncio.get_running_loop().create_task(work, name="tournaments")
        self._tasks.add(task)
        task.add_done_callback(self._done)

    async def _settle_room(self, room_code: str) -> None:
        """Settle the tournament the room is a table of; should the database fail, try
        again with a growing pause until it works (no round waits for a restart)."""
        pause = RETRY_FIRST
        while True:
            try:
                row = await self.store.room(room_code)
                if row is not None and row.tournament:
                    await self.settle(row.tournament)
                return
            except Exception as error:  # the database may be back at the next try
                log.warning("settling a tournament failed; trying again", extra={
                    "room": room_code, "reason": str(error)[:200]})
            if self._closed:  # the next start settles it
                return
            await self.sleep(pause)
            pause = min(RETRY_MAX, pause * 2)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a tournament task failed (its tournaments are settled again at the "
                      "next start)", exc_info=task.exception())

    async def close(self) -> None:
        """Stop settling (at shutdown: :func:`~.stopping.wind_down`); whatever was not
        written is settled at the next start."""
        self._closed = True
        await wind_down(self._tasks)

    async def resume(self) -> int:
        """At start: settle every tournament under way (a game may have ended while the
        server stopped) and set their tables' computers going; returns how many."""
        count = 0
        for row in await self._unfinished():
            try:
                await self.settle(row.code)
                contest = await self.get(row.code)
                if contest is not None:
                    await self._start_tables(contest)
                count += 1
            except Exception:  # one broken tournament must not stop the others
                log.exception("a tournament could not be resumed",
                              extra={"tournament": row.code})
        return count

    async def settle(self, code: str) -> Contest | None:
        """Record the tables whose games are over and, once a round is complete, draw the
        next with its rooms, in one transaction (the module's docstring). Should another
        process move the tournament on meanwhile, its value is read again and settled from
        there."""
        for _ in range(SETTLE_TRIES - 1):
            try:
                return await self._settle(code)
            except VersionConflict:
                log.info("tournament moved on elsewhere; reading it again",
                         extra={"tournament": code})
        return await self._settle(code)

    async def _settle(self, code: str) -> Contest | None:
        contest = await self.get(code)
        if contest is None:
            return None
        async with contest.lock:
            moved = await self._recorded(contest)
            if moved is contest.tournament:
                return contest
            after = replace(contest, tournament=moved, rooms=list(contest.rooms),
                            version=contest.version + 1, listeners=[])
            if after.tournament.rounds[-1].finished and not after.over:
                drawn = next_round(after.tournament)
                assert drawn is not None
                after.tournament = drawn
            rooms, games = self._round_rooms(after)
            await self._write(contest, after, rooms, games)
            contest.tournament, contest.rooms = after.tournament, after.rooms
            contest.version = after.version
        log.info("tournament settled", extra={"tournament": code,
                                              "round": len(contest.tournament.rounds)})
        self._notify(contest)
        await self.signals.send("tournament", code)
        await self._start_tables(contest)
        return contest

    async def _recorded(self, contest: Contest) -> Tournament:
        """The tournament with the places of every table of its last round whose game is
        over (the same value when none is new)."""
        tournament = contest.tournament
        number = len(tournament.rounds) - 1
        for k, table, room_code in contest.playing():
            places = await self._places(room_code)
            if places is None:
                continue
            seated = contest.colours(table)
            tournament = record(tournament, number, k,
                                {seated[colour]: place for colour, place in places.items()})
        return tournament

    async def _places(self, room_code: str) -> dict[int, int] | None:
        """Colour -> place of the room's game once it is over (None until then)."""
        room = await self.store.room(room_code)
        game = await self.store.game(room.game_id) if room and room.game_id else None
        if game is None or not game.finished:
            return None
        state, _ = await load_record(self.store, game)
        return rules_for(game.kind).final_places(state)

    async def _write(self, before: Contest, after: Contest, rooms: Sequence[RoomRow],
                     games: Sequence[GameRow]) -> None:
        """The tournament's new value with the rooms and games of a round just drawn, in one
        transaction, over the version ``before`` read."""
        row = after.to_row()
        async with self.store.write_session() as session:
            moved = await session.exec(
                update(TournamentRow)
                .where(col(TournamentRow.code) == before.code,
                       col(TournamentRow.version) == before.version)
                .values(state=row.state, rooms=row.rooms, version=row.version,
                        finished=row.finished, updated_at=_now()))
            if moved.rowcount != 1:
                # Another task or process moved it on: read it again next time.
                self.contests.pop(before.code, None)
                raise VersionConflict(f"tournament {before.code} changed meanwhile")
            for made in (*games, *rooms):
                session.add(made)
            await session.commit()

    def _round_rooms(self, contest: Contest) -> tuple[list[RoomRow], list[GameRow]]:
        """The rooms and games of the last round's tables that have no room yet (its code
        added to ``contest.rooms``); none when the round has them."""
        if len(contest.rooms) == len(contest.tournament.rounds):
            return [], []
        rooms, games, codes = [], [], []
        for number, table in enumerate(contest.tournament.rounds[-1].tables):
            room, game = self._table(contest, len(contest.rooms), number, table)
            rooms.append(room)
            games.append(game)
            codes.append(room.code)
        contest.rooms = [*contest.rooms, codes]
        return rooms, games

    def _table(self, contest: Contest, round_no: int, table_no: int, table: Table
               ) -> tuple[RoomRow, GameRow]:
        """A table's room, its seats assigned, and its game, started (not stored yet)."""
        seats = [self._seat(contest, colour, entrant)
                 for colour, entrant in contest.colours(table).items()]
        code = new_code()
        row, _ = self.rooms.hub.new_row(room_key(code), ONLINE, seats, contest.kind,
                                        contest.house, clock=contest.clock,
                                        stand_in=contest.stand_in)
        room = Room(code=code, host=NO_HOST, status=RoomStatus.PLAYING, kind=contest.kind,
                    house=contest.house, clock=contest.clock, stand_in=contest.stand_in,
                    game_id=row.id, tournament=contest.code,
                    seats={s.colour: RoomSeat(colour=s.colour, kind=s.kind, level=s.level,
                                              name=s.name, person=s.person, ready=True)
                           for s in seats})
        log.info("tournament table", extra={"tournament": contest.code, "room": code,
                                            "round": round_no + 1, "table": table_no + 1})
        return room.to_row(), row

    def _seat(self, contest: Contest, colour: int, entrant: str) -> Seat:
        """The seat of an entrant: a person's own, a computer entrant's at its level, the
        stand-in's for a person taken out."""
        level = contest.tournament.entrant(entrant).level
        name = contest.name(entrant)
        if level is not None:
            return Seat(colour=colour, kind=COMPUTER, level=level, name=name)
        if entrant in contest.withdrawn:
            return Seat(colour=colour, kind=COMPUTER, level=contest.stand_in, name=name)
        return Seat(colour=colour, kind=HUMAN, name=name, person=entrant)

    async def _start_tables(self, contest: Contest) -> None:
        """Set the computers of the tables under way going, the stand-in seated for anyone
        taken out (again, should a stop have come between the two)."""
        for _, _, room_code in contest.playing():
            if not self.rooms.owns(room_code):  # its own shard sets it going
                continue
            room = await self.rooms.get(room_code)
            if room is None:
                log.error("a tournament table's room is gone", extra={
                    "tournament": contest.code, "room": room_code})
                continue
            for seat in list(room.seats.values()):
                if seat.person and seat.person in contest.withdrawn:
                    await self.rooms.stand_in(room, seat.colour)
            game = await self.rooms.game(room)
            if game is not None and not game.over:
                self.start_computers(game)

    # --- the host's changes ---------------------------------------------------------------------

    async def withdraw(self, code: str, by: str, entrant: str) -> Contest:
        """The tournament's host takes person ``entrant`` out: the seats they have now and
        every seat they would get go to the stand-in computer, who plays on for them (their
        results stay theirs in the tournament)."""
        contest = await self.get(code)
        if contest is None:
            raise TournamentError("There is no tournament with that code.")
        if not by or by != contest.host:
            raise TournamentError("Only the person who made the tournament can take an "
                                  "entrant out.")
        if entrant not in contest.tournament.index or not contest.is_person(entrant):
            raise TournamentError("Only a person entered in this tournament can be taken "
                                  "out.")
        if contest.over:
            raise TournamentError("The tournament is over.")
        async with contest.lock:
            if entrant in contest.withdrawn:
                raise TournamentError(f"{contest.name(entrant)} is already out.")
            after = replace(contest, withdrawn=contest.withdrawn | {entrant},
                            version=contest.version + 1, listeners=[])
            async with self.store.write_session() as session:
                moved = await session.exec(
                    update(TournamentRow)
                    .where(col(TournamentRow.code) == code,
                           col(TournamentRow.version) == contest.version)
                    .values(withdrawn=after.to_row().withdrawn, version=after.version,
                            updated_at=_now()))
                if moved.rowcount != 1:
                    self.contests.pop(code, None)
                    raise TournamentError("The tournament changed meanwhile; try again.")
                await session.commit()
            contest.withdrawn, contest.version = after.withdrawn, after.version
        log.info("tournament entrant withdrawn", extra={"tournament": code})
        await self._start_tables(contest)
        self._notify(contest)
        await self.signals.send("tournament", code)
        return contest


def _checked(request: Request) -> AnyRules:
    """The game's rules, once everything ``request`` names is known to be playable: the
    game and its house rules, the turn clock, the computers' levels, entrants listed once
    and not too many."""
    try:
        rules = rules_for(request.kind)
        rules.new_state(rules.colour_sets(2)[0], tuple(request.house))
    except (KeyError, ValueError) as error:
        raise TournamentError(str(error).strip("'\"")) from None
    if request.clock not in TURN_CLOCKS:
        raise TournamentError(UNKNOWN_CLOCK)
    filler = request.settings.filler
    for level in (*request.computers, *([filler] if filler else [])):
        if level not in rules.table_levels:
            raise TournamentError(f"{rules.title}'s computers are "
                                  f"{', '.join(rules.table_levels)}, not {level!r}.")
    if len(set(request.people)) != len(request.people):
        raise TournamentError("A person is entered twice.")
    if len(request.people) + len(request.computers) > ENTRANTS_LIMIT:
        raise TournamentError(f"A tournament takes at most {ENTRANTS_LIMIT} entrants.")
    return rules


__all__ = ["ENTRANTS_LIMIT", "NO_HOST", "Contest", "Request", "TournamentRow", "Tournaments",
           "YourTable"]
