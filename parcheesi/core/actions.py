"""The actions every game has: rolling, and answering whether to play on for places.

A game's own actions (moving a piece, taking a bonus) are its own classes; these two are
shared so that the table offers and the computers make them alike in every game.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Roll:
    """Roll the dice (also for the opening roll)."""


@dataclass(frozen=True, slots=True)
class PlayOn:
    """The answer of the player asked whether to play on for the next places."""

    agree: bool
