"""How the table draws and words the race: its board, four paints of its own, its words."""

from __future__ import annotations

from parcheesi.core.look import Look, Paint

from . import layout, words

VIOLET = Paint("#7b3fb0", "#46206a", "#e3d2f2", "#b98fdd", "#6a2f9e")
TEAL = Paint("#138a86", "#0a4e4c", "#c3e8e6", "#6cc4c0", "#0c625f")
ORANGE = Paint("#e0701b", "#7a3a08", "#f8d7bd", "#f0a466", "#9a4508")
GREY = Paint("#6b7280", "#374151", "#dfe1e5", "#a3a8b1", "#4b5563")
"""fill, dark, light, mid, tone (dark enough for white text)."""

LOOK = Look(
    layout=layout, board_label="Race board", paints=(VIOLET, TEAL, ORANGE, GREY),
    chips=False, piece_label=words.piece_label, option_label=words.option_label,
    describe=words.describe, bonuses=words.bonuses, roll_note=words.roll_note)
"""One die, its move chosen whole (no chips)."""
