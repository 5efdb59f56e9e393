"""Every choice open to the player to act, each with what it does, worked out by the turn
machine itself on a copy of the position (the table never previews a rule)."""

from __future__ import annotations

from parcheesi.core.actions import PlayOn, Roll
from parcheesi.core.choices import Choice
from parcheesi.core.state import Phase

from .board import HOME
from .moves import Move, movable
from .state import RaceState
from .turns import advance


def choices(state: RaceState) -> list[Choice]:
    """The roll; or one move per piece the die can move; or the answers to the play-on
    question; nothing once the game is over."""
    if state.phase in (Phase.OPENING, Phase.ROLL):
        return [Choice(Roll())]
    if state.phase is Phase.PLAY_ON:
        return [Choice(PlayOn(True)), Choice(PlayOn(False))]
    if state.phase is Phase.MOVE:
        return [what_it_does(state, k) for k in movable(state.mover, state.portions[0])]
    return []


def what_it_does(state: RaceState, piece: int) -> Choice:
    action = Move(piece)
    after = advance(state, action)
    end = after.pieces[state.turn][piece]
    return Choice(action, piece, state.mover[piece], (end,), end, home=end == HOME,
                  wins=state.winner is None and after.winner == state.turn)
