"""Consistent backups of the database while the server runs, and their restore.

SQLite: the online backup API copies a consistent snapshot page by page, even while the
server writes (WAL mode). PostgreSQL: ``pg_dump`` (one consistent transaction) writes a
plain SQL file. Restore: stop the server, then :func:`restore` (or ``psql`` with the dump).
"""

from __future__ import annotations

import contextlib
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
    """Write a consistent copy of the database at ``url`` to ``output`` (an SQLite copy is
    written beside it first and put in place whole: a failed backup leaves no half file and
    keeps an earlier backup of that name)."""
    path = sqlite_path(url)
    if path is not None:
        if not path.exists():
            raise BackupError(f"no database file at {path}")
        if output.exists() and output.resolve() == path.resolve():
            raise BackupError(f"{output} is the database itself: name another file")
        if output.is_file() and not _is_sqlite(output):
            raise BackupError(f"{output} is a file that is not a backup: name another file "
                              "(an earlier backup is replaced, anything else is kept)")
        _sqlite_copy(path, output)
        return output
    if urlsplit(libpq_url(url)).scheme.startswith("postgresql"):
        if shutil.which("pg_dump") is None:
            raise BackupError("pg_dump is not installed (Debian package postgresql-client)")
        _make_parent(output)
        result = subprocess.run(["pg_dump", "--no-owner", "--file", str(output),
                                 libpq_url(url)], capture_output=True, text=True, check=False)
        if result.returncode != 0:
            raise BackupError(_one_line(result.stderr) or "pg_dump failed")
        return output
    raise BackupError(f"cannot back up a database of this kind: {url.split(':', 1)[0]}")


SQLITE_HEADER = b"SQLite format 3\x00"
"""The first bytes of every SQLite database file."""


def _is_sqlite(path: Path) -> bool:
    with path.open("rb") as file:
        return file.read(len(SQLITE_HEADER)) == SQLITE_HEADER


def _make_parent(output: Path) -> None:
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise BackupError(f"cannot write to {output.parent}: {error.strerror}") from None
    if output.is_dir():
        raise BackupError(f"{output} is a directory: name a file")
    if output.exists() and not output.is_file():  # a device, a pipe: never replaced
        raise BackupError(f"{output} is not a regular file: name a file")


def _sqlite_copy(path: Path, output: Path) -> None:
    """SQLite's online backup of ``path`` into ``output``, through a file beside it."""
    _make_parent(output)
    partial = output.with_name(f".{output.name}.partial")
    partial.unlink(missing_ok=True)
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        target = sqlite3.connect(partial)
        try:
            with target:
                source.backup(target)
        finally:
            target.close()
        partial.replace(output)
    except (sqlite3.Error, OSError) as error:
        partial.unlink(missing_ok=True)
        raise BackupError(f"cannot write the backup to {output}: {error}") from None
    finally:
        source.close()


def restore(url: str, backup_file: Path) -> None:
    """Put a backup in place of the database at ``url`` (with the server stopped). An SQLite
    backup is checked first (a whole SQLite file of this server's tables), and the database
    is replaced only then, whole."""
    if not backup_file.exists():
        raise BackupError(f"no backup file at {backup_file}")
    if not backup_file.is_file():
        raise BackupError(f"{backup_file} is not a file")
    path = sqlite_path(url)
    if path is not None:
        if path.exists() and backup_file.resolve() == path.resolve():
            raise BackupError(f"{backup_file} is the database itself: name a backup")
        _check_sqlite_backup(backup_file)
        path.parent.mkdir(parents=True, exist_ok=True)  # a new machine's first start
        placed = path.with_name(f".{path.name}.restoring")
        shutil.copyfile(backup_file, placed)
        for suffix in ("-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        placed.replace(path)
        return
    if shutil.which("psql") is None:
        raise BackupError("psql is not installed (Debian package postgresql-client)")
    result = subprocess.run(["psql", "--quiet", "--set", "ON_ERROR_STOP=1", "--file",
                             str(backup_file), libpq_url(url)],
                            capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise BackupError(_one_line(result.stderr) or "psql failed")


def _check_sqlite_backup(backup_file: Path) -> None:
    """Refuse a file that is not a whole SQLite database holding this server's games (a
    wrong file copied over the database would lose every game)."""
    try:
        with contextlib.closing(sqlite3.connect(f"file:{backup_file}?mode=ro", uri=True)) as db:
            fine = db.execute("PRAGMA quick_check").fetchone()
            tables = {row[0] for row in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.Error as error:
        raise BackupError(f"{backup_file} is not an SQLite backup: {error}") from None
    if fine != ("ok",):
        raise BackupError(f"{backup_file} is damaged: {fine[0] if fine else 'no answer'}")
    if not {"games", "alembic_version"} <= tables:
        raise BackupError(f"{backup_file} is not a backup of this server's database")


def _one_line(text: str) -> str:
    return " ".join(line.strip() for line in text.splitlines() if line.strip())
