"""Server settings from command-line flags and environment variables (flags win).

Every flag, with its environment variable, default and meaning, is in :data:`FLAGS`
(``app.py --help`` prints them); ``NICEGUI_REDIS_URL``, read by NiceGUI itself, keeps the
browsers' storage in Redis instead of files (a cluster's shards share it).

The data directory holds the database, the storage secret and NiceGUI's per-browser storage
(``nicegui/``): :func:`keep_private` makes it and everything the server writes readable by
the server's user only, on every start and whoever starts it.
"""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import os
import secrets
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypedDict

from .backup import sqlite_path
from .shards import Shard
from .store import default_url


@dataclass(frozen=True)
class Config:
    host: str
    port: int
    database_url: str
    storage_secret: str
    pace: float
    data_dir: Path
    log_level: str = "info"
    trusted_proxies: tuple[str, ...] = ()
    """Addresses or networks of reverse proxies whose X-Forwarded-For/-Proto headers are
    believed; nobody's, unless set (a player could otherwise claim any address)."""
    shard: Shard = field(default_factory=Shard)
    """This process's place among the shards of a cluster (``i/N``, on PostgreSQL)."""
    redis_url: str | None = None
    """Where NiceGUI keeps the browsers' storage (``NICEGUI_REDIS_URL``, which NiceGUI reads
    itself; a cluster's shards share it), watched for the banner; None: in files."""
    host_pin: str = ""
    """What a browser on another device enters to use the host's tools on the people page,
    for as long as that page stays open (a server in a cupboard has no screen of its own);
    "": none, only a page opened on the server's own machine is the host's."""


LOG_LEVELS = ("debug", "info", "warning", "error")


class ConfigError(ValueError):
    """A setting that cannot work; the message names it."""


PROGRAM = "parcheesi"
"""The server's name in what it says before it stops (``parcheesi: cannot open the
database: ...``)."""

ROOT = Path(__file__).resolve().parents[2]
"""The checkout: ``app.py`` and ``data/`` are here."""
EARLIER_DATA = ROOT / "parcheesi" / "data"
"""Where versions before this one kept their data by default (inside the package)."""


FLAGS: tuple[tuple[str, str, str | None, str], ...] = (
    ("--host", "PARCHEESI_HOST", "0.0.0.0", "the address to serve on; 0.0.0.0 is every "
     "network of this machine, so phones on the home Wi-Fi can join"),
    ("--port", "PARCHEESI_PORT", "8080", "the port to serve on"),
    ("--database-url", "PARCHEESI_DATABASE_URL", None, "where games are kept: a "
     "sqlite+aiosqlite:///FILE or postgresql+psycopg://USER@HOST/DB URL (default: the SQLite "
     "file parcheesi.sqlite3 in the data directory)"),
    ("--storage-secret", "PARCHEESI_STORAGE_SECRET", None, "signs the browsers' cookies "
     "(default: one made the first time and kept in the data directory)"),
    ("--pace", "PARCHEESI_PACE", "0.5", "seconds a computer player takes a step, 0 to 10"),
    ("--data-dir", "PARCHEESI_DATA_DIR", None, "the folder for the database, the storage "
     "secret and the browsers' storage (default: data/ beside app.py)"),
    ("--log-level", "PARCHEESI_LOG_LEVEL", "info", "debug, info, warning or error"),
    ("--trusted-proxies", "PARCHEESI_TRUSTED_PROXIES", "", "comma-separated addresses or "
     "networks of reverse proxies whose forwarded headers are believed (default: no one's)"),
    ("--host-pin", "PARCHEESI_HOST_PIN", "", "what a browser on another device enters to "
     "use the host's tools on the people page (default: only this machine's browser)"),
    ("--shard", "PARCHEESI_SHARD", "0/1", "i/N: this process is shard i of a cluster of N "
     "on one PostgreSQL database (docs/scaling.md)"),
)
"""Every server flag: its environment variable, default and meaning (``app.py --help``)."""


def parse(argv: list[str], environ: dict[str, str] | None = None,
          root: Path | None = None) -> Config:
    env = os.environ if environ is None else environ
    parser = argparse.ArgumentParser(
        prog="app.py", description=f"The {PROGRAM} game server.",
        epilog="Each flag may be set by the environment variable in brackets instead; a flag "
               "given wins. NICEGUI_REDIS_URL (no flag) keeps the browsers' storage in "
               "Redis, for a cluster of shards (docs/scaling.md).")
    for flag, variable, default, meaning in FLAGS:
        shown = f" (default {default})" if default else ""
        parser.add_argument(flag, default=env.get(variable, default),
                            metavar=flag.removeprefix("--").replace("-", "_").upper(),
                            help=f"{meaning}{shown} [{variable}]")
    args = parser.parse_args(argv)
    log_level = str(args.log_level).lower()
    if log_level not in LOG_LEVELS:
        raise ConfigError(f"log level must be one of {', '.join(LOG_LEVELS)}, "
                          f"not {args.log_level!r}")
    try:
        port = int(args.port)
    except ValueError:
        raise ConfigError(f"port must be a number, not {args.port!r}") from None
    if not 1 <= port <= 65535:
        raise ConfigError(f"port must be 1..65535, not {port}")
    try:
        pace = float(args.pace)
    except ValueError:
        raise ConfigError(f"pace must be a number of seconds, not {args.pace!r}") from None
    if not 0 <= pace <= 10:
        raise ConfigError("pace must be between 0 and 10 seconds")
    data_dir = Path(args.data_dir) if args.data_dir else default_data(root)
    url = database_setting(args.database_url, env, data_dir)
    shard = _shard(args.shard, url)
    secret = args.storage_secret or _stored_secret(data_dir)
    return Config(host=args.host, port=port, database_url=url, storage_secret=secret,
                  pace=pace, data_dir=data_dir, log_level=log_level,
                  trusted_proxies=_proxies(args.trusted_proxies), host_pin=args.host_pin,
                  shard=shard, redis_url=env.get("NICEGUI_REDIS_URL") or None)


def _shard(text: str, database_url: str) -> Shard:
    """The shard setting; several shards share one PostgreSQL database, never a file."""
    try:
        shard = Shard.parse(text)
    except ValueError as error:
        raise ConfigError(str(error)) from None
    if not shard.alone and not database_url.startswith("postgresql"):
        raise ConfigError("shards share one PostgreSQL database: set --database-url to a "
                          "postgresql+psycopg:// URL")
    return shard


class ProxySettings(TypedDict):
    """uvicorn's settings for forwarded headers."""

    proxy_headers: bool
    forwarded_allow_ips: str | None


def proxy_settings(config: Config) -> ProxySettings:
    """Forwarded headers are believed only from the trusted proxies."""
    return {"proxy_headers": bool(config.trusted_proxies),
            "forwarded_allow_ips": ",".join(config.trusted_proxies) or None}


def database_setting(database_url: str | None, environ: dict[str, str] | os._Environ[str],
                     data_dir: Path) -> str:
    """The database URL from the flag or ``PARCHEESI_DATABASE_URL``, else the SQLite file in
    the (private) data directory. Commands that do not serve read only this, so they create
    no storage secret."""
    url = database_url or environ.get("PARCHEESI_DATABASE_URL")
    if url:
        _check_url(url)  # before anything is made private: a refused URL changes nothing
    keep_private(data_dir, url, environ.get("NICEGUI_STORAGE_PATH"))
    return url or default_url(data_dir)


def _check_url(url: str) -> None:
    """A database URL this server can use; an SQLite one names a file, never a directory
    (whose permissions :func:`keep_private` would otherwise close) or memory (gone at
    exit), and has no query string (``?mode=ro``: the server must write)."""
    if not url.startswith(("sqlite+aiosqlite://", "postgresql+psycopg://")):
        raise ConfigError("the database URL must start with sqlite+aiosqlite:// or "
                          "postgresql+psycopg://")
    if url.startswith("sqlite"):
        if "?" in url:  # the file's name would end in it, and SQLAlchemy would ignore it
            raise ConfigError(f"an SQLite database URL takes no options: {url!r} has "
                              f"{url[url.index('?'):]!r}")
        path = sqlite_path(url)
        if path is None or path.name == "" or (path.exists() and not path.is_file()):
            raise ConfigError(f"the database URL must name a file: {url!r} does not "
                              "(sqlite+aiosqlite:////absolute/path/parcheesi.sqlite3)")


def data_directory(environ: dict[str, str] | os._Environ[str],
                   root: Path | None = None) -> Path:
    """``PARCHEESI_DATA_DIR``, else ``data/`` next to ``app.py``."""
    configured = environ.get("PARCHEESI_DATA_DIR")
    return Path(configured) if configured else default_data(root)


def default_data(root: Path | None = None) -> Path:
    """``data/`` in the checkout; but a database an earlier version kept inside the
    package (``parcheesi/data``) stays in use while ``data/`` has none, so no game is lost."""
    if root is not None:
        return root / "data"
    if (EARLIER_DATA / "parcheesi.sqlite3").exists() \
            and not (ROOT / "data" / "parcheesi.sqlite3").exists():
        return EARLIER_DATA
    return ROOT / "data"


def _proxies(text: str) -> tuple[str, ...]:
    """Comma-separated addresses (``127.0.0.1``) or networks (``172.18.0.0/16``)."""
    proxies = tuple(item.strip() for item in text.split(",") if item.strip())
    for proxy in proxies:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            raise ConfigError(f"trusted proxies are addresses or networks, not {proxy!r}") \
                from None
    return proxies


PRIVATE_UMASK = 0o077
"""No access for group or others: directories come out 0700 and files 0600."""

SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal")


def keep_private(data_dir: Path, database_url: str | None = None,
                 storage_path: str | None = None) -> None:
    """Make the data directory and what is in it readable by the server's user only.

    The database holds every seat's token hash and the secret signs every browser's
    storage, so neither is for other local users. The process umask covers every file made
    from now on (SQLite creates its -wal and -shm files whenever it needs them); what an
    earlier start left open (a 0644 database, a 0755 directory) is closed here. A file the
    server may not change (another user's) is left as it is: it is not the server's to fix.
    """
    os.umask(PRIVATE_UMASK)
    data_dir.mkdir(parents=True, exist_ok=True)
    databases = [sqlite_path(default_url(data_dir))]
    if database_url:
        databases.append(sqlite_path(database_url))
    # The data directory may be given as a link (data -> /srv/parcheesi): the link is the
    # operator's choice, so its target is closed too.
    files = [data_dir.resolve(), data_dir / "storage-secret"]
    for database in databases:
        if database is not None:
            files += [database, *(Path(f"{database}{suffix}") for suffix in SQLITE_SIDE_FILES)]
    for path in files:
        _close_to_others(path)
    storages = [data_dir / "nicegui"]
    if storage_path:
        storages.append(Path(storage_path))
    for storage in storages:
        for folder, _, names in os.walk(storage):
            _close_to_others(Path(folder))
            for name in names:
                _close_to_others(Path(folder) / name)


def _close_to_others(path: Path) -> None:
    """Take group and other access away from one file or directory, if it is there and ours
    to change (symbolic links are not followed: their target is not ours to judge)."""
    with contextlib.suppress(OSError):  # missing, or owned by another user
        mode = path.lstat().st_mode
        if not stat.S_ISLNK(mode) and mode & PRIVATE_UMASK:
            path.chmod(stat.S_IMODE(mode) & ~PRIVATE_UMASK)


def _stored_secret(data_dir: Path) -> str:
    """The storage secret kept in the data directory, created on first start (0600 from
    the moment it exists, so no other user can read it even once)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / "storage-secret"
    if not path.exists():
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as file:
            file.write(secrets.token_urlsafe(32))
    return path.read_text().strip()
