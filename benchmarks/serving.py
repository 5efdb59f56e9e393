"""Starting and watching the servers a benchmark measures (loopback only)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import urllib.request
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

ROOT = Path(__file__).resolve().parent.parent


def run(main: Coroutine[Any, Any, T]) -> T:
    """Run a benchmark's simulated phones on uvloop (NiceGUI's uvicorn brings it), the loop the
    server runs on too: it spends about a third less time on the sockets than asyncio's own,
    and the phones share the cores with the server they measure."""
    try:
        import uvloop
    except ImportError:  # not on this platform: asyncio's own loop
        return asyncio.run(main)
    return uvloop.run(main)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


CLUSTER_PORTS = range(20000, 32000, 200)
"""Where a cluster's ports are looked for: below the kernel's ephemeral ports (32768 and
up), which thousands of simulated phones' connections use up at random; a port of a
cluster taken by one of them would keep PostgreSQL or Redis from starting."""


def cluster_port() -> int:
    """A port P with P..P+101 free (``scripts/cluster.sh``: nginx on P, the shards on P+1..,
    PostgreSQL on P+100, Redis on P+101)."""
    for port in random.sample(CLUSTER_PORTS, len(CLUSTER_PORTS)):
        if all(_free(p) for p in range(port, port + 102)):
            return port
    raise RuntimeError(f"no free ports for a cluster in {CLUSTER_PORTS}")


def _free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def spawn(command: list[str], cwd: Path, env: dict[str, str], log_path: Path
          ) -> subprocess.Popen[bytes]:
    """Start a server in its own process group (so it can be stopped whole), logging to a file."""
    with log_path.open("wb") as out:
        return subprocess.Popen(command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM the server's process group, SIGKILL it if it does not end in 10 s."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    with contextlib.suppress(ProcessLookupError):  # anything the server left in its group
        os.killpg(proc.pid, signal.SIGKILL)


CGROUP_ROOT = Path("/sys/fs/cgroup")
CGROUP_PERIOD_US = 100_000


@contextlib.contextmanager
def cpu_capped(pids: dict[str, int], fraction: float) -> Iterator[None]:
    """Run each process of ``pids`` (by name) in a CPU cgroup of its own that may use
    ``fraction`` of one core, and move them back out after. This gives each of a cluster's
    shards a share of the machine that the other processes (the phones, PostgreSQL, nginx)
    cannot take, as a host with a core per shard would. Needs root and the kernel's ``cpu``
    controller (cgroup v2's ``cpu.max`` or v1's ``cpu.cfs_quota_us``)."""
    v2 = "cpu" in _read(CGROUP_ROOT / "cgroup.subtree_control").split()
    parent = CGROUP_ROOT if v2 else CGROUP_ROOT / "cpu"
    if not (parent / "cgroup.procs").exists():
        raise RuntimeError(f"no cgroup cpu controller at {CGROUP_ROOT}: cannot cap the CPU")
    quota = round(fraction * CGROUP_PERIOD_US)
    made = []
    try:
        for name, pid in pids.items():
            group = parent / f"parcheesi-bench-{name}"
            try:
                group.mkdir(exist_ok=True)
                made.append(group)
                if v2:
                    (group / "cpu.max").write_text(f"{quota} {CGROUP_PERIOD_US}")
                else:
                    (group / "cpu.cfs_period_us").write_text(str(CGROUP_PERIOD_US))
                    (group / "cpu.cfs_quota_us").write_text(str(quota))
                (group / "cgroup.procs").write_text(str(pid))
            except OSError as error:
                raise RuntimeError(f"cannot cap the CPU of {name} in {group} (root is "
                                   f"needed): {error}") from error
        yield
    finally:
        for group in made:
            for member in _read(group / "cgroup.procs").split():
                with contextlib.suppress(OSError):  # gone already
                    (parent / "cgroup.procs").write_text(member)
            with contextlib.suppress(OSError):
                group.rmdir()


def _read(path: Path) -> str:
    with contextlib.suppress(OSError):
        return path.read_text()
    return ""


def tail(path: Path, lines: int = 20) -> str:
    """The end of a server log, for error messages."""
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


@dataclass
class Cluster:
    """A cluster brought up by ``scripts/cluster.sh`` in a directory of its own."""

    shards: int
    directory: Path
    port: int = field(default_factory=cluster_port)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def database_url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port + 100}/postgres"

    def _script(self, *words: str) -> None:
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("PARCHEESI_", "NICEGUI_", "PYTEST_"))}
        env["PARCHEESI_CLUSTER_DIR"] = str(self.directory)
        subprocess.run([str(ROOT / "scripts" / "cluster.sh"), *words], cwd=ROOT, env=env,
                       check=True, stdout=subprocess.DEVNULL)

    def up(self) -> None:
        """Bring the cluster up; a part that does not start stops the others again."""
        try:
            self._script("up", "--shards", str(self.shards), "--port", str(self.port))
        except subprocess.CalledProcessError:
            self.down()
            raise

    def down(self) -> None:
        self._script("down")

    def services(self) -> dict[str, list[int]]:
        """The processes of the cluster's PostgreSQL (its postmaster and every backend),
        nginx (its master and workers) and Redis, by name (those that run)."""
        leaders = {"postgresql": self.directory / "postgres" / "data" / "postmaster.pid",
                   "nginx": self.directory / "nginx" / "nginx.pid",
                   "redis": self.directory / "redis" / "pid"}
        children: dict[int, list[int]] = {}
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError, ValueError, IndexError):
                parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
                children.setdefault(parent, []).append(int(stat.parent.name))
        found = {}
        for name, path in leaders.items():
            with contextlib.suppress(OSError, ValueError, IndexError):
                leader = int(path.read_text().split()[0])
                found[name] = [leader, *children.get(leader, [])]
        return found

    def pid(self, shard: int) -> int | None:
        """The shard's server process (None while its supervisor is between two)."""
        with contextlib.suppress(OSError, ValueError):
            return int((self.directory / f"shard-{shard}" / "pid").read_text())
        return None

    def kill(self, shard: int) -> None:
        """SIGKILL the shard's server process (its supervisor starts it again)."""
        pid = self.pid(shard)
        if pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)

    def live_rooms(self, shard: int) -> set[str]:
        """The rooms live in the shard now, asked of it straight (none while it is down)."""
        url = f"http://127.0.0.1:{self.port + 1 + shard}/health?rooms=1"
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                return set(json.load(response).get("live_rooms", []))
        except (OSError, ValueError):
            return set()

    def answers(self, shard: int) -> bool:
        """Whether the shard answers its health check (straight, not through the proxy)."""
        url = f"http://127.0.0.1:{self.port + 1 + shard}/health"
        try:
            with urllib.request.urlopen(url, timeout=2):
                return True
        except (OSError, ValueError):
            return False

    def logs(self) -> Iterator[Path]:
        yield from sorted(self.directory.glob("shard-*/log"))
