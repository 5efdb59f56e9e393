"""What every game's position shares with the others, by name and meaning.

The server and the table read every game's state through the same fields (docs/contracts.md, the
game-rules interface; ``docs/contracts.md``): the colours playing in turn order, each
colour's pieces as their *progress* from where they wait to come in, the :class:`Phase` of
play, the colour to act, the last roll, the dice portions still to use, the rolls made, the
winner and the places decided. :class:`SharedState` names them; each game's own state is a
frozen dataclass with these fields and whatever else its rules need.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Protocol, Self

Pieces = tuple[tuple[int, ...], ...]
"""Per colour index, its pieces' progress; a colour not playing has ``()``."""

PIECES = 4
"""Pieces per colour, in every game."""


class Phase(StrEnum):
    OPENING = "opening"
    """Seats roll to decide who starts."""
    ROLL = "roll"
    """The player to act must roll."""
    MOVE = "move"
    """The roll is to be used: a move (or the next dice portion) is to be chosen."""
    REWARD = "reward"
    """Pending bonus squares, at least one usable (Parcheesi's 20 and 10)."""
    PLAY_ON = "play_on"
    """The players still racing are asked, one at a time, whether to play on for the next
    places after a player finished (:mod:`.places`)."""
    OVER = "over"


class IllegalAction(ValueError):
    """An action that the rules do not allow in this state; the state is unchanged."""


class SharedState(Protocol):
    """The fields every game's state has, read the same way by the server and the table."""

    @property
    def colours(self) -> tuple[int, ...]:
        """The colours playing, in turn order."""

    @property
    def pieces(self) -> Pieces: ...

    @property
    def phase(self) -> Phase: ...

    @property
    def turn(self) -> int:
        """The colour to act (during the opening: the next seat to roll)."""

    @property
    def dice(self) -> tuple[int, ...] | None:
        """The last roll of the player to act this turn (``None`` before their first)."""

    @property
    def portions(self) -> tuple[int, ...]:
        """What is left of the roll to use, largest first."""

    @property
    def rolls(self) -> int:
        """Rolls made so far: the index of the next roll in the game's dice."""

    @property
    def winner(self) -> int | None:
        """The first player to finish, once there is one."""

    @property
    def asking(self) -> tuple[int, ...]:
        """During ``PLAY_ON``: the colours yet to answer, ``turn`` first."""

    @property
    def places(self) -> tuple[int, ...]:
        """The colours placed so far, in the order they were placed."""

    @property
    def ranks(self) -> tuple[int, ...]:
        """The place (1 = first) of each colour of ``places``; equal players share one."""

    @property
    def racing(self) -> tuple[int, ...]:
        """The colours playing that are not placed yet, in turn order."""

    def with_(self, **changes: Any) -> Self:
        """A copy with ``changes``."""


class Seated:
    """What a state works out from its shared fields, the same way in every game (a base
    of each game's state class)."""

    __slots__ = ()

    colours: tuple[int, ...]
    pieces: Pieces
    turn: int
    places: tuple[int, ...]

    @property
    def mover(self) -> tuple[int, ...]:
        """The pieces of the colour to act."""
        return self.pieces[self.turn]

    @property
    def racing(self) -> tuple[int, ...]:
        """The colours playing that are not placed yet, in turn order."""
        return tuple(c for c in self.colours if c not in self.places)


def initial_pieces(colours: tuple[int, ...], start: int, count: int) -> Pieces:
    """Every piece of ``colours`` waiting at ``start``, for a board of ``count`` colours."""
    return tuple((start,) * PIECES if c in colours else () for c in range(count))


def opening_order(ordered: tuple[int, ...], first: int | None) -> tuple[int, ...]:
    """The seats in turn order from ``first`` on (who rolls first in the opening roll)."""
    if first is None:
        return ordered
    if first not in ordered:
        raise ValueError(f"the opening roll cannot begin with a colour not playing ({first})")
    k = ordered.index(first)
    return ordered[k:] + ordered[:k]


def next_racing(colours: tuple[int, ...], places: tuple[int, ...], after: int) -> int:
    """The first colour after ``after`` in turn order that is not placed (``after`` itself
    when it is the only one)."""
    k = colours.index(after)
    count = len(colours)
    for step in range(1, count + 1):
        colour = colours[(k + step) % count]
        if colour not in places:
            return colour
    return after
