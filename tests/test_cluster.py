"""The cluster: its compose file and proxy configuration, and a short run of its drill
(``benchmarks/cluster.py``) on a real cluster that ``scripts/cluster.sh`` brings up here:
PostgreSQL, Redis, nginx and two shards.

The drill asserts what the issue judges: rooms on both shards, reconnects racing through
both shards' prefixes leave every room live in one, and a shard killed under load loses no
action, disturbs no other shard's page and has its rooms playable again within 10 s of its
restart.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
sys.path.insert(0, str(ROOT / "benchmarks"))

import cluster  # noqa: E402


@pytest.fixture(scope="module")
def services() -> dict:
    return yaml.safe_load((DEPLOY / "cluster.compose.yaml").read_text())["services"]


def test_the_cluster_compose_file_has_every_part(services: dict) -> None:
    assert {"db", "redis", "migrate", "proxy"} <= set(services)
    assert services["db"]["image"] == "postgres:16"
    shards = {name: s for name, s in services.items() if re.fullmatch(r"shard\d+", name)}
    assert len(shards) == 2
    counts = set()
    for name, shard in shards.items():
        index, count = shard["command"][shard["command"].index("--shard") + 1].split("/")
        assert name == f"shard{index}"
        counts.add(count)
        env = shard["environment"]
        assert env["NICEGUI_REDIS_URL"].startswith("redis://redis:")
        assert env["PARCHEESI_DATABASE_URL"].startswith("postgresql+psycopg://")
        assert "PARCHEESI_STORAGE_SECRET" not in env  # from the env file, one for all
        assert shard["env_file"] == [".env"]
        assert shard["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    assert counts == {str(len(shards))}  # every shard agrees on N


def test_every_long_running_service_restarts_by_itself(services: dict) -> None:
    for name, service in services.items():
        if name != "migrate":
            assert service["restart"] == "always", name
    assert services["migrate"]["restart"] == "no"
    assert services["migrate"]["command"][-1] == "migrate"


def test_the_proxy_configurations_are_valid_nginx(tmp_path: Path) -> None:
    """nginx checks the compose proxy's file (its shards' names pointed at this machine,
    which nginx must resolve); scripts/cluster.sh's own is checked by the drill below."""
    text = (DEPLOY / "nginx-compose.conf").read_text()
    text = re.sub(r"shard\d+:8080", "127.0.0.1:8080", text)
    text = text.replace("/etc/nginx/forward.conf", str(DEPLOY / "nginx-forward.conf"))
    text = f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\n" + text
    (tmp_path / "nginx.conf").write_text(text)
    checked = subprocess.run(["nginx", "-t", "-c", str(tmp_path / "nginx.conf"), "-p",
                              str(tmp_path)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    compose_text = (DEPLOY / "nginx-compose.conf").read_text()
    for index in (0, 1):
        assert f"location /s/{index}/" in compose_text
        assert f"X-Forwarded-Prefix /s/{index};" in compose_text


@pytest.mark.slow
def test_the_cluster_drill(capsys: pytest.CaptureFixture[str]) -> None:
    figures = cluster.main(["--rooms", "2", "--races", "3", "--kills", "2"])
    why = capsys.readouterr().out[-4000:]
    assert figures["rooms_per_shard"][0] and figures["rooms_per_shard"][1], why
    assert figures["race_problems"] == [], why
    assert figures["split_rooms"] == [] and figures["rooms_ever_in_two_shards"] == [], why
    assert figures["kills"] == 2 and figures["lost"] == 0, why
    assert figures["other_pages_disturbed"] == 0, why
    assert figures["slowest_back_after_restart_s"] <= cluster.BACK_WITHIN_S, why
    assert figures["server_log"]["error_lines"] == 0, why
    assert figures["met"], why
