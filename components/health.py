"""The banner every page shows while the server cannot save games (or, in a cluster, keep
the browsers' settings), and what ``/health`` answers.

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
from redis.asyncio import Redis
from redis.exceptions import RedisError

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
    def __init__(self, store: Store, redis_url: str | None = None) -> None:
        self.store = store
        self.problem: str | None = None
        self.settings_lost = False
        """A cluster's per-browser storage (Redis) cannot be reached: pages go on with the
        settings they have, and new ones start from the defaults."""
        self.banners: set[ui.label] = set()
        self._probes: SingleFlight[str | None] = SingleFlight("database probe")
        self._redis = None if redis_url is None else Redis.from_url(
            redis_url, socket_timeout=ANSWER_WITHIN, socket_connect_timeout=ANSWER_WITHIN)

    def banner(self) -> ui.label:
        """A banner on the current page, shown while the database cannot be written."""
        label = ui.label(self._text()).classes("w-full text-center p-2").style(
            f"background:{PRIMARY};color:{ON_PRIMARY}").props(
            'role=alert data-testid=server-problem')
        label.set_visibility(self._shown())
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
        self._redraw()

    def show_settings(self, lost: bool) -> None:
        """The per-browser storage went away, or came back (only when that changed)."""
        if lost == self.settings_lost:
            return
        if lost:
            log.error("the settings store (Redis) cannot be reached")
        else:
            log.info("the settings store (Redis) is back")
        self.settings_lost = lost
        self._redraw()

    def _redraw(self) -> None:
        for label in list(self.banners):
            label.set_text(self._text())
            label.set_visibility(self._shown())

    def _shown(self) -> bool:
        return self.problem is not None or self.settings_lost

    def _text(self) -> str:
        if self.problem is not None:
            return ("The server cannot save games right now, so moves are not being kept. "
                    "Tell whoever runs it.")
        if self.settings_lost:
            return ("The server cannot keep settings right now: this page goes on with the "
                    "ones it has, and games are kept as always. Tell whoever runs it.")
        return ""

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
        the cheap checks; and, in a cluster, whether Redis answers."""
        if self.store.write_error:
            await self.probe()
        else:
            self.show(self.store.quick_problem())
        if self._redis is not None:
            try:
                await self._redis.ping()
                self.show_settings(False)
            except RedisError:
                self.show_settings(True)

    async def watch(self, every: float = WATCH_EVERY) -> None:
        while True:
            try:
                await self.look()
            except Exception:  # the next look tries again
                log.exception("looking at the database failed")
            await asyncio.sleep(every)
