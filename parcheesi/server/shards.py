"""Shards: several server processes over one PostgreSQL database, each the only one to hold
some of the rooms and some of the browsers' local games live.

Every room and every local game has an *owner key*: ``room:CODE`` for a room and its games,
the browser's storage id for that browser's local games (the key is the games' ``owner``
column). :meth:`Shard.owner` hashes the key to a shard, always the same way
(:func:`shard_of`), and a shard serves the pages of the keys it owns under its own path
prefix (``/s/<i>``) behind the proxy; a request that reaches the wrong shard is sent to the
owner's prefix (:func:`owner_path`).

The hash only routes. What makes a room live in one process at most is the database: a shard
holds a PostgreSQL advisory lock for every key it has live (:class:`AdvisoryLocks`) and
refuses to load one it cannot lock (:class:`Elsewhere`), so a misrouted request, a proxy
reload or two shards started with different counts never put a room in two processes. The
locks belong to one connection: when a shard dies its connection closes and PostgreSQL
frees them at once, and a shard that loses the connection stops (its supervisor starts it
again) rather than play on without them.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Protocol

import psycopg
from sqlalchemy.engine import make_url

log = logging.getLogger(__name__)

PREFIX = "/s"
"""Shard ``i`` serves under ``/s/<i>``."""
SHARDS_LIMIT = 64
HEARTBEAT = 5.0
"""Seconds between two checks that the lock connection is alive."""

_SHARD_TEXT = re.compile(r"(\d+)/(\d+)")
_PREFIXED = re.compile(r"/s/(\d+)(/.*)?")


def _digest(key: str) -> int:
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big")


def shard_of(key: str, count: int) -> int:
    """The shard that owns ``key`` among ``count``: a hash every process computes alike (not
    Python's ``hash``, which changes between processes)."""
    return _digest(key) % count


def lock_id(key: str) -> int:
    """The advisory lock (a signed 64-bit number) that stands for ``key``."""
    return _digest(f"parcheesi:{key}") - (1 << 63)


ROOM_KEY = "room:"
"""How a room's owner key starts (the rest is its code)."""


def room_key(code: str) -> str:
    """The owner key of a room and of its games (their ``owner`` column)."""
    return f"{ROOM_KEY}{code}"


def room_of(owner: str) -> str | None:
    """The code of the room an owner key is, or None for a browser's local game."""
    return owner.removeprefix(ROOM_KEY) if owner.startswith(ROOM_KEY) else None


@dataclass(frozen=True)
class Shard:
    """This process's place among the shards (``index`` of ``count``)."""

    index: int = 0
    count: int = 1

    @classmethod
    def parse(cls, text: str) -> Shard:
        """``"i/N"``, e.g. ``"0/2"``; ValueError saying what is wrong."""
        match = _SHARD_TEXT.fullmatch(text.strip())
        if match is None:
            raise ValueError(f"shard must be written i/N (e.g. 0/2), not {text!r}")
        index, count = int(match[1]), int(match[2])
        if not 1 <= count <= SHARDS_LIMIT or not 0 <= index < count:
            raise ValueError(f"shard {text!r}: N must be 1..{SHARDS_LIMIT} and i 0..N-1")
        return cls(index, count)

    @property
    def alone(self) -> bool:
        return self.count == 1

    @property
    def prefix(self) -> str:
        """This shard's path prefix behind the proxy ("" when it is the only one)."""
        return "" if self.alone else f"{PREFIX}/{self.index}"

    def owner(self, key: str) -> int:
        return shard_of(key, self.count)

    def owns(self, key: str) -> bool:
        return self.alone or self.owner(key) == self.index

    @property
    def rates(self) -> bool:
        """Whether this shard rates the finished games: one process does, shard 0, so they
        are rated one at a time in the order they finished (the others tell it of theirs)."""
        return self.index == 0

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def owner_path(owner: int, path: str, query: str = "") -> str:
    """Where a request for ``path`` belongs: the same path under the owner's prefix."""
    return f"{PREFIX}/{owner}{path}" + (f"?{query}" if query else "")


def relative_to(outside_path: str, target: str) -> str:
    """``target`` (an absolute path) written relative to ``outside_path``, the path the
    browser asked for. A redirect from under a prefix is written this way: NiceGUI puts the
    request's own prefix in front of every absolute redirect."""
    depth = outside_path.count("/") - 1
    return "../" * depth + target.lstrip("/") if depth > 0 else target


def prefixed(path: str) -> tuple[int, str] | None:
    """``(i, rest)`` when ``path`` is under shard ``i``'s prefix, else None."""
    match = _PREFIXED.fullmatch(path)
    return None if match is None else (int(match[1]), match[2] or "/")


class Elsewhere(RuntimeError):
    """A room or game that another shard owns or holds: it is not loaded here."""

    def __init__(self, key: str, owner: int) -> None:
        super().__init__(f"{key} is served by shard {owner}")
        self.key = key
        self.owner = owner


class Ownership(Protocol):
    """The locks that make a key live in one process at most."""

    async def take(self, key: str) -> bool:
        """Hold ``key`` (True), or False when another process holds it."""

    async def keep_only(self, keys: Collection[str]) -> None:
        """Let go of every held key not among ``keys`` (those no longer live here)."""

    async def close(self) -> None: ...


class Alone:
    """One process over its database (SQLite, or one server on PostgreSQL): it holds
    everything."""

    async def take(self, key: str) -> bool:
        return True

    async def keep_only(self, keys: Collection[str]) -> None:
        return None

    async def close(self) -> None:
        return None


class AdvisoryLocks:
    """PostgreSQL session advisory locks on one connection of this process's own."""

    def __init__(self, database_url: str, lost: Callable[[], None]) -> None:
        url = make_url(database_url).set(drivername="postgresql")
        self._conninfo = url.render_as_string(hide_password=False)
        self._lost = lost
        """Called once when the connection (and with it every lock) is gone."""
        self._connection: psycopg.AsyncConnection[tuple[object, ...]] | None = None
        self._guard = asyncio.Lock()
        self.held: set[str] = set()
        self._watch: asyncio.Task[None] | None = None

    async def _ready(self) -> psycopg.AsyncConnection[tuple[object, ...]]:
        if self._connection is None:
            self._connection = await psycopg.AsyncConnection.connect(self._conninfo,
                                                                     autocommit=True)
            self._watch = asyncio.get_running_loop().create_task(self._heartbeat(),
                                                                 name="shard locks")
        return self._connection

    async def _ask(self, query: str, *values: int) -> object:
        async with self._guard:
            connection = await self._ready()
            cursor = await connection.execute(query, values)
            row = await cursor.fetchone()
            return None if row is None else row[0]

    async def take(self, key: str) -> bool:
        if key in self.held:
            return True
        if not await self._ask("SELECT pg_try_advisory_lock(%s)", lock_id(key)):
            return False
        self.held.add(key)
        return True

    async def keep_only(self, keys: Collection[str]) -> None:
        for key in [k for k in self.held if k not in keys]:
            self.held.discard(key)
            await self._ask("SELECT pg_advisory_unlock(%s)", lock_id(key))

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT)
            try:
                await self._ask("SELECT 1")
            except Exception:  # any driver error: the connection, and the locks, are gone
                log.critical("the shard's lock connection is lost; stopping",
                             extra={"held": len(self.held)})
                self.held.clear()
                self._lost()
                return

    async def close(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
        if self._connection is not None:
            await self._connection.close()
            self._connection = None
        self.held.clear()
