"""Dice anyone can check: the server commits to a secret before the game, the players'
browsers add randomness of their own, and the secret is revealed when the game is over.

Why it holds: the commitment (the SHA-256 of the secret) is stored and shown before any
browser contributes, so the server cannot pick its secret after seeing the contributions;
a browser cannot steer the dice either, since it does not know the secret. The dice seed
is derived from both (:func:`dice_seed`), so neither alone chose the dice. The exact
derivation is documented in ``docs/records.md``; :mod:`.records` checks a game against it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping

SECRET_BYTES = 32
CONTRIBUTION_BYTES = 16
DERIVATION = "parcheesi-dice-v1"
"""Names the derivation below; a record says which one its dice follow."""


def new_secret() -> str:
    """A fresh server secret, as lowercase hex."""
    return secrets.token_hex(SECRET_BYTES)


def commitment(secret: str) -> str:
    """The SHA-256 of the secret's bytes, as lowercase hex."""
    return hashlib.sha256(bytes.fromhex(secret)).hexdigest()


def matches(secret: str, committed: str) -> bool:
    """Whether ``secret`` is the one ``committed`` was made for."""
    try:
        return hmac.compare_digest(commitment(secret), committed)
    except ValueError:
        return False


def is_hex(text: object, size: int) -> bool:
    """Whether ``text`` is exactly ``size`` bytes written as lowercase hex."""
    return (isinstance(text, str) and len(text) == 2 * size
            and all(ch in "0123456789abcdef" for ch in text))


def dice_seed(secret: str, contributions: Mapping[str, str]) -> int:
    """The seed the game's dice come from: the first 8 bytes of the SHA-256 of
    ``parcheesi-dice-v1:<secret>:<colour>=<contribution>,...`` (colours in alphabetical
    order, hex as stored), big-endian, shifted right by one bit (a non-negative 63-bit
    integer, the seed the engines' dice sources take)."""
    parts = ",".join(f"{colour}={contributions[colour]}" for colour in sorted(contributions))
    digest = hashlib.sha256(f"{DERIVATION}:{secret}:{parts}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1
