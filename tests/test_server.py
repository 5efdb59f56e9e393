"""The server's start-up: clear errors for bad settings, the health endpoint."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from nicegui import app
from nicegui.testing import User

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start(*args: str, env_dir: Path) -> subprocess.CompletedProcess[str]:
    import os

    env = {**os.environ, "PARCHEESI_DATA_DIR": str(env_dir)}
    return subprocess.run([sys.executable, "app.py", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=60, env=env)


@pytest.mark.parametrize(("args", "message"), [
    (["--bogus"], "unrecognized arguments"),
    (["--port", "70000"], "port must be 1..65535"),
    (["--pace", "fast"], "pace must be a number"),
    (["--log-level", "chatty"], "log level must be one of"),
    (["--database-url", "mysql://x/y"], "database URL must start with"),
    (["--database-url", "postgresql+psycopg://nobody@127.0.0.1:1/none"],
     "cannot open the database"),
])
def test_bad_settings_exit_with_one_clear_line(args, message, tmp_path):
    result = start("--host", "127.0.0.1", "--port", str(free_port()), *args, env_dir=tmp_path)
    assert result.returncode != 0
    assert message in result.stderr
    assert "Traceback" not in result.stderr


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
