"""Drills of a hostile home network and a busy database, against the real server, driven as
``chaos.py`` drives it (its server, phones, rooms and result objects).

    .venv/bin/python benchmarks/attacks.py DRILL [options]
    .venv/bin/python benchmarks/attacks.py --all

Drills (default size; target):

- ``health-lock`` (another program locks the database for 8 s; ``/health`` probed every
  0.25 s during it and 3 s after): every probe answered within 1 s, 503 "busy" while the
  lock is held, 200 after;
- ``storm`` (204 sockets over 12 addresses reconnecting and flooding as fast as they can for
  20 s, while a room of four plays): the storm throttled (new sockets per address within
  its bucket), the room's other phones' p95 under 20 ms, the server's log growing by less
  than 1 KB a second;
- ``page-flood`` (10,000 page loads from fresh browsers over 8 addresses that never connect
  their socket): the server's resident memory at most 150 MiB above idle at its peak, and
  back within 10% of idle a minute later;
- ``guessing`` (room codes guessed for 60 s, every request from an address and a browser of
  its own): the "no such room" answers server-wide at most the server's bound a minute,
  and a guest with the right code at the room's lobby at once.

The storm's sockets run in a process of their own (``--stormer``), so its loop cannot slow
the measuring phones'. Progress goes to stderr; each drill prints one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import random
import sqlite3
import sys
import time
from collections import Counter
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import chaos
from chaos import Options, Party, Server, Tally, beginning, log, result, serving
from phones import Browser, address
from rooms import proc_status

from components.admission import NEW_SOCKETS_BURST, NEW_SOCKETS_PER_SECOND
from parcheesi.server.rooms import ALPHABET, UNKNOWN_ANSWERS_PER_MINUTE

DEFAULTS = {"health-lock": 1, "storm": 1, "page-flood": 10_000, "guessing": 1}
"""Trials per drill (page-flood: page loads; the others: runs)."""
KIB_PER_MIB = 1024


@dataclass
class AttackOptions(Options):
    """Settings of these drills, besides chaos.py's own."""

    storm_s: float = 20.0
    storm_sockets: int = 204
    storm_addresses: int = 12
    load_addresses: int = 8
    settle_s: float = 60.0
    """page-flood: seconds of quiet before memory is compared with idle again."""
    guess_s: float = 60.0
    guessers: int = 16
    """guessing: requests in flight at once."""

    def count(self, drill: str) -> int:
        return self.trials if self.trials is not None else DEFAULTS[drill]


# --- health during a lock --------------------------------------------------------------------


async def probe(session: aiohttp.ClientSession, base: str, since: float
                ) -> dict[str, Any]:
    """One ``/health`` check: when (seconds since ``since``), how long it took, what it said
    (a probe over 2 s is cut off, as a monitor would)."""
    started = time.monotonic()
    try:
        async with session.get(base + "/health", timeout=aiohttp.ClientTimeout(total=2.0)) \
                as response:
            body = await response.json()
            status, database = response.status, body.get("database")
    except (TimeoutError, aiohttp.ClientError) as error:
        status, database = None, type(error).__name__
    return {"at_s": round(started - since, 2), "ms": round((time.monotonic() - started) * 1000),
            "status": status, "database": database}


async def probes(base: str, seconds: float, since: float) -> list[dict[str, Any]]:
    """``/health`` every 0.25 s for ``seconds``, each on a connection of its own."""
    found = []
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(force_close=True)) as http:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            found.append(await probe(http, base, since))
            await asyncio.sleep(max(0.0, 0.25 - found[-1]["ms"] / 1000))
    return found


async def drill_health_lock(options: AttackOptions) -> dict[str, Any]:
    """Another program holds the SQLite database (``BEGIN EXCLUSIVE``) for ``lock_s``
    seconds; a monitor asks ``/health`` throughout and after."""
    started, tally = beginning(options), Tally()
    async with serving(options) as server:
        before = await probes(server.base, 1.0, time.monotonic())
        log(f"health-lock: the database locked for {options.lock_s} s")
        holder = sqlite3.connect(server.database, timeout=10, isolation_level=None)
        try:
            holder.execute("BEGIN EXCLUSIVE")
            locked = time.monotonic()
            during = await probes(server.base, options.lock_s, locked)
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        released = time.monotonic()
        after = await probes(server.base, 3.0, released)
        slowest = max(p["ms"] for p in [*during, *after])
        first_ok = next((p["at_s"] for p in after if p["status"] == 200), None)
        figures = {
            "lock_s": options.lock_s, "probes_during": len(during), "probes_after": len(after),
            "slowest_ms": slowest,
            "during": dict(Counter(f"{p['status']} {p['database']}" for p in during)),
            "after": dict(Counter(f"{p['status']} {p['database']}" for p in after)),
            "first_200_after_release_s": first_ok,
            "before": dict(Counter(f"{p['status']} {p['database']}" for p in before)),
        }
        met = (slowest < 1000 and all(p["status"] == 503 for p in during)
               and first_ok is not None and after[-1]["status"] == 200)
        return result("health-lock", options, started, figures,
                      {"every_probe_within_ms": 1000, "during": "503 busy", "after": 200},
                      met, server, tally)


# --- a reconnect storm -----------------------------------------------------------------------

STORM_FRAME = "42" + json.dumps(["event", {"client_id": "made-up", "id": 1,
                                           "listener_id": "x", "args": []}])
"""What each storm socket sends as fast as it can (a page it never opened: dropped)."""


def storm_addresses(count: int) -> list[str]:
    """The stormers' loopback addresses (apart from the phones' 127.0.x.y)."""
    return [f"127.9.{k // 250}.{1 + k % 250}" for k in range(count)]


async def storm_socket(session: aiohttp.ClientSession, url: str, end: float,
                       counts: Counter[str]) -> None:
    """One socket: connect, open socket.io's namespace, send frames until cut off, and
    again at once, until ``end``."""
    while time.perf_counter() < end:
        counts["attempts"] += 1
        try:
            ws = await session.ws_connect(url, max_msg_size=0)
        except aiohttp.WSServerHandshakeError:
            counts["refused"] += 1
            continue
        except (aiohttp.ClientError, OSError):
            counts["failed"] += 1
            continue
        counts["accepted"] += 1
        reader = asyncio.get_running_loop().create_task(_read_until_closed(ws))
        try:
            await ws.send_str("40")
            while not reader.done() and time.perf_counter() < end:
                await ws.send_str(STORM_FRAME)
                counts["frames"] += 1
                if counts["frames"] % 20 == 0:
                    await asyncio.sleep(0)  # the reader notices the close
        except (ConnectionError, RuntimeError, aiohttp.ClientError):
            pass
        finally:
            reader.cancel()
            await ws.close()


async def _read_until_closed(ws: aiohttp.ClientWebSocketResponse) -> None:
    while not ws.closed:
        message = await ws.receive()
        if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED,
                            aiohttp.WSMsgType.CLOSING, aiohttp.WSMsgType.ERROR):
            return


async def storm_from_here(base: str, seconds: float, sockets: int, addresses: list[str]
                          ) -> None:
    """The stormer: ``sockets`` sockets spread over ``addresses``, each reconnecting and
    flooding as fast as it can for ``seconds``; prints its counts as JSON."""
    url = base.replace("http://", "ws://") + "/_nicegui_ws/socket.io/?EIO=4&transport=websocket"
    counts: Counter[str] = Counter()
    sessions = [aiohttp.ClientSession(connector=aiohttp.TCPConnector(
        local_addr=(where, 0), force_close=True, limit=0)) for where in addresses]
    print(json.dumps({"storming": True}), flush=True)
    started = time.perf_counter()
    try:
        await asyncio.gather(*(storm_socket(sessions[k % len(sessions)], url,
                                            started + seconds, counts)
                               for k in range(sockets)))
    finally:
        for session in sessions:
            await session.close()
    elapsed = time.perf_counter() - started
    print(json.dumps({**counts, "seconds": round(elapsed, 1), "sockets": sockets,
                      "addresses": len(addresses),
                      "accepted_per_s": round(counts["accepted"] / elapsed, 1),
                      "attempts_per_s": round(counts["attempts"] / elapsed, 1)}), flush=True)


async def drill_storm(options: AttackOptions) -> dict[str, Any]:
    """Drill: a reconnect storm beside a room of four (``chaos.attacked_run``)."""
    started, tally = beginning(options), Tally()
    addresses = storm_addresses(options.storm_addresses)

    def stormer(server: Server) -> Callable[[Party], Coroutine[Any, Any, Any]]:
        async def start(_: Party) -> asyncio.subprocess.Process:
            return await asyncio.create_subprocess_exec(
                sys.executable, __file__, "--stormer", server.base, str(options.storm_s),
                str(options.storm_sockets), *addresses, stdout=asyncio.subprocess.PIPE)
        return start

    async with serving(options) as server:
        run = await chaos.attacked_run(server, options, tally, 0, stormer(server),
                                       options.storm_s)
        storm = run["attack"]
        allowed = len(addresses) * (NEW_SOCKETS_BURST + NEW_SOCKETS_PER_SECOND
                                    * storm.get("seconds", options.storm_s))
        p95 = run["p95_ms_during_others"]
        met = (storm.get("accepted", 0) <= allowed and p95 is not None and p95 < 20.0
               and run["log_bytes_per_s"] < 1024)
        figures = {**run, "accepted_at_most": allowed}
        return result("storm", options, started, figures,
                      {"accepted_at_most": allowed, "p95_ms_others": 20.0,
                       "log_bytes_per_s": 1024}, met, server, tally)


# --- page loads that never connect -----------------------------------------------------------

FLOOD_PATHS = ("/", "/new", "/play", "/games", "/rules", "/room/{code}", "/tv/{code}")
"""What the page flood asks for in turn (a room code of its own each time)."""


def random_code(rng: random.Random) -> str:
    """A room code as the server makes them (almost surely nobody's)."""
    return "".join(rng.choice(ALPHABET) for _ in range(8))


def load_addresses(count: int) -> list[str]:
    """The page flood's loopback addresses (apart from the phones' and the storm's)."""
    return [f"127.8.{k // 250}.{1 + k % 250}" for k in range(count)]


async def flood_pages(base: str, count: int, addresses: list[str], rng: random.Random,
                      concurrency: int = 8) -> Counter[str]:
    """``count`` GETs, each from a fresh browser (no cookie kept), in turn from each address;
    the socket the page asks for is never opened. Returns the answers' statuses."""
    statuses: Counter[str] = Counter()
    sessions = [aiohttp.ClientSession(
        cookie_jar=aiohttp.DummyCookieJar(), timeout=aiohttp.ClientTimeout(total=30),
        connector=aiohttp.TCPConnector(local_addr=(where, 0))) for where in addresses]
    limit = asyncio.Semaphore(concurrency)

    async def load(k: int) -> None:
        path = FLOOD_PATHS[k % len(FLOOD_PATHS)].format(code=random_code(rng))
        async with limit:
            try:
                async with sessions[k % len(sessions)].get(base + path) as response:
                    await response.read()
                    statuses[str(response.status)] += 1
            except (TimeoutError, aiohttp.ClientError) as error:
                statuses[type(error).__name__] += 1

    try:
        await asyncio.gather(*(load(k) for k in range(count)))
    finally:
        for session in sessions:
            await session.close()
    return statuses


async def sample_rss(pid: int, every: float, into: list[int], stop: asyncio.Event) -> None:
    """The process's resident size (KiB) every ``every`` seconds until ``stop``."""
    while not stop.is_set():
        into.append(proc_status(pid)["VmRSS"])
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), every)


async def drill_page_flood(options: AttackOptions) -> dict[str, Any]:
    """Page loads from fresh browsers that never connect: the server's resident memory at
    its peak and a minute after, against idle (after a warm-up of every page); and, from its
    memory report, the objects Python holds and the pages, idle and a minute after (the
    allocators keep some of what Python frees, so the two can differ)."""
    started, tally = beginning(options), Tally()
    rng = random.Random(options.seed)
    async with serving(options) as server:
        assert server.proc is not None
        pid = server.proc.pid
        await flood_pages(server.base, 2 * len(FLOOD_PATHS), load_addresses(1), rng)
        await asyncio.sleep(options.settle_s)  # the warm-up's pages go; what stays is idle
        idle = proc_status(pid)["VmRSS"]
        idle_report = await server.memory()
        samples: list[int] = []
        stop = asyncio.Event()
        sampler = asyncio.get_running_loop().create_task(sample_rss(pid, 0.5, samples, stop))
        began = time.monotonic()
        log(f"page-flood: idle {idle / KIB_PER_MIB:.1f} MiB; {options.count('page-flood')} loads")
        statuses = await flood_pages(server.base, options.count("page-flood"),
                                     load_addresses(options.load_addresses), rng)
        seconds = time.monotonic() - began
        log(f"page-flood: loads done in {seconds:.0f} s, peak {max(samples) / KIB_PER_MIB:.1f} MiB")
        right_after = proc_status(pid)["VmRSS"]
        await asyncio.sleep(options.settle_s)
        stop.set()
        await sampler
        after = proc_status(pid)["VmRSS"]
        held = await server.memory()
        peak = max(samples)
        figures = {"loads": options.count("page-flood"), "addresses": options.load_addresses,
                   "answers": dict(statuses), "loads_per_s": round(
                       options.count("page-flood") / seconds, 1),
                   "idle_mib": round(idle / KIB_PER_MIB, 1),
                   "peak_mib": round(peak / KIB_PER_MIB, 1),
                   "peak_above_idle_mib": round((peak - idle) / KIB_PER_MIB, 1),
                   "right_after_mib": round(right_after / KIB_PER_MIB, 1),
                   "after_mib": round(after / KIB_PER_MIB, 1), "after_s": options.settle_s,
                   "after_vs_idle": round(after / idle, 3),
                   "pages_held_after": held.get("clients"),
                   "objects_idle": idle_report.get("objects"),
                   "objects_after": held.get("objects"),
                   "objects_after_vs_idle": round(held["objects"] / idle_report["objects"], 3)
                   if held.get("objects") and idle_report.get("objects") else None}
        met = peak - idle <= 150 * KIB_PER_MIB and after <= 1.1 * idle
        return result("page-flood", options, started, figures,
                      {"peak_above_idle_mib": 150, "after_vs_idle": 1.1}, met, server, tally)


# --- guessing room codes from fresh addresses ------------------------------------------------

ANSWERS = (("There is no room with that code", "no room"),
           ("That room has closed", "no room"), ("Too many attempts", "too many"))
"""How the room page's answer reads (in its HTML), and what it is counted as."""


def guess_address(k: int) -> str:
    """A loopback address of its own for guess ``k`` (apart from every other drill's)."""
    return f"127.{16 + k // 62_500}.{k // 250 % 250}.{1 + k % 250}"


async def guess(base: str, k: int, code: str) -> tuple[float, str]:
    """One guess from an address and a browser of its own: when it was answered and how
    (``no room``, ``too many``, ``room``: the lobby or table, or what went wrong)."""
    try:
        async with aiohttp.ClientSession(
                cookie_jar=aiohttp.DummyCookieJar(), timeout=aiohttp.ClientTimeout(total=30),
                connector=aiohttp.TCPConnector(local_addr=(guess_address(k), 0))) as http, \
                http.get(f"{base}/room/{code}") as response:
            html = await response.text()
    except (TimeoutError, aiohttp.ClientError) as error:
        return time.monotonic(), type(error).__name__
    kind = next((kind for text, kind in ANSWERS if text in html), None)
    if kind is None:
        kind = "room" if response.status == 200 else f"HTTP {response.status}"
    return time.monotonic(), kind


def most_in_a_minute(times: list[float]) -> int:
    """The most of ``times`` within any 60 seconds."""
    times, most, first = sorted(times), 0, 0
    for last, moment in enumerate(times):
        while moment - times[first] >= 60.0:
            first += 1
        most = max(most, last - first + 1)
    return most


async def guest_joins(server: Server, code: str, tally: Tally, timeout: float) -> float:
    """A guest with the right code, from an address and browser of its own, opens the
    invitation link: seconds until the room's lobby shows."""
    guest = Browser(server.base, address(240), tally)
    began = time.monotonic()
    try:
        page = await guest.open(f"/r/{code}", timeout)
        target = await page.wait(lambda: page.navigated, timeout, "the invitation's room")
        page = await guest.open(target, timeout)
        await page.wait(lambda: page.first("room-code"), timeout, "the lobby")
    finally:
        await guest.close()
    return round(time.monotonic() - began, 2)


async def drill_guessing(options: AttackOptions) -> dict[str, Any]:
    """Room codes guessed for ``guess_s`` seconds by ``guessers`` requests at a time, every
    one from an address and a browser of its own; a third of the way in, a guest with the
    right code joins."""
    started, tally = beginning(options), Tally()
    rng = random.Random(options.seed)
    async with serving(options) as server:
        host = Browser(server.base, address(230), tally)
        try:
            path = await chaos.fill_form(host, options.timeout, mode=chaos.ONLINE, players=2,
                                         kinds={"sapphire": chaos.INVITED})
        finally:
            await host.close()
        code = path.rsplit("/", 1)[-1]
        answers: list[tuple[float, str]] = []
        end = time.monotonic() + options.guess_s
        counter = iter(range(10**9))

        async def guesser() -> None:
            while time.monotonic() < end:
                answers.append(await guess(server.base, next(counter), random_code(rng)))

        began = time.monotonic()
        guessing = [asyncio.get_running_loop().create_task(guesser())
                    for _ in range(options.guessers)]
        await asyncio.sleep(options.guess_s / 3)
        joined = await guest_joins(server, code, tally, options.timeout)
        log(f"guessing: the guest joined in {joined} s after {len(answers)} guesses")
        await asyncio.gather(*guessing)
        seconds = time.monotonic() - began
        kinds = Counter(kind for _, kind in answers)
        unknown = most_in_a_minute([t for t, kind in answers if kind == "no room"])
        figures = {"seconds": round(seconds, 1), "guesses": len(answers),
                   "guesses_per_minute": round(60 * len(answers) / seconds),
                   "answers": dict(kinds), "no_room_answers_most_in_a_minute": unknown,
                   "guest_joined_s": joined, "bound": UNKNOWN_ANSWERS_PER_MINUTE}
        met = unknown <= UNKNOWN_ANSWERS_PER_MINUTE and joined < options.timeout
        return result("guessing", options, started, figures,
                      {"no_room_answers_a_minute_at_most": UNKNOWN_ANSWERS_PER_MINUTE,
                       "guest_joins": "at once"}, met, server, tally)


# --- running ---------------------------------------------------------------------------------

DRILLS: dict[str, Callable[[AttackOptions], Coroutine[Any, Any, dict[str, Any]]]] = {
    "health-lock": drill_health_lock, "storm": drill_storm, "page-flood": drill_page_flood,
    "guessing": drill_guessing,
}


def run(name: str, options: AttackOptions | None = None, **settings: Any) -> dict[str, Any]:
    """Run one drill and return its result object (tests call this)."""
    chosen = dataclasses.replace(options or AttackOptions(), **settings)
    return asyncio.run(DRILLS[name](chosen))


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("name", nargs="?", choices=sorted(DRILLS), help="the drill to run")
    parser.add_argument("--all", action="store_true", help="run every drill")
    parser.add_argument("--trials", type=int, help="page-flood: page loads")
    parser.add_argument("--lock-seconds", type=float, default=8.0)
    parser.add_argument("--storm-seconds", type=float, default=20.0)
    parser.add_argument("--storm-sockets", type=int, default=204)
    parser.add_argument("--storm-addresses", type=int, default=12)
    parser.add_argument("--load-addresses", type=int, default=8)
    parser.add_argument("--settle-seconds", type=float, default=60.0)
    parser.add_argument("--guess-seconds", type=float, default=60.0)
    parser.add_argument("--guessers", type=int, default=16)
    parser.add_argument("--app-dir", type=Path, default=chaos.ROOT,
                        help="the checkout whose app.py is served (default: this one)")
    parser.add_argument("--stormer", nargs="+", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    """Run the drills asked for; exit 0 when every target was met."""
    args = parse_args(argv)
    if args.stormer:
        base, seconds, sockets, *where = args.stormer
        asyncio.run(storm_from_here(base, float(seconds), int(sockets), where))
        return 0
    names = list(DRILLS) if args.all else [args.name]
    if names == [None]:
        print("name a drill, or --all", file=sys.stderr)
        return 2
    options = AttackOptions(trials=args.trials, lock_s=args.lock_seconds,
                            storm_s=args.storm_seconds, storm_sockets=args.storm_sockets,
                            storm_addresses=args.storm_addresses,
                            load_addresses=args.load_addresses, settle_s=args.settle_seconds,
                            guess_s=args.guess_seconds, guessers=args.guessers,
                            app_dir=args.app_dir.resolve())
    results = []
    for name in names:
        found = run(name, options)
        results.append(found)
        print(json.dumps(found, indent=None if args.all else 1), flush=True)
    return 0 if all(r.get("met") for r in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
