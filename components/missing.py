"""What a page shows in place of what its address names when that is not here (a room code
mistyped, a person removed, a tournament or a page that never was) or cannot be shown just
now: one look on every page, whatever is missing."""

from __future__ import annotations

from nicegui import ui
from nicegui.elements.mixins.text_element import TextElement


def missing(heading: str, reason: str, testid: str, way_on: tuple[str, str] = ("Home", "/"),
            large: bool = False) -> ui.link:
    """The page's heading, the reason in a sentence (an alert: a screen reader says it at
    once) and a link on (returned, for its test id); ``large``: for a TV across the room."""
    with ui.column().classes("w-full max-w-2xl mx-auto p-4 gap-3"):
        TextElement(tag="h1", text=heading)
        ui.label(reason).classes("text-xl" if large else "text-lg").props(
            f"role=alert data-testid={testid}")
        return ui.link(*way_on).classes("touch-target")
