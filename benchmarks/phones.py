"""A simulated phone: a browser that speaks NiceGUI's own protocol to the real server.

Used by the benchmarks and drills that drive the server as phones do (``rooms.py``,
``chaos.py``); nothing on the server is there for them:

- a page is opened with an HTTP GET (the response sets the browser's session cookie; the page
  HTML carries the elements and the socket.io query with the client id), then a python-socketio
  WebSocket to ``/_nicegui_ws/socket.io`` with that query (``client_id``,
  ``next_message_id``, ``implicit_handshake``, ``tab_id``, ``document_id``), on a connection of
  its own as browsers open it;
- ``update`` messages are applied to a local copy of the page's elements (deleted elements,
  ``preserved_props``; messages seen before are dropped by ``_id``), ``run_javascript`` requests
  for ``localStorage`` are answered from the phone's own dictionary with
  ``javascript_response``, ``open`` is followed like a navigation, ``ack`` is sent every 3 s
  (``acker``);
- clicks and changes are the ``event`` messages the browser sends (element id, listener id,
  JSON-encoded arguments). A control that carries a ``data-stamp`` prop (the game version the
  page shows and a per-tab counter) sends that stamp as its click's one argument, as the
  table's script does; without the prop a click has no arguments. ``Page.frame`` and
  ``Page.send`` build and send any frame, for the drills that forge or replay them;
- the table's controls are one component (``components/controls.js``) drawn from one JSON
  state: its dice, Roll, piece buttons, movement options, Hint, Play best and status line are
  read from that state as the component draws them, each under a key of its own
  (``"<element id>#<n>"``), and pressing one sends the component's ``press`` event with
  what the component sends (the control, its index, the set of options and the stamp).

Each phone is its own browser: its own cookie jar, ``localStorage`` and tab id (a second tab
of the same browser gets a tab id of its own), and its own loopback source address (127.0.1.1,
127.0.1.2, ...; every 127.x.y.z address is the loopback interface), because the server
rate-limits room-code attempts and seat claims per browser and per address, as it should for
real phones on a LAN.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import secrets
import time
import uuid
from collections import Counter, deque
from collections.abc import Callable
from typing import Any, Protocol
from urllib.parse import urlencode

import aiohttp
import socketio
from nicegui import json as nicegui_json

from components.presses import version_of
from parcheesi.server.shards import PREFIX, prefixed

ACK_INTERVAL = 3.0
"""nicegui.js acknowledges received messages every 3 seconds."""

RAW_ELEMENTS = re.compile(r"parseElements\(String\.raw`(.*?)`\)", re.S)
CLIENT_ID = re.compile(r"'client_id': '([0-9a-f-]+)'")
NEXT_MESSAGE_ID = re.compile(r"'next_message_id': (\d+)")
GET_ITEM = re.compile(r'localStorage\.getItem\(("(?:[^"\\]|\\.)*")\)')
SET_ITEM = re.compile(r'localStorage\.setItem\(("(?:[^"\\]|\\.)*"), ("(?:[^"\\]|\\.)*")\); true')
STORED_KEYS = re.compile(r'Object\.keys\(localStorage\)\.filter\(k => k\.startsWith\('
                         r'("(?:[^"\\]|\\.)*")\)\)\.map\(k => k\.slice\((\d+)\)\)')
RANDOM_BYTES = re.compile(r"Array\.from\(crypto\.getRandomValues\(new Uint8Array\((\d+)\)\), .*")
"""The dice randomness a seat adds before the first roll (``pages.RANDOM_BYTES_JS``)."""


def parse_page(html: str, path: str) -> tuple[dict[str, dict[str, Any]], str, int]:
    """What a NiceGUI page's HTML carries: its elements, client id and next message id."""
    raw, client_id = RAW_ELEMENTS.search(html), CLIENT_ID.search(html)
    next_id = NEXT_MESSAGE_ID.search(html)
    if raw is None or client_id is None or next_id is None:
        raise StepFailed(f"GET {path}: no NiceGUI page")
    text = raw.group(1)
    for escaped, plain in (("&#36;", "$"), ("&#96;", "`"), ("&gt;", ">"), ("&lt;", "<"),
                           ("&amp;", "&")):
        text = text.replace(escaped, plain)
    elements = {str(k): _decoded(v) for k, v in json.loads(text).items()}
    return elements, client_id.group(1), int(next_id.group(1))


def _decoded(element: dict[str, Any]) -> dict[str, Any]:
    """The board and the controls send their state as JSON text; read it as their scripts
    do (with NiceGUI's decoder: a phone reads a board for every action, on the machine it
    measures)."""
    state = element.get("props", {}).get("state") if isinstance(element, dict) else None
    if isinstance(state, str) and state.startswith("{"):
        element["props"]["state"] = nicegui_json.loads(state)
    return element


def _is_controls(element: dict[str, Any]) -> bool:
    state = element.get("props", {}).get("state")
    return isinstance(state, dict) and "roll" in state and "stamp" in state


def drawn_controls(key: str, state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The controls ``controls.js`` draws from ``state`` (of the element ``key``), by their
    own keys, in the component's order: ``testid``, ``text``, ``label`` (aria-label),
    ``enabled``, ``shown``, and for a game action the ``press`` it sends (without the stamp,
    which is ``stamp``)."""
    found: list[dict[str, Any]] = []

    def add(testid: str, text: str = "", label: str | None = None, press: Any = None, *,
            enabled: bool = True, shown: bool = True) -> None:
        found.append({"testid": testid, "text": text, "label": label, "enabled": enabled,
                      "shown": shown, "press": press, "stamp": state["stamp"]})

    add("dice", label=state["dice"]["label"])
    add("dice-owner", state["dice"]["owner"])
    text, can_roll = state["roll"]
    add("roll", text, None, {"control": "roll", "index": 0}, enabled=can_roll)
    for k, (enabled, _, label) in enumerate(state["pieces"]):
        add(f"piece-{k + 1}", str(k + 1), label, {"control": "piece", "index": k},
            enabled=enabled, shown=not state["question"])
    for k, (text, _) in enumerate(state["options"]):
        add("move-option", text, text, {"control": "option", "index": k, "set": state["set"]})
    add("hint", "Hint", None, {"control": "hint", "index": 0}, enabled=state["hint"])
    add("play-best", "Play best", None, {"control": "best", "index": 0}, enabled=state["hint"])
    add("status", state["status"])
    return {f"{key}#{n}": control for n, control in enumerate(found)}


def _order(key: str) -> tuple[int, int]:
    """Creation order; a table's controls in their component's order."""
    element, _, n = key.partition("#")
    return int(element), int(n) if n else -1


class StepFailed(RuntimeError):
    """A set-up step that did not happen in time (the message says which)."""


class Recorder(Protocol):
    """Where a phone reports what went wrong (a benchmark's or a drill's tally)."""

    notifications: Counter[str]

    def error(self, kind: str, detail: str = "") -> None: ...


class Browser:
    """One phone: its own loopback address, cookie jar, ``localStorage`` and tab."""

    def __init__(self, base: str, address: str, stats: Recorder) -> None:
        self.base = base
        self.address = address
        self.stats = stats
        self.local_storage: dict[str, str] = {}
        self.tab_id = str(uuid.uuid4())
        self.pages: list[Page] = []
        jar = aiohttp.CookieJar(unsafe=True)  # cookies for a numeric host
        self.session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(local_addr=(address, 0), limit=4), cookie_jar=jar,
            timeout=aiohttp.ClientTimeout(total=60))
        # Browsers open a new connection for every WebSocket and never upgrade a pooled
        # HTTP keep-alive connection. (Upgrading one can race with the page response's end:
        # uvicorn then arms the old HTTP protocol's 5-second keep-alive timer, which closes
        # the WebSocket's transport.)
        self.ws_session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(local_addr=(address, 0), force_close=True),
            cookie_jar=jar)

    async def open(self, path: str, timeout: float, tab_id: str | None = None) -> Page:
        """Load ``path`` and connect; ``tab_id`` of its own for a second tab (a reload keeps
        the browser's)."""
        page = Page(self, path, tab_id or self.tab_id)
        self.pages.append(page)
        await page.load(timeout)
        return page

    async def close(self) -> None:
        for page in self.pages:
            await page.close()
        await self.session.close()
        await self.ws_session.close()

    def run_javascript(self, code: str) -> tuple[bool, Any]:
        """What the browser would answer for the snippets the app sends (known, result)."""
        code = code.strip()
        if match := GET_ITEM.fullmatch(code):
            return True, self.local_storage.get(json.loads(match.group(1)))
        if match := SET_ITEM.fullmatch(code):
            self.local_storage[json.loads(match.group(1))] = json.loads(match.group(2))
            return True, True
        if match := STORED_KEYS.fullmatch(code):
            prefix, cut = json.loads(match.group(1)), int(match.group(2))
            return True, [k[cut:] for k in self.local_storage if k.startswith(prefix)]
        if match := RANDOM_BYTES.fullmatch(code):
            return True, secrets.token_hex(int(match.group(1)))
        if code.startswith("matchMedia("):
            return True, False
        return False, None


class Page:
    """One open tab of a NiceGUI page, connected over socket.io as ``nicegui.js`` connects."""

    def __init__(self, browser: Browser, path: str, tab_id: str) -> None:
        self.browser = browser
        self.path = path
        self.tab_id = tab_id
        self.stats = browser.stats
        self.client_id = ""
        self.next_message_id = 0
        self.acked = -1
        self.elements: dict[str, dict[str, Any]] = {}
        self.navigated: str | None = None
        self.prefix = ""
        """The shard's path prefix the page was served under (none without a cluster)."""
        self.closing = False
        self.sio: socketio.AsyncClient | None = None
        self._changed = asyncio.Event()
        # the table: the board element and its redraw counter
        self.board_id: str | None = None
        self.board_seq: Any = None
        self.tables = 0
        self.on_board: Callable[[Page, float], None] | None = None
        self.on_new_table: Callable[[Page], None] | None = None
        # board updates this page waits for, in order: (action index or -1, click time)
        self.expect: deque[tuple[int, float]] = deque()
        self.expected = 0
        self.received = 0
        self._tasks: set[asyncio.Task[Any]] = set()
        # for drills: how much arrived, and when the socket went away
        self.messages = 0
        self.disconnected_at: float | None = None
        # the table's controls, as drawn from the controls component's state
        self.controls: dict[str, dict[str, Any]] = {}
        self._drawn: dict[str, list[str]] = {}
        """The controls drawn from each controls component, by the component's key."""
        self._testids: dict[str, set[str]] = {}
        """The keys of the elements and controls with each ``data-testid`` (a phone looks
        for some on every message: scanning every element each time cost more than the rest
        of the simulated phone, and it shares the machine with the server it measures)."""

    # --- connecting ---------------------------------------------------------------------------

    async def load(self, timeout: float) -> None:
        browser = self.browser
        async with browser.session.get(browser.base + self.path) as response:
            html = await response.text()
            if response.status != 200:
                raise StepFailed(f"GET {self.path}: HTTP {response.status}")
            # Behind a cluster's proxy the page is redirected to its shard's prefix
            # (/s/<i>/...), and its socket goes there too, as nicegui.js's does.
            shard = prefixed(response.url.path)
            self.prefix = "" if shard is None else f"{PREFIX}/{shard[0]}"
        elements, self.client_id, self.next_message_id = parse_page(html, self.path)
        for key, element in elements.items():
            self._keep(key, element)
            self._note_board(key, element)
        sio = socketio.AsyncClient(http_session=browser.ws_session, reconnection=False,
                                   json=nicegui_json)  # the server's decoder: orjson
        sio.on("update", self._on_update)
        sio.on("run_javascript", self._on_run_javascript)
        sio.on("open", self._on_open)
        sio.on("notify", self._on_notify)
        sio.on("load_js_components", self._on_message)
        sio.on("download", self._on_message)
        sio.on("try_reconnect", self._on_try_reconnect)
        sio.on("disconnect", self._on_disconnect)
        self.sio = sio
        query = urlencode({"client_id": self.client_id, "next_message_id": self.next_message_id,
                           "implicit_handshake": "true", "document_id": str(uuid.uuid4()),
                           "tab_id": self.tab_id})
        await sio.connect(f"{browser.base}/?{query}", transports=["websocket"],
                          socketio_path=f"{self.prefix}/_nicegui_ws/socket.io",
                          wait_timeout=timeout)

    async def close(self) -> None:
        self.closing = True
        if self.sio is not None and self.sio.connected:
            with contextlib.suppress(Exception):
                await self.sio.disconnect()
        for task in list(self._tasks):
            task.cancel()

    async def ack(self) -> None:
        """Acknowledge the messages received so far, as nicegui.js does every 3 seconds."""
        if self.sio is None or not self.sio.connected or self.acked >= self.next_message_id:
            return
        self.acked = self.next_message_id
        await self.sio.emit("ack", {"client_id": self.client_id,
                                    "next_message_id": self.next_message_id})

    # --- messages from the server ---------------------------------------------------------------

    def _fresh(self, message: Any) -> bool:
        """Drop messages seen before (as nicegui.js does after a reconnect)."""
        if isinstance(message, dict) and "_id" in message:
            message_id = message.pop("_id")
            if message_id < self.next_message_id:
                return False
            self.next_message_id = message_id + 1
        return True

    def _on_update(self, message: dict[str, Any]) -> None:
        """Synchronous on purpose: python-socketio starts one task per message, and a handler
        that never suspends keeps the messages in the order they arrived."""
        now = time.perf_counter()
        if not self._fresh(message):
            return
        boards = []
        for key, element in message.items():
            if element is None:
                self._forget(key)
                continue
            old = self.elements.get(key)
            for prop in element.pop("preserved_props", None) or []:
                if old is not None and prop in old.get("props", {}):
                    element.setdefault("props", {})[prop] = old["props"][prop]
            element = _decoded(element)
            self._keep(key, element)
            if self._is_board(element):
                boards.append(key)
        for key in boards:
            self._board_changed(key, self.elements[key]["props"]["state"]["seq"], now)
        self._wake()

    def _keep(self, key: str, element: dict[str, Any]) -> None:
        """Element ``key`` is now ``element`` (decoded): keep it, and the controls drawn from
        it, in the indexes."""
        self._forget(key)
        self.elements[key] = element
        testid = element.get("props", {}).get("data-testid")
        if testid is not None:
            self._testids.setdefault(testid, set()).add(key)
        if _is_controls(element):
            drawn = drawn_controls(key, element["props"]["state"])
            self._drawn[key] = list(drawn)
            for control_key, control in drawn.items():
                self.controls[control_key] = control
                self._testids.setdefault(control["testid"], set()).add(control_key)

    def _forget(self, key: str) -> None:
        """Element ``key`` is gone (or about to be replaced), with what was drawn from it."""
        old = self.elements.pop(key, None)
        if old is None:
            return
        self._testids.get(old.get("props", {}).get("data-testid"), set()).discard(key)
        for control_key in self._drawn.pop(key, ()):
            control = self.controls.pop(control_key)
            self._testids[control["testid"]].discard(control_key)

    @staticmethod
    def _is_board(element: dict[str, Any]) -> bool:
        state = element.get("props", {}).get("state")
        return isinstance(state, dict) and "seq" in state and "pieces" in state

    def _note_board(self, key: str, element: dict[str, Any]) -> None:
        if self._is_board(element):
            self._board_changed(key, element["props"]["state"]["seq"], time.perf_counter())

    def _board_changed(self, key: str, seq: Any, now: float) -> None:
        if key != self.board_id:  # a table appears: the game started, or the next game did
            self.board_id, self.board_seq = key, seq
            self.tables += 1
            if self.on_new_table is not None:
                self.on_new_table(self)
            return
        if seq == self.board_seq:
            return
        self.board_seq = seq
        if self.on_board is not None:
            self.on_board(self, now)

    async def _on_run_javascript(self, message: dict[str, Any]) -> None:
        if not self._fresh(message):
            return
        code = str(message.get("code", ""))
        known, result = self.browser.run_javascript(code)
        request_id = message.get("request_id")
        if request_id is None:
            return  # fire-and-forget, e.g. the move sound
        if not known:
            self.stats.error("javascript", code[:80])
        assert self.sio is not None
        await self.sio.emit("javascript_response", {"request_id": request_id,
                                                    "client_id": self.client_id,
                                                    "result": result})
        self._wake()

    def _on_open(self, message: dict[str, Any]) -> None:
        if self._fresh(message):
            self.navigated = str(message.get("path"))
            self._wake()

    def _on_notify(self, message: dict[str, Any]) -> None:
        if not self._fresh(message):
            return
        kind = str(message.get("type") or "info")
        self.stats.notifications[kind] += 1
        if kind in ("negative", "warning"):
            self.stats.error("notification", str(message.get("message")))
        self._wake()

    def _on_message(self, message: Any = None) -> None:
        self._fresh(message)

    def _on_try_reconnect(self, message: Any = None) -> None:
        self._fresh(message)
        self.stats.error("reload requested", self.path)

    def _on_disconnect(self, reason: Any = None) -> None:
        self.disconnected_at = time.perf_counter()
        if not self.closing:
            self.stats.error("disconnected", f"{self.path} ({reason})")
        self._wake()

    def _wake(self) -> None:
        self.messages += 1
        self._changed.set()
        self._changed = asyncio.Event()

    # --- looking at the page --------------------------------------------------------------------

    def find(self, testid: str) -> list[str]:
        """Keys of the shown elements (and table controls) with this ``data-testid``, in
        creation order."""
        return sorted((k for k in self._testids.get(testid, ()) if self.shown(k)), key=_order)

    def first(self, testid: str) -> str | None:
        keys = self.find(testid)
        return keys[0] if keys else None

    @staticmethod
    def element_key(key: str) -> str:
        """The element a key belongs to (a table control's: the controls component)."""
        return key.partition("#")[0]

    def shown(self, key: str) -> bool:
        if key in self.controls:
            return bool(self.controls[key]["shown"]) and self.shown(self.element_key(key))
        element = self.elements.get(key)
        return element is not None and "hidden" not in (element.get("class") or [])

    def enabled(self, key: str | None) -> bool:
        if key is None or not self.shown(key):
            return False
        if key in self.controls:
            return bool(self.controls[key]["enabled"])
        props = self.elements[key].get("props", {})
        return not (props.get("disable") or props.get("disabled"))  # Quasar's, or HTML's

    def words(self, key: str | None) -> str:
        """What an element or a table control says."""
        if key in self.controls:
            return str(self.controls[key]["text"])
        return str(self.elements.get(key or "", {}).get("text") or "")

    def text(self, testid: str) -> str:
        return self.words(self.first(testid))

    def board_state(self) -> dict[str, Any]:
        """The board's last state (``seq``, ``pieces``, ..., and ``stamp`` where shown)."""
        state = self.elements.get(self.board_id or "", {}).get("props", {}).get("state")
        return state if isinstance(state, dict) else {}

    def stamp(self, key: str | None) -> str | None:
        """The ``data-stamp`` a control carries: the version its page shows and a counter."""
        if key in self.controls:
            control = self.controls[key]
            return str(control["stamp"]) if control["press"] is not None else None
        element = self.elements.get(key or "")
        value = element.get("props", {}).get("data-stamp") if element else None
        return None if value is None else str(value)

    def shown_version(self) -> int | None:
        """The game version the table on the page shows: the version part of the board's
        stamp (``presses.stamp_text``). Every accepted action moves it on; a refused press
        redraws with the same version (only the stamp's count of answers changes). What the
        board shows is no such sign: a player who rolls the same doubles twice and cannot
        move redraws the same pieces, dice and turn."""
        return version_of(self.board_state().get("stamp"))

    async def wait(self, check: Callable[[], Any], timeout: float, what: str) -> Any:
        """Until ``check()`` is truthy (re-checked after every message); StepFailed after
        ``timeout`` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = check()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise StepFailed(f"{self.path}: no {what} within {timeout:.0f} s")
            changed = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), remaining)

    async def changed(self, timeout: float) -> None:
        changed = self._changed
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(changed.wait(), max(0.0, timeout))

    # --- acting like the browser ----------------------------------------------------------------

    def listener(self, key: str, event: str) -> str:
        """The listener id of an element's handler for ``event``."""
        element = self.elements[key]
        return str(next(e for e in element.get("events", []) if e["type"] == event)
                   ["listener_id"])

    def frame(self, key: str, event: str, *args: Any) -> dict[str, Any]:
        """The ``event`` message nicegui.js sends for a DOM/Vue event of an element."""
        return {"id": int(key), "client_id": self.client_id,
                "listener_id": self.listener(key, event),
                "args": [json.dumps(a) for a in args]}

    async def send(self, frame: Any) -> None:
        """Send an ``event`` message as it is (built by ``frame``, recorded, or forged)."""
        assert self.sio is not None
        await self.sio.emit("event", frame)

    async def emit(self, key: str, event: str, *args: Any) -> None:
        await self.send(self.frame(key, event, *args))

    def click_frame(self, key: str) -> dict[str, Any]:
        """A click as the page sends it: with the control's stamp as its one argument when
        it carries one (a table control: its press, with the stamp it shows)."""
        stamp = self.stamp(key)
        if key in self.controls:
            return self.press_frame(key, stamp)
        return self.frame(key, "click", *(() if stamp is None else (stamp,)))

    def press_frame(self, key: str, stamp: Any) -> dict[str, Any]:
        """A table control's press as the controls component sends it, with ``stamp``
        (whatever the control shows: the drills forge it)."""
        return self.frame(self.element_key(key), "press",
                          {**self.controls[key]["press"], "stamp": stamp})

    async def click(self, key: str) -> None:
        await self.send(self.click_frame(key))

    async def choose(self, testid: str, index: int, label: str | None, timeout: float) -> None:
        """Pick option ``index`` of a toggle (``label`` None) or a select, and wait until the
        page shows it (the form redraws its rows, so every id may change)."""
        key = await self.wait(lambda: self.first(testid), timeout, testid)
        arg: Any = index if label is None else {"value": index, "label": label}
        await self.emit(key, "update:modelValue", arg)

        def shown() -> bool:
            found = self.first(testid)
            value = self.elements[found].get("props", {}).get("model-value") if found else None
            return value == index if label is None else (
                isinstance(value, dict) and value.get("value") == index)

        await self.wait(shown, timeout, f"{testid} = {label or index}")

    async def two_step_moves(self, timeout: float) -> None:
        """At a table: turn off "Move at once when a piece has one move" (the settings
        dialog's switch; kept for this browser), so that pressing a piece only selects it
        and shows its movements, as the benchmarks count it. Returns once the server has
        taken the change (the switch's new value comes back in the redraw's message; the
        board itself, unchanged by the setting, is not sent again)."""
        key = await self.wait(lambda: self.first("setting-one-tap"), timeout,
                              "the one-tap setting")
        if self.elements[key].get("props", {}).get("model-value") is False:
            return

        def taken() -> bool:
            switch = self.elements.get(key, {}).get("props", {})
            return switch.get("model-value") is False

        await self.emit(key, "update:modelValue", False)
        await self.wait(taken, timeout, "the setting to be taken")


async def acker(pages: Callable[[], list[Page]], stop: asyncio.Event) -> None:
    """Acknowledge every page's messages every 3 s until ``stop``, as browsers do (the
    server keeps what was not acknowledged, to resend it after a reconnect)."""
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), ACK_INTERVAL)
        for page in pages():
            with contextlib.suppress(Exception):
                await page.ack()


def address(index: int) -> str:
    """A loopback source address of its own for phone ``index`` (127.0.1.1 and up)."""
    return f"127.0.{1 + index // 250}.{1 + index % 250}"


async def claim_seat(page: Page, colour: str, timeout: float) -> None:
    """Take ``colour``'s seat in a room's lobby and say ready (a redraw for someone else's
    claim may replace the button: retry with the new one)."""
    testid = f"claim-seat-{colour}"
    clicked: str | None = None

    def claimed_or_button() -> Any:
        if page.shown(page.first("ready") or ""):
            return "claimed"
        key = page.first(testid)
        return key if key is not None and key != clicked else None

    while (found := await page.wait(claimed_or_button, timeout, testid)) != "claimed":
        clicked = found
        await page.click(found)
    ready = page.first("ready")
    assert ready is not None
    if page.elements[ready].get("props", {}).get("aria-pressed") != "true":
        await page.click(ready)
    await page.wait(lambda: page.elements.get(ready, {}).get("props", {}).get(
        "aria-pressed") == "true", timeout, "readiness")
