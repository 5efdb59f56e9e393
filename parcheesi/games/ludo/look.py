"""How the table draws and words Ludo: its board, its paints, its words and its house
rules' names."""

from __future__ import annotations

from ...core.look import BLUE, GREEN, RED, YELLOW, Look
from . import layout, words

LOOK = Look(
    layout=layout, board_label="Ludo board", paints=(RED, GREEN, YELLOW, BLUE), chips=False,
    piece_label=words.piece_label, option_label=words.option_label, describe=words.describe,
    bonuses=words.bonuses, roll_note=words.roll_note, house_words=words.HOUSE_WORDS)
"""Red, Green, Yellow and Blue; one die, its move chosen whole."""
