"""Per-connection discipline for NiceGUI's socket.io server.

NiceGUI trusts every frame a socket sends: it looks pages up by the ``client_id`` inside the
message (so any socket that learns another page's client id can press its buttons), it lets
malformed frames raise inside background tasks (one traceback each), it logs whatever text a
browser sends as a ``log`` frame at the level the browser chose, and it serves a socket as
fast as the socket sends. On a home network any phone's browser, or a script on a laptop, can
do all of that; :func:`install` puts a guard in front of the server:

- new engine.io sessions are bounded per address and per browser (:mod:`.admission`), and
  refused before socket.io's handshake;
- every engine.io session has a message quota (a token bucket, counted before a frame is even
  decoded); frames over it are dropped, and a socket that keeps flooding is disconnected, its
  page refused a new handshake for a cool-down, and one warning logged for it (for an
  address's sockets, one a minute);
- engine.io packets that do not decode (or name no packet type) become no-ops, counted and
  noted like other junk, instead of tracebacks from engine.io's transport loop;
- frames a browser running ``nicegui.js`` never sends are dropped with at most one short line
  per socket and no traceback; exceptions raised by the pages' own handlers still reach
  NiceGUI's exception handling;
- a message acts on a page only if the sending socket handshook with that page, and a
  handshake is accepted only from a socket carrying the same browser session as the page;
- browser log text is truncated, escaped and rate-limited, and never logged above warning.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import urllib.parse
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import socketio
from engineio import async_socket as eio_socket
from engineio import exceptions as eio_exceptions
from engineio import packet as eio_packet
from nicegui import Client, core
from nicegui.nicegui import _on_ack, _on_event, _on_handshake, _on_javascript_response

from . import event_args
from .admission import Admission, LogLines, TokenBucket, address_of, session_of

log = logging.getLogger("parcheesi.sockets")
browser_log = logging.getLogger("parcheesi.browser")

BURST = 60
"""Messages a socket may send at once: a page load's JavaScript answers and a few quick
clicks take a dozen or two."""
RATE = 20.0
"""Messages per second a socket may keep sending; a phone sends a few clicks, an ack every
3 s and the answers to the server's JavaScript requests."""
FLOOD_REFUSALS = 40
"""Refused messages after which a socket that has been over its quota ever since is
disconnected: a flooding script reaches it within milliseconds of exhausting its burst."""
FLOOD_SECONDS = 1.0
"""How long a socket may stay over its quota before it is disconnected (a flood just above the
rate takes many seconds to be refused 40 times)."""
COOL_DOWN = 60.0
"""Seconds during which the pages of a disconnected flooding socket refuse a new handshake, so
the socket cannot simply reconnect and go on (``nicegui.js`` then reloads, which makes a new
page: a person is back at once, a script has to start over)."""
LOG_BURST = 5
LOG_PER_SECOND = 5 / 60
"""Browser log lines a socket may have logged: five at once, five a minute after that."""
LOG_TEXT = 200
"""Characters of a browser log message that are kept."""
LOG_LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING,
              "error": logging.WARNING}
"""The levels ``nicegui.js`` sends, and the level each is logged at: a browser cannot make the
server log an error."""
BROWSER_EVENTS = frozenset({"handshake", "event", "javascript_response", "ack", "log"})
"""The socket.io events ``nicegui.js`` emits; any other name (also the reserved ``connect``
and ``disconnect``, which would run the server's own handlers) is dropped."""
PASSED_ON = frozenset("013")
"""socket.io packet types passed on to python-socketio as they come: connect, disconnect and
ack. Events are decoded and checked first; binary packets, which ``nicegui.js`` never sends,
are dropped (an attachment would otherwise swallow the socket's next frame)."""
DECODING_ERRORS = (ValueError, TypeError, KeyError, IndexError, RecursionError)
"""What python-socketio (and Python's JSON reader) raise for a packet they cannot decode:
JSON nested a few thousand deep raises ``RecursionError``."""
DISCONNECT_WAIT = 5.0
"""Seconds a disconnect may wait for the socket's last packets to go out."""


@dataclass
class SocketState:
    """What the guard knows of one engine.io session."""

    bucket: TokenBucket
    logs: TokenBucket
    pages: set[str] = field(default_factory=set)
    """Client ids of the pages this socket handshook with."""
    address: str = "-"
    """The address it connected from (what its log lines are kept to a minute by)."""
    browser: str | None = None
    """The session id of the browser it connected with, if any."""
    client: str = "-"
    """The first page's client id prefix, for log lines (never a whole id)."""
    refused: int = 0
    stretch_started: float | None = None
    stretch_refused: int = 0
    cut: bool = False
    noted: bool = False
    """Whether a dropped frame of this socket was logged already."""


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _decoded_args(value: Any) -> list[Any] | None:
    """Event arguments as ``nicegui.js`` sends them (a list of JSON texts or nulls), decoded
    as NiceGUI decodes them; None for anything else (deep nesting included)."""
    if not isinstance(value, list) or not all(a is None or isinstance(a, str) for a in value):
        return None
    try:
        return [None if arg is None else json.loads(arg) for arg in value]
    except DECODING_ERRORS:
        return None


def _is_json_args(value: Any) -> bool:
    return _decoded_args(value) is not None


def _is_message_id(value: Any) -> bool:
    """A message id from a handshake: a number, or its digits from the query string."""
    return value is None or _is_int(value) or (
        isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 19)


def _is_str(value: Any) -> bool:
    return isinstance(value, str)


Check = tuple[Callable[[Any], bool], bool]
"""A field's check, and whether the field must be there."""
FIELDS: dict[str, dict[str, Check]] = {
    "event": {"id": (_is_int, True), "listener_id": (_is_str, True),
              "args": (_is_json_args, False)},
    "javascript_response": {"request_id": (_is_str, True)},
    "ack": {"next_message_id": (_is_int, True)},
    "log": {"level": (lambda v: _is_str(v) and v in LOG_LEVELS, True),
            "message": (_is_str, True)},
    "handshake": {"tab_id": (_is_str, True), "document_id": (_is_str, True),
                  "old_tab_id": (lambda v: v is None or _is_str(v), False),
                  "next_message_id": (_is_message_id, False)},
}
"""The fields each message carries besides ``client_id`` (always a string). Every check
takes a value of any type (a list where a string belongs is answered False, never raises)."""


def _addressed(name: str, args: tuple[Any, ...]) -> str | None:
    """Why a ``name`` message is not one object naming a page, if so (the only fields read
    before the guard knows the socket opened that page)."""
    if len(args) != 1 or not isinstance(args[0], dict):
        return f"{name}: not one object"
    if not isinstance(args[0].get("client_id"), str):
        return f"{name}: no client id"
    return None


def _problem(name: str, args: tuple[Any, ...]) -> str | None:
    """Why the arguments of a ``name`` message are not what ``nicegui.js`` sends, if so."""
    addressed = _addressed(name, args)
    if addressed is not None:
        return addressed
    message = args[0]
    for key, (check, required) in FIELDS[name].items():
        if key not in message:
            if required:
                return f"{name}: no {key}"
        elif not check(message[key]):
            return f"{name}: bad {key}"
    return None


class SafePacket(eio_packet.Packet):
    """An engine.io packet whose decoding never raises: a frame that is not a packet (empty,
    a type that is not a digit, a type engine.io has no name for) becomes a no-op that says
    why in :attr:`problem`. engine.io decodes WebSocket frames outside its error handling, so
    each such frame would otherwise end in an ASGI traceback."""

    problem: str | None = None

    def decode(self, encoded_packet: Any) -> None:
        try:
            super().decode(encoded_packet)
        except DECODING_ERRORS as error:
            self._junk(f"undecodable engine.io packet ({type(error).__name__})")
            return
        if not eio_packet.OPEN <= self.packet_type <= eio_packet.NOOP:
            self._junk(f"engine.io packet type {self.packet_type}")

    def _junk(self, problem: str) -> None:
        self.packet_type, self.data, self.binary = eio_packet.NOOP, None, False
        self.problem = problem


class GuardedSocket(eio_socket.AsyncSocket):
    """An engine.io session that shows each packet to the installed guard before acting on
    it (the guard is the server's ``parcheesi_guard``; without one, packets pass).

    Once the guard cuts a WebSocket off, the session stops reading it and ends without
    sending the WebSocket close frame: closed that polite way, the connection would stay
    open until the client answered the close (which a flooder never does) or 10 s passed,
    and uvicorn's WebSocket protocol would parse every frame the flooder sent meanwhile only
    to discard it; ended without it, uvicorn closes the connection at once, unread."""

    cut_off = False
    """Whether the guard cut this session off (kept here: the guard forgets a session as
    soon as it is disconnected, which may come before the WebSocket ends)."""

    async def _websocket_handler(self, ws: Any) -> Any:
        close = ws.close

        async def close_unless_cut() -> None:
            if not self.cut_off:
                await close()

        ws.close = close_unless_cut
        return await super()._websocket_handler(ws)

    async def receive(self, pkt: eio_packet.Packet) -> None:
        guard = getattr(self.server, "parcheesi_guard", None)
        if guard is None or guard.on_packet(self.sid, pkt):
            await super().receive(pkt)
        elif self.cut_off or guard.is_cut(self.sid):
            # engine.io stops reading this socket and ends it: the frames a flooder keeps
            # sending are not read, decoded and dropped one by one
            self.cut_off = True
            raise eio_exceptions.SocketIsClosedError()


class SocketGuard:
    """The installed guard, with its counters (see :meth:`counters`)."""

    def __init__(self, sio: socketio.AsyncServer, clock: Callable[[], float],
                 exempt: Iterable[str] = (),
                 sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep) -> None:
        self._sio = sio
        self._clock = clock
        self.lines = LogLines(clock)
        self.admission = Admission(clock, self.lines, exempt, sleep)
        self._sockets: dict[str, SocketState] = {}
        self._cooling: dict[str, float] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.refused = 0
        """Messages dropped for being over a socket's quota."""
        self.disconnected = 0
        """Sockets disconnected for flooding."""
        self.malformed = 0
        """Frames and messages dropped for not being what ``nicegui.js`` sends."""
        self.foreign = 0
        """Messages and handshakes dropped for naming a page of another socket or browser."""
        self.logs_dropped = 0
        """Browser log messages dropped for being over a socket's log quota."""

    def counters(self) -> dict[str, int]:
        """All counters at once, for tests and benchmarks."""
        return {"refused": self.refused, "disconnected": self.disconnected,
                "malformed": self.malformed, "foreign": self.foreign,
                "logs_dropped": self.logs_dropped,
                "connections_refused": self.admission.refused}

    def _note(self, state: SocketState | None, message: str, reason: str) -> None:
        """Log the first frame a socket had dropped, in one line, and of an address's sockets
        one a minute; the rest are only counted (a socket, or a storm of them, sending
        nothing but junk cannot fill the log)."""
        if state is not None and not state.noted:
            state.noted = True
            self.lines.log(logging.INFO, "dropped", state.address, message,
                           reason=reason, client=state.client)

    # --- engine.io: every connection and frame ---------------------------------------------

    async def on_eio_connect(self, eio_sid: str, environ: Any) -> None:
        """A new engine.io session (admitted already, :meth:`Admission.screen`): remembered
        with its address and browser, then python-socketio takes it."""
        scope = environ.get("asgi.scope") if isinstance(environ, dict) else None
        state = self.state(eio_sid)
        state.address, state.browser = address_of(scope), session_of(scope)
        await self._sio._handle_eio_connect(eio_sid, environ)

    def state(self, eio_sid: str) -> SocketState:
        state = self._sockets.get(eio_sid)
        if state is None:
            now = self._clock()
            state = self._sockets[eio_sid] = SocketState(
                TokenBucket(BURST, RATE, now), TokenBucket(LOG_BURST, LOG_PER_SECOND, now))
        return state

    def on_packet(self, eio_sid: str, pkt: eio_packet.Packet) -> bool:
        """Whether engine.io may act on a packet: every packet is counted against the quota
        as it is read (before engine.io starts a task for a message, so a flood cannot queue
        thousands of them before the first is counted), and junk is dropped."""
        state = self.state(eio_sid)
        if state.cut or not self.admit(eio_sid, state):
            return False
        problem = getattr(pkt, "problem", None)
        if problem is not None:
            self._drop(state, problem)
            return False
        return True

    def is_cut(self, eio_sid: str) -> bool:
        """Whether the socket was cut off for flooding."""
        state = self._sockets.get(eio_sid)
        return state is not None and state.cut

    async def on_message(self, eio_sid: str, data: str | bytes) -> None:
        """Check a frame :meth:`on_packet` let through, then let python-socketio dispatch
        it."""
        if eio_sid not in self._sio.eio.sockets:
            return  # disconnected already; its transport is closing
        state = self.state(eio_sid)
        if state.cut:
            return
        problem = self._frame_problem(data)
        if problem is None:
            try:
                await self._sio._handle_eio_message(eio_sid, data)
            except DECODING_ERRORS as error:
                problem = f"undecodable packet ({type(error).__name__})"
        if problem is not None:
            self._drop(state, problem)

    async def on_disconnect(self, eio_sid: str, reason: Any) -> None:
        """Let python-socketio handle the end of the session, then forget the session."""
        try:
            await self._sio._handle_eio_disconnect(eio_sid, reason)
        finally:
            self._sockets.pop(eio_sid, None)

    def admit(self, eio_sid: str, state: SocketState) -> bool:
        """Whether the socket's quota allows one more message; cuts off a flooding socket."""
        now = self._clock()
        if state.bucket.refill(now) >= state.bucket.capacity:  # quiet long enough: forgiven
            state.stretch_started, state.stretch_refused = None, 0
        if state.bucket.take(now):
            return True
        self.refused += 1
        state.refused += 1
        state.stretch_refused += 1
        if state.stretch_started is None:
            state.stretch_started = now
        if state.stretch_refused > FLOOD_REFUSALS or now - state.stretch_started > FLOOD_SECONDS:
            self._cut_off(eio_sid, state, now)
        return False

    def _cut_off(self, eio_sid: str, state: SocketState, now: float) -> None:
        state.cut = True
        self.disconnected += 1
        self._cooling = {page: until for page, until in self._cooling.items() if until > now}
        for page in state.pages:
            self._cooling[page] = now + COOL_DOWN
        self.lines.log(logging.WARNING, "flood", state.address, "socket flooding: disconnected",
                       refused=state.refused, client=state.client)
        self.admission.flooded(state.address, state.browser)
        task = asyncio.get_running_loop().create_task(self._disconnect(eio_sid))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _disconnect(self, eio_sid: str) -> None:
        """Disconnect the session, then end its transport, so that even a client that ignores
        the close packet cannot keep sending frames over it."""
        socket = self._sio.eio.sockets.get(eio_sid)
        with contextlib.suppress(TimeoutError):  # closed by then all the same; engine.io reaps it
            await asyncio.wait_for(self._sio.eio.disconnect(eio_sid), DISCONNECT_WAIT)
        if socket is not None:
            socket.queue.put_nowait(None)  # the WebSocket writer closes the connection on this

    def _frame_problem(self, data: str | bytes) -> str | None:
        """Why a frame is not a packet ``nicegui.js`` sends, if so (events are decoded here
        to see their name; python-socketio decodes them again)."""
        if not isinstance(data, str) or not data:
            return "binary or empty frame"
        if data[0] in PASSED_ON:
            return None
        if data[0] != "2":
            return f"packet type {data[0]!r}"
        try:
            packet = self._sio.packet_class(encoded_packet=data)
        except DECODING_ERRORS as error:
            return f"undecodable event ({type(error).__name__})"
        name = packet.data[0] if isinstance(packet.data, list) and packet.data else None
        if not isinstance(name, str) or name not in BROWSER_EVENTS:
            return "unknown event"
        return None

    def _drop(self, state: SocketState | None, reason: str) -> None:
        self.malformed += 1
        self._note(state, "socket frame dropped", reason)

    # --- socket.io: the messages ----------------------------------------------------------

    def _socket_of(self, sid: str) -> SocketState | None:
        eio_sid = self._sio.manager.eio_sid_from_sid(sid, "/")
        return self._sockets.get(eio_sid) if eio_sid is not None else None

    def message(self, sid: str, name: str, args: tuple[Any, ...]) -> dict[str, Any] | None:
        """The checked message of a page this socket handshook with, else None (dropped).
        Whether the socket opened the page is asked first: a socket without a page gets no
        further than that, whatever its frames hold."""
        state = self._socket_of(sid)
        problem = _addressed(name, args)
        if problem is not None:
            self._drop(state, problem)
            return None
        if state is None or args[0]["client_id"] not in state.pages:
            self.foreign += 1
            self._note(state, "socket message for a page it did not open: dropped", name)
            return None
        problem = _problem(name, args)
        if problem is not None:
            self._drop(state, problem)
            return None
        message: dict[str, Any] = args[0]
        return message

    def on_event(self, sid: str, *args: Any) -> None:
        message = self.message(sid, "event", args)
        if message is None:
            return
        problem = self._event_problem(message)
        if problem is not None:
            self._drop(self._socket_of(sid), problem)
            return
        _on_event(sid, message)

    @staticmethod
    def _event_problem(message: dict[str, Any]) -> str | None:
        """Why an event names no listener of its page's element, or carries arguments that
        element's handler does not take (:mod:`components.event_args`), if so."""
        client = Client.instances.get(message["client_id"])
        element = client.elements.get(message["id"]) if client is not None else None
        if element is None:
            return None  # an element removed meanwhile: NiceGUI drops the event itself
        listener = element._event_listeners.get(message["listener_id"])
        if listener is None:
            return "event: unknown listener"
        decoded = _decoded_args(message.get("args", []))
        return event_args.problem(element, listener.type, decoded or [])

    def on_javascript_response(self, sid: str, *args: Any) -> None:
        message = self.message(sid, "javascript_response", args)
        if message is not None:
            _on_javascript_response(sid, message)

    def on_ack(self, sid: str, *args: Any) -> None:
        message = self.message(sid, "ack", args)
        if message is not None:
            _on_ack(sid, message)

    def on_log(self, sid: str, *args: Any) -> None:
        """Log a browser's message: truncated, escaped (a newline or a forged JSON line stays
        inside one field of one line), at most at warning level, a few a minute."""
        message = self.message(sid, "log", args)
        if message is None:
            return
        state = self._socket_of(sid)
        if state is None or not state.logs.take(self._clock()):
            self.logs_dropped += 1
            return
        text = message["message"]
        if len(text) > LOG_TEXT:
            text = text[:LOG_TEXT] + "…"
        browser_log.log(LOG_LEVELS[message["level"]], "browser %s: %s", message["level"],
                        json.dumps(text), extra={"client": message["client_id"][:8]})

    async def on_handshake(self, sid: str, *args: Any) -> bool:
        """Check a handshake, then let NiceGUI register the socket with its page; the answer
        is the acknowledgement ``nicegui.js`` waits for (it reloads the page on False)."""
        problem = _problem("handshake", args)
        if problem is not None:
            self._drop(self._socket_of(sid), problem)
            return False
        data: dict[str, Any] = args[0]
        client_id = data["client_id"]
        if self._cooling.get(client_id, 0.0) > self._clock():
            return False
        client = Client.instances.get(client_id)
        if client is not None and not self._same_browser(sid, client):
            self.foreign += 1
            self._note(self._socket_of(sid), "socket handshake from another browser: refused",
                       f"page {client_id[:8]}")
            return False
        if not await _on_handshake(sid, data):
            return False
        state = self._socket_of(sid)
        if state is not None:
            if not state.pages:
                state.client = client_id[:8]
            state.pages.add(client_id)
        return True

    async def on_connect(self, sid: str, environ: Any, auth: Any = None) -> None:
        """NiceGUI's connect handler, with its implicit handshake going through the checks."""
        query_string = environ.get("QUERY_STRING", "") if isinstance(environ, dict) else ""
        query = {k: v[0] for k, v in urllib.parse.parse_qs(str(query_string)).items()}
        if query.get("implicit_handshake", "") == "true" and not await self.on_handshake(
                sid, query):
            raise socketio.exceptions.ConnectionRefusedError("Implicit handshake failed")

    def _same_browser(self, sid: str, client: Client) -> bool:
        """Whether the socket's session cookie is that of the browser the page was served to
        (nothing to compare when the page has no request or no session)."""
        try:
            expected = session_of(client.request.scope)
        except RuntimeError:  # a page built without a request
            return True
        if expected is None:
            return True
        environ = self._sio.get_environ(sid) or {}
        return bool(session_of(environ.get("asgi.scope")) == expected)


def install(sio: socketio.AsyncServer | None = None, *,
            clock: Callable[[], float] = time.monotonic,
            exempt: Iterable[str] = ()) -> SocketGuard:
    """Put a guard in front of the socket.io handlers of ``sio`` (NiceGUI's server when not
    given); again on every call, replacing the previous guard, as NiceGUI's test fixtures run
    ``app.py`` once per test. ``exempt``: addresses whose new sockets are never throttled
    (the server's own machine)."""
    sio = sio if sio is not None else core.sio
    guard = SocketGuard(sio, clock, exempt)
    eio_packet.Packet = SafePacket  # engine.io looks the class up on each use
    eio_socket.AsyncSocket = GuardedSocket  # and so makes each new session
    sio.eio.parcheesi_guard = guard
    handle_request = getattr(sio.eio, "parcheesi_handle_request", sio.eio.handle_request)
    sio.eio.parcheesi_handle_request = handle_request  # engine.io's own, wrapped once

    async def screened(scope: Any, receive: Any, send: Any) -> Any:
        if await guard.admission.screen(scope, receive, send):
            return await handle_request(scope, receive, send)
        return None

    sio.eio.handle_request = screened
    sio.eio.on("connect", guard.on_eio_connect)
    sio.eio.on("message", guard.on_message)
    sio.eio.on("disconnect", guard.on_disconnect)
    sio.on("connect", guard.on_connect)
    sio.on("handshake", guard.on_handshake)
    sio.on("event", guard.on_event)
    sio.on("javascript_response", guard.on_javascript_response)
    sio.on("ack", guard.on_ack)
    sio.on("log", guard.on_log)
    return guard
