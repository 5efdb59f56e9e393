"""Dice sources. The engine never draws dice itself: a source is injected.

A source maps the game's roll index (``State.rolls``) to two die values, so the dice of a
stored game are reproducible from its seed alone and a replay needs no hidden RNG state.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

Dice = tuple[int, int]
DiceSource = Callable[[int], Dice]


def seeded(seed: int) -> DiceSource:
    """Fair dice derived from ``seed`` and the roll index (BLAKE2b, rejection sampling)."""
    key = seed.to_bytes(16, "big", signed=True)

    def roll(index: int) -> Dice:
        counter = 0
        values: list[int] = []
        while len(values) < 2:
            digest = hashlib.blake2b(index.to_bytes(8, "big") + counter.to_bytes(4, "big"),
                                     key=key, digest_size=16).digest()
            values.extend(b % 6 + 1 for b in digest if b < 252)
            counter += 1
        return values[0], values[1]

    return roll
