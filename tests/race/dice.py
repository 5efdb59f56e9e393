"""The race's dice: one die per roll, the same for one seed every time.

Roll ``index`` is the first byte below 252 of the keyed BLAKE2b digests (key: the seed, 16
bytes big-endian signed) of ``index`` (8 bytes) and a counter (4 bytes, from 0), as
``byte % 6 + 1``: rejection sampling keeps the die fair, and a replay needs only the seed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

RaceDice = Callable[[int], int]
"""Roll index -> die 1..6."""


def first_die(key: bytes, index: int) -> int:
    counter = 0
    while True:
        digest = hashlib.blake2b(index.to_bytes(8, "big") + counter.to_bytes(4, "big"),
                                 key=key, digest_size=16).digest()
        for byte in digest:
            if byte < 252:
                return byte % 6 + 1
        counter += 1


def race_dice(seed: int) -> RaceDice:
    """The die of every roll of the game with ``seed`` (any roll, in any order)."""
    key = seed.to_bytes(16, "big", signed=True)

    def roll(index: int) -> int:
        if type(index) is not int or index < 0:
            raise IndexError(f"no die for roll {index!r}")
        return first_die(key, index)

    return roll
