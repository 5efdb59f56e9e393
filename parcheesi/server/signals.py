"""What one shard tells the others: a topic and a short text (a tournament's code), sent
through PostgreSQL's LISTEN/NOTIFY (no polling, no other service).

A lone server has :class:`Quiet`, which tells nobody: everything it holds is its own. A
shard of a cluster has :class:`Notices`: :meth:`Notices.send` notifies every other shard,
whose listeners of that topic are called with the text. A notice comes after the change it
announces is committed and is not kept: a shard that was down reads everything again at
start, which covers the notices it missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

import psycopg
from psycopg import sql
from sqlalchemy.engine import make_url

log = logging.getLogger(__name__)

CHANNEL = "parcheesi"
RETRY = 2.0
"""Seconds before listening again after the connection was lost."""

Listener = Callable[[str], Coroutine[Any, Any, None]]


class Signals(Protocol):
    def listen(self, topic: str, listener: Listener) -> None: ...

    async def send(self, topic: str, text: str) -> None: ...

    def tell(self, topic: str, text: str) -> None: ...


class Quiet:
    """One server alone: there is nobody to tell."""

    def listen(self, topic: str, listener: Listener) -> None:
        return None

    async def send(self, topic: str, text: str) -> None:
        return None

    def tell(self, topic: str, text: str) -> None:
        return None


class Notices:
    """LISTEN/NOTIFY on a connection of this process's own (a notice this process sent
    comes back to it and is dropped: its own listeners knew already)."""

    def __init__(self, database_url: str, sender: str = "") -> None:
        url = make_url(database_url).set(drivername="postgresql")
        self._conninfo = url.render_as_string(hide_password=False)
        self.sender = sender or f"{os.getpid()}"
        self.listeners: dict[str, list[Listener]] = {}
        self._task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._sender: psycopg.AsyncConnection[Any] | None = None
        """The connection notices are sent on, kept open: some topics are sent many times a
        second, and a new connection costs PostgreSQL a new process."""
        self._sending = asyncio.Lock()
        self.ready = asyncio.Event()
        """Set once this process is listening (the tests wait for it)."""

    def listen(self, topic: str, listener: Listener) -> None:
        self.listeners.setdefault(topic, []).append(listener)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._listen(), name="notices")

    async def send(self, topic: str, text: str) -> None:
        payload = json.dumps({"topic": topic, "text": text, "from": self.sender})
        async with self._sending:
            try:
                if self._sender is None or self._sender.closed:
                    self._sender = await psycopg.AsyncConnection.connect(self._conninfo,
                                                                         autocommit=True)
                await self._sender.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
            except psycopg.Error:  # the others read it again at their next start
                log.warning("a notice to the other shards was not sent", extra={"topic": topic})
                await self._close_sender()

    def tell(self, topic: str, text: str) -> None:
        """:meth:`send` without waiting for it (from code that cannot wait)."""
        self._keep(asyncio.get_running_loop().create_task(self.send(topic, text),
                                                          name=f"notice {topic}"))

    async def _close_sender(self) -> None:
        if self._sender is not None:
            with contextlib.suppress(psycopg.Error):
                await self._sender.close()
            self._sender = None

    async def _listen(self) -> None:
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                        self._conninfo, autocommit=True) as connection:
                    await connection.execute(sql.SQL("LISTEN {}").format(
                        sql.Identifier(CHANNEL)))
                    self.ready.set()
                    async for notice in connection.notifies():
                        self._dispatch(notice.payload)
            except psycopg.Error:
                log.warning("listening to the other shards failed; listening again")
            self.ready.clear()
            await asyncio.sleep(RETRY)

    def _dispatch(self, payload: str) -> None:
        try:
            notice = json.loads(payload)
            topic, text, sender = notice["topic"], notice["text"], notice["from"]
        except (ValueError, KeyError, TypeError):
            log.warning("a malformed notice was dropped")
            return
        if sender == self.sender:
            return
        for listener in self.listeners.get(topic, []):
            self._keep(asyncio.get_running_loop().create_task(listener(text),
                                                              name=f"notice {topic}"))

    def _keep(self, task: asyncio.Task[None]) -> None:
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("sending or hearing a notice failed", exc_info=task.exception())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        async with self._sending:
            await self._close_sender()
