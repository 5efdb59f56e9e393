"""The dice of a roll drawn as dice (SVG pips, ``dice.js``): as many as the game rolls, with
an aria-label that states their values."""

from __future__ import annotations

from nicegui import ui

from .updates import set_props


class Dice(ui.element, component="dice.js"):
    """The last roll; empty before the first roll of a turn."""

    def __init__(self) -> None:
        super().__init__()
        self._rolls = 0
        """Rolls shown tumbling so far: a new count makes the browser tumble the dice."""
        self._props["faces"] = []
        self._props["rolls"] = 0
        self.props('data-testid=dice role=img')
        self._props["aria-label"] = dice_label(None, None)

    def show(self, dice: tuple[int, ...] | None, owner: str | None = None,
             tumble: bool = False) -> None:
        """Show ``dice`` (None: not rolled yet), rolled by ``owner``; ``tumble``: they were
        just rolled."""
        if tumble:
            self._rolls += 1
        if dice is None:
            set_props(self, {"faces": [], "aria-label": dice_label(None, None)})
        else:
            set_props(self, {"faces": list(dice),
                             "rolls": self._rolls, "aria-label": dice_label(dice, owner)})


def dice_label(dice: tuple[int, ...] | None, owner: str | None) -> str:
    """What the dice say to a screen reader: their values and whose roll they are."""
    if dice is None:
        return "Dice: not rolled yet"
    whose = f" of {owner}" if owner else ""
    return f"Dice{whose}: {' and '.join(map(str, dice))}"
