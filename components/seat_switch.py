"""Who plays each seat of a local table, switchable during the game: a person at this device,
or a computer (a seat handed over for a while, or taken back), as a room's seats can be."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from nicegui import ui

from parcheesi.server.live import COMPUTER, HUMAN, LiveGame

Switch = Callable[[int, bool], Awaitable[object]]
"""(colour, whether a person plays it from now on)."""


def seat_switches(game: LiveGame, switch: Switch) -> None:
    """A Person / Computer toggle per seat, as the seats stand now (redrawn by the table's
    panel when opened again)."""
    rules = game.rules
    for colour in game.state.colours:
        seat = game.seats[colour]
        with ui.row().classes("w-full items-center gap-2 no-wrap"):
            ui.label(seat.display_name(rules.colours)).classes("grow")

            async def changed(value: str, c: int = colour) -> None:
                await switch(c, value == HUMAN)

            ui.toggle({HUMAN: "Person", COMPUTER: "Computer"}, value=seat.kind,
                      on_change=lambda e, f=changed: f(e.value)).props(
                f'dense aria-label="Who plays {rules.colours[colour].title()}" '
                f'data-testid=seat-kind-{rules.colours[colour]}')
