"""Who may open a socket: new connections bounded per address and per browser, and the log
of a storm kept to a line a minute.

A script (or a broken page in a loop) can reconnect hundreds of sockets as fast as the server
accepts them; each accepted socket costs its handshake with a page and the frames it gets to
send before the socket guard (:mod:`components.sockets`) cuts it off. :class:`Admission`
gives every address and every browser (its session cookie) a token bucket of new
connections, and a socket cut off for flooding costs its address and browser many more
(:data:`FLOOD_PENALTY`). A phone reconnecting after sleep, or a person opening pages
quickly, stays within the bucket; socket.io's client retries a refused connection by itself
after a second or more.

New sessions are screened (:meth:`Admission.screen`) as engine.io receives the request that
would open one, before it makes the session, so before socket.io's handshake and before any
page is looked at; a refusal costs the server no more than the WebSocket upgrade, and is
answered after a pause (:data:`REFUSAL_DELAY`), so a script that reconnects the moment it is
refused reconnects once every few seconds, not hundreds of times a second. (engine.io's own
``connect`` event can refuse too, but it runs once the session exists, and a session held
there for the pause is reaped by engine.io's ping timeout meanwhile.)

The server's own machine (its loopback address) is never throttled: it is the host's, as
the pages already treat it.

:class:`LogLines` keeps whatever one address does to at most one line per kind a minute,
with how often it happened since the last line, so a storm cannot fill the log.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Iterable
from typing import Any
from urllib.parse import parse_qs

log = logging.getLogger("parcheesi.sockets")

NEW_SOCKETS_BURST = 8
"""New sockets one address may open at once: a family's phones behind one address loading
pages, a phone's tabs reconnecting after sleep."""
NEW_SOCKETS_PER_SECOND = 1.0
"""New sockets an address may keep opening: a page a second, faster than anyone browses."""
BROWSER_SOCKETS_BURST = 6
"""New sockets one browser (its session cookie) may open at once: its tabs reconnecting."""
BROWSER_SOCKETS_PER_SECOND = 0.5
"""New sockets a browser may keep opening."""
FLOOD_PENALTY = 20
"""New sockets a socket cut off for flooding costs its address and its browser (their
buckets may go into debt): ``nicegui.js`` never floods, a script that does waits twenty
seconds for each socket it floods with, and a storm of them costs the server little."""
KEYS = 10_000
"""Buckets kept at most per kind (the least recently used go first; a full bucket is the
same as none): addresses cannot fill the memory."""
LOG_EVERY = 60.0
"""Seconds between two log lines of one kind about one address."""
REFUSAL_DELAY = 5.0
"""Seconds a refused socket waits for its refusal: a script reconnecting the moment it is
refused would otherwise make the server refuse it hundreds of times a second (each refusal
costs a WebSocket upgrade); a browser's socket.io retries after a second or more anyway."""
HELD_AT_MOST = 1000
"""Refusals waiting at once, at most (past it they are answered at once): held refusals cost
a connection each."""


class TokenBucket:
    """A quota of ``capacity`` tokens, refilled at ``rate`` tokens a second."""

    def __init__(self, capacity: float, rate: float, now: float) -> None:
        self.capacity = capacity
        self.rate = rate
        self.tokens = capacity
        self.stamp = now

    def refill(self, now: float) -> float:
        """Add what accrued since the last call (never above the capacity); the tokens now."""
        self.tokens = min(self.capacity, self.tokens + max(0.0, now - self.stamp) * self.rate)
        self.stamp = max(self.stamp, now)
        return self.tokens

    def take(self, now: float) -> bool:
        """Spend one token if there is one."""
        if self.refill(now) < 1:
            return False
        self.tokens -= 1
        return True


class Buckets:
    """A token bucket per key, made full on first use, at most ``keys`` of them."""

    def __init__(self, capacity: float, rate: float, keys: int = KEYS) -> None:
        self.capacity = capacity
        self.rate = rate
        self.keys = keys
        self._buckets: OrderedDict[Hashable, TokenBucket] = OrderedDict()

    def _bucket(self, key: Hashable, now: float) -> TokenBucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(self.capacity, self.rate, now)
            while len(self._buckets) > self.keys:
                self._buckets.popitem(last=False)
        self._buckets.move_to_end(key)
        return bucket

    def take(self, key: Hashable, now: float) -> bool:
        return self._bucket(key, now).take(now)

    def charge(self, key: Hashable, tokens: float, now: float) -> None:
        """Take ``tokens`` more from ``key``'s bucket, into debt if need be (paid back at its
        rate before it gives a token again)."""
        bucket = self._bucket(key, now)
        bucket.refill(now)
        bucket.tokens -= tokens

    def __len__(self) -> int:
        return len(self._buckets)


class LogLines:
    """At most one line per key every ``every`` seconds; the times it was held back are
    counted into the next line."""

    def __init__(self, clock: Callable[[], float], every: float = LOG_EVERY,
                 keys: int = KEYS) -> None:
        self.clock = clock
        self.every = every
        self.keys = keys
        self._last: OrderedDict[Hashable, tuple[float, int]] = OrderedDict()
        """Per key: when its last line was logged, and how many were held back since."""

    def due(self, key: Hashable) -> int | None:
        """None when a line for ``key`` was logged less than ``every`` seconds ago (this one
        is counted); else how many were held back since that line (the caller logs now)."""
        now = self.clock()
        last = self._last.get(key)
        if last is not None and now - last[0] < self.every:
            self._last[key] = (last[0], last[1] + 1)
            return None
        self._last[key] = (now, 0)
        self._last.move_to_end(key)
        while len(self._last) > self.keys:
            self._last.popitem(last=False)
        return last[1] if last is not None else 0

    def log(self, level: int, kind: str, address: str, message: str, **extra: Any) -> None:
        """Log ``message`` about ``address`` unless a line of this kind about it was logged
        within the minute (``held_back``: how many were not logged since the last one)."""
        held_back = self.due((kind, address))
        if held_back is not None:
            log.log(level, message, extra={"address": address, "held_back": held_back, **extra})


class Admission:
    """New sockets per address and per browser (see the module's docstring)."""

    def __init__(self, clock: Callable[[], float], lines: LogLines,
                 exempt: Iterable[str] = (),
                 sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep) -> None:
        self.clock = clock
        self.sleep = sleep
        self.lines = lines
        self.exempt = frozenset(exempt)
        """Addresses never throttled (the server's own machine)."""
        self.addresses = Buckets(NEW_SOCKETS_BURST, NEW_SOCKETS_PER_SECOND)
        self.browsers = Buckets(BROWSER_SOCKETS_BURST, BROWSER_SOCKETS_PER_SECOND)
        self.refused = 0
        """New sockets refused."""
        self.held = 0
        """Refusals waiting for :data:`REFUSAL_DELAY` now."""

    def admit(self, address: str, browser: str | None) -> bool:
        """Whether a new socket from ``address`` (and ``browser``, the session id when the
        request carries one) may connect; a refusal is counted and logged a line a minute
        per address."""
        if address in self.exempt:
            return True
        now = self.clock()
        if self.addresses.take(address, now) and (
                browser is None or self.browsers.take(browser, now)):
            return True
        self.refused += 1
        self.lines.log(logging.WARNING, "storm", address,
                       "socket connections refused: too many new ones")
        return False

    def flooded(self, address: str, browser: str | None) -> None:
        """A socket of ``address`` (and ``browser``) was cut off for flooding: it costs them
        :data:`FLOOD_PENALTY` new sockets."""
        if address in self.exempt:
            return
        now = self.clock()
        self.addresses.charge(address, FLOOD_PENALTY, now)
        if browser is not None:
            self.browsers.charge(browser, FLOOD_PENALTY, now)

    async def refuse(self) -> None:
        """Hold a refused socket for :data:`REFUSAL_DELAY` before it is told (unless
        :data:`HELD_AT_MOST` are held already)."""
        if self.held >= HELD_AT_MOST:
            return
        self.held += 1
        try:
            await self.sleep(REFUSAL_DELAY)
        finally:
            self.held -= 1

    async def screen(self, scope: dict[str, Any], receive: Receive, send: Send) -> bool:
        """Whether an ASGI request for engine.io may go on: any request of a session that
        exists does; one that would open a session only when :meth:`admit` lets it (else it
        is answered here, after :meth:`refuse`'s pause: a WebSocket is turned away, which
        uvicorn answers with 403; a long-polling handshake gets 429)."""
        if not opens_session(scope):
            return True
        if self.admit(address_of(scope), session_of(scope)):
            return True
        await self.refuse()
        if scope.get("type") == "websocket":
            await send({"type": "websocket.close", "code": 1008})
        else:
            await send({"type": "http.response.start", "status": 429,
                        "headers": [(b"content-type", b"text/plain"), (b"retry-after", b"5")]})
            await send({"type": "http.response.body", "body": b"Too many new connections"})
        return False


Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


def opens_session(scope: dict[str, Any]) -> bool:
    """Whether an engine.io request would open a session (it names none)."""
    query = parse_qs(bytes(scope.get("query_string", b"")).decode("latin-1"))
    return scope.get("type") in ("http", "websocket") and "sid" not in query


def address_of(scope: Any) -> str:
    """The client's address in an ASGI scope (a trusted proxy's forwarded one, uvicorn having
    put it there)."""
    client = scope.get("client") if isinstance(scope, dict) else None
    return str(client[0]) if client else "-"


def session_of(scope: Any) -> Any:
    """The browser session id Starlette's session middleware decoded into an ASGI scope."""
    session = scope.get("session") if isinstance(scope, dict) else None
    return session.get("id") if isinstance(session, dict) else None
