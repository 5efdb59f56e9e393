"""Online rooms under load: many simulated phones playing at once over NiceGUI's own protocol.

    .venv/bin/python benchmarks/rooms.py [--rooms 50] [--clients-per-room 4] [--duration 60]
        [--think 2] [--setup-concurrency 10] [--concurrent-guests] [--server-log FILE]

Starts the real server as a subprocess in its own process group (``app.py --host 127.0.0.1
--port <free> --pace 0.05``, with ``PARCHEESI_DATA_DIR`` and NiceGUI's storage in a fresh
temporary directory; it is stopped at the end in every case) and drives it with simulated
phones that speak the protocol a browser running ``nicegui.js`` speaks, so every simulated
client is a real connected page (``phones.py``: page loads over HTTP, a socket.io WebSocket per
page, ``update`` messages applied to a local copy of the elements, ``localStorage`` answers,
clicks as the browser's ``event`` messages, only for shown and enabled elements); nothing on
the server is there for the benchmark.

Each phone is its own browser: its own cookie jar, ``localStorage`` and tab id, and its own
loopback source address (127.0.1.1, 127.0.1.2, ...; every 127.x.y.z address is the loopback
interface), because the server rate-limits room-code attempts and seat claims per browser and
per address (20 a minute), as it should for real phones on a LAN.

Setting up a room goes through the UI: the host opens ``/new``, chooses the number of players,
"Online room" and "Invited player" for every other seat, presses Start game and follows the
navigation to ``/room/<code>``; the guests open that page one after the other (all at once with
``--concurrent-guests``), press ``claim-seat-<colour>`` and I'm ready; the host presses Start
game when it is enabled. At the table each phone turns off "Move at once when a piece has one
move" in the settings, so a press on a piece only selects it. A page that stalls during set-up
is reloaded once, as a person would (counted as an error). Every seat is a person, so the
server's computer task never plays (``--pace`` has no effect on the figures).

During play each phone whose seat is to act presses, once its buttons are enabled and it has
thought for a while (uniformly 0.5 to 1.5 times ``--think`` seconds, 2 by default, from a
seeded generator; people do not press in lockstep): the first movement option if one is
offered, else Roll, else the first enabled piece button (which only selects the piece and
shows the options). A
finished game is restarted by the host's "New game" (play again). Roll and a movement option
are game actions; for each, every phone of the room measures the time from the acting phone
sending its click to that phone receiving the ``update`` that carries the board's next state
(the board element's ``seq`` prop changes on every redraw; a phone that is not acting redraws
only when the game accepts an action, so its n-th board change after the click is the n-th
action's result). The acting phone's own redraw shows whether the action was accepted: the
game version in the board's stamp moved on. Selecting a piece is measured separately (only the
acting phone redraws). With ``--think 0`` every room acts as fast as the server answers, so the
server runs saturated and the latency is mostly queueing; ``--think 1`` is a brisk human pace.

Errors counted: set-up failures and page reloads, timeouts (no answer to a click within
``--step-timeout``), actions not accepted (``refused``: the status line shows the server's
refusal; ``failed``: the table did not move on and no refusal was shown), accepted actions no
other phone saw, updates that never arrived, board updates nobody asked for, negative
notifications, unexpected disconnects or reload requests, JavaScript the simulation does not
know, tracebacks and error lines in the server's log, and games whose version differs from
their action rows. After the play time the phones stop acting, wait up to ``--drain`` seconds
for outstanding updates and close; the server is stopped, and its SQLite database is read: per
room, the sum of its games' versions (accepted actions) must equal the actions the phones saw
accepted (no lost actions).

Server memory is VmRSS of the server process from ``/proc/<pid>/status``: after start and a
warm-up request, when all clients are at their tables, and at the end of play; the figure per
client is the larger increase divided by the connected clients (it includes the rooms' games
and the pages' elements). Server and benchmark CPU time and the machine's load average are
reported too: all share this machine's cores. Through a cluster (``--cluster N``), the CPU of
its PostgreSQL, nginx and Redis during play is reported as well.

Prints one JSON object (progress goes to stderr) with the rooms, clients, actions, latency
p50/p95/p99, memory per client, errors, the database check and the issue's targets: 50 rooms
with 4 connected clients each, p95 action-to-update latency at most 150 ms, no errors, no lost
actions.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import gc
import json
import os
import platform
import random
import re
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import nicegui
from phones import Browser, Page, StepFailed, acker, address, claim_seat
from serving import Cluster, cpu_capped, free_port, run, spawn, stop_server, tail
from sqlalchemy import create_engine, text

from parcheesi.server.migrate import sync_url
from parcheesi.server.shards import room_key, shard_of

ROOT = Path(__file__).resolve().parent.parent
COLOURS = ("ruby", "emerald", "sapphire", "amber")
SEATS = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}
"""Colours in play for 2, 3 and 4 players (the form's defaults: Ruby with Sapphire; Amber
sits out of a 3-player game)."""
TARGET_ROOMS = 50
TARGET_CLIENTS_PER_ROOM = 4
TARGET_P95_MS = 150.0
REFUSAL_STARTS = ("The game ", "It is ", "This browser ")
"""How the server's refusals begin (``LiveGame.act``, ``Rooms.act``); the engine's own
refusals begin in lower case. What a phone's status line shows after an accepted action
describes the action and begins with a seat name."""
EXAMPLES_PER_KIND = 3


def log(message: str) -> None:
    print(f"[rooms] {message}", file=sys.stderr, flush=True)


THINKING = random.Random(2026)
"""The players' thinking times (seeded: runs with the same arguments press alike)."""


@dataclass
class Stats:
    """Everything measured, shared by all phones."""

    latency: list[float] = field(default_factory=list)
    """Action-to-update, ms, one sample per action and phone of the room."""
    acting: list[float] = field(default_factory=list)
    others: list[float] = field(default_factory=list)
    select: list[float] = field(default_factory=list)
    """Piece selection (a local redraw of the acting phone only), ms."""
    errors: Counter[str] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)
    sent: int = 0
    selections: int = 0
    games_finished: int = 0
    notifications: Counter[str] = field(default_factory=Counter)

    def error(self, kind: str, detail: str = "") -> None:
        self.errors[kind] += 1
        if self.errors[kind] <= EXAMPLES_PER_KIND:
            self.examples.append(f"{kind}: {detail}" if detail else kind)


# --- a room of phones ------------------------------------------------------------------------


@dataclass
class Action:
    actor: Page
    kind: str
    sent: float
    before: int | None
    """The game version the actor's table showed when it pressed (``Page.shown_version``)."""
    seen_by: int = 0
    accepted: bool | None = None
    """As the actor's own update shows it: None until that update arrives."""


class Room:
    """The phones of one room and the actions they made, for attributing updates."""

    def __init__(self, index: int, stats: Stats) -> None:
        self.index = index
        self.stats = stats
        self.code = ""
        self.browsers: list[Browser] = []
        self.pages: list[Page] = []
        self.host: Page | None = None
        self.actions: list[Action] = []
        self.next_game_at = 0.0
        """When the host last pressed "New game" (play again)."""

    def attach(self, page: Page) -> None:
        page.on_board = self.board_update
        page.on_new_table = self.new_table
        self.pages.append(page)

    def detach(self, page: Page) -> None:
        page.on_board = page.on_new_table = None
        if page in self.pages:
            self.pages.remove(page)

    def register(self, actor: Page, kind: str) -> int:
        """A click is about to be sent: who must see a board update for it. Returns the
        number of updates the actor must have received to have seen its own."""
        now = time.perf_counter()
        if kind == "select":
            actor.expect.append((-1, now))
            actor.expected += 1
            return actor.expected
        self.actions.append(Action(actor, kind, now, actor.shown_version()))
        k = len(self.actions) - 1
        for page in self.pages:
            page.expect.append((k, now))
            page.expected += 1
        return actor.expected

    def board_update(self, page: Page, now: float) -> None:
        if not page.expect:
            self.stats.error("unexpected update", f"room {self.code}")
            return
        k, sent = page.expect.popleft()
        page.received += 1
        ms = (now - sent) * 1000
        if k < 0:
            self.stats.select.append(ms)
            return
        action = self.actions[k]
        if page is action.actor:
            action.accepted = page.shown_version() != action.before
            if not action.accepted:
                self.not_accepted(k, page.text("status"))
                return
            self.stats.acting.append(ms)
        else:
            self.stats.others.append(ms)
            action.seen_by += 1
        self.stats.latency.append(ms)

    def not_accepted(self, k: int, status: str) -> None:
        """The actor's table did not move on (its redraw after the press shows the same game
        version): the other phones will not redraw for action ``k``."""
        action = self.actions[k]
        if status.startswith(REFUSAL_STARTS) or status[:1].islower():
            self.stats.error("refused", f"room {self.code}: {action.kind}: {status}")
        else:  # no refusal shown: the server failed (its log says why)
            self.stats.error("failed", f"room {self.code}: {action.kind} changed nothing")
        for page in self.pages:
            if page is not action.actor:
                kept = deque(e for e in page.expect if e[0] != k)
                page.expected -= len(page.expect) - len(kept)
                page.expect = kept

    def new_table(self, page: Page) -> None:
        """The next game's table replaced the finished one: updates still expected for the
        finished game will not come. (The host may already have acted in the next game.)"""
        stale = [e for e in page.expect if e[1] < self.next_game_at]
        if stale:
            self.stats.error("missing update", f"room {self.code}: {len(stale)} before the "
                             "next game")
            page.expect = deque(e for e in page.expect if e[1] >= self.next_game_at)
            page.received += len(stale)

    def accepted_seen(self) -> int:
        """Actions the phones saw accepted: the actor's table moved on, or another phone
        redrew for it."""
        return sum(1 for a in self.actions if a.accepted or a.seen_by > 0)


async def set_up_room(room: Room, base: str, addresses: list[str], players: int,
                      timeout: float, concurrent_guests: bool = False) -> None:
    """Host and guests, all through the pages, until every phone shows the table."""
    colours = SEATS[players]
    host_browser = Browser(base, addresses[0], room.stats)
    room.browsers.append(host_browser)
    form = await host_browser.open("/new", timeout)
    try:
        await form.choose("player-count", players - 2, None, timeout)
        await form.choose("mode", 2, None, timeout)  # Solo, Same device, Online room
        for colour in colours[1:]:
            await form.choose(f"kind-{COLOURS[colour]}", 0, "Invited player", timeout)
        start = await form.wait(lambda: form.first("start-game"), timeout, "Start game")
        await form.click(start)
        path = await form.wait(lambda: form.navigated, timeout, "navigation to the room")
    finally:
        await form.close()  # the browser leaves /new
    match = re.fullmatch(r"/room/([A-Z2-9]{8})", path)
    if match is None:
        raise StepFailed(f"host was sent to {path!r}, not a room")
    room.code = match.group(1)

    async def lobby(page: Page) -> None:
        await page.wait(lambda: page.first("room-code"), timeout, "lobby")

    room.host = await open_with_reload(room, host_browser, path, lobby, timeout)

    async def guest(colour: int, address: str) -> None:
        browser = Browser(base, address, room.stats)
        room.browsers.append(browser)
        await open_with_reload(room, browser, path,
                               lambda p: claim_seat(p, COLOURS[colour], timeout), timeout)

    guests = list(zip(colours[1:], addresses[1:], strict=True))
    if concurrent_guests:
        await asyncio.gather(*(guest(c, a) for c, a in guests))
    else:  # one after the other, as people arriving a moment apart do
        for colour, where in guests:
            await guest(colour, where)
    host = room.host
    start = await host.wait(lambda: host.enabled(host.first("start-game"))
                            and host.first("start-game"), timeout, "an enabled Start game")
    await host.click(start)

    async def table(page: Page) -> None:
        await page.wait(lambda: page.board_id is not None and page.first("roll"), timeout,
                        "table")
        on_board, page.on_board = page.on_board, None  # the setting's redraw is no action's
        try:
            await page.two_step_moves(timeout)
        finally:
            page.on_board = on_board

    for page in list(room.pages):
        try:
            await table(page)
        except StepFailed as error:
            room.stats.error("reload", f"{error}; page reloaded")
            room.detach(page)
            await page.close()
            reopened = await open_with_reload(room, page.browser, path, table, timeout)
            if page is room.host:
                room.host = reopened


async def open_with_reload(room: Room, browser: Browser, path: str,
                           step: Callable[[Page], Awaitable[None]], timeout: float) -> Page:
    """Open ``path`` and do ``step`` on it; when the page stalls, reload it once, as a person
    would (the reload counts as an error)."""
    for attempt in (1, 2):
        page = await browser.open(path, timeout)
        room.attach(page)
        try:
            await step(page)
            return page
        except StepFailed as error:
            room.detach(page)
            await page.close()
            if attempt == 2:
                raise
            room.stats.error("reload", f"{error}; page reloaded")
    raise AssertionError("unreachable")


# --- play -----------------------------------------------------------------------------------


def choice(page: Page, room: Room) -> tuple[str, str] | None:
    """What a player would press now: (kind, element id), or None while it is not their turn."""
    if page is room.host and (again := page.first("play-again")) is not None:
        return "again", again
    options = [k for k in page.find("move-option") if page.enabled(k)]
    if options:
        return "move", options[0]
    roll = page.first("roll")
    if page.enabled(roll):
        assert roll is not None
        return "roll", roll
    for piece in range(1, 5):
        key = page.first(f"piece-{piece}")
        if page.enabled(key):
            assert key is not None
            return "select", key
    return None


def tables_beyond(page: Page, tables: int) -> bool:
    return page.tables > tables


def received_up_to(page: Page, target: int) -> bool:
    return page.received >= target


def caught_up(page: Page) -> bool:
    """Every update the page waits for has arrived."""
    return not page.expect


async def play(page: Page, room: Room, deadline: float, think: float, step_timeout: float
               ) -> None:
    """Act for this phone's seat whenever it may, until the deadline."""
    stats = room.stats
    loop = asyncio.get_running_loop()
    while loop.time() < deadline:
        picked = choice(page, room)
        if picked is None:
            await page.changed(deadline - loop.time())
            continue
        if think > 0:
            # People do not think in lockstep: a fixed pause would make all rooms press
            # within the same few milliseconds every round, a burst no real evening has.
            await asyncio.sleep(THINKING.uniform(0.5 * think, 1.5 * think))
            if loop.time() >= deadline or choice(page, room) != picked:
                continue
        kind, key = picked
        try:
            if kind == "again":
                tables = page.tables
                room.next_game_at = time.perf_counter()
                await page.click(key)
                stats.games_finished += 1
                await page.wait(functools.partial(tables_beyond, page, tables), step_timeout,
                                "next game")
                continue
            target = room.register(page, kind)
            await page.click(key)
            if kind == "select":
                stats.selections += 1
            else:
                stats.sent += 1
            await page.wait(functools.partial(received_up_to, page, target), step_timeout,
                            f"update after {kind}")
        except StepFailed as error:
            stats.error("timeout", str(error))
            await page.changed(min(1.0, max(0.0, deadline - loop.time())))
        except Exception as error:  # e.g. the connection is gone: this phone stops playing
            stats.error("exception", f"{page.path}: {type(error).__name__}: {error}")
            return


# --- the server ------------------------------------------------------------------------------


def start_server(port: int, workdir: Path, pace: float) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PARCHEESI_", "NICEGUI_"))}
    env.update(PARCHEESI_DATA_DIR=str(workdir / "data"),
               NICEGUI_STORAGE_PATH=str(workdir / "storage"), PYTHONUNBUFFERED="1")
    command = [sys.executable, str(ROOT / "app.py"), "--host", "127.0.0.1", "--port", str(port),
               "--pace", str(pace)]
    return spawn(command, ROOT, env, workdir / "server.log")


def wait_serving(proc: subprocess.Popen[bytes], base: str, log_path: Path,
                 timeout: float = 60) -> None:
    """Until the server answers its rules page (a page that needs no websocket)."""
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}:\n{tail(log_path)}")
        try:
            with urllib.request.urlopen(f"{base}/rules", timeout=2):
                return
        except urllib.error.HTTPError:
            return
        except (urllib.error.URLError, OSError):
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"server not answering after {timeout:.0f} s:\n{tail(log_path)}")
        time.sleep(0.1)


def proc_status(*pids: int) -> dict[str, int]:
    """VmRSS and VmHWM of the server processes (added up over a cluster's shards), in KiB."""
    values = {"VmRSS": 0, "VmHWM": 0}
    for pid in pids:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                name, _, rest = line.partition(":")
                if name in values:
                    values[name] += int(rest.split()[0])
    return values


def cpu_seconds(*pids: int) -> float:
    """User plus system CPU time of the server processes (all their threads)."""
    return sum(cpu_of(pids).values())


def cpu_of(pids: Iterable[int]) -> dict[int, float]:
    """User plus system CPU seconds of each process of ``pids`` that still runs."""
    found = {}
    for pid in pids:
        with contextlib.suppress(OSError):
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            found[pid] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return found


class ServicesCpu:
    """The CPU a cluster's PostgreSQL, nginx and Redis use over a while, by name (a process
    that starts meanwhile counts from nothing; one that ends before the end is not counted)."""

    def __init__(self, services: Callable[[], dict[str, list[int]]]) -> None:
        self.services = services
        self.start = {name: cpu_of(pids) for name, pids in services().items()}

    def used(self) -> dict[str, float]:
        return {name: sum(seconds - self.start.get(name, {}).get(pid, 0.0)
                          for pid, seconds in cpu_of(pids).items())
                for name, pids in self.services().items()}


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def server_log_errors(path: Path) -> tuple[int, int, list[str]]:
    """(error lines, refusals logged, examples) from the server's output."""
    errors, refusals = 0, 0
    examples: list[str] = []
    lines = path.read_text(errors="replace").splitlines()
    for k, line in enumerate(lines):
        level, message = "", line
        if line.startswith("{"):
            with contextlib.suppress(ValueError):
                entry = json.loads(line)
                level = str(entry.get("level", "")).lower()
                message = str(entry.get("message", ""))
        if "rejected" in message and level == "info":
            refusals += 1
        if level in ("error", "critical") or (not level and re.search(
                r"Traceback|\bERROR\b|\bCRITICAL\b|Exception", line)):
            errors += 1
            if len(examples) < 5:
                examples.append(_with_exception(line, lines[k + 1:])[:400])
    return errors, refusals, examples


def _with_exception(line: str, after: list[str]) -> str:
    """A traceback's first line with the exception that ends it (the first line after it
    that is not indented)."""
    if not line.startswith("Traceback"):
        return line
    end = next((x for x in after if x and not x.startswith((" ", "\t"))), "")
    return f"{line} ... {end}"


ROOM_GAMES = ("SELECT g.owner, g.version, (SELECT COUNT(*) FROM actions a "
              "WHERE a.game_id = g.id) FROM games g WHERE g.owner LIKE 'room:%'")


def database_versions(path: Path | str) -> dict[str, dict[str, int]]:
    """Per room code: its games, the sum of their versions and of their action rows (in the
    SQLite file ``path``, or a cluster's PostgreSQL database at URL ``path``)."""
    rooms: dict[str, dict[str, int]] = {}
    if isinstance(path, str):
        engine = create_engine(sync_url(path))
        with engine.connect() as connection:
            rows = [tuple(row) for row in connection.execute(text(ROOM_GAMES))]
        engine.dispose()
    else:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            rows = db.execute(ROOM_GAMES).fetchall()
    for owner, version, actions in rows:
        entry = rooms.setdefault(owner.removeprefix("room:"),
                                 {"games": 0, "versions": 0, "action_rows": 0})
        entry["games"] += 1
        entry["versions"] += int(version)
        entry["action_rows"] += int(actions)
    return rooms


# --- figures ---------------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float | None:
    """Linear interpolation between closest ranks (numpy's default)."""
    if not values:
        return None
    ordered = sorted(values)
    position = (len(ordered) - 1) * q
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def summary(values: list[float]) -> dict[str, Any]:
    def r(value: float | None) -> float | None:
        return None if value is None else round(value, 1)

    return {"samples": len(values), "p50": r(percentile(values, 0.50)),
            "p95": r(percentile(values, 0.95)), "p99": r(percentile(values, 0.99)),
            "max": r(max(values) if values else None),
            "mean": r(sum(values) / len(values) if values else None)}


def code_version() -> dict[str, Any]:
    """The commit measured, and whether the work tree differed from it."""
    def git(*args: str) -> str:
        try:
            return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                                  timeout=10, check=False).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""

    changed = [line for line in git("status", "--porcelain", "--untracked-files=no")
               .splitlines() if line.strip()]
    return {"commit": git("rev-parse", "--short", "HEAD") or None,
            "uncommitted_changes": len(changed)}


# --- the run ---------------------------------------------------------------------------------


async def drive(base: str, pid: list[int], args: argparse.Namespace,
                services: Callable[[], dict[str, list[int]]] | None = None) -> dict[str, Any]:
    """Set the rooms up and play; ``pid``: the server's processes (a cluster's shards);
    ``services``: a cluster's other processes (``Cluster.services``)."""
    stats = Stats()
    players = args.clients_per_room
    rooms = [Room(i, stats) for i in range(args.rooms)]
    live: list[Room] = []

    # warm-up: the pages' first rendering (imports, templates), so the memory baseline
    # counts what the clients cost rather than what any first visitor costs
    # (one browser: a cluster sends a page to its browser's shard, known by the cookie)
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
        for path in ("/rules", "/new", "/rules"):
            async with session.get(base + path) as response:
                await response.read()
    await asyncio.sleep(1.0)
    before = proc_status(*pid)
    log(f"server RSS before clients: {before['VmRSS'] / 1024:.1f} MiB")

    stop_acks = asyncio.Event()
    ack_task = asyncio.create_task(acker(lambda: [p for r in live for p in r.pages], stop_acks))
    limit = asyncio.Semaphore(args.setup_concurrency)
    setup_started = time.perf_counter()

    async def set_up(room: Room) -> None:
        async with limit:
            first = room.index * players
            try:
                await set_up_room(room, base, [address(first + k) for k in range(players)],
                                  players, args.step_timeout, args.concurrent_guests)
                live.append(room)
            except Exception as error:  # any failure: count it, leave the room out
                stats.error("setup", f"room {room.index}: {type(error).__name__}: {error}")
                for browser in room.browsers:
                    await browser.close()

    try:
        await asyncio.wait_for(asyncio.gather(*(set_up(r) for r in rooms)), args.setup_timeout)
    except TimeoutError:
        stats.error("setup", f"not all rooms ready within {args.setup_timeout:.0f} s")
    setup_s = time.perf_counter() - setup_started
    live = [r for r in live if len(r.pages) == players and all(p.board_id for p in r.pages)]
    clients = sum(len(r.pages) for r in live)
    log(f"{len(live)} rooms with {clients} clients at their tables after {setup_s:.1f} s")
    await asyncio.sleep(1.0)
    connected = proc_status(*pid)
    # Keep this process's own garbage collector from pausing the phones (and so adding to
    # the latencies they measure): the pages built so far are never scanned again.
    gc.collect()
    gc.freeze()

    loop = asyncio.get_running_loop()
    load_before = os.getloadavg()[0]
    play_started = time.perf_counter()
    server_cpu, own_cpu = cpu_seconds(*pid), own_cpu_seconds()
    services_cpu = None if services is None else ServicesCpu(services)
    deadline = loop.time() + args.duration
    players_tasks = [asyncio.create_task(play(p, r, deadline, args.think, args.step_timeout))
                     for r in live for p in r.pages]
    rss_samples = []
    while loop.time() < deadline:
        await asyncio.sleep(min(5.0, max(0.0, deadline - loop.time())))
        rss_samples.append(proc_status(*pid)["VmRSS"])
        log(f"{loop.time() - deadline + args.duration:.0f} s: {stats.sent} actions, "
            f"{len(stats.latency)} latency samples, {sum(stats.errors.values())} errors")
    play_s = time.perf_counter() - play_started
    server_cpu = cpu_seconds(*pid) - server_cpu
    own_cpu = own_cpu_seconds() - own_cpu
    others_cpu = {} if services_cpu is None else services_cpu.used()
    load_after = os.getloadavg()[0]
    await asyncio.gather(*players_tasks)  # presses in flight end (or time out) on their own

    # drain: the last actions' updates may still be on their way
    drain_deadline = loop.time() + args.drain
    for room in live:
        for page in room.pages:
            with contextlib.suppress(StepFailed):
                await page.wait(functools.partial(caught_up, page),
                                max(0.0, drain_deadline - loop.time()), "outstanding updates")
    missing = sum(len(p.expect) for r in live for p in r.pages)
    if missing:
        stats.error("missing update", f"{missing} updates never arrived")
        stats.errors["missing update"] += missing - 1
    end = proc_status(*pid)
    stop_acks.set()
    await ack_task
    for room in rooms:
        # Closing a phone redraws the others of its room ("Sam is away"): not an action's
        for page in list(room.pages):
            room.detach(page)
        for browser in room.browsers:
            await browser.close()

    increase = max(connected["VmRSS"], end["VmRSS"]) - before["VmRSS"]
    return {
        "stats": stats, "live": live, "clients": clients, "setup_s": setup_s,
        "play_s": play_s, "server_cpu": server_cpu, "own_cpu": own_cpu,
        "others_cpu": others_cpu,
        "load": [round(load_before, 2), round(load_after, 2)],
        "memory": {
            "rss_before_mib": round(before["VmRSS"] / 1024, 1),
            "rss_connected_mib": round(connected["VmRSS"] / 1024, 1),
            "rss_end_of_play_mib": round(end["VmRSS"] / 1024, 1),
            "rss_peak_mib": round(max([end["VmHWM"], *rss_samples]) / 1024, 1),
            "per_client_kib": round(increase / clients, 1) if clients else None,
        },
    }


def by_shard(seen: dict[str, int], shards: int) -> list[dict[str, int]]:
    """A cluster's rooms and the accepted actions the phones saw, by the shard that owns the
    room (random codes rarely split the rooms evenly)."""
    counts = [{"rooms": 0, "accepted_seen": 0} for _ in range(shards)]
    for code, accepted in seen.items():
        entry = counts[shard_of(room_key(code), shards)]
        entry["rooms"] += 1
        entry["accepted_seen"] += accepted
    return counts


def report(args: argparse.Namespace, measured: dict[str, Any], workdir: Path,
           database: dict[str, dict[str, int]]) -> dict[str, Any]:
    stats: Stats = measured["stats"]
    live: list[Room] = measured["live"]
    log_errors, log_refusals, log_examples = server_log_errors(workdir / "server.log")
    if log_errors:
        stats.errors["server log"] += log_errors
        stats.examples.extend(f"server log: {line}" for line in log_examples)
    seen = {room.code: room.accepted_seen() for room in live}
    versions = {code: database.get(code, {}).get("versions", 0) for code in seen}
    lost = sum(abs(versions[code] - seen[code]) for code in seen)
    inconsistent = sum(1 for entry in database.values()
                       if entry["versions"] != entry["action_rows"])
    actions = [a for r in live for a in r.actions]
    not_accepted = sum(1 for a in actions if a.accepted is False)
    unanswered = sum(1 for a in actions if a.accepted is None)
    unseen = sum(1 for a in actions if a.accepted and a.seen_by == 0)
    if unseen:
        stats.error("unseen", f"{unseen} accepted actions no other phone of the room saw")
        stats.errors["unseen"] += unseen - 1
    if inconsistent:
        stats.error("database", f"{inconsistent} games whose version differs from their "
                    "action rows")
        stats.errors["database"] += inconsistent - 1
    total_errors = sum(stats.errors.values())
    latency = summary(stats.latency)
    clients = measured["clients"]
    play_s = measured["play_s"]
    met = {
        "size": len(live) >= TARGET_ROOMS and clients >= TARGET_ROOMS * TARGET_CLIENTS_PER_ROOM,
        "p95_latency": latency["p95"] is not None and latency["p95"] <= TARGET_P95_MS,
        "no_errors": total_errors == 0,
        "no_lost_actions": lost == 0 and bool(seen),
    }
    met["all"] = all(met.values())
    return {
        "benchmark": "rooms",
        "method": "simulated phones speaking NiceGUI's protocol (HTTP page load, socket.io "
                  "with the page's client id, element events, localStorage answers to "
                  "run_javascript), one loopback address each; rooms created, claimed, readied "
                  "and started through the pages",
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "nicegui": nicegui.__version__, "system": platform.platform(),
                    "load_average_1min_at_start_and_end_of_play": measured["load"]},
        "code": code_version(),
        "config": {"cluster_shards": args.cluster, "shard_cpu_cap": args.shard_cpu,
                   "rooms": args.rooms, "clients_per_room": args.clients_per_room,
                   "duration_s": args.duration, "think_s": args.think, "pace": args.pace,
                   "setup_concurrency": args.setup_concurrency,
                   "concurrent_guests": args.concurrent_guests},
        "rooms": len(live),
        "clients": clients,
        "setup_s": round(measured["setup_s"], 1),
        "play_s": round(play_s, 1),
        "actions": {
            "sent": stats.sent,
            "accepted_seen": sum(seen.values()),
            "not_accepted": not_accepted,
            "unanswered": unanswered,
            "per_s": round(stats.sent / args.duration, 1),
            "piece_selections": stats.selections,
            "games_finished": stats.games_finished,
        },
        "by_shard": by_shard(seen, args.cluster),
        "latency_ms": latency,
        "latency_ms_acting_client": summary(stats.acting),
        "latency_ms_other_clients": summary(stats.others),
        "piece_selection_ms": summary(stats.select),
        "memory": measured["memory"],
        "cpu": {
            "server_pct_of_one_core": round(100 * measured["server_cpu"] / play_s, 1),
            "benchmark_pct_of_one_core": round(100 * measured["own_cpu"] / play_s, 1),
            **{f"{name}_pct_of_one_core": round(100 * seconds / play_s, 1)
               for name, seconds in measured["others_cpu"].items()},
        },
        "database": {
            "room_games": sum(e["games"] for e in database.values()),
            "versions": sum(versions.values()),
            "lost_actions": lost,
            "games_with_versions_unlike_action_rows": inconsistent,
            "refusals_in_server_log": log_refusals,
        },
        "errors": {"total": total_errors, "by_kind": dict(stats.errors),
                   "examples": stats.examples},
        "notifications": dict(stats.notifications),
        "targets": {"rooms": TARGET_ROOMS, "clients": TARGET_ROOMS * TARGET_CLIENTS_PER_ROOM,
                    "p95_latency_ms": TARGET_P95_MS, "errors": 0, "lost_actions": 0},
        "met": met,
    }


def in_cluster(args: argparse.Namespace, workdir: Path
               ) -> tuple[dict[str, Any], dict[str, dict[str, int]]]:
    """The run through a cluster's proxy (``scripts/cluster.sh``, as ``cluster.py`` brings
    it up): the figures, and its database's rooms. The shards' logs become ``server.log``."""
    os.chmod(workdir, 0o711)  # PostgreSQL's own user reaches its folder inside
    cluster = Cluster(args.cluster, workdir / "cluster")
    cluster.up()
    try:
        shards = {f"shard-{i}": pid for i in range(args.cluster)
                  if (pid := cluster.pid(i)) is not None}
        pids = list(shards.values())
        log(f"cluster of {args.cluster} shards up on {cluster.base} (pids {pids})")
        with cpu_capped(shards, args.shard_cpu) if args.shard_cpu else contextlib.nullcontext():
            measured = run(drive(cluster.base, pids, args, cluster.services))
        database = database_versions(cluster.database_url)
    finally:
        cluster.down()
    with (workdir / "server.log").open("w") as joined:
        for path in cluster.logs():
            joined.write(path.read_text(errors="replace"))
    return measured, database


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, default=TARGET_ROOMS)
    parser.add_argument("--clients-per-room", type=int, default=TARGET_CLIENTS_PER_ROOM,
                        choices=(2, 3, 4), help="players (all people) per room")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of play")
    parser.add_argument("--think", type=float, default=2.0,
                        help="mean seconds a player waits before each press, drawn uniformly "
                             "from 0.5x to 1.5x (0: press at once, which saturates the server)")
    parser.add_argument("--pace", type=float, default=0.05, help="the server's --pace")
    parser.add_argument("--setup-concurrency", type=int, default=10,
                        help="rooms being set up at the same time")
    parser.add_argument("--setup-timeout", type=float, default=300.0,
                        help="seconds allowed for setting up all rooms")
    parser.add_argument("--step-timeout", type=float, default=15.0,
                        help="seconds one step may take (an answer to a click, a page load)")
    parser.add_argument("--concurrent-guests", action="store_true",
                        help="guests of a room open, claim and get ready all at once "
                             "(default: one after the other)")
    parser.add_argument("--server-log", metavar="FILE",
                        help="keep a copy of the server's output in FILE")
    parser.add_argument("--cluster", type=int, default=0, metavar="N",
                        help="play through the proxy of a cluster of N shards "
                             "(scripts/cluster.sh) instead of one server process")
    parser.add_argument("--shard-cpu", type=float, default=0.0, metavar="CORES",
                        help="with --cluster: each shard may use at most this much of one "
                             "core (a CPU cgroup of its own; needs root), so the shards have "
                             "a share the phones, PostgreSQL and nginx cannot take")
    parser.add_argument("--drain", type=float, default=15.0,
                        help="seconds to wait for outstanding updates after play")
    args = parser.parse_args()
    if not 1 <= args.rooms <= 2000 or not 0 < args.duration <= 3600:
        parser.error("rooms must be 1..2000 and duration 0..3600 s")
    if args.shard_cpu and (not args.cluster or not 0 < args.shard_cpu <= os.cpu_count()):
        parser.error("--shard-cpu needs --cluster and a share of 0 to the machine's cores")

    with tempfile.TemporaryDirectory(prefix="parcheesi-rooms-") as tmp:
        workdir = Path(tmp)
        if args.cluster:
            measured, database = in_cluster(args, workdir)
        else:
            port = free_port()
            base = f"http://127.0.0.1:{port}"
            server = start_server(port, workdir, args.pace)
            try:
                wait_serving(server, base, workdir / "server.log")
                log(f"server up on {base} (pid {server.pid}, data in {workdir / 'data'})")
                measured = run(drive(base, [server.pid], args))
            finally:
                stop_server(server)
            database = database_versions(workdir / "data" / "parcheesi.sqlite3")
        result = report(args, measured, workdir, database)
        if args.server_log:
            Path(args.server_log).write_bytes((workdir / "server.log").read_bytes())
        if result["errors"]["by_kind"].get("server log"):
            log("server log tail:\n" + tail(workdir / "server.log", 30))
    print(json.dumps(result, indent=1), flush=True)


if __name__ == "__main__":
    main()
