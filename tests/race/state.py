"""The race's immutable position: the shared fields every game has
(:class:`~parcheesi.core.state.SharedState`) and the opening roll's progress."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from parcheesi.core.state import Phase, Pieces, Seated, initial_pieces, opening_order

from .board import COLOURS, START


@dataclass(frozen=True)
class RaceState(Seated):
    colours: tuple[int, ...]
    pieces: Pieces
    phase: Phase
    turn: int
    dice: tuple[int, ...] | None = None
    portions: tuple[int, ...] = ()
    """``(die,)`` while a move is to be chosen, else ``()``."""
    opening: tuple[tuple[int, int], ...] = ()
    """The opening round so far: (colour, die) of the contenders that have rolled."""
    contenders: tuple[int, ...] = ()
    """The colours still rolling for the start (all, then those tied for the highest)."""
    asking: tuple[int, ...] = ()
    places: tuple[int, ...] = ()
    ranks: tuple[int, ...] = ()
    rolls: int = 0
    winner: int | None = None

    def with_(self, **changes: Any) -> RaceState:
        return replace(self, **changes)


def validate_colours(colours: tuple[int, ...]) -> tuple[int, ...]:
    """Any 2 to 4 distinct colours may race, in colour order."""
    if not 2 <= len(colours) <= 4:
        raise ValueError("a race needs 2, 3 or 4 colours")
    if any(type(c) is not int or c not in range(len(COLOURS)) for c in colours):
        raise ValueError(f"unknown colour (the race's colours are 0..3: {', '.join(COLOURS)})")
    if len(set(colours)) != len(colours):
        raise ValueError("each colour can be used only once")
    return tuple(sorted(colours))


def new_state(colours: tuple[int, ...], house: Sequence[str] = (),
              first: int | None = None) -> RaceState:
    """Every piece at START, the opening roll begun by ``first``; the race has no house
    rules."""
    if house:
        raise ValueError(f"the race has no house rules (not {', '.join(house)})")
    ordered = validate_colours(tuple(colours))
    contenders = opening_order(ordered, first)
    return RaceState(colours=ordered, pieces=initial_pieces(ordered, START, len(COLOURS)),
                     phase=Phase.OPENING, turn=contenders[0], contenders=contenders)
