"""Drills: exactly-once and fault behaviour of the real server, driven as phones drive it.

    .venv/bin/python benchmarks/chaos.py DRILL [--trials N] [options]
    .venv/bin/python benchmarks/chaos.py --drill DRILL [--trials N]
    .venv/bin/python benchmarks/chaos.py --all

Drills (default trials; target):

- ``races`` (1,000 per race; 0 duplicate actions): presses that arrive together must make
  one action: the same seat in two tabs pressing Roll at once, host and guest pressing Roll
  on the host's turn (the guest's press is a frame on its own Roll button), a double click
  online and on a shared screen, two tabs of one seat pressing the same movement;
- ``restart`` (20; 0 split rooms): a room of four phones through a server restart, all
  phones reloading at the same moment, then every action seen by every phone;
- ``kill-win`` (10; 0 stuck rooms): the server killed (SIGKILL) right after a room's winning
  move is committed; after the restart the host's New game must start the next game;
- ``lock`` (4; 0 frozen games): another process holds the database for 8 s while a computer
  is to act in a solo game; play must resume within 5 s of the release, without a reload;
- ``kill-cycles`` (100; 0 lost actions): a room and a shared-screen game played without
  pause through repeated SIGKILLs; every action a phone saw accepted must be stored;
- ``bad-presses`` (10,000; 0 state changes): forged, stale, replayed, wrong-seat and
  cross-socket presses while legitimate play pauses;
- ``malformed`` (37 kinds; 0 tracebacks): 25 kinds of malformed socket.io and engine.io
  packets; every field of every message given every wrong type (``hostile.py``) from
  sockets with and without a page; wrong arguments to every listener of ten kinds of page;
- ``flood`` (1 run; the flooding socket disconnected within 2 s, the room's p95
  action-to-update latency under 50 ms meanwhile);
- ``memory`` (6,000 page loads and 50 rooms; retained memory back within 10% of idle).

``attacks.py`` holds the drills of a hostile network (a reconnect storm, a flood of page
loads, room codes guessed from thousands of addresses) and ``/health`` during a lock.

Everything goes through the server's own pages over HTTP and NiceGUI's socket.io protocol
(``phones.py``: each phone has its own cookie jar, ``localStorage``, tab and loopback
address). A press is the ``event`` frame the page sends; where a control carries a
``data-stamp`` (the game version the page shows and a per-tab counter) the press sends it,
and a stale or forged press is the same frame with another stamp. Phones press at most 15
frames a second each (``Pacer``): faster than any person, slower than the server's
per-socket message quota, so every press reaches the page. A race's trial ends when no page
has received anything for ``--quiet`` seconds (0.25). The database is only read (SQLite,
read-only), except that ``kill-win`` extends a game offline, with the project's own engine,
while the server is stopped.

The server is ``app.py --host 127.0.0.1 --port <free> --pace 0.05`` in its own process group,
with ``PARCHEESI_DATA_DIR`` and NiceGUI's storage in a temporary directory (restarts reuse
them); every server is stopped at the end in every case. ``--app-dir`` serves another
checkout's ``app.py`` (for instance a copy of the last commit while the work tree changes).

Progress goes to stderr; each drill prints one JSON object on stdout (its figures, target,
whether it was met, the machine's cores and load average, the time and the code measured);
``--all`` prints them one per line, then a summary table.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import functools
import gc
import hashlib
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import traceback
import uuid
import weakref
from collections import Counter
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import hostile
from hostile import packet
from phones import Browser, Page, StepFailed, acker, address, claim_seat, parse_page
from rooms import (
    code_version,
    cpu_seconds,
    percentile,
    proc_status,
    server_log_errors,
    wait_serving,
)
from serving import free_port, spawn, stop_server, tail

from parcheesi.core.actions import Roll
from parcheesi.core.state import Phase
from parcheesi.games.parcheesi import ai
from parcheesi.games.parcheesi.board import COLOUR_INDEX, COLOURS
from parcheesi.games.parcheesi.notation import action_from_json, action_to_json, state_to_json
from parcheesi.games.parcheesi.state import State
from parcheesi.games.parcheesi.turns import Action, Game, roll_outcomes

ROOT = Path(__file__).resolve().parent.parent

SEAT_NAMES = tuple(c.title() for c in COLOURS)
INFO_STARTS = (*SEAT_NAMES, "Tie for the start", "Third doubles", "Hint:",
               "A hint is available")
"""How a status line that reports the game (not a refusal) begins: what happened names a
seat first; the hint explains itself."""
HUMAN, COMPUTER = ({"value": 0, "label": "Human"}, {"value": 1, "label": "Computer"})
INVITED = {"value": 0, "label": "Invited player"}
SOLO, SAME_DEVICE, ONLINE = 0, 1, 2
"""The set-up form's modes, in the order its toggle shows them."""
EXAMPLES = 5
DEFAULT_TRIALS = {"races": 1000, "restart": 20, "kill-win": 10, "lock": 4,
                  "kill-cycles": 100, "bad-presses": 10_000, "malformed": 25, "flood": 1,
                  "memory": 6000}
"""Trials per drill (races: per race; malformed: kinds; flood: runs; memory: page loads)."""


def log(message: str) -> None:
    print(f"[chaos] {message}", file=sys.stderr, flush=True)


@dataclass
class Options:
    """Settings shared by the drills (command-line flags)."""

    trials: int | None = None
    pace: float = 0.05
    timeout: float = 15.0
    """Seconds one step may take (a page load, the answer to a press)."""
    quiet: float = 0.25
    """Seconds without a message after which a race's presses are all answered."""
    see_timeout: float = 5.0
    """restart: seconds every phone has to show another phone's action."""
    lock_s: float = 8.0
    resume_s: float = 5.0
    flood_s: float = 10.0
    rooms: int = 50
    """memory: rooms that play a game to the end and are left."""
    prune_wait: float = 420.0
    """memory: seconds to wait for the server to let go of left pages."""
    together: bool = False
    """memory: one wait after both phases instead of one after each (shorter)."""
    unloads: bool = True
    """memory: wait for idle games and rooms to unload too, not only for pages to go (the
    server unloads them after five idle minutes)."""
    pages: int | None = None
    """malformed: how many kinds of page get wrong arguments to every listener, a room's
    table as its host sees it first, then a local table (None: all ten)."""
    app_dir: Path = ROOT
    seed: int = 2026

    def released(self) -> tuple[str, ...]:
        """memory: what must be back at its idle number before memory is compared."""
        return RELEASED if self.unloads else ("clients",)

    def count(self, drill: str) -> int:
        """The trials of this drill: as asked, else its default."""
        return self.trials if self.trials is not None else DEFAULT_TRIALS[drill]


@dataclass
class Tally:
    """What the phones reported (disconnects, notifications, unknown scripts)."""

    errors: Counter[str] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)
    notifications: Counter[str] = field(default_factory=Counter)
    last: dict[str, str] = field(default_factory=dict)
    """The newest detail of each kind (e.g. the last negative notification)."""

    def error(self, kind: str, detail: str = "") -> None:
        self.errors[kind] += 1
        self.last[kind] = detail
        if self.errors[kind] <= 3:
            self.examples.append(f"{kind}: {detail}" if detail else kind)

    def report(self) -> dict[str, Any]:
        return {"by_kind": dict(self.errors), "examples": self.examples[:12],
                "notifications": dict(self.notifications)}


# --- the server ------------------------------------------------------------------------------


class Server:
    """The real server as a subprocess; restarts keep its port and data directory."""

    def __init__(self, options: Options, workdir: Path, env: dict[str, str] | None = None
                 ) -> None:
        self.options = options
        self.workdir = workdir
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.extra_env = env or {}
        self.proc: subprocess.Popen[bytes] | None = None
        self.logs: list[Path] = []

    @property
    def database(self) -> Path:
        return self.workdir / "data" / "parcheesi.sqlite3"

    async def start(self) -> None:
        # as in production: none of this process's settings, nor pytest's (NiceGUI runs in
        # its test mode when it sees PYTEST_CURRENT_TEST)
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("PARCHEESI_", "NICEGUI_", "PYTEST_", "PYTHONTRACEMALLOC"))}
        env.update(PARCHEESI_DATA_DIR=str(self.workdir / "data"),
                   NICEGUI_STORAGE_PATH=str(self.workdir / "storage"), PYTHONUNBUFFERED="1",
                   **self.extra_env)
        app_dir = self.options.app_dir
        command = [sys.executable, str(app_dir / "app.py"), "--host", "127.0.0.1", "--port",
                   str(self.port), "--pace", str(self.options.pace)]
        path = self.workdir / f"server-{len(self.logs) + 1}.log"
        self.logs.append(path)
        self.proc = spawn(command, app_dir, env, path)
        await asyncio.to_thread(wait_serving, self.proc, self.base, path)

    async def stop(self) -> None:
        """SIGTERM, as a service manager stops it (stop_server escalates after 10 s)."""
        if self.proc is not None:
            await asyncio.to_thread(stop_server, self.proc)
            self.proc = None

    async def kill(self) -> None:
        """SIGKILL the whole process group: no shutdown code runs."""
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            await asyncio.to_thread(self.proc.wait)
            self.proc = None

    def lines(self) -> list[str]:
        out: list[str] = []
        for path in self.logs:
            with contextlib.suppress(OSError):
                out.extend(path.read_text(errors="replace").splitlines())
        return out

    def problems(self) -> tuple[int, list[str]]:
        """Error lines (tracebacks, ERROR, JSON records of level error) in all its logs."""
        count, examples = 0, []
        for path in self.logs:
            if path.exists():
                errors, _, found = server_log_errors(path)
                count += errors
                examples.extend(found)
        return count, examples[:EXAMPLES]

    def reports_memory(self) -> bool:
        """Whether the server catches SIGUSR1 (its memory report); an uncaught SIGUSR1
        would end it."""
        if self.proc is None:
            return False
        with open(f"/proc/{self.proc.pid}/status") as status:
            for line in status:
                if line.startswith("SigCgt:"):
                    return bool(int(line.split()[1], 16) & (1 << (signal.SIGUSR1 - 1)))
        return False

    async def memory(self) -> dict[str, Any]:
        """The server's own memory report (SIGUSR1: one JSON line in its log) and VmRSS."""
        assert self.proc is not None
        figures: dict[str, Any] = {"rss_kib": proc_status(self.proc.pid)["VmRSS"]}
        if not self.reports_memory():
            return figures
        before = len(self._memory_lines())
        os.kill(self.proc.pid, signal.SIGUSR1)
        deadline = time.monotonic() + 60  # a collection over thousands of pages takes long
        while time.monotonic() < deadline:
            found = self._memory_lines()
            if len(found) > before:
                figures.update({k: v for k, v in found[-1].items()
                                if k in ("objects", "traced_bytes", "clients", "live_games",
                                         "rooms")})
                return figures
            await asyncio.sleep(0.05)
        figures["error"] = "no memory report within 60 s of SIGUSR1"
        return figures

    def _memory_lines(self) -> list[dict[str, Any]]:
        found = []
        for line in self.lines():
            if '"memory"' in line and line.startswith("{"):
                with contextlib.suppress(ValueError):
                    entry = json.loads(line)
                    if entry.get("message") == "memory":
                        found.append(entry)
        return found


@contextlib.asynccontextmanager
async def serving(options: Options, env: dict[str, str] | None = None
                  ) -> AsyncIterator[Server]:
    """A started server in a fresh temporary directory, stopped (its group killed) at the end
    whatever happens."""
    with tempfile.TemporaryDirectory(prefix="parcheesi-chaos-") as tmp:
        server = Server(options, Path(tmp), env)
        try:
            await server.start()
            log(f"server up on {server.base} (data in {tmp})")
            yield server
        finally:
            proc = server.proc
            if proc is not None:
                await asyncio.to_thread(stop_server, proc)
            errors, _ = server.problems()
            if errors:
                log("server log tail:\n" + tail(server.logs[-1], 15))


# --- the database, read-only -----------------------------------------------------------------


class Db:
    """Read-only queries on the server's SQLite file (each on a connection of its own)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @contextlib.contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        with contextlib.closing(sqlite3.connect(f"file:{self.path}?mode=ro", uri=True,
                                                timeout=10)) as db:
            yield db

    def version(self, game_id: str) -> int:
        with self._read() as db:
            row = db.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()
        return int(row[0]) if row else -1

    def finished(self, game_id: str) -> bool:
        with self._read() as db:
            row = db.execute("SELECT finished FROM games WHERE id = ?", (game_id,)).fetchone()
        return bool(row and row[0])

    def games(self) -> dict[str, tuple[int, int]]:
        """Per game: its version and its number of action rows."""
        with self._read() as db:
            rows = db.execute("SELECT g.id, g.version, (SELECT COUNT(*) FROM actions a "
                              "WHERE a.game_id = g.id) FROM games g").fetchall()
        return {str(g): (int(v), int(n)) for g, v, n in rows}

    def room_game(self, code: str) -> str | None:
        with self._read() as db:
            row = db.execute("SELECT game_id FROM rooms WHERE code = ?", (code,)).fetchone()
        return str(row[0]) if row and row[0] else None

    def local_game(self) -> str | None:
        """The newest local game (the drills play at most one at a time)."""
        with self._read() as db:
            row = db.execute("SELECT id FROM games WHERE mode IN ('same_device', 'solo') "
                             "AND NOT abandoned ORDER BY created_at DESC LIMIT 1").fetchone()
        return str(row[0]) if row else None


def version_in(stamp: Any) -> int | None:
    """The game version in a stamp ("17.0"), if it is one."""
    if isinstance(stamp, str):
        head, dot, _ = stamp.partition(".")
        if dot and head.isdigit():
            return int(head)
    return None


# --- phones at a game ------------------------------------------------------------------------


@dataclass
class Phone:
    """One browser at a game and the page it has open there."""

    browser: Browser
    role: str
    """``host``, ``guest``, ``tab`` (a second tab of the host), ``watcher`` or ``local``."""
    page: Page
    tab_id: str | None = None

    @property
    def presses(self) -> bool:
        """Whether the game is played from this phone (second tabs and watchers look on)."""
        return self.role in ("host", "guest", "local")


@dataclass
class Party:
    """The phones of one game: an online room, or a local game on one browser."""

    path: str
    phones: list[Phone]
    code: str | None = None
    local_setup: dict[str, Any] = field(default_factory=dict)
    """For a local game: how the set-up form was filled (to start the next game)."""

    def pages(self) -> list[Page]:
        return [p.page for p in self.phones]

    def role(self, role: str) -> Phone:
        return next(p for p in self.phones if p.role == role)

    def game_id(self, db: Db) -> str:
        found = db.room_game(self.code) if self.code else db.local_game()
        if found is None:
            raise StepFailed(f"{self.path}: no game in the database")
        return found


def at_new_table(page: Page) -> bool:
    """At a table whose game is not over."""
    return at_table(page) and not page.first("winner")


def at_table(page: Page) -> bool:
    """The page shows a game (its board and its Roll), not the lobby or the form."""
    return page.board_id is not None and page.first("roll") is not None


async def fill_form(browser: Browser, timeout: float, *, mode: int, players: int,
                    kinds: dict[str, dict[str, Any]]) -> str:
    """Start a game through ``/new``; returns the path the form sends the browser to."""
    form = await browser.open("/new", timeout)
    try:
        await form.choose("player-count", players - 2, None, timeout)
        await form.choose("mode", mode, None, timeout)
        for colour, kind in kinds.items():
            await form.choose(f"kind-{colour}", kind["value"], kind["label"], timeout)
        start = await form.wait(lambda: form.first("start-game"), timeout, "Start game")
        await form.click(start)
        found = await form.wait(lambda: form.navigated or form.first("confirm-new-game"),
                                timeout, "navigation")
        if found != form.navigated:  # a local game in progress: abandon it
            await form.click(found)
            await form.wait(lambda: form.navigated, timeout, "navigation")
        assert form.navigated is not None
        return form.navigated
    finally:
        await form.close()


async def open_table(phone_browser: Browser, path: str, timeout: float,
                     tab_id: str | None = None) -> Page:
    """Open a game's page and wait for its table (where a press on a piece only selects it:
    ``Page.two_step_moves``)."""
    page = await phone_browser.open(path, timeout, tab_id)
    await page.wait(lambda: at_table(page), timeout, "the table")
    await page.two_step_moves(timeout)
    return page


async def room_party(base: str, tally: Tally, first_address: int, timeout: float, *,
                     players: int = 2, host_tabs: int = 1, watchers: int = 0,
                     computers: int = 0) -> Party:
    """A room through its pages: the host (Ruby) creates it, guests claim the other seats
    one after the other, the host starts; extra host tabs and watchers open it last."""
    colours = {2: ["ruby", "sapphire"], 3: ["ruby", "emerald", "sapphire"],
               4: list(COLOURS)}[players]
    people = colours[:players - computers]
    browsers: list[Browser] = []

    def browser() -> Browser:
        browsers.append(Browser(base, address(first_address + len(browsers)), tally))
        return browsers[-1]

    try:
        host = browser()
        path = await fill_form(host, timeout, mode=ONLINE, players=players, kinds={
            c: (INVITED if c in people else COMPUTER) for c in colours[1:]})
        if re.fullmatch(r"/room/([A-Z2-9]{8})", path) is None:
            raise StepFailed(f"the host was sent to {path!r}, not a room")
        phones = await _seat_people(host, [browser() for _ in people[1:]], people[1:], path,
                                    timeout)
        for _ in range(host_tabs - 1):
            tab_id = str(uuid.uuid4())
            phones.append(Phone(host, "tab", await open_table(host, path, timeout, tab_id),
                                tab_id))
        for watcher in [browser() for _ in range(watchers)]:
            phones.append(Phone(watcher, "watcher", await open_table(watcher, path, timeout)))
    except BaseException:  # whatever failed: no browser is left open
        for opened in browsers:
            await opened.close()
        raise
    return Party(path, phones, code=path.rsplit("/", 1)[-1])


async def _seat_people(host: Browser, guests: list[Browser], colours: list[str], path: str,
                       timeout: float) -> list[Phone]:
    """The lobby: the host waits, each guest claims a seat and is ready, the host starts;
    returns the phones once all show the table."""
    lobby = await host.open(path, timeout)
    await lobby.wait(lambda: lobby.first("room-code"), timeout, "the lobby")
    phones = [Phone(host, "host", lobby)]
    for guest, colour in zip(guests, colours, strict=True):
        page = await guest.open(path, timeout)
        phones.append(Phone(guest, "guest", page))
        await claim_seat(page, colour, timeout)
    start = await lobby.wait(lambda: lobby.enabled(lobby.first("start-game"))
                             and lobby.first("start-game"), timeout, "Start game")
    await lobby.click(start)
    for phone in phones:
        await phone.page.wait(functools.partial(at_table, phone.page), timeout, "the table")
        await phone.page.two_step_moves(timeout)
    return phones


async def local_party(base: str, tally: Tally, where: int, timeout: float, *,
                      mode: int = SAME_DEVICE, players: int = 2) -> Party:
    """A local game through the set-up form: on a shared screen every seat is a person;
    solo is one person against computers."""
    colours = {2: ["sapphire"], 3: ["emerald", "sapphire"], 4: ["emerald", "sapphire",
                                                                "amber"]}[players]
    kinds = {c: HUMAN for c in colours} if mode == SAME_DEVICE else {}
    setup: dict[str, Any] = {"mode": mode, "players": players, "kinds": kinds}
    browser = Browser(base, address(where), tally)
    try:
        path = await fill_form(browser, timeout, mode=mode, players=players, kinds=kinds)
        page = await open_table(browser, path, timeout)
    except BaseException:
        await browser.close()
        raise
    return Party(path, [Phone(browser, "local", page)], local_setup=setup)


async def close_party(party: Party) -> None:
    """Close every browser of the party (the server sees its pages go)."""
    for browser in {id(p.browser): p.browser for p in party.phones}.values():
        with contextlib.suppress(Exception):
            await browser.close()


async def reload_party(party: Party, timeout: float, together: bool = True) -> None:
    """Every phone opens the game's page again: all at the same moment, or one after the
    other (host first)."""
    for phone in party.phones:
        await phone.page.close()

    async def reopen(phone: Phone) -> None:
        phone.page = await open_table(phone.browser, party.path, timeout, phone.tab_id)

    if together:
        await asyncio.gather(*(reopen(p) for p in party.phones))
        return
    for phone in party.phones:
        await reopen(phone)


# --- pressing like a player ------------------------------------------------------------------


class Pacer:
    """Keeps every page at a phone's pace: at most ``BURST`` frames at once and ``RATE`` a
    second after that. A socket that sends faster than a person can press is over the
    server's message quota, which drops its frames (and disconnects it if it goes on): the
    drills' presses must reach the page's handlers."""

    RATE = 15.0
    BURST = 15.0

    def __init__(self) -> None:
        self.buckets: weakref.WeakKeyDictionary[Page, tuple[float, float]] = \
            weakref.WeakKeyDictionary()

    async def reserve(self, page: Page, frames: int = 1) -> None:
        """Until ``page`` may send ``frames`` frames at once; they are counted as sent."""
        while True:
            now = time.monotonic()
            tokens, stamp = self.buckets.get(page, (self.BURST, now))
            tokens = min(self.BURST, tokens + (now - stamp) * self.RATE)
            if tokens >= frames:
                self.buckets[page] = (tokens - frames, now)
                return
            self.buckets[page] = (tokens, now)
            await asyncio.sleep((frames - tokens) / self.RATE)


PACE = Pacer()

Press = tuple[str, str]
"""(kind, element id): ``again``, ``best``, ``move``, ``roll`` or ``select``."""


def next_press(phone: Phone, best: bool = False) -> Press | None:
    """What this phone's player would press now, or None while it is not their turn: the
    next game when one is over, the first movement offered, Roll, or the first piece that
    can move (which shows its movements). ``best``: Play best instead of choosing."""
    page = phone.page
    if phone.role in ("host", "local"):
        again = page.first("play-again")
        if again is not None:
            return "again", again
    if best and page.enabled(page.first("play-best")):
        return "best", str(page.first("play-best"))
    options = [k for k in page.find("move-option") if page.enabled(k)]
    if options:
        return "move", options[0]
    roll = page.first("roll")
    if page.enabled(roll):
        return "roll", str(roll)
    for piece in range(1, 5):
        key = page.first(f"piece-{piece}")
        if page.enabled(key):
            return "select", str(key)
    return None


async def press(party: Party, phone: Phone, picked: Press, timeout: float) -> None:
    """Press and wait for the answer: the board redrawn (every accepted action, selection
    and refusal redraws it), the next game's table, or the form for a next local game."""
    page = phone.page
    seq, tables = page.board_seq, page.tables
    await PACE.reserve(page)
    await page.click(picked[1])
    await page.wait(lambda: page.board_seq != seq or page.tables != tables
                    or page.navigated is not None, timeout, f"an answer to {picked[0]}")
    if page.navigated == "/new" and party.local_setup:
        await next_local_game(party, phone, timeout)


async def next_local_game(party: Party, phone: Phone, timeout: float) -> None:
    """The local game ended and its New game leads to the form: fill it in again."""
    await phone.page.close()
    path = await fill_form(phone.browser, timeout, **party.local_setup)
    phone.page = await open_table(phone.browser, path, timeout)


async def any_change(pages: list[Page], timeout: float) -> None:
    """Until any of these pages receives a message, or ``timeout`` seconds."""
    if not pages or timeout <= 0:
        return
    tasks = [asyncio.create_task(p.changed(timeout)) for p in pages]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()


async def advance(party: Party, until: Callable[[], bool], timeout: float,
                  best: bool = False) -> int:
    """Play the game normally until ``until()``; returns the presses made. StepFailed when
    nothing can be pressed and nothing arrives for ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    presses = 0
    idle_since = loop.time()
    while not until():
        picked = next((pair for pair in ((p, next_press(p, best)) for p in party.phones
                                          if p.presses) if pair[1] is not None), None)
        if picked is None:
            if loop.time() - idle_since > timeout:
                raise StepFailed(f"{party.path}: nothing to press for {timeout:.0f} s")
            await any_change(party.pages(), 0.5)
            continue
        phone, chosen = picked
        assert chosen is not None
        await press(party, phone, chosen, timeout)
        presses += 1
        idle_since = loop.time()
    return presses


async def settle(pages: list[Page], quiet: float, timeout: float) -> None:
    """Until no page has received anything for ``quiet`` seconds: every press sent so far
    has been answered (an answer, a duplicate or a refusal comes within milliseconds)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        before = [p.messages for p in pages]
        await any_change(pages, quiet)
        if [p.messages for p in pages] == before:
            return
    raise StepFailed(f"pages still busy after {timeout:.0f} s")


def status_kind(text: str) -> str:
    """``none``, ``info`` (what happened, whose turn), ``engine`` (the engine's own words,
    lower case: never for players) or ``refusal`` (a press refused, in words)."""
    text = text.strip()
    if not text:
        return "none"
    if text[0].islower():
        return "engine"
    if text.startswith(INFO_STARTS) or text.endswith("is thinking…"):
        return "info"
    return "refusal"


# --- machine, code and result ----------------------------------------------------------------


def machine() -> dict[str, Any]:
    """The machine's cores and load: the drills share them with the server."""
    return {"cores": os.cpu_count(),
            "load_average": [round(x, 2) for x in os.getloadavg()]}


def code_measured(app_dir: Path) -> dict[str, Any]:
    """The commit, and a hash of the served code as it was (the work tree may differ from
    the commit, and may change while a drill runs)."""
    digest = hashlib.sha256()
    files = [app_dir / "app.py", *sorted((app_dir / "parcheesi").rglob("*.py")),
             *sorted((app_dir / "components").glob("*.*"))]
    for path in files:
        with contextlib.suppress(OSError):
            digest.update(path.read_bytes())
    facts: dict[str, Any] = code_version() if app_dir == ROOT else {"app_dir": str(app_dir)}
    facts["served_code_sha256"] = digest.hexdigest()[:16]
    return facts


def result(drill: str, options: Options, started: dict[str, Any], figures: dict[str, Any],
           target: dict[str, Any], met: bool, server: Server | None, tally: Tally
           ) -> dict[str, Any]:
    """A drill's result object: its figures and target with when, on what code and on what
    machine they were measured, and what the server's log and the phones reported."""
    errors, examples = server.problems() if server is not None else (0, [])
    return {
        "drill": drill,
        "measured_at": started["at"],
        "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "code": started["code"],
        "machine": {"at_start": started["machine"], "at_end": machine()},
        "config": {"trials": options.count(drill), "pace": options.pace},
        "figures": figures,
        "target": target,
        "met": met,
        "server_log": {"error_lines": errors, "examples": examples},
        "phones": tally.report(),
    }


def beginning(options: Options) -> dict[str, Any]:
    """Facts taken when a drill starts (the code may change while it runs)."""
    return {"at": datetime.now(UTC).isoformat(timespec="seconds"),
            "code": code_measured(options.app_dir), "machine": machine()}


# --- drill 1: races --------------------------------------------------------------------------


@dataclass
class RaceCount:
    """One race's tally: presses accepted against trials, and what the pressing tabs'
    status lines showed afterwards."""

    trials: int = 0
    accepted: int = 0
    duplicates: int = 0
    trials_with_duplicates: int = 0
    none_accepted: int = 0
    refusals: int = 0
    engine_text: int = 0
    skipped: int = 0
    examples: list[str] = field(default_factory=list)


Frames = list[tuple[Page, dict[str, Any]]]


@dataclass(frozen=True)
class Race:
    """One kind of race: the game it needs, when its presses are possible, the frames."""

    name: str
    room: bool
    host_tabs: int
    ready: Callable[[Party], bool]
    frames: Callable[[Party], Frames]
    select_first: bool = False
    """Each tab selects the piece first (its movements are the presses)."""


def _roll_enabled(phone: Phone) -> bool:
    return phone.page.enabled(phone.page.first("roll"))


def _roll_frame(phone: Phone) -> dict[str, Any]:
    return phone.page.click_frame(str(phone.page.first("roll")))


def _host_tabs(party: Party) -> list[Phone]:
    return [p for p in party.phones if p.role in ("host", "tab")]


RACES = (
    Race("same-seat-two-tabs", True, 2,
         lambda party: all(_roll_enabled(p) for p in _host_tabs(party)),
         lambda party: [(p.page, _roll_frame(p)) for p in _host_tabs(party)]),
    Race("host-and-guest", True, 1,
         lambda party: _roll_enabled(party.role("host")),
         lambda party: [(p.page, _roll_frame(p)) for p in (party.role("host"),
                                                           party.role("guest"))]),
    Race("double-click-online", True, 1,
         lambda party: _roll_enabled(party.role("host")),
         lambda party: [(party.role("host").page, _roll_frame(party.role("host")))] * 2),
    Race("double-click-same-device", False, 1,
         lambda party: _roll_enabled(party.role("local")),
         lambda party: [(party.role("local").page, _roll_frame(party.role("local")))] * 2),
    Race("two-tabs-same-move", True, 2,
         lambda party: all(_first_option(p) is not None for p in _host_tabs(party))
         and len({_option_text(p) for p in _host_tabs(party)}) == 1,
         lambda party: [(p.page, p.page.click_frame(str(_first_option(p))))
                        for p in _host_tabs(party)], select_first=True),
)


def _first_option(phone: Phone) -> str | None:
    options = [k for k in phone.page.find("move-option") if phone.page.enabled(k)]
    return options[0] if options else None


def _option_text(phone: Phone) -> str:
    key = _first_option(phone)
    return phone.page.words(key)


async def _select_same_piece(party: Party, timeout: float) -> bool:
    """Both tabs of the host show the movements of the same piece (each tab selects it)."""
    tabs = _host_tabs(party)
    for piece in range(1, 5):
        keys = [t.page.first(f"piece-{piece}") for t in tabs]
        if not all(t.page.enabled(k) for t, k in zip(tabs, keys, strict=True)):
            continue
        for tab, key in zip(tabs, keys, strict=True):
            if _first_option(tab) is None:
                assert key is not None
                await press(party, tab, ("select", key), timeout)
        return True
    return False


async def _prepare_race(race: Race, party: Party, timeout: float) -> None:
    """Play on until the race's presses are possible again."""
    if not race.select_first:
        await advance(party, lambda: race.ready(party), timeout)
        return
    tabs = _host_tabs(party)
    while not race.ready(party):
        await advance(party, lambda: all(
            any(t.page.enabled(t.page.first(f"piece-{n}")) for n in range(1, 5))
            for t in tabs), timeout)
        if not await _select_same_piece(party, timeout) or not race.ready(party):
            # the tabs show different movements (one kept an earlier selection): play on
            host = party.role("host")
            picked = next_press(host)
            if picked is not None:
                await press(party, host, picked, timeout)


async def race_trial(race: Race, party: Party, db: Db, options: Options,
                     count: RaceCount) -> None:
    """One trial: play on until the race's presses are possible, send its frames without
    waiting in between, wait until every page is quiet, and count the actions stored."""
    await _prepare_race(race, party, options.timeout)
    game = party.game_id(db)
    frames = race.frames(party)
    pressing = list({id(p): p for p, _ in frames}.values())
    statuses = [p.text("status") for p in pressing]
    before = db.version(game)
    for page in pressing:
        await PACE.reserve(page, sum(1 for p, _ in frames if p is page))
    await asyncio.gather(*(page.send(frame) for page, frame in frames))
    await settle(party.pages(), options.quiet, options.timeout)
    accepted = db.version(game) - before
    count.trials += 1
    count.accepted += accepted
    if accepted > 1:
        count.duplicates += accepted - 1
        count.trials_with_duplicates += 1
        if len(count.examples) < EXAMPLES:
            count.examples.append(f"{race.name}: {accepted} actions from one press "
                                  f"(game {game[:8]}, version {before})")
    elif accepted < 1:
        count.none_accepted += 1
    for page, old in zip(pressing, statuses, strict=True):
        text = page.text("status")
        kind = status_kind(text) if text != old else "unchanged"
        if kind == "engine":
            count.engine_text += 1
            if len(count.examples) < EXAMPLES:
                count.examples.append(f"{race.name}: engine text shown: {text!r}")
        elif kind == "refusal":
            count.refusals += 1


async def run_race(race: Race, server: Server, options: Options, tally: Tally,
                   where: int) -> RaceCount:
    """All trials of one race on a game of its own; a stalled trial reloads the pages."""
    db = Db(server.database)
    if race.room:
        party = await room_party(server.base, tally, where, options.timeout,
                                 host_tabs=race.host_tabs)
    else:
        party = await local_party(server.base, tally, where, options.timeout)
    count = RaceCount()
    stop = asyncio.Event()
    acks = asyncio.create_task(acker(party.pages, stop))
    try:
        for trial in range(options.count("races")):
            try:
                await race_trial(race, party, db, options, count)
            except StepFailed as error:
                count.skipped += 1
                tally.error("stalled", f"{race.name}: {error}")
                await reload_party(party, options.timeout)
            if trial % 100 == 99:
                log(f"{race.name}: {trial + 1} trials, {count.duplicates} duplicates")
    finally:
        stop.set()
        await acks
        await close_party(party)
    return count


async def drill_races(options: Options) -> dict[str, Any]:
    """Drill 1: every race on one server; a duplicate is an action stored beyond the one
    the presses meant."""
    started, tally = beginning(options), Tally()
    async with serving(options) as server:
        counts = {}
        for k, race in enumerate(RACES):
            log(f"race {race.name}: {options.count('races')} trials")
            counts[race.name] = await run_race(race, server, options, tally, 10 * k)
        duplicates = sum(c.duplicates for c in counts.values())
        engine = sum(c.engine_text for c in counts.values())
        figures = {"duplicates": duplicates, "engine_text_shown": engine,
                   "per_race": {name: dataclasses.asdict(c) for name, c in counts.items()}}
        return result("races", options, started, figures,
                      {"duplicates": 0, "engine_text_shown": 0},
                      duplicates == 0 and engine == 0
                      and all(c.trials for c in counts.values()), server, tally)


# --- drill 2: restart split ------------------------------------------------------------------


async def act_and_witness(party: Party, phone: Phone, picked: Press, options: Options
                          ) -> str | None:
    """One action; every other phone must redraw its board for it within the time allowed.
    Returns what went wrong (None: seen by all)."""
    others = [p for p in party.phones if p is not phone]
    seqs = {id(p): p.page.board_seq for p in others}
    old_status = phone.page.text("status")
    await press(party, phone, picked, options.timeout)
    if picked[0] == "select":
        return None
    with contextlib.suppress(StepFailed):
        await phone.page.wait(lambda: all(p.page.board_seq != seqs[id(p)] for p in others),
                              options.see_timeout, "the others' redraw")
    status = phone.page.text("status")
    if status_kind(status) in ("refusal", "engine") and status != old_status:
        return f"{phone.role} {picked[0]} refused: {status}"
    missed = [p.role for p in others if p.page.board_seq == seqs[id(p)]]
    return f"{', '.join(missed)} did not see {phone.role}'s {picked[0]}" if missed else None


async def one_round(party: Party, options: Options, max_presses: int = 80) -> str | None:
    """Play until every phone has acted at least once; the first problem seen, if any."""
    acted: set[int] = set()
    loop = asyncio.get_running_loop()
    idle_since = loop.time()
    for _ in range(max_presses):
        if len(acted) == len(party.phones):
            return None
        picked = next(((p, c) for p in party.phones if (c := next_press(p)) is not None),
                      None)
        if picked is None:
            if loop.time() - idle_since > options.timeout:
                return "nothing to press"
            await any_change(party.pages(), 0.5)
            continue
        phone, chosen = picked
        problem = await act_and_witness(party, phone, chosen, options)
        if problem:
            return problem
        if chosen[0] in ("roll", "move", "again"):
            acted.add(id(phone))
        idle_since = loop.time()
    return None if len(acted) == len(party.phones) else "not every phone could act"


async def drill_restart(options: Options) -> dict[str, Any]:
    """Drill 2: a room of four through restarts (SIGTERM, start on the same data); after each,
    the phones reload together and play a round that every phone must see."""
    started, tally = beginning(options), Tally()
    split, problems = 0, []
    async with serving(options) as server:
        party = await room_party(server.base, tally, 0, options.timeout, players=4)
        try:
            for trial in range(options.count("restart")):
                await server.stop()
                await server.start()
                try:
                    await reload_party(party, options.timeout)
                    problem = await one_round(party, options)
                except StepFailed as error:
                    problem = str(error)
                if problem:
                    split += 1
                    problems.append(f"trial {trial + 1}: {problem}")
                log(f"restart {trial + 1}: {problem or 'every phone saw every action'}")
        finally:
            await close_party(party)
        figures = {"restarts": options.count("restart"), "split": split,
                   "problems": problems[:EXAMPLES]}
        return result("restart", options, started, figures, {"split": 0}, split == 0,
                      server, tally)


# --- drill 3: kill at the winning move -------------------------------------------------------


class Unprepared(StepFailed):
    """The offline game ended before the position the drill needs."""


def slowest(state: State) -> list[Action]:
    """The rest of a roll that moves the mover's pieces least (the others make way)."""
    if state.phase in (Phase.OPENING, Phase.ROLL):
        return [Roll()]
    options = roll_outcomes(state)
    return min(options, key=lambda o: sum(o[0].pieces[state.turn]))[1]


def extend_to_near_win(path: Path, game_id: str, winner: int) -> int:
    """With the server stopped: play the game on with the engine (the winner's seat as the
    hard computer, the others as slowly as they can) up to the position where the winner's
    Play best wins, and store those actions as the server would have. Returns the
    version."""
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
        seed, state_text = db.execute("SELECT seed, state FROM games WHERE id = ?",
                                      (game_id,)).fetchone()
        stored = [action_from_json(json.loads(row[0])) for row in db.execute(
            'SELECT action FROM actions WHERE game_id = ? ORDER BY "index"', (game_id,))]
        colours = [COLOUR_INDEX[name] for name in json.loads(state_text)["colours"]]
        game = Game.replay(colours, int(seed), stored)
        while True:
            state = game.state
            if state.phase is Phase.OVER:
                raise Unprepared("the game ended before a winning move could be prepared")
            if state.turn != winner:
                for action in slowest(state):
                    game.play(action)
                continue
            decision = ai.decide(state, "hard")
            if state.phase in (Phase.MOVE, Phase.REWARD) and decision.state.phase is Phase.OVER:
                break
            for action in decision.actions:
                game.play(action)
        new = game.actions[len(stored):]
        now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
        db.execute("BEGIN IMMEDIATE")
        db.executemany('INSERT INTO actions (game_id, "index", action, created_at) '
                       "VALUES (?, ?, ?, ?)",
                       [(game_id, len(stored) + k, json.dumps(action_to_json(a)), now)
                        for k, a in enumerate(new)])
        db.execute("UPDATE games SET state = ?, version = ?, updated_at = ? WHERE id = ?",
                   (json.dumps(state_to_json(game.state)), len(game.actions), now, game_id))
        db.execute("COMMIT")
        return len(game.actions)


async def kill_when_finished(server: Server, db: Db, game_id: str, timeout: float) -> float:
    """SIGKILL the server as soon as the database shows the game finished; returns the
    seconds from the first poll."""
    started = time.perf_counter()
    while not db.finished(game_id):
        if time.perf_counter() - started > timeout:
            raise StepFailed("the winning move was not stored")
        await asyncio.sleep(0.001)
    await server.kill()
    return time.perf_counter() - started


async def next_game_starts(party: Party, db: Db, finished: str, tally: Tally,
                          timeout: float) -> str | None:
    """After the restart: the host's Play again starts a new game that every phone shows.
    Returns what went wrong, or None."""
    host = party.role("host")
    page = host.page
    try:
        again = await page.wait(lambda: page.first("play-again"), timeout, "Play again")
        await page.click(again)
        await page.wait(lambda: db.room_game(party.code or "") not in (None, finished),
                        timeout, "new game in the room")
        for phone in party.phones:
            await phone.page.wait(functools.partial(at_new_table, phone.page), timeout,
                                  "the new game's table")
    except StepFailed as error:
        return (f"{error} (status line: {page.text('status')!r}, last notification: "
                f"{tally.last.get('notification')!r})")
    return None


async def kill_win_trial(server: Server, party: Party, db: Db, options: Options,
                         tally: Tally) -> tuple[str | None, float]:
    """Prepare the room's game up to the host's winning move (server stopped), let the host
    play it, SIGKILL as soon as it is stored, restart; returns what went wrong (None: the
    next game started) and the seconds from the press to the kill."""
    game_id = party.game_id(db)
    await server.stop()
    version = await asyncio.to_thread(extend_to_near_win, server.database, game_id,
                                      COLOUR_INDEX["ruby"])
    # the phones come back one after the other: reloading together is the restart drill's
    await server.start()
    await reload_party(party, options.timeout, together=False)
    host = party.role("host")
    page = host.page
    best = await page.wait(lambda: page.enabled(page.first("play-best"))
                           and page.first("play-best"), options.timeout, "Play best")
    log(f"game {game_id[:8]} at version {version}: the host plays the winning move")
    await page.click(best)
    try:
        after = await kill_when_finished(server, db, game_id, options.timeout)
    except StepFailed as error:
        raise StepFailed(f"{error} (status line: {page.text('status')!r})") from None
    await server.start()
    await reload_party(party, options.timeout, together=False)
    return await next_game_starts(party, db, game_id, tally, options.timeout), after


async def drill_kill_win(options: Options) -> dict[str, Any]:
    """Drill 3: a room is stuck when, after a crash right after its winning move, the host's
    New game does not start the next game."""
    started, tally = beginning(options), Tally()
    stuck, unprepared, problems, kill_ms = 0, 0, [], []
    async with serving(options) as server:
        db = Db(server.database)
        party = await room_party(server.base, tally, 0, options.timeout)
        try:
            for trial in range(options.count("kill-win")):
                try:
                    problem, after = await kill_win_trial(server, party, db, options, tally)
                    kill_ms.append(round(after * 1000, 1))
                except Unprepared as error:
                    unprepared += 1
                    problem = str(error)
                except StepFailed as error:
                    stuck += 1
                    problem = str(error)
                else:
                    stuck += problem is not None
                if server.proc is None:
                    await server.start()
                if problem:
                    problems.append(f"trial {trial + 1}: {problem}")
                    await close_party(party)  # this room cannot go on: a new one
                    party = await room_party(server.base, tally, 10 * (trial + 1),
                                             options.timeout)
                log(f"kill at the win {trial + 1}: {problem or 'the next game started'}")
        finally:
            await close_party(party)
        figures = {"trials": options.count("kill-win"), "stuck": stuck,
                   "not_prepared": unprepared, "kill_after_ms": kill_ms,
                   "problems": problems[:EXAMPLES]}
        return result("kill-win", options, started, figures, {"stuck": 0}, stuck == 0,
                      server, tally)


# --- drill 4: a database lock while a computer is to act -------------------------------------


def computer_to_act(page: Page) -> bool:
    """The turn line names a computer seat ("Turn: Emerald, medium computer")."""
    return "computer" in page.text("turn")


def lock_if_computer(path: Path, game_id: str) -> sqlite3.Connection | None:
    """Take an exclusive lock on the database; keep it only if a computer is to act."""
    lock = sqlite3.connect(path, isolation_level=None, timeout=10, check_same_thread=False)
    lock.execute("BEGIN EXCLUSIVE")
    state_text, seats_text = lock.execute("SELECT state, seats FROM games WHERE id = ?",
                                          (game_id,)).fetchone()
    state, seats = json.loads(state_text), json.loads(seats_text)
    turn = COLOUR_INDEX[state["turn"]] if isinstance(state.get("turn"), str) else None
    if state.get("phase") != "over" and any(
            s["colour"] == turn and s["kind"] == "computer" for s in seats):
        return lock
    lock.execute("COMMIT")
    lock.close()
    return None


async def lock_trial(server: Server, party: Party, db: Db, options: Options, tally: Tally
                     ) -> tuple[float | None, str | None]:
    """Returns the seconds from the release to the next action on the page (None: none
    within the resume target and the time allowed) and a note."""
    phone = party.phones[0]
    lock = None
    while lock is None:
        await advance(party, lambda: computer_to_act(phone.page), options.timeout)
        lock = await asyncio.to_thread(lock_if_computer, server.database, party.game_id(db))
        if lock is None:
            await any_change([phone.page], 1.0)
    page = phone.page
    client_id, reloads = page.client_id, tally.errors["reload requested"]
    await asyncio.sleep(options.lock_s)  # the scenario: the database is held this long
    shown = page.shown_version()
    lock.execute("COMMIT")
    lock.close()
    released = time.perf_counter()
    try:
        await page.wait(lambda: page.shown_version() != shown,
                        max(options.resume_s, options.timeout), "the next action")
    except StepFailed:
        return None, f"no action after the release (status: {page.text('status')!r})"
    resumed = time.perf_counter() - released
    if page.client_id != client_id or page.navigated or not (page.sio and page.sio.connected) \
            or tally.errors["reload requested"] != reloads:
        return resumed, "the page was reloaded or disconnected"
    return resumed, None


async def drill_lock(options: Options) -> dict[str, Any]:
    """Drill 4: a solo game whose computers meet a database held by another process; a game
    is frozen when no action follows within the resume target of the release."""
    started, tally = beginning(options), Tally()
    frozen, resume_s, notes = 0, [], []
    async with serving(options) as server:
        db = Db(server.database)
        party = await local_party(server.base, tally, 0, options.timeout, mode=SOLO,
                                  players=4)
        try:
            for trial in range(options.count("lock")):
                resumed, note = await lock_trial(server, party, db, options, tally)
                late = resumed is None or resumed > options.resume_s or note is not None
                frozen += late
                resume_s.append(None if resumed is None else round(resumed, 3))
                if note:
                    notes.append(f"trial {trial + 1}: {note}")
                log(f"lock {trial + 1}: resumed after {resumed} s {note or ''}")
                if late:  # a frozen game: a reload restarts it for the next trial
                    await reload_party(party, options.timeout)
        finally:
            await close_party(party)
        figures = {"trials": options.count("lock"), "lock_s": options.lock_s,
                   "frozen": frozen, "resume_s": resume_s, "notes": notes[:EXAMPLES]}
        return result("lock", options, started, figures,
                      {"frozen": 0, "resume_within_s": options.resume_s}, frozen == 0,
                      server, tally)


# --- drill 5: kill -9 cycles -----------------------------------------------------------------


class Witness:
    """The highest version of its game one page has shown accepted: the version in the
    board's stamp where the board carries one, else the version at load plus the board
    redraws whose log gained a line (every accepted action writes one)."""

    def __init__(self, page: Page, game_id: str, base: int, seen: dict[str, int],
                 lookup: Callable[[], str]) -> None:
        self.page = page
        self.game = game_id
        self.count = base
        self.seen = seen
        self.lookup = lookup
        self.log_text = page.text("log")
        self._note(version_in(page.board_state().get("stamp")) or base)
        page.on_board = self.board
        page.on_new_table = self.new_table

    def _note(self, version: int) -> None:
        self.seen[self.game] = max(self.seen.get(self.game, 0), version)

    def board(self, page: Page, _: float) -> None:
        version = version_in(page.board_state().get("stamp"))
        text = page.text("log")
        if version is None and text != self.log_text:
            self.count += 1
            version = self.count
        self.log_text = text
        if version is not None:
            self._note(version)

    def new_table(self, page: Page) -> None:
        """The room moved on to its next game."""
        with contextlib.suppress(StepFailed):  # not stored yet: keep counting the old one
            self.game = self.lookup()
            self.count = 0
        self.log_text = page.text("log")


async def stop(tasks: list[asyncio.Task[None]]) -> None:
    """Cancel the tasks until they have all ended (Python 3.11's ``wait_for`` may swallow a
    cancellation that comes as its wait ends, and the task would play on)."""
    while tasks:
        for task in tasks:
            task.cancel()
        _, pending = await asyncio.wait(tasks, timeout=1.0)
        tasks = list(pending)


async def keep_playing(party: Party, timeout: float) -> None:
    """Play without pause until cancelled (or the server goes away)."""
    with contextlib.suppress(StepFailed, ConnectionError, OSError, aiohttp.ClientError):
        await advance(party, lambda: False, timeout)


def watch(parties: list[Party], db: Db, seen: dict[str, int]) -> dict[str, int]:
    """Witnesses on every page; returns each game's version when they started."""
    bases = {}
    for party in parties:
        game_id = party.game_id(db)
        bases[game_id] = db.version(game_id)
        for phone in party.phones:
            Witness(phone.page, game_id, bases[game_id], seen,
                    functools.partial(party.game_id, db))
    return bases


async def kill_cycle(server: Server, parties: list[Party], db: Db, options: Options,
                     rng: random.Random) -> tuple[int, int, int]:
    """Play for a random moment, SIGKILL, compare what the phones saw with the database,
    restart and reload. Returns the actions lost, the actions the phones saw accepted, and
    the stored actions no phone had shown yet (in flight at the kill)."""
    seen: dict[str, int] = {}
    bases = watch(parties, db, seen)
    players = [asyncio.create_task(keep_playing(p, options.timeout)) for p in parties]
    await asyncio.sleep(rng.uniform(0.3, 2.0))  # the moment of the crash
    await server.kill()
    await stop(players)
    stored = db.games()
    lost = sum(max(0, version - stored.get(game, (0, 0))[0]) for game, version in seen.items())
    shown = sum(version - bases.get(game, 0) for game, version in seen.items())
    unshown = sum(max(0, stored.get(game, (0, 0))[0] - version)
                  for game, version in seen.items())
    await server.start()
    for party in parties:  # one phone after the other (reloading together: restart drill)
        await reload_party(party, options.timeout, together=False)
    return lost, shown, unshown


async def drill_kill_cycles(options: Options) -> dict[str, Any]:
    """Drill 5: a room and a shared-screen game through SIGKILL after SIGKILL; an action is
    lost when a phone showed it accepted and the database does not have it."""
    started, tally = beginning(options), Tally()
    rng = random.Random(options.seed)
    lost, cycles, stalls, shown, unshown = 0, 0, 0, 0, 0
    async with serving(options) as server:
        db = Db(server.database)
        parties = [await room_party(server.base, tally, 0, options.timeout),
                   await local_party(server.base, tally, 10, options.timeout)]
        try:
            for cycle in range(options.count("kill-cycles")):
                try:
                    missing, saw, in_flight = await kill_cycle(server, parties, db, options,
                                                               rng)
                except StepFailed as error:
                    stalls += 1
                    tally.error("stalled", str(error))
                    if server.proc is None:
                        await server.start()
                    for party in parties:
                        await reload_party(party, options.timeout, together=False)
                    continue
                lost += missing
                shown += saw
                unshown += in_flight
                cycles += 1
                if cycle % 10 == 9 or missing:
                    log(f"kill cycle {cycle + 1}: {lost} lost so far")
        finally:
            for party in parties:
                await close_party(party)
        games = db.games()
        unlike = sum(1 for version, rows in games.values() if version != rows)
        figures = {"cycles": cycles, "stalled_cycles": stalls, "lost": lost,
                   "actions_seen_accepted": shown, "stored_but_not_yet_shown": unshown,
                   "games": len(games), "actions_stored": sum(v for v, _ in games.values()),
                   "games_with_versions_unlike_action_rows": unlike}
        return result("kill-cycles", options, started, figures, {"lost": 0},
                      lost == 0 and unlike == 0 and cycles > 0, server, tally)


# --- drill 6: bad presses --------------------------------------------------------------------

BAD_KINDS = ("random-stamp", "future-stamp", "non-string-args", "wrong-element",
             "wrong-listener", "replayed", "wrong-seat", "watcher", "other-client",
             "other-counter")
OUTSIDE_TARGET = ("other-counter",)
"""Kinds reported but not counted against the target: a stamp with the version shown and a
counter the tab never showed is a press against the current position (the stamp's version
is what makes a press stale; the counter lets the browser see an answer arrive)."""
BLOCK = 50
"""Bad frames sent together before the database is compared."""


@dataclass
class Barrage:
    """The phones and frames a barrage draws on."""

    room: Party
    local: Party
    recorded: list[tuple[Phone, dict[str, Any]]] = field(default_factory=list)
    """Presses sent during legitimate play (replayed later, when they are stale)."""

    def targets(self) -> list[Phone]:
        """The phones whose seat may act now (their Roll is enabled)."""
        return [self.room.role("host"), self.local.role("local")]

    def phones(self) -> list[Phone]:
        return self.room.phones + self.local.phones


def _roll(phone: Phone) -> tuple[str, dict[str, Any]]:
    """The phone's Roll button and the press it would send now."""
    key = str(phone.page.first("roll"))
    return key, phone.page.click_frame(key)


def _bad_stamp(rng: random.Random, current: str | None) -> str:
    """A stamp no page of this game showed: another version, or not a stamp at all."""
    version = version_in(current) or 0
    choices = [f"{rng.randrange(10**6)}.{rng.randrange(100)}", f"{version + 1}.{10**9}",
               f"{version}", f"-{version}.0", f"{version}.0.0", "", "x" * 300,
               f"{version}.{rng.randrange(50)} ", f"٣.{rng.randrange(9)}"]
    stamp = rng.choice(choices)
    return stamp if stamp != current else stamp + "9"


def _forged(kind: str, phone: Phone, rng: random.Random) -> dict[str, Any]:
    """A press on the seat's own Roll, changed in the way ``kind`` names."""
    page = phone.page
    key, frame = _roll(phone)
    current = page.stamp(key)
    version = version_in(current) or 0
    if kind == "random-stamp":
        return page.press_frame(key, _bad_stamp(rng, current))
    if kind == "future-stamp":
        future = f"{version + rng.randrange(1, 50)}.{rng.randrange(20)}"
        return page.press_frame(key, future)
    if kind == "other-counter":
        other = f"{version}.{rng.randrange(10**3, 10**9)}"
        return page.press_frame(key, other if other != current else other + "1")
    if kind == "non-string-args":
        # as the stamp of the press, or as the whole of what the press sends
        value = rng.choice([5, None, [current], {"stamp": current}, True, 1.5, [], {}])
        return rng.choice([page.press_frame(key, value), {**frame, "args": [json.dumps(value)]}])
    if kind == "wrong-element":
        others = [k for k in page.elements if k != page.element_key(key)]
        return {**frame, "id": int(rng.choice([rng.choice(others),
                                               str(rng.randrange(10**6, 10**7)), "-1"]))}
    listeners = [str(e["listener_id"]) for k, el in page.elements.items()
                 if k != page.element_key(key)
                 for e in el.get("events", [])][:20]
    return {**frame, "listener_id": rng.choice([str(rng.getrandbits(64)), *listeners])}


def bad_frame(kind: str, barrage: Barrage, rng: random.Random) -> tuple[Phone, dict[str, Any]]:
    """One bad press of this kind, and the phone whose socket sends it."""
    target = rng.choice(barrage.targets())
    if kind == "replayed" and barrage.recorded:
        return rng.choice(barrage.recorded)
    if kind in ("wrong-seat", "watcher"):
        phone = barrage.room.role("guest" if kind == "wrong-seat" else "watcher")
        testid = rng.choice(["roll", "piece-1", "piece-2", "play-best", "hint"])
        found = phone.page.first(testid) or phone.page.first("roll")
        return phone, phone.page.click_frame(str(found))
    if kind == "other-client":  # another socket naming the target page's client
        sender = rng.choice([p for p in barrage.phones() if p.page is not target.page])
        return sender, _roll(target)[1]
    return target, _forged(kind, target, rng)


async def _recording_advance(barrage: Barrage, party: Party, until: Callable[[], bool],
                             timeout: float) -> None:
    """Legitimate play, keeping every press it sends for replaying later."""
    patched: list[tuple[Page, Any]] = []
    for phone in party.phones:
        page, original = phone.page, phone.page.send

        async def recorded(frame: Any,
                           send: Callable[[Any], Coroutine[Any, Any, None]] = original,
                           phone: Phone = phone) -> None:
            barrage.recorded.append((phone, frame))
            await send(frame)

        page.send = recorded  # type: ignore[method-assign]
        patched.append((page, original))
    try:
        await advance(party, until, timeout)
    finally:
        for page, original in patched:
            page.send = original  # type: ignore[method-assign]


async def revive(barrage: Barrage, timeout: float) -> int:
    """Reload the pages whose socket the server closed; returns how many."""
    dropped = [p for p in barrage.phones() if not (p.page.sio and p.page.sio.connected)]
    for phone in dropped:
        await phone.page.close()
        phone.page = await open_table(phone.browser, barrage.room.path if phone in
                                      barrage.room.phones else barrage.local.path, timeout,
                                      phone.tab_id)
    return len(dropped)


async def barrage_block(kind: str, barrage: Barrage, db: Db, options: Options,
                        rng: random.Random, size: int) -> tuple[int, int]:
    """Bring both games to a press that could act, send ``size`` bad frames of one kind,
    wait until all is answered. Returns the actions the games stored meanwhile and the
    sockets the server closed."""
    for party in (barrage.room, barrage.local):
        phone = party.role("host") if party.code else party.role("local")
        await _recording_advance(barrage, party, functools.partial(_roll_enabled, phone),
                                 options.timeout)
    games = [p.game_id(db) for p in (barrage.room, barrage.local)]
    before = [db.version(g) for g in games]
    for phone, frame in [bad_frame(kind, barrage, rng) for _ in range(size)]:
        await PACE.reserve(phone.page)
        if phone.page.sio is not None and phone.page.sio.connected:
            with contextlib.suppress(Exception):  # the server may close a socket meanwhile
                await phone.page.send(frame)
    await settle([p.page for p in barrage.phones()], options.quiet, options.timeout)
    changed = sum(db.version(g) - b for g, b in zip(games, before, strict=True))
    return changed, await revive(barrage, options.timeout)


async def pages_still_work(barrage: Barrage, options: Options) -> bool:
    """After the barrage every phone of each game sees that game's next action."""
    for party in (barrage.room, barrage.local):
        phone = party.role("host") if party.code else party.role("local")
        await advance(party, functools.partial(_roll_enabled, phone), options.timeout)
        problem = await act_and_witness(party, phone, ("roll", str(phone.page.first("roll"))),
                                        options)
        if problem:
            log(f"after the barrage: {problem}")
            return False
    return True


async def drill_bad_presses(options: Options) -> dict[str, Any]:
    """Drill 6: kinds of bad presses in turn, in blocks, at moments when a good press would
    act; any action stored during a block is a state change."""
    started, tally = beginning(options), Tally()
    rng = random.Random(options.seed)
    total = options.count("bad-presses")
    changes: Counter[str] = Counter()
    dropped: Counter[str] = Counter()
    sent: Counter[str] = Counter()
    async with serving(options) as server:
        db = Db(server.database)
        room = await room_party(server.base, tally, 0, options.timeout, watchers=1)
        local = await local_party(server.base, tally, 10, options.timeout)
        barrage = Barrage(room, local)
        try:
            for party in (room, local):  # some legitimate play to replay from
                await _recording_advance(barrage, party, lambda: len(barrage.recorded) > 30,
                                         options.timeout)
            k = 0
            while sent.total() < total:
                kind = BAD_KINDS[k % len(BAD_KINDS)]
                size = min(BLOCK, total - sent.total())
                changed, closed = await barrage_block(kind, barrage, db, options, rng, size)
                changes[kind] += changed
                dropped[kind] += closed
                sent[kind] += size
                k += 1
                if k % 20 == 0:
                    log(f"bad presses: {sent.total()} sent, {changes.total()} state changes")
            working = await pages_still_work(barrage, options)
        finally:
            await close_party(room)
            await close_party(local)
        counted = sum(n for kind, n in changes.items() if kind not in OUTSIDE_TARGET)
        figures = {"sent": dict(sent), "state_changes": counted,
                   "state_changes_by_kind": dict(changes),
                   "not_counted": list(OUTSIDE_TARGET),
                   "sockets_closed_by_the_server": dict(dropped),
                   "pages_work_afterwards": working}
        return result("bad-presses", options, started, figures,
                      {"state_changes": 0, "pages_work_afterwards": True},
                      counted == 0 and working, server, tally)


# --- drill 7: malformed frames ---------------------------------------------------------------


def malformed_kinds(client_id: str, element: str, listener: str
                    ) -> list[tuple[str, list[str | bytes]]]:
    """(name, frames): text frames are engine.io packets as sent, bytes are binary frames."""
    real = {"client_id": client_id, "id": int(element), "listener_id": listener}
    forged_line = json.dumps({"time": "2026-01-01T00:00:00.000+00:00", "level": "error",
                              "logger": "parcheesi", "message": "forged"})
    said = {"client_id": client_id}
    return [
        ("truncated", ["42["]),
        ("event without data", ['42["event"]']),
        ("event with null", [packet("event", None)]),
        ("client id a number", [packet("event", {"client_id": 5})]),
        ("event without id", [packet("event", said)]),
        ("args not a list", [packet("event", {**real, "args": "roll"})]),
        ("args not JSON", [packet("event", {**real, "args": ["{not json"]})]),
        ("huge id", [packet("event", {**real, "id": 10**40})]),
        ("id a string", [packet("event", {**real, "id": "roll"})]),
        ("unknown listener", [packet("event", {**real, "listener_id": "x"})]),
        ("unknown event", [packet("nonsense", {"a": 1}), "42[5]", "42[]"]),
        ("handshake without fields", [packet("handshake", {}), packet("handshake", None)]),
        ("handshake for another tab", [packet("handshake", {**said, "tab_id": "other"})]),
        ("binary junk", [bytes(range(256)), b"\x00\xff" * 100]),
        ("oversized frame", [packet("event", {**real, "args": ["x" * 2_000_000]})]),
        ("log with a forged line", [packet("log", {**said, "level": "warning", "message":
                                                   f"hello\n{forged_line}\nERROR x"})]),
        ("log of an unknown level", [packet("log", {**said, "level": "critical",
                                                    "message": "x"})]),
        ("log without message", [packet("log", {**said, "level": "error"})]),
        ("javascript response junk", [packet("javascript_response", said),
                                      packet("javascript_response", [1, 2])]),
        ("ack junk", [packet("ack", {**said, "next_message_id": "x"}), packet("ack", said),
                      packet("ack", 7)]),
        ("engine.io junk", ["9", "4", "x", "", "6", "5"]),
        ("socket.io junk", ["43", "44{}", "45", "40{", "41"]),
        ("binary event without attachments",
         ['451-["event",{"_placeholder":true,"num":0}]']),
        ("other namespace", ["40/admin,", '42/admin,["event",{}]']),
        ("deeply nested", ['42["event",' + "[" * 100_000 + "]" * 100_000 + "]"]),
    ]


async def raw_socket(session: aiohttp.ClientSession, server: Server, page_client: str
                     ) -> aiohttp.ClientWebSocketResponse:
    """An engine.io v4 WebSocket connected to socket.io's namespace with the implicit
    handshake of a page that was loaded but never connected (as nicegui.js connects)."""
    query = (f"client_id={page_client}&next_message_id=0&implicit_handshake=true"
             f"&document_id={random.getrandbits(64)}&tab_id={random.getrandbits(64)}"
             "&EIO=4&transport=websocket")
    ws = await session.ws_connect(
        f"ws://127.0.0.1:{server.port}/_nicegui_ws/socket.io/?{query}", max_msg_size=0)
    await ws.receive(timeout=10)  # engine.io open packet
    await ws.send_str("40")
    await ws.receive(timeout=10)  # socket.io connect
    return ws


async def malformed_kind(server: Server, kind: int, quiet: float) -> dict[str, Any]:
    """Load a page, connect a raw socket for it (with the page's cookie, as a browser
    does), send one kind of malformed packets, and see what the server logged."""
    errors_before, _ = server.problems()
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
        page = await page_for_frames(session, server)
        name, frames = malformed_kinds(*page)[kind]
        try:
            ws = await raw_socket(session, server, page[0])
            for frame in frames:
                await (ws.send_bytes(frame) if isinstance(frame, bytes) else ws.send_str(frame))
            with contextlib.suppress(TimeoutError, asyncio.TimeoutError):
                while not ws.closed:
                    message = await ws.receive(timeout=quiet * 2)
                    if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                        break
            await ws.close()
        except (aiohttp.ClientError, ConnectionError) as error:
            log(f"malformed {name}: {type(error).__name__}")
        async with session.get(f"{server.base}/rules") as response:
            serving_after = response.status == 200
    errors, _ = server.problems()
    return {"kind": name, "error_lines": errors - errors_before, "still_serving": serving_after}


async def page_for_frames(session: aiohttp.ClientSession, server: Server
                          ) -> tuple[str, str, str]:
    """A page loaded but not yet connected: its client id, an element with a click
    listener (the home page's New game), and that listener's id."""
    async with session.get(server.base + "/") as response:
        elements, client_id, _ = parse_page(await response.text(), "/")
    for key, element in elements.items():
        for event in element.get("events", []):
            if event.get("type") == "click":
                return client_id, key, str(event["listener_id"])
    raise StepFailed("no button on the home page")


async def bare_socket(session: aiohttp.ClientSession, server: Server
                      ) -> aiohttp.ClientWebSocketResponse:
    """An engine.io v4 WebSocket connected to socket.io's namespace without any page (no
    cookie, no client id), as a script opens one."""
    ws = await session.ws_connect(
        f"ws://127.0.0.1:{server.port}/_nicegui_ws/socket.io/?EIO=4&transport=websocket",
        max_msg_size=0)
    await ws.receive(timeout=10)  # engine.io open packet
    await ws.send_str("40")
    await ws.receive(timeout=10)  # socket.io connect
    return ws


async def paced_frames(ws: aiohttp.ClientWebSocketResponse, frames: list[str],
                       rate: float = Pacer.RATE) -> None:
    """Send text frames at a phone's pace (under the server's message quota: every frame
    reaches the checks, none is dropped for flooding)."""
    for frame in frames:
        await ws.send_str(frame)
        await asyncio.sleep(1 / rate)


async def fields_kind(server: Server, with_page: bool, quiet: float) -> dict[str, Any]:
    """Every field of every message given every wrong type, deep nesting and huge values
    (``hostile.wrong_fields``), over four sockets at a phone's pace: sockets of the page
    they name (with its cookie), or sockets without a cookie or a page that name a made-up
    one."""
    errors_before, _ = server.problems()
    name = "every field, wrong types, " + ("with its page" if with_page else "without a page")
    sent = 0

    async def one(k: int) -> None:
        nonlocal sent
        jar = aiohttp.CookieJar(unsafe=True) if with_page else aiohttp.DummyCookieJar()
        async with aiohttp.ClientSession(cookie_jar=jar) as session:
            client_id, element, listener = await page_for_frames(session, server)
            ws = await (raw_socket(session, server, client_id) if with_page
                        else bare_socket(session, server))
            frames = [hostile.packet(kind, message) for _, kind, message in hostile.wrong_fields(
                client_id if with_page else str(uuid.uuid4()), int(element), listener)][k::4]
            try:
                await paced_frames(ws, frames)
                sent += len(frames)
                with contextlib.suppress(TimeoutError, asyncio.TimeoutError):
                    await ws.receive(timeout=quiet * 4)
            finally:
                await ws.close()

    await asyncio.gather(*(one(k) for k in range(4)))
    errors, _ = server.problems()
    return {"kind": name, "frames": sent, "error_lines": errors - errors_before,
            "still_serving": await serving_pages(server)}


async def serving_pages(server: Server) -> bool:
    async with aiohttp.ClientSession() as session, \
            session.get(f"{server.base}/rules") as response:
        return response.status == 200


async def arguments_kind(server: Server, browser: Browser, path: str, options: Options
                         ) -> dict[str, Any]:
    """Every listener of a page (as its own browser opens it) sent every wrong value as its
    arguments (``hostile.wrong_arguments``), over two tabs at a phone's pace (a browser
    opens no more sockets than a person's does: the server bounds new ones)."""
    errors_before, _ = server.problems()
    tabs = [await browser.open(path, options.timeout, str(uuid.uuid4())) for _ in range(2)]
    await settle(tabs, 2 * options.quiet, options.timeout)  # what comes once connected too
    sent = 0

    async def one(tab: Page, k: int) -> None:
        nonlocal sent
        messages = [message for key, element in sorted(tab.elements.items())
                    for event in element.get("events", [])
                    for _, message in hostile.wrong_arguments(
                        tab.client_id, int(key), str(event["listener_id"]))][k::len(tabs)]
        assert tab.sio is not None
        for message in messages:
            await PACE.reserve(tab)
            if not tab.sio.connected:
                break
            await tab.sio.eio.send(hostile.packet("event", message)[1:])
            sent += 1

    try:
        await asyncio.gather(*(one(tab, k) for k, tab in enumerate(tabs)))
        with contextlib.suppress(StepFailed):
            await settle(tabs, options.quiet, options.timeout)
    finally:
        for tab in tabs:
            await tab.close()
    errors, _ = server.problems()
    return {"kind": f"wrong arguments to every listener of {path.split('?')[0]}",
            "frames": sent, "error_lines": errors - errors_before,
            "still_serving": await serving_pages(server)}


async def pages_to_fuzz(server: Server, tally: Tally, options: Options
                        ) -> tuple[list[tuple[Browser, str]], list[Party], list[Browser]]:
    """(browser, path) of every kind of page, each opened by a browser that sees all of it
    (a local game's table by its owner, a room's table by its host, the room by a
    stranger: a browser of its own for each page), the parties to close afterwards, and the
    strangers' browsers."""
    local = await local_party(server.base, tally, 60, options.timeout)
    room = await room_party(server.base, tally, 62, options.timeout)
    game = Db(server.database).local_game()
    owner, host = local.phones[0].browser, room.role("host").browser
    strangers: list[Browser] = []

    def stranger() -> Browser:
        strangers.append(Browser(server.base, address(70 + len(strangers)), tally))
        return strangers[-1]

    pages = [(host, room.path), (owner, local.path), (stranger(), "/"), (stranger(), "/new"),
             (stranger(), room.path), (stranger(), f"/tv/{room.code}"),
             (owner, "/games"), (stranger(), "/rules"), (owner, f"/replay/{game}"),
             (owner, f"/games/{game}/charts")]
    return pages[:options.pages], [local, room], strangers


async def drill_malformed(options: Options) -> dict[str, Any]:
    """Drill 7: each kind of malformed packet on a socket of its own; then every field of
    every message with wrong types, from sockets with and without a page; then every
    listener of every kind of page sent wrong arguments. Every error line the server logs
    counts."""
    started, tally = beginning(options), Tally()
    async with serving(options) as server:
        outcomes = []
        for kind in range(min(options.count("malformed"), len(malformed_kinds("", "0", "")))):
            outcomes.append(await malformed_kind(server, kind, options.quiet))
            log(f"malformed {outcomes[-1]['kind']}: {outcomes[-1]['error_lines']} error lines")
        for with_page in (False, True):
            outcomes.append(await fields_kind(server, with_page, options.quiet))
            log(f"malformed {outcomes[-1]}")
        pages, parties, strangers = await pages_to_fuzz(server, tally, options)
        try:
            for browser, path in pages:
                outcomes.append(await arguments_kind(server, browser, path, options))
                log(f"malformed {outcomes[-1]}")
        finally:
            for party in parties:
                await close_party(party)
            for browser in strangers:
                await browser.close()
        tracebacks = sum(o["error_lines"] for o in outcomes)
        down = [o["kind"] for o in outcomes if not o["still_serving"]]
        figures = {"kinds": len(outcomes), "error_lines": tracebacks,
                   "frames_of_wrong_types": sum(o.get("frames", 0) for o in outcomes),
                   "kinds_with_errors": [o["kind"] for o in outcomes if o["error_lines"]],
                   "server_stopped_answering_after": down}
        return result("malformed", options, started, figures, {"error_lines": 0},
                      tracebacks == 0 and not down, server, tally)


# --- drill 8: flood --------------------------------------------------------------------------


class Latency:
    """Click-to-board-update times of the room's phones (the acting phone and the others)."""

    def __init__(self, party: Party) -> None:
        self.party = party
        self.started = time.perf_counter()
        self.last: dict[int, float] = {}
        self.acting: list[float] = []
        self.others: list[float] = []
        self.first_second: list[float] = []
        """The others' samples of presses made in the first second."""
        for phone in party.phones:
            phone.page.on_board = self._board

    def _board(self, page: Page, now: float) -> None:
        self.last[id(page)] = now

    def updated(self, page: Page, since: float) -> bool:
        """Whether ``page`` received something after ``since``."""
        return self.last.get(id(page), 0) > since

    async def act(self, phone: Phone, picked: Press, timeout: float) -> None:
        clicked = time.perf_counter()
        await press(self.party, phone, picked, timeout)
        if picked[0] not in ("roll", "move", "best"):
            return
        self.acting.append((self.last.get(id(phone.page), clicked) - clicked) * 1000)
        for other in self.party.phones:
            if other is not phone:
                with contextlib.suppress(StepFailed):
                    await other.page.wait(functools.partial(self.updated, other.page, clicked),
                                          timeout, "the action's update")
                ms = (self.last.get(id(other.page), clicked) - clicked) * 1000
                self.others.append(ms)
                if clicked - self.started < 1.0:
                    self.first_second.append(ms)


async def play_measured(latency: Latency, until: float, think: float, timeout: float,
                        rng: random.Random) -> None:
    """The room plays at a person's pace until the clock reaches ``until``."""
    party = latency.party
    loop = asyncio.get_running_loop()
    while loop.time() < until:
        picked = next(((p, c) for p in party.phones if (c := next_press(p)) is not None),
                      None)
        if picked is None:
            await any_change(party.pages(), 0.2)
            continue
        await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
        with contextlib.suppress(StepFailed):
            await latency.act(picked[0], picked[1], timeout)


def _p95(values: list[float]) -> float | None:
    """The 95th percentile, rounded to 0.1 ms (None without samples)."""
    found = percentile(values, 0.95)
    return None if found is None else round(found, 1)


async def start_flooder(server: Server, path: str, where: int, seconds: float
                        ) -> asyncio.subprocess.Process:
    """The flooding phone runs in a process of its own, so its loop cannot slow the
    measuring phones' loop."""
    return await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--flooder", server.base, path, address(where),
        str(seconds), stdout=asyncio.subprocess.PIPE)


async def flood_from_here(base: str, path: str, where: str, seconds: float) -> None:
    """The flooder: open the page as a watcher, then press its Roll as fast as the
    WebSocket takes frames (written straight to it, so TCP's backpressure is the only
    limit), until disconnected or ``seconds`` pass; print what happened as JSON."""
    browser = Browser(base, where, Tally())
    frames = 0
    disconnected: float | None = None
    try:
        page = await open_table(browser, path, 30.0)
        assert page.sio is not None
        ws = page.sio.eio.ws
        text = "42" + json.dumps(["event", page.click_frame(str(page.first("roll")))])
        started = time.perf_counter()
        print(json.dumps({"flooding": True}), flush=True)
        while time.perf_counter() - started < seconds:
            if ws.closed or page.disconnected_at is not None:
                disconnected = (page.disconnected_at or time.perf_counter()) - started
                break
            try:
                await ws.send_str(text)
            except (ConnectionError, RuntimeError, aiohttp.ClientError):
                disconnected = time.perf_counter() - started
                break
            frames += 1
            if frames % 100 == 0:
                await asyncio.sleep(0)  # the socket's reader notices a close
        # cut off: stay idle until the window ends (the flooder is another device; its own
        # shutdown must not take the server's cores while the room is measured)
        await asyncio.sleep(max(0.0, seconds - (time.perf_counter() - started)))
    finally:
        await browser.close()
    print(json.dumps({"frames": frames, "disconnected_after_s": disconnected}), flush=True)


Attacker = Callable[[Party], Coroutine[Any, Any, asyncio.subprocess.Process]]
"""Starts a process that attacks the server while a room is measured (given the room); it
prints one line when the attack begins and its figures as its last JSON line."""


async def attacked_run(server: Server, options: Options, tally: Tally, run: int,
                       attacker: Attacker, seconds: float) -> dict[str, Any]:
    """A room of four plays a few calm seconds, then goes on for ``seconds`` while another
    process attacks; the latency is measured over the attack's window from its start, and
    the server's log growth over that window. ``attack``: the attacker's figures."""
    party = await room_party(server.base, tally, 20 * run, options.timeout, players=4)
    rng = random.Random(options.seed + run)
    loop = asyncio.get_running_loop()
    # this process's own garbage collector must not pause the phones it measures: what
    # exists now is never scanned again until the run ends
    gc.collect()
    gc.freeze()
    try:
        calm = Latency(party)
        await play_measured(calm, loop.time() + 5.0, 0.2, options.timeout, rng)
        process = await attacker(party)
        assert process.stdout is not None
        await asyncio.wait_for(process.stdout.readline(), 60.0)  # the attack begins
        assert server.proc is not None
        log_before, began = server.logs[-1].stat().st_size, loop.time()
        cpu_before = cpu_seconds(server.proc.pid)
        latency = Latency(party)
        await play_measured(latency, loop.time() + seconds, 0.2, options.timeout, rng)
        log_bytes = server.logs[-1].stat().st_size - log_before
        window = loop.time() - began
        cpu_share = (cpu_seconds(server.proc.pid) - cpu_before) / window
        output, _ = await process.communicate()
        lines = [json.loads(line) for line in output.decode().splitlines()
                 if line.startswith("{")]
        attack = lines[-1] if lines else {"error": "the attacker printed nothing"}
    finally:
        gc.unfreeze()
        await close_party(party)
    return {"attack": attack, "p95_ms_before": _p95(calm.others + calm.acting),
            "p95_ms_during_others": _p95(latency.others),
            "p95_ms_others_first_second": _p95(latency.first_second),
            "max_ms_during_others": round(max(latency.others), 1) if latency.others else None,
            "p95_ms_during_acting": _p95(latency.acting),
            "samples_during": len(latency.others) + len(latency.acting),
            "log_bytes_per_s": round(log_bytes / window, 1),
            "server_cpu_share_during": round(cpu_share, 2)}


async def flood_run(server: Server, options: Options, tally: Tally, run: int
                    ) -> dict[str, Any]:
    """A room of four plays while another socket floods (:func:`attacked_run`)."""

    def flooder(party: Party) -> Coroutine[Any, Any, asyncio.subprocess.Process]:
        return start_flooder(server, party.path, 20 * run + 10, options.flood_s)

    found = await attacked_run(server, options, tally, run, flooder, options.flood_s)
    flood = found.pop("attack")
    if "frames" not in flood:
        flood = {"frames": 0, "disconnected_after_s": None, "error": "the flooder failed"}
    return {"flood": flood, **found}


async def drill_flood(options: Options) -> dict[str, Any]:
    """Drill 8: the flooding socket must be cut off quickly and the room stay quick."""
    started, tally = beginning(options), Tally()
    async with serving(options) as server:
        runs = []
        for run in range(options.count("flood")):
            runs.append(await flood_run(server, options, tally, run))
            log(f"flood {run + 1}: {runs[-1]}")
        slowest = max((r["p95_ms_during_others"] or 1e9 for r in runs), default=None)
        cut = [r["flood"]["disconnected_after_s"] for r in runs]
        met = all(c is not None and c <= 2.0 for c in cut) and slowest is not None \
            and slowest < 50.0
        figures = {"runs": runs, "disconnected_after_s": cut,
                   "p95_ms_others_during_flood": slowest}
        return result("flood", options, started, figures,
                      {"disconnected_within_s": 2.0, "p95_ms_others_during_flood": 50.0},
                      met, server, tally)


# --- drill 9: memory -------------------------------------------------------------------------


async def page_loads(server: Server, count: int, code: str) -> int:
    """GETs that never connect: half with a fresh cookie jar each (a new browser every
    time), half with one jar; returns the number answered 200."""
    paths = ["/", "/new", "/play", f"/room/{code}"]
    ok = 0
    limit = asyncio.Semaphore(8)
    async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as fresh, \
            aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as one:

        async def load(k: int) -> None:
            nonlocal ok
            session = fresh if k % 2 else one
            async with limit, session.get(server.base + paths[k // 2 % len(paths)]) as response:
                await response.read()
                ok += response.status == 200

        await asyncio.gather(*(load(k) for k in range(count)))
    return ok


async def played_room(server: Server, tally: Tally, where: int, timeout: float) -> Party:
    """A room of one person and a computer, played to the end with Play best."""
    party = await room_party(server.base, tally, where, timeout, computers=1)
    page = party.role("host").page
    try:
        await advance(party, lambda: page.first("play-again") is not None, timeout,
                      best=True)
    except BaseException:
        await close_party(party)
        raise
    return party


RELEASED = ("clients", "live_games", "rooms")
"""What the memory report counts that must be back at its idle number."""


async def wait_released(server: Server, idle: dict[str, Any], wait_s: float,
                        kinds: tuple[str, ...] = RELEASED) -> dict[str, Any]:
    """Until the server holds no more pages, live games and rooms than when idle (polled,
    bounded: games and rooms nobody has used for ``IDLE_BEFORE_UNLOAD`` go at the next
    housekeeping minute)."""
    deadline = time.monotonic() + wait_s

    def held(figures: dict[str, Any]) -> bool:
        return any(key in figures and figures[key] > idle.get(key, 0) for key in kinds)

    figures = await server.memory()
    while time.monotonic() < deadline and held(figures):
        await asyncio.sleep(2.0)
        figures = await server.memory()
    figures["waited_s"] = round(wait_s - max(0.0, deadline - time.monotonic()), 1)
    return figures


def within(after: dict[str, Any], idle: dict[str, Any], key: str) -> bool | None:
    """Whether a figure is back within 10% of idle (None when either report lacks it)."""
    if key not in after or key not in idle:
        return None
    return after[key] <= 1.1 * idle[key]


async def memory_phases(server: Server, options: Options, tally: Tally, code: str,
                        idle: dict[str, Any]) -> dict[str, Any]:
    """(a) page loads that never connect, (b) rooms played to the end and left; each
    followed by a wait for the server to let go (once, after both, with ``together``)."""
    figures: dict[str, Any] = {}
    figures["loads_answered"] = await page_loads(server, options.count("memory"), code)
    figures["right_after_loads"] = await server.memory()
    log(f"after {figures['loads_answered']} page loads: {figures['right_after_loads']}")
    if not options.together:
        figures["after_loads_released"] = await wait_released(
            server, idle, options.prune_wait, options.released())
        log(f"released: {figures['after_loads_released']}")
    limit = asyncio.Semaphore(10)

    async def room(k: int) -> None:
        async with limit:
            await close_party(await played_room(server, tally, 10 + k,
                                                max(options.timeout, 60.0)))

    await asyncio.gather(*(room(k) for k in range(options.rooms)))
    figures["right_after_rooms"] = await server.memory()
    figures["after_rooms_left"] = await wait_released(server, idle, options.prune_wait,
                                                      options.released())
    log(f"after {options.rooms} rooms: {figures['after_rooms_left']}")
    return figures


async def drill_memory(options: Options) -> dict[str, Any]:
    """Drill 9: what the server still holds after visitors and rooms are gone, against what
    it held idle (the server runs with tracemalloc for its report)."""
    started, tally = beginning(options), Tally()
    async with serving(options, env={"PYTHONTRACEMALLOC": "1"}) as server:
        reports = server.reports_memory()
        # warm-up: every page and a whole room game once, so that what stays loaded after
        # a first visit (imports, templates, caches) counts as idle; the room's phone stays
        # (its page would take the room page's reconnect timeout to go)
        resident = await played_room(server, tally, 1, max(options.timeout, 60.0))
        visitor = Browser(server.base, address(2), tally)
        for path in ("/", "/new"):  # (a table page is warm from the room)
            await visitor.open(path, options.timeout)
        await visitor.close()
        try:
            # the resident's page, and the rules page the start-up check loaded (it never
            # connects: it goes a minute later, with the drill's own page loads)
            idle = await wait_released(server, {"clients": len(resident.phones) + 1},
                                       options.prune_wait, ("clients",))
            log(f"idle: {idle}")
            figures = await memory_phases(server, options, tally, resident.code or "", idle)
        finally:
            await close_party(resident)
        key = "traced_bytes" if idle.get("traced_bytes") is not None else "objects"
        checks = [within(figures[k], idle, key)
                  for k in ("after_loads_released", "after_rooms_left") if k in figures]
        last = figures["after_rooms_left"]
        figures["retained_vs_idle"] = {k: round(last[k] / idle[k], 3) for k in (
            "traced_bytes", "objects", "rss_kib") if last.get(k) and idle.get(k)}
        figures.update({"memory_report": reports, "idle": idle, "rooms": options.rooms,
                        "compared": key if reports else "nothing: no memory report "
                                                         "(SIGUSR1 is not handled)"})
        return result("memory", options, started, figures,
                      {"retained_vs_idle": "within 10%", "compared": key},
                      reports and all(c is True for c in checks), server, tally)


# --- running ---------------------------------------------------------------------------------

DRILLS: dict[str, Callable[[Options], Coroutine[Any, Any, dict[str, Any]]]] = {
    "races": drill_races, "restart": drill_restart, "kill-win": drill_kill_win,
    "lock": drill_lock, "kill-cycles": drill_kill_cycles, "bad-presses": drill_bad_presses,
    "malformed": drill_malformed, "flood": drill_flood, "memory": drill_memory,
}


def run(name: str, options: Options | None = None, **settings: Any) -> dict[str, Any]:
    """Run one drill and return its result object (tests call this)."""
    chosen = dataclasses.replace(options or Options(), **settings)
    return asyncio.run(DRILLS[name](chosen))


HEADLINES = {"races": ("duplicates", "engine_text_shown"), "restart": ("split",),
             "kill-win": ("stuck",), "lock": ("frozen", "resume_s"), "kill-cycles": ("lost",),
             "bad-presses": ("state_changes", "pages_work_afterwards"),
             "malformed": ("error_lines",),
             "flood": ("disconnected_after_s", "p95_ms_others_during_flood"),
             "memory": ("retained_vs_idle",)}
"""The figures the summary table shows for each drill."""


def summary_table(results: list[dict[str, Any]]) -> str:
    """The drills' main figures as a Markdown table (for docs/benchmarks.md)."""
    rows = ["| drill | measured | target | met |", "| --- | --- | --- | --- |"]
    for found in results:
        name = found["drill"]
        figures = found.get("figures", {})
        measured = "; ".join(f"{k}: {json.dumps(figures.get(k))}"
                             for k in HEADLINES.get(name, ())) or found.get("error", "")
        rows.append(f"| {name} | {measured} | {json.dumps(found.get('target'))} | "
                    f"{found.get('met')} |")
    return "\n".join(rows)


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("name", nargs="?", choices=sorted(DRILLS), help="the drill to run")
    parser.add_argument("--drill", choices=sorted(DRILLS), help="the drill to run")
    parser.add_argument("--all", action="store_true", help="run every drill")
    parser.add_argument("--trials", type=int,
                        help="trials (see the list above; with --all, for every drill)")
    parser.add_argument("--pace", type=float, default=0.05, help="the server's --pace")
    parser.add_argument("--timeout", type=float, default=15.0, help="seconds per step")
    parser.add_argument("--quiet", type=float, default=0.25,
                        help="seconds of silence that end a race's trial")
    parser.add_argument("--lock-seconds", type=float, default=8.0)
    parser.add_argument("--resume-seconds", type=float, default=5.0)
    parser.add_argument("--flood-seconds", type=float, default=10.0)
    parser.add_argument("--rooms", type=int, default=50, help="memory: rooms played and left")
    parser.add_argument("--prune-wait", type=float, default=420.0,
                        help="memory: seconds to wait for the server to let go of pages")
    parser.add_argument("--together", action="store_true",
                        help="memory: wait once, after both phases")
    parser.add_argument("--pages-only", action="store_true",
                        help="memory: wait for pages to go, not for games and rooms to unload")
    parser.add_argument("--app-dir", type=Path, default=ROOT,
                        help="the checkout whose app.py is served (default: this one)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--flooder", nargs=4, metavar=("BASE", "PATH", "ADDRESS", "SECONDS"),
                        help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    """Run the drills asked for; exit 0 when every target was met."""
    args = parse_args(argv)
    if args.flooder:
        base, path, where, seconds = args.flooder
        asyncio.run(flood_from_here(base, path, where, float(seconds)))
        return 0
    names = list(DRILLS) if args.all else [args.drill or args.name]
    if names == [None]:
        print("name a drill, or --all", file=sys.stderr)
        return 2
    options = Options(trials=args.trials, pace=args.pace, timeout=args.timeout,
                      quiet=args.quiet, lock_s=args.lock_seconds,
                      resume_s=args.resume_seconds, flood_s=args.flood_seconds,
                      rooms=args.rooms, prune_wait=args.prune_wait, together=args.together,
                      unloads=not args.pages_only,
                      app_dir=args.app_dir.resolve(), seed=args.seed)
    results = []
    for name in names:
        try:
            found = run(name, options)
        except Exception as error:  # a drill that could not run: say why, run the others
            traceback.print_exc()
            found = {"drill": name, "error": f"{type(error).__name__}: {error}", "met": False,
                     "at": datetime.now(UTC).isoformat(timespec="seconds"),
                     "code": code_measured(options.app_dir), "machine": machine()}
        results.append(found)
        print(json.dumps(found, indent=None if args.all else 1), flush=True)
    if args.all:
        print(summary_table(results), flush=True)
    return 0 if all(r.get("met") for r in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
