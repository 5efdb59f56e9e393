"""The task that plays a live game's computer seats, paced so people can follow.

One task per live game. It uses the same action path as a person (``LiveGame.act``), waits
while a human must act, and pauses while nobody is there (``LiveGame.present``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from .ai import decide
from .state import IllegalAction, Phase
from .tables import LiveGame

log = logging.getLogger(__name__)

Sleep = Callable[[float], Awaitable[None]]


def ensure_runner(game: LiveGame, pace: float, sleep: Sleep = asyncio.sleep) -> None:
    """Start the game's computer task unless it is already running."""
    if game.runner is None or game.runner.done():
        game.runner = asyncio.create_task(play_computers(game, pace, sleep),
                                          name=f"computers-{game.id}")


async def play_computers(game: LiveGame, pace: float, sleep: Sleep = asyncio.sleep) -> None:
    """Play every computer turn of ``game`` until it ends or is abandoned."""
    while not game.over and not game.abandoned:
        game.changed.clear()
        if game.seat_to_act().is_human or not game.present():
            await game.changed.wait()
            continue
        version = game.version
        await sleep(pace)
        if game.version != version or game.abandoned or not game.present():
            continue
        seat = game.seat_to_act()
        decision = decide(game.state, seat.level)
        try:
            for k, action in enumerate(decision.actions):
                if k:
                    await sleep(pace)
                    if game.abandoned:
                        return
                await game.act(action, version=game.version, computer=True)
        except IllegalAction:
            # Only this task acts for computers, so this means the game changed under us
            # (abandoned, or reloaded): decide again from the current state.
            log.warning("computer move in game %s was refused; deciding again", game.id)
        if game.state.phase is Phase.OVER:
            return
