"""Chances to win of whole positions, in colours, from a learned evaluation.

The network speaks in slots seen from the colour to roll (:mod:`.learner`); everything
outside this package speaks in colours. Colours with every piece home are out of the race
(the encodings mark them absent), so after a first finish, when a table plays on, the same
chances read as each racing colour's chance to finish next.
"""

from __future__ import annotations

import numpy as np

from ..state import Phase
from .learner import SLOTS, Encoded, Learner, State
from .network import Array, Network

_COLOURS = np.arange(SLOTS)
_DECIDING = (Phase.MOVE, Phase.REWARD)
"""The phases in which the player to act chooses what the roll does."""


def race_chances(learner: Learner, net: Network, states: list[State], mover: int) -> Array:
    """(len(states), 4): each colour's chance to be the next to finish from each position
    (end positions of one roll of ``mover``'s; 0 for a colour out of the race). A position
    where ``mover`` has just finished is certain."""
    result = np.zeros((len(states), SLOTS))
    pending: list[int] = []
    inputs: list[Encoded] = []
    finished, encode = learner.finished, learner.encode
    for row, state in enumerate(states):
        if finished(state, mover):
            result[row, mover] = 1.0
        else:
            pending.append(row)
            inputs.append(encode(state))
    if inputs:
        by_slot = net.chances(inputs)
        rollers = np.array([states[row].turn for row in pending])
        # colour c of a position rolled by r is its slot (c - r) % 4
        slot = (_COLOURS - rollers[:, None]) % SLOTS
        result[pending] = by_slot[np.arange(len(pending))[:, None], slot]
    return result


def win_chances_of(learner: Learner, net: Network, states: list[State]) -> Array:
    """(len(states), 4): :func:`win_chances` of many positions, the ones between rolls
    through the network in one batch."""
    result = np.zeros((len(states), SLOTS))
    between = [k for k, s in enumerate(states) if s.phase is Phase.ROLL and s.winner is None]
    if between:  # nobody has finished in these, so no mover's finish needs telling apart
        result[between] = race_chances(learner, net, [states[k] for k in between], mover=0)
    for k, state in enumerate(states):
        if not (state.phase is Phase.ROLL and state.winner is None):
            result[k] = win_chances(learner, net, state)
    return result


def win_chances(learner: Learner, net: Network, state: State) -> Array:
    """Each colour's chance to win the game (the first to finish) from ``state``."""
    result = np.zeros(SLOTS)
    if state.winner is not None:
        result[state.winner] = 1.0
        return result
    if state.phase is Phase.OPENING:
        result[list(state.colours)] = 1 / len(state.colours)
        return result
    if state.phase is Phase.OVER:  # ended with nobody finished (a draw): nobody wins
        return result
    if state.phase in _DECIDING:  # as the mover's best end of the roll
        ends = learner.roll_ends(state)
        values = race_chances(learner, net, ends, state.turn)
        best: Array = values[int(np.argmax(values[:, state.turn]))]
        return best
    chances: Array = race_chances(learner, net, [state], state.turn)[0]
    return chances
