"""Turn clocks: how long a person has for each move in an online room, and what happens
when the time runs out.

A room's clock (chosen at setup: off, 30 seconds, 2 minutes, 1 hour or 1 day a move) is
copied to its games when they start. While a human seat is to act, its game holds the
*deadline* of that move (the time of day, UTC), stored with the action that made it the
move to make, so a restart neither loses nor repeats it (``LiveGame._act``). Every action a
person makes starts the clock again for the next person to act; a computer seat has no
clock.

A *move* is a roll and the moves of that roll: the deadline set when a person is to roll
stands until that roll is played out (doubles give a new roll, and a new deadline). When a
deadline passes, a computer of the room's stand-in level (chosen by the host, by default
the game's ``default_level``) makes what is left of that move for the seat, through
``LiveGame.act`` against the version it saw: a person's move that got there first makes it
stale, and of two tasks racing the same deadline only one is stored. The seat stays its
player's; after :data:`TIMEOUTS_BEFORE_REPLACE` such moves in a row the host may hand it to
a computer for good (``Rooms.replaceable``).

One :class:`ClockWatch` per server plays the moves that ran out: at start the ones that ran
out while the server was down (once each, earliest first), then each as its time comes,
woken by every new deadline and looking in the database at least every
:data:`CHECK_EVERY` seconds (the games need not be in memory).

A room with a clock never waits for anyone to be there: nobody need keep a page open in a
"day a move" room. Its computers play whether or not a player is connected
(``LiveGame.present``), started by the watch when a timed-out move hands them the turn,
and at start for every such game left on a computer's turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime

from .live import Hub, LiveGame, Refused, SaveFailed

log = logging.getLogger(__name__)

TURN_CLOCKS: dict[int, str] = {0: "Off", 30: "30 seconds", 120: "2 minutes",
                               3600: "1 hour", 86400: "1 day"}
"""The clocks a room may have: seconds a move (0: no clock) and their names."""
TIMEOUTS_BEFORE_REPLACE = 3
"""Timed-out moves in a row after which the host may replace a seat's player."""
CHECK_EVERY = 15.0
"""Seconds at most between two looks at the stored deadlines."""

__all__ = ["CHECK_EVERY", "TIMEOUTS_BEFORE_REPLACE", "TURN_CLOCKS", "UNKNOWN_CLOCK",
           "ClockWatch", "clock_words", "play_if_due"]

_NAMES = [name.lower() for name in TURN_CLOCKS.values()]
UNKNOWN_CLOCK = f"A turn clock is {', '.join(_NAMES[:-1])} or {_NAMES[-1]}."
"""The refusal of a clock that is not one of :data:`TURN_CLOCKS`."""


def clock_words(seconds: int) -> str:
    """A clock as the lobby and the table say it: "2 minutes a move", or "no turn clock"."""
    if not seconds:
        return "no turn clock"
    return f"{TURN_CLOCKS.get(seconds, f'{seconds} seconds')} a move"


Pause = Callable[[LiveGame], Awaitable[None]]
"""Waits between the actions of one decision, so the tables show each move."""


async def no_pause(_: LiveGame) -> None:
    return None


async def play_if_due(game: LiveGame, pause: Pause = no_pause) -> bool:
    """If the human seat to act ran out of time, let a computer play what is left of its
    move: the roll and then the roll's moves, each action against the version the one
    before made, with ``pause`` between. Returns whether it did; False when there is time
    left, a person moved first or another task played it."""
    version = game.version
    if not game.due():
        return False
    played = False
    while not game.over and (game.due() or game.finishing == version):
        decision = await asyncio.to_thread(game.rules.decide, game.state, game.stand_in)
        if game.version != version:  # a person moved while the stand-in thought
            return played
        actions = decision.actions
        if not actions:  # nothing to decide (no engine leaves a seat so, but never spin)
            break
        for action in actions:
            if played:
                await pause(game)
            try:
                await game.act(action, version=version, timed_out=True)
            except Refused:  # stale: someone else moved first (a person, or another task)
                return played
            played = True
            version += 1
    return played


class ClockWatch:
    """The server's one task that plays the moves whose time ran out, in any game."""

    def __init__(self, hub: Hub, pause: Pause = no_pause,
                 computers: Callable[[LiveGame], None] = lambda _: None) -> None:
        self.hub = hub
        self.pause = pause
        """Between the actions of one decision (the computers' pace, on a server)."""
        self.computers = computers
        """Starts a game's computers (its runner) when they are to act with no page open."""
        self.wake = asyncio.Event()
        self.next_at: datetime | None = None
        """The deadline the watch sleeps until (None: none known)."""
        hub.on_deadline = self.scheduled

    def scheduled(self, deadline: datetime) -> None:
        """A game set a deadline: wake the watch if it would sleep past it."""
        if self.next_at is None or deadline < self.next_at:
            self.wake.set()

    async def expire_due(self) -> int:
        """Play every move that ran out (earliest first); returns how many were played."""
        played = 0
        for game_id, owner in await self.hub.store.due(self.hub.wall()):
            if not self.hub.mine(owner):  # another shard's game: its own watch plays it
                continue
            game = await self.hub.get(game_id)
            if game is None:
                continue
            try:
                played += await play_if_due(game, self.pause)
            except SaveFailed as error:  # the next round tries again
                log.warning("a timed-out move could not be saved",
                            extra={"game": game_id, "reason": error.reason})
            self._computers_on(game)
        return played

    async def resume_computers(self) -> int:
        """Start the computers of every clocked game left on a computer's turn (at start:
        nobody may open a page in a slow room for a day); returns how many."""
        started = 0
        for game_id, owner in await self.hub.store.clocked_computer_turns():
            if not self.hub.mine(owner):
                continue
            game = await self.hub.get(game_id)
            if game is not None:
                started += self._computers_on(game)
        return started

    def _computers_on(self, game: LiveGame) -> bool:
        """Start the game's computers if one of them is to act now."""
        if game.over or game.seat_to_act().is_human:
            return False
        self.computers(game)
        return True

    async def wait(self) -> float:
        """Seconds until the next stored deadline (at most :data:`CHECK_EVERY`)."""
        now = self.hub.wall()
        self.next_at = await self.hub.store.next_deadline(now)
        if self.next_at is None:
            return CHECK_EVERY
        return min(CHECK_EVERY, max(0.0, (self.next_at - now).total_seconds()))

    async def run(self) -> None:
        """Forever: play what ran out, then sleep until the next deadline or a new one."""
        try:
            await self.resume_computers()
        except Exception:  # a database down at start: the games go on once it is back
            log.exception("the clocked games' computers could not be started")
        while True:
            self.wake.clear()
            try:
                await self.expire_due()
                pause = await self.wait()
            except Exception:  # a database that is down now may be back at the next round
                log.exception("the turn clocks' watch failed")
                pause = CHECK_EVERY
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(pause):
                    await self.wake.wait()
