"""Whole-roll views of a position: every outcome of a roll, as the command line reports it."""

from __future__ import annotations

from ...core.actions import Roll
from ...core.state import Phase
from .dice import Dice
from .state import State
from .turns import Action, apply, roll_outcomes


def outcomes_after_roll(state: State, dice: Dice) -> list[tuple[State, list[Action]]]:
    """Roll ``dice`` at the start of a roll and list every distinct end of that roll.

    A roll that moves nothing (no legal move, or the third-doubles penalty) has one
    outcome. The Roll action itself is not part of the returned action lists.
    """
    after, _ = apply(state, Roll(), dice)
    if after.phase in (Phase.MOVE, Phase.REWARD) and after.turn == state.turn:
        return roll_outcomes(after)
    return [(after, [])]
