"""Chances to win of whole positions, in colours, from the learned evaluation.

The network speaks in slots seen from the colour to roll (:mod:`.encoding`); everything
outside this package speaks in colours. Colours with every piece HOME are out of the race
(the encoding marks them absent), so after a first finish, when a table plays on, the same
chances read as each racing colour's chance to finish next.
"""

from __future__ import annotations

import numpy as np

from ....core.state import Phase
from ..risk import ALL_HOME
from ..state import State
from ..turns import roll_outcomes
from .encoding import encode
from .network import Array, Encoded, Network

_COLOURS = np.arange(4)


def encoded(state: State) -> Encoded:
    """The network's input for a position between rolls (or before a roll's decision: the
    position is read as if the player to act were about to roll)."""
    doubles = state.doubles if state.phase is Phase.ROLL else 0
    return encode(state.pieces, state.turn, doubles)


def race_chances(net: Network, states: list[State], mover: int) -> Array:
    """(len(states), 4): each colour's chance to be the next to finish from each position
    (end positions of one roll of ``mover``'s; 0 for a colour out of the race). A position
    where ``mover`` has just finished is certain."""
    result = np.zeros((len(states), 4))
    pending: list[int] = []
    inputs: list[Encoded] = []
    for row, state in enumerate(states):
        if state.pieces[mover] == ALL_HOME:
            result[row, mover] = 1.0
        else:
            pending.append(row)
            inputs.append(encoded(state))
    if inputs:
        by_slot = net.chances(inputs)
        rollers = np.array([states[row].turn for row in pending])
        # colour c of a position rolled by r is its slot (c - r) % 4
        slot = (_COLOURS - rollers[:, None]) % 4
        result[pending] = by_slot[np.arange(len(pending))[:, None], slot]
    return result


def win_chances_of(net: Network, states: list[State]) -> Array:
    """(len(states), 4): :func:`win_chances` of many positions, the ones between rolls
    through the network in one batch."""
    result = np.zeros((len(states), 4))
    between = [k for k, s in enumerate(states) if s.phase is Phase.ROLL and s.winner is None]
    if between:  # nobody has finished in these, so no mover's finish needs telling apart
        result[between] = race_chances(net, [states[k] for k in between], mover=0)
    for k, state in enumerate(states):
        if not (state.phase is Phase.ROLL and state.winner is None):
            result[k] = win_chances(net, state)
    return result


def win_chances(net: Network, state: State) -> Array:
    """Each colour's chance to win the game (the first to finish) from ``state``."""
    result = np.zeros(4)
    if state.winner is not None:
        result[state.winner] = 1.0
        return result
    if state.phase is Phase.OPENING:
        result[list(state.colours)] = 1 / len(state.colours)
        return result
    if state.phase in (Phase.MOVE, Phase.REWARD):  # as the mover's best end of the roll
        ends = [end for end, _ in roll_outcomes(state)]
        values = race_chances(net, ends, state.turn)
        best: Array = values[int(np.argmax(values[:, state.turn]))]
        return best
    chances: Array = race_chances(net, [state], state.turn)[0]
    return chances
