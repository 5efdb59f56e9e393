"""Expert, the fourth computer level, and the win chances shown by the meter.

Both read the learned evaluation, whose weights ship beside this module (``weights.npz``,
with ``weights.json`` telling how they were trained; ``python -m parcheesi train``
reproduces them). The weights are read once, on first use, so a server that never seats
an Expert or shows a meter never loads numpy's arrays.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

from ..state import State
from . import search
from .network import Network
from .values import win_chances_of

LEVEL = "expert"
WEIGHTS = Path(__file__).with_name("weights.npz")

_override: list[Network] = []


@cache
def _shipped() -> Network:
    return Network.load(WEIGHTS)


def network() -> Network:
    """The evaluation in use: the shipped weights, unless a benchmark put others in place."""
    return _override[-1] if _override else _shipped()


def use(net: Network | None) -> None:
    """Play with ``net`` instead of the shipped weights (None: back to them). For the
    training's and the benchmarks' comparisons of one set of weights with another."""
    _override.clear()
    if net is not None:
        _override.append(net)


def choose(state: State, ends: list[State]) -> int:
    """Expert's pick among ``ends``, every end position of the roll ``state`` is in."""
    return search.choose(network(), state, ends)


def chances(state: State) -> dict[int, float]:
    """Each playing colour's chance to win from ``state``, by the learned evaluation."""
    return chances_of([state])[0]


def chances_of(states: Sequence[State]) -> list[dict[int, float]]:
    """:func:`chances` of many positions at once (a game's, for its chart)."""
    values = win_chances_of(network(), list(states))
    return [{colour: float(row[colour]) for colour in state.colours}
            for state, row in zip(states, values, strict=True)]
