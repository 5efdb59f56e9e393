"""Every choice open to the Parcheesi player to act, each with what it does.

The table, the hint and anything else that shows a choice before it is made read it here
(:class:`~parcheesi.core.choices.Choice`): which piece moves, the squares it walks, where it
ends, whom it captures, whether it reaches HOME or a safe square, the bonus it earns and the
dice portions it spends. Only the engine knows what a choice does, so this module works it
out by applying the choice to a copy of the position; nothing outside the engine needs
:func:`~.turns.apply` to preview a move.
"""

from __future__ import annotations

from ...core.actions import PlayOn, Roll
from ...core.choices import Capture, Choice
from ...core.events import Captured, Entered, Moved
from ...core.state import Phase
from .board import HOME, SAFE_BY_PROGRESS, START, is_track
from .state import State
from .turns import (
    CAPTURE_REWARD,
    HOME_REWARD,
    Move,
    Reward,
    apply,
    combined_moves,
    legal_rewards,
    legal_steps,
)


def choices(state: State) -> list[Choice]:
    """Every choice open now, in a stable order: the roll; or each piece's single steps
    (in the engine's order), then its moves that spend all remaining portions at once; or
    the bonus moves; or the two answers to the question whether to play on for places.
    Empty when the game is over."""
    if state.phase in (Phase.OPENING, Phase.ROLL):
        return [Choice(Roll())]
    if state.phase is Phase.PLAY_ON:
        return [Choice(PlayOn(True)), Choice(PlayOn(False))]
    if state.phase is Phase.MOVE:
        actions: list[Move | Reward] = list(legal_steps(state))
        for piece in sorted({move.piece for move in actions}):
            actions += combined_moves(state, piece)
    elif state.phase is Phase.REWARD:
        actions = list(legal_rewards(state))
    else:
        return []
    return [_what_it_does(state, action) for action in actions]


def _what_it_does(state: State, action: Move | Reward) -> Choice:
    colour, piece = state.turn, action.piece
    after, events = apply(state, action)
    path: list[int] = []
    captures: list[Capture] = []
    for event in events:
        if isinstance(event, Entered):
            path.append(0)
        elif isinstance(event, Moved):
            path.append(event.end)
        elif isinstance(event, Captured):
            captures.append(Capture(event.colour, event.piece, event.progress))
    end = after.pieces[colour][piece]
    home = end == HOME
    start = state.mover[piece]
    portions = action.portions if isinstance(action, Move) else (action.amount,)
    return Choice(action, piece, start, tuple(path), end, tuple(captures), home,
                  safe=is_track(end) and SAFE_BY_PROGRESS[colour][end],
                  bonus=CAPTURE_REWARD * len(captures) + HOME_REWARD * home,
                  wins=state.winner is None and after.winner == colour, portions=portions,
                  combined=len(portions) > 1 and start != START)
