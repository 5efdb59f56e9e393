"""The win-chance meter: one bar split into each playing colour's chance to win, in the
board's colours, with the percentages written on it and read out to screen readers.

The chances come from the game's learned evaluation (``LiveGame.win_chances``); the meter
only draws them. A table shows it when its player switches it on in the settings (off by
default: a player may not want to be told they are losing); the TV view always shows it.
A game without an evaluation shows no meter.
"""

from __future__ import annotations

from collections.abc import Sequence

from nicegui import ui

from .region import Region
from .updates import set_props

LABEL_FROM = 12
"""A colour's percentage is written on its part of the bar from this many percent up (a
narrower part has no room for it; the aria label always says every one)."""


def words(chances: dict[int, float], colours: Sequence[str]) -> str:
    """"Chances to win: Ruby 62%, Sapphire 38%"."""
    return "Chances to win: " + ", ".join(
        f"{colours[c].title()} {percent(chance)}%" for c, chance in chances.items())


def percent(chance: float) -> int:
    return round(100 * chance)


class Meter:
    """The bar (``win-chances``) of one game's playing colours, updated in place."""

    def __init__(self, colours: Sequence[str], playing: Sequence[int]) -> None:
        self.colours = colours
        self.drawn: dict[int, float] | None = None
        self.parts: dict[int, ui.element] = {}
        with Region().classes("meter-region w-full") as self.region, ui.element(
                "div").classes("meter").props('data-testid=win-chances role=img') as self.bar:
            for colour in playing:
                with ui.element("div").classes(f"meter-part tone-{colours[colour]}").props(
                        f'data-testid=win-chance-{colours[colour]}') as part:
                    ui.label("").classes("meter-text")
                self.parts[colour] = part
        self.region.set_visibility(False)

    def show(self, chances: dict[int, float] | None) -> None:
        """Draw ``chances`` (None: hide the meter). Only what changed is sent."""
        self.region.set_visibility(chances is not None)
        if chances is None or chances == self.drawn:
            return
        self.drawn = dict(chances)
        set_props(self.bar, {"aria-label": words(chances, self.colours)})
        for colour, part in self.parts.items():
            share = percent(chances.get(colour, 0.0))
            part.style(f"flex-basis: {share}%")
            text = part.default_slot.children[0]
            assert isinstance(text, ui.label)
            text.set_text(f"{share}%" if share >= LABEL_FROM else "")
