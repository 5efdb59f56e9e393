"""Points, seeds and standings, the same for every format.

**Points by place** (:data:`POINTS`): at a table of four 6, 4, 2 and 0; of three 6, 3 and
0; of two 6 and 0, so a win is worth the same at every table and a table's points fall
evenly from first to last. A shared place scores as the place it is: players sharing first
at a table of four both score 6 and the next, third, scores 2 (the places of a game skip
after a shared one, 1, 1, 3, 4, so the points follow them without fractions).

**Seeds**: entrants before the knockout's fillers, then the higher rating, then entrant
order (the order they were given in).

**Standings**, best first:

- Swiss and round robin: more points; then more first places, more second places, more
  third places; then the seed (higher rating, then entrant order).
- Knockout: who got further first (the later the last round played, the better), then
  the place at that round's table (a shared place in seat order, as at the cut), then as a
  Swiss. The champion, first of the final, therefore heads them; the points show how each
  played on the way.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from .model import Table, Tournament

POINTS: dict[int, tuple[int, ...]] = {2: (6, 0), 3: (6, 3, 0), 4: (6, 4, 2, 0)}
"""Players at the table -> the points of first, second, ... place."""
PLACES_COUNTED = 3
"""The places whose counts break ties of points (firsts, then seconds, then thirds)."""

Standing = tuple[str, int]
"""(entrant, points)."""


def points(table: Table) -> dict[str, int]:
    """Each seat's points at a played table, in seat order (empty until played)."""
    if table.places is None:
        return {}
    scale = POINTS[len(table.seats)]
    return {entrant: scale[place - 1]
            for entrant, place in zip(table.seats, table.places, strict=True)}


def seed_key(tournament: Tournament, entrant: str) -> tuple[bool, float, int]:
    """Sorts entrants best seed first."""
    found = tournament.entrant(entrant)
    return found.filler, -found.rating, tournament.index[entrant]


def seed_order(tournament: Tournament, entrants: Iterable[str]) -> list[str]:
    """``entrants``, best seed first."""
    return sorted(entrants, key=lambda entrant: seed_key(tournament, entrant))


@dataclass
class _Tally:
    """One entrant's results so far."""

    points: int = 0
    places: Counter[int] = field(default_factory=Counter)
    last: tuple[int, int] = (-1, 0)
    """(round, position first to last) at the last table played (knockout: how far they
    got)."""


def _tallies(tournament: Tournament) -> dict[str, _Tally]:
    tallies = {entrant.id: _Tally() for entrant in tournament.entrants}
    for number, round_ in enumerate(tournament.rounds):
        for table in round_.tables:
            for position, (entrant, place) in enumerate(table.finish()):
                tally = tallies[entrant]
                tally.points += points(table)[entrant]
                tally.places[place] += 1
                tally.last = (number, position)
    return tallies


def standings(tournament: Tournament) -> list[Standing]:
    """Every entrant (fillers included) with their points, best first (the order in the
    module's docstring), from the tables recorded so far."""
    tallies = _tallies(tournament)
    knockout = tournament.settings.format == "knockout"

    def key(entrant: str) -> tuple[float, ...]:
        tally = tallies[entrant]
        shared = (-tally.points,
                  *(-tally.places[place] for place in range(1, PLACES_COUNTED + 1)),
                  *seed_key(tournament, entrant))
        return (-tally.last[0], tally.last[1], *shared) if knockout else shared

    return [(entrant, tallies[entrant].points) for entrant in sorted(tallies, key=key)]
