"""What one running server serves from: its settings, its store, its live games and rooms.

:func:`app.create_app` makes one and hands it to the pages (:mod:`.pages`), which read its
fields on every request; nothing about it is global, so a test builds its own over its own
data directory (and its own clock), and a second one over the same database is what a
restarted process would see.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from dataclasses import dataclass, field
from typing import Any

from parcheesi.server.clocks import ClockWatch, Pause
from parcheesi.server.config import Config, proxy_settings
from parcheesi.server.live import Clock, Hub, LiveGame, WallClock, utc_now
from parcheesi.server.people import People
from parcheesi.server.ratings import Ratings
from parcheesi.server.rooms import Rooms
from parcheesi.server.runner import ensure_runner, paced
from parcheesi.server.shards import AdvisoryLocks, room_key
from parcheesi.server.signals import Notices, Quiet, Signals
from parcheesi.server.store import Store
from parcheesi.server.tournaments import Tournaments

from .health import HealthNotice
from .install import APP_NAME, ICONS


def stop_this_process() -> None:
    """A shard whose locks are gone stops (its supervisor starts it again, and it takes its
    locks afresh) rather than play on rooms another shard may now hold."""
    os.kill(os.getpid(), signal.SIGTERM)


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
    signals: Signals = field(default_factory=Quiet)
    """What this shard tells the others, and hears from them (a lone server: nothing)."""
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
        signals: Signals = Quiet()
        if not config.shard.alone:
            hub.shard = config.shard
            hub.owners = AdvisoryLocks(config.database_url, lost=stop_this_process)
            signals = Notices(config.database_url, sender=str(config.shard))
        people = People(store, wall)
        ratings = Ratings(store, people, rates=config.shard.rates)
        rooms = Rooms(store, hub, clock)

        def computers(game: LiveGame) -> None:
            ensure_runner(game, config.pace)

        tournaments = Tournaments(store, rooms, people, ratings, computers)

        tournaments.tell_shards(signals)
        rooms.tell_shards(signals)
        ratings.tell_shards(signals)

        async def rate(_: str) -> None:
            ratings.soon()

        async def rebuild(_: str) -> None:
            await ratings.rebuild()

        async def rebuild_at_rater() -> None:
            await signals.send("rebuild", "")

        signals.listen("finished", rate)
        signals.listen("rebuild", rebuild)

        def finished(game: LiveGame) -> None:
            if config.shard.rates:
                ratings.soon()
            else:
                signals.tell("finished", game.id)
            tournaments.game_over(game)

        hub.on_finish = finished
        people.on_change.append(ratings.rebuild if config.shard.rates else rebuild_at_rater)
        return cls(config, store, hub, rooms, HealthNotice(store, config.redis_url),
                   ClockWatch(hub, paced_pause(config.pace), computers),
                   people, ratings, tournaments, signals)

    def rate_finished(self) -> None:
        """Rate the games that finished while the server was down (at start; in a cluster,
        the shard that rates)."""
        if self.config.shard.rates:
            self.ratings.soon()

    async def let_go(self) -> None:
        """Give up the locks of the rooms and games no longer live here (housekeeping)."""
        live = {room_key(code) for code in self.rooms.rooms}
        live |= {game.owner for game in self.hub.games.values()}
        await self.hub.owners.keep_only(live)

    async def close_shard(self) -> None:
        """At shutdown: stop listening to the other shards and let every lock go."""
        if isinstance(self.signals, Notices):
            await self.signals.close()
        await self.hub.owners.close()

    def run_options(self) -> dict[str, Any]:
        """The options of ``ui.run`` for this server (the tests' browser server uses them
        too, so it serves what a host's does)."""
        return dict(host=self.config.host, port=self.config.port, title=APP_NAME,
                    reload=False, show=False, storage_secret=self.config.storage_secret,
                    reconnect_timeout=10, favicon=ICONS / "icon-192.png", show_welcome_message=True,
                    language="en-US", dark=None,
                    tailwind=False, **proxy_settings(self.config))
