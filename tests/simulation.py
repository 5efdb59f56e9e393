"""The test's own server: ``app.create_app`` under NiceGUI's user simulation.

Every test builds one over its own data directory (the fixtures in conftest.py do it for
most); a test that restarts the server runs :func:`simulated_app` twice over one directory.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
from nicegui import core, ui
from nicegui.functions.download import download
from nicegui.functions.navigate import Navigate
from nicegui.functions.notify import notify
from nicegui.testing import User
from nicegui.testing.general import nicegui_reset_globals, prepare_simulation

from app import create_app
from components.server import Server
from parcheesi.server.config import Config
from parcheesi.server.live import Clock, WallClock


def build_app(config: Config, clock: Clock | None, wall: WallClock | None = None) -> Server:
    """``create_app`` with the test's clocks (None: the real ones)."""
    options = {} if wall is None else {"wall": wall}
    return create_app(config, **options) if clock is None else create_app(config, clock,
                                                                           **options)


@asynccontextmanager
async def simulated_app(config: Config | None, clock: Clock | None = None,
                        wall: WallClock | None = None) -> AsyncIterator[Server | None]:
    """A server of ``create_app`` under NiceGUI's user simulation, from start-up to shutdown
    (two in a row over one data directory are a restart); with no config, an empty app for a
    test that draws its own pages. ``clock`` and ``wall``: the monotonic clock and the time
    of day the server keeps (None: the real ones)."""
    with nicegui_reset_globals():
        os.environ["NICEGUI_USER_SIMULATION"] = "true"
        try:
            server = None if config is None else build_app(config, clock, wall)
            if server is None:
                prepare_simulation()
            # under the simulation, ui.run only configures: nothing is served
            ui.run(**(server.run_options() if server else {"storage_secret": "simulated"}))
            async with core.app.router.lifespan_context(core.app):
                yield server
        finally:
            os.environ.pop("NICEGUI_USER_SIMULATION", None)
            ui.navigate = Navigate()
            ui.notify = notify
            ui.download = download


def simulated_user() -> User:
    return User(httpx.AsyncClient(transport=httpx.ASGITransport(core.app),
                                  base_url="http://test"))
