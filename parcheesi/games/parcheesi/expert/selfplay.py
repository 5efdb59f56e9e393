"""Games of the learned evaluation against itself, and the training samples they give.

Each roll's end position is chosen greedily by the network (the mover's own chance, no
search), as TD-Gammon trained. Every position between rolls is a sample; its target is the
TD(lambda) return: a blend of the network's own view of the following positions and, at
the end, who won. The targets are computed once per game, after it, with one batch through
the network.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from ....core.actions import Roll
from ....core.state import Phase
from ..dice import seeded
from ..state import State, new_state
from ..turns import apply, roll_outcomes
from . import search
from .network import Array, Encoded, Network
from .values import encoded

PLAYER_COUNTS = (2, 3, 4)
"""Training games rotate over tables of two, three and four."""
TRAINING_TABLES: dict[int, list[tuple[int, ...]]] = {
    2: [(0, 2), (1, 3)], 3: [(0, 1, 2), (1, 2, 3), (0, 2, 3), (0, 1, 3)], 4: [(0, 1, 2, 3)]}
"""The colours of each table size, in the order the shipped weights' games used them (every
set a table may use: ``GameRules.colour_sets``, in another order)."""


@dataclass
class Samples:
    """Training samples: the encoded positions and their targets in the positions' slots."""

    inputs: list[Encoded]
    targets: Array
    """(n, 4): the target chance of each slot."""

    @classmethod
    def join(cls, parts: list[Samples]) -> Samples:
        return cls([e for p in parts for e in p.inputs],
                   np.concatenate([p.targets for p in parts]) if parts else np.zeros((0, 4)))


def game_seed(seed: int, iteration: int, index: int) -> int:
    digest = hashlib.blake2b(f"train:{seed}:{iteration}:{index}".encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "big") >> 1


def table(index: int) -> tuple[int, ...]:
    """The colours of training game ``index``: the table sizes and colour sets rotate."""
    count = PLAYER_COUNTS[index % len(PLAYER_COUNTS)]
    sets = TRAINING_TABLES[count]
    return sets[(index // len(PLAYER_COUNTS)) % len(sets)]


def greedy(net: Network, state: State) -> State:
    """The end of the current roll that the network rates best for the player to move."""
    ends = [after for after, _ in roll_outcomes(state)]
    return ends[search.greedy(net, state, ends)]


def play(net: Network, colours: tuple[int, ...], seed: int) -> tuple[list[State], int]:
    """One self-play game to its first finish: the positions between rolls, and the winner."""
    state = new_state(colours)
    dice = seeded(seed)
    positions: list[State] = []
    while True:
        phase = state.phase
        if phase is Phase.ROLL:
            positions.append(state)
            state, _ = apply(state, Roll(), dice)
        elif phase is Phase.OPENING:
            state, _ = apply(state, Roll(), dice)
        elif state.winner is not None:
            return positions, state.winner
        else:
            state = greedy(net, state)


def samples(net: Network, positions: list[State], winner: int, lam: float) -> Samples:
    """TD(lambda) targets for one game's positions (in each position's own slots)."""
    inputs = [encoded(s) for s in positions]
    values = net.chances(inputs)  # in slots
    rollers = np.array([s.turn for s in positions])
    # Everything in colours first: the value after position t is seen by another roller.
    by_colour = np.stack([np.roll(values[k], rollers[k]) for k in range(len(positions))])
    targets = np.zeros_like(by_colour)
    following = np.zeros(4)
    following[winner] = 1.0
    for t in range(len(positions) - 1, -1, -1):
        targets[t] = following
        following = (1 - lam) * by_colour[t] + lam * following
    in_slots = np.stack([np.roll(targets[k], -rollers[k]) for k in range(len(positions))])
    return Samples(inputs, in_slots)


def play_games(net: Network, seed: int, iteration: int, indices: list[int], lam: float
               ) -> tuple[Samples, dict[str, float]]:
    """Self-play games ``indices`` of an iteration, their samples and a summary."""
    parts = []
    rolls = 0
    for index in indices:
        positions, winner = play(net, table(index), game_seed(seed, iteration, index))
        rolls += len(positions)
        parts.append(samples(net, positions, winner, lam))
    return Samples.join(parts), {"games": len(indices), "positions": rolls}

