"""What a game supplies to learn its evaluation, and to play Expert with it.

The position is always read from the colour about to roll (the *roller*): slot ``j`` holds
colour ``(roller + j) % 4``, so the same relation between two colours lands in the same
slots whoever rolls, and turn order runs up the slots. A game's encoding turns a position
into the board units that are on (a short list of indices into the network's first layer,
padded to a fixed length) and a few derived terms (real numbers); the network and the
training only ever see those.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

Encoded = tuple[list[int], list[float]]
"""A position as the network reads it: the board units that are on, padded to
:attr:`Encoding.units_on` with the padding unit, and the derived terms."""
State = Any
"""A position of the game (its engine's own value; read through the learner only)."""

SLOTS = 4
"""Slots of the encoding: every game that learns has four colours."""


@dataclass(frozen=True)
class Encoding:
    """The size of a game's encoding."""

    sparse_units: int
    """Board units; ``sparse_units`` itself is the padding unit, which is never on."""
    dense_units: int
    """Derived terms."""
    units_on: int
    """The length every position's list of units is padded to (at least the most units
    ever on at once)."""
    absent_unit: int
    """The unit of slot 0's colour being absent (not playing, or finished and out of the
    race); slot ``j``'s is ``absent_unit + j``."""

    @property
    def pad_unit(self) -> int:
        return self.sparse_units


@dataclass(frozen=True)
class Search:
    """How far Expert looks: its candidates and its two budgets (:mod:`.search`)."""

    candidates: int = 4
    """At most this many end positions are searched a ply deeper..."""
    margin: float = 0.08
    """...and only those the network rates within this chance of the best."""
    answers: int = 3000
    """End positions of answers looked at per decision at most: the budget that normally
    ends a long search, the same on any machine (games and benchmarks replay)."""
    seconds: float = 0.8
    """Seconds of search per decision at most, for a machine far slower or busier than
    planned."""
    depth: int = 1
    """Rolls looked ahead: 1, every roll of whoever rolls next and their best answer by the
    network; 2, each answer weighed in turn over the roll after it (each roller picking
    among its own best few answers by the network)."""


@dataclass(frozen=True, kw_only=True)
class Learner:
    """One game's side of the learned evaluation. Every function is a module-level one of
    the game's, so a learner can be sent to the training's worker processes."""

    encoding: Encoding
    encode: Callable[[State], Encoded]
    """The network's input for a position between rolls (or before a roll's decision: the
    position is read as if the player to act were about to roll)."""
    weights: Path
    """The shipped weights (``.npz``; a ``.json`` note beside them says how they were
    trained): Expert's search plays with them..."""
    chance_weights: Path | None = None
    """...and the win chances are read with these, when given: an evaluation that also
    learned from the teacher's games (:attr:`teacher`) predicts the play a table watches,
    while the search plays best with the one trained on its own play alone."""
    new_game: Callable[[tuple[int, ...], tuple[str, ...]], State]
    """The position before the opening roll of a table of those colours, with those house
    rules."""
    dice: Callable[[int], Any]
    """The game's dice for a seed."""
    roll: Callable[[State, Any], State]
    """The position after the player to act rolls (the opening roll too), from the dice."""
    roll_ends: Callable[[State], list[State]]
    """Every end position of the roll being played (the player has rolled and chooses)."""
    rolls: tuple[Any, ...]
    """Every distinct roll of the game's dice, as :attr:`ends_after` takes it..."""
    roll_chances: tuple[float, ...]
    """...and the chance of each (they add up to one)."""
    ends_after: Callable[[State, Any], list[State]]
    """Every end position of rolling ``dice`` from a position between rolls (the position
    after the roll itself when it moves nothing)."""
    key: Callable[[State], Hashable]
    """What tells positions the network rates differently apart (the search rates each
    distinct end once)."""
    finished: Callable[[State, int], bool]
    """Whether the colour has every piece home (out of the race)."""
    tables: Callable[[int], tuple[tuple[int, ...], tuple[str, ...]]]
    """The colours and house rules of training game number ``index``: the training rotates
    over every table the game is played at."""
    search: Search = Search()
    teacher: Callable[[State], State] | None = None
    """The end of the current roll as the game's strongest hand-written computer plays it.
    Training may play a share of its games this way (``--teacher-share``), so the evaluation
    also predicts the play it watches at a table (people and computers), not only its own."""
