"""The server's start-up: clear errors for bad settings, the health endpoint."""

from __future__ import annotations

import asyncio
import os
import socket
import sqlite3
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import httpx
import pytest
from nicegui import app
from nicegui.testing import User

from components import pages
from components.health import HealthNotice
from components.server import Server
from parcheesi.server.config import FLAGS, parse, proxy_settings

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start(*args: str, env_dir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "app.py", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=60, env=server_env(env_dir))


def server_env(env_dir: Path) -> dict[str, str]:
    return {**os.environ, "PARCHEESI_DATA_DIR": str(env_dir)}


BAD_SETTINGS = [
    (["--bogus"], "unrecognized arguments"),
    (["--port", "70000"], "port must be 1..65535"),
    (["--pace", "fast"], "pace must be a number"),
    (["--log-level", "chatty"], "log level must be one of"),
    (["--database-url", "mysql://x/y"], "database URL must start with"),
    (["--trusted-proxies", "127.0.0.1,caddy"], "trusted proxies are addresses or networks"),
    (["--database-url", "postgresql+psycopg://nobody@127.0.0.1:1/none"],
     "cannot open the database"),
]


def test_bad_settings_exit_with_one_clear_line(tmp_path):
    """Each bad setting in a server process of its own (and data directory), all started at
    once: most of each one's time is the imports."""
    running = []
    for k, (args, message) in enumerate(BAD_SETTINGS):
        data = tmp_path / str(k)
        data.mkdir()
        command = [sys.executable, "app.py", "--host", "127.0.0.1", "--port", str(free_port()),
                   *args]
        running.append((args, message, subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
            env=server_env(data))))
    for args, message, process in running:
        _, stderr = process.communicate(timeout=60)
        assert process.returncode != 0, args
        assert message in stderr, (args, stderr)
        assert "Traceback" not in stderr, (args, stderr)


def test_help_names_every_setting_as_the_readme_does(capsys, tmp_path):
    """``app.py --help`` says what each flag means and which variable sets it; the README's
    table of settings lists the same flags and variables."""
    with pytest.raises(SystemExit) as stopped:
        parse(["--help"], environ={}, root=tmp_path)
    assert stopped.value.code == 0
    shown = " ".join(capsys.readouterr().out.split())
    readme = (ROOT / "README.md").read_text()
    for flag, variable, _, meaning in FLAGS:
        assert f"{flag} {flag[2:].replace('-', '_').upper()} {meaning}" in shown, flag
        assert f"[{variable}]" in shown, variable
        assert f"| `{flag}` | `{variable}` |" in readme, flag
    assert "NICEGUI_REDIS_URL" in shown


def test_a_port_in_use_is_reported(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = start("--host", "127.0.0.1", "--port", str(port), env_dir=tmp_path)
    assert result.returncode != 0
    assert f"cannot listen on 127.0.0.1:{port}" in result.stderr
    assert "Traceback" not in result.stderr


async def test_health_endpoint_reports_the_database(user: User):
    await user.open("/")
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app),
                                 base_url="http://test") as client:
        response = await client.get("/health")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok" and body["database"] == "ok"
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app),
                                 base_url="http://test") as client:
        asked = await client.head("/health")  # an uptime monitor's way (405 before)
    assert asked.status_code == 200


@pytest.mark.parametrize(("asked", "bound", "base"), [
    ("192.168.1.20:8080", "0.0.0.0", "http://192.168.1.20:8080"),  # as the phone asked
    ("games.example", "127.0.0.1", "http://games.example"),  # through a proxy
    ("localhost:8080", "0.0.0.0", "http://192.168.1.20:8080"),  # the host's own browser
    ("[::1]:8080", "0.0.0.0", "http://192.168.1.20:8080"),
    ("", "0.0.0.0", "http://192.168.1.20:8080"),
    ("localhost:8080", "127.0.0.1", "http://localhost:8080"),  # nobody else could open a LAN
])
def test_links_for_other_devices_name_an_address_they_can_open(
        monkeypatch: pytest.MonkeyPatch, asked: str, bound: str, base: str) -> None:
    """Invitations, TV links and person links: a server that listens on this machine alone
    gave a LAN address it does not answer on."""
    monkeypatch.setattr(pages, "lan_urls", lambda port: [f"http://192.168.1.20:{port}"])
    assert pages.base_for(asked, "http", bound, 8080) == base


def test_forwarded_headers_are_believed_only_from_the_proxies_named(tmp_path):
    """Without the setting a player on the machine itself could claim any address (and any
    scheme) with X-Forwarded-For/-Proto; with it, only the named proxies may."""
    env = {"PARCHEESI_DATA_DIR": str(tmp_path)}
    assert proxy_settings(parse([], environ=env, root=tmp_path)) == {
        "proxy_headers": False, "forwarded_allow_ips": None}
    named = parse(["--trusted-proxies", "127.0.0.1, 172.18.0.0/16"], environ=env,
                  root=tmp_path)
    assert named.trusted_proxies == ("127.0.0.1", "172.18.0.0/16")
    assert proxy_settings(named) == {"proxy_headers": True,
                                     "forwarded_allow_ips": "127.0.0.1,172.18.0.0/16"}
    from_env = parse([], environ={**env, "PARCHEESI_TRUSTED_PROXIES": "::1"}, root=tmp_path)
    assert from_env.trusted_proxies == ("::1",)


async def test_an_address_that_names_no_page_answers_with_the_way_home(user: User):
    """A mistyped or stale address: 404 with the top bar, a plain sentence and a link home;
    a file's or a JSON address's 404 stays a short answer without a page around it."""
    for address in ("/no-such-page", "/rules/chess", "/room/ABCD/extra"):
        answer = await user.http_client.get(address)
        assert answer.status_code == 404, address
        assert "<title>Page not found · " in answer.text, address
        assert "trouble-home" in answer.text and "My games" in answer.text
        assert "HTTPException" not in answer.text, address
    assert "There is no page at this address." in (await user.http_client.get("/x")).text
    long = await user.http_client.get("/rules/" + "A" * 10_000)
    assert long.status_code == 404 and "A" * 100 not in long.text  # the address cut short
    record = await user.http_client.get("/records/" + "0" * 32 + ".json")
    assert record.status_code == 404 and record.headers["content-type"] == "application/json"


async def test_a_page_that_fails_says_so_plainly_and_keeps_its_reason_in_the_log(
        app_server: Server, user: User, caplog, monkeypatch):
    """A page that raises: 500 with the top bar, a plain sentence and a link home, not the
    exception's words (which may name the database); the log has the traceback."""
    async def broken(game_id: str) -> None:
        raise RuntimeError("postgresql://secret@db/parcheesi refused")

    monkeypatch.setattr(app_server.store, "game", broken)
    answer = await user.http_client.get("/games/" + "0" * 32 + "/charts")
    assert answer.status_code == 500
    assert "<title>Something went wrong · " in answer.text
    assert "Every game is kept as it was" in answer.text
    assert "trouble-home" in answer.text
    assert "secret" not in answer.text and "RuntimeError" not in answer.text
    logged = [r for r in caplog.records if r.levelname == "ERROR"]
    assert logged and logged[0].exc_info and "secret" in str(logged[0].exc_info[1])
    caplog.clear()


async def test_health_and_every_page_say_when_the_database_file_is_gone(
        app_server: Server, user: User, caplog):
    """A database file deleted or replaced under the running server: its writes would go
    to a file nobody opens again, so /health answers 503 and the pages say so."""
    await user.open("/")
    await user.should_not_see("The server cannot save games")
    assert app_server.store._sqlite_path is not None
    path = Path(app_server.store._sqlite_path)
    copy = path.with_name("copy.sqlite3")
    copy.write_bytes(path.read_bytes())
    os.replace(copy, path)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app),
                                 base_url="http://test") as client:
        response = await client.get("/health")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable" and "deleted or replaced" in body["database"]
    await user.should_see("The server cannot save games right now")
    errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert errors == ["the database cannot be written"]  # said once, for the operator
    caplog.clear()


async def test_health_answers_busy_within_a_second_while_another_program_holds_the_lock(
        app_server: Server, user: User):
    """A monitor gets an answer in time while another program holds the database: 503 with
    "busy" however many checks come (one write waits for the lock, not one per check), 200
    again once the lock is gone."""
    await user.open("/")
    assert app_server.store._sqlite_path is not None
    holder = sqlite3.connect(app_server.store._sqlite_path, timeout=0)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app),
                                 base_url="http://test") as client:
        try:
            holder.execute("BEGIN EXCLUSIVE")
            for _ in range(3):
                started = time.monotonic()
                response = await client.get("/health")
                assert time.monotonic() - started < 1.0
                assert response.status_code == 503
                assert response.json()["database"] == "busy"
        finally:
            holder.rollback()
            holder.close()
        deadline = time.monotonic() + 10
        while (response := await client.get("/health")).status_code != 200:
            assert time.monotonic() < deadline, response.json()
        assert response.json()["database"] == "ok"


async def test_the_app_can_go_on_the_home_screen(user: User):
    """The manifest parses and names the icons, every icon loads as the PNG of its size, and
    the pages say their language and link the manifest and the touch icon."""
    import struct

    async with httpx.AsyncClient(transport=httpx.ASGITransport(app),
                                 base_url="http://test") as client:
        page = await client.get("/")
        assert page.text.lstrip().lower().startswith("<!doctype html>")
        assert '<html lang="en-US"' in page.text
        assert 'rel="manifest" href="/manifest.webmanifest"' in page.text
        assert 'rel="apple-touch-icon" href="/icons/apple-touch-icon.png"' in page.text
        assert 'rel="icon" type="image/png" href="/icons/icon-192.png"' in page.text  # ours
        response = await client.get("/manifest.webmanifest")
        assert response.headers["content-type"].startswith("application/manifest+json")
        manifest = response.json()
        assert (manifest["name"], manifest["display"], manifest["start_url"]) == (
            "Family Table", "standalone", "/")
        icons = manifest["icons"]
        assert {i["sizes"] for i in icons} == {"192x192", "512x512"}
        assert any(i.get("purpose") == "maskable" for i in icons)
        for icon in [*icons, {"src": "/icons/apple-touch-icon.png", "sizes": "180x180"}]:
            png = await client.get(icon["src"])
            assert png.status_code == 200 and png.content[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = struct.unpack(">II", png.content[16:24])
            assert f"{width}x{height}" == icon["sizes"]


async def test_a_cluster_whose_settings_store_goes_away_says_so_and_plays_on(
        app_server: Server, user: User, caplog: pytest.LogCaptureFixture, tmp_path: Path):
    """A cluster keeps the browsers' settings in Redis: while it cannot be reached the pages
    say so (games are still kept: /health stays 200), and the banner goes when it is back."""
    port = free_port()
    redis = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1",
                              "--save", "", "--dir", str(tmp_path)], stdout=subprocess.DEVNULL)
    try:
        app_server.config = replace(app_server.config, redis_url=f"redis://127.0.0.1:{port}/0")
        app_server.notice = HealthNotice(app_server.store, app_server.config.redis_url)
        assert await until_answered(app_server.notice)
        caplog.clear()  # Redis starting up did not answer at once
        await user.open("/")
        await user.should_not_see("cannot keep settings")
        redis.terminate()
        redis.wait(10)
        await app_server.notice.look()
        await user.should_see("The server cannot keep settings right now")
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app),
                                     base_url="http://test") as client:
            response = await client.get("/health")
        assert response.status_code == 200
        assert response.json()["settings"] == "unreachable"
        redis = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1",
                                  "--save", "", "--dir", str(tmp_path)],
                                 stdout=subprocess.DEVNULL)
        assert await until_answered(app_server.notice)
        await user.should_not_see("cannot keep settings")
        errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
        assert errors == ["the settings store (Redis) cannot be reached"]
        caplog.clear()
    finally:
        redis.terminate()
        redis.wait(10)


async def until_answered(notice: HealthNotice, seconds: float = 10.0) -> bool:
    """Whether Redis answers the notice's look within ``seconds`` (it is starting)."""
    deadline = time.monotonic() + seconds
    while True:
        await notice.look()
        if not notice.settings_lost:
            return True
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.05)


async def test_memory_is_given_back_only_in_a_minute_when_something_went(
        app_server: Server, user: User, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full collection stops every game for as long as it scans the live objects (half a
    second with 200 pages open): the minute's housekeeping runs one only when a page, a game
    or a room went since the last round."""
    from app import tidy

    given: list[str] = []
    await user.open("/")
    pages = await tidy(app_server, set(), lambda: given.append("nothing went"))
    assert pages and given == []  # a page came, none went
    pages = await tidy(app_server, pages, lambda: given.append("nothing went"))
    assert given == []
    await tidy(app_server, {*pages, "a page that went"}, lambda: given.append("a page went"))
    assert given == ["a page went"]
    monkeypatch.setattr(app_server.hub, "unload_idle", lambda: ["an idle game"])
    await tidy(app_server, pages, lambda: given.append("a game went"))
    assert given == ["a page went", "a game went"]
