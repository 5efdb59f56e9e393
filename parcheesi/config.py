"""Server settings from command-line flags and environment variables (flags win).

| flag | environment | default |
| --- | --- | --- |
| ``--host`` | ``PARCHEESI_HOST`` | ``0.0.0.0`` (all interfaces) |
| ``--port`` | ``PARCHEESI_PORT`` | ``8080`` |
| ``--database-url`` | ``PARCHEESI_DATABASE_URL`` | SQLite file ``data/parcheesi.sqlite3`` |
| ``--storage-secret`` | ``PARCHEESI_STORAGE_SECRET`` | generated once into ``data/`` |
| ``--pace`` | ``PARCHEESI_PACE`` | ``0.5`` seconds per computer step |
| ``--data-dir`` | ``PARCHEESI_DATA_DIR`` | ``data`` beside ``app.py`` |
| ``--log-level`` | ``PARCHEESI_LOG_LEVEL`` | ``info`` |
"""

from __future__ import annotations

import argparse
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

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


LOG_LEVELS = ("debug", "info", "warning", "error")


class ConfigError(ValueError):
    """A setting that cannot work; the message names it."""


def parse(argv: list[str], environ: dict[str, str] | None = None,
          root: Path | None = None) -> Config:
    env = os.environ if environ is None else environ
    root = root or Path(__file__).resolve().parent.parent
    parser = argparse.ArgumentParser(prog="app.py", description="Parcheesi game server.")
    parser.add_argument("--host", default=env.get("PARCHEESI_HOST", "0.0.0.0"))
    parser.add_argument("--port", default=env.get("PARCHEESI_PORT", "8080"))
    parser.add_argument("--database-url", default=env.get("PARCHEESI_DATABASE_URL"))
    parser.add_argument("--storage-secret", default=env.get("PARCHEESI_STORAGE_SECRET"))
    parser.add_argument("--pace", default=env.get("PARCHEESI_PACE", "0.5"))
    parser.add_argument("--data-dir", default=env.get("PARCHEESI_DATA_DIR"))
    parser.add_argument("--log-level", default=env.get("PARCHEESI_LOG_LEVEL", "info"))
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
    data_dir = Path(args.data_dir) if args.data_dir else root / "data"
    url = args.database_url or default_url(data_dir)
    secret = args.storage_secret or _stored_secret(data_dir)
    if not url.startswith(("sqlite+aiosqlite://", "postgresql+psycopg://")):
        raise ConfigError("the database URL must start with sqlite+aiosqlite:// or "
                          "postgresql+psycopg://")
    return Config(host=args.host, port=port, database_url=url, storage_secret=secret,
                  pace=pace, data_dir=data_dir, log_level=log_level)


def _stored_secret(data_dir: Path) -> str:
    """The storage secret kept in the data directory, created on first start."""
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / "storage-secret"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(32))
        path.chmod(0o600)
    return path.read_text().strip()
