"""Pages whose browser never connects their socket are let go of within seconds, and an
address keeps only its newest few (``components/unconnected.py``).

The pages are real: GETs through the app's own ASGI stack (httpx, from an address of the
test's choosing), which build NiceGUI clients that never see a socket; the sweep is asked
with a time of the test's choosing instead of waiting for it."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import pytest
from nicegui import Client, app
from nicegui.testing import User
from ui_helpers import until

from components import unconnected
from components.server import Server
from components.unconnected import (
    CONNECT_WAIT,
    GIVE_BACK_AFTER,
    PAGES_PER_ADDRESS,
    sweep,
    wait_for_socket,
)


async def load(address: str, count: int, path: str = "/rules") -> list[str]:
    """``count`` page loads from ``address``, each from a fresh browser; their client ids."""
    before = set(Client.instances)
    transport = httpx.ASGITransport(app, client=(address, 40000))
    for _ in range(count):
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            assert (await http.get(path)).status_code == 200
    return [c for c in Client.instances if c not in before]


def waiting(ids: list[str]) -> list[str]:
    return [c for c in ids if c in Client.instances]


async def test_an_address_keeps_only_its_newest_unconnected_pages(app_server: Server,
                                                                   user: User) -> None:
    flood = await load("10.0.0.5", PAGES_PER_ADDRESS + 15)
    neighbour = await load("10.0.0.6", 3)
    own = await load("127.0.0.1", PAGES_PER_ADDRESS + 5)
    await user.open("/")  # a connected page
    sweep(Client.instances.values(), app_server.host_addresses)
    assert waiting(flood) == flood[-PAGES_PER_ADDRESS:]  # the oldest went
    assert waiting(neighbour) == neighbour and waiting(own) == own
    assert user.client is not None and user.client.id in Client.instances


async def test_unconnected_pages_go_once_they_waited_for_their_socket(app_server: Server,
                                                                      user: User) -> None:
    pages = await load("10.0.0.7", PAGES_PER_ADDRESS)
    await user.open("/")
    assert sweep(Client.instances.values(), now=time.time() + CONNECT_WAIT / 2) == 0
    assert sweep(Client.instances.values(),
                 now=time.time() + CONNECT_WAIT + 1) >= PAGES_PER_ADDRESS
    assert waiting(pages) == []
    assert user.client is not None and user.client.id in Client.instances  # it connected


class NeverConnects:
    """A page NiceGUI would wait for without end (one the browser only prefetches)."""

    is_deleted = False

    async def connected(self, timeout: Any = None) -> None:
        await asyncio.Event().wait()


async def test_a_page_never_waits_longer_than_the_wait(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    monkeypatch.setattr(unconnected, "CONNECT_WAIT", 0.01)
    assert await wait_for_socket(NeverConnects()) is False  # type: ignore[arg-type]


async def test_memory_is_given_back_once_enough_pages_went(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """A page's elements are reference cycles: after every ``GIVE_BACK_AFTER`` pages let go
    of, a full collection frees them at once instead of at the next housekeeping minute."""
    sweeps = iter([GIVE_BACK_AFTER // 2, GIVE_BACK_AFTER // 2, 1, GIVE_BACK_AFTER - 1, 0])
    monkeypatch.setattr(unconnected, "sweep", lambda clients, exempt: next(sweeps))
    given_back: list[int] = []
    done = asyncio.Event()

    async def sleep(seconds: float) -> None:
        if len(given_back) == 2:
            done.set()
            await asyncio.Event().wait()

    task = asyncio.get_running_loop().create_task(
        unconnected.keep_sweeping((), lambda: given_back.append(1), sleep=sleep))
    await asyncio.wait_for(done.wait(), 5)
    task.cancel()
    assert given_back == [1, 1]


async def test_a_page_that_never_connects_registers_no_upload_address(user: User) -> None:
    """NiceGUI registers an address for every upload control, and FastAPI's caches keep the
    last few thousand alive with their pages: My games makes its upload only for a page
    whose socket came."""
    ids = await load("10.0.0.8", 3, "/games")

    def uploads() -> list[str]:
        return [str(getattr(r, "path", "")) for r in app.routes
                if "/upload/" in str(getattr(r, "path", ""))]

    assert not [path for path in uploads() if any(i in path for i in ids)]
    await user.open("/games")
    assert user.client is not None
    await until(lambda: any(user.client.id in path for path in uploads()), "the upload")
