"""Schema migrations with Alembic: bring any older database up to this version's schema.

The server applies them on start (``Store.init``); ``python -m parcheesi migrate`` does the
same by hand. A database made before migrations existed (tables, no version) is adopted by
stamping the revision its tables match.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection, create_engine, inspect, text

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
HEAD = "head"
MIGRATION_LOCK = 7_061_727_263
"""The advisory lock that lets one process at a time migrate a PostgreSQL database."""


def sync_url(url: str) -> str:
    """The synchronous driver URL for an async one (Alembic runs synchronously)."""
    return url.replace("sqlite+aiosqlite://", "sqlite://", 1)


def _config(connection: Connection) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def current_revision(url: str) -> str | None:
    engine = create_engine(sync_url(url))
    try:
        with engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()
    finally:
        engine.dispose()


def upgrade(url: str, revision: str = HEAD) -> None:
    """Migrate the database at ``url`` to ``revision`` (default: the newest)."""
    engine = create_engine(sync_url(url))
    try:
        with engine.begin() as connection:
            if connection.dialect.name == "postgresql":  # shards starting at once: one at a time
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                                   {"key": MIGRATION_LOCK})
            _adopt_unversioned(connection)
            command.upgrade(_config(connection), revision)
    finally:
        engine.dispose()


def _adopt_unversioned(connection: Connection) -> None:
    tables = set(inspect(connection).get_table_names())
    if "alembic_version" in tables or "games" not in tables:
        return
    command.stamp(_config(connection), "0002" if "rooms" in tables else "0001")
