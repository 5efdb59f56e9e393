"""A ``<div>`` that the browser redraws on its own (see ``region.js``)."""

from __future__ import annotations

from typing import Literal

from nicegui import ui


class Region(ui.element, component="region.js"):
    """A row or column like ``ui.row``/``ui.column`` (same classes), but a redraw boundary:
    when an element inside changes, the browser re-renders this region, not the page.

    Put the parts of a page that change at different times (the board, the dice, the
    controls, the log) in regions of their own.
    """

    def __init__(self, kind: Literal["row", "column"] = "column") -> None:
        super().__init__()
        self._classes.extend(["nicegui-row", "row"] if kind == "row" else ["nicegui-column"])
