"""Faults that must never lose an action or freeze a game: writes that fail, a database
locked by another program, a database file deleted or replaced under the running server,
a computers' task that hits a bug.

The live game and its computers run over a real SQLite store; failures are injected at the
store (as a full disk or a read-only file system shows itself) or made for real (another
connection holding the lock, the file removed). Pauses between retries go through an
injected sleep, so nothing here waits for a clock.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from parcheesi.core.actions import Roll
from parcheesi.games.parcheesi.turns import legal_actions
from parcheesi.server import store as store_module
from parcheesi.server.live import COMPUTER, HUMAN, Hub, LiveGame, SaveFailed, Seat
from parcheesi.server.runner import (
    LANDED,
    READ_ROLL,
    SAVING_FAILED,
    play_computers,
    supervise,
)
from parcheesi.server.store import Store

TIMEOUT = 10.0
PEOPLE = [Seat(colour=0, kind=HUMAN), Seat(colour=2, kind=HUMAN)]
COMPUTERS = [Seat(colour=0, kind=COMPUTER, level="easy"),
             Seat(colour=2, kind=COMPUTER, level="easy")]


@pytest.fixture
async def store(tmp_path: Path):
    opened = Store(f"sqlite+aiosqlite:///{tmp_path / 'faults.sqlite3'}")
    await opened.init()
    yield opened
    await opened.close()


def path_of(store: Store) -> Path:
    assert store._sqlite_path is not None
    return Path(store._sqlite_path)


def failing_writes(store: Store, times: int) -> list[int]:
    """Make the next ``times`` action writes fail as a full disk does; returns the list of
    attempts (one entry per write tried)."""
    original = store.append_action
    attempts: list[int] = []

    async def append(*args: Any) -> None:
        attempts.append(len(attempts))
        if len(attempts) <= times:
            store.write_error = "database or disk is full"
            raise sqlite3.OperationalError("database or disk is full")
        await original(*args)

    store.append_action = append  # type: ignore[method-assign]
    return attempts


async def stored_versions(store: Store, game: LiveGame) -> tuple[int, int]:
    row = await store.game(game.id)
    assert row is not None
    return row.version, len(await store.actions(game.id))


async def until(predicate: Callable[[], bool], what: str) -> None:
    async with asyncio.timeout(TIMEOUT):
        while not predicate():
            await asyncio.sleep(0.001)
    assert predicate(), what


# --- a person's action ---------------------------------------------------------------------


async def test_a_failed_write_changes_nothing_and_trying_again_works(store: Store) -> None:
    game = await Hub(store).create_local("browser", "same_device", PEOPLE)
    told: list[int] = []
    game.subscribe(lambda live, _: told.append(live.version))
    attempts = failing_writes(store, 1)
    with pytest.raises(SaveFailed, match=r"Saving failed\. Please try again\."):
        await game.act(Roll(), version=0)
    assert (game.version, told, await stored_versions(store, game)) == (0, [], (0, 0))
    assert await store.problem() is None  # the disk has room again: the check writes
    await game.act(Roll(), version=0)  # the same press again, against the same position
    assert (game.version, told, await stored_versions(store, game)) == (1, [1], (1, 1))
    assert len(attempts) == 2


async def test_a_write_that_failed_at_commit_does_not_block_the_next(store: Store,
                                                                     monkeypatch) -> None:
    """SQLite can refuse the COMMIT itself (a disk error); the open transaction is rolled
    back, so the next action can begin one."""
    game = await Hub(store).create_local("browser", "same_device", PEOPLE)
    await game.act(Roll(), version=0)
    real = store._connection()
    commits = {"failed": 0}

    class CommitFails:
        in_transaction = property(lambda self: real.in_transaction)

        def execute(self, sql: str, *args: Any) -> Any:
            if sql == "COMMIT" and not commits["failed"]:
                commits["failed"] += 1
                raise sqlite3.OperationalError("disk I/O error")
            return real.execute(sql, *args)

    monkeypatch.setattr(store, "_connection", lambda: CommitFails())
    with pytest.raises(SaveFailed):
        await game.act(Roll(), version=1)
    assert not real.in_transaction
    await game.act(Roll(), version=1)
    assert await stored_versions(store, game) == (2, 2)


# --- the computers ---------------------------------------------------------------------------


async def test_computers_wait_until_the_tables_have_shown_the_last_move(store: Store) -> None:
    """Before each action a computer waits the pace, or longer when the last action's moves
    take the board longer to show (and a moment more), so a capture's slide or a bonus walk is
    never cut off."""
    game = await Hub(store).create_local("browser", "same_device", COMPUTERS)
    game.subscribe(lambda *_: None)  # a table is open
    waits: list[tuple[float, int, bool]] = []

    async def sleep(seconds: float) -> None:
        waits.append((seconds, game.motion_ms, game.roll_to_read))
        await asyncio.sleep(0)

    runner = asyncio.create_task(play_computers(game, 0.2, sleep))
    await until(lambda: game.version >= 40, "forty computer actions")
    runner.cancel()
    for seconds, motion, read in waits:
        shown = max(0.2, motion / 1000 + LANDED) if motion else 0.2
        assert seconds == (max(shown, READ_ROLL) if read else shown)
    assert any(motion > 200 for _, motion, _ in waits), "some moves take longer than the pace"
    assert max(motion for _, motion, _ in waits) <= 1000
    # after the first opening roll (replaced by the next seat's) the dice stay to be read
    assert not waits[0][2] and waits[1][2] and waits[1][0] == READ_ROLL


async def test_a_roll_is_to_be_read_only_when_the_next_action_rolls_again(store: Store) -> None:
    """An opening roll, or a roll nothing can use, is replaced on the dice by the next roll:
    the computers wait :data:`READ_ROLL` after it; after a roll with moves to make they wait
    the pace (the dice stay shown while the pieces move)."""
    game = await Hub(store).create_local("browser", "solo", [Seat(0, HUMAN), COMPUTERS[1]])
    await game.act(Roll(), version=0)  # the person's opening roll: Sapphire rolls next
    assert game.roll_to_read and game.rules.rolling(game.state)
    while not (game.rules.turn(game.state) == 0 and not game.rules.rolling(game.state)):
        rolling = game.rules.turn(game.state) == 0
        action = Roll() if rolling else game.rules.decide(game.state, "medium").actions[0]
        await game.act(action, version=game.version, computer=not rolling)
        if not game.rules.rolling(game.state):  # a roll with moves to make
            assert not game.roll_to_read
    assert not game.roll_to_read


async def test_computers_retry_a_failing_write_say_so_and_carry_on(store: Store) -> None:
    game = await Hub(store).create_local("browser", "solo", [Seat(0, HUMAN), COMPUTERS[1]])
    game.subscribe(lambda *_: None)  # a table is open
    await game.act(Roll(), version=0)  # Ruby's opening roll: the computer's turn
    faults: list[str | None] = []
    game.subscribe(lambda live, events: faults.append(live.fault) if not events else None)
    pauses: list[float] = []

    async def sleep(seconds: float) -> None:
        pauses.append(seconds)
        await asyncio.sleep(0)

    attempts = failing_writes(store, 3)
    runner = asyncio.create_task(play_computers(game, 0.5, sleep))
    await until(lambda: game.version >= 2, "the computer's move after the database recovers")
    assert faults[0] == SAVING_FAILED and game.fault is None
    # Ruby's opening roll to read (the computer's replaces it), then the backoff
    assert len(attempts) >= 4 and pauses[:4] == [READ_ROLL, 0.25, 0.5, 1.0]
    assert not runner.done()
    runner.cancel()


async def test_the_computers_task_starts_again_after_an_unexpected_error(
        store: Store, monkeypatch) -> None:
    game = await Hub(store).create_local("browser", "solo", [Seat(0, HUMAN), COMPUTERS[1]])
    game.subscribe(lambda *_: None)
    await game.act(Roll(), version=0)
    broken = {"left": 2}
    real_decide = game.rules.decide

    def decide(state: Any, level: str, reason: bool = False) -> Any:
        if broken["left"]:
            broken["left"] -= 1
            raise RuntimeError("a bug in the computer player")
        return real_decide(state, level, reason)

    monkeypatch.setattr(game, "rules", replace(game.rules, decide=decide))

    async def sleep(_: float) -> None:
        await asyncio.sleep(0)

    task = asyncio.create_task(supervise(game, 0.1, sleep))
    await until(lambda: game.version >= 2, "the computer's move after the task restarted")
    assert broken["left"] == 0 and not task.done()
    task.cancel()


async def test_a_database_locked_by_another_program_delays_but_does_not_freeze(
        store: Store, monkeypatch) -> None:
    """Another process holds the write lock for longer than a write waits: the write fails,
    the computers retry, and the move is made once the lock is gone."""
    monkeypatch.setattr(store_module, "_LOCK_WAIT_S", 0.05)
    game = await Hub(store).create_local("browser", "solo", [Seat(0, HUMAN), COMPUTERS[1]])
    game.subscribe(lambda *_: None)
    await game.act(Roll(), version=0)
    other = sqlite3.connect(path_of(store), isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    failures: list[str | None] = []
    released = asyncio.Event()

    async def sleep(_: float) -> None:
        failures.append(game.fault)
        if game.fault is not None and not released.is_set():
            other.execute("COMMIT")  # the maintenance shell lets go after the first failure
            released.set()
        await asyncio.sleep(0)

    runner = asyncio.create_task(play_computers(game, 0, sleep))
    await until(lambda: game.version >= 2, "the computer's move after the lock")
    assert SAVING_FAILED in failures and game.fault is None
    other.close()
    runner.cancel()


# --- the database file ----------------------------------------------------------------------


@pytest.mark.parametrize("change", ["deleted", "replaced"])
async def test_a_database_file_deleted_or_replaced_refuses_writes_and_says_so(
        store: Store, tmp_path: Path, change: str) -> None:
    game = await Hub(store).create_local("browser", "same_device", PEOPLE)
    await game.act(Roll(), version=0)
    assert await store.problem() is None and store.quick_problem() is None
    path = path_of(store)
    if change == "deleted":
        path.unlink()
    else:
        copy = tmp_path / "other.sqlite3"
        copy.write_bytes(path.read_bytes())
        os.replace(copy, path)
    with pytest.raises(SaveFailed):
        await game.act(legal_actions(game.state)[0], version=1)
    assert game.version == 1
    problem = store.quick_problem()
    assert problem is not None and "deleted or replaced" in problem
    assert await store.problem() == problem

