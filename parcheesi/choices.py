"""Every choice open to the player to act, each with what it does.

The table, the hint and anything else that shows a choice before it is made read it here:
which piece moves, the squares it walks, where it ends, whom it captures, whether it reaches
HOME or a safe square, and the bonus it earns. Only the engine knows what a choice does, so
this module works it out by applying the choice to a copy of the position; nothing outside
the engine needs :func:`parcheesi.game.apply` to preview a move.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .board import HOME, SAFE_BY_PROGRESS, START, is_track
from .game import (
    CAPTURE_REWARD,
    HOME_REWARD,
    Action,
    Captured,
    Entered,
    Move,
    Moved,
    PlayOn,
    Reward,
    Roll,
    apply,
    combined_moves,
    legal_rewards,
    legal_steps,
)
from .state import Phase, State

if TYPE_CHECKING:  # Ludo's choices are of the same shape (parcheesi/ludo/choices.py)
    from .ludo.rules import Action as LudoAction


@dataclass(frozen=True, slots=True)
class Capture:
    """A piece sent back to START, at the progress it stood on (its own colour's count)."""

    colour: int
    piece: int
    progress: int


@dataclass(frozen=True, slots=True)
class Choice:
    """One action the player to act may take now, and what it does.

    A roll has no piece: ``start``, ``end`` and ``path`` are then ``None`` and empty."""

    action: Action | LudoAction
    """The action itself: Parcheesi's (roll, move, reward, play on) or Ludo's (roll, move,
    play on)."""
    piece: int | None = None
    start: int | None = None
    """The piece's progress before the choice."""
    path: tuple[int, ...] = ()
    """The progress the piece stands on after each dice portion (or the bonus); the last is
    ``end``."""
    end: int | None = None
    captures: tuple[Capture, ...] = ()
    home: bool = False
    """Whether the piece reaches HOME."""
    safe: bool = False
    """Whether the piece ends on a safe square of the track."""
    bonus: int = 0
    """Squares of bonus the choice earns: 20 per capture, 10 for reaching HOME."""
    wins: bool = False
    """Whether the piece's player is the first to finish with it: the winner."""
    again: bool = False
    """Whether the player rolls again after it (Ludo's extra roll; Parcheesi's doubles are
    known before the choice, so it leaves this False)."""

    @property
    def portions(self) -> tuple[int, ...]:
        """The dice portions a movement spends, or the bonus amount it uses."""
        if isinstance(self.action, Move):
            return self.action.portions
        if isinstance(self.action, Reward):
            return (self.action.amount,)
        return ()

    @property
    def combined(self) -> bool:
        """Whether the choice spends several portions on a piece already on its way (an
        entry with both dice is one step)."""
        return len(self.portions) > 1 and self.start != START


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
    return Choice(action, piece, state.mover[piece], tuple(path), end, tuple(captures), home,
                  safe=is_track(end) and SAFE_BY_PROGRESS[colour][end],
                  bonus=CAPTURE_REWARD * len(captures) + HOME_REWARD * home,
                  wins=state.winner is None and after.winner == colour)


def pieces_to_choose(options: list[Choice]) -> set[int]:
    """The pieces some choice moves."""
    return {c.piece for c in options if c.piece is not None}


def for_piece(options: list[Choice], piece: int) -> list[Choice]:
    """The choices that move ``piece``, in order."""
    return [c for c in options if c.piece == piece]


def using_portion(options: list[Choice], value: int) -> list[Choice]:
    """The single steps that spend the dice portion ``value``: a move by ``value``, or an
    entry that spends it with the other die (a 1+4 or 2+3 enters as one step)."""
    return [c for c in options if isinstance(c.action, Move) and not c.combined
            and (c.portions == (value,) or (c.start == START and value in c.portions))]
