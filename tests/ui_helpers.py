"""Helpers shared by the simulated-user tests of the app (``test_app_flows``, ``test_full_game``).

The components mark their controls with ``data-testid`` props (the browser-hook contract), not
with NiceGUI markers, so elements are found by that prop here. The table's controls are one
component (``components/controls.py``) that draws them from one JSON state: they are found as
:class:`Control` objects read from that state as ``controls.js`` draws it, with the same hooks,
words and states, and pressing one sends the component the event the browser sends. Clicks go
through NiceGUI's own ``UserInteraction`` (which skips disabled elements, as a browser would);
``trigger`` and ``send_press`` send an event even to a disabled control, like a forged or
stale request.

Waiting is bounded and condition-based: ``click`` awaits the background tasks its handler
started (a coroutine handler, a navigation) and ``until`` polls a predicate on live state.

The app's objects come from the :class:`~components.server.Server` the test's ``app_server``
fixture built (``app.create_app``); helpers that need its live games take it first.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from nicegui import ElementFilter, background_tasks, ui
from nicegui.testing import User, UserInteraction

from components.board_view import Board
from components.controls import Controls
from components.server import Server
from parcheesi.core.state import Phase
from parcheesi.games.parcheesi.board import COLOURS
from parcheesi.server.live import LiveGame

TIMEOUT = 10.0


def browser_id(user: User) -> str:
    """The id NiceGUI keeps in this simulated browser's session cookie."""
    assert user.client is not None and user.client.request is not None
    return str(user.client.request.session["id"])


async def live_game(server: Server, user: User) -> LiveGame:
    """The game this user's browser plays (the very object the page is bound to)."""
    game = await server.hub.local_game(browser_id(user), finished_too=True)
    assert game is not None, "this browser has no local game"
    return game


def stop_runners(server: Server) -> None:
    """Cancel the computers' tasks of every game held in memory (as a server stop would)."""
    for game in list(server.hub.games.values()):
        if game.runner is not None:
            game.runner.cancel()


# --- finding elements by data-testid -----------------------------------------------------------


@dataclass(frozen=True)
class Control:
    """One control of a table's :class:`Controls` component, as ``controls.js`` draws it from
    the component's state: its ``data-testid``, words, attributes (``props``) and state, and
    the event the browser sends when it is pressed (``event`` with ``args``; a game action
    adds the stamp it shows)."""

    owner: Controls
    order: int
    """Its place in the component (the browser's document order)."""
    testid: str
    text: str = ""
    props: dict[str, Any] = field(default_factory=dict)
    enabled: bool = True
    visible: bool = True
    event: str | None = None
    args: Any = None

    @property
    def id(self) -> tuple[int, int]:
        return (self.owner.id, self.order)

    @property
    def stamped(self) -> bool:
        return "data-stamp" in self.props


def drawn_controls(owner: Controls) -> list[Control]:
    """The controls ``controls.js`` draws from ``owner.state``, in document order."""
    s = owner.state
    stamp, found = s["stamp"], []

    def add(testid: str, text: str = "", event: str | None = None, args: Any = None, *,
            enabled: bool = True, visible: bool = True, **props: Any) -> None:
        if event == "press":
            props["data-stamp"] = stamp
        found.append(Control(owner, len(found), testid, text,
                             {"data-testid": testid, **props}, enabled, visible, event, args))

    dice = s["dice"]
    add("dice", role="img", **{"aria-label": dice["label"]})
    add("dice-owner", dice["owner"])
    for k, (value, count, pressed) in enumerate(s["chips"]):
        add(f"portion-{value}", f"{value}" + (f" ×{count}" if count > 1 else ""), "chip", k,
            **{"aria-label": f"Use {value}", "aria-pressed": "true" if pressed else "false"})
    text, can_roll = s["roll"]
    add("roll", text, "press", {"control": "roll", "index": 0}, enabled=can_roll,
        **{"aria-keyshortcuts": "R"})
    for k, (enabled, _, label) in enumerate(s["pieces"]):
        add(f"piece-{k + 1}", str(k + 1), "press", {"control": "piece", "index": k},
            enabled=enabled, visible=not s["question"],
            **{"aria-keyshortcuts": str(k + 1), "aria-label": label})
    for k, (text, mark) in enumerate(s["options"]):
        add("move-option", text, "press", {"control": "option", "index": k, "set": s["set"]},
            **{"data-mark": str(mark), "aria-label": text})
    add("hint", "Hint", "press", {"control": "hint", "index": 0}, enabled=s["hint"])
    add("play-best", "Play best", "press", {"control": "best", "index": 0}, enabled=s["hint"])
    if s["undo"]:
        add("undo", "Undo", "press", {"control": "undo", "index": 0}, **{"aria-keyshortcuts": "U"})
    add("status", s["status"], role="status", **{"aria-live": "polite"})
    return found


def _everything(user: User, kind: type[ui.element], visible: bool) -> list[Any]:
    """The page's elements of ``kind`` and, with them, the controls its tables draw."""
    with user:
        found: list[Any] = list(ElementFilter(kind=kind, only_visible=visible,
                                              local_scope=False))
        tables = ElementFilter(kind=Controls, only_visible=visible, local_scope=False)
        for owner in tables if kind is ui.element else ():
            found += [c for c in drawn_controls(owner) if c.visible or not visible]
    return found


def _position(item: Any) -> tuple[int, int]:
    """Creation order, a table's controls in their component's order."""
    return item.id if isinstance(item, Control) else (item.id, -1)


def elements(user: User, testid: str, kind: type[ui.element] = ui.element,
             visible: bool = True) -> list[Any]:
    """Elements of the current page whose ``data-testid`` is ``testid``, in creation order
    (a table's controls as :class:`Control` objects)."""
    found = [e for e in _everything(user, kind, visible) if e.props.get("data-testid") == testid]
    return sorted(found, key=_position)


def element(user: User, testid: str, kind: type[ui.element] = ui.element) -> Any:
    found = elements(user, testid, kind)
    assert len(found) == 1, f"expected one element data-testid={testid}, found {len(found)}"
    return found[0]


def ids_starting(user: User, prefix: str, visible: bool = False) -> list[str]:
    """The data-testids beginning with ``prefix`` on the current page, in creation order."""
    found = sorted((e for e in _everything(user, ui.element, visible)
                    if str(e.props.get("data-testid", "")).startswith(prefix)), key=_position)
    return [e.props["data-testid"] for e in found]


def board(user: User) -> Board | None:
    """The board component (its data-testid is set by its Vue template, not as a prop)."""
    with user:
        found = list(ElementFilter(kind=Board, local_scope=False))
    assert len(found) <= 1
    return found[0] if found else None


def text(user: User, testid: str) -> str:
    return str(element(user, testid).text)


def enabled(user: User, testid: str) -> bool:
    return bool(element(user, testid).enabled)


def _long_lived(task: asyncio.Task) -> bool:
    """Tasks that live as long as a page: outbox loops, timers, deferred client deletion."""
    name = task.get_name()
    coro = getattr(task.get_coro(), "__qualname__", "")
    return name.startswith(("outbox loop", "delete content")) or coro.endswith("_run_in_loop")


def _started_since(before: set[asyncio.Task]) -> set[asyncio.Task]:
    return {t for t in background_tasks.running_tasks - before
            if not t.done() and not _long_lived(t)}


async def settle(before: set[asyncio.Task], timeout: float = TIMEOUT) -> None:
    """Wait until the background tasks started since ``before`` (and those they start) end."""
    deadline = time.monotonic() + timeout
    while True:
        fresh = _started_since(before)
        if not fresh:
            await asyncio.sleep(0)  # let done-callbacks and just-created tasks run
            if not _started_since(before):
                return
            continue
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise AssertionError(f"handlers still running after {timeout} s: {fresh}")
        await asyncio.wait(fresh, timeout=remaining)


async def click(user: User, testid: str, index: int = 0, wait: bool = True) -> None:
    """Click (like a person: nothing happens if it is disabled) and, unless ``wait`` is false
    (a handler that waits for a dialog), await what the click started."""
    target = elements(user, testid)
    assert len(target) > index, f"no element data-testid={testid} (#{index}) on the page"
    before = set(background_tasks.running_tasks)
    press_element(user, target[index])
    if wait:
        await settle(before)
    else:
        await asyncio.sleep(0)


def press_element(user: User, target: Any) -> None:
    """What the browser sends when a person presses ``target``: nothing if it is disabled,
    and with a stamped control (a game action, ``components/presses.py``) the stamp it
    shows."""
    if isinstance(target, Control):
        if target.enabled:
            send_press(user, target, target.props.get("data-stamp"))
        return
    stamp = target.props.get("data-stamp")
    if stamp is None:
        UserInteraction(user, {target}, None).click()
    elif getattr(target, "enabled", True):
        UserInteraction(user, {target}, None).trigger("click", stamp)


def send_press(user: User, target: Any, stamp: Any) -> None:
    """Send ``target``'s press with ``stamp`` whatever its state, as a page would send it (a
    table's control: its event to the component, with the stamp when it is a game action;
    another element: its click with the stamp)."""
    if not isinstance(target, Control):
        UserInteraction(user, {target}, None).trigger("click", stamp)
    elif target.stamped:
        UserInteraction(user, {target.owner}, None).trigger(
            "press", {**target.args, "stamp": stamp})
    else:
        UserInteraction(user, {target.owner}, None).trigger(target.event or "", target.args)


async def trigger(user: User, target: ui.element, event: str, args: Any = None) -> None:
    """Send an event to an element whatever its state (a forged or stale request)."""
    before = set(background_tasks.running_tasks)
    UserInteraction(user, {target}, None).trigger(event, args)
    await settle(before)


async def forge(user: User, testid: str) -> None:
    """A click sent to a control even when it is disabled, with the stamp it shows, as a
    tampered page could send it."""
    target = element(user, testid)
    before = set(background_tasks.running_tasks)
    send_press(user, target, target.props.get("data-stamp"))
    await settle(before)


async def board_click(user: User, colour: int, piece: int) -> None:
    """A tap on a piece drawn on the board, sent with the stamp the board shows (as its
    script does, whether or not the piece may move)."""
    drawn = board(user)
    assert drawn is not None, "no board on the page"
    await trigger(user, drawn, "piece_click",
                  {"colour": colour, "piece": piece, "stamp": drawn.view["stamp"]})


async def press(user: User, key: str) -> None:
    """A key press as the page's script handles it (``components/presses.py``): R presses
    Roll and 1-4 the piece buttons, when they are enabled."""
    testid = "roll" if key.lower() == "r" else f"piece-{key}" if key in "1234" else None
    if testid is not None and enabled(user, testid):
        await click(user, testid)


async def two_step_moves(user: User) -> None:
    """Turn off "Move at once when a piece has one move" in the settings dialog, as a person
    who wants to see a piece's options before each move does: a tap on a piece then always
    selects it."""
    await click(user, "settings")
    await click(user, "setting-one-tap")
    await click(user, "settings-close")


async def choose(user: User, testid: str, value: Any) -> None:
    """Pick a value in a toggle, radio or select (what the person's choice sends)."""
    target = element(user, testid)
    assert value in target.options, f"{value!r} is not offered by {testid}: {target.options}"
    before = set(background_tasks.running_tasks)
    with user:
        target.value = value
    await settle(before)


async def until(predicate: Callable[[], bool], what: str, timeout: float = TIMEOUT) -> None:
    """Poll ``predicate`` (on live state) every 10 ms until it holds, at most ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(0.01)


# --- games -------------------------------------------------------------------------------------


def human_to_act(game: LiveGame) -> bool:
    return not game.over and game.seat_to_act().is_human


async def computers_done(game: LiveGame, timeout: float = TIMEOUT) -> None:
    """Wait until the game is over or a person is to act (the computers played their turns)."""
    await until(lambda: game.over or human_to_act(game),
                "the computers to finish their turns", timeout)


async def start_game(server: Server, user: User, *, count: int = 2, mode: str = "solo",
                     levels: dict[str, str] | None = None) -> LiveGame:
    """Fill in /new (Ruby is the person in solo games) and start; returns the live game."""
    await user.open("/new")
    await choose(user, "mode", mode)
    await choose(user, "player-count", count)
    for colour, level in (levels or {}).items():
        await choose(user, f"level-{colour}", level)
    await click(user, "start-game")
    # The click navigates to /play; the simulated browser opens it in a task of its own.
    await until(lambda: bool(elements(user, "turn")) and board(user) is not None,
                "the table to open")
    return await live_game(server, user)


async def roll_until_move(user: User, game: LiveGame, rolls: int = 30) -> None:
    """Roll (by clicking Roll) until the person has a roll to play."""
    for _ in range(rolls):
        await computers_done(game)
        assert not game.over
        if game.state.phase is Phase.MOVE:
            return
        assert game.state.phase in (Phase.OPENING, Phase.ROLL), game.state.phase
        assert enabled(user, "roll")
        version = game.version
        await click(user, "roll")
        assert game.version > version, "Roll did nothing"
    raise AssertionError(f"no roll to play after {rolls} rolls")


def colour_name(colour: int) -> str:
    return COLOURS[colour].title()
