"""What one running server serves from: its settings, its store, its live games and rooms.

:func:`app.create_app` makes one and hands it to the pages (:mod:`.pages`), which read its
fields on every request; nothing about it is global, so a test builds its own over its own
data directory (and its own clock), and a second one over the same database is what a
restarted process would see.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

from parcheesi.server.clocks import ClockWatch, Pause
from parcheesi.server.config import Config, proxy_settings
from parcheesi.server.live import Clock, Hub, LiveGame, WallClock, utc_now
from parcheesi.server.people import People
from parcheesi.server.ratings import Ratings
from parcheesi.server.rooms import Rooms
from parcheesi.server.runner import ensure_runner, paced
from parcheesi.server.store import Store
from parcheesi.server.tournaments import Tournaments

from .health import HealthNotice
from .install import APP_NAME, ICONS


def paced_pause(pace: float) -> Pause:
    """The computers' pace between the actions of a move made for a player out of time."""

    async def pause(game: LiveGame) -> None:
        await asyncio.sleep(paced(game, pace))

    return pause


@dataclass
class Server:
    config: Config
    store: Store
    hub: Hub
    rooms: Rooms
    notice: HealthNotice
    watch: ClockWatch
    """Plays the moves whose turn clock ran out (started with the server)."""
    people: People
    ratings: Ratings
    tournaments: Tournaments
    host_addresses: tuple[str, ...] = ("127.0.0.1", "::1")
    """Addresses of the server's own machine: a page opened from one is the host's."""

    @classmethod
    def open(cls, config: Config, clock: Clock = time.monotonic,
             wall: WallClock = utc_now) -> Server:
        """The server's objects over ``config``'s database (nothing is opened until the
        store's ``init`` runs at start-up); ``clock`` measures absences and idleness,
        ``wall`` gives the time of day of the turn clocks' deadlines."""
        store = Store(config.database_url)
        hub = Hub(store, clock, wall)
        people = People(store, wall)
        ratings = Ratings(store, people)
        rooms = Rooms(store, hub, clock)

        def computers(game: LiveGame) -> None:
            ensure_runner(game, config.pace)

        tournaments = Tournaments(store, rooms, people, ratings, computers)

        def finished(game: LiveGame) -> None:
            ratings.soon()
            tournaments.game_over(game)

        hub.on_finish = finished
        people.on_change.append(ratings.rebuild)
        return cls(config, store, hub, rooms, HealthNotice(store),
                   ClockWatch(hub, paced_pause(config.pace), computers),
                   people, ratings, tournaments)

    def run_options(self) -> dict[str, Any]:
        """The options of ``ui.run`` for this server (the tests' browser server uses them
        too, so it serves what a host's does)."""
        return dict(host=self.config.host, port=self.config.port, title=APP_NAME,
                    reload=False, show=False, storage_secret=self.config.storage_secret,
                    reconnect_timeout=10, favicon=ICONS / "icon-192.png", show_welcome_message=True,
                    language="en-US", dark=None,
                    tailwind=False, **proxy_settings(self.config))
