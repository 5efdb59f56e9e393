"""The table's "This game" panel: the dice commitment, the record to download, and the
position to copy as an ``outcomes`` request (for bug reports and analysis)."""

from __future__ import annotations

import json

from nicegui import ui

from parcheesi.server.live import LiveGame

from .buttons import PlainButton


def record_url(game_id: str) -> str:
    """Where a stored game's record is downloaded from."""
    return f"/records/{game_id}.json"


def game_details(game: LiveGame) -> None:
    """What the panel holds; the position is read when the button is pressed."""
    if game.commitment:
        ui.label("Dice commitment (the SHA-256 of the server's secret, fixed before the "
                 "first roll and revealed in the record when the game is over):"
                 ).classes("text-sm")
        ui.label(game.commitment).classes("text-xs break-all").props(
            'data-testid=commitment')

    def copy_position() -> None:
        ui.clipboard.write(json.dumps(game.rules.position(game.state)))
        ui.notify("Position copied (an outcomes request)")

    with ui.row().classes("gap-2 items-center"):
        ui.link("Download the record", record_url(game.id)).classes(
            "btn btn-md btn-outline tone-primary touch-target").props(
            'data-testid=export-record download=""')  # the file's name is the server's
        PlainButton("Copy position", on_click=copy_position).props(
            'data-testid=copy-position')
        ui.link("My games", "/games").classes("touch-target")
