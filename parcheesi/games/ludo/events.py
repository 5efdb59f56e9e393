"""What happens in a Ludo game, as the turn machine reports it.

Where an event means what a shared event means (:mod:`parcheesi.core.events`), Ludo reports
the shared class with the same fields, so the table describes and animates every game
alike: ``OpeningRolled(colour, dice=(n,))``, ``OpeningTied``, ``Starts``,
``Rolled(colour, dice=(n,), portions=(n,) or ())``, ``Entered(colour, piece, spent=(6,))``,
``Moved``, ``Captured`` (``progress`` is the captured piece's own progress), ``ReachedHome``,
``NoMove``, ``TurnPassed`` and ``Won`` (the first player to finish), and the end of a game
played on for places: ``PlayOnAsked``, ``PlayOnAgreed``, ``PlayOnDeclined``, ``PlayingOn``
and ``Placed``. Every position in an event is the piece's own colour's progress
(docs/rules/ludo.md 2).

The classes below are Ludo's own: extra rolls, the third-six house rule and the roll
limit. Each carries what the table needs to say what happened without asking the rules
again.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.events import (
    Captured,
    Entered,
    Moved,
    NoMove,
    OpeningRolled,
    OpeningTied,
    Placed,
    PlayingOn,
    PlayOnAgreed,
    PlayOnAsked,
    PlayOnDeclined,
    ReachedHome,
    Rolled,
    Starts,
    TurnPassed,
    Won,
)


@dataclass(frozen=True, slots=True)
class RollAgain:
    """``colour`` rolls again: ``why`` is ``"six"``, ``"capture"``, ``"home"`` (the first
    reason of the move that applies) or ``"six_again"`` (an unusable 6 under that house
    rule)."""

    colour: int
    why: str


@dataclass(frozen=True, slots=True)
class ThirdSix:
    """``colour`` rolled a third 6 in a row (house rule ``third_six``): nothing moves and
    the turn passes."""

    colour: int


@dataclass(frozen=True, slots=True)
class LimitReached:
    """The game reached its limit of ``rolls`` rolls: play stops (followed by
    :class:`Drawn` if nobody has finished, else by the remaining :class:`Placed`)."""

    rolls: int


@dataclass(frozen=True, slots=True)
class Drawn:
    """The game ended as a draw: the roll limit came before anyone finished."""


Event = (OpeningRolled | OpeningTied | Starts | Rolled | Entered | Moved | Captured
         | ReachedHome | NoMove | TurnPassed | Won | RollAgain | ThirdSix | PlayOnAsked
         | PlayOnAgreed | PlayOnDeclined | PlayingOn | Placed | LimitReached | Drawn)
"""Every event a Ludo game reports."""

__all__ = ["Drawn", "Event", "LimitReached", "RollAgain", "ThirdSix"]
