"""Page weight and click-to-update latency of the table page, next to a minimal NiceGUI page.

    .venv/bin/python benchmarks/page.py [--samples 30] [--budget 600]

Starts two servers as subprocesses, each in its own process group and bound to 127.0.0.1:
the real one (``app.py --pace 0.05``, with ``PARCHEESI_DATA_DIR`` and NiceGUI's storage in a
fresh temporary directory, so ``data/`` and ``.nicegui/`` are never touched) and a minimal
NiceGUI page (one label, one button that changes the label). Two headless Chromiums
(Debian's ``/usr/bin/chromium`` and ``/usr/bin/chromedriver``, with the flags and the
390 x 844 phone viewport of the browser tests), one per page, then measure:

- first-load weight: a fresh load of ``/play`` (after creating a game through the UI: 2
  players, Ruby against a Sapphire computer) and of the minimal page, with the browser cache
  disabled (``Network.setCacheDisabled``), until the page is connected and the network
  idle. ``bytes`` is Chromium's count off the wire (``encodedDataLength`` of
  ``Network.loadingFinished`` in the performance log: compressed bodies plus response
  headers), ``resources`` the number of HTTP responses (``data:`` URLs excluded). The
  Resource Timing API (``transferSize`` of the navigation and resource entries) is reported
  next to it as a cross-check: it counts the body as sent plus a fixed 300 bytes for the
  headers, so it differs from the DevTools count by the real header sizes only. Neither
  counts the WebSocket, whose payloads are listed separately (uncompressed, as DevTools
  reports them);
- latency, timed inside the page with ``performance.now()``: a capturing ``click`` listener
  starts the clock and a ``MutationObserver`` stops it, so selenium's round trips are not
  counted. Roll: until the dice's ``aria-label`` changes (rolls that leave it unchanged, a
  roll without a move or the same doubles again, are counted and dropped); a movement
  option: until the moved piece's ``transform`` on the board changes (with "Reduce motion"
  chosen in the settings dialog, so the piece jumps, and "Move at once when a piece has one
  move" off, so a piece press only shows its options); the minimal page: until its label
  changes. ``next_frame`` is the next animation frame after the change (about when it is
  painted); ``split_p50`` divides the time into click -> event sent -> first message back
  -> DOM changed. The minimal page's clicks are interleaved with the table's (taken while
  the table waits for the human), so both see the same machine load.

Prints one JSON object (progress goes to stderr): the machine, both pages' bytes and
resources (each resource listed) and their ratio, each latency's p50/p95 (and all samples,
sorted) with its ratios against the minimal page, and the issue's targets: first-load bytes
at most 1.3x the minimal page's, p95 latency at most 1.5x the minimal page's p95.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

import chromium
import nicegui
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from serving import free_port, spawn, stop_server, tail

ROOT = Path(__file__).resolve().parent.parent
BYTES_TARGET = 1.3
"""The table page's first load may weigh at most this many times the minimal page's."""
LATENCY_TARGET = 1.5
"""Its p95 click-to-update latencies may be at most this many times the minimal page's."""
IDLE_S = 0.5
"""Network idle: no DevTools network event for this long (and no request open)."""
WARM_UP = 3
"""Clicks on the minimal page before its samples (the table page warms up while a game
is set up and the opening is rolled)."""

MINIMAL_PAGE = '''\
import sys

from nicegui import ui


@ui.page("/")
def index() -> None:
    clicks = [0]
    label = ui.label("Clicked 0 times").props("data-testid=label")

    def click() -> None:
        clicks[0] += 1
        label.set_text(f"Clicked {clicks[0]} times")

    ui.button("Click me", on_click=click).props("data-testid=button")


ui.run(host="127.0.0.1", port=int(sys.argv[1]), reload=False, show=False)
'''

PACE = 0.05
"""The server's --pace (seconds per computer step): quick computer turns, and, as at any real
pace, the computer starts thinking only after the person's move has gone out. At ``--pace 0``
its first decision would be computed before the move is sent, which no real setting does."""

LIST_COLUMNS = ["path", "type", "status", "encoding", "bytes", "timing_transfer", "decoded"]
"""One row per HTTP response of a first load, largest first (bytes: DevTools' count)."""

ROLL = "[data-testid=roll]"
DICE = "[data-testid=dice]"
LOG = "[data-testid=log]"
OPTION = "[data-testid=move-option]"

READY_JS = """
return document.readyState === 'complete' && window.did_handshake === true
  && !!(window.socket && window.socket.connected) && document.fonts.status === 'loaded'
  && !!document.querySelector(arguments[0]);
"""

MOVING_JS = """
return document.querySelectorAll('[class*="-enter-active"], [class*="-leave-active"]').length;
"""
"""How many elements a Vue transition is moving (Quasar's dialog scales in, its menus fade
in and are placed as they do)."""

ENTRIES_JS = """
const row = (e, type) => ({name: e.name, type, transfer: e.transferSize,
  encoded: e.encodedBodySize, decoded: e.decodedBodySize});
return performance.getEntriesByType('navigation').map((e) => row(e, 'navigation')).concat(
  performance.getEntriesByType('resource').map((e) => row(e, e.initiatorType)));
"""

STATE_JS = """
const q = (s) => document.querySelector(s);
const on = (el) => !!el && !el.disabled && !el.classList.contains('disabled');
const roll = q('[data-testid=roll]');
const svg = q('[data-testid=board]');
let reduced = null;
let selected = null;
try {
  const board = getElement(svg.id.slice(1));
  reduced = board.view.reduced;
  const piece = board.view.pieces.find((p) => p[6] & 2);
  if (piece) selected = `${board.geometry.colours[piece[0]][0]}-${piece[1] + 1}`;
} catch (e) {}
return {
  ready: window.did_handshake === true && !!(window.socket && window.socket.connected),
  path: location.pathname,
  roll: on(roll),
  rollText: roll ? roll.textContent.trim() : null,
  pieces: [1, 2, 3, 4].filter((n) => on(q(`[data-testid=piece-${n}]`))),
  options: document.querySelectorAll('[data-testid=move-option]').length,
  winner: !!q('[data-testid=winner]'),
  dice: q('[data-testid=dice]')?.getAttribute('aria-label') ?? null,
  reduced,
  selected,
};
"""

# Installed before each timed click: the clock starts in a capturing click listener (before
# NiceGUI's own handler), socket.io's catch-all listeners note the event going out and the
# messages coming back, and a MutationObserver stops the clock when the watched value
# (an attribute, or the text) differs from what it was. ``also``: an element the same server
# update always changes (the move log); if it changes and the watched value does not, the
# action had no visible effect there and the sample is dropped.
INSTALL_JS = """
const [clickSel, watchSel, attr, alsoSel] = arguments;
if (window.__benchStop) window.__benchStop();
const target = document.querySelector(clickSel);
const watched = document.querySelector(watchSel);
const also = alsoSel ? document.querySelector(alsoSel) : null;
if (!target || !watched || (alsoSel && !also)) return 'missing';
const read = () => (attr ? watched.getAttribute(attr) : watched.textContent);
const turn = document.querySelector('[data-testid=turn]');
const rec = {before: read(), after: null, click: null, emit: null, message: null,
  dom: null, also: null, frame: null, messages: [], turnBefore: turn?.textContent ?? null,
  turnAfter: null};
window.__bench = rec;
let resolve;
window.__benchFinished = new Promise((r) => (resolve = r));
const socket = window.socket;
const onClick = (e) => {
  if (rec.click === null && target.contains(e.target)) rec.click = performance.now();
};
const onOut = (event) => {
  if (rec.click !== null && rec.emit === null && event === 'event') rec.emit = performance.now();
};
const onIn = (event, ...args) => {
  const now = performance.now();
  if (rec.click === null || rec.dom !== null || rec.also !== null) return;
  if (rec.message === null) rec.message = now;
  let size = 0;
  try { size = JSON.stringify(args).length; } catch (e) {}
  rec.messages.push([event, Math.round((now - rec.click) * 100) / 100, size]);
};
const stop = () => {
  window.removeEventListener('click', onClick, true);
  socket.offAny(onIn);
  socket.offAnyOutgoing(onOut);
  observer.disconnect();
  window.__benchStop = null;
};
const observer = new MutationObserver((records) => {
  const now = performance.now();
  if (rec.click === null) return;
  const value = read();
  if (value !== rec.before) {
    rec.dom = now;
    rec.after = value;
  } else if (also && records.some((r) => also.contains(r.target))) {
    rec.also = now;
    rec.after = value;
  } else {
    return;
  }
  rec.turnAfter = turn?.textContent ?? null;
  stop();
  requestAnimationFrame(() => { rec.frame = performance.now(); resolve(); });
});
window.addEventListener('click', onClick, true);
socket.onAnyOutgoing(onOut);
socket.onAny(onIn);
observer.observe(watched, {attributes: true, childList: true, subtree: true,
  characterData: true});
if (also) observer.observe(also, {childList: true, subtree: true, characterData: true});
window.__benchStop = stop;
return 'ok';
"""

AWAIT_JS = """
const [timeoutMs, done] = arguments;
const timer = setTimeout(() => {
  if (window.__benchStop) window.__benchStop();
  done(Object.assign({timedOut: true}, window.__bench));
}, timeoutMs);
window.__benchFinished.then(() => {
  clearTimeout(timer);
  done(Object.assign({timedOut: false}, window.__bench));
});
"""

T = TypeVar("T")


def log(message: str) -> None:
    print(f"[page] {message}", file=sys.stderr, flush=True)


def wait_until(check: Callable[[], T | None], timeout: float, what: str,
               interval: float = 0.02) -> T:
    """Poll ``check`` until it returns something truthy; TimeoutError after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(interval)


# --- servers -----------------------------------------------------------------------------------


def wait_serving(proc: subprocess.Popen[bytes], port: int, log_path: Path,
                 timeout: float = 60) -> None:
    """Until the server answers HTTP on 127.0.0.1:port (any status counts as an answer)."""

    def answers() -> bool:
        if proc.poll() is not None:
            raise RuntimeError(f"server on port {port} exited with {proc.returncode}:\n"
                               + tail(log_path))
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2):
                return True
        except urllib.error.HTTPError:
            return True
        except (urllib.error.URLError, OSError):
            return False

    wait_until(answers, timeout, f"the server on port {port}", interval=0.1)


@contextlib.contextmanager
def servers(workdir: Path) -> Iterator[tuple[str, str]]:
    """Start the table server and the minimal page; yield both base URLs; always stop both."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PARCHEESI_", "NICEGUI_"))}
    data = workdir / "data"
    env.update(PARCHEESI_DATA_DIR=str(data), NICEGUI_STORAGE_PATH=str(workdir / "storage"),
               PYTHONUNBUFFERED="1")
    minimal = workdir / "minimal_page.py"
    minimal.write_text(MINIMAL_PAGE)
    table_port, minimal_port = free_port(), free_port()
    while minimal_port == table_port:
        minimal_port = free_port()
    procs: list[tuple[subprocess.Popen[bytes], int, Path]] = []
    try:
        table_log = workdir / "table-server.log"
        procs.append((spawn(
            [sys.executable, str(ROOT / "app.py"), "--host", "127.0.0.1",
             "--port", str(table_port), "--pace", str(PACE)], ROOT, env, table_log),
            table_port, table_log))
        minimal_log = workdir / "minimal-server.log"
        procs.append((spawn([sys.executable, str(minimal), str(minimal_port)],
                                   workdir, env, minimal_log), minimal_port, minimal_log))
        for proc, port, log_path in procs:
            wait_serving(proc, port, log_path)
        log(f"servers up: table :{table_port}, minimal :{minimal_port} (data in {data})")
        yield f"http://127.0.0.1:{table_port}", f"http://127.0.0.1:{minimal_port}"
    finally:
        for proc, _, _ in procs:
            stop_server(proc)
        log("servers stopped")


# --- browser -----------------------------------------------------------------------------------


def make_driver() -> webdriver.Chrome:
    driver = chromium.start(chromium.chromium_options(
        logs={"performance": "ALL", "browser": "ALL"}))
    try:
        driver.execute_cdp_cmd("Network.enable", {})
        driver.set_page_load_timeout(30)
        driver.set_script_timeout(60)
    except WebDriverException:
        driver.quit()
        raise
    return driver


def network_events(driver: webdriver.Chrome) -> list[dict[str, Any]]:
    """Drain the performance log; keep the Network domain's events."""
    out = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method", "").startswith("Network."):
            out.append(message)
    return out


def click(driver: webdriver.Chrome, css: str, timeout: float = 10, settled: bool = False
          ) -> None:
    """Click the first shown ``css`` element; ``settled``: once it is shown, only when no
    dialog or menu is moving (:func:`settle`)."""
    element = wait_until(lambda: _shown(driver, css), timeout, css)
    if settled:
        settle(driver, timeout)
        element = wait_until(lambda: _shown(driver, css), timeout, css)
    element.click()


def settle(driver: webdriver.Chrome, timeout: float = 10) -> None:
    """Until no dialog or menu is still opening or closing. Selenium clicks the point where
    it found an element, and one still moving is elsewhere by then: a menu option clicked
    while the settings dialog scaled in landed on the option above it, and a control of the
    dialog clicked as it began to open hit the dialog's card. (Wait for what is to be
    clicked first: a dialog the server opens has not begun to move right after the click
    that asked for it.)"""
    wait_until(lambda: driver.execute_script(MOVING_JS) == 0, timeout,
               "the dialog and its menus to settle")


def _shown(driver: webdriver.Chrome, css: str) -> Any:
    """The first displayed, enabled ``css`` element, or None (also while the page changes)."""
    try:
        for element in driver.find_elements(By.CSS_SELECTOR, css):
            if element.is_displayed() and element.is_enabled():
                return element
    except StaleElementReferenceException:
        pass
    return None


def click_text(driver: webdriver.Chrome, xpath: str, timeout: float = 10,
               settled: bool = False) -> None:
    """Click the first shown ``xpath`` element (``settled``: as for :func:`click`)."""
    def find() -> Any:
        try:
            return next((e for e in driver.find_elements(By.XPATH, xpath) if e.is_displayed()),
                        None)
        except StaleElementReferenceException:
            return None

    element = wait_until(find, timeout, xpath)
    if settled:
        settle(driver, timeout)
        element = wait_until(find, timeout, xpath)
    element.click()


def page_state(driver: webdriver.Chrome) -> dict[str, Any]:
    return driver.execute_script(STATE_JS)


def wait_ready(driver: webdriver.Chrome, css: str, timeout: float = 30) -> None:
    wait_until(lambda: driver.execute_script(READY_JS, css), timeout, f"a ready page with {css}")


# --- first-load weight -------------------------------------------------------------------------


def first_load(driver: webdriver.Chrome, url: str, ready_css: str, timeout: float = 30
               ) -> dict[str, Any]:
    """Load ``url`` with the cache disabled until the page is ready and the network idle."""
    driver.get("about:blank")
    network_events(driver)  # drop everything before this load
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    try:
        driver.get(url)
        wait_ready(driver, ready_css, timeout)
        events: list[dict[str, Any]] = []
        deadline = time.monotonic() + timeout
        last_event = time.monotonic()
        while True:
            batch = network_events(driver)
            now = time.monotonic()
            if batch:
                events += batch
                last_event = now
            if not open_requests(events) and now - last_event >= IDLE_S:
                break
            if now > deadline:
                raise TimeoutError(f"the network did not go idle loading {url}")
            time.sleep(0.05)
        entries = driver.execute_script(ENTRIES_JS)
    finally:
        driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})
    return weigh(events, entries)


def open_requests(events: list[dict[str, Any]]) -> set[str]:
    started = {e["params"]["requestId"] for e in events
               if e["method"] == "Network.requestWillBeSent"
               and not e["params"]["request"]["url"].startswith("data:")}
    ended = {e["params"]["requestId"] for e in events
             if e["method"] in ("Network.loadingFinished", "Network.loadingFailed")}
    return started - ended


def weigh(events: list[dict[str, Any]], entries: list[dict[str, Any]]) -> dict[str, Any]:
    """Bytes and responses from the DevTools events, and the Resource Timing cross-check."""
    requests: dict[str, dict[str, Any]] = {}
    ws: Counter[str] = Counter()
    for event in events:
        method, params = event["method"], event["params"]
        rid = params.get("requestId")
        if method == "Network.requestWillBeSent":
            requests.setdefault(rid, {})["url"] = params["request"]["url"]
        elif method == "Network.responseReceived":
            response = params["response"]
            headers = {k.lower(): v for k, v in response.get("headers", {}).items()}
            requests.setdefault(rid, {}).update(
                type=params.get("type", ""), status=response.get("status"),
                encoding=headers.get("content-encoding", ""))
        elif method == "Network.loadingFinished":
            requests.setdefault(rid, {})["bytes"] = int(params["encodedDataLength"])
        elif method == "Network.loadingFailed":
            requests.setdefault(rid, {})["failed"] = params.get("errorText", "failed")
        elif method in ("Network.webSocketFrameReceived", "Network.webSocketFrameSent"):
            way = "received" if method.endswith("Received") else "sent"
            payload = params["response"].get("payloadData", "")
            ws[f"{way}_frames"] += 1
            ws[f"{way}_bytes"] += len(payload.encode())
    listed = []
    for request in requests.values():
        url = request.get("url", "")
        if not url or url.startswith("data:") or "bytes" not in request:
            continue
        listed.append({"path": short(url), "type": request.get("type", ""),
                       "status": request.get("status"), "encoding": request.get("encoding"),
                       "bytes": request["bytes"]})
    listed.sort(key=lambda r: -r["bytes"])
    timing = [{"path": short(e["name"]), "type": e["type"], "transfer": e["transfer"],
               "encoded": e["encoded"], "decoded": e["decoded"]} for e in entries]
    by_path = {t["path"]: t for t in timing}
    for row in listed:
        seen = by_path.get(row["path"])
        row["timing_transfer"] = seen["transfer"] if seen else None
        row["decoded"] = seen["decoded"] if seen else None
    failed = [short(r["url"]) for r in requests.values() if "failed" in r and "url" in r]
    http = sum(r["bytes"] for r in listed)
    return {
        "bytes": http,
        "bytes_with_websocket": http + ws["received_bytes"] + ws["sent_bytes"],
        "resources": len(listed),
        "decoded_bytes": sum(t["decoded"] for t in timing),
        "resource_timing": {"bytes": sum(t["transfer"] for t in timing),
                            "body_bytes": sum(t["encoded"] for t in timing),
                            "entries": len(timing),
                            "missing": sorted({r["path"] for r in listed} - set(by_path))},
        "websocket_payload": dict(ws),
        "failed": failed,
        "list_columns": LIST_COLUMNS,
        "list": [[row[k] for k in LIST_COLUMNS] for row in listed],
    }


def short(url: str) -> str:
    parts = urlsplit(url)
    path = parts.path.replace(f"/_nicegui/{nicegui.__version__}/", "/_nicegui/<v>/")
    return path + (f"?{parts.query[:40]}" if parts.query else "")


# --- timed clicks -------------------------------------------------------------------------------


def timed_click(driver: webdriver.Chrome, click_css: str, watch_css: str, attr: str | None,
                also_css: str | None = None, timeout: float = 20) -> dict[str, Any]:
    """Click the first ``click_css`` element and time it until ``watch_css`` changes."""
    status = driver.execute_script(INSTALL_JS, click_css, watch_css, attr, also_css)
    if status != "ok":
        raise RuntimeError(f"cannot time a click on {click_css}: {watch_css} not on the page")
    driver.find_element(By.CSS_SELECTOR, click_css).click()
    record = driver.execute_async_script(AWAIT_JS, int(timeout * 1000))
    if record.get("timedOut"):
        raise TimeoutError(f"no change of {watch_css} within {timeout:.0f} s of clicking "
                           f"{click_css}: {record}")
    return record


def sample(record: dict[str, Any]) -> dict[str, float]:
    """Milliseconds from the click: DOM changed, next frame, and the split of the first."""
    click_t, dom = record["click"], record["dom"]
    emit = record["emit"] if record["emit"] is not None else click_t
    message = record["message"] if record["message"] is not None else dom
    return {
        "dom": dom - click_t,
        "frame": record["frame"] - click_t,
        "click_to_send": emit - click_t,
        "send_to_reply": message - emit,
        "reply_to_dom": dom - message,
        "reply_chars": sum(size for _, _, size in record["messages"]),
        "replies": len(record["messages"]),
        "turn_ended": float(record["turnAfter"] != record["turnBefore"]),
    }


def percentile(values: list[float], q: float) -> float:
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[round(q) - 1]


def summary(samples: list[dict[str, float]]) -> dict[str, Any]:
    def stat(key: str) -> dict[str, float]:
        values = [s[key] for s in samples]
        return {"p50": round(percentile(values, 50), 2), "p95": round(percentile(values, 95), 2)}

    return {
        "n": len(samples),
        **stat("dom"),
        "max": round(max(s["dom"] for s in samples), 2),
        "next_frame": stat("frame"),
        "split_p50": {k: stat(k)["p50"] for k in ("click_to_send", "send_to_reply",
                                                   "reply_to_dom")},
        "reply_chars_p50": stat("reply_chars")["p50"],
        "sorted": sorted(round(s["dom"], 1) for s in samples),
    }


# --- the table page ---------------------------------------------------------------------------


def new_game(driver: webdriver.Chrome, base: str) -> None:
    """Home, New game, 2 players (Ruby, you, against a Sapphire computer), Start game."""
    driver.get(base + "/")
    click(driver, "[data-testid=new-game]")
    click_text(driver, "//*[@data-testid='player-count']//button[normalize-space()='2 players']")
    wait_until(lambda: _shown(driver, "[data-testid=pair]"), 10, "the colour pairs")
    click_text(driver, "//*[@data-testid='pair']//*[@role='radio']"
                       "[contains(normalize-space(), 'Ruby and Sapphire')]")
    wait_until(lambda: driver.execute_script(
        "const q = (s) => document.querySelector(s);"
        "return q('[data-testid=seat-ruby]')?.textContent.includes('You')"
        " && q('[data-testid=seat-sapphire]')?.textContent.includes('Computer')"
        " && !q('[data-testid=seat-emerald]') && !q('[data-testid=seat-amber]');"),
        10, "a Ruby (you) against Sapphire (computer) seating")
    click(driver, "[data-testid=start-game]")

    def arrived() -> bool:
        confirm = _shown(driver, "[data-testid=confirm-new-game]")
        if confirm is not None:
            confirm.click()
        return urlsplit(driver.current_url).path == "/play"

    wait_until(arrived, 15, "the table page")
    wait_ready(driver, "[data-testid=board-piece-ruby-1]")


def reduce_motion(driver: webdriver.Chrome) -> None:
    """Settings dialog: Motion -> Reduce motion; then check the board was told."""
    click(driver, "[data-testid=settings]")
    click(driver, "[data-testid=setting-motion]", settled=True)
    click_text(driver, "//*[contains(@class, 'q-menu')]//*[contains(@class, 'q-item')]"
                       "[normalize-space()='Reduce motion']", settled=True)
    wait_until(lambda: "Reduce motion" in driver.find_element(
        By.CSS_SELECTOR, "[data-testid=setting-motion]").text, 10, "the Motion setting")
    click(driver, "[data-testid=settings-close]", settled=True)
    wait_until(lambda: _shown(driver, "[data-testid=settings-dialog]") is None, 10,
               "the settings dialog to close")
    wait_until(lambda: page_state(driver)["reduced"] is True, 10,
               "the board's reduced-motion flag")


def two_step_moves(driver: webdriver.Chrome) -> None:
    """Settings dialog: turn off "Move at once when a piece has one move", so that a piece
    press only selects it and the timed press is always a movement option's."""
    click(driver, "[data-testid=settings]")
    switch = "[data-testid=setting-one-tap]"
    wait_until(lambda: _shown(driver, switch), 10, switch)
    settle(driver)
    if wait_until(lambda: _shown(driver, switch), 10, switch).get_attribute(
            "aria-checked") == "true":
        click(driver, switch)
    wait_until(lambda: driver.find_element(By.CSS_SELECTOR, switch).get_attribute(
        "aria-checked") == "false", 10, "the one-tap setting to be off")
    click(driver, "[data-testid=settings-close]", settled=True)
    wait_until(lambda: _shown(driver, "[data-testid=settings-dialog]") is None, 10,
               "the settings dialog to close")


def wait_for_turn(driver: webdriver.Chrome, timeout: float = 60) -> dict[str, Any]:
    """Until the human can act (roll, choose a piece) or the game is over."""

    def actionable() -> dict[str, Any] | None:
        state = page_state(driver)
        if state["ready"] and (state["winner"] or state["roll"] or state["pieces"]):
            return state
        return None

    return wait_until(actionable, timeout, "the human's turn")


def play(driver: webdriver.Chrome, base: str, samples: int, deadline: float,
         before_action: Callable[[int], None]
         ) -> tuple[list[dict[str, float]], list[dict[str, float]], dict[str, int]]:
    """Roll and move as Ruby until there are ``samples`` of each; new games as needed.

    ``before_action(samples so far)`` runs while the table waits for the human (no computer
    is playing), before each timed roll or move.
    """
    rolls: list[dict[str, float]] = []
    moves: list[dict[str, float]] = []
    counts: Counter[str] = Counter(games=1)
    while len(rolls) < samples or len(moves) < samples:
        if time.monotonic() > deadline:
            raise TimeoutError(f"time budget spent with {len(rolls)} roll and {len(moves)} "
                               "move samples")
        network_events(driver)  # keep chromedriver's performance log short
        state = wait_for_turn(driver)
        if state["winner"]:
            log("game over; starting a new one")
            new_game(driver, base)
            counts["games"] += 1
            continue
        if state["reduced"] is not True:
            raise RuntimeError("the board is not in reduced motion")
        if state["roll"]:
            opening = state["rollText"].startswith("Roll for the start")
            if not opening:
                before_action(len(rolls) + len(moves))
            record = timed_click(driver, ROLL, DICE, "aria-label", LOG)
            if opening:
                counts["opening_rolls"] += 1
            elif record["dom"] is not None and record["after"] != "Dice: not rolled yet":
                rolls.append(sample(record))
            else:
                counts["rolls_without_new_dice"] += 1
            continue
        if not state["options"]:
            click(driver, f"[data-testid=piece-{state['pieces'][0]}]")
            state = wait_until(lambda: (s := page_state(driver))["options"] and s, 10,
                               "the movement options")
        if not state["selected"]:
            raise RuntimeError("movement options are shown but the board has no selection")
        before_action(len(rolls) + len(moves))
        record = timed_click(driver, OPTION, f"[data-testid=board-piece-{state['selected']}]",
                             "transform", LOG)
        if record["dom"] is not None:
            moves.append(sample(record))
        else:
            counts["moves_without_board_change"] += 1
        if (len(rolls) + len(moves)) % 20 == 0:
            log(f"{len(rolls)} roll and {len(moves)} move samples")
    return rolls[:samples], moves[:samples], dict(counts)


# --- the minimal page -------------------------------------------------------------------------


class MinimalPage:
    """The minimal page, open in its own browser: one timed click at a time."""

    def __init__(self, driver: webdriver.Chrome, base: str) -> None:
        self.driver = driver
        self.base = base
        self.samples: list[dict[str, float]] = []

    def open(self) -> None:
        self.driver.get(self.base + "/")
        wait_ready(self.driver, "[data-testid=button]")
        for _ in range(WARM_UP):
            self.click()

    def click(self) -> dict[str, float]:
        return sample(timed_click(self.driver, "[data-testid=button]", "[data-testid=label]",
                                  None))

    def take(self) -> None:
        self.samples.append(self.click())


# --- report ------------------------------------------------------------------------------------


def machine(driver: webdriver.Chrome, load_before: list[float]) -> dict[str, Any]:
    cpu = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return {
        "platform": platform.platform(),
        "cores": os.cpu_count(),
        "cpu": cpu,
        "python": platform.python_version(),
        "nicegui": nicegui.__version__,
        "chromium": driver.capabilities.get("browserVersion"),
        "load_average_1m": {"start": load_before[0], "end": round(os.getloadavg()[0], 2)},
    }


def ratio(a: float, b: float) -> float:
    return round(a / b, 2) if b else float("inf")


def run(samples: int, budget: float) -> dict[str, Any]:
    deadline = time.monotonic() + budget
    load_before = [round(os.getloadavg()[0], 2)]  # other work on the machine skews latencies
    with tempfile.TemporaryDirectory(prefix="parcheesi-page-") as tmp, \
            servers(Path(tmp)) as (table, minimal_base):
        drivers: list[webdriver.Chrome] = []
        try:
            drivers.append(make_driver())
            drivers.append(make_driver())
            driver, minimal_driver = drivers
            log("creating a game through the UI")
            new_game(driver, table)
            reduce_motion(driver)
            two_step_moves(driver)
            log("first loads (cache disabled)")
            table_load = first_load(driver, table + "/play", "[data-testid=board-piece-ruby-1]")
            minimal_load = first_load(minimal_driver, minimal_base + "/",
                                      "[data-testid=button]")
            log("clicks: table rolls and moves, interleaved with minimal page clicks")
            minimal = MinimalPage(minimal_driver, minimal_base)
            minimal.open()
            driver.get(table + "/play")
            wait_ready(driver, "[data-testid=board-piece-ruby-1]")

            def interleave(done: int) -> None:
                """Spread the minimal page's samples over the table's (about 2 actions
                each), taken while the table is idle."""
                if len(minimal.samples) < samples and 2 * len(minimal.samples) <= done:
                    minimal.take()

            rolls, moves, counts = play(driver, table, samples, deadline, interleave)
            while len(minimal.samples) < samples:
                minimal.take()
            errors = [f"{name}: {e['message'][:200]}"
                      for name, d in (("table", driver), ("minimal", minimal_driver))
                      for e in d.get_log("browser") if e.get("level") == "SEVERE"]
            info = machine(driver, load_before)
        finally:
            for d in drivers:
                with contextlib.suppress(WebDriverException):
                    d.quit()

    base = summary(minimal.samples)
    roll = summary(rolls)
    move = summary(moves)
    for entry in (roll, move):
        entry["ratio_p50"] = ratio(entry["p50"], base["p50"])
        entry["ratio_p95"] = ratio(entry["p95"], base["p95"])
    for key, ended in (("ending_the_turn", 1.0), ("turn_goes_on", 0.0)):
        part = [m for m in moves if m["turn_ended"] == ended]
        if part:
            move[key] = {"n": len(part), "p50": summary(part)["p50"]}
    bytes_ratio = ratio(table_load["bytes"], minimal_load["bytes"])
    return {
        "benchmark": "page",
        "machine": info,
        "setup": {"viewport": "{}x{}".format(*chromium.PHONE_WINDOW), "pace": PACE,
                  "samples": samples,
                  "motion": "Reduce motion", "one_tap": False,
                  "game": "solo, Ruby (you) vs Sapphire (medium)",
                  **counts},
        "first_load": {
            "table": {"path": "/play", **table_load},
            "minimal": {"path": "/", **minimal_load},
            "bytes_ratio": bytes_ratio,
            "bytes_with_websocket_ratio": ratio(table_load["bytes_with_websocket"],
                                                minimal_load["bytes_with_websocket"]),
            "resources_ratio": ratio(table_load["resources"], minimal_load["resources"]),
            "resource_timing_bytes_ratio": ratio(table_load["resource_timing"]["bytes"],
                                                 minimal_load["resource_timing"]["bytes"]),
        },
        "latency_ms": {"minimal_click_to_label": base, "roll_to_dice": roll,
                       "move_to_board": move},
        "targets": {
            "bytes_ratio_max": BYTES_TARGET,
            "bytes_met": bytes_ratio <= BYTES_TARGET,
            "latency_p95_ratio_max": LATENCY_TARGET,
            "roll_met": roll["ratio_p95"] <= LATENCY_TARGET,
            "move_met": move["ratio_p95"] <= LATENCY_TARGET,
        },
        "console_errors": errors,
    }


def dumps(result: dict[str, Any]) -> str:
    """Indented JSON with every list of scalars (a resource row, the samples) on one line."""
    text = json.dumps(result, indent=1)
    return re.sub(r"\[\s*([^\[\]{}]*?)\s*\]",
                  lambda m: "[" + ", ".join(v.strip() for v in m.group(1).split(",\n")) + "]",
                  text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=30, help="samples per latency")
    parser.add_argument("--budget", type=float, default=600,
                        help="seconds allowed for playing the table samples")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop the servers on SIGTERM too
    print(dumps(run(args.samples, args.budget)), flush=True)


if __name__ == "__main__":
    main()
