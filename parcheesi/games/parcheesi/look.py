"""How the table draws and words Parcheesi: its board, its paints, its words, and the
sound of its own event (the third-doubles penalty)."""

from __future__ import annotations

from ...core.look import BLUE, GREEN, RED, YELLOW, Look
from . import layout, words
from .turns import Penalty

LOOK = Look(
    layout=layout, board_label="Parcheesi board", paints=(RED, GREEN, BLUE, YELLOW),
    chips=True, piece_label=words.piece_label, option_label=words.option_label,
    describe=words.describe, bonuses=words.bonuses, roll_note=words.roll_note,
    sounds=((Penalty, "penalty"),), tones={"penalty": (262, 196)})
"""Ruby, Emerald, Sapphire and Amber; the two dice spent in portions the player picks."""
