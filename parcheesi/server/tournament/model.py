"""A tournament as plain, immutable data, and its JSON.

Everything the server stores about a tournament is here: its settings, its entrants and
the rounds drawn so far, each a list of tables with the seats and, once the table's game is
over, its places. The values check themselves when made (a table of one, a player seated
twice in a round, places that are not a ranking), so a tournament read back from storage
(:meth:`Tournament.from_json`) is as sound as one built by the drawing functions, and every
refusal is a :class:`TournamentError` whose message can be shown as it is.

Entrants are opaque string ids (a person's id, a computer entrant's name); the engine never
looks inside them. A place is 1 for first; players who finished equal share a place and the
next place is skipped (1, 2, 2, 4), as a game's ``final_places`` gives them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

FORMATS = ("knockout", "swiss", "robin")
"""The tournament formats, as stored and as the command line names them."""
SMALLEST_TABLE = 2
LARGEST_TABLE = 4
MOST_ROUNDS = 12
"""Swiss rounds (round robin games) a tournament has at most: a long evening's worth."""
"""Players a table may seat (the games play two to four)."""


class TournamentError(ValueError):
    """A tournament that cannot be made, drawn, recorded or read as asked; the message
    says why in words fit to show."""


def _is_int(value: object) -> bool:
    """Whether ``value`` is a plain integer (JSON's ``true`` is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_ranking(places: Sequence[int]) -> bool:
    """Whether ``places`` are the places of one game: each is one more than the number of
    players placed strictly ahead of it (1, 2, 3; 1, 1, 3; 1, 2, 2, 4)."""
    return all(_is_int(p) and p == 1 + sum(q < p for q in places) for p in places)


@dataclass(frozen=True)
class Settings:
    """How a tournament is played. Every field is checked whatever the format, so a bad
    value is refused even where the format would not use it."""

    format: str
    """One of :data:`FORMATS`."""
    table_size: int = 4
    """Knockout and Swiss: players per table (2 to 4). A round robin seats every entrant
    at its one table."""
    advance: int = None  # type: ignore[assignment]  # None: set to half the table
    """Knockout: how many of each table go through (1 to ``table_size`` - 1; when not
    given, half the table, rounded down)."""
    rounds: int = 3
    """Swiss and round robin: how many rounds (games, for a round robin) are played."""
    filler: str | None = None
    """Knockout: the computer level of the entrants that fill a round short of players
    (None: the entrants must fill every round)."""

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise TournamentError(f"unknown format {self.format!r} "
                                  f"(use {', '.join(FORMATS[:-1])} or {FORMATS[-1]})")
        if not _is_int(self.table_size) or not (
                SMALLEST_TABLE <= self.table_size <= LARGEST_TABLE):
            raise TournamentError(f"a table seats {SMALLEST_TABLE} to {LARGEST_TABLE} "
                                  f"players, not {self.table_size!r}")
        if self.advance is None:
            object.__setattr__(self, "advance", self.table_size // 2)
        if not _is_int(self.advance) or not 1 <= self.advance < self.table_size:
            raise TournamentError(f"the players going through from each table must be "
                                  f"1 to {self.table_size - 1} at tables of "
                                  f"{self.table_size}, not {self.advance!r}")
        if not _is_int(self.rounds) or not 1 <= self.rounds <= MOST_ROUNDS:
            raise TournamentError(f"a tournament has 1 to {MOST_ROUNDS} rounds, "
                                  f"not {self.rounds!r}")
        if self.filler is not None and (not isinstance(self.filler, str) or not self.filler):
            raise TournamentError("the filler level must be a level's name")


@dataclass(frozen=True)
class Entrant:
    """One player of the tournament."""

    id: str
    """Opaque and unique within the tournament."""
    rating: float = 0
    """Seeds the knockout (highest first) and breaks the last ties of the standings."""
    level: str | None = None
    """The computer level that plays this entrant; None for a person."""
    filler: bool = False
    """A computer added by a knockout to fill a round; seeded after every other
    entrant."""


@dataclass(frozen=True)
class Table:
    """One game of a round: who sits where, and how they finished."""

    seats: tuple[str, ...]
    """Entrants in seat order (the first takes the game's first colour of that many)."""
    places: tuple[int, ...] | None = None
    """Each seat's place once the game is recorded, in seat order; None until then."""

    def __post_init__(self) -> None:
        if not SMALLEST_TABLE <= len(self.seats) <= LARGEST_TABLE:
            raise TournamentError(f"a table seats {SMALLEST_TABLE} to {LARGEST_TABLE} "
                                  f"players, not {len(self.seats)}")
        if len(set(self.seats)) != len(self.seats):
            raise TournamentError("a player is seated twice at one table")
        if self.places is not None and (len(self.places) != len(self.seats)
                                        or not is_ranking(self.places)):
            raise TournamentError(f"{list(self.places)} are not the places of a game of "
                                  f"{len(self.seats)}: 1 is first, and equal players "
                                  "share a place (1, 2, 2, 4)")

    @property
    def played(self) -> bool:
        """Whether the table's places are recorded."""
        return self.places is not None

    def finish(self) -> list[tuple[str, int]]:
        """(entrant, place), first to last; a shared place in seat order (empty until
        played)."""
        if self.places is None:
            return []
        return sorted(zip(self.seats, self.places, strict=True),
                      key=lambda seat: (seat[1], self.seats.index(seat[0])))


@dataclass(frozen=True)
class Round:
    """The tables of one round, played at the same time."""

    tables: tuple[Table, ...]

    def __post_init__(self) -> None:
        if not self.tables:
            raise TournamentError("a round has at least one table")
        seated = [entrant for table in self.tables for entrant in table.seats]
        if len(set(seated)) != len(seated):
            raise TournamentError("a player is seated at two tables of one round")

    @property
    def finished(self) -> bool:
        """Whether every table's places are recorded."""
        return all(table.played for table in self.tables)


@dataclass(frozen=True)
class Tournament:
    """A tournament so far: what the server stores and hands to the drawing functions
    (:mod:`.formats`), which return a new value rather than change this one."""

    settings: Settings
    entrants: tuple[Entrant, ...]
    """In entrant order (the order given, then the fillers as they were added)."""
    rounds: tuple[Round, ...] = ()
    """The rounds drawn so far, oldest first; only the last may be unfinished."""
    index: dict[str, int] = field(init=False, repr=False, compare=False)
    """Entrant id -> position in :attr:`entrants`."""

    def __post_init__(self) -> None:
        ids = [entrant.id for entrant in self.entrants]
        if any(not isinstance(id_, str) or not id_ for id_ in ids):
            raise TournamentError("every entrant needs an id")
        if len(set(ids)) != len(ids):
            raise TournamentError("an entrant is listed twice")
        _check_count(self.settings, sum(not e.filler for e in self.entrants))
        object.__setattr__(self, "index", {id_: k for k, id_ in enumerate(ids)})
        self._check_rounds()

    def _check_rounds(self) -> None:
        """Refuse a stranger at a table, or a round drawn before the last was finished."""
        for round_ in self.rounds:
            unknown = [e for table in round_.tables for e in table.seats
                       if e not in self.index]
            if unknown:
                raise TournamentError(f"{unknown[0]!r} is seated but not an entrant")
        if any(not round_.finished for round_ in self.rounds[:-1]):
            raise TournamentError("only the last round may be unfinished")

    def entrant(self, id_: str) -> Entrant:
        """The entrant with id ``id_``."""
        return self.entrants[self.index[id_]]

    def to_json(self) -> dict[str, Any]:
        """The tournament as a JSON object (what :meth:`from_json` reads back)."""
        settings = self.settings
        return {
            "settings": {"format": settings.format, "table_size": settings.table_size,
                         "advance": settings.advance, "rounds": settings.rounds,
                         "filler": settings.filler},
            "entrants": [{"id": e.id, "rating": e.rating, "level": e.level,
                          "filler": e.filler} for e in self.entrants],
            "rounds": [{"tables": [{"seats": list(t.seats),
                                    "places": None if t.places is None else list(t.places)}
                                   for t in r.tables]} for r in self.rounds],
        }

    @classmethod
    def from_json(cls, data: Any) -> Tournament:
        """The tournament :meth:`to_json` wrote; :class:`TournamentError` for anything
        else (checked as a new tournament is)."""
        try:
            data = _object(data, ("settings", "entrants", "rounds"))
            settings = Settings(**_object(data["settings"], ("format", "table_size",
                                                             "advance", "rounds", "filler")))
            entrants = tuple(_entrant(e) for e in _list(data["entrants"]))
            rounds = tuple(Round(tuple(_table(t) for t in _list(_object(
                r, ("tables",))["tables"]))) for r in _list(data["rounds"]))
        except (KeyError, TypeError) as error:
            raise TournamentError(f"not a stored tournament ({error})") from None
        return cls(settings, entrants, rounds)


def _check_count(settings: Settings, count: int) -> None:
    """Refuse a number of entrants the format cannot seat: a knockout needs a full first
    table (fewer is one game, not a knockout); a Swiss at tables of two an even number (an
    odd one would leave a table of one); a round robin plays at one table."""
    size = settings.table_size
    if settings.format == "knockout" and count < size:
        raise TournamentError(f"a knockout at tables of {size} needs at least {size} "
                              f"entrants, not {count}")
    if count < SMALLEST_TABLE:
        raise TournamentError(f"a tournament needs at least {SMALLEST_TABLE} entrants, "
                              f"not {count}")
    if settings.format == "swiss" and size == SMALLEST_TABLE and count % 2:
        raise TournamentError(f"a Swiss at tables of 2 needs an even number of entrants, "
                              f"not {count}")
    if settings.format == "robin" and count > LARGEST_TABLE:
        raise TournamentError(f"a round robin seats at most {LARGEST_TABLE} entrants at "
                              f"its one table, not {count}")


def _object(data: Any, keys: tuple[str, ...]) -> dict[str, Any]:
    """``data`` if it is a JSON object with exactly ``keys``."""
    if not isinstance(data, dict) or set(data) != set(keys):
        raise TypeError(f"expected an object with {', '.join(keys)}")
    return data


def _list(data: Any) -> list[Any]:
    if not isinstance(data, list):
        raise TypeError("expected a list")
    return data


def _entrant(data: Any) -> Entrant:
    entrant = _object(data, ("id", "rating", "level", "filler"))
    rating, level = entrant["rating"], entrant["level"]
    if not isinstance(rating, int | float) or isinstance(rating, bool):
        raise TypeError("a rating is a number")
    if level is not None and not isinstance(level, str):
        raise TypeError("a level is a name")
    if not isinstance(entrant["filler"], bool):
        raise TypeError("filler is true or false")
    return Entrant(entrant["id"], rating, level, entrant["filler"])


def _table(data: Any) -> Table:
    table = _object(data, ("seats", "places"))
    seats = _list(table["seats"])
    if not all(isinstance(seat, str) for seat in seats):
        raise TypeError("seats are entrant ids")
    places = table["places"]
    return Table(tuple(seats), None if places is None else tuple(_list(places)))
