"""What a Ludo player can do: roll, move a piece, answer the play-on question.

:class:`Roll` and :class:`PlayOn` are the shared ones (:mod:`parcheesi.core.actions`: roll
the die, the opening roll included; play on for the next places or not), so the table treats
them alike in every game. Actions are small immutable values; the moves a roll allows come
with their action already made (:func:`move_action`), so a simulated game does
not build a new action object per move.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.actions import PlayOn, Roll


@dataclass(frozen=True, slots=True)
class Move:
    """Move ``piece`` (0..3) by the roll. ``capture``: the opponent colour whose piece is
    captured when capturable pieces of several colours stand where it lands; ``None`` when
    there is no such choice."""

    piece: int
    capture: int | None = None


Action = Roll | Move | PlayOn

_MOVES: dict[tuple[int, int | None], Move] = {
    (piece, capture): Move(piece, capture) for piece in range(4)
    for capture in (None, 0, 1, 2, 3)}


def move_action(piece: int, capture: int | None = None) -> Move:
    """``Move(piece, capture)``, one shared value per piece and capture."""
    return _MOVES[piece, capture]


__all__ = ["Action", "Move", "move_action"]
