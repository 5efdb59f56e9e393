"""Two dice drawn as dice (SVG pips, ``dice.js``), with an aria-label that states their values."""

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
        self.props('data-testid=dice role=img aria-label="Dice: not rolled yet"')

    def show(self, dice: tuple[int, int] | None, used: tuple[bool, bool] = (False, False),
             owner: str | None = None, tumble: bool = False) -> None:
        """Show ``dice`` (None: not rolled yet), rolled by ``owner``; a die whose value is
        used up is faded; ``tumble``: they were just rolled (a short tumble)."""
        if tumble:
            self._rolls += 1
        if dice is None:
            set_props(self, {"faces": [], "aria-label": "Dice: not rolled yet"})
        else:
            whose = f" of {owner}" if owner else ""
            set_props(self, {"faces": [[dice[0], used[0]], [dice[1], used[1]]],
                             "rolls": self._rolls,
                             "aria-label": f"Dice{whose}: {dice[0]} and {dice[1]}"})
