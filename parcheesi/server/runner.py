"""The task that plays a live game's computer seats, paced so people can follow.

One task per live game. It uses the same action path as a person (``LiveGame.act``), waits
while a human must act, and pauses while nobody is there (``LiveGame.present``).

Nothing may stop it for good: a computer's move that cannot be saved is tried again with a
growing pause (the tables say "Saving failed, retrying" meanwhile), and should the task ever
end with an unexpected error it is started again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from ..core.state import IllegalAction
from .live import LiveGame, SaveFailed

log = logging.getLogger(__name__)

Sleep = Callable[[float], Awaitable[None]]
RETRY_FIRST = 0.25
RETRY_MAX = 2.0
"""Pauses between attempts to save a computer's move: doubling from the first to the
largest, so play resumes within about two seconds of the database taking writes again."""
SAVING_FAILED = "Saving failed, retrying…"
LANDED = 0.2
"""Seconds after the last action's animation before the next action: the update that starts
the animation reaches a table a little later than the server sent it (the next one may come
sooner), and a piece that lands is seen standing there for a moment before anything else
moves."""


def ensure_runner(game: LiveGame, pace: float, sleep: Sleep = asyncio.sleep) -> None:
    """Start the game's computer task unless it is already running."""
    if game.runner is None or game.runner.done():
        game.runner = asyncio.get_running_loop().create_task(
            supervise(game, pace, sleep), name=f"computers-{game.id}")


READ_ROLL = 1.5
"""Seconds a roll stays on the dice before the next roll replaces it (an opening roll, a
roll nothing could use): long enough to read whose roll it was and what it was."""


def paced(game: LiveGame, pace: float) -> float:
    """Seconds before a computer's next action: the pace, and at least until the tables have
    shown the last action's moves (a capture's slide, a bonus walk) and a moment more
    (:data:`LANDED`), so none is cut off, or the last roll long enough to read
    (:data:`READ_ROLL`) when the next action rolls again. With no pace (tests, benchmarks)
    the computers do not wait."""
    if pace <= 0:
        return 0.0
    wait = max(pace, game.motion_ms / 1000 + LANDED) if game.motion_ms else pace
    return max(wait, READ_ROLL) if game.roll_to_read else wait


async def supervise(game: LiveGame, pace: float, sleep: Sleep = asyncio.sleep) -> None:
    """Run :func:`play_computers` until the game ends; start it again after any error."""
    pause = RETRY_FIRST
    while True:
        try:
            await play_computers(game, pace, sleep)
            return
        except asyncio.CancelledError:
            raise
        except Exception:  # a bug must not freeze the game: log it and carry on
            log.exception("the computers' task failed; starting it again",
                          extra={"game": game.id})
            await sleep(pause)
            pause = min(RETRY_MAX, pause * 2)


async def play_computers(game: LiveGame, pace: float, sleep: Sleep = asyncio.sleep) -> None:
    """Play every computer turn of ``game`` until it ends or is abandoned."""
    failures = 0
    while not game.over and not game.abandoned:
        game.changed.clear()
        if game.seat_to_act().is_human or not game.present():
            await game.changed.wait()
            continue
        version = game.version
        await sleep(paced(game, pace) if not failures
                    else min(RETRY_MAX, RETRY_FIRST * 2 ** (failures - 1)))
        if game.version != version or game.abandoned or not game.present():
            continue
        try:
            await _play_turn(game, version, pace, sleep)
        except SaveFailed as error:
            failures += 1
            log.warning("a computer's move could not be saved; retrying",
                        extra={"game": game.id, "attempt": failures, "reason": error.reason})
            game.set_fault(SAVING_FAILED)
            continue
        failures = 0


async def _play_turn(game: LiveGame, version: int, pace: float, sleep: Sleep) -> None:
    """Decide from the position at ``version`` and play the decision's actions, each against
    the version the previous one produced."""
    # In a worker thread: Expert searches for up to a quarter of a second, and every other
    # table on the server is served by this event loop meanwhile.
    decision = await asyncio.to_thread(game.rules.decide, game.state, game.seat_to_act().level)
    if game.version != version:  # the game moved on while the computer thought
        return
    try:
        for k, action in enumerate(decision.actions):
            if k:
                await sleep(paced(game, pace))
                if game.abandoned:
                    return
            await game.act(action, version=version + k, computer=True)
    except IllegalAction:
        # Only this task acts for computers, so the game changed under it (abandoned, or
        # reloaded from the database): decide again from the current position.
        log.warning("computer move in game %s was refused; deciding again", game.id)
