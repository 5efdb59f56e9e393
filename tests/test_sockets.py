"""Socket discipline: floods are cut off, malformed frames are dropped without tracebacks,
browser log text is bounded and escaped, and a socket may press only the buttons of the pages
it handshook with.

The unit tests drive the guard with a fake server and a fake clock. The integration tests start
``app.py`` once for the module (loopback, a free port, a fresh data directory) and speak
NiceGUI's protocol as ``nicegui.js`` does: an HTTP GET for the page (its HTML carries the
elements and the client id, its response sets the session cookie), then a python-socketio
WebSocket with the page's query. Raw socket.io packets go out through the engine.io client
underneath. Nothing waits a fixed time: every wait is for a condition (a message on a page's
socket, a line in the server's log) with a bounded timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlencode

import aiohttp
import hostile  # benchmarks/hostile.py: every field of every message with wrong values
import pytest
import socketio
from engineio import packet as eio_packet
from engineio.exceptions import SocketIsClosedError

from components.admission import NEW_SOCKETS_BURST
from components.sockets import (
    BURST,
    FLOOD_REFUSALS,
    FLOOD_SECONDS,
    LOG_BURST,
    LOG_TEXT,
    RATE,
    GuardedSocket,
    SafePacket,
    SocketGuard,
    _problem,
)

guard_module = sys.modules[SocketGuard.__module__]
"""The guard's own module (a test that imports the pages afresh may leave another one under
its name in ``sys.modules`` later): its hand-offs to NiceGUI are patched there."""
ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 10.0
"""Seconds any awaited condition may take before the test fails."""

RAW_ELEMENTS = re.compile(r"parseElements\(String\.raw`(.*?)`\)", re.S)
CLIENT_ID = re.compile(r"'client_id': '([0-9a-f-]+)'")
NEXT_MESSAGE_ID = re.compile(r"'next_message_id': (\d+)")
HTML_ESCAPES = (("&#36;", "$"), ("&#96;", "`"), ("&gt;", ">"), ("&lt;", "<"), ("&amp;", "&"))


# --- the guard alone, with a fake server and clock ------------------------------------------


class Clock:
    """A clock that moves only when the test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class FakeEngine:
    def __init__(self) -> None:
        self.sockets: dict[str, Any] = {"e1": SimpleNamespace(queue=asyncio.Queue())}
        self.disconnected: list[str] = []
        self.gone = asyncio.Event()

    async def disconnect(self, eio_sid: str) -> None:
        self.disconnected.append(eio_sid)
        self.sockets.pop(eio_sid, None)
        self.gone.set()


class FakeServer:
    """What the guard uses of python-socketio's server: one engine.io session ``e1`` whose
    socket.io session is ``s1`` (more are made by ``_handle_eio_connect``); dispatched frames
    and connected sessions are recorded."""

    packet_class = socketio.packet.Packet

    def __init__(self) -> None:
        self.eio = FakeEngine()
        self.manager = SimpleNamespace(eio_sid_from_sid=lambda sid, namespace: "e" + sid[1:])
        self.dispatched: list[str | bytes] = []
        self.connected: list[str] = []

    async def _handle_eio_connect(self, eio_sid: str, environ: Any) -> None:
        self.connected.append(eio_sid)
        self.eio.sockets[eio_sid] = SimpleNamespace(queue=asyncio.Queue())

    async def _handle_eio_message(self, eio_sid: str, data: str | bytes) -> None:
        self.dispatched.append(data)


def guarded() -> tuple[SocketGuard, FakeServer, Clock]:
    server, clock = FakeServer(), Clock()
    return SocketGuard(server, clock), server, clock  # type: ignore[arg-type]


EVENT = '2["event",{}]'


async def receive(guard: SocketGuard, eio_sid: str, data: str | bytes) -> None:
    """A message frame as the guarded engine.io socket hands it over: counted as it is read,
    then checked and dispatched."""
    if guard.on_packet(eio_sid, SafePacket(eio_packet.MESSAGE, data)):
        await guard.on_message(eio_sid, data)


async def test_a_fast_flood_is_cut_off_at_once_and_logged_once(lines):
    guard, server, clock = guarded()
    for _ in range(5000):
        await receive(guard, "e1", EVENT)
        clock.now += 0.0001
    await asyncio.wait_for(server.eio.gone.wait(), TIMEOUT)  # the disconnect is a task
    assert len(server.dispatched) == BURST
    assert server.eio.disconnected == ["e1"]
    assert guard.refused == FLOOD_REFUSALS + 1 and guard.disconnected == 1
    assert [r.getMessage() for r in lines] == ["socket flooding: disconnected"]


async def test_engine_io_stops_reading_a_socket_once_it_is_cut_off():
    """The guarded engine.io socket ends its read loop (engine.io's SocketIsClosedError) at
    the first frame after the cut, instead of reading and dropping the flood one frame at a
    time; before the cut, every frame is counted as it is read."""
    guard, _, _ = guarded()
    messages: list[Any] = []

    async def trigger(event: str, sid: str, data: Any, run_async: bool = False) -> None:
        messages.append(data)

    engine = SimpleNamespace(create_queue=asyncio.Queue, logger=logging.getLogger("test"),
                             parcheesi_guard=guard, async_handlers=True,
                             _trigger_event=trigger)
    socket = GuardedSocket(engine, "e1")
    with pytest.raises(SocketIsClosedError):
        for _ in range(5000):
            await socket.receive(SafePacket(eio_packet.MESSAGE, EVENT))
    assert len(messages) == BURST and guard.disconnected == 1


async def test_a_slow_flood_is_cut_off_after_a_second_over_quota():
    guard, server, clock = guarded()
    sent = 0
    while not guard.disconnected and sent < 10_000:
        await receive(guard, "e1", EVENT)
        sent += 1
        clock.now += 1 / (RATE + 5)
    await asyncio.wait_for(server.eio.gone.wait(), TIMEOUT)
    over_quota = BURST / 5  # the burst drains at 5 messages a second
    assert server.eio.disconnected == ["e1"]
    assert over_quota < sent / (RATE + 5) < over_quota + FLOOD_SECONDS + 0.5
    assert guard.refused <= FLOOD_REFUSALS


async def test_a_busy_phone_is_never_cut_off():
    guard, server, clock = guarded()
    for _ in range(3):  # a burst of a page load, then nearly the rate for a minute, then quiet
        for _ in range(BURST):
            await receive(guard, "e1", EVENT)
        for _ in range(int(60 * RATE * 0.9)):
            clock.now += 1 / (RATE * 0.9)
            await receive(guard, "e1", EVENT)
        clock.now += BURST / RATE
    assert guard.counters() == {"refused": 0, "disconnected": 0, "malformed": 0, "foreign": 0,
                                "logs_dropped": 0, "connections_refused": 0}
    assert not server.eio.disconnected


async def test_frames_nicegui_js_never_sends_are_dropped_and_noted_once(lines):
    guard, server, _ = guarded()
    for frame in (b"junk", "", "2[", '2["connect",{}]', '2["disconnect"]', "2[5]", "4{}",
                  '51-["event",{"_placeholder":true,"num":0}]', "9"):
        await receive(guard, "e1", frame)
    await receive(guard, "e1", '2["event",{}]')
    await receive(guard, "e1", "0")
    assert server.dispatched == ['2["event",{}]', "0"]
    assert guard.malformed == 9
    assert [r.getMessage() for r in lines] == ["socket frame dropped"]


@pytest.mark.parametrize(("frame", "problem"), [
    ("", "undecodable engine.io packet (ValueError)"),
    ("x", "undecodable engine.io packet (ValueError)"),
    ("9", "engine.io packet type 9"),
    ("7junk", "engine.io packet type 7"),
    ("4hello", None),
    ("3", None),
    (b"\x00\xff", None),
])
def test_engine_io_frames_that_are_no_packet_become_marked_no_ops(frame, problem):
    packet = SafePacket(encoded_packet=frame)
    assert packet.problem == problem
    if problem is not None:
        assert (packet.packet_type, packet.data) == (6, None)  # NOOP: engine.io ignores it


async def test_engine_io_junk_is_dropped_noted_once_and_counted_against_the_quota(lines):
    guard, server, _ = guarded()
    junk = [SafePacket(encoded_packet=frame) for frame in ("x", "9", "")]
    assert [guard.on_packet("e1", p) for p in junk] == [False, False, False]
    assert guard.malformed == 3
    assert [r.getMessage() for r in lines] == ["socket frame dropped"]
    assert guard.on_packet("e1", SafePacket(encoded_packet="3"))  # a pong passes
    flood = [guard.on_packet("e1", SafePacket(encoded_packet="9")) for _ in range(BURST * 2)]
    await asyncio.wait_for(server.eio.gone.wait(), TIMEOUT)  # the disconnect is a task
    assert guard.disconnected == 1 and server.eio.disconnected == ["e1"]
    assert not any(flood)


@pytest.mark.parametrize(("name", "message", "problem"), [
    ("event", None, "event: not one object"),
    ("event", {"client_id": 5}, "event: no client id"),
    ("event", {"client_id": "c", "listener_id": "l"}, "event: no id"),
    ("event", {"client_id": "c", "id": True, "listener_id": "l"}, "event: bad id"),
    ("event", {"client_id": "c", "id": 1, "listener_id": "l", "args": ["{"]}, "event: bad args"),
    ("event", {"client_id": "c", "id": 1, "listener_id": "l", "args": [5]}, "event: bad args"),
    ("event", {"client_id": "c", "id": 1, "listener_id": "l", "args": ["[1]", None]}, None),
    ("ack", {"client_id": "c", "next_message_id": "3"}, "ack: bad next_message_id"),
    ("ack", {"client_id": "c", "next_message_id": 3}, None),
    ("log", {"client_id": "c", "level": "critical", "message": "x"}, "log: bad level"),
    ("javascript_response", {"client_id": "c", "result": 1}, "javascript_response: no request_id"),
    ("handshake", {"client_id": "c", "tab_id": "t", "document_id": "d",
                   "next_message_id": "12"}, None),
    ("handshake", {"client_id": "c", "tab_id": "t", "document_id": "d",
                   "next_message_id": "1e9"}, "handshake: bad next_message_id"),
])
def test_messages_are_checked_field_by_field(name, message, problem):
    assert _problem(name, (message,)) == problem


async def test_browser_log_lines_are_capped_per_socket(lines):
    guard, _, clock = guarded()
    await receive(guard, "e1", "0")  # the socket's state
    guard.state("e1").pages.add("page")
    message = {"client_id": "page", "level": "error", "message": "x" * 1000 + "\nforged"}
    for _ in range(LOG_BURST + 3):
        guard.on_log("s1", message)
    clock.now += 60 / LOG_BURST
    guard.on_log("s1", message)
    assert guard.logs_dropped == 3 and len(lines) == LOG_BURST + 1
    assert all(r.levelno == logging.WARNING and "\n" not in r.getMessage() for r in lines)
    assert all(len(r.getMessage()) < LOG_TEXT + 30 for r in lines)
    guard.on_log("s1", {**message, "client_id": "another page"})
    assert guard.foreign == 1


def dispatch(guard: SocketGuard, kind: str, message: Any) -> Any:
    """Hand one message to the guard's handler for its kind, as python-socketio does."""
    handler = {"event": guard.on_event, "javascript_response": guard.on_javascript_response,
               "ack": guard.on_ack, "log": guard.on_log, "handshake": guard.on_handshake}[kind]
    return handler("s1", message)


@pytest.mark.parametrize("with_page", [False, True])
async def test_no_message_of_any_shape_raises(with_page, monkeypatch, lines):
    """Every field of every message given every wrong type, deep nesting and huge values,
    from a socket with and without the page it names: each is dropped (or, where the shape
    is right, handed on) and none raises. From a socket without the page, nothing reaches
    NiceGUI's handlers."""
    reached: list[str] = []
    for name in ("_on_event", "_on_javascript_response", "_on_ack"):
        monkeypatch.setattr(guard_module, name,
                            lambda sid, message, name=name: reached.append(name))
    guard, _, _ = guarded()
    await receive(guard, "e1", "0")  # the socket's state
    if with_page:
        guard.state("e1").pages.add("page")
    frames = list(hostile.wrong_fields("page", 0, "listener"))
    assert len(frames) > 250
    for name, kind, message in frames:
        result = dispatch(guard, kind, hostile.nested(message))
        if asyncio.iscoroutine(result):
            assert await result is False, name
    if not with_page:
        assert reached == [] and not any(r.name == "parcheesi.browser" for r in lines)
        assert guard.foreign > 0
    assert guard.malformed > 0
    assert all(r.levelno <= logging.INFO for r in lines)


@pytest.mark.parametrize("message", [
    {"client_id": "page", "level": [0], "message": "x"},
    {"client_id": "page", "level": {"error": 1}, "message": "x"},
])
def test_a_log_level_of_another_type_is_dropped(message, lines):
    guard, _, _ = guarded()
    guard.state("e1").pages.add("page")
    guard.on_log("s1", message)
    assert guard.malformed == 1 and not any(r.name == "parcheesi.browser" for r in lines)


async def test_deeply_nested_frames_and_arguments_are_dropped(monkeypatch):
    reached: list[Any] = []
    monkeypatch.setattr(guard_module, "_on_event", lambda sid, m: reached.append(m))
    guard, server, _ = guarded()
    await receive(guard, "e1", "2" + hostile.packet("event", hostile.DEEP)[2:])
    assert server.dispatched == [] and guard.malformed == 1
    guard.state("e1").pages.add("page")
    deep_argument = {"client_id": "page", "id": 1, "listener_id": "l",
                     "args": [hostile.nested(hostile.DEEP_TEXT)]}
    guard.on_event("s1", deep_argument)
    assert reached == [] and guard.malformed == 2


# --- the server ------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """The running ``app.py`` and its log (standard output and error in one file)."""

    def __init__(self, base: str, log_path: Path, proc: subprocess.Popen[bytes]) -> None:
        self.base = base
        self.log_path = log_path
        self.proc = proc

    def log(self, start: int = 0) -> str:
        return self.log_path.read_bytes()[start:].decode(errors="replace")

    def log_size(self) -> int:
        return self.log_path.stat().st_size

    async def wait_for_log(self, check: Callable[[str], bool], start: int, what: str) -> str:
        """The log written since ``start`` once ``check`` accepts it."""
        deadline = time.monotonic() + TIMEOUT
        while not check(text := self.log(start)):
            assert time.monotonic() < deadline, f"no {what} in the server log:\n{text[-3000:]}"
            await asyncio.sleep(0.05)
        return text


def stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM the server's process group, SIGKILL it if it does not end in 10 s."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    data = tmp_path_factory.mktemp("sockets")
    port = free_port()
    # NiceGUI takes a PYTEST_ variable to mean it runs under its own test fixtures
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PARCHEESI_", "NICEGUI_", "PYTEST_"))}
    env.update({"PARCHEESI_DATA_DIR": str(data), "NICEGUI_STORAGE_PATH": str(data / "nicegui"),
                "PARCHEESI_PACE": "0"})
    log_path = data / "server.log"
    with log_path.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "app.py", "--host", "127.0.0.1", "--port",
                                 str(port)], cwd=ROOT, env=env, stdout=out,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                start_new_session=True)
    started = Server(f"http://127.0.0.1:{port}", log_path, proc)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, f"the server stopped:\n{started.log()[-3000:]}"
            try:
                with urllib.request.urlopen(f"{started.base}/rules", timeout=5) as response:
                    if response.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError):
                pass
            assert time.monotonic() < deadline, f"the server did not start:\n{started.log()}"
            time.sleep(0.1)
        yield started
    finally:
        stop(proc)


def problems(log: str) -> list[str]:
    """Log lines that show a traceback or an error."""
    return [line for line in log.splitlines()
            if "Traceback" in line or "ERROR" in line or '"level": "error"' in line]


# --- a browser and its pages, as nicegui.js speaks -------------------------------------------


class Browser:
    """One person's browser: its own cookie jar (so its own session) and tab."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.tab_id = str(uuid.uuid4())
        jar = aiohttp.CookieJar(unsafe=True)  # cookies for a numeric host
        self.http = aiohttp.ClientSession(cookie_jar=jar)
        # a WebSocket gets a connection of its own, as in a browser
        self.ws = aiohttp.ClientSession(connector=aiohttp.TCPConnector(force_close=True),
                                        cookie_jar=jar)

    async def close(self) -> None:
        await self.http.close()
        await self.ws.close()


class Page:
    """One loaded page: its elements (kept up to date from ``update`` messages) and socket."""

    def __init__(self, browser: Browser, path: str) -> None:
        self.browser = browser
        self.path = path
        self.client_id = ""
        self.next_message_id = 0
        self.elements: dict[str, dict[str, Any]] = {}
        self.shown: list[tuple[str, Any]] = []
        """Every (data-testid, model-value) an update showed."""
        self.sio: socketio.AsyncClient | None = None
        self.disconnected = asyncio.Event()
        self._changed = asyncio.Event()

    async def load(self) -> None:
        """GET the page (no socket yet)."""
        async with self.browser.http.get(self.browser.base + self.path) as response:
            assert response.status == 200, f"GET {self.path}: HTTP {response.status}"
            html = await response.text()
        raw, client_id = RAW_ELEMENTS.search(html), CLIENT_ID.search(html)
        next_id = NEXT_MESSAGE_ID.search(html)
        assert raw and client_id and next_id, f"GET {self.path}: no NiceGUI page"
        text = raw.group(1)
        for escaped, plain in HTML_ESCAPES:
            text = text.replace(escaped, plain)
        self.elements = {str(k): v for k, v in json.loads(text).items()}
        self.client_id = client_id.group(1)
        self.next_message_id = int(next_id.group(1))

    async def connect(self, client_id: str | None = None) -> None:
        """Open the page's socket with the implicit handshake (for ``client_id``: another
        page's, as a forger would)."""
        sio = socketio.AsyncClient(http_session=self.browser.ws, reconnection=False)
        sio.on("update", self._on_update)
        sio.on("disconnect", self._on_disconnect)
        query = urlencode({"client_id": client_id or self.client_id,
                           "next_message_id": self.next_message_id,
                           "implicit_handshake": "true", "document_id": str(uuid.uuid4()),
                           "tab_id": self.browser.tab_id})
        self.sio = sio
        self.disconnected.clear()
        await sio.connect(f"{self.browser.base}/?{query}", transports=["websocket"],
                          socketio_path="/_nicegui_ws/socket.io", wait_timeout=TIMEOUT)

    async def close(self) -> None:
        if self.sio is not None and self.sio.connected:
            with contextlib.suppress(Exception):
                await self.sio.disconnect()

    def _on_update(self, message: dict[str, Any]) -> None:
        message.pop("_id", None)
        for key, element in message.items():
            if element is None:
                self.elements.pop(key, None)
            else:
                self.elements[key] = element
                props = element.get("props", {})
                if "data-testid" in props:
                    self.shown.append((props["data-testid"], props.get("model-value")))
        self._changed.set()

    def _on_disconnect(self, reason: Any = None) -> None:
        self.disconnected.set()
        self._changed.set()

    def find(self, testid: str) -> str:
        return next(k for k, e in self.elements.items()
                    if e.get("props", {}).get("data-testid") == testid)

    def value(self, testid: str) -> Any:
        return self.elements[self.find(testid)].get("props", {}).get("model-value")

    def listener(self, key: str, event: str) -> str:
        return str(next(e["listener_id"] for e in self.elements[key]["events"]
                        if e["type"] == event))

    def event(self, testid: str, event: str, *args: Any, client_id: str | None = None
              ) -> dict[str, Any]:
        """The ``event`` message nicegui.js sends for ``event`` of the element ``testid``."""
        key = self.find(testid)
        return {"id": int(key), "client_id": client_id or self.client_id,
                "listener_id": self.listener(key, event), "args": [json.dumps(a) for a in args]}

    async def emit(self, name: str, message: Any) -> None:
        assert self.sio is not None
        await self.sio.emit(name, message)

    async def raw(self, frame: str | bytes) -> None:
        """Send one WebSocket frame as it is: text is an engine.io packet (``4`` for a message,
        then the socket.io packet), bytes a binary message."""
        assert self.sio is not None
        if isinstance(frame, str):
            assert frame.startswith("4"), frame
            frame = frame[1:]  # the engine.io client puts the message type back in front
        await self.sio.eio.send(frame)

    async def wait(self, check: Callable[[], Any], what: str) -> Any:
        deadline = asyncio.get_running_loop().time() + TIMEOUT
        while not (value := check()):
            remaining = deadline - asyncio.get_running_loop().time()
            assert remaining > 0, f"{self.path}: no {what} within {TIMEOUT:.0f} s"
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), remaining)
        return value

    async def choose_players(self, index: int) -> None:
        """Press a button of the player-count toggle and wait until the page shows it."""
        await self.emit("event", self.event("player-count", "update:modelValue", index))
        await self.wait(lambda: self.value("player-count") == index, f"player count {index}")


@pytest.fixture
async def browsers(server: Server) -> AsyncIterator[Callable[[], Browser]]:
    opened: list[Browser] = []

    def open_browser() -> Browser:
        opened.append(Browser(server.base))
        return opened[-1]

    yield open_browser
    for browser in opened:
        await browser.close()


async def open_page(browser: Browser, path: str = "/new") -> Page:
    page = Page(browser, path)
    await page.load()
    await page.connect()
    return page


# --- integration tests -----------------------------------------------------------------------


async def test_a_flooding_socket_is_cut_off_once_and_its_page_cools_down(server, browsers):
    page = await open_page(browsers())
    start = server.log_size()
    frame = "42" + json.dumps(["event", {"id": 999_999, "client_id": page.client_id,
                                         "listener_id": "none", "args": []}])
    began = time.monotonic()
    with contextlib.suppress(Exception):  # sending fails once the server has cut the socket
        for _ in range(5000):
            if page.disconnected.is_set():
                break
            await page.raw(frame)
    await asyncio.wait_for(page.disconnected.wait(), TIMEOUT)
    assert time.monotonic() - began < 2.0, f"cut off only after {time.monotonic() - began:.1f} s"
    log = await server.wait_for_log(lambda text: "socket flooding: disconnected" in text, start,
                                    "flood line")
    with pytest.raises(socketio.exceptions.ConnectionError):  # the page's handshake is refused
        await page.connect()
    log = server.log(start)
    assert log.count("socket flooding") == 1, log
    flood = json.loads(next(line for line in log.splitlines() if "socket flooding" in line))
    assert flood["level"] == "warning" and flood["logger"] == "parcheesi.sockets"
    assert flood["refused"] > 0
    assert page.client_id not in json.dumps(flood)  # a prefix only
    assert not problems(log), log


def malformed_frames(page: Page) -> list[str | bytes]:
    """25 socket.io packets a browser never sends."""
    client = page.client_id
    toggle = page.find("player-count")
    listener = page.listener(toggle, "update:modelValue")

    def event(message: Any) -> str:
        return "42" + json.dumps(["event", message])

    forged_line = json.dumps({"level": "error", "logger": "parcheesi", "message": "forged"})
    return [
        "42[",
        '42["event"]',
        '42["event",null]',
        '42["event",{"client_id":5}]',
        event({"client_id": client, "id": int(toggle), "listener_id": listener,
               "args": ["not json"]}),
        event({"client_id": client, "id": int(toggle), "listener_id": "wrong", "args": []}),
        event({"client_id": client, "id": 10**30, "listener_id": listener, "args": []}),
        event({"client_id": client, "id": str(toggle), "listener_id": listener, "args": "[]"}),
        event({"client_id": client, "id": int(toggle), "listener_id": listener, "args": [5]}),
        b"\x00\xff\xfe junk",
        '42["no_such_event",{}]',
        "42[5,{}]",
        "42[]",
        '42["handshake",{"client_id":null}]',
        '420["handshake",{"client_id":"' + client + '"}]',
        '42["connect","not an environ"]',
        '42["disconnect"]',
        "42" + json.dumps(["log", {"client_id": client, "level": "error",
                                   "message": "boom\n" + forged_line}]),
        "42" + json.dumps(["log", {"client_id": client, "level": "critical", "message": "x"}]),
        "42" + json.dumps(["log", {"client_id": client}]),
        "42" + json.dumps(["javascript_response", {"client_id": client}]),
        '42["javascript_response",[1,2]]',
        "42" + json.dumps(["ack", {"client_id": client, "next_message_id": "soon"}]),
        "44{}",
        '451-["event",{"_placeholder":true,"num":0}]',
    ]


async def test_malformed_frames_are_dropped_without_tracebacks(server, browsers):
    page = await open_page(browsers())
    start = server.log_size()
    frames = malformed_frames(page)
    assert len(frames) == 25
    for frame in frames:
        await page.raw(frame)
    await page.choose_players(0)  # the page still works, and the frames before were handled
    await page.choose_players(1)
    log = server.log(start)
    assert not problems(log), log
    assert not any(line.startswith('{"level"') for line in log.splitlines()), log
    assert not page.disconnected.is_set()


async def test_browser_log_lines_are_few_and_escaped(server, browsers):
    page = await open_page(browsers())
    start = server.log_size()
    for n in range(30):
        await page.emit("log", {"client_id": page.client_id, "level": "warning",
                                "message": f"line {n}\nsecond line " + "x" * 500})
    await page.choose_players(0)
    lines = [line for line in server.log(start).splitlines() if "line " in line]
    assert 1 <= len(lines) <= 5, lines
    for line in lines:
        entry = json.loads(line)
        assert entry["logger"] == "parcheesi.browser" and entry["level"] == "warning"
        assert len(entry["message"]) < 300 and "\n" not in entry["message"]


async def test_a_socket_cannot_press_the_buttons_of_another_browsers_page(server, browsers):
    victim = await open_page(browsers())
    other = await open_page(browsers())
    assert victim.value("player-count") == 2  # four players
    toggle = victim.find("player-count")
    forged = {"id": int(toggle), "client_id": victim.client_id,
              "listener_id": victim.listener(toggle, "update:modelValue"),
              "args": [json.dumps(0)]}
    for _ in range(3):
        await other.emit("event", forged)
    # Once the other page's own press shows, the server has handled the forged frames sent
    # before it on the same socket; once the victim's own press shows, whatever the forged
    # frames changed on the victim's page has come before it on the victim's socket.
    await other.choose_players(0)
    await victim.choose_players(1)
    assert ("player-count", 0) not in victim.shown, victim.shown


async def test_a_socket_cannot_handshake_with_another_browsers_page(server, browsers):
    victim = Page(browsers(), "/new")
    await victim.load()  # the page is served, its socket not yet open
    forger = Page(browsers(), "/new")
    with pytest.raises(socketio.exceptions.ConnectionError):
        await forger.connect(client_id=victim.client_id)
    await victim.connect()
    await victim.choose_players(0)


async def bare_socket(server: Server, http: aiohttp.ClientSession | None = None
                      ) -> socketio.AsyncClient:
    """A socket.io connection with no cookie and no page, as a script opens one (``http``:
    the session it connects through, e.g. from another address)."""
    sio = socketio.AsyncClient(reconnection=False, http_session=http)
    await sio.connect(server.base, transports=["websocket"],
                      socketio_path="/_nicegui_ws/socket.io", wait_timeout=TIMEOUT)
    return sio


async def test_a_reconnect_storm_is_refused_before_any_page_and_logged_once(server):
    """An address opening sockets all at once gets its burst, then is refused by engine.io
    (before socket.io's handshake, after a pause); one line says so."""
    start = server.log_size()
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(
            local_addr=("127.0.0.3", 0), force_close=True, limit=0)) as http:
        found = await asyncio.gather(*(bare_socket(server, http)
                                       for _ in range(NEW_SOCKETS_BURST + 10)),
                                     return_exceptions=True)
        opened = [sio for sio in found if isinstance(sio, socketio.AsyncClient)]
        for sio in opened:
            await sio.disconnect()
    refused = [e for e in found if isinstance(e, socketio.exceptions.ConnectionError)]
    assert len(opened) == NEW_SOCKETS_BURST and len(refused) == 10
    log = await server.wait_for_log(lambda text: "connections refused" in text, start,
                                    "refusal line")
    assert log.count("socket connections refused") == 1, log
    assert not problems(log), log


async def send_handled(sio: socketio.AsyncClient, frames: list[str]) -> None:
    """Send raw socket.io frames, then wait until the server has handled them: it answers a
    handshake sent with an acknowledgement after the frames before it (python-socketio
    starts its handlers in the order the frames came)."""
    for frame in frames:
        await sio.eio.send(frame[1:])  # the engine.io client puts the message type in front
    answer = await sio.call("handshake", {"client_id": "barrier"}, timeout=TIMEOUT)
    assert answer is False


CHUNK = 40
"""Frames one socket sends at once: within its burst, so the flood guard lets them all
through to the checks."""


async def test_no_frame_of_any_shape_makes_a_traceback(server, browsers):
    """Every field of every message given every wrong type, deep nesting and huge values,
    from sockets without a cookie or a page (a made-up client id) and from sockets of the
    page they name; then every listener of the page sent every wrong argument. The server
    logs no traceback and no error, keeps every socket, and the page still works."""
    start = server.log_size()

    def fields(client_id: str, page: Page) -> list[str]:
        toggle = page.find("player-count")
        return [hostile.packet(kind, message) for _, kind, message in hostile.wrong_fields(
            client_id, int(toggle), page.listener(toggle, "update:modelValue"))]

    def arguments(page: Page) -> list[str]:
        return [hostile.packet("event", message)
                for key, element in page.elements.items()
                for event in element.get("events", [])
                for _, message in hostile.wrong_arguments(
                    page.client_id, int(key), str(event["listener_id"]))]

    template = Page(browsers(), "/new")
    await template.load()
    made_up = fields(str(uuid.uuid4()), template)
    for k in range(0, len(made_up), CHUNK):
        sio = await bare_socket(server)
        try:
            await send_handled(sio, made_up[k:k + CHUNK])
            assert sio.connected
        finally:
            await sio.disconnect()
    pages: list[Page] = []
    for frames in (lambda page: fields(page.client_id, page), arguments):
        for k in range(0, len(frames(template)), CHUNK):
            page = await open_page(browsers())
            pages.append(page)
            assert page.sio is not None
            await send_handled(page.sio, frames(page)[k:k + CHUNK])
    await pages[-1].choose_players(0)
    log = server.log(start)
    assert not problems(log), log[-3000:]
    assert not any(page.disconnected.is_set() for page in pages)
