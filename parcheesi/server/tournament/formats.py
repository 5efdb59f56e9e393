"""The three formats behind one set of functions, the ones the server calls:

- :func:`create` a tournament from its settings and entrants (no round drawn yet);
- :func:`next_round` draws the next round once the last one is finished (None when the
  tournament is over);
- :func:`record` one table's places as its game ends;
- :func:`standings`, :func:`champion` and :func:`over` read where it stands.

Each returns a new :class:`~.model.Tournament` or reads one; nothing here keeps state,
reads a clock or draws a random number, so the same entrants and results always give the
same rounds.

The formats: the knockout (:mod:`.knockout`), Swiss rounds (:mod:`.swiss`) and the round
robin: two to four entrants at one table for ``rounds`` games, the seats turning one place
each game (entrant order first, then starting from the second entrant, ...), so each sits
first in turn. Its standings and champion are the Swiss ones.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from . import knockout, swiss
from .model import Entrant, Round, Settings, Table, Tournament, TournamentError
from .scoring import standings


def create(settings: Settings, entrants: Sequence[Entrant]) -> Tournament:
    """A new tournament (:class:`TournamentError` for entrants the format cannot seat)."""
    tournament = Tournament(settings, tuple(entrants))
    if settings.format == "knockout":
        knockout.check(tournament)
    return tournament


def _robin(tournament: Tournament) -> Tournament | None:
    """The round robin's next game; None once every game is drawn."""
    if len(tournament.rounds) == tournament.settings.rounds:
        return None
    ids = [entrant.id for entrant in tournament.entrants]
    turn = len(tournament.rounds) % len(ids)
    table = Table(tuple(ids[turn:] + ids[:turn]))
    return replace(tournament, rounds=(*tournament.rounds, Round((table,))))


_DRAW = {"knockout": knockout.draw, "swiss": swiss.draw, "robin": _robin}


def next_round(tournament: Tournament) -> Tournament | None:
    """The tournament with its next round drawn from the results so far; None when it is
    over. :class:`TournamentError` while a table of the last round is still playing."""
    if tournament.rounds and not tournament.rounds[-1].finished:
        raise TournamentError(f"round {len(tournament.rounds)} is not finished")
    return _DRAW[tournament.settings.format](tournament)


def record(tournament: Tournament, round_number: int, table_number: int,
           places: Mapping[str, int]) -> Tournament:
    """The tournament with the places of table ``table_number`` of round ``round_number``
    (both counted from 0; the round must be the last drawn) recorded: entrant -> place,
    1 first, equal players sharing a place (a game's ``final_places``). Recording the same
    places again changes nothing, so a retried report is harmless; other places for a
    recorded table are refused."""
    if round_number != len(tournament.rounds) - 1:
        raise TournamentError(f"round {round_number + 1} is not the round being played")
    tables = tournament.rounds[round_number].tables
    if not 0 <= table_number < len(tables):
        raise TournamentError(f"round {round_number + 1} has no table {table_number + 1}")
    table = tables[table_number]
    if set(places) != set(table.seats):
        raise TournamentError(f"the places must name exactly the table's players: "
                              f"{', '.join(table.seats)}")
    placed = replace(table, places=tuple(places[seat] for seat in table.seats))
    if table.played and placed != table:
        raise TournamentError(f"table {table_number + 1} of round {round_number + 1} "
                              "is already recorded")
    round_ = Round((*tables[:table_number], placed, *tables[table_number + 1:]))
    return replace(tournament, rounds=(*tournament.rounds[:-1], round_))


def over(tournament: Tournament) -> bool:
    """Whether the last round is played and no other follows."""
    if not tournament.rounds or not tournament.rounds[-1].finished:
        return False
    if tournament.settings.format == "knockout":
        return len(tournament.rounds[-1].tables) == 1
    return len(tournament.rounds) == tournament.settings.rounds


def champion(tournament: Tournament) -> str | None:
    """The winner once the tournament is over (None before): the knockout's by the final,
    the others' by the standings."""
    if not over(tournament):
        return None
    if tournament.settings.format == "knockout":
        return knockout.champion(tournament)
    return standings(tournament)[0][0]


__all__ = ["champion", "create", "next_round", "over", "record", "standings"]
