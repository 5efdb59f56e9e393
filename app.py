"""Start the server: ``create_app`` builds one, ``main`` runs it; the games and the server
live in ``parcheesi/`` and the pages in ``components/``. Importing this module builds
nothing.

    python app.py [--host 0.0.0.0] [--port 8080] [--database-url URL] [--pace 0.5]
"""

from __future__ import annotations

import asyncio
import ctypes
import gc
import logging
import signal
import socket
import sys
import threading
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from nicegui import Client, app, background_tasks, ui

from components.pages import lan_urls, register
from components.routing import ShardRouting
from components.server import Server
from components.sockets import install as guard_sockets
from components.unconnected import keep_sweeping
from parcheesi.server.config import PROGRAM, Config, ConfigError, parse
from parcheesi.server.live import Clock, WallClock, utc_now
from parcheesi.server.logs import configure as configure_logging
from parcheesi.server.migrate import upgrade
from parcheesi.server.signals import Notices

log = logging.getLogger("parcheesi.server")

TAB_STORAGE_AGE = 3600.0
"""Seconds NiceGUI keeps a closed tab's storage (no page keeps anything there)."""


def create_app(config: Config, clock: Clock = time.monotonic, *,
               migrated: bool = False, wall: WallClock = utc_now) -> Server:
    """A server over ``config``: its store, live games, rooms and pages, with the work it
    does at start (opening the store, housekeeping, the database watch, the turn clocks'
    watch) and at stop. ``migrated`` says the schema was brought up to date already (by
    ``main``), so the store does not check it again; ``wall`` is the time of day the turn
    clocks keep."""
    server = Server.open(config, clock, wall)
    if migrated:
        server.store.migrated()
    guard_sockets(exempt=server.host_addresses)
    if not config.shard.alone:
        app.add_middleware(ShardRouting, shard=config.shard)
    app.storage.max_tab_storage_age = TAB_STORAGE_AGE
    app.on_startup(server.store.init)
    app.on_startup(lambda: start_background_work(server))
    app.on_startup(lambda: announce(config))
    app.on_shutdown(server.tournaments.close)
    app.on_shutdown(server.ratings.close)
    app.on_shutdown(server.close_shard)
    app.on_shutdown(server.store.close)
    register(server)
    return server


async def housekeeping(server: Server) -> None:
    """Every minute, let go of the games and rooms nobody uses (they reload on demand) and
    give back the memory of what went; every hour, delete expired rooms and their tokens.
    One failed round never ends it."""
    rounds = 0
    pages = set(Client.instances)
    while True:
        try:
            pages = await tidy(server, pages)
            if rounds % 60 == 0:
                await server.rooms.cleanup()
        except Exception:  # a database that is down now may be back at the next round
            log.exception("housekeeping failed")
        rounds += 1
        await asyncio.sleep(60)


def give_back_memory() -> None:
    """A full garbage collection, then free heap pages back to the system.

    The collector's thresholds (below) make full collections rare, so the pages that left
    (reference cycles of elements and handlers) would otherwise wait in memory for hours.
    A full collection scans every object made since start-up that is still alive (those of
    start-up are frozen out of it): with 200 pages open it takes half a second to a second,
    in which no game moves. So it runs when something went, not every minute."""
    started = time.perf_counter()
    gc.collect()
    if LIBC is not None:
        LIBC.malloc_trim(0)
    log.debug("memory given back", extra={"ms": round((time.perf_counter() - started) * 1000)})


async def tidy(server: Server, pages: set[str],
               give_back: Callable[[], Any] = give_back_memory) -> set[str]:
    """One minute's housekeeping: idle games and rooms leave memory, and their locks go.
    The memory is given back (``give_back``) only when something went: a game, a room, or
    one of the ``pages`` open at the last round. Returns the pages open now."""
    went = bool(server.hub.unload_idle()) | bool(server.rooms.unload_idle())
    await server.let_go()
    now = set(Client.instances)
    if went or not pages <= now:
        give_back()
    return now


def _libc() -> ctypes.CDLL | None:
    """glibc, whose malloc_trim returns freed heap pages to the system (None elsewhere)."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.malloc_trim  # noqa: B018 - present in glibc only
    except (OSError, AttributeError):
        return None
    return libc


LIBC = _libc()


def report_memory(server: Server) -> None:
    """On SIGUSR1, log what the process holds (for operators and the memory drills)."""
    gc.collect()
    log.info("memory", extra={
        "objects": len(gc.get_objects()),
        "traced_bytes": tracemalloc.get_traced_memory()[0] if tracemalloc.is_tracing() else None,
        "clients": len(Client.instances), "live_games": len(server.hub.games),
        "rooms": len(server.rooms.rooms),
        "limit_counters": len(server.rooms.guesses) + len(server.rooms.claims.attempts)})


def start_background_work(server: Server) -> None:
    background_tasks.create(housekeeping(server), name="housekeeping")
    background_tasks.create(keep_sweeping(server.host_addresses, give_back_memory),
                            name="unconnected pages")
    background_tasks.create(server.notice.watch(), name="database watch")
    background_tasks.create(server.watch.run(), name="turn clocks")
    if isinstance(server.signals, Notices):
        server.signals.start()
    server.rate_finished()  # the games that finished while the server was down
    server.tournaments.soon()  # and the tournaments they were tables of
    if threading.current_thread() is threading.main_thread():  # not under the test fixtures
        asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1,
                                                      lambda: report_memory(server))


def announce(config: Config) -> None:
    if config.host in ("0.0.0.0", "::"):
        urls = lan_urls(config.port)
        if urls:
            print("Phones on this network can open: " + ", ".join(urls), flush=True)


def check_before_start(config: Config) -> None:
    """Exit with a one-line reason when the port is taken or the database unreachable."""
    family = socket.AF_INET6 if ":" in config.host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((config.host, config.port))
        except OSError as error:
            sys.exit(f"{PROGRAM}: cannot listen on {config.host}:{config.port} ({error.strerror}); "
                     "is another server running? Choose another --port.")
    try:
        upgrade(config.database_url)
    except Exception as error:  # any driver error: report it in one line and stop
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        sys.exit(f"{PROGRAM}: cannot open the database: {reason}")


def main(argv: list[str]) -> None:
    try:
        config = parse(argv)
    except ConfigError as error:
        sys.exit(f"{PROGRAM}: {error}")
    configure_logging(config.log_level)
    check_before_start(config)
    server = create_app(config, migrated=True)
    # Full garbage collections over a large heap stall every game for hundreds of
    # milliseconds: keep the objects made at start-up out of them and run them less often
    # (housekeeping runs one a minute).
    gc.freeze()
    gc.set_threshold(20_000, 50, 1000)
    ui.run(**server.run_options())


if __name__ == "__main__":
    main(sys.argv[1:])
