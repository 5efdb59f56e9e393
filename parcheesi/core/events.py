"""What happens in a game, in the words every game shares.

Where an event of one game means what another's means, both report the same class with
the same fields, so the table describes, animates and sounds them alike: the opening roll,
a roll, a piece entering, moving, captured or reaching HOME, a roll nothing can use, the
turn passing, the win, the end played on for places, and a turn clock running out. Every
position in an event is the piece's own colour's progress (``docs/contracts.md``). A game's
own events (Parcheesi's penalty, Ludo's extra roll) are its own classes beside these.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class OpeningRolled:
    colour: int
    dice: tuple[int, ...]
    """The dice rolled (as many as the game rolls)."""


@dataclass(frozen=True, slots=True)
class OpeningTied:
    colours: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Starts:
    colour: int


@dataclass(frozen=True, slots=True)
class Rolled:
    colour: int
    dice: tuple[int, ...]
    portions: tuple[int, ...]
    """What the roll offers to move: the dice portions (empty when nothing can use it)."""


@dataclass(frozen=True, slots=True)
class Entered:
    colour: int
    piece: int
    spent: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Moved:
    colour: int
    piece: int
    start: int
    end: int
    count: int
    reward: bool = False
    """Whether the squares were a bonus rather than the dice."""


@dataclass(frozen=True, slots=True)
class Captured:
    """``colour``'s ``piece`` sent back to where pieces wait by ``by_colour``'s ``by_piece``.

    ``progress`` is where the captured piece stood, in its own colour's progress, like every
    other position in an event: not the capturer's progress, not a track square.
    """

    colour: int
    piece: int
    by_colour: int
    by_piece: int
    progress: int


@dataclass(frozen=True, slots=True)
class ReachedHome:
    colour: int
    piece: int


@dataclass(frozen=True, slots=True)
class NoMove:
    colour: int
    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TurnPassed:
    colour: int


@dataclass(frozen=True, slots=True)
class Won:
    """``colour`` is the first to finish: the winner."""

    colour: int


@dataclass(frozen=True, slots=True)
class PlayOnAsked:
    """A player finished: the ``colours`` still racing are asked, one at a time in this
    order, whether to play on for the next places."""

    colours: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PlayOnAgreed:
    """``colour`` agreed to play on."""

    colour: int


@dataclass(frozen=True, slots=True)
class PlayOnDeclined:
    """``colour`` declined to play on: the game ends and the rest are placed by standing."""

    colour: int


@dataclass(frozen=True, slots=True)
class PlayingOn:
    """Everyone asked agreed: the ``colours`` still racing play on for the next places."""

    colours: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Placed:
    """``colour`` takes ``place`` (1 = first). Players placed together by standing at the
    end (pieces HOME, then progress) may share a place."""

    colour: int
    place: int


@dataclass(frozen=True, slots=True)
class TimedOut:
    """A computer moved for ``colour`` because its player's time ran out (the event the
    live game puts before the engine's events of that move; the log and status say it)."""

    colour: int


SharedEvent = (OpeningRolled | OpeningTied | Starts | Rolled | Entered | Moved | Captured
               | ReachedHome | NoMove | TurnPassed | Won | PlayOnAsked | PlayOnAgreed
               | PlayOnDeclined | PlayingOn | Placed)
"""Every event of this module a game's turn machine reports (:class:`TimedOut` is the live
game's)."""
