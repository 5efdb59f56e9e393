"""The game-rules answers both engines read off their states the same way.

Parcheesi's ``State`` and Ludo's ``LudoState`` share the names and meanings of ``turn``,
``phase``, ``winner`` and ``rolls``, and both games report rolls and captures with
Parcheesi's ``Rolled`` and ``Captured``; so these answers of
:class:`~parcheesi.games.GameRules` are written once, here, and each engine's rules class
takes them from :class:`SharedReadings`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .game import Captured, Rolled
from .state import Phase


class SharedReadings:
    def turn(self, state: Any) -> int:
        return int(state.turn)

    def rolling(self, state: Any) -> bool:
        return state.phase in (Phase.OPENING, Phase.ROLL)

    def over(self, state: Any) -> bool:
        return state.phase is Phase.OVER

    def winner(self, state: Any) -> int | None:
        winner: int | None = state.winner
        return winner

    def rolls(self, state: Any) -> int:
        return int(state.rolls)

    def captures(self, events: Sequence[Any]) -> list[tuple[int, int]]:
        return [(e.by_colour, e.colour) for e in events if isinstance(e, Captured)]

    def dice_rolled(self, events: Sequence[Any]) -> list[tuple[int, tuple[int, ...]]]:
        return [(e.colour, e.dice) for e in events if isinstance(e, Rolled)]
