"""Why a Ludo piece cannot move now, in one short sentence for a child: what the learning
mode shows when a piece that cannot move is tapped (``GAME.why_stuck``).

Nothing here decides a rule. A piece can move exactly when one of the roll's legal moves
(:func:`.moves.legal_moves`) moves it, and what keeps a piece from using a die is read from
the table the moves are found with (:data:`.moves.ENDS`: where a piece ends with a die, None
where it cannot go). The turn machine says the same when it refuses a move
(:func:`.turns.why_not` reads :func:`what_stops` too).

No house rule (docs/rules/ludo.md 4) adds a reason: ``stars`` and ``capture_all`` change whom a
landing captures, not whether a piece may land; ``third_six``, ``six_again`` and
``no_home_bonus`` act when the die is rolled or after a move, so the player is never asked to
choose with a void third six or an unusable 6 (the turn has passed, or the player rolls
again: "Roll the die first").
"""

from __future__ import annotations

from typing import Literal

from ...core.state import Phase
from .board import HOME, YARD
from .moves import ENDS, legal_moves
from .state import LudoState

ALREADY_HOME = "Already HOME"
ROLL_FIRST = "Roll the die first"
OPENING_FIRST = "First roll the die to see who begins"
ANSWER_FIRST = "Answer the question first"
"""During the play-on question (docs/rules/ludo.md 3.3) no piece moves: the player asked
answers it first (a decision of theirs, so a sentence rather than None)."""


def why_stuck(state: LudoState, piece: int) -> str | None:
    """Why piece ``piece`` (0..3) of the player to act cannot move now, or None when some
    legal move of the roll moves it, or when the game is over (nobody acts). ValueError for
    a piece that is not 0..3."""
    if isinstance(piece, bool) or not isinstance(piece, int) or piece not in range(4):
        raise ValueError(f"there is no piece {piece!r} (pieces are 0..3)")
    phase = state.phase
    if phase is Phase.OVER:
        return None
    if phase is Phase.PLAY_ON:
        return ANSWER_FIRST
    at = state.mover[piece]
    if at == HOME:
        return ALREADY_HOME
    if phase is Phase.OPENING:
        return OPENING_FIRST
    if phase is not Phase.MOVE:
        return ROLL_FIRST
    if any(move[0] == piece for move in legal_moves(state)):
        return None
    return die_reason(at, state.portions[0])


Stop = Literal["home", "yard", "past"]
"""What keeps a piece from using a die: it is HOME, it waits in the yard without a 6, or the
die would take it past HOME."""


def what_stops(at: int, die: int) -> Stop | None:
    """What keeps a piece at progress ``at`` from using ``die`` at all (docs/rules/ludo.md 3),
    read from the moves' own table; None when it can use it. The turn machine's refusal of a
    move (:func:`.turns.why_not`) and :func:`die_reason` both word this answer."""
    if at == HOME:
        return "home"
    if ENDS[die][at] is not None:
        return None
    return "yard" if at == YARD else "past"


def die_reason(at: int, die: int) -> str | None:
    """Why a piece at progress ``at`` cannot use ``die`` at all, as a sentence for a child
    (None when it can)."""
    stop = what_stops(at, die)
    if stop == "home":
        return ALREADY_HOME
    if stop == "yard":
        return "Needs a 6 to come out of the yard"
    if stop == "past":
        return f"Needs exactly {HOME - at} to reach HOME"
    return None
