"""The colours of the table: one place for every colour the pages use.

The board's pieces, lanes and START areas, the swatches of the setup form and the lobby, the
tones of the buttons (``style.css`` reads them as ``--tone``) and the app's primary colour
all come from here, so a colour changed here changes everywhere at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

Tone = Literal["primary", "ruby", "emerald", "sapphire", "amber", "red", "green", "yellow",
               "blue"]
"""The tones a button can have (``.tone-*`` in the CSS): the primary one and every colour
name of every game."""


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


_RED = Paint("#c0392b", "#7b1f16", "#f3c9c3", "#e58a7f", "#b3261e")
_GREEN = Paint("#1e8a4c", "#0f4f2a", "#c2e6cf", "#74c597", "#1b6e3c")
_BLUE = Paint("#2463b0", "#123a6b", "#c6d8f0", "#82aee3", "#1f56a0")
_YELLOW = Paint("#e0a800", "#7a5a00", "#f7e3a1", "#f0cb52", "#8a5a00")

PAINT: dict[str, Paint] = {
    "ruby": _RED, "emerald": _GREEN, "sapphire": _BLUE, "amber": _YELLOW,
    "red": _RED, "green": _GREEN, "yellow": _YELLOW, "blue": _BLUE,
}
"""By colour name, for every game's colours (a game's ``rules.colours``): Parcheesi's ruby
and Ludo's red are one red."""


def paints(colours: Sequence[str]) -> tuple[Paint, ...]:
    """The paints of a game's colours, by colour index."""
    return tuple(PAINT[name] for name in colours)

PRIMARY = "#8b1e2d"
"""The app's own colour: headers, the main buttons, the server-problem banner."""

ON_PRIMARY = "#ffffff"


def tone_css() -> str:
    """The ``.tone-*`` rules the buttons use, one per player colour and the primary one, and
    each player colour's fill as ``--paint-<colour>`` (the finish's confetti)."""
    tones = {"primary": PRIMARY} | {name: paint.tone for name, paint in PAINT.items()}
    fills = " ".join(f"--paint-{name}: {paint.fill};" for name, paint in PAINT.items())
    return "\n".join([f":root {{ {fills} }}",
                      *(f".tone-{name} {{ --tone: {colour}; }}" for name, colour in tones.items())])
