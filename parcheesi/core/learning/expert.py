"""A game's Expert and its win chances, from the weights it ships.

The weights are read once, on first use, so a server that never seats an Expert or shows a
meter never loads them. A game may ship a second set for the win chances
(:attr:`.Learner.chance_weights`). A benchmark or the training may put other weights in
place of both for a while (:meth:`Expert.use`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from functools import cached_property

from . import search
from .learner import Learner, State
from .network import Network
from .values import win_chances_of

LEVEL = "expert"
"""The computer level that plays with a learned evaluation, in every game that has one."""


class Expert:
    """Expert's choices and the chances to win of one game, by its learned evaluation."""

    def __init__(self, learner: Learner) -> None:
        self.learner = learner
        self._override: Network | None = None
        self.clock: Callable[[], float] = time.perf_counter
        """What the search's time budget is measured with (a test may stop it, so that
        only the answers budget ends a search, whatever the machine's load)."""

    @cached_property
    def _shipped(self) -> Network:
        return Network.load(self.learner.weights, self.learner.encoding)

    @cached_property
    def _shipped_chances(self) -> Network:
        chances = self.learner.chance_weights
        return self._shipped if chances is None else Network.load(chances,
                                                                  self.learner.encoding)

    def network(self) -> Network:
        """The evaluation Expert searches with: the shipped weights, unless others were put
        in place."""
        return self._shipped if self._override is None else self._override

    def chance_network(self) -> Network:
        """The evaluation the win chances are read with (the search's, unless the game ships
        its own for them)."""
        return self._shipped_chances if self._override is None else self._override

    def use(self, net: Network | None) -> None:
        """Play and read the chances with ``net`` instead of the shipped weights (None: back
        to them). For the benchmarks' comparisons of one set of weights with another."""
        self._override = net

    def choose(self, state: State, ends: list[State]) -> int:
        """Expert's pick among ``ends``, every end position of the roll ``state`` is in."""
        return search.choose(self.learner, self.network(), state, ends, self.clock)

    def chances(self, state: State) -> dict[int, float]:
        """Each playing colour's chance to win from ``state``."""
        return self.chances_of([state])[0]

    def chances_of(self, states: Sequence[State]) -> list[dict[int, float]]:
        """:meth:`chances` of many positions at once (a game's, for its chart)."""
        values = win_chances_of(self.learner, self.chance_network(), list(states))
        return [{colour: float(row[colour]) for colour in state.colours}
                for state, row in zip(states, values, strict=True)]
