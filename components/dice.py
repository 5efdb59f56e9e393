"""Two dice drawn as dice (SVG pips), with an aria-label that states their values."""

from __future__ import annotations

from nicegui import ui

from .updates import set_props

_PIPS = {
    1: [(50, 50)],
    2: [(28, 28), (72, 72)],
    3: [(28, 28), (50, 50), (72, 72)],
    4: [(28, 28), (72, 28), (28, 72), (72, 72)],
    5: [(28, 28), (72, 28), (50, 50), (28, 72), (72, 72)],
    6: [(28, 26), (72, 26), (28, 50), (72, 50), (28, 74), (72, 74)],
}


def die_svg(value: int, used: bool = False) -> str:
    """One die face; a die whose value is used up is drawn faded."""
    pips = "".join(f'<circle cx="{x}" cy="{y}" r="9" fill="#1d1d1f"/>' for x, y in _PIPS[value])
    opacity = "0.35" if used else "1"
    return (f'<svg viewBox="0 0 100 100" width="52" height="52" aria-hidden="true" '
            f'style="opacity:{opacity}"><rect x="4" y="4" width="92" height="92" rx="18" '
            f'fill="#fffdf7" stroke="#1d1d1f" stroke-width="4"/>{pips}</svg>')


class Dice(ui.row):
    """The last roll; empty before the first roll of a turn."""

    def __init__(self) -> None:
        super().__init__()
        self.classes("items-center gap-2 min-h-[56px]")
        self.props('data-testid=dice role=img aria-label="Dice: not rolled yet"')
        with self:
            self.faces = ui.html("", sanitize=False)
        self.values: tuple[int, int] | None = None

    def show(self, dice: tuple[int, int] | None, used: tuple[bool, bool] = (False, False)
             ) -> None:
        if dice is None:
            self.faces.set_content("")
            set_props(self, {"aria-label": "Dice: not rolled yet"})
        else:
            self.faces.set_content(
                '<div style="display:flex;gap:8px">'
                + die_svg(dice[0], used[0]) + die_svg(dice[1], used[1]) + "</div>")
            set_props(self, {"aria-label": f"Dice: {dice[0]} and {dice[1]}"})
        self.values = dice
