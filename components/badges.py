"""The player badges: one per active seat, in turn order, the seat to act raised and ringed
in its colour. Drawn by the table and by the TV view from the model's :class:`Badge`s."""

from __future__ import annotations

from nicegui import ui

from parcheesi.live import LiveGame

from .region import Region
from .table_model import Badge
from .updates import set_props


class Badges:
    """The badges of one game's active seats (``player-<colour>``), updated in place."""

    def __init__(self, game: LiveGame) -> None:
        colours = game.rules.colours
        self.drawn: tuple[Badge, ...] = ()
        self.items: list[tuple[ui.element, ui.label, ui.label]] = []
        with Region().classes("badges w-full").props(
                'role=list aria-label=Players') as self.region:
            for colour in game.state.colours:
                with ui.element("div").classes(f"badge tone-{colours[colour]}").props(
                        f'role=listitem data-testid=player-{colours[colour]}') as badge:
                    ui.element("span").classes("badge-dot")
                    with ui.element("div").classes("badge-text"):
                        name = ui.label("").classes("badge-name")
                        detail = ui.label("").classes("badge-detail")
                self.items.append((badge, name, detail))

    def show(self, badges: tuple[Badge, ...]) -> None:
        """Who plays each seat, how far they are, and which seat is to act (only what
        changed is sent)."""
        if badges == self.drawn:
            return
        self.drawn = badges
        for (badge, name, detail), shown in zip(self.items, badges, strict=True):
            name.set_text(shown.name)
            detail.set_text(" · ".join(p for p in (shown.detail, shown.place_text,
                                                    f"{shown.home} HOME") if p))
            set_props(badge, {"aria-label": shown.label,
                              "aria-current": "true" if shown.current else "false"})
            if shown.current != ("badge-current" in badge.classes):
                badge.classes(add="badge-current") if shown.current else badge.classes(
                    remove="badge-current")
