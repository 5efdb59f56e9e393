"""The leaderboard and a person's page, worked out from the stored results (pure: results
in, rows out; :mod:`.ratings` writes the results).

The leaderboard of a game ranks the people who played it by their shown rating (computers
among them, as the rows to measure against); a person's page gathers their rating after
every rated game, their record against each other person, their recent games, their
favourite colour and the captures they made and suffered.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from .people import Person
from .ratings import ResultRow, provisional, shown
from .store import aware

RECENT_GAMES = 20
"""Games a person's page lists."""


@dataclass(frozen=True)
class Entry:
    """One row of a game's leaderboard."""

    rank: int
    person: Person
    rating: int
    provisional: bool
    games: int
    wins: int
    average_place: float
    streak: str
    """"3 wins", "2 losses", "1 win" (the latest games' run), "" for none."""
    last_played: datetime


def _streak(results: Sequence[ResultRow]) -> str:
    """The run of wins (first place) or of other places the newest results end with."""
    if not results:
        return ""
    won = results[-1].place == 1
    run = 0
    for result in reversed(results):
        if (result.place == 1) != won:
            break
        run += 1
    noun = ("win" if run == 1 else "wins") if won else ("loss" if run == 1 else "losses")
    return f"{run} {noun}"


def _rating(results: Sequence[ResultRow]) -> tuple[int, int]:
    """(shown rating, rated games) after the given results (in finish order)."""
    rated = [r for r in results if r.rated]
    if not rated:
        return shown(results[0].mu_before, results[0].sigma_before), 0
    return shown(rated[-1].mu, rated[-1].sigma), len(rated)


def leaderboard(results: Sequence[ResultRow], people: dict[str, Person]) -> list[Entry]:
    """The rows of one game's leaderboard from its results (finish order): each person
    still on the list, best shown rating first (ties: more games, then name)."""
    by_person: dict[str, list[ResultRow]] = defaultdict(list)
    for result in results:
        if result.person_id in people:
            by_person[result.person_id].append(result)
    rows = []
    for person_id, theirs in by_person.items():
        rating, rated = _rating(theirs)
        rows.append((rating, rated, person_id, theirs))
    rows.sort(key=lambda row: (-row[0], -len(row[3]), people[row[2]].name.casefold()))
    return [Entry(rank, people[person_id], rating, provisional(rated), len(theirs),
                  sum(r.place == 1 for r in theirs),
                  round(sum(r.place for r in theirs) / len(theirs), 2), _streak(theirs),
                  aware(theirs[-1].finished_at))
            for rank, (rating, rated, person_id, theirs) in enumerate(rows, start=1)]


@dataclass(frozen=True)
class Meeting:
    """A person's record against one other person: games together and who placed ahead."""

    other: Person
    games: int
    ahead: int
    behind: int


@dataclass(frozen=True)
class Profile:
    """What a person's page shows."""

    person: Person
    history: dict[str, list[tuple[datetime, int]]]
    """Game kind -> (when, shown rating) after each rated game."""
    meetings: list[Meeting]
    recent: list[ResultRow]
    """Newest first."""
    favourite_colour: tuple[str, int] | None
    """(game kind, colour) played most often."""
    captures: int
    captured: int
    games: int


def profile(person: Person, own: Sequence[ResultRow], together: Sequence[ResultRow],
            people: dict[str, Person]) -> Profile:
    """A person's page from their own results and every result of the games they played
    (both in finish order)."""
    history: dict[str, list[tuple[datetime, int]]] = defaultdict(list)
    for result in own:
        if result.rated:
            history[result.kind].append((aware(result.finished_at),
                                         shown(result.mu, result.sigma)))
    mine = {r.game_id: r.place for r in own}
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for result in together:
        if result.person_id == person.id or result.person_id not in people:
            continue
        record = tally[result.person_id]
        record[0] += 1
        record[1] += mine[result.game_id] < result.place
        record[2] += mine[result.game_id] > result.place
    meetings = sorted((Meeting(people[other], *record) for other, record in tally.items()),
                      key=lambda m: (-m.games, m.other.name.casefold()))
    colours = Counter((r.kind, r.colour) for r in own)
    return Profile(person, dict(history), meetings, list(reversed(own))[:RECENT_GAMES],
                   colours.most_common(1)[0][0] if colours else None,
                   sum(r.captures for r in own), sum(r.captured for r in own), len(own))
