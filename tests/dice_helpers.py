"""Predetermined dice for rule scenarios, for any game: the tests' own dice source."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")


def fixed(rolls: Iterable[T], first_index: int = 0) -> Callable[[int], T]:
    """Roll ``first_index + k`` is ``rolls[k]`` (two dice for Parcheesi, a die for Ludo);
    asking for any other roll is an error, so a scenario uses exactly the dice it names."""
    table = list(rolls)

    def roll(index: int) -> T:
        k = index - first_index
        if not 0 <= k < len(table):
            raise IndexError(f"no fixed dice for roll {index}")
        return table[k]

    return roll
