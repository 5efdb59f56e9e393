"""Tournaments: rounds of tables drawn from the results so far, as pure functions over
plain data the server can store and read back.

A tournament is a :class:`Tournament` value (settings, entrants, the rounds drawn so far
with each table's seats and places); the server makes one with :func:`create`, draws each
round with :func:`next_round` once the one before is finished (a room per table), records
each table's places as its game ends with :func:`record`, reads :func:`standings`,
:func:`champion` and :func:`over`, and stores :meth:`Tournament.to_json` (read back by
:meth:`Tournament.from_json`). No I/O, no clock and no randomness: the same entrants and
results always draw the same rounds. Entrants are opaque ids (people, computer entrants).

The modules: :mod:`.model` (the data and its JSON), :mod:`.scoring` (points by place, seeds,
standings), :mod:`.knockout`, :mod:`.swiss`, :mod:`.formats` (the functions above, and the
round robin), :mod:`.play` (an all-computer tournament for the command line).
"""

from .formats import champion, create, next_round, over, record, standings
from .model import (
    FORMATS,
    LARGEST_TABLE,
    MOST_ROUNDS,
    SMALLEST_TABLE,
    Entrant,
    Round,
    Settings,
    Table,
    Tournament,
    TournamentError,
)
from .scoring import POINTS

__all__ = ["FORMATS", "LARGEST_TABLE", "MOST_ROUNDS", "POINTS", "SMALLEST_TABLE", "Entrant",
           "Round", "Settings", "Table", "Tournament", "TournamentError", "champion", "create",
           "next_round", "over", "record", "standings"]
