"""Pages served whose browser never connects their socket: let go of within seconds, and at
most a few per address.

NiceGUI builds a page (a ``Client`` with all its elements) for every GET, before the browser
has shown that it will use it, and keeps it for a minute when no socket comes (its own
``Client.prune_instances``, every ten seconds, for pages older than 60 s). Anyone on the
network can ask for pages far faster than that lets them go: thousands of GETs held
hundreds of megabytes. A real browser connects its page's socket within a second or two of
the answer; so here:

- a page waits :data:`CONNECT_WAIT` seconds for its socket (:func:`wait_for_socket`, also
  for a page the browser only prefetches, which NiceGUI would wait for without end), and a
  page whose socket has not come by then is deleted by a sweep every second
  (:func:`sweep`: NiceGUI's own test of a page to prune, with that age instead of a
  minute, and a time the tests can choose);
- of the pages one address has waiting for their socket, only the newest
  :data:`PAGES_PER_ADDRESS` are kept: older ones go at once, so a flood of page loads from
  one address holds a few pages, not thousands. The server's own machine is exempt (behind
  a reverse proxy not named as trusted, it is every phone's address), and a page is never
  deleted while NiceGUI still builds its answer.

A page let go of too early costs a person a reload (``nicegui.js`` reloads a page whose
handshake fails), never a game: every page is rebuilt from the server's state.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from nicegui import Client
from nicegui.client import ClientConnectionTimeout

log = logging.getLogger("parcheesi.pages")

CONNECT_WAIT = 10.0
"""Seconds a page waits for its browser's socket before it is let go of."""
PAGES_PER_ADDRESS = 4
"""Pages one address may have waiting for their socket at once. A browser connects within
a second, so a family's phones behind one address reloading together stay below; one whose
page went early reloads it. Memory freed is not all given back to the system (the
allocators keep what stays fragmented), so what a flood leaves follows the most pages it
had waiting at once: four an address (with :data:`SWEEP_EVERY`) keep 10,000 loads within
10% of idle a minute later (``docs/reliability.md``)."""
SWEEP_EVERY = 0.1
"""Seconds between two sweeps (a sweep looks at the pages waiting, a few dozen at most)."""
GIVE_BACK_AFTER = 20
"""Pages let go of after which their memory is given back at once (a page's elements are
reference cycles, which the server's rare full collections would otherwise leave for a
minute: a flood of page loads would pile them up by the thousand)."""


def _waiting(client: Client) -> bool:
    """Whether a page was answered and waits for its first socket (NiceGUI's own test for a
    page to prune: no socket now, and none that left and may come back)."""
    return (not client.has_socket_connection and not client._delete_tasks
            and client._response_built and not client.is_deleted)


def sweep(clients: Iterable[Client], exempt: Iterable[str] = (), now: float | None = None
          ) -> int:
    """Delete the pages that waited :data:`CONNECT_WAIT` for their socket, and of those an
    address has waiting, all but its newest :data:`PAGES_PER_ADDRESS` (not for ``exempt``
    addresses); returns how many went."""
    now = time.time() if now is None else now
    spared = frozenset(exempt)
    waiting: dict[str, list[Client]] = defaultdict(list)
    gone = 0
    for client in list(clients):
        if not _waiting(client):
            continue
        if client.created <= now - CONNECT_WAIT:
            client.delete()
            gone += 1
        elif client.ip not in spared:
            waiting[client.ip].append(client)
    for pages in waiting.values():
        if len(pages) > PAGES_PER_ADDRESS:
            pages.sort(key=lambda c: c.created)
            for client in pages[:-PAGES_PER_ADDRESS]:
                client.delete()
                gone += 1
    return gone


async def keep_sweeping(exempt: Iterable[str] = (), give_back: Callable[[], Any] = gc.collect,
                        every: float = SWEEP_EVERY,
                        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep) -> None:
    """Sweep every ``every`` seconds for as long as the server runs (one failed sweep never
    ends it); ``give_back`` (a full collection) runs once :data:`GIVE_BACK_AFTER` pages
    went since it last ran."""
    gone = 0
    while True:
        try:
            gone += sweep(Client.instances.values(), exempt)
            if gone >= GIVE_BACK_AFTER:
                gone = 0
                give_back()
        except Exception:  # a page that changed under the sweep: the next one sees it
            log.exception("sweeping unconnected pages failed")
        await sleep(every)


async def wait_for_socket(client: Client) -> bool:
    """Wait for ``client``'s socket; False when it does not come within
    :data:`CONNECT_WAIT` (NiceGUI would wait without end for a prefetched page) or the page
    was let go of meanwhile."""
    try:
        await asyncio.wait_for(client.connected(timeout=CONNECT_WAIT), CONNECT_WAIT)
    except (ClientConnectionTimeout, TimeoutError):
        return False
    return not client.is_deleted
