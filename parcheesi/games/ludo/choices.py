"""Every choice open to the Ludo player to act, each with what it does.

The shared :class:`~parcheesi.core.choices.Choice`, so the table shows every game's
choices alike: the piece, where it starts and ends (``path`` is just ``(end,)``: one die
moves one piece once), whom it captures, whether it reaches HOME or a square safe for it,
whether the player rolls again and whether it wins. Ludo has no bonus squares, so
``bonus`` stays 0. What a move does is worked out by the turn machine itself on a copy of
the position, so the table never needs the rules to preview a move.
"""

from __future__ import annotations

from ...core.actions import PlayOn, Roll
from ...core.choices import Capture, Choice
from ...core.state import Phase
from .board import HOME, safe_progress
from .moves import LegalMove, legal_moves
from .state import LudoState
from .turns import advance


def choices(state: LudoState) -> list[Choice]:
    """Every choice open now: the roll; or one per piece that can move and capture choice,
    in piece order; or the two answers to the play-on question. Empty when the game is
    over."""
    if state.phase in (Phase.OPENING, Phase.ROLL):
        return [Choice(Roll())]
    if state.phase is Phase.PLAY_ON:
        return [Choice(PlayOn(True)), Choice(PlayOn(False))]
    if state.phase is Phase.MOVE:
        return [what_it_does(state, move) for move in legal_moves(state)]
    return []


def what_it_does(state: LudoState, move: LegalMove) -> Choice:
    """The choice of one legal move, with its effects."""
    colour = state.turn
    piece, end, _, victims, action = move
    after = advance(state, action)
    captures = tuple(Capture(other, k, state.pieces[other][k]) for other, k in victims)
    return Choice(action, piece, state.mover[piece], (end,), end, captures,
                  home=end == HOME, safe=safe_progress(colour, end, "stars" in state.house),
                  wins=after.winner == colour and state.winner is None,
                  again=after.phase is Phase.ROLL and after.turn == colour)
