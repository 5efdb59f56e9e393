"""Parcheesi's learned evaluation: Expert, the fourth computer level, and the win chances
shown by the meter.

The network, its training and Expert's search are every game's (:mod:`parcheesi.core.learning`);
this package holds what is Parcheesi's own: how a position is read (:mod:`.encoding`), how a
self-play game is played between rolls and at which tables, and the shipped weights
(``weights.npz``, with ``weights.json`` telling how they were trained; ``python -m parcheesi
train --game parcheesi`` reproduces them).
"""

from __future__ import annotations

from collections.abc import Hashable
from pathlib import Path

from ....core.actions import Roll
from ....core.learning.expert import LEVEL, Expert
from ....core.learning.learner import Encoded, Learner
from ....core.state import Phase
from ..analysis import outcomes_after_roll
from ..dice import Dice, DiceSource, seeded
from ..risk import ALL_HOME
from ..state import State, new_state
from ..turns import apply, roll_outcomes
from .encoding import ENCODING, encode

WEIGHTS = Path(__file__).with_name("weights.npz")
ROLLS = tuple((a, b) for a in range(1, 7) for b in range(a, 7))
"""The 21 distinct rolls; ``ROLL_CHANCES`` their chances (a pair of different dice is twice
as likely as one doubles)."""
ROLL_CHANCES = tuple(1 / 36 if a == b else 2 / 36 for a, b in ROLLS)
TRAINING_TABLES: dict[int, list[tuple[int, ...]]] = {
    2: [(0, 2), (1, 3)], 3: [(0, 1, 2), (1, 2, 3), (0, 2, 3), (0, 1, 3)], 4: [(0, 1, 2, 3)]}
"""The colours of each table size, in the order the shipped weights' games used them (every
set a table may use: ``GameRules.colour_sets``, in another order)."""
PLAYER_COUNTS = (2, 3, 4)
"""Training games rotate over tables of two, three and four."""


def table(index: int) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """The colours of training game ``index`` (the table sizes and colour sets rotate), and
    no house rules (Parcheesi has none)."""
    count = PLAYER_COUNTS[index % len(PLAYER_COUNTS)]
    sets = TRAINING_TABLES[count]
    return sets[(index // len(PLAYER_COUNTS)) % len(sets)], ()


def encoded(state: State) -> Encoded:
    """The network's input for a position between rolls (or before a roll's decision: the
    position is read as if the player to act were about to roll, with no doubles yet)."""
    doubles = state.doubles if state.phase is Phase.ROLL else 0
    return encode(state.pieces, state.turn, doubles)


def _new_game(colours: tuple[int, ...], house: tuple[str, ...]) -> State:
    return new_state(colours)


def _roll(state: State, dice: DiceSource) -> State:
    return apply(state, Roll(), dice)[0]


def roll_ends(state: State) -> list[State]:
    """Every end position of the roll being played."""
    return [after for after, _ in roll_outcomes(state)]


def _ends_after(state: State, dice: Dice) -> list[State]:
    return [end for end, _ in outcomes_after_roll(state, dice)]


def _key(state: State) -> Hashable:
    """The pieces, the roller and the doubles it has rolled: all the encoding reads."""
    return state.pieces, state.turn, state.doubles if state.phase is Phase.ROLL else -1


def _finished(state: State, colour: int) -> bool:
    return bool(state.pieces[colour] == ALL_HOME)


LEARNER = Learner(
    encoding=ENCODING, encode=encoded, weights=WEIGHTS, new_game=_new_game,
    dice=seeded, roll=_roll, roll_ends=roll_ends, rolls=ROLLS, roll_chances=ROLL_CHANCES,
    ends_after=_ends_after, key=_key, finished=_finished, tables=table)
EXPERT = Expert(LEARNER)

choose = EXPERT.choose
chances = EXPERT.chances
chances_of = EXPERT.chances_of
network = EXPERT.network
use = EXPERT.use

__all__ = ["EXPERT", "LEARNER", "LEVEL", "WEIGHTS", "chances", "chances_of", "choose",
           "network", "use"]
