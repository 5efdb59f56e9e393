"""The banner every page shows while the server cannot save games.

One server-wide watch looks at the database every few seconds (cheaply: the file is still
the one opened and no write has failed since the last one that worked; a real write only
while something is wrong) and pushes the change to the banners of the open pages; no page
polls on its own.
"""

from __future__ import annotations

import asyncio
import logging

from nicegui import ui

from parcheesi.server.store import Store

from .palette import ON_PRIMARY, PRIMARY

WATCH_EVERY = 5.0
"""Seconds between two looks at the database."""
log = logging.getLogger("parcheesi.health")


class HealthNotice:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.problem: str | None = None
        self.banners: set[ui.label] = set()

    def banner(self) -> ui.label:
        """A banner on the current page, shown while the database cannot be written."""
        label = ui.label(self._text()).classes("w-full text-center p-2").style(
            f"background:{PRIMARY};color:{ON_PRIMARY}").props(
            'role=alert data-testid=server-problem')
        label.set_visibility(self.problem is not None)
        self.banners.add(label)
        ui.context.client.on_delete(lambda: self.banners.discard(label))
        return label

    def show(self, problem: str | None) -> None:
        """Tell every open page (only when the answer changed)."""
        if problem == self.problem:
            return
        if problem is None:
            log.info("the database takes writes again")
        else:
            log.error("the database cannot be written", extra={"reason": problem})
        self.problem = problem
        for label in list(self.banners):
            label.set_text(self._text())
            label.set_visibility(problem is not None)

    def _text(self) -> str:
        return ("The server cannot save games right now, so moves are not being kept. "
                "Tell whoever runs it." if self.problem is not None else "")

    async def look(self) -> None:
        """One look: a real write while something is wrong (to notice it is fixed), else only
        the cheap checks."""
        store = self.store
        self.show(await store.problem() if store.write_error else store.quick_problem())

    async def watch(self, every: float = WATCH_EVERY) -> None:
        while True:
            try:
                await self.look()
            except Exception:  # the next look tries again
                log.exception("looking at the database failed")
            await asyncio.sleep(every)
