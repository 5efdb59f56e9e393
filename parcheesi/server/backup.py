"""Consistent backups of the database while the server runs, and their restore.

SQLite: the online backup API copies a consistent snapshot page by page, even while the
server writes (WAL mode). PostgreSQL: ``pg_dump`` (one consistent transaction) writes a
plain SQL file. Restore: stop the server, then :func:`restore` (or ``psql`` with the dump).
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

from .migrate import sync_url


class BackupError(RuntimeError):
    """The backup or restore could not be made; the message says why."""


def sqlite_path(url: str) -> Path | None:
    """The file of an SQLite URL, or None for another database."""
    plain = sync_url(url)
    if not plain.startswith("sqlite:///"):
        return None
    return Path(plain[len("sqlite:///"):])


def libpq_url(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


def backup(url: str, output: Path) -> Path:
    """Write a consistent copy of the database at ``url`` to ``output``."""
    output.parent.mkdir(parents=True, exist_ok=True)
    path = sqlite_path(url)
    if path is not None:
        if not path.exists():
            raise BackupError(f"no database file at {path}")
        source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        target = sqlite3.connect(output)
        try:
            with target:
                source.backup(target)
        finally:
            source.close()
            target.close()
        return output
    if urlsplit(libpq_url(url)).scheme.startswith("postgresql"):
        if shutil.which("pg_dump") is None:
            raise BackupError("pg_dump is not installed (Debian package postgresql-client)")
        result = subprocess.run(["pg_dump", "--no-owner", "--file", str(output),
                                 libpq_url(url)], capture_output=True, text=True, check=False)
        if result.returncode != 0:
            raise BackupError(_one_line(result.stderr) or "pg_dump failed")
        return output
    raise BackupError(f"cannot back up a database of this kind: {url.split(':', 1)[0]}")


def restore(url: str, backup_file: Path) -> None:
    """Put a backup in place of the database at ``url`` (with the server stopped)."""
    if not backup_file.exists():
        raise BackupError(f"no backup file at {backup_file}")
    path = sqlite_path(url)
    if path is not None:
        for suffix in ("-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        shutil.copyfile(backup_file, path)
        return
    if shutil.which("psql") is None:
        raise BackupError("psql is not installed (Debian package postgresql-client)")
    result = subprocess.run(["psql", "--quiet", "--set", "ON_ERROR_STOP=1", "--file",
                             str(backup_file), libpq_url(url)],
                            capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise BackupError(_one_line(result.stderr) or "psql failed")


def _one_line(text: str) -> str:
    return " ".join(line.strip() for line in text.splitlines() if line.strip())
