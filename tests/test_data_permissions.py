"""The data directory is the server user's alone (parcheesi/config.py, ``keep_private``): the
database and its -wal/-shm files, the storage secret and NiceGUI's per-browser storage are
0600 in a 0700 directory, whatever an earlier start or a permissive umask left behind."""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from parcheesi.server.config import ConfigError, keep_private, parse
from parcheesi.server.migrate import upgrade

ROOT = Path(__file__).resolve().parent.parent
DATABASE = "parcheesi.sqlite3"


@pytest.fixture(autouse=True)
def usual_umask() -> Iterator[None]:
    """Start from the common 022 umask; put the test process's own back afterwards."""
    before = os.umask(0o022)
    yield
    os.umask(before)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def open_data_dir(tmp_path: Path) -> Path:
    """A data directory as an earlier start under umask 022 left it: all readable."""
    data = tmp_path / "data"
    storage = data / "nicegui"
    storage.mkdir(parents=True)
    for name in (DATABASE, f"{DATABASE}-wal", f"{DATABASE}-shm", "storage-secret"):
        (data / name).write_text("x")
    (storage / "storage-user-1.json").write_text("{}")
    (storage / "storage-general.json").write_text("{}")
    for path in (data, storage):
        path.chmod(0o755)
    for path in [*data.iterdir(), *storage.iterdir()]:
        if path.is_file():
            path.chmod(0o644)
    return data


def test_parse_closes_an_existing_data_directory(tmp_path: Path) -> None:
    data = open_data_dir(tmp_path)
    config = parse([], environ={"PARCHEESI_DATA_DIR": str(data)}, root=tmp_path)
    assert config.data_dir == data
    assert mode(data) == 0o700
    assert mode(data / "nicegui") == 0o700
    for name in (DATABASE, f"{DATABASE}-wal", f"{DATABASE}-shm", "storage-secret",
                 "nicegui/storage-user-1.json", "nicegui/storage-general.json"):
        assert mode(data / name) == 0o600, name


def test_a_first_start_makes_a_private_directory_and_secret(tmp_path: Path) -> None:
    data = tmp_path / "new" / "data"
    parse([], environ={"PARCHEESI_DATA_DIR": str(data)}, root=tmp_path)
    assert mode(data) == 0o700
    assert mode(data / "storage-secret") == 0o600


def test_a_database_created_after_parse_is_private(tmp_path: Path) -> None:
    data = tmp_path / "data"
    config = parse([], environ={"PARCHEESI_DATA_DIR": str(data)}, root=tmp_path)
    upgrade(config.database_url)
    assert mode(data / DATABASE) == 0o600
    # SQLite makes the -wal and -shm files on the first write in WAL mode, long after start.
    connection = sqlite3.connect(data / DATABASE)
    try:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("CREATE TABLE probe (x)")
        connection.execute("INSERT INTO probe VALUES (1)")
        connection.commit()
        assert mode(data / f"{DATABASE}-wal") == 0o600
        assert mode(data / f"{DATABASE}-shm") == 0o600
    finally:
        connection.close()


def test_a_database_and_storage_outside_the_data_directory_are_closed_too(
        tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    storage = tmp_path / "browser-storage"
    for folder in (elsewhere, storage):
        folder.mkdir()
        folder.chmod(0o755)
    database = elsewhere / "games.sqlite3"
    (storage / "storage-user-2.json").write_text("{}")
    for path in (database, Path(f"{database}-wal"), storage / "storage-user-2.json"):
        path.write_text("x")
        path.chmod(0o644)
    parse([], environ={"PARCHEESI_DATA_DIR": str(tmp_path / "data"),
                       "PARCHEESI_DATABASE_URL": f"sqlite+aiosqlite:///{database}",
                       "NICEGUI_STORAGE_PATH": str(storage)}, root=tmp_path)
    assert mode(database) == mode(Path(f"{database}-wal")) == 0o600
    assert mode(storage) == 0o700 and mode(storage / "storage-user-2.json") == 0o600
    assert mode(elsewhere) == 0o755  # the database's directory is not the server's to judge


@pytest.mark.parametrize("naming", ["sqlite:///{folder}", "sqlite+aiosqlite:///{folder}",
                                    "sqlite+aiosqlite:///", "sqlite+aiosqlite://",
                                    "sqlite+aiosqlite:///{folder}/games.db?mode=ro"])
def test_a_database_url_that_names_no_file_is_refused_and_changes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, naming: str) -> None:
    """A URL that is refused, or names a directory (or the current one), or memory, or has
    options (SQLAlchemy ignored them with a warning): one clear error, and no permission
    changed anywhere (the URL's path was closed to others
    before the URL was checked: ``sqlite:////etc`` would have closed /etc)."""
    folder = tmp_path / "shared"
    folder.mkdir()
    folder.chmod(0o755)
    monkeypatch.chdir(folder)
    with pytest.raises(ConfigError, match=r"must start with|must name a file|takes no options"):
        parse([], environ={"PARCHEESI_DATA_DIR": str(tmp_path / "data"),
                           "PARCHEESI_DATABASE_URL": naming.format(folder=folder)},
              root=tmp_path)
    assert mode(folder) == 0o755


def test_a_file_the_server_may_not_change_is_skipped_quietly(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        capfd: pytest.CaptureFixture[str]) -> None:
    # Another user's file: chmod fails with PermissionError (even for root, simulated here).
    data = open_data_dir(tmp_path)
    foreign = data / f"{DATABASE}-shm"
    chmod = Path.chmod

    def refuse_foreign(path: Path, mode: int, **kwargs: bool) -> None:
        if path == foreign:
            raise PermissionError(1, "Operation not permitted", str(path))
        chmod(path, mode, **kwargs)

    monkeypatch.setattr(Path, "chmod", refuse_foreign)
    with caplog.at_level("DEBUG"):
        keep_private(data)
    assert mode(foreign) == 0o644
    assert mode(data / DATABASE) == 0o600 and mode(data / "storage-secret") == 0o600
    assert mode(data) == 0o700
    assert caplog.records == []
    assert capfd.readouterr() == ("", "")


def test_links_in_the_data_directory_are_not_followed(tmp_path: Path) -> None:
    data = open_data_dir(tmp_path)
    outside = tmp_path / "someone-elses-file"
    outside.write_text("x")
    outside.chmod(0o644)
    (data / "nicegui" / "storage-user-3.json").symlink_to(outside)
    (data / f"{DATABASE}-wal").unlink()
    (data / f"{DATABASE}-wal").symlink_to(outside)
    keep_private(data)
    assert mode(outside) == 0o644
    assert mode(data / DATABASE) == 0o600


def test_a_linked_data_directory_is_closed(tmp_path: Path) -> None:
    data = open_data_dir(tmp_path)
    link = tmp_path / "data-link"
    link.symlink_to(data)
    keep_private(link)
    assert mode(data) == 0o700 and mode(data / DATABASE) == 0o600


def test_files_made_after_start_are_private(tmp_path: Path) -> None:
    keep_private(tmp_path / "data")
    later = tmp_path / "data" / "later.txt"
    later.write_text("x")
    assert mode(later) == 0o600


def test_serve_script_sets_the_umask_before_starting_the_server() -> None:
    lines = (ROOT / "scripts" / "serve.sh").read_text().splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith("exec "))
    assert "umask 077" in lines[:start]
