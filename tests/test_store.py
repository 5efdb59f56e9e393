"""Storage on SQLite and PostgreSQL: versioned appends, restart recovery, migrations, backups."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from parcheesi.core.actions import Roll
from parcheesi.core.state import IllegalAction
from parcheesi.games.parcheesi.turns import legal_actions
from parcheesi.server import store as store_module
from parcheesi.server.backup import BackupError, backup, restore
from parcheesi.server.live import COMPUTER, HUMAN, Hub, LiveGame, Seat
from parcheesi.server.migrate import current_revision, sync_url, upgrade
from parcheesi.server.people import People
from parcheesi.server.ratings import Ratings
from parcheesi.server.rooms import Rooms
from parcheesi.server.store import Store, VersionConflict

ROOT = Path(__file__).resolve().parent.parent
HEAD_REVISION = "0012"
"""The newest schema revision (parcheesi/migrations/versions)."""
SEATS = [Seat(colour=0, kind=HUMAN, name="Ann"), Seat(colour=2, kind=COMPUTER, level="easy")]


async def play_some(game: LiveGame, actions: int) -> None:
    """Play ``actions`` legal actions (first offered), whoever's turn it is."""
    for _ in range(actions):
        action = legal_actions(game.state)[0]
        await game.act(action, version=game.version,
                       computer=not game.seat_to_act().is_human)


async def test_actions_are_stored_and_a_fresh_server_resumes_the_game(database_url):
    store = Store(database_url)
    game = await Hub(store).create_local("browser-a", "solo", SEATS)
    await play_some(game, 25)
    state, version = game.state, game.version
    await store.close()

    restarted = Store(database_url)
    resumed = await Hub(restarted).local_game("browser-a")
    assert resumed is not None and resumed.id == game.id
    assert resumed.version == version == 25
    assert resumed.state == state
    assert resumed.stats.captures == game.stats.captures
    await play_some(resumed, 5)
    assert resumed.version == 30
    await restarted.close()


async def test_two_tabs_of_a_browser_record_taking_part_in_a_game_once(database_url):
    """Both tabs draw the game at once (a reload keeps the old page a few seconds): neither
    fails, and My games lists the game once."""
    store = Store(database_url)
    game = await Hub(store).create_local("browser-a", "solo", SEATS)
    for n in range(3):  # the first round opens the pool's connections: the next ones race
        await asyncio.gather(*(store.took_part(game.id, f"browser-{n}") for _ in range(8)))
        assert [row.id for row in await store.games_of(f"browser-{n}")] == [game.id]
    await store.close()


async def test_a_ludo_game_with_house_rules_is_saved_after_every_action_and_resumes(
        database_url):
    store = Store(database_url)
    seats = [Seat(colour=1, kind=HUMAN, name="Ann"), Seat(colour=2, kind=COMPUTER,
                                                         level="hard")]
    game = await Hub(store).create_local("browser-ludo", "solo", seats, "ludo",
                                         ("capture_all", "stars"))
    for _ in range(60):
        action = game.rules.choices(game.state)[-1].action
        await game.act(action, version=game.version, computer=not game.seat_to_act().is_human)
    state, version = game.state, game.version
    await store.close()

    restarted = Store(database_url)
    resumed = await Hub(restarted).local_game("browser-ludo")
    assert resumed is not None and (resumed.kind, resumed.house) == ("ludo", ("capture_all",
                                                                             "stars"))
    assert (resumed.state, resumed.version) == (state, version)
    assert resumed.state.house == ("capture_all", "stars")
    await restarted.close()


async def test_a_stale_or_concurrent_action_is_refused_and_changes_nothing(database_url):
    store = Store(database_url)
    game = await Hub(store).create_local("browser-b", "same_device",
                                         [Seat(colour=1, kind=HUMAN), Seat(colour=3, kind=HUMAN)])
    results = await asyncio.gather(game.act(Roll(), version=0), game.act(Roll(), version=0),
                                   return_exceptions=True)
    assert sum(1 for r in results if isinstance(r, IllegalAction)) == 1
    assert game.version == 1
    with pytest.raises(IllegalAction, match="already played"):
        await game.act(Roll(), version=0)
    assert len(await store.actions(game.id)) == 1
    # The store itself refuses a second write for the same version.
    before = (await store.game(game.id)).state  # type: ignore[union-attr]
    with pytest.raises(VersionConflict):
        await store.append_action(game.id, 0, {"type": "roll"}, {"forged": True}, False)
    assert (await store.game(game.id)).state == before  # type: ignore[union-attr]
    await store.close()


async def test_sqlite_copies_its_write_ahead_log_into_the_database_in_the_background(
        tmp_path, monkeypatch):
    """Clicks never wait for the disk: the action connection does not checkpoint by itself,
    a background thread does every few actions, so the database file itself grows."""
    monkeypatch.setattr(store_module, "_CHECKPOINT_EVERY", 5)
    path = tmp_path / "wal.sqlite3"
    store = Store(f"sqlite+aiosqlite:///{path}")
    game = await Hub(store).create_local("browser-w", "solo", SEATS)
    big = {"padding": "x" * 20_000}  # a few pages per write, so the copy shows in the file
    size_before = path.stat().st_size
    for version in range(4):
        await store.append_action(game.id, version, {"type": "roll"}, big, False)
    assert store._checkpoint is None and path.stat().st_size == size_before
    await store.append_action(game.id, 4, {"type": "roll"}, big, False)
    assert store._checkpoint is not None
    await store._checkpoint
    assert path.stat().st_size > size_before + 20_000  # the current state, at least
    assert len(await store.actions(game.id)) == 5
    await store.close()


async def test_an_sqlite_action_waits_for_another_process_without_stopping_the_server(
        tmp_path):
    """Another process holding the database (a maintenance shell) makes the click wait for
    it on a thread: every other game keeps running meanwhile."""
    path = tmp_path / "locked.sqlite3"
    store = Store(f"sqlite+aiosqlite:///{path}")
    game = await Hub(store).create_local("browser-l", "solo", SEATS)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # the other process's write transaction
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    ticker = asyncio.create_task(tick())
    asyncio.get_running_loop().call_later(0.3, other.execute, "ROLLBACK")
    await store.append_action(game.id, 0, {"type": "roll"}, {"x": 1}, False)
    ticker.cancel()
    other.close()
    assert ticks >= 10  # the event loop ran on while the write waited
    assert await store.actions(game.id) == [{"type": "roll"}]
    await store.close()


def drop_tournaments(connection: Any) -> None:
    """Take the schema back to before tournaments (revision 0011)."""
    connection.execute(text("DROP INDEX ix_tournaments_finished"))
    connection.execute(text("DROP TABLE tournaments"))
    connection.execute(text("ALTER TABLE rooms DROP COLUMN tournament"))


def drop_people(connection: Any) -> None:
    """Take the schema back to before people and ratings (revision 0010)."""
    drop_tournaments(connection)
    for table in ("results", "finishes", "server_settings", "person_links", "person_devices",
                  "people"):
        connection.execute(text(f"DROP TABLE {table}"))
    connection.execute(text("DROP INDEX ix_games_finished_at"))
    connection.execute(text("ALTER TABLE games DROP COLUMN finished_at"))


def drop_undos(connection: Any) -> None:
    """Take the schema back to before Undo (revision 0009)."""
    drop_people(connection)
    connection.execute(text("ALTER TABLE games DROP COLUMN undos"))


def drop_stand_ins(connection: Any) -> None:
    """Take the schema back to before stand-in levels (revision 0008)."""
    drop_undos(connection)
    for table in ("games", "rooms"):
        connection.execute(text(f"ALTER TABLE {table} DROP COLUMN stand_in"))


def drop_clocks(connection: Any) -> None:
    """Take the schema back to before turn clocks (revision 0007)."""
    drop_stand_ins(connection)
    connection.execute(text("DROP INDEX ix_games_deadline"))
    for column in ("clock", "deadline", "timeouts"):
        connection.execute(text(f"ALTER TABLE games DROP COLUMN {column}"))
    connection.execute(text("ALTER TABLE rooms DROP COLUMN clock"))
    connection.execute(text("ALTER TABLE actions DROP COLUMN timed_out"))


def drop_records(connection: Any) -> None:
    """Take the schema back to before game records (revision 0006)."""
    drop_clocks(connection)
    connection.execute(text("DROP TABLE players"))
    for column in ("secret", "commitment", "contributions", "start"):
        connection.execute(text(f"ALTER TABLE games DROP COLUMN {column}"))


async def test_a_database_from_the_first_revision_is_upgraded_and_its_games_resume(
        database_url):
    # Version 1 of the schema (local games only), with a game saved by that version.
    store = Store(database_url)
    game = await Hub(store).create_local("browser-c", "solo", SEATS)
    await play_some(game, 12)
    saved = {"state": game.state, "version": game.version}
    await store.close()
    engine = create_engine(sync_url(database_url))
    with engine.begin() as connection:
        drop_records(connection)
        connection.execute(text("DROP TABLE rooms"))
        connection.execute(text("DROP TABLE health"))
        connection.execute(text("ALTER TABLE games DROP COLUMN kind"))
        connection.execute(text("ALTER TABLE games DROP COLUMN house"))
        connection.execute(text("UPDATE alembic_version SET version_num = '0001'"))
    engine.dispose()
    assert current_revision(database_url) == "0001"

    upgraded = Store(database_url)
    resumed = await Hub(upgraded).local_game("browser-c")
    assert current_revision(database_url) == HEAD_REVISION
    assert resumed is not None
    assert (resumed.state, resumed.version) == (saved["state"], saved["version"])
    await play_some(resumed, 3)
    assert resumed.version == saved["version"] + 3
    await upgraded.close()


async def test_games_from_before_game_kinds_are_parcheesi_and_unknown_kinds_stay_unloaded(
        database_url):
    store = Store(database_url)
    old = await Hub(store).create_local("browser-k", "solo", SEATS)
    other = await Hub(store).create_local("browser-l", "solo", SEATS)
    await store.close()
    engine = create_engine(sync_url(database_url))
    with engine.begin() as connection:  # the schema as a server before game kinds left it
        connection.execute(text("ALTER TABLE games DROP COLUMN kind"))
        connection.execute(text("ALTER TABLE rooms DROP COLUMN kind"))
        for table in ("games", "rooms"):
            connection.execute(text(f"ALTER TABLE {table} DROP COLUMN house"))
        drop_records(connection)
        connection.execute(text("UPDATE alembic_version SET version_num = '0003'"))
    await asyncio.to_thread(upgrade, database_url)
    with engine.begin() as connection:
        kinds = dict(connection.execute(text("SELECT id, kind FROM games")).all())
        connection.execute(text("UPDATE games SET kind = 'chess' WHERE id = :id"),
                           {"id": other.id})
    engine.dispose()
    assert kinds == {old.id: "parcheesi", other.id: "parcheesi"}

    reopened = Store(database_url)
    hub = Hub(reopened)
    assert (await hub.get(old.id)) is not None
    assert await hub.get(other.id) is None  # a kind this server does not play
    await reopened.close()


async def test_rooms_from_before_room_kinds_play_parcheesi(database_url):
    store = Store(database_url)
    hub = Hub(store)
    room, _ = await Rooms(store, hub).create(SEATS)
    await store.close()
    engine = create_engine(sync_url(database_url))
    with engine.begin() as connection:  # the schema as a server before room kinds left it
        connection.execute(text("ALTER TABLE rooms DROP COLUMN kind"))
        for table in ("games", "rooms"):
            connection.execute(text(f"ALTER TABLE {table} DROP COLUMN house"))
        drop_records(connection)
        connection.execute(text("UPDATE alembic_version SET version_num = '0004'"))
    await asyncio.to_thread(upgrade, database_url)
    engine.dispose()
    reopened = Store(database_url)
    again = await Rooms(reopened, Hub(reopened)).get(room.code)
    assert again is not None and again.kind == "parcheesi" and again.house == ()
    await reopened.close()


async def test_rooms_from_before_tournaments_are_ordinary_rooms(database_url):
    store = Store(database_url)
    room, _ = await Rooms(store, Hub(store)).create(SEATS)
    await store.close()
    engine = create_engine(sync_url(database_url))
    with engine.begin() as connection:  # the schema as a server before tournaments left it
        drop_tournaments(connection)
        connection.execute(text("UPDATE alembic_version SET version_num = '0011'"))
    engine.dispose()
    reopened = Store(database_url)
    again = await Rooms(reopened, Hub(reopened)).get(room.code)
    assert again is not None and again.tournament == "" and again.host == room.host
    assert current_revision(database_url) == HEAD_REVISION
    await reopened.close()


async def test_games_and_rooms_from_before_house_rules_have_none(database_url):
    store = Store(database_url)
    hub = Hub(store)
    game = await hub.create_local("browser-h", "solo", SEATS)
    room, _ = await Rooms(store, hub).create(SEATS)
    await store.close()
    engine = create_engine(sync_url(database_url))
    with engine.begin() as connection:  # the schema as a server before house rules left it
        for table in ("games", "rooms"):
            connection.execute(text(f"ALTER TABLE {table} DROP COLUMN house"))
        drop_records(connection)
        connection.execute(text("UPDATE alembic_version SET version_num = '0005'"))
    await asyncio.to_thread(upgrade, database_url)
    engine.dispose()
    reopened = Store(database_url)
    hub = Hub(reopened)
    resumed = await hub.get(game.id)
    again = await Rooms(reopened, hub).get(room.code)
    assert resumed is not None and resumed.house == () and resumed.state == game.state
    assert again is not None and again.house == ()
    await reopened.close()


async def test_games_rooms_and_actions_from_before_turn_clocks_have_none(database_url):
    store = Store(database_url)
    hub = Hub(store)
    game = await hub.create_local("browser-t", "solo", SEATS)
    await play_some(game, 6)
    room, _ = await Rooms(store, hub).create(SEATS)
    await store.close()
    engine = create_engine(sync_url(database_url))
    with engine.begin() as connection:  # the schema as a server before turn clocks left it
        drop_clocks(connection)
        connection.execute(text("UPDATE alembic_version SET version_num = '0007'"))
    await asyncio.to_thread(upgrade, database_url)
    engine.dispose()
    reopened = Store(database_url)
    hub = Hub(reopened)
    resumed = await hub.get(game.id)
    again = await Rooms(reopened, hub).get(room.code)
    assert resumed is not None and (resumed.state, resumed.version) == (game.state, 6)
    assert (resumed.turn_clock, resumed.deadline, resumed.timeouts) == (0, None, {})
    assert await reopened.timed_out_actions(game.id) == set()
    assert again is not None and again.clock == 0
    assert resumed.stand_in == again.stand_in == "medium"  # what stood in before
    await play_some(resumed, 2)
    assert resumed.version == 8 and resumed.deadline is None
    await reopened.close()


async def test_games_from_before_undo_took_nothing_back_and_play_on(database_url):
    store = Store(database_url)
    game = await Hub(store).create_local("browser-u", "solo", SEATS)
    await play_some(game, 6)
    await store.close()
    engine = create_engine(sync_url(database_url))
    with engine.begin() as connection:  # the schema as a server before Undo left it
        drop_undos(connection)
        connection.execute(text("UPDATE alembic_version SET version_num = '0009'"))
    engine.dispose()
    reopened = Store(database_url)
    resumed = await Hub(reopened).get(game.id)
    assert resumed is not None and resumed.state == game.state
    assert (resumed.undos, resumed.version) == (0, 6)
    await play_some(resumed, 2)
    assert resumed.version == 8
    await reopened.close()


async def test_games_finished_before_people_are_rated_for_guests_and_computers(database_url):
    store = Store(database_url)
    game = await Hub(store).create_local("browser-p", "solo", SEATS)
    while not game.over:
        await play_some(game, 1)
    await store.close()
    engine = create_engine(sync_url(database_url))
    with engine.begin() as connection:  # the schema as a server before people left it
        drop_people(connection)
        connection.execute(text("UPDATE alembic_version SET version_num = '0010'"))
        seats = json.loads(connection.execute(text("SELECT seats FROM games")).scalar_one())
        for seat in seats:
            seat.pop("person")
        connection.execute(text("UPDATE games SET seats = :seats"), {"seats": json.dumps(seats)})
    engine.dispose()
    upgraded = Store(database_url)
    people = People(upgraded)
    ratings = Ratings(upgraded, people)
    assert await ratings.rate_pending() == 1
    changes = await ratings.changes(game.id)
    computers = [s for s in SEATS if not s.is_human]
    assert [c.name for c in changes] == [f"{s.level.title()} computer" for s in computers]
    assert all(c.rated == (len(computers) > 1) for c in changes)
    row = await upgraded.game(game.id)
    assert row is not None and row.finished_at is not None
    await upgraded.close()


async def test_migrating_a_new_database_step_by_step_reaches_the_same_schema(database_url):
    await asyncio.to_thread(upgrade, database_url, "0001")
    assert current_revision(database_url) == "0001"
    await asyncio.to_thread(upgrade, database_url)
    assert current_revision(database_url) == HEAD_REVISION
    store = Store(database_url)
    assert await store.problem() is None
    await store.close()


async def test_backup_while_running_and_restore(database_url, tmp_path):
    store = Store(database_url)
    hub = Hub(store)
    game = await hub.create_local("browser-d", "solo", SEATS)
    await play_some(game, 10)
    at_backup = (game.state, game.version)
    backup_file = await asyncio.to_thread(backup, database_url, tmp_path / "backup.dump")
    assert backup_file.stat().st_size > 0
    await play_some(game, 10)  # the game goes on after the backup
    await store.close()

    if database_url.startswith("postgresql"):
        # Restore into an empty database, as after losing the server's disk.
        from conftest import _drop_postgres_database, _fresh_postgres_database
        admin = database_url.rsplit("/", 1)[0] + "/postgres"
        target, name = _fresh_postgres_database(admin)
    else:
        target, name = database_url, None
    await asyncio.to_thread(restore, target, backup_file)
    restored_store = Store(target)
    restored = await Hub(restored_store).local_game("browser-d")
    assert restored is not None
    assert (restored.state, restored.version) == at_backup
    await restored_store.close()
    if name:
        _drop_postgres_database(admin, name)


def test_backup_command_writes_a_file_and_reports_bad_urls(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'cli.sqlite3'}"
    migrate = subprocess.run([sys.executable, "-m", "parcheesi", "migrate", "--database-url",
                              url], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert migrate.returncode == 0, migrate.stderr
    assert HEAD_REVISION in migrate.stdout
    out = tmp_path / "copy.sqlite3"
    done = subprocess.run([sys.executable, "-m", "parcheesi", "backup", str(out),
                           "--database-url", url], capture_output=True, text=True, cwd=ROOT,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert out.exists()
    missing = subprocess.run([sys.executable, "-m", "parcheesi", "backup", str(out),
                              "--database-url", f"sqlite+aiosqlite:///{tmp_path / 'none.db'}"],
                             capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert missing.returncode == 2
    assert "no database file" in missing.stderr


def test_backup_and_restore_refuse_what_would_lose_or_hang(tmp_path):
    """A backup named as the database itself (which waited forever on its own lock), a
    directory, a file that is not a database; a restore from anything but a whole backup of
    this server's database: each a clear BackupError, and the database and an earlier
    backup unchanged."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'live.sqlite3'}"
    upgrade(url)
    database = tmp_path / "live.sqlite3"
    kept = database.read_bytes()
    earlier = backup(url, tmp_path / "earlier.sqlite3").read_bytes()
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    refusals = [
        (lambda: backup(url, database), "is the database itself"),
        (lambda: backup(url, tmp_path), "is a directory"),
        (lambda: backup(url, notes), "is a file that is not a backup"),
        (lambda: restore(url, notes), "not an SQLite backup"),
        (lambda: restore(url, tmp_path), "is not a file"),
        (lambda: restore(url, database), "is the database itself"),
        (lambda: backup(url, fifo), "is not a regular file"),  # as /dev/null would be
    ]
    plain = tmp_path / "other.sqlite3"
    with contextlib.closing(sqlite3.connect(plain)) as other, other:
        other.execute("CREATE TABLE notes (line TEXT)")
    refusals.append((lambda: restore(url, plain), "not a backup of this server's database"))
    for attempt, reason in refusals:
        with pytest.raises(BackupError, match=reason):
            attempt()
    assert database.read_bytes() == kept
    assert notes.read_text() == "not a database"
    assert (tmp_path / "earlier.sqlite3").read_bytes() == earlier
    assert not list(tmp_path.glob(".*"))  # no partial file left behind
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    restore(url, tmp_path / "earlier.sqlite3")  # a real backup is put back
    assert current_revision(url) == HEAD_REVISION


def test_commands_that_do_not_serve_create_no_storage_secret(tmp_path):
    data = tmp_path / "data"
    env = {**os.environ, "PARCHEESI_DATA_DIR": str(data)}
    env.pop("PARCHEESI_DATABASE_URL", None)
    done = subprocess.run([sys.executable, "-m", "parcheesi", "migrate"], capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert (data / "parcheesi.sqlite3").exists()
    assert not (data / "storage-secret").exists()


async def test_a_store_migrates_on_init_unless_the_start_up_check_did(database_url, monkeypatch):
    runs: list[str] = []
    monkeypatch.setattr(store_module, "upgrade", lambda url: runs.append(url))
    first = Store(database_url)
    await first.init()
    await first.init()  # safe to call again
    assert runs == [database_url]
    second = Store(database_url)
    second.migrated()
    await second.init()
    assert runs == [database_url]
    await first.close()
    await second.close()
