"""Helpers for the online-room tests with NiceGUI's simulated users (no browser).

A simulated user has no browser, so the scripts the room pages run (``ui.run_javascript``) are
answered by ``SimulatedBrowser``: a ``localStorage`` of its own, where seat tokens are kept
under ``parcheesi-seat-<CODE>``, and ``matchMedia``. A script the pages send that no rule
recognises would time out and fail the test, so the rules also check the scripts' shape.

Controls are found by their ``data-testid`` (the browser-hook contract; a table's controls as
``ui_helpers.Control`` objects). Clicks go through NiceGUI's ``UserInteraction``, which, like a
browser, does nothing on a disabled control; ``forge_click`` sends the press anyway, as a
tampered page would. Waiting is bounded and condition-based.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any
from uuid import uuid4

import ui_helpers
from nicegui import background_tasks
from nicegui.nicegui import _on_handshake
from nicegui.testing import User
from ui_helpers import (
    TIMEOUT,
    element,
    elements,
    press_element,
    send_press,
    settle,
    text,
    until,
)

from components.lobby import TOKEN_PREFIX
from components.server import Server
from parcheesi.server.clocks import ClockWatch
from parcheesi.server.store import Store

_JS_STRING = r'("(?:[^"\\]|\\.)*")'


class SimulatedBrowser:
    """What the room pages ask of the browser, for one simulated user."""

    def __init__(self, user: User) -> None:
        self.user = user
        self.local_storage: dict[str, str] = {}
        rules = {
            rf"localStorage\.getItem\({_JS_STRING}\)$": self._get,
            rf"localStorage\.setItem\({_JS_STRING}, {_JS_STRING}\); true$": self._set,
            rf"localStorage\.removeItem\({_JS_STRING}\); true$": self._remove,
            rf"Object\.keys\(localStorage\)\.filter\(k => k\.startsWith\({_JS_STRING}\)\)"
            r"\.map\(k => k\.slice\((\d+)\)\)$": self._keys,
            r"matchMedia\('\(prefers-reduced-motion: reduce\)'\)\.matches$": lambda _: False,
        }
        for pattern, answer in rules.items():
            user.javascript_rules[re.compile(pattern)] = answer

    def _get(self, match: re.Match) -> str | None:
        return self.local_storage.get(json.loads(match[1]))

    def _set(self, match: re.Match) -> bool:
        self.local_storage[json.loads(match[1])] = json.loads(match[2])
        return True

    def _remove(self, match: re.Match) -> bool:
        self.local_storage.pop(json.loads(match[1]), None)
        return True

    def _keys(self, match: re.Match) -> list[str]:
        prefix, cut = json.loads(match[1]), int(match[2])
        return [key[cut:] for key in self.local_storage if key.startswith(prefix)]

    def seat_token(self, code: str) -> str | None:
        return self.local_storage.get(TOKEN_PREFIX + code)

    @property
    def browser_id(self) -> str:
        """NiceGUI's id of this browser (``app.storage.browser['id']``)."""
        assert self.user.client is not None
        return str(self.user.client.request.session["id"])


# --- the running app ---------------------------------------------------------------------------


async def restart_server(server: Server) -> Store:
    """Give ``server`` a fresh store, hub and rooms over the same database, as a restarted
    server process would have them (the pages read them from the server on every request).
    Returns the new store, which the caller closes."""
    old = server.rooms
    await stop_computers(server)
    await server.tournaments.close()
    await server.ratings.close()
    await server.store.close()
    fresh = Server.open(server.config, server.hub.clock, server.hub.wall)
    fresh.rooms.clock = old.clock
    server.store, server.hub, server.rooms = fresh.store, fresh.hub, fresh.rooms
    server.people, server.ratings = fresh.people, fresh.ratings
    server.tournaments = fresh.tournaments
    server.watch = ClockWatch(fresh.hub, server.watch.pause)
    return fresh.store


async def stop_computers(server: Server) -> None:
    """Before the app goes: cancel the computers' tasks (as stopping the server would) and
    let the rooms finish saving, so no database work outlives the test's event loop."""
    runners = [g.runner for g in server.hub.games.values() if g.runner is not None]
    for runner in runners:
        runner.cancel()
    saving = [t for t in asyncio.all_tasks()
              if getattr(t.get_coro(), "__qualname__", "") == "Rooms._save"]
    if runners or saving:
        await asyncio.wait([*runners, *saving], timeout=TIMEOUT)


# --- finding, reading, clicking ----------------------------------------------------------------


def ids_starting(user: User, prefix: str) -> set[str]:
    """The data-testids beginning with ``prefix`` of what the page shows."""
    return set(ui_helpers.ids_starting(user, prefix, visible=True))


def enabled_now(user: User, testid: str) -> bool | None:
    """Whether the control is enabled; None while it is not (yet) on the page."""
    found = elements(user, testid)
    return bool(found[0].enabled) if len(found) == 1 else None


async def shown(user: User, testid: str, timeout: float = TIMEOUT) -> Any:
    """Wait until exactly one ``testid`` is on the user's page; return it."""
    await until(lambda: len(elements(user, testid)) == 1, f"data-testid={testid}", timeout)
    return element(user, testid)


async def text_is(user: User, testid: str, expected: str) -> None:
    await until(lambda: len(elements(user, testid)) == 1 and text(user, testid) == expected,
                f"data-testid={testid} to say {expected!r}")


async def click(user: User, testid: str) -> None:
    """Click like a person (a disabled control ignores it) and await what the click started."""
    await click_on(user, await shown(user, testid))


async def click_on(user: User, target: Any) -> None:
    """Click this element (one of several with the same data-testid)."""
    before = set(background_tasks.running_tasks)
    press_element(user, target)
    await settle(before)


async def forge_click(user: User, testid: str) -> None:
    """Send the click event even to a disabled control, as a tampered page could (with the
    stamp the control shows)."""
    target = element(user, testid)
    before = set(background_tasks.running_tasks)
    send_press(user, target, target.props.get("data-stamp"))
    await settle(before)


async def type_into(user: User, testid: str, value: str) -> None:
    target = await shown(user, testid)
    with user:
        target.value = value


async def choose(user: User, testid: str, value: Any) -> None:
    """Pick a value in a toggle or select (what the person's choice sends)."""
    target = await shown(user, testid)
    assert value in target.options, f"{value!r} is not offered by {testid}"
    with user:
        target.value = value


# --- connections -------------------------------------------------------------------------------


def drop_connection(user: User) -> str:
    """The phone loses its connection (Wi-Fi, sleep); returns the page's document id."""
    client = user.client
    assert client is not None
    (socket_id, document_id), = client._socket_to_document_id.items()
    client.handle_disconnect(socket_id)
    return document_id


async def restore_connection(user: User, document_id: str) -> None:
    """The same page reconnects (within the reconnect timeout, so it is not rebuilt)."""
    client = user.client
    assert client is not None
    assert await _on_handshake(f"test-{uuid4()}", {"client_id": client.id, "tab_id": user.tab_id,
                                                   "document_id": document_id})


# --- what a page reveals -----------------------------------------------------------------------


def page_dump(user: User) -> str:
    """Everything the user's page holds (texts, props, slots of every element) as one text."""
    client = user.client
    assert client is not None
    return json.dumps([element._to_dict() for element in client.elements.values()],
                      default=str)


# --- rooms -------------------------------------------------------------------------------------


async def create_room(host: User, browser: SimulatedBrowser, *, name: str, invited: list[str],
                      computers: dict[str, str], count: int = 4) -> str:
    """Fill in /new for an online room (the host plays Ruby) and create it; returns its code."""
    await host.open("/new")
    await choose(host, "mode", "online")
    await host.should_see("You host the room")
    await choose(host, "player-count", count)
    await type_into(host, "name-ruby", name)
    for colour in invited:  # an online room's other seats are invited players at first
        assert element(host, f"kind-{colour}").value == "human"
    for colour, level in computers.items():
        await choose(host, f"kind-{colour}", "computer")
        await choose(host, f"level-{colour}", level)
    await click(host, "start-game")
    await shown(host, "room-code")
    (code,) = [key.removeprefix(TOKEN_PREFIX) for key in browser.local_storage
               if key.startswith(TOKEN_PREFIX)]
    return code
