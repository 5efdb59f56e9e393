"""Ludo's dice: one die per roll, reproducible from the game's seed.

Like every game's dice, a source maps the game's roll index
(``LudoState.rolls``) to what was rolled, so a stored game's dice follow from its seed
alone and a replay needs no hidden generator state.

The dice of a Ludo game come in blocks of :data:`BLOCK` rolls: block ``b`` is the keyed
BLAKE2b digest (key: the seed, 16 bytes big-endian signed) of ``b`` (8 bytes big-endian)
and a counter (4 bytes, from 0), 64 bytes per counter; every byte below 252 gives the die
``byte % 6 + 1`` (rejection sampling keeps the die fair), in order, until the block has its
rolls. One digest serves some sixty rolls, because a simulated game asks for hundreds of
rolls and a digest per roll was a sixth of its time.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

LudoDice = Callable[[int], int]
"""Roll index -> die value 1..6."""

BLOCK = 32
"""Rolls per block of dice (one digest almost always suffices: 64 bytes, about 63 usable)."""


def dice_block(key: bytes, block: int) -> tuple[int, ...]:
    """The dice of rolls ``block * BLOCK`` .. ``block * BLOCK + BLOCK - 1``."""
    found = b""
    counter = 0
    while len(found) < BLOCK:
        digest = hashlib.blake2b(block.to_bytes(8, "big") + counter.to_bytes(4, "big"),
                                 key=key, digest_size=64).digest()
        found += digest.translate(_DIE_OF_BYTE, _REJECTED)
        counter += 1
    return tuple(found[:BLOCK])


_DIE_OF_BYTE = bytes(byte % 6 + 1 for byte in range(256))
_REJECTED = bytes(range(252, 256))
"""Bytes 252..255 are dropped: 252 = 6 * 42 values give each face the same chance."""


class _Rolls(dict[int, int]):
    """The dice of one game by roll index, each block worked out the first time one of its
    rolls is asked for."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.key = seed.to_bytes(16, "big", signed=True)

    def __missing__(self, index: int) -> int:
        if index.__class__ is not int or index < 0:
            raise IndexError(f"no die for roll {index!r}")
        block = index // BLOCK
        self.update(zip(range(block * BLOCK, block * BLOCK + BLOCK),
                        dice_block(self.key, block), strict=True))
        return self[index]


def ludo_dice(seed: int) -> LudoDice:
    """The die of every roll of the game with ``seed`` (any roll, in any order).

    The source is the lookup of a dictionary that fills itself block by block, so a roll
    already worked out costs one lookup and no Python call."""
    return _Rolls(seed).__getitem__
