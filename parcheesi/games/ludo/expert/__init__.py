"""Ludo's learned evaluation: Expert, its strongest computer level (and the hint), and the
win chances shown by the meter and the charts.

The network, its training and Expert's search are every game's (:mod:`parcheesi.core.learning`);
this package holds what is Ludo's own: how a position is read (:mod:`.encoding`), how a
self-play game is played between rolls and at which tables, and the shipped weights
(``weights.npz`` for Expert's search, ``chances.npz`` for the win chances, each with a
``.json`` note telling how it was trained: ``python -m parcheesi train --game ludo`` with
the options that note names reproduces them).
"""

from __future__ import annotations

from collections.abc import Hashable
from itertools import combinations
from pathlib import Path

from ....core.actions import Roll
from ....core.learning.expert import LEVEL, Expert
from ....core.learning.learner import Encoded, Learner, Search
from ....core.state import Phase
from ..board import HOME, HOUSE_RULES
from ..dice import LudoDice, ludo_dice
from ..moves import legal_moves
from ..state import LudoState, new_state
from ..turns import advance
from .encoding import ENCODING, encode

WEIGHTS = Path(__file__).with_name("weights.npz")
CHANCE_WEIGHTS = Path(__file__).with_name("chances.npz")
"""The win chances' own weights: the same training gone on with half its games Hard's
(``--teacher-share 0.5``), so the meter and the charts say the chances of the play they
watch: trained on self-play alone, the chances were 3.3 points off in Hard's games; Expert
searching with these won less against Hard than with its own (docs/benchmarks.md)."""
DIE = (1, 2, 3, 4, 5, 6)
DIE_CHANCES = (1 / 6,) * 6
SEARCH = Search(candidates=2, margin=1.0, seconds=0.25, depth=2)
"""Ludo's rolls are few (one die: six numbers, at most four moves each), so Expert looks two
rolls ahead: the network's two best moves, each over every number of the next roller and
that roller's two best answers, each of those over every number of the roller after. Two
rolls ahead won 59% against Hard where one won 57.5% (2,000 games each), at about 10 ms a
decision; the time budget only guards a far slower machine, and keeps the slowest decision
under half a second."""
TABLES: tuple[tuple[int, ...], ...] = (
    *combinations(range(4), 2), *combinations(range(4), 3), (0, 1, 2, 3))
"""Every set of colours a table may use: six pairs (neighbours and opposites), four sets of
three and all four."""
HOUSE_SETS: tuple[tuple[str, ...], ...] = tuple(
    tuple(name for k, name in enumerate(HOUSE_RULES) if mask >> k & 1)
    for mask in range(1 << len(HOUSE_RULES)))
"""Every set of house rules (the empty set first)."""
_ALL_HOME = (HOME,) * 4


SIZES = (2, 3, 2, 4)
"""The table sizes of training games in turn: half of them two players (the table most
Ludo is played at, and the one Expert is measured at against Hard), a quarter each three
and four."""


def table(index: int) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """The colours and house rules of training game ``index``: the sizes take turns as
    :data:`SIZES` says, each rotating over its colour sets; two games in three are played by
    the plain rules, the third rotates over every set of house rules."""
    size = SIZES[index % len(SIZES)]
    sets = [t for t in TABLES if len(t) == size]
    colours = sets[(index // len(SIZES)) % len(sets)]
    house = HOUSE_SETS[(index // 3) % len(HOUSE_SETS)] if index % 3 == 2 else ()
    return colours, house


def encoded(state: LudoState) -> Encoded:
    """The network's input for a position between rolls (or before a roll's decision: the
    position is read as if the player to act were about to roll, with no sixes yet)."""
    sixes = state.sixes if state.phase is Phase.ROLL else 0
    return encode(state.pieces, state.turn, sixes, state.house)


def _new_game(colours: tuple[int, ...], house: tuple[str, ...]) -> LudoState:
    return new_state(colours, house)


def _roll(state: LudoState, dice: LudoDice) -> LudoState:
    return advance(state, Roll(), dice)


def roll_ends(state: LudoState) -> list[LudoState]:
    """Every end position of the roll being played: one per legal move."""
    return [advance(state, move[4]) for move in legal_moves(state)]


def _ends_after(state: LudoState, die: int) -> list[LudoState]:
    if state.phase is not Phase.ROLL:  # the game stopped (the roll limit): nothing follows
        return [state]
    rolled = advance(state, Roll(), die)
    if rolled.phase is Phase.MOVE:
        return roll_ends(rolled)
    return [rolled]


def _key(state: LudoState) -> Hashable:
    """The pieces, the roller and its sixes: all the encoding reads of a position (the house
    rules stay the same through a game)."""
    return state.pieces, state.turn, state.sixes if state.phase is Phase.ROLL else 0


def _teacher(state: LudoState) -> LudoState:
    """Hard's end of the roll: the teacher's games show the network the play of the level it
    meets at most tables."""
    from ..ai import decide  # the players import Expert, so Hard is read when it plays

    return decide(state, "hard").state


def _finished(state: LudoState, colour: int) -> bool:
    return bool(state.pieces[colour] == _ALL_HOME)


LEARNER = Learner(
    encoding=ENCODING, encode=encoded, weights=WEIGHTS, chance_weights=CHANCE_WEIGHTS,
    new_game=_new_game,
    dice=ludo_dice, roll=_roll, roll_ends=roll_ends, rolls=DIE, roll_chances=DIE_CHANCES,
    ends_after=_ends_after, key=_key, finished=_finished, tables=table, search=SEARCH,
    teacher=_teacher)
EXPERT = Expert(LEARNER)

__all__ = ["EXPERT", "LEARNER", "LEVEL", "WEIGHTS", "encoded", "roll_ends", "table"]
