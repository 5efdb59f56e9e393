"""Ratings: OpenSkill's Plackett-Luce model per game, from the places of finished games.

Every finished game is credited, seat by seat, to people (:mod:`.people`): a seat to its
person, a computer's seat to that game's computer of its level, anyone else to Guest, who
counts for nobody. A game is *rated* when at least two seats count for people (computers
count): each seat is ranked by its place; a person at several seats (four Medium computers
at one table) takes the mean of their seats' new ratings and has the game once, at their
better place. The ratings are a pure function of the finished games in the order they
finished (``games.finished_at``, then
the game's id): :meth:`Ratings.rate_pending` rates the games not rated yet in that order
(after every finish, and at start for games that finished while the server was down), and
:meth:`Ratings.rebuild` forgets every result and rates every game again from the first, so
it gives the same numbers. A game's results (one row per person) are written in one
transaction with the mark that it was rated, so a crash leaves it rated or still to rate,
never half.

A rating is shown as one cautious number, ``1000 + 40 * (mu - 3 * sigma)``: 1000 for
someone new, growing as they win and as the model grows sure of them; "provisional" until
:data:`PROVISIONAL_GAMES` rated games. No rating arithmetic is written here: OpenSkill's
model does it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import delete
from sqlmodel import Field, SQLModel, col, select

from ..core.registry import plays, rules_for
from .live import load_record, seats_of
from .people import GUEST, People, Person
from .signals import Quiet, Signals
from .stopping import wind_down
from .store import GameRow, Store, aware

log = logging.getLogger(__name__)

MODEL = PlackettLuce()
"""OpenSkill's Plackett-Luce model with its own defaults (mu 25, sigma 25/3)."""
RATED_WAIT = 5.0
"""Seconds at most a finish card of a process that does not rate waits to hear that the
game was rated."""
PROVISIONAL_GAMES = 5
"""Rated games before a rating stops being provisional."""
SHOWN_BASE, SHOWN_SCALE = 1000, 40
"""The shown number: ``SHOWN_BASE + SHOWN_SCALE * (mu - 3 * sigma)``."""


def provisional(rated_games: int) -> bool:
    """Whether a rating after ``rated_games`` games is still provisional (shown as such)."""
    return rated_games < PROVISIONAL_GAMES


def shown(mu: float, sigma: float) -> int:
    """The one number a person sees for a rating (conservative: mu less three sigma)."""
    return round(SHOWN_BASE + SHOWN_SCALE * (mu - 3 * sigma))


UNRATED = shown(MODEL.mu, MODEL.sigma)
"""The number shown for someone with no rated game yet (the model's first rating)."""


class FinishRow(SQLModel, table=True):
    """A finished game the ratings have counted (rated or not)."""

    __tablename__ = "finishes"

    game_id: str = Field(primary_key=True, max_length=32)
    kind: str = Field(max_length=16)
    rated: bool = False
    finished_at: datetime


class ResultRow(SQLModel, table=True):
    """What one finished game meant for one person."""

    __tablename__ = "results"

    game_id: str = Field(primary_key=True, max_length=32)
    person_id: str = Field(primary_key=True, index=True, max_length=32)
    kind: str = Field(max_length=16)
    colour: int
    name: str = Field(max_length=40)
    """The name the seat was played under."""
    place: int
    players: int
    """Seats at the table."""
    rated: bool
    mu: float
    sigma: float
    mu_before: float
    sigma_before: float
    captures: int = 0
    """Pieces this person's seat captured."""
    captured: int = 0
    """This person's pieces captured by others."""
    finished_at: datetime


@dataclass(frozen=True)
class Credit:
    """One seat of a finished game as the ratings count it."""

    colour: int
    person: str
    """A person's id, or ``GUEST``."""
    name: str
    place: int
    captures: int
    captured: int


@dataclass(frozen=True)
class Change:
    """A person's rating change from one game (the finish screen's "+14")."""

    person: str
    name: str
    colour: int
    rated: bool
    before: int
    after: int

    @property
    def delta(self) -> int:
        return self.after - self.before


class Ratings:
    """The ratings of one server's people, kept as results in its store."""

    def __init__(self, store: Store, people: People, rates: bool = True) -> None:
        self.store = store
        self.people = people
        self.rates = rates
        """Whether this process rates (a cluster's other shards read what shard 0 rated: the
        games must be rated one at a time, in the order they finished)."""
        self.lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[int]] = set()
        self._readers: set[asyncio.Task[Any]] = set()
        """The tasks waiting in :meth:`changes` (a finish card's): they read the store too."""
        self.signals: Signals = Quiet()
        self._hearing: dict[str, list[asyncio.Event]] = {}
        """Game id -> the finish cards of this process waiting to hear it was rated."""
        self._closed = False
        """Set at shutdown: no rating starts after it."""

    async def rate_pending(self) -> int:
        """Rate the finished games not rated yet, in the order they finished; returns how
        many. Safe to call at any time from anywhere: one rating at a time (none in a
        process that does not rate)."""
        if not self.rates:
            return 0
        async with self.lock:
            rated = await self._rate_pending()
        for game_id in rated:  # the finish cards waiting on the other shards
            self.signals.tell("rated", game_id)
        return len(rated)

    async def rebuild(self) -> int:
        """Forget every result and rate every finished game again, first to last (after a
        merge or a removal, or by hand: ``python -m parcheesi ratings --rebuild``); nothing
        in a process that does not rate."""
        if not self.rates:
            return 0
        async with self.lock:
            async with self.store.write_session() as session:
                await session.exec(delete(ResultRow))
                await session.exec(delete(FinishRow))
                await session.commit()
            return len(await self._rate_pending())

    async def _rate_pending(self) -> list[str]:
        """The ids of the games rated."""
        current = await self._ratings()
        pending = await self._pending()
        for row in pending:
            await self._rate(row, current)
        return [row.id for row in pending]

    def tell_shards(self, signals: Signals) -> None:
        """In a cluster, the rater tells the other shards of every game it rated ("rated"),
        and their finish cards waiting for it hear it at once."""
        self.signals = signals
        signals.listen("rated", self._heard_rated)

    async def _heard_rated(self, game_id: str) -> None:
        for heard in self._hearing.get(game_id, ()):
            heard.set()

    def soon(self) -> None:
        """Rate what finished, in a task of its own (a game's finish never waits for it;
        one that fails is logged, and its games wait for the next call)."""
        if self._closed or not self.rates:  # stopping: the next start rates what is left
            return
        task = asyncio.get_running_loop().create_task(self.rate_pending())
        self._tasks.add(task)
        task.add_done_callback(self._done)

    async def close(self) -> None:
        """Stop the ratings under way (the server stops): a game left unrated is rated at the
        next start, and no rating, nor a wait for one, outlives the store it uses."""
        self._closed = True
        for reader in self._readers:  # a wait only reads: nothing to finish
            reader.cancel()
        await wind_down(self._tasks | self._readers)

    def _done(self, task: asyncio.Task[int]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("rating finished games failed", exc_info=task.exception())

    async def _ratings(self) -> dict[tuple[str, str], tuple[float, float]]:
        """(game kind, person) -> (mu, sigma) after their latest rated game, as stored (read
        afresh each time: a rebuild from the command line may have changed them)."""
        rows = await self._results(select(ResultRow).where(col(ResultRow.rated).is_(True)))
        return {(r.kind, r.person_id): (r.mu, r.sigma) for r in rows}

    async def shown_ratings(self, kind: str) -> dict[str, int]:
        """Person -> the rating the leaderboard shows for game ``kind`` (rated people only)."""
        return {person: shown(mu, sigma) for (of, person), (mu, sigma)
                in (await self._ratings()).items() if of == kind}

    async def _pending(self) -> list[GameRow]:
        async with self.store.session() as session:
            counted = select(FinishRow.game_id)
            rows = (await session.exec(
                select(GameRow).where(col(GameRow.finished).is_(True),
                                      col(GameRow.id).not_in(counted))
                .order_by(col(GameRow.finished_at), col(GameRow.id)))).all()
        return [row for row in rows if plays(row.kind)]

    async def _rate(self, row: GameRow, current: dict[tuple[str, str], tuple[float, float]]
                    ) -> None:
        seats = [c for c in await self.credits(row) if c.person != GUEST]
        credits = _best_of_each(seats)
        finished_at = aware(row.finished_at or row.updated_at)
        before = {c.person: current.get((row.kind, c.person), (MODEL.mu, MODEL.sigma))
                  for c in credits}
        rated = len(seats) >= 2
        after = _rated(seats, before) if rated else dict(before)
        async with self.store.write_session() as session:
            session.add(FinishRow(game_id=row.id, kind=row.kind, rated=rated,
                                  finished_at=finished_at))
            for credit in credits:
                session.add(ResultRow(
                    game_id=row.id, person_id=credit.person, kind=row.kind,
                    colour=credit.colour, name=credit.name, place=credit.place,
                    players=len(seats_of(row)), rated=rated,
                    mu=after[credit.person][0], sigma=after[credit.person][1],
                    mu_before=before[credit.person][0], sigma_before=before[credit.person][1],
                    captures=credit.captures, captured=credit.captured,
                    finished_at=finished_at))
            await session.commit()
        if rated:
            current.update({(row.kind, person): value for person, value in after.items()})

    async def credits(self, row: GameRow) -> list[Credit]:
        """Each seat of a finished game with the person it counts for and its place."""
        rules = rules_for(row.kind)
        state, stats = await load_record(self.store, row)
        places = rules.final_places(state)
        credits = []
        for seat in seats_of(row):
            person = await self._credited(row.kind, seat.person, seat.is_human, seat.level)
            name = seat.name or (person.name if person else seat.display_name(rules.colours))
            credits.append(Credit(seat.colour, person.id if person else GUEST, name,
                                  places[seat.colour],
                                  stats.captures.get(seat.colour, 0),
                                  stats.lost.get(seat.colour, 0)))
        return credits

    async def _credited(self, kind: str, person: str, human: bool, level: str
                        ) -> Person | None:
        if person:
            return await self.people.get(person)
        if human:
            return None
        return await self.people.computer(kind, level)

    # --- reading ------------------------------------------------------------------------------

    async def changes(self, game_id: str) -> list[Change]:
        """The rating change of each person of a finished game (rating it first if it is
        still to rate; where another process rates, once it has, waiting up to
        :data:`RATED_WAIT` seconds); [] for a game not finished, or once the server stops."""
        reader = asyncio.current_task()
        if self._closed or reader is None:
            return []
        self._readers.add(reader)
        try:
            if self.rates:
                await self.rate_pending()
            else:
                await self._rated_elsewhere(game_id)
            rows = await self._results(
                select(ResultRow).where(col(ResultRow.game_id) == game_id))
        finally:
            self._readers.discard(reader)
        return [Change(r.person_id, r.name, r.colour, r.rated, shown(r.mu_before,
                                                                     r.sigma_before),
                       shown(r.mu, r.sigma)) for r in sorted(rows, key=lambda r: r.colour)]

    async def _rated_elsewhere(self, game_id: str) -> None:
        """Until the rating process has counted the game (it hears of every finish at once,
        and tells of every game it rated), for at most :data:`RATED_WAIT` seconds."""
        heard = asyncio.Event()
        hearing = self._hearing.setdefault(game_id, [])
        hearing.append(heard)
        try:
            async with self.store.session() as session:  # rated before this card asked
                if await session.get(FinishRow, game_id) is not None:
                    return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(heard.wait(), RATED_WAIT)
        finally:
            hearing.remove(heard)
            if not hearing:
                del self._hearing[game_id]

    async def results_of(self, kind: str | None = None, person: str | None = None
                         ) -> list[ResultRow]:
        """Results in the order their games finished (of one game kind, of one person)."""
        query = select(ResultRow)
        if kind is not None:
            query = query.where(col(ResultRow.kind) == kind)
        if person is not None:
            query = query.where(col(ResultRow.person_id) == person)
        return await self._results(query)

    async def games_with(self, game_ids: Iterable[str]) -> list[ResultRow]:
        """Every result of the given games."""
        ids = list(game_ids)
        if not ids:
            return []
        return await self._results(select(ResultRow).where(col(ResultRow.game_id).in_(ids)))

    async def _results(self, query: object) -> list[ResultRow]:
        async with self.store.session() as session:
            rows = (await session.exec(query)).all()  # type: ignore[call-overload]
        return sorted(rows, key=lambda r: (aware(r.finished_at), r.game_id))


def _rated(seats: list[Credit], before: dict[str, tuple[float, float]]
           ) -> dict[str, tuple[float, float]]:
    """Each person's (mu, sigma) after the game: every seat is a team of one in OpenSkill's
    ranking by place; a person at several seats (a level's computer against itself) takes
    the mean of their seats' new ratings."""
    teams = [[MODEL.rating(mu=before[c.person][0], sigma=before[c.person][1])] for c in seats]
    ranked = MODEL.rate(teams, ranks=[float(c.place) for c in seats])
    new: dict[str, list[tuple[float, float]]] = {}
    for credit, team in zip(seats, ranked, strict=True):
        new.setdefault(credit.person, []).append((team[0].mu, team[0].sigma))
    return {person: (sum(mu for mu, _ in values) / len(values),
                     sum(sigma for _, sigma in values) / len(values))
            for person, values in new.items()}


def _best_of_each(credits: list[Credit]) -> list[Credit]:
    """A person at two seats once, at the better place."""
    best: dict[str, Credit] = {}
    for credit in credits:
        held = best.get(credit.person)
        if held is None or credit.place < held.place:
            best[credit.person] = credit
    return sorted(best.values(), key=lambda c: c.colour)


async def standings(url: str, rebuild: bool = False) -> dict[str, list[dict[str, Any]]]:
    """Every game's leaderboard from the database at ``url`` once its finished games are
    rated (all of them again with ``rebuild``), as plain data (the ``ratings`` command)."""
    from .leaderboard import leaderboard

    store = Store(url)
    try:
        people = People(store)
        ratings = Ratings(store, people)
        await (ratings.rebuild() if rebuild else ratings.rate_pending())
        everyone = {p.id: p for p in await people.everyone(computers=True)}
        results = await ratings.results_of()
        kinds = sorted({r.kind for r in results})
        return {kind: [{"rank": e.rank, "person": e.person.name, "rating": e.rating,
                        "provisional": e.provisional, "games": e.games, "wins": e.wins}
                       for e in leaderboard([r for r in results if r.kind == kind], everyone)]
                for kind in kinds}
    finally:
        await store.close()
