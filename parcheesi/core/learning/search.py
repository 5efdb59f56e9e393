"""Expert: a learned evaluation with one ply of chance.

For the roll to play, every end position is rated by the network; the few best (a move
filter, as backgammon programs search only their best candidates deeper) are then rated
again by looking one roll further: for each distinct roll of whoever rolls next (the
opponent, or the player again after a roll that earns another), that roller's best answer
by the network, and the chance it leaves, weighted by the roll's probability. The candidate
with the best expectation is played.

Two budgets bound the search (:class:`~.learner.Search`): a count of answers looked at,
which keeps the choice the same for the same position on any machine (games and benchmarks
replay), and a time budget for a machine slower or busier than planned. A candidate not
fully searched when either runs out is left out, and with none searched the network's own
choice stands, so one slow position (a Parcheesi doubles roll with hundreds of end
positions for every answer) never stalls a table.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable

import numpy as np

from ..state import Phase
from .learner import SLOTS, Learner, State
from .network import Array, Network
from .values import race_chances


def shortlist(values: Array, count: int, margin: float) -> list[int]:
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


def one_ply(learner: Learner, net: Network, after: State, me: int,
            budget: Budget | None = None) -> float | None:
    """``me``'s chance to win after the roll that follows ``after``: over every roll of
    whoever rolls next, the roller's best answer by the network. None if the budget runs
    out before every roll's answers are found."""
    roller = after.turn
    ends: list[State] = []
    found: dict[Hashable, int] = {}
    picks: list[list[int]] = []
    key = learner.key
    for dice in learner.rolls:
        if budget is not None and budget.spent():
            return None
        # Different rolls often end in the same position: each is rated once.
        rows = []
        answers = learner.ends_after(after, dice)
        for end in answers:
            mark = key(end)
            row = found.get(mark)
            if row is None:
                row = found[mark] = len(ends)
                ends.append(end)
            rows.append(row)
        picks.append(rows)
        if budget is not None:
            budget.answers -= len(answers)
    values = race_chances(learner, net, ends, roller)
    expected = 0.0
    for weight, rows in zip(learner.roll_chances, picks, strict=True):
        best = max(rows, key=lambda row: values[row, roller])
        expected += weight * values[best, me]
    return expected


def deeper(learner: Learner, net: Network, after: State, depth: int, budget: Budget
           ) -> Array | None:
    """Each colour's chance to win after the ``depth`` rolls that follow ``after``: over
    every roll of whoever rolls next, that roller's best answer (among its own few best by
    the network) as rated ``depth - 1`` rolls further on. None if the budget runs out."""
    roller = after.turn
    total = np.zeros(SLOTS)
    limits = learner.search
    for weight, dice in zip(learner.roll_chances, learner.rolls, strict=True):
        if budget.spent():
            return None
        answers = learner.ends_after(after, dice)
        budget.answers -= len(answers)
        static = race_chances(learner, net, answers, roller)
        best: Array | None = None
        for k in shortlist(static[:, roller], limits.candidates, limits.margin):
            end = answers[k]
            value: Array | None = static[k]
            if depth > 1 and end.phase is Phase.ROLL and end.winner is None:
                value = deeper(learner, net, end, depth - 1, budget)
                if value is None:
                    return None
            assert value is not None
            if best is None or value[roller] > best[roller]:
                best = value
        assert best is not None
        total += weight * best
    return total


def static_values(learner: Learner, net: Network, state: State, ends: list[State]
                  ) -> Array | int:
    """The network's chance for the player to move at each of ``ends`` (the end positions
    of the roll ``state`` is in); or, when there is nothing to weigh (one end, or one that
    finishes the player), the index to play."""
    me = state.turn
    if len(ends) == 1:
        return 0
    for k, end in enumerate(ends):
        if learner.finished(end, me):
            return k
    values: Array = race_chances(learner, net, ends, me)[:, me]
    return values


def greedy(learner: Learner, net: Network, state: State, ends: list[State]) -> int:
    """The network's own pick among ``ends``, no search (how the training plays)."""
    values = static_values(learner, net, state, ends)
    return values if isinstance(values, int) else int(np.argmax(values))


def choose(learner: Learner, net: Network, state: State, ends: list[State],
           clock: Callable[[], float] = time.perf_counter) -> int:
    """The index in ``ends`` (every end position of the roll ``state`` is in) to play,
    within the learner's search limits."""
    me = state.turn
    static = static_values(learner, net, state, ends)
    if isinstance(static, int):
        return static
    limits = learner.search
    picks = shortlist(static, limits.candidates, limits.margin)
    if len(picks) == 1 or any(end.winner is not None for end in ends):
        return picks[0]
    budget = Budget(limits.answers, limits.seconds, clock)
    best, best_value = picks[0], -1.0
    for k in picks:
        value = (one_ply(learner, net, ends[k], me, budget) if limits.depth == 1 else
                 deep_value(learner, net, ends[k], me, limits.depth, budget))
        if value is None:  # out of time: the candidates searched so far decide
            break
        if value > best_value:
            best, best_value = k, value
    return best


def deep_value(learner: Learner, net: Network, end: State, me: int, depth: int,
                budget: Budget) -> float | None:
    if end.phase is not Phase.ROLL:  # the game stopped: nothing follows
        return float(race_chances(learner, net, [end], me)[0, me])
    values = deeper(learner, net, end, depth, budget)
    return None if values is None else float(values[me])
