"""The table's move log (``log``): one child element per entry, newest first (``movelog.js``).

Every action adds an entry at the top and drops the oldest. Each entry keeps its key while it
stays shown, so the browser inserts the new line and removes the old one instead of parsing
the whole list again (as an ``innerHTML`` of all entries made it do on every action).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from nicegui import ui

from .updates import as_json


class MoveLog(ui.element, component="movelog.js"):
    """The latest entries of a game's log, newest first, with keys that last."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: tuple[str, ...] = ()
        """The entries shown, newest first."""
        self._keys: list[int] = []
        self._next_key = 0
        self._props["entries"] = "[]"

    def show(self, lines: Sequence[str]) -> None:
        """Show ``lines`` (newest first); the browser is told only when they changed."""
        lines = tuple(lines)
        if lines == self.lines:
            return
        kept = _kept(self.lines, lines)
        fresh = len(lines) - kept
        self._keys = [*range(self._next_key + fresh - 1, self._next_key - 1, -1),
                      *self._keys[:kept]]
        self._next_key += fresh
        self.lines = lines
        self._props["entries"] = as_json(list(zip(self._keys, lines, strict=True)))
        self.update()

    def _displayed_contents(self, *, only_visible: bool) -> list[Any]:
        """The entries are what the log shows (what NiceGUI's test tools look for)."""
        return [*super()._displayed_contents(only_visible=only_visible), *self.lines]


def _kept(old: tuple[str, ...], new: tuple[str, ...]) -> int:
    """How many of the ``old`` entries (newest first) ``new`` still shows below the ones it
    adds: the most that fit, so a repeated sentence is not taken for a new one."""
    for kept in range(min(len(old), len(new)), 0, -1):
        if new[len(new) - kept:] == old[:kept]:
            return kept
    return 0
