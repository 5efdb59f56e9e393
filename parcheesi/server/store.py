"""SQLModel tables and the queries on them.

A game is stored as its record: seats, dice seed and the list of accepted actions (one row
each), plus a snapshot of the current state and its version so loading needs no replay.
Appending an action and moving the snapshot happen in one transaction, guarded by the
version, so two writers can never both extend the same version: persist, then announce.
Changes that belong together (a room and the game it starts, a room seat and the game seat
it hands to a computer, a new local game and the one it replaces) share one transaction
too, so a crash between them cannot leave one without the other.

The store also watches itself: a failed write, or an SQLite file that was deleted or
replaced under the running server (writes would go to a file nobody will open again), is
reported by :meth:`Store.problem` and refuses further writes instead of losing them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import BigInteger, Column, bindparam, delete, event, insert, or_, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.dialects.sqlite import DATETIME
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlmodel import Field, SQLModel, col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from .migrate import upgrade
from .shards import room_key

log = logging.getLogger(__name__)


def _now() -> datetime:
    return datetime.now(UTC)


PARCHEESI = "parcheesi"
"""The game kind of classic Parcheesi, the default of every stored game."""


class GameRow(SQLModel, table=True):
    __tablename__ = "games"

    id: str = Field(primary_key=True, max_length=32)
    owner: str = Field(index=True, max_length=64)
    """The browser that created a local game."""
    kind: str = Field(default=PARCHEESI, max_length=16)
    """The rules the game is played by (``games.GAMES``)."""
    house: str = Field(default="", max_length=120)
    """The house rules switched on, sorted names joined by commas (``house_text``)."""
    mode: str = Field(max_length=16)
    """``same_device`` or ``solo``."""
    seats: str
    """JSON list of seats: colour, kind (human/computer), level, name."""
    seed: int = Field(sa_column=Column(BigInteger, nullable=False))
    """The seed the dice come from (``fairness.dice_seed`` of the secret and the
    contributions; for a game stored before commitments, its own secret)."""
    secret: str = Field(default="", max_length=64)
    """The server's secret for the dice (hex), never shown before the game is over."""
    commitment: str = Field(default="", max_length=64)
    """The SHA-256 of the secret, shown from the start ("" for games before commitments)."""
    contributions: str = "{}"
    """JSON object: colour name -> the randomness that seat's browser added (hex)."""
    start: str = ""
    """JSON state the game began at ("" for the opening position; a game continued from
    an imported record begins where the record was left)."""
    state: str
    """JSON snapshot of the current engine state (``notation.state_to_json``)."""
    version: int = 0
    """Number of actions in the record (accepted and not taken back)."""
    undos: int = 0
    """Moves taken back (Undo at a table of one person and computers): they leave the
    record, so with ``version`` it numbers every change (``LiveGame.version``)."""
    clock: int = 0
    """Seconds a human seat has for each move (0: no clock), fixed when the game starts."""
    stand_in: str = Field(default="medium", max_length=16)
    """The computer level that moves for a human seat whose time ran out."""
    deadline: datetime | None = Field(default=None, index=True)
    """When the move to make now runs out (UTC; None: no clock, or a computer is to act),
    written with the action that made it the move to make."""
    timeouts: str = "{}"
    """JSON object: colour -> the seat's moves in a row that a computer made because its
    time ran out (a seat's own action sets it back to none)."""
    finished: bool = False
    finished_at: datetime | None = Field(default=None, index=True)
    """When the game ended (written with its last action): the order ratings follow."""
    abandoned: bool = False
    created_at: datetime = Field(default_factory=_now)
    updated_at: datetime = Field(default_factory=_now)


class ActionRow(SQLModel, table=True):
    __tablename__ = "actions"

    game_id: str = Field(primary_key=True, foreign_key="games.id", max_length=32)
    index: int = Field(primary_key=True)
    action: str
    """JSON of the action (``notation.action_to_json``)."""
    timed_out: bool = False
    """Whether a computer made it for a human seat whose time ran out."""
    created_at: datetime = Field(default_factory=_now)


class PlayerRow(SQLModel, table=True):
    """A browser that played a seat of a game (what My games lists)."""

    __tablename__ = "players"

    game_id: str = Field(primary_key=True, foreign_key="games.id", max_length=32)
    browser: str = Field(primary_key=True, index=True, max_length=64)
    joined_at: datetime = Field(default_factory=_now)


class HealthRow(SQLModel, table=True):
    __tablename__ = "health"

    id: int = Field(primary_key=True)
    checked_at: datetime = Field(default_factory=_now)
    """Rewritten by every health check: the proof that the database takes writes."""


class RoomRow(SQLModel, table=True):
    __tablename__ = "rooms"

    code: str = Field(primary_key=True, max_length=8)
    host: int
    """Colour of the host's seat."""
    status: str = Field(max_length=16)
    kind: str = Field(default=PARCHEESI, max_length=16)
    """The game the room's tables play (``games.kind``)."""
    house: str = Field(default="", max_length=120)
    """The house rules of the room's tables (``house_text``)."""
    game_id: str | None = Field(default=None, max_length=32)
    clock: int = 0
    """Seconds a human seat has for each move in the room's games (0: no clock)."""
    stand_in: str = Field(default="medium", max_length=16)
    """The computer level that moves for a player whose time ran out, or who handed their
    seat to a computer for a while."""
    seats: str
    """JSON list of seats with their token hashes (never the tokens) and readiness."""
    tournament: str = Field(default="", max_length=8)
    """The tournament whose table this room is ("": an ordinary room)."""
    created_at: datetime = Field(default_factory=_now)
    last_action_at: datetime = Field(default_factory=_now, index=True)


SAME_DEVICE, SOLO, ONLINE = "same_device", "solo", "online"
"""A game's ``mode``: everyone on one screen (passing the phone round), one person against
computers, or a room's game."""
LOCAL_MODES = (SAME_DEVICE, SOLO)
"""The modes of a browser's local games."""
MY_GAMES_LIMIT = 200
"""Games My games lists at most (the newest first)."""


def house_text(house: tuple[str, ...]) -> str:
    """How a set of house rules is stored."""
    return ",".join(sorted(house))


def house_of(text: str) -> tuple[str, ...]:
    """The house rules a stored text names."""
    return tuple(name for name in text.split(",") if name)


_GAMES = GameRow.__table__  # type: ignore[attr-defined]
_ADVANCE = (update(_GAMES)
            .where(_GAMES.c.id == bindparam("game_id"), _GAMES.c.version == bindparam("at"),
                   _GAMES.c.undos == bindparam("undone"))
            .values(state=bindparam("state"), version=bindparam("version"),
                    finished=bindparam("finished"), updated_at=bindparam("updated_at"),
                    finished_at=bindparam("finished_at"),
                    deadline=bindparam("deadline"), timeouts=bindparam("timeouts")))
"""Move a game's snapshot on, only from the version (and undos) the action was made
against."""
_RECORD = insert(ActionRow.__table__)  # type: ignore[attr-defined]
"""Add an action's row. Both statements are built once: SQLAlchemy then compiles them once."""

def _sqlite_time_processor() -> Callable[[datetime], str]:
    processor = DATETIME().bind_processor(sqlite.dialect())  # type: ignore[no-untyped-call]
    assert processor is not None
    return processor


_SQLITE_TIME = _sqlite_time_processor()
"""A datetime as SQLAlchemy stores it in SQLite, for the rows written without it."""
_CHECKPOINT_EVERY = 200
"""SQLite actions between two copies of the WAL into the database."""
_LOCK_WAIT_S = 5.0
"""How long an action waits (on a thread) for another process to release the database."""
POSTGRES_POOL = 10
"""PostgreSQL connections a server keeps open, and the most it uses at once (more
transactions than that wait for one). A connection opened beyond those and closed again
costs PostgreSQL a new process each time: under load, more than the transactions."""


@dataclass(frozen=True)
class Clocked:
    """A game's turn clock as one action leaves it, stored with that action."""

    deadline: datetime | None = None
    """When the next move runs out (None: no clock, or a computer is to act)."""
    timeouts: str = "{}"
    """The seats' timeouts in a row (JSON, as ``GameRow.timeouts``)."""
    timed_out: bool = False
    """Whether the action itself was made by a computer because time ran out."""


def aware(moment: datetime) -> datetime:
    """A stored time as UTC (SQLite gives it back without its time zone)."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class _ReadySession:
    """``async with store.session()``: initialise the store if needed, then a session."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.session: AsyncSession | None = None

    async def __aenter__(self) -> AsyncSession:
        if not self.store._ready:
            await self.store.init()
        self.session = AsyncSession(self.store.engine, expire_on_commit=False)
        return await self.session.__aenter__()

    async def __aexit__(self, *exc: object) -> None:
        assert self.session is not None
        await self.session.__aexit__(*exc)


class VersionConflict(RuntimeError):
    """The game moved on since the action was made; nothing was written."""


class StoreUnavailable(RuntimeError):
    """The database cannot be used safely (its file was deleted or replaced); the message
    says why. Nothing was written."""


def _file_identity(path: str) -> tuple[int, int] | None:
    """(device, inode) of the file at ``path``, or None if there is none."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def default_url(data_dir: Path) -> str:
    data_dir.mkdir(parents=True, exist_ok=True)
    return f"sqlite+aiosqlite:///{data_dir / 'parcheesi.sqlite3'}"


def _sqlite_pragmas(connection: Any, _: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


class Store:
    """Async access to the database (SQLite with WAL by default, PostgreSQL by URL)."""

    def __init__(self, url: str) -> None:
        self.url = url
        sqlite = url.startswith("sqlite")
        self.engine: AsyncEngine = (create_async_engine(url) if sqlite else create_async_engine(
            url, pool_size=POSTGRES_POOL, max_overflow=0))
        self._ready = False
        self._migrated = False
        self._init_lock = asyncio.Lock()
        self._writing: asyncio.Lock | contextlib.nullcontext[None] = (
            asyncio.Lock() if sqlite else contextlib.nullcontext())
        """SQLite allows one writer at a time: writes queue here instead of failing with
        "database is locked" when many games move at once (PostgreSQL needs no queue)."""
        self._sqlite_path: str | None = make_url(url).database if sqlite else None
        self._actions: sqlite3.Connection | None = None
        """SQLite: the connection for the write on every click (see ``append_action``)."""
        self._unchecked_writes = 0
        self._checkpoint: asyncio.Task[None] | None = None
        self._identity: tuple[int, int] | None = None
        """SQLite: (device, inode) of the database file this server opened."""
        self.write_error: str | None = None
        """Why the newest write failed, until a write succeeds again."""
        if sqlite:
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)

    async def init(self) -> None:
        """Migrate the schema to this version (creating it in a new database); safe to
        call again (later calls return at once)."""
        async with self._init_lock:
            if self._ready:
                return
            if not self._migrated:
                await asyncio.to_thread(upgrade, self.url)
            if self._sqlite_path is not None:
                self._identity = _file_identity(self._sqlite_path)
            self._ready = True

    def migrated(self) -> None:
        """The schema was brought up to date before the server started (the start-up check
        does it, to stop with a one-line reason if it cannot): :meth:`init` skips it."""
        self._migrated = True

    async def close(self) -> None:
        if self._checkpoint is not None:
            await self._checkpoint
        if self._actions is not None:
            self._actions.close()
            self._actions = None
        await self.engine.dispose()

    def session(self) -> _ReadySession:
        """A session that first makes sure the tables exist (start-up hooks run in the
        background, so the first request may come before they finish)."""
        return _ReadySession(self)

    def check_file(self) -> None:
        """Refuse to write when the SQLite file is no longer the one this server opened:
        SQLite would carry on writing to the deleted or replaced file, and every game played
        from then on would be lost at the next start."""
        if self._sqlite_path is None or self._identity is None:
            return
        if _file_identity(self._sqlite_path) != self._identity:
            reason = "the database file was deleted or replaced while the server ran"
            self.write_error = reason
            raise StoreUnavailable(reason)

    @contextlib.asynccontextmanager
    async def write_session(self) -> AsyncIterator[AsyncSession]:
        """A session for a change: queued behind the other SQLite writers, refused when the
        file is gone, and its outcome remembered for :meth:`problem`."""
        if not self._ready:
            await self.init()
        async with self._writing:
            self.check_file()
            try:
                async with self.session() as session:
                    yield session
            except Exception as error:
                self.write_error = _reason(error)
                raise
            self.write_error = None

    async def create_game(self, row: GameRow, replacing: str | None = None) -> None:
        """Add a game; ``replacing``: the id of a game it replaces, abandoned in the same
        transaction (a crash leaves either the old game or the new one, never neither)."""
        async with self.write_session() as session:
            if replacing is not None:
                await self._set_game(session, replacing, abandoned=True)
            session.add(row)
            await session.commit()

    async def append_action(self, game_id: str, version: int, action: dict[str, Any],
                            state: dict[str, Any], finished: bool, clock: Clocked | None = None,
                            undos: int = 0) -> None:
        """Store action number ``version`` and the state it leads to, atomically, with the
        game's turn clock after it (``clock``; None: no deadline, no timeouts). ``undos``:
        the moves the game took back so far, which the stored game must have too (a writer
        that missed an undo is behind, however many actions both records hold).

        This is on the path of every click. On SQLite the two statements run right here,
        on the event loop's thread, through a connection of their own: a commit in WAL mode
        takes a fraction of a millisecond, less than handing the work to a thread and back
        (which, on a busy machine, waits for a free core). It never waits on the loop: the
        WAL is copied into the database by a background thread now and then
        (``_CHECKPOINT_EVERY``), the server's other writers queue on the same asyncio lock,
        and if another process holds the database (a maintenance shell, say), the write
        waits for it on a thread instead.
        """
        if not self._ready:
            await self.init()
        try:
            await self._append(game_id, version, action, state, finished,
                               clock or Clocked(), undos)
        except VersionConflict:
            raise
        except Exception as error:
            self.write_error = _reason(error)
            raise
        self.write_error = None

    async def _append(self, game_id: str, version: int, action: dict[str, Any],
                      state: dict[str, Any], finished: bool, clock: Clocked, undos: int
                      ) -> None:
        now = _now()
        advance = {"game_id": game_id, "at": version, "undone": undos,
                   "state": json.dumps(state), "version": version + 1, "finished": finished,
                   "updated_at": now, "deadline": clock.deadline, "timeouts": clock.timeouts,
                   "finished_at": now if finished else None}
        record = {"game_id": game_id, "index": version, "action": json.dumps(action),
                  "timed_out": clock.timed_out, "created_at": now}
        if self._sqlite_path is not None:
            async with self._writing:
                self.check_file()
                try:
                    self._write_action(advance, record)
                except sqlite3.OperationalError as error:
                    if error.sqlite_errorcode not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                        raise
                    await asyncio.to_thread(self._write_action, advance, record,
                                            _LOCK_WAIT_S)
            self._count_write()
            return
        async with self.engine.begin() as connection:
            if (await connection.execute(_ADVANCE, advance)).rowcount != 1:
                raise VersionConflict(f"game {game_id} is no longer at version {version}")
            await connection.execute(_RECORD, record)

    async def take_back(self, game_id: str, version: int, undos: int, state: dict[str, Any],
                        deadline: datetime | None) -> bool:
        """Take the last of a game's ``version`` actions out of its record (Undo), with the
        snapshot going back to ``state`` and the move's ``deadline``, in one transaction.
        False (nothing changed) unless the stored game is at ``version`` and ``undos``."""
        async with self.write_session() as session:
            moved = await session.exec(
                update(GameRow)
                .where(col(GameRow.id) == game_id, col(GameRow.version) == version,
                       col(GameRow.undos) == undos)
                .values(version=version - 1, undos=undos + 1, state=json.dumps(state),
                        deadline=deadline, updated_at=_now()))
            if moved.rowcount != 1:
                return False
            await session.exec(delete(ActionRow).where(
                col(ActionRow.game_id) == game_id, col(ActionRow.index) == version - 1))
            await session.commit()
            return True

    def _connection(self) -> sqlite3.Connection:
        """The SQLite connection of the click path (opened on first use)."""
        if self._actions is None:
            assert self._sqlite_path is not None
            self._actions = sqlite3.connect(self._sqlite_path, isolation_level=None,
                                            timeout=0, check_same_thread=False)
            _sqlite_pragmas(self._actions, None)
            self._actions.execute("PRAGMA wal_autocheckpoint=0")
        return self._actions

    def _write_action(self, advance: dict[str, Any], record: dict[str, Any],
                      wait_s: float = 0.0) -> None:
        """The SQLite transaction of ``append_action``; fails at once if the database is
        locked, unless ``wait_s`` (then it runs on a thread: the asyncio lock keeps every
        use of the connection apart)."""
        connection = self._connection()
        if wait_s:
            connection.execute(f"PRAGMA busy_timeout={round(wait_s * 1000)}")
        try:
            connection.execute("BEGIN IMMEDIATE")
        finally:
            if wait_s:
                connection.execute("PRAGMA busy_timeout=0")
        try:
            cursor = connection.execute(
                "UPDATE games SET state = ?, version = ?, finished = ?, updated_at = ?, "
                "finished_at = ?, deadline = ?, timeouts = ? "
                "WHERE id = ? AND version = ? AND undos = ?",
                (advance["state"], advance["version"], advance["finished"],
                 _SQLITE_TIME(advance["updated_at"]),
                 None if advance["finished_at"] is None else _SQLITE_TIME(advance["finished_at"]),
                 None if advance["deadline"] is None else _SQLITE_TIME(advance["deadline"]),
                 advance["timeouts"], advance["game_id"], advance["at"], advance["undone"]))
            if cursor.rowcount != 1:
                raise VersionConflict(f"game {advance['game_id']} is no longer at version "
                                      f"{advance['at']}")
            connection.execute(
                'INSERT INTO actions (game_id, "index", action, timed_out, created_at) '
                'VALUES (?, ?, ?, ?, ?)',
                (record["game_id"], record["index"], record["action"], record["timed_out"],
                 _SQLITE_TIME(record["created_at"])))
            connection.execute("COMMIT")
        except BaseException:
            # Also when COMMIT itself failed: the transaction is still open then, and the
            # next action's BEGIN would fail on it.
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise

    def _count_write(self) -> None:
        """Start a background copy of the WAL every ``_CHECKPOINT_EVERY`` actions."""
        self._unchecked_writes += 1
        if self._unchecked_writes >= _CHECKPOINT_EVERY and self._checkpoint is None:
            self._unchecked_writes = 0
            self._checkpoint = asyncio.get_running_loop().create_task(self._copy_wal())

    async def _copy_wal(self) -> None:
        """Copy the WAL into the database on a thread (a passive checkpoint never blocks
        the writers), then let the next one start."""
        path = self._sqlite_path
        assert path is not None

        def checkpoint() -> None:
            with contextlib.closing(sqlite3.connect(path)) as connection:
                connection.execute("PRAGMA wal_checkpoint(PASSIVE)")

        try:
            await asyncio.to_thread(checkpoint)
        except sqlite3.Error as error:  # a later checkpoint will catch up
            log.warning("WAL checkpoint failed: %s", error)
        finally:
            self._checkpoint = None

    async def game(self, game_id: str) -> GameRow | None:
        async with self.session() as session:
            return await session.get(GameRow, game_id)

    async def actions(self, game_id: str) -> list[dict[str, Any]]:
        async with self.session() as session:
            rows = await session.exec(select(ActionRow).where(ActionRow.game_id == game_id)
                                      .order_by(ActionRow.index))  # type: ignore[arg-type]
            return [json.loads(row.action) for row in rows]

    async def timed_out_actions(self, game_id: str) -> set[int]:
        """The indexes of the game's actions that a computer made because time ran out."""
        async with self.session() as session:
            rows = await session.exec(select(ActionRow.index).where(
                ActionRow.game_id == game_id, col(ActionRow.timed_out).is_(True)))
            return set(rows)

    async def due(self, now: datetime) -> list[tuple[str, str]]:
        """The games in play whose move ran out at ``now`` or before, earliest first (id
        and owner)."""
        async with self.session() as session:
            rows = await session.exec(select(GameRow.id, GameRow.owner).where(
                col(GameRow.deadline) <= now, col(GameRow.finished).is_(False),
                col(GameRow.abandoned).is_(False)).order_by(col(GameRow.deadline)))
            return [(game_id, owner) for game_id, owner in rows]

    async def clocked_computer_turns(self) -> list[tuple[str, str]]:
        """The games in play with a turn clock and no deadline: a computer is to act (id
        and owner)."""
        async with self.session() as session:
            rows = await session.exec(select(GameRow.id, GameRow.owner).where(
                col(GameRow.clock) > 0, col(GameRow.deadline).is_(None),
                col(GameRow.finished).is_(False), col(GameRow.abandoned).is_(False)))
            return [(game_id, owner) for game_id, owner in rows]

    async def next_deadline(self, now: datetime) -> datetime | None:
        """The earliest deadline after ``now`` of a game in play, if there is one."""
        async with self.session() as session:
            rows = await session.exec(select(GameRow.deadline).where(
                col(GameRow.deadline) > now, col(GameRow.finished).is_(False),
                col(GameRow.abandoned).is_(False)).order_by(col(GameRow.deadline)).limit(1))
            found = rows.first()
            return None if found is None else aware(found)

    async def current_local_game(self, owner: str, finished_too: bool = False
                                 ) -> GameRow | None:
        """The newest local game of this browser that was not abandoned (nor finished,
        unless ``finished_too``)."""
        query = select(GameRow).where(GameRow.owner == owner,
                                      GameRow.mode.in_(LOCAL_MODES),  # type: ignore[attr-defined]
                                      GameRow.abandoned == False)  # noqa: E712
        if not finished_too:
            query = query.where(GameRow.finished == False)  # noqa: E712
        async with self.session() as session:
            rows = await session.exec(
                query.order_by(GameRow.created_at.desc()))  # type: ignore[attr-defined]
            return rows.first()

    async def add_contribution(self, game_id: str, contributions: str, seed: int) -> bool:
        """Store a seat's contribution to the dice and the seed it leads to, only while the
        game has no action yet (the first roll fixes the dice); False if it has one."""
        async with self.write_session() as session:
            result = await session.exec(
                update(GameRow).where(col(GameRow.id) == game_id, col(GameRow.version) == 0)
                .values(contributions=contributions, seed=seed, updated_at=_now()))
            await session.commit()
            return bool(result.rowcount == 1)

    async def took_part(self, game_id: str, browser: str) -> None:
        """Remember that ``browser`` plays a seat of the game (once however often asked)."""
        async with self.session() as session:
            if await session.get(PlayerRow, (game_id, browser)) is not None:
                return
        # Two tabs of the browser may draw the game at once (a reload keeps the old page for
        # a few seconds): both may find no row.
        await self.add_once(PlayerRow(game_id=game_id, browser=browser))

    async def add_once(self, row: SQLModel) -> None:
        """Insert ``row`` unless a row with its key is there already, also one another
        transaction inserted meanwhile (``ON CONFLICT DO NOTHING``: on PostgreSQL, two that
        both found no row would otherwise both insert, and one would fail)."""
        insert_new = sqlite.insert if self._sqlite_path is not None else postgresql.insert
        async with self.write_session() as session:
            await session.exec(insert_new(type(row)).values(
                row.model_dump()).on_conflict_do_nothing())
            await session.commit()

    async def games_of(self, browser: str | None, limit: int = MY_GAMES_LIMIT
                       ) -> list[GameRow]:
        """The newest games ``browser`` played in (its local games and the seats it held
        online), or every game on the server for ``None`` (the host); abandoned local games
        that were never played are left out."""
        query = select(GameRow).where(
            or_(col(GameRow.abandoned).is_(False), col(GameRow.version) > 0))
        if browser is not None:
            joined = select(PlayerRow.game_id).where(PlayerRow.browser == browser)
            query = query.where(or_(col(GameRow.owner) == browser, col(GameRow.id).in_(joined)))
        async with self.session() as session:
            rows = await session.exec(
                query.order_by(GameRow.updated_at.desc()).limit(limit))  # type: ignore[attr-defined]
            return list(rows)

    @staticmethod
    async def _set_game(session: AsyncSession, game_id: str, **values: Any) -> None:
        """Set some columns of a game (if it exists) and its ``updated_at``."""
        row = await session.get(GameRow, game_id)
        if row is not None:
            for name, value in values.items():
                setattr(row, name, value)
            row.updated_at = _now()
            session.add(row)

    async def set_seats(self, game_id: str, columns: dict[str, Any]) -> None:
        """Who plays a local game's seats from now on, and their clock (``columns``: see
        ``Hub.seat_change``)."""
        async with self.write_session() as session:
            await self._set_game(session, game_id, **columns)
            await session.commit()

    async def save_room(self, row: RoomRow, game: GameRow | None = None,
                        seats_of: tuple[str, dict[str, Any]] | None = None) -> None:
        """Save a room; with ``game``, the new game it starts; with ``seats_of`` (game id,
        columns), the seats of its current game and their clock: one transaction either
        way."""
        async with self.write_session() as session:
            if game is not None:
                session.add(game)
            if seats_of is not None:
                await self._set_game(session, seats_of[0], **seats_of[1])
            await session.merge(row)
            await session.commit()

    async def room(self, code: str) -> RoomRow | None:
        async with self.session() as session:
            return await session.get(RoomRow, code)

    async def delete_room(self, code: str) -> None:
        """Delete a room that never got going (no games)."""
        async with self.write_session() as session:
            await session.exec(delete(RoomRow).where(col(RoomRow.code) == code))
            await session.commit()

    async def delete_rooms_before(self, cutoff: datetime) -> list[str]:
        """Delete rooms idle since before ``cutoff``, with their games and actions. A room's
        last action is its own row's or its game's, whichever is later (a move its turn clock
        made while nobody had the room open counts, though the room's row is not written).
        A tournament's tables are kept: the tournament's page and results name them."""
        recent = select(GameRow.id).where(col(GameRow.updated_at) >= cutoff)
        async with self.write_session() as session:
            rows = (await session.exec(select(RoomRow).where(
                col(RoomRow.last_action_at) < cutoff, col(RoomRow.tournament) == "",
                or_(col(RoomRow.game_id).is_(None),
                    col(RoomRow.game_id).not_in(recent))))).all()
            codes = [row.code for row in rows]
            for code in codes:
                owner = room_key(code)
                games = (await session.exec(select(GameRow.id).where(
                    GameRow.owner == owner))).all()
                if games:
                    for table in (ActionRow, PlayerRow):
                        await session.exec(delete(table).where(
                            col(table.game_id).in_(games)))
                    await session.exec(delete(GameRow).where(col(GameRow.owner) == owner))
                await session.exec(delete(RoomRow).where(col(RoomRow.code) == code))
            await session.commit()
            return codes

    def quick_problem(self) -> str | None:
        """What is known to be wrong without writing: a replaced file, or the newest write
        failed."""
        try:
            self.check_file()
        except StoreUnavailable as error:
            return str(error)
        return self.write_error

    async def problem(self) -> str | None:
        """Why the database cannot take this server's writes now, or None when it can: the
        file is still the one opened, the newest write did not fail, and a real write (the
        health row) succeeds."""
        try:
            async with self.write_session() as session:
                await session.merge(HealthRow(id=1, checked_at=_now()))
                await session.commit()
        except Exception as error:  # any driver or file error is the answer itself
            return _reason(error)
        return None


def _reason(error: BaseException) -> str:
    """A one-line description of a database error, for logs, pages and /health."""
    text = str(error).strip().splitlines()
    return text[0][:200] if text else type(error).__name__
