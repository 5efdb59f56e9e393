"""A game's look and words at the table, as plain data.

The table model and the widgets are the same for every game; what differs between games
besides the rules (which the engine answers through ``GameRules``) is how the table draws
and says things: the board's layout and the players' paints, what a piece's place is
called, the words of a choice and of an event, what floats up from a piece, the sounds of
the game's own events, whether a roll is spent in portions the player picks. Each game's
package makes one :class:`Look` (``look.py``) and hands it to its ``GameRules``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .choices import Choice
from .geometry import BoardLayout

Namer = Callable[[int], str]
"""Colour index -> the seat's display name."""
Burst = tuple[int, int, str]
"""(colour, piece, words) floated up from a piece."""


@dataclass(frozen=True, slots=True)
class Paint:
    """The shades of one player colour."""

    fill: str
    """Pieces and swatches."""
    dark: str
    """Outlines, also under the white numbers on the pieces."""
    light: str
    """Home lanes and START areas."""
    mid: str
    """The entry square: light enough that a piece standing on it stands out."""
    tone: str
    """Buttons: dark enough for white text on it and for text on white (WCAG AA)."""


RED = Paint("#c0392b", "#7b1f16", "#f3c9c3", "#e58a7f", "#b3261e")
GREEN = Paint("#1e8a4c", "#0f4f2a", "#c2e6cf", "#74c597", "#1b6e3c")
BLUE = Paint("#2463b0", "#123a6b", "#c6d8f0", "#82aee3", "#1f56a0")
YELLOW = Paint("#e0a800", "#7a5a00", "#f7e3a1", "#f0cb52", "#8a5a00")
"""The four player paints the games share (one red for Parcheesi's ruby and Ludo's red)."""


@dataclass(frozen=True)
class Look:
    """How one game is drawn and worded at the table."""

    layout: BoardLayout
    board_label: str
    """The board's accessible name."""
    paints: tuple[Paint, ...]
    """Each colour's paint, by colour index."""
    chips: bool
    """Whether the dice of a roll are spent in portions the player picks (chips for each
    portion) rather than all at once."""
    piece_label: Callable[[str, int, int], str]
    """(seat name, piece index, progress) -> the piece's spoken name and place."""
    option_label: Callable[[Choice, Namer], str]
    describe: Callable[[Any, Namer], str | None]
    """One sentence for an event, or None for an event that needs no words."""
    bonuses: Callable[[Sequence[Any]], tuple[Burst, ...]]
    roll_note: Callable[[Any, Namer], str | None]
    """The status line's word to the player about to roll (or answer), when it has one."""
    house_words: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    """Each house rule's short name and what it does, by name (``GameRules.house_rules``)."""
    sounds: tuple[tuple[type, str], ...] = ()
    """The game's own events with a sound of their own (after a win and a capture, before a
    piece HOME), and the sound's name."""
    tones: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    """The notes of each of the game's own sounds, by name: frequencies in Hz, played one
    after another."""

    def house_line(self, house: Sequence[str]) -> str:
        """The house rules in play, by their short names ("Star squares, Six again")."""
        return ", ".join(self.house_words[name][0] for name in house)
