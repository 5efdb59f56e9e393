"""Expert: the learned evaluation with one ply of chance.

For the roll to play, every end position is rated by the network; the few best (a move
filter, as backgammon programs search only their best candidates deeper) are then rated
again by looking one roll further: for each of the 21 distinct rolls of whoever rolls
next (the opponent, or the player again after doubles), that roller's best answer by the
network, and the chance it leaves, weighted by the roll's probability. The candidate with
the best expectation is played.

Two budgets bound the search: a count of answers looked at, which keeps the choice the
same for the same position on any machine (games and benchmarks replay), and a time
budget for a machine slower or busier than planned. A candidate not fully searched when
either runs out is left out, and with none searched the network's own choice stands, so
one slow position (a doubles roll with hundreds of end positions for every answer) never
stalls a table.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from ....core.state import Phase
from ..analysis import outcomes_after_roll
from ..risk import ALL_HOME
from ..state import State
from .network import Array, Network
from .values import race_chances

ROLLS = tuple((a, b) for a in range(1, 7) for b in range(a, 7))
"""The 21 distinct rolls; ``WEIGHTS`` their chances (a pair of different dice is twice as
likely as one doubles)."""
WEIGHTS = np.array([1 / 36 if a == b else 2 / 36 for a, b in ROLLS])
CANDIDATES = 4
"""At most this many end positions are searched a ply deeper."""
MARGIN = 0.08
"""...and only those the network rates within this chance of the best."""
ANSWERS = 3000
"""End positions of answers looked at per decision at most: the budget that normally
ends a long search (about 0.15 s on the 2-core machine of ``docs/benchmarks.md``)."""
BUDGET = 0.8
"""Seconds of search per decision at most, for a machine far slower or busier than that
(Expert's longest decision is to stay under a second)."""


def shortlist(values: Array, count: int = CANDIDATES, margin: float = MARGIN) -> list[int]:
    """The indices worth a deeper look: the best ``count`` within ``margin`` of the best."""
    order = np.argsort(-values, kind="stable")
    best = values[order[0]]
    return [int(k) for k in order[:count] if values[k] >= best - margin]


class Budget:
    """What a decision may still spend: answers to look at, and time."""

    def __init__(self, answers: int, seconds: float, clock: Callable[[], float]) -> None:
        self.answers = answers
        self.deadline = clock() + seconds
        self.clock = clock

    def spent(self) -> bool:
        return self.answers < 0 or self.clock() > self.deadline


def one_ply(net: Network, after: State, me: int, budget: Budget | None = None
            ) -> float | None:
    """``me``'s chance to win after the roll that follows ``after``: over the 21 rolls of
    whoever rolls next, the roller's best answer by the network. None if the budget runs
    out before every roll's answers are found."""
    roller = after.turn
    ends: list[State] = []
    found: dict[tuple[object, ...], int] = {}
    picks: list[list[int]] = []
    for dice in ROLLS:
        if budget is not None and budget.spent():
            return None
        # Different rolls often end in the same position: each is rated once.
        rows = []
        answers = outcomes_after_roll(after, dice)
        for end, _ in answers:
            key = (end.pieces, end.turn, end.doubles if end.phase is Phase.ROLL else -1)
            row = found.get(key)
            if row is None:
                row = found[key] = len(ends)
                ends.append(end)
            rows.append(row)
        picks.append(rows)
        if budget is not None:
            budget.answers -= len(answers)
    values = race_chances(net, ends, roller)
    expected = 0.0
    for weight, rows in zip(WEIGHTS, picks, strict=True):
        best = max(rows, key=lambda row: values[row, roller])
        expected += weight * values[best, me]
    return expected


def static_values(net: Network, state: State, ends: list[State]) -> Array | int:
    """The network's chance for the player to move at each of ``ends`` (the end positions
    of the roll ``state`` is in); or, when there is nothing to weigh (one end, or one that
    finishes the player), the index to play."""
    me = state.turn
    if len(ends) == 1:
        return 0
    for k, end in enumerate(ends):
        if end.pieces[me] == ALL_HOME:
            return k
    values: Array = race_chances(net, ends, me)[:, me]
    return values


def greedy(net: Network, state: State, ends: list[State]) -> int:
    """The network's own pick among ``ends``, no search (how the training plays)."""
    values = static_values(net, state, ends)
    return values if isinstance(values, int) else int(np.argmax(values))


def choose(net: Network, state: State, ends: list[State], answers: int = ANSWERS,
           seconds: float = BUDGET, clock: Callable[[], float] = time.perf_counter) -> int:
    """The index in ``ends`` (every end position of the roll ``state`` is in) to play."""
    me = state.turn
    static = static_values(net, state, ends)
    if isinstance(static, int):
        return static
    picks = shortlist(static)
    if len(picks) == 1 or any(end.winner is not None for end in ends):
        return picks[0]
    budget = Budget(answers, seconds, clock)
    best, best_value = picks[0], -1.0
    for k in picks:
        value = one_ply(net, ends[k], me, budget)
        if value is None:  # out of time: the candidates searched so far decide
            break
        if value > best_value:
            best, best_value = k, value
    return best
