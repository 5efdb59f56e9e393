"""Shared pytest set-up: NiceGUI's test fixtures, with selenium driving Debian's Chromium.

``nicegui.testing.plugin`` provides the simulated ``user`` / ``create_user`` fixtures and the
selenium ``screen`` fixture: it imports the user plugin's fixtures itself, so it is the only
plugin listed (listing ``user_plugin`` as well would register its ini option twice). There is
no main file (``main_file = ""``): every test builds its own server with ``app.create_app``
over its own data directory (``app_server``, which the ``user``, ``create_user`` and
``screen`` fixtures below start), and keeps the :class:`~components.server.Server` it got;
a test that draws its own pages says so with ``@pytest.mark.own_pages``.

Offline, selenium cannot download a driver, so the two fixtures below replace the plugin's
with the Chromium of ``benchmarks/chromium.py`` (Debian's browser and driver, headless,
phone-sized); a test wanting another size sends ``Emulation.setDeviceMetricsOverride`` itself
(and restores ``PHONE_VIEWPORT`` afterwards, as the driver is shared by the whole session).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import sys
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

import hypothesis  # noqa: F401 - before any gc.freeze (see earlier_tests_frozen)
import pytest
from nicegui.testing import User, screen_plugin
from nicegui.testing.screen import Screen
from room_helpers import SimulatedBrowser, stop_computers
from selenium import webdriver
from simulation import build_app, simulated_app, simulated_user

from components.server import Server
from parcheesi.server.config import Config, parse
from parcheesi.server.live import Clock, WallClock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import chromium  # benchmarks/chromium.py, the browser the tests and benchmarks share

pytest_plugins = ["nicegui.testing.plugin"]

PHONE_VIEWPORT = chromium.PHONE_VIEWPORT
TV_VIEWPORT = chromium.TV_VIEWPORT
# The browser tests' server port: another checkout's suite may run beside this one.
Screen.PORT = int(os.environ.get("PARCHEESI_TEST_PORT", Screen.PORT))
T = TypeVar("T")


@pytest.fixture(scope="session")
def nicegui_chrome_options() -> webdriver.ChromeOptions:
    return chromium.chromium_options(
        logs={"browser": "ALL"},  # console errors fail tests
        prefs={"download.default_directory": str(screen_plugin.DOWNLOAD_DIR),
               "download.prompt_for_download": False})


def start_chromium(options: webdriver.ChromeOptions) -> webdriver.Chrome:
    """A phone-sized Chromium: the session's driver, or a second person's browser in a test
    (its own profile, so its own cookies and localStorage; the caller quits it)."""
    driver = chromium.start(options)
    driver.implicitly_wait(Screen.IMPLICIT_WAIT)
    driver.set_page_load_timeout(10)
    return driver


@pytest.fixture(scope="session")
def nicegui_driver(nicegui_chrome_options: webdriver.ChromeOptions) -> Iterator[webdriver.Chrome]:
    driver = start_chromium(nicegui_chrome_options)
    yield driver
    driver.quit()


@pytest.fixture(autouse=True)
def earlier_tests_frozen() -> Iterator[None]:
    """After each test, collect its garbage and freeze what is left (``gc.freeze``).

    NiceGUI's reset of its globals (around every test's server) and the app's housekeeping
    (at every start) run full collections, which walk every object of the session: the
    modules, and what earlier tests left behind, which grows test by test. Frozen objects
    are never walked again, so each of those collections only looks at the objects made
    since the test began, and collects their garbage as before. (Hypothesis is imported
    above, before the first freeze: at import it checks with ``gc.get_referrers``, which
    does not see frozen objects, that the random generators its plugins register are
    referenced.)"""
    yield
    gc.collect()
    gc.freeze()


@pytest.fixture(autouse=True)
def app_data(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """Every test gets its own data directory (SQLite file, storage secret) and a fast pace
    for computer players; ``app.py`` reads both when a fixture starts it."""
    data = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("PARCHEESI_DATA_DIR", str(data))
    monkeypatch.setenv("PARCHEESI_PACE", "0")
    monkeypatch.delenv("PARCHEESI_DATABASE_URL", raising=False)
    return data


@pytest.fixture
def app_config(app_data: Path, request: pytest.FixtureRequest) -> Config:
    """The settings a host's server would have over this test's data directory; a test
    changes some with ``@pytest.mark.parametrize("app_config", [{...}], indirect=True)``."""
    return replace(parse([]), **getattr(request, "param", {}))


@pytest.fixture
def app_clock() -> Clock | None:
    """The clock the server's games and rooms measure time with (a test replaces this
    fixture to inject its own; None: the real one)."""
    return None


@pytest.fixture
def app_wall() -> WallClock | None:
    """The time of day the server's turn clocks keep (a test replaces this fixture to
    inject its own; None: the real one)."""
    return None


def fail_on_error_logs(caplog: pytest.LogCaptureFixture) -> None:
    if any(record.levelname == "ERROR" for record in caplog.get_records("call")):
        pytest.fail("There were unexpected ERROR logs.", pytrace=False)


def own_pages(request: pytest.FixtureRequest) -> bool:
    return request.node.get_closest_marker("own_pages") is not None


@pytest.fixture
async def app_server(request: pytest.FixtureRequest, app_config: Config,
                     app_clock: Clock | None, app_wall: WallClock | None
                     ) -> AsyncIterator[Server | None]:
    """This test's server, started as the simulated users see it (None for a test that
    draws its own pages)."""
    async with simulated_app(None if own_pages(request) else app_config, app_clock,
                             app_wall) as server:
        yield server


@pytest.fixture
async def user(app_server: Server | None, caplog: pytest.LogCaptureFixture
               ) -> AsyncIterator[User]:
    """One simulated browser on this test's server; an ERROR log fails the test."""
    person = simulated_user()
    async with person.http_client:
        yield person
    fail_on_error_logs(caplog)


@pytest.fixture
def create_user(user: User) -> Callable[[], User]:
    """More simulated browsers on the same server."""
    return simulated_user


@dataclass
class Phone:
    """One simulated person's browser: its page and its storage."""

    user: User
    browser: SimulatedBrowser


@pytest.fixture
async def phones(app_server: Server, create_user: Callable[[], User]
                 ) -> AsyncIterator[Callable[[], Phone]]:
    """Simulated phones on this test's server, each its own browser; their computers stop
    with the test."""
    def phone() -> Phone:
        user = create_user()
        return Phone(user, SimulatedBrowser(user))

    yield phone
    await stop_computers(app_server)


@pytest.fixture
def screen(screen: Screen, request: pytest.FixtureRequest, app_config: Config,
           app_clock: Clock | None, app_wall: WallClock | None) -> Screen:
    """NiceGUI's browser fixture serving this test's ``create_app`` server (unless the test
    draws its own pages), with the options a host's server runs with. The server's objects
    are ``screen.app_server`` (None for a test that draws its own pages; see
    :func:`on_server_loop` to use them)."""
    server = None if own_pages(request) else build_app(app_config, app_clock, app_wall)
    if server is not None:
        screen.ui_run_kwargs.update(server.run_options())
    screen.app_server = server  # type: ignore[attr-defined]
    return screen


def on_server_loop(work: Coroutine[Any, Any, T], timeout: float = 30.0) -> T:
    """Run ``work`` on the event loop of the server the ``screen`` fixture started (in its
    own thread) and return its result: a test acts through the service as a page would."""
    from nicegui import core

    assert core.loop is not None and core.loop.is_running(), "open a page first"
    return asyncio.run_coroutine_threadsafe(work, core.loop).result(timeout)


@pytest.fixture
def reduced_motion(screen: Screen) -> Iterator[None]:
    """The phone asks for reduced motion (the system setting), for this test only: a whole
    game then shows every position without waiting for the slides, which
    ``test_browser_motion`` watches frame by frame at the default pace."""
    screen.selenium.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    yield
    screen.selenium.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


POSTGRES_ENV = "PARCHEESI_TEST_POSTGRES_URL"


def _fresh_postgres_database(admin_url: str) -> tuple[str, str]:
    """Create an empty database on the test server; return its URL and name."""
    import uuid

    import psycopg

    name = f"parcheesi_test_{uuid.uuid4().hex[:12]}"
    libpq = admin_url.replace("postgresql+psycopg://", "postgresql://", 1)
    with psycopg.connect(libpq, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return admin_url.rsplit("/", 1)[0] + "/" + name, name


def _drop_postgres_database(admin_url: str, name: str) -> None:
    import psycopg

    libpq = admin_url.replace("postgresql+psycopg://", "postgresql://", 1)
    with psycopg.connect(libpq, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path) -> Iterator[str]:
    """An empty database of each kind the server supports. PostgreSQL comes from the server
    ``scripts/test.sh`` starts (``PARCHEESI_TEST_POSTGRES_URL``); without it these tests
    fail rather than pass unchecked."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'test.sqlite3'}"
        return
    yield from _postgres_database()


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """An empty PostgreSQL database (what only PostgreSQL does: the shards' locks and
    notices)."""
    yield from _postgres_database()


def _postgres_database() -> Iterator[str]:
    admin = os.environ.get(POSTGRES_ENV)
    if not admin:
        pytest.fail(f"{POSTGRES_ENV} is not set: run the tests with ./scripts/test.sh, which "
                    "starts a PostgreSQL server for them")
    url, name = _fresh_postgres_database(admin)
    yield url
    _drop_postgres_database(admin, name)


def emulate_browser_storage(user) -> dict[str, str]:
    """Answer the page's ``localStorage``, ``matchMedia`` and random-bytes scripts for a
    simulated user (NiceGUI's ``user`` fixture has no browser); returns its storage."""
    import json
    import re
    import secrets

    storage: dict[str, str] = {}

    def set_item(match: re.Match[str]) -> bool:
        storage[json.loads(match.group(1))] = json.loads(match.group(2))
        return True

    rules = user.javascript_rules
    rules[re.compile(r'localStorage\.getItem\(("[^"]*")\)')] = (
        lambda m: storage.get(json.loads(m.group(1))))
    rules[re.compile(r'localStorage\.setItem\(("[^"]*"), ("[^"]*")\); true')] = set_item
    rules[re.compile(r'localStorage\.removeItem\(("[^"]*")\); true')] = (
        lambda m: storage.pop(json.loads(m.group(1)), None) is None or True)
    rules[re.compile(r'Object\.keys\(localStorage\)\.filter\(k => k\.startsWith\(("[^"]*")\)\)'
                     r'\.map\(k => k\.slice\((\d+)\)\)')] = (
        lambda m: [k[int(m.group(2)):] for k in storage if k.startswith(json.loads(m.group(1)))])
    rules[re.compile(r"matchMedia\(.*\)\.matches")] = lambda m: False
    rules[re.compile(r"Array\.from\(crypto\.getRandomValues\(new Uint8Array\((\d+)\)\)")] = (
        lambda m: secrets.token_hex(int(m.group(1))))
    return storage


@pytest.fixture(autouse=True)
def simulated_browser_storage(monkeypatch: pytest.MonkeyPatch):
    """Every simulated user answers the storage scripts like a browser would."""
    from nicegui.testing.user import User

    original = User.__init__

    def init(self, *args, **kwargs) -> None:
        original(self, *args, **kwargs)
        self.storage = emulate_browser_storage(self)

    monkeypatch.setattr(User, "__init__", init)


@pytest.fixture(autouse=True)
def navigation_follows_the_page(monkeypatch: pytest.MonkeyPatch):
    """With several simulated users, ``ui.navigate`` is whichever user's attributes were read
    last (NiceGUI's ``User`` swaps it in on every attribute access, outbox emits included),
    so a click of Bob's could navigate Alice. Navigation goes to the user whose page ran it."""
    from nicegui import context
    from nicegui.testing.user import User
    from nicegui.testing.user_navigate import UserNavigate

    users: list[User] = []
    original_init = User.__init__
    original_to = UserNavigate.to

    def init(self, *args, **kwargs) -> None:
        original_init(self, *args, **kwargs)
        users.append(self)

    def to(self, target, new_tab: bool = False) -> None:
        try:
            here = context.client
        except RuntimeError:  # not inside a page: nothing to route by
            here = None
        owner = next((u for u in users if here is not None and u.client is here), None)
        original_to(owner.navigate if owner is not None else self, target, new_tab)

    monkeypatch.setattr(User, "__init__", init)
    monkeypatch.setattr(UserNavigate, "to", to)


class Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def lines() -> Iterator[list[logging.LogRecord]]:
    """The records of the socket guard's loggers (the app's logging does not propagate
    them), at every level."""
    handler = Records()
    loggers = [logging.getLogger("parcheesi.sockets"), logging.getLogger("parcheesi.browser")]
    for logger in loggers:
        logger.addHandler(handler)
        logger.setLevel(logging.DEBUG)
    yield handler.records
    for logger in loggers:
        logger.removeHandler(handler)
        logger.setLevel(logging.NOTSET)
