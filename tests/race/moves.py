"""What a roll can do: the move action, and which pieces a die moves where."""

from __future__ import annotations

from dataclasses import dataclass

from parcheesi.core.actions import PlayOn, Roll

from .board import HOME


@dataclass(frozen=True, slots=True)
class Move:
    """Move ``piece`` (0..3) by the die."""

    piece: int


Action = Roll | Move | PlayOn


def end_of(progress: int, die: int) -> int | None:
    """Where a piece at ``progress`` lands with ``die`` (a waiting piece counts coming in as
    one square), or None: it is HOME already or would go past HOME."""
    end = progress + die
    return end if progress != HOME and end <= HOME else None


def movable(own: tuple[int, ...], die: int) -> list[int]:
    """The pieces of ``own`` that ``die`` can move, in piece order."""
    return [k for k, p in enumerate(own) if end_of(p, die) is not None]
