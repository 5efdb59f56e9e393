"""Swiss rounds: every entrant plays every round, at tables of players who stand close in
the standings, avoiding players who have already met.

Tables. N entrants sit at ceil(N / table_size) tables whose sizes differ by at most one,
the larger first (9 at tables of four: 3, 3, 3; 7: 4, 3; 5: 3, 2), so no table is ever of
one; at tables of two the count must be even (:mod:`.model` refuses an odd one).

Seating. The entrants are taken in the order of the standings (:mod:`.scoring`; the first
round's are the seeds: rating, then entrant order). Each table in turn is led by the
best-placed player not yet seated and filled, depth first, with the next best-placed who
keep the rematches (pairs at the table who have met before) within an allowance, backing
up when a table cannot be completed or leaves the later tables no such seating; the
allowance starts at none and grows by one until a seating is found. What it guarantees:
among the seatings of these table sizes in which each table is led by the best-placed
player not seated at an earlier table, it finds one with the fewest rematches (none,
whenever the standings allow it), the closest to the standings among those, provided the
search ends within :data:`SEARCH_STEPS` seats tried. A household's numbers take far fewer:
16 entrants' third round at tables of four, where nobody need meet again, under a hundred;
12 entrants' third round, where some must, under 15,000. Should the steps run out, the
seating is the greedy one: each table led the same way, each seat going to the player who
has met the fewest of those at the table, the best-placed first among equals; the search
never settles for more rematches than that.
"""

from __future__ import annotations

from collections.abc import Sequence, Set
from dataclasses import replace

from .model import Round, Table, Tournament
from .scoring import standings

SEARCH_STEPS = 20_000
"""Seats the search tries, over every allowance, before it settles for the greedy seating
(keeps a round's draw within some tens of milliseconds whatever the numbers)."""

Pair = frozenset[str]


def table_sizes(players: int, size: int) -> list[int]:
    """The sizes of a round's tables, the larger first."""
    tables = -(-players // size)
    small, larger = divmod(players, tables)
    return [small + 1] * larger + [small] * (tables - larger)


def met(tournament: Tournament) -> set[Pair]:
    """Every pair of entrants that has sat at one table."""
    return {frozenset((a, b)) for round_ in tournament.rounds for table in round_.tables
            for a in table.seats for b in table.seats if a < b}


def draw(tournament: Tournament) -> Tournament | None:
    """The tournament with its next round drawn; None once every round is drawn."""
    if len(tournament.rounds) == tournament.settings.rounds:
        return None
    order = [entrant for entrant, _ in standings(tournament)]
    sizes = table_sizes(len(order), tournament.settings.table_size)
    tables = seat(order, sizes, met(tournament))
    return replace(tournament, rounds=(*tournament.rounds,
                                       Round(tuple(Table(tuple(t)) for t in tables))))


def seat(order: Sequence[str], sizes: Sequence[int], pairs: Set[Pair]) -> list[list[str]]:
    """Tables of ``sizes`` for the players of ``order`` (best-placed first), each table in
    that order, with as few of the ``pairs`` that already met as the search finds (the
    module's docstring says how)."""
    greedy = _greedy(order, sizes, pairs)
    search = _Search(pairs)
    for allowed in range(rematches(greedy, pairs)):
        try:
            found = search.tables(list(order), list(sizes), allowed)
        except _OutOfSteps:
            break
        if found is not None:
            return found
    return greedy


def rematches(tables: Sequence[Sequence[str]], pairs: Set[Pair]) -> int:
    """How many pairs at ``tables`` met before."""
    return sum(_met_at(player, table[:k], pairs) for table in tables
               for k, player in enumerate(table))


def _met_at(player: str, table: Sequence[str], pairs: Set[Pair]) -> int:
    """How many of the players at ``table`` ``player`` has met."""
    return sum(frozenset((player, other)) in pairs for other in table)


class _OutOfSteps(Exception):
    """The search used up its steps."""


class _Search:
    """The depth-first search for a seating with at most a given number of rematches."""

    def __init__(self, pairs: Set[Pair]) -> None:
        self.pairs = pairs
        self.steps = SEARCH_STEPS
        """Seats left to try, over every search of one draw."""

    def tables(self, players: list[str], sizes: list[int],
               allowed: int) -> list[list[str]] | None:
        """``players`` at tables of ``sizes`` with at most ``allowed`` rematches, or
        None."""
        if not sizes:
            return []
        return self._fill([players[0]], players[1:], sizes, 0, allowed)

    def _fill(self, table: list[str], rest: list[str], sizes: list[int], start: int,
              allowed: int) -> list[list[str]] | None:
        """Complete ``table`` from ``rest[start:]``, then seat the others."""
        if len(table) == sizes[0]:
            later = self.tables([p for p in rest if p not in table], sizes[1:], allowed)
            return None if later is None else [table, *later]
        for k in range(start, len(rest) - (sizes[0] - len(table)) + 1):
            self.steps -= 1
            if self.steps < 0:
                raise _OutOfSteps
            cost = _met_at(rest[k], table, self.pairs)
            if cost <= allowed:
                found = self._fill([*table, rest[k]], rest, sizes, k + 1, allowed - cost)
                if found is not None:
                    return found
        return None


def _greedy(order: Sequence[str], sizes: Sequence[int],
            pairs: Set[Pair]) -> list[list[str]]:
    """Each table led by the best-placed player left, each seat then going to the player
    who has met the fewest of those at the table (the best-placed first among equals)."""
    left = list(order)
    tables = []
    for size in sizes:
        table = [left.pop(0)]
        while len(table) < size:
            seen = [_met_at(player, table, pairs) for player in left]
            table.append(left.pop(seen.index(min(seen))))
        tables.append(sorted(table, key=order.index))
    return tables
