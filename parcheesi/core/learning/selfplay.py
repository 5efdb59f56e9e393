"""Games of a learned evaluation against itself, and the training samples they give.

Each roll's end position is chosen greedily by the network (the mover's own chance, no
search), as TD-Gammon trained; a share of the games may instead be played by the game's
teacher (:attr:`.Learner.teacher`). Every position between rolls is a sample; its target
is the TD(lambda) return: a blend of the network's own view of the following positions and,
at the end, who won (a teacher's game: who won alone). The targets are computed once per
game, after it, with one batch through the network.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from ..state import Phase
from .learner import SLOTS, Encoded, Learner, State
from .network import Array, Network
from .search import greedy


@dataclass
class Samples:
    """Training samples: the encoded positions and their targets in the positions' slots."""

    inputs: list[Encoded]
    targets: Array
    """(n, 4): the target chance of each slot."""

    @classmethod
    def join(cls, parts: list[Samples]) -> Samples:
        return cls([e for p in parts for e in p.inputs],
                   np.concatenate([p.targets for p in parts]) if parts else np.zeros((0, SLOTS)))


def game_seed(seed: int, iteration: int, index: int) -> int:
    digest = hashlib.blake2b(f"train:{seed}:{iteration}:{index}".encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "big") >> 1


def greedy_end(learner: Learner, net: Network, state: State) -> State:
    """The end of the current roll that the network rates best for the player to move."""
    ends = learner.roll_ends(state)
    return ends[greedy(learner, net, state, ends)]


def play(learner: Learner, net: Network, colours: tuple[int, ...], seed: int,
         house: tuple[str, ...] = (), taught: bool = False) -> tuple[list[State], int | None]:
    """One self-play game to its first finish: the positions between rolls, and the winner
    (None if the game ended with nobody finished). ``taught``: every roll is played by the
    learner's teacher instead of the network."""
    if taught and learner.teacher is None:
        raise ValueError("this game has no teacher to play training games")
    state = learner.new_game(colours, house)
    dice = learner.dice(seed)
    positions: list[State] = []
    while True:
        phase = state.phase
        if phase is Phase.ROLL:
            positions.append(state)
            state = learner.roll(state, dice)
        elif phase is Phase.OPENING:
            state = learner.roll(state, dice)
        elif state.winner is not None or phase is Phase.OVER:
            return positions, state.winner
        elif taught:
            state = learner.teacher(state)  # type: ignore[misc]  # checked above
        else:
            state = greedy_end(learner, net, state)


def samples(learner: Learner, net: Network, positions: list[State], winner: int | None,
            lam: float) -> Samples:
    """TD(lambda) targets for one game's positions (in each position's own slots); a game
    nobody won ends as an even share among its colours."""
    inputs = [learner.encode(s) for s in positions]
    values = net.chances(inputs)  # in slots
    rollers = np.array([s.turn for s in positions])
    # Everything in colours first: the value after position t is seen by another roller.
    by_colour = np.stack([np.roll(values[k], rollers[k]) for k in range(len(positions))])
    targets = np.zeros_like(by_colour)
    following = np.zeros(SLOTS)
    if winner is not None:
        following[winner] = 1.0
    elif positions:
        following[list(positions[0].colours)] = 1 / len(positions[0].colours)
    for t in range(len(positions) - 1, -1, -1):
        targets[t] = following
        following = (1 - lam) * by_colour[t] + lam * following
    in_slots = np.stack([np.roll(targets[k], -rollers[k]) for k in range(len(positions))])
    return Samples(inputs, in_slots)


def taught(seed: int, iteration: int, index: int, share: float) -> bool:
    """Whether game ``index`` of an iteration is the teacher's: a share of the games drawn
    from the run's seed (not from the index, whose residues choose the tables)."""
    digest = hashlib.blake2b(f"teach:{seed}:{iteration}:{index}".encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "big") < share * 2.0 ** 64


def play_games(learner: Learner, net: Network, seed: int, iteration: int, indices: list[int],
               lam: float, share: float = 0.0) -> tuple[Samples, dict[str, float]]:
    """Games ``indices`` of an iteration (a ``share`` of them the teacher's, the rest
    self-play), their samples and a summary."""
    parts = []
    rolls = 0
    for index in indices:
        colours, house = learner.tables(index)
        teacher = share > 0 and taught(seed, iteration, index, share)
        positions, winner = play(learner, net, colours, game_seed(seed, iteration, index),
                                 house, teacher)
        rolls += len(positions)
        if positions:
            # The network's view of later positions predicts its own play, not the
            # teacher's: a teacher's game learns from who won it (lambda 1).
            parts.append(samples(learner, net, positions, winner, 1.0 if teacher else lam))
    return Samples.join(parts), {"games": len(indices), "positions": rolls}
