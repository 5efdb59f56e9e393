"""Points: the classic points heuristic for Ludo, a benchmark opponent nobody here tuned.

Ludo programs and tutorials commonly play by giving each move a few points for what it
does and taking the move with the most: bring a piece out on a six, capture, get a piece out
of danger, and never stop 1..6 squares in front of an opponent. This module is that player,
written from the idea (no published code was ported), as a yardstick for Hard and Expert. It
is a benchmark level only (``python -m parcheesi simulate`` and ``choose``), never offered at
a table (``ai.TABLE_LEVELS``).

Each legal move scores (ties go to the first move, in piece order):

- ``OUT`` for bringing a piece out of the yard;
- ``CAPTURE`` for each opponent piece it sends home;
- ``HOME_STRETCH`` for reaching the home lane or HOME (out of reach for good);
- ``ESCAPE`` for leaving a square an opponent stands 1..6 squares behind;
- ``-DANGER`` for stopping on a square an opponent stands 1..6 squares behind (a player's
  own start square, where it cannot be captured, excepted);
- one point per ten squares the piece has come, so that with nothing else to choose the
  leading piece moves on.
"""

from __future__ import annotations

from ...core.state import Pieces
from .board import FIRST_LANE, TRACK_LENGTH, YARD
from .moves import LegalMove
from .state import LudoState
from .threats import SAFE, SQUARES

LEVEL = "points"
OUT = 30.0
CAPTURE = 40.0
HOME_STRETCH = 20.0
ESCAPE = 15.0
DANGER = 25.0


def chased(pieces: Pieces, me: int, rivals: tuple[int, ...], square: int) -> bool:
    """Whether an opponent's piece on the track stands 1..6 squares behind ``square``."""
    for other in rivals:
        row = SQUARES[other]
        for at in pieces[other]:
            behind = row[at]
            if behind >= 0 and 1 <= (square - behind) % TRACK_LENGTH <= 6:
                return True
    return False


def score(state: LudoState, move: LegalMove) -> float:
    """The points of one legal move of the player to move."""
    me = state.turn
    piece, end = move[0], move[1]
    start = state.pieces[me][piece]
    rivals = tuple(c for c in state.colours if c != me and state.pieces[c])
    safe = SAFE["stars" in state.house][me]
    points = CAPTURE * len(move[3]) + max(end, 0) / 10
    if start == YARD:
        points += OUT
    if end >= FIRST_LANE > start:
        points += HOME_STRETCH
    was, lands = SQUARES[me][start], SQUARES[me][end]
    if was >= 0 and not safe[was] and chased(state.pieces, me, rivals, was):
        points += ESCAPE
    if lands >= 0 and not safe[lands] and chased(state.pieces, me, rivals, lands):
        points -= DANGER
    return points


def choose(state: LudoState, moves: tuple[LegalMove, ...]) -> int:
    """The index of the move with the most points (the first on a tie)."""
    scores = [score(state, move) for move in moves]
    return max(range(len(moves)), key=lambda k: (scores[k], -k))
