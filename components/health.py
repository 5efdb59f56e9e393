"""The banner every page shows while the server cannot save games, and what ``/health``
answers.

One server-wide watch looks at the database every few seconds (cheaply: the file is still
the one opened and no write has failed since the last one that worked; a real write only
while something is wrong) and pushes the change to the banners of the open pages; no page
polls on its own.

A real write can wait: another program holding the SQLite database makes it wait up to the
driver's busy timeout (5 s), and it queues behind the games' own writes. ``/health`` must
answer a monitor or a container's health check within a second all the same, so one probe
runs at a time (however many checks come), each check waits for it at most
:data:`ANSWER_WITHIN`, and a probe still waiting then is answered "busy"; the probe goes on
and its outcome reaches the banner when it comes.
"""

from __future__ import annotations

import asyncio
import logging

from nicegui import ui

from parcheesi.server.loading import SingleFlight
from parcheesi.server.store import Store

from .palette import ON_PRIMARY, PRIMARY

WATCH_EVERY = 5.0
"""Seconds between two looks at the database."""
ANSWER_WITHIN = 0.5
"""Seconds a health check waits for the database's answer before it says "busy" (a
monitor's timeout is typically a second)."""
BUSY = "busy"
"""What a health check says while the database has not answered in time."""
log = logging.getLogger("parcheesi.health")


class HealthNotice:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.problem: str | None = None
        self.banners: set[ui.label] = set()
        self._probes: SingleFlight[str | None] = SingleFlight("database probe")

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

    async def probe(self) -> str | None:
        """Why the database cannot take a write now (None: it can), by a real write: one at a
        time, shared by every caller meanwhile; the banners follow its outcome."""
        return await self._probes.load("health", self._probe)

    async def _probe(self, _: str) -> str | None:
        problem = await self.store.problem()
        self.show(problem)
        return problem

    async def check(self, within: float = ANSWER_WITHIN) -> str | None:
        """What ``/health`` says of the database: None when it takes writes, why not when it
        does not, :data:`BUSY` when the probe has not answered ``within`` seconds (it goes
        on)."""
        try:
            return await asyncio.wait_for(self.probe(), within)
        except TimeoutError:
            return BUSY

    async def look(self) -> None:
        """One look: a real write while something is wrong (to notice it is fixed), else only
        the cheap checks."""
        if self.store.write_error:
            await self.probe()
        else:
            self.show(self.store.quick_problem())

    async def watch(self, every: float = WATCH_EVERY) -> None:
        while True:
            try:
                await self.look()
            except Exception:  # the next look tries again
                log.exception("looking at the database failed")
            await asyncio.sleep(every)
