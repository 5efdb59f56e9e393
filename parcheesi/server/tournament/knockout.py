"""The knockout: tables of ``table_size``; the first ``advance`` of each table go through
to the next round, until one table, the final, is left; its winner is the champion.

Seeding. The first round seats the entrants by seed (the highest rating first, ties in
entrant order) in a snake over its tables: seeds 1, 2, ..., T to tables 1..T, then seeds
T+1..2T back from table T to table 1, and so on, so the strongest are spread over the
tables and each table's strength adds up about the same. Every later round is seated the
same way from the players going through, ordered by their place at their table (the
table winners first, so they meet only later), then by seed. Seats follow that order.

Awkward counts: every table of a round is full, so each seat of a round has the same
chance to go through and every table's points are on the same scale.

- A round of N players sits at ceil(N / table_size) tables; the seats left over go to
  computer entrants of the filler level (``<level>-computer-<n>``, numbered over the
  tournament; seeded after everyone, so they land at different tables). Six entrants at
  tables of four with two going through: two tables of four with one filler each; the four
  who go through play the final. Fillers play as any entrant, and may go through, or win.
- The final is the round of at most ``table_size`` players: whoever got there plays it,
  with no filler (a final of two or three is still the final). A table of one never
  happens: a round that is not the final has at least two tables, each sending at least
  one player on.
- A round that would send on so many that the next round needs as many tables again (at
  tables of four with three going through, two tables send six, who need two tables
  again) sends fewer: each table's first ``(T - 1) * table_size // T`` of its T tables, so
  every round has fewer tables than the one before and the knockout ends.
- A place shared at the cut goes to the one seated first (the better seed of that
  round); so does a first place shared in the final.

The bracket's shape (tables and fillers per round) depends only on the number of entrants
and the settings, never on the results (:func:`shape`).
"""

from __future__ import annotations

from dataclasses import replace

from .model import Entrant, Round, Table, Tournament, TournamentError
from .scoring import seed_key, seed_order


def tables_for(players: int, size: int) -> int:
    """Tables a round of ``players`` needs."""
    return -(-players // size)


def going_through(tables: int, size: int, advance: int) -> int:
    """How many of each of a round's ``tables`` go through: ``advance``, unless the next
    round would then need as many tables again."""
    if tables_for(tables * advance, size) < tables:
        return advance
    return (tables - 1) * size // tables


def shape(entrants: int, size: int, advance: int) -> list[tuple[int, int]]:
    """(tables, fillers) of each round, the final last."""
    rounds = []
    players = entrants
    while (tables := tables_for(players, size)) > 1:
        rounds.append((tables, tables * size - players))
        players = tables * going_through(tables, size, advance)
    rounds.append((1, 0))
    return rounds


def check(tournament: Tournament) -> None:
    """Refuse a knockout that needs fillers but has no filler level."""
    settings = tournament.settings
    fillers = sum(f for _, f in shape(len(tournament.entrants), settings.table_size,
                                      settings.advance))
    if fillers and settings.filler is None:
        raise TournamentError(f"{len(tournament.entrants)} entrants at tables of "
                              f"{settings.table_size} need {fillers} computer entrants "
                              "to fill the rounds: choose their level")


def draw(tournament: Tournament) -> Tournament | None:
    """The tournament with its next round drawn; None once the final is played."""
    if not tournament.rounds:
        players = seed_order(tournament, (e.id for e in tournament.entrants))
    elif len(tournament.rounds[-1].tables) == 1:
        return None
    else:
        players = _through(tournament, tournament.rounds[-1])
    size = tournament.settings.table_size
    tables = tables_for(len(players), size)
    if tables > 1:
        tournament, fillers = _with_fillers(tournament, tables * size - len(players))
        players += fillers
    return replace(tournament, rounds=(*tournament.rounds, Round(snake(players, tables))))


def champion(tournament: Tournament) -> str:
    """The winner of the final (a knockout whose final is played)."""
    return tournament.rounds[-1].tables[0].finish()[0][0]


def snake(players: list[str], tables: int) -> tuple[Table, ...]:
    """``players`` (best seed first) seated over ``tables`` tables in a snake."""
    seated: list[list[str]] = [[] for _ in range(tables)]
    for k, player in enumerate(players):
        row, column = divmod(k, tables)
        seated[column if row % 2 == 0 else tables - 1 - column].append(player)
    return tuple(Table(tuple(seats)) for seats in seated)


def _through(tournament: Tournament, last: Round) -> list[str]:
    """Who goes on from ``last``: the first of each table, in the next round's seeding
    order (place at their table, then seed)."""
    settings = tournament.settings
    count = going_through(len(last.tables), settings.table_size, settings.advance)
    places = {entrant: place for table in last.tables
              for place, (entrant, _) in enumerate(table.finish()[:count])}
    return sorted(places, key=lambda entrant: (places[entrant],
                                               seed_key(tournament, entrant)))


def _with_fillers(tournament: Tournament, count: int) -> tuple[Tournament, list[str]]:
    """The tournament with ``count`` new filler entrants, and their ids."""
    level = tournament.settings.filler
    if count and level is None:
        raise TournamentError(f"this round needs {count} computer entrants to fill its "
                              "tables: choose their level")
    made = sum(entrant.filler for entrant in tournament.entrants)
    fillers: list[Entrant] = []
    number = made
    while len(fillers) < count:
        number += 1
        name = f"{level}-computer-{number}"
        if name not in tournament.index:
            fillers.append(Entrant(name, level=level, filler=True))
    entrants = (*tournament.entrants, *fillers)
    return replace(tournament, entrants=entrants), [f.id for f in fillers]
