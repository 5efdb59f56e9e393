"""A choice open to the player to act, with what it does: the one preview of a move.

Each game's engine lists its choices (``GameRules.choices``) by applying each one to a copy
of the position, so the table, the hint and anything else that shows a choice before it is
made read it here and never ask the rules what a move would do.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Capture:
    """A piece sent back to where pieces wait, at the progress it stood on (its own
    colour's count)."""

    colour: int
    piece: int
    progress: int


@dataclass(frozen=True, slots=True)
class Choice:
    """One action the player to act may take now, and what it does.

    A roll or an answer moves no piece: ``piece``, ``start`` and ``end`` are then ``None``
    and ``path`` is empty."""

    action: Any
    """The action itself, as the game's engine defines it."""
    piece: int | None = None
    start: int | None = None
    """The piece's progress before the choice."""
    path: tuple[int, ...] = ()
    """The progress the piece stands on after each step; the last is ``end``."""
    end: int | None = None
    captures: tuple[Capture, ...] = ()
    home: bool = False
    """Whether the piece reaches HOME."""
    safe: bool = False
    """Whether the piece ends on a square of the track safe for it."""
    bonus: int = 0
    """Squares of bonus the choice earns (Parcheesi's 20 per capture, 10 for HOME)."""
    wins: bool = False
    """Whether the piece's player is the first to finish with it: the winner."""
    again: bool = False
    """Whether the player rolls again after it because of what it did (not for doubles,
    known before the choice)."""
    portions: tuple[int, ...] = ()
    """The dice portions a move spends, in order, or the bonus amount it uses, in a game
    whose roll is spent in portions the player picks (empty otherwise)."""
    combined: bool = False
    """Whether the choice spends several portions on a piece already on its way at once
    (an entry with both dice is one step)."""


def pieces_to_choose(options: list[Choice]) -> set[int]:
    """The pieces some choice moves."""
    return {c.piece for c in options if c.piece is not None}


def for_piece(options: list[Choice], piece: int) -> list[Choice]:
    """The choices that move ``piece``, in order."""
    return [c for c in options if c.piece == piece]


def using_portion(options: list[Choice], value: int) -> list[Choice]:
    """The single steps that spend the dice portion ``value``: a move by ``value``, or an
    entry that spends it with the other die (a 1+4 or 2+3 enters as one step). A bonus
    (20, 10) is never a die's portion."""
    return [c for c in options if not c.combined and value in c.portions]
