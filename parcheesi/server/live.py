"""Live games: one object per game in memory with its seats, version, lock and listeners.

Every action goes through :meth:`LiveGame.act`: check the seat and the version the sender
saw, ask the engine, persist the action and the new state in one transaction, and only then
update the in-memory state and tell the listeners. A listener that fails never blocks the
others. A refusal (:class:`Refused`) carries words fit for a player; a write that failed
(:class:`SaveFailed`) changed nothing and may be tried again.

A game started with a turn clock (``parcheesi.server.clocks``) also keeps the deadline of the move
to make and each seat's timeouts in a row, stored with the action that set them; an action
``timed_out`` is a computer's move for a person whose deadline passed.

The :class:`Hub` holds one live object per game however many pages load it at once, and lets
go of games nobody has looked at for a while (they load again on demand).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from ..core.events import TimedOut
from ..core.registry import DEFAULT_GAME, AnyRules, plays, rules_for
from ..core.rules import Action, Event, State
from ..core.state import IllegalAction
from . import fairness
from .loading import SingleFlight
from .shards import Alone, Elsewhere, Ownership, Shard
from .store import (
    LOCAL_MODES,
    SAME_DEVICE,
    SOLO,
    Clocked,
    GameRow,
    Store,
    VersionConflict,
    aware,
    house_of,
    house_text,
)

log = logging.getLogger(__name__)

HUMAN = "human"
COMPUTER = "computer"
NAME_LENGTH = 24
"""Characters a player's name may have."""
MODES = LOCAL_MODES
"""Local game modes; online games (mode ``ONLINE``) belong to a room."""
IDLE_BEFORE_UNLOAD = 300.0
"""Seconds a game with no page holding it stays in memory before the hub lets it go."""
STALE = "That was already played."
"""The refusal of an action made against a position that is no longer current."""
NOT_POSSIBLE = "That move is not possible now."
"""An action the rules do not allow, in a player's words (the engine's are for the log)."""
NOTHING_TO_UNDO = "There is no move of yours in this roll to take back."

Clock = Callable[[], float]
"""Monotonic seconds (absences, idleness, attempt windows)."""
WallClock = Callable[[], datetime]
"""The time of day in UTC (turn-clock deadlines, which are stored and outlive a restart)."""


def utc_now() -> datetime:
    return datetime.now(UTC)


def roll_replaced(rules: AnyRules, before: State, after: State) -> bool:
    """Whether the action from ``before`` to ``after`` rolled and the next action rolls again
    (an opening roll, a roll nothing could use): its dice are replaced by the next roll's."""
    return rules.rolls(after) > rules.rolls(before) and rules.rolling(after)


def same_move(rules: AnyRules, mover: int, after: State) -> bool:
    """Whether the position ``after`` an action of ``mover`` is still within that seat's
    move (a roll and the moves of that roll), as a turn clock counts moves."""
    return rules.turn(after) == mover and not rules.rolling(after)


class Refused(IllegalAction):
    """An action the live game turned down, in words fit to show a player; nothing changed.
    ``detail`` keeps the engine's own reason, for the log."""

    def __init__(self, message: str, detail: str = "") -> None:
        super().__init__(message)
        self.detail = detail


class SaveFailed(RuntimeError):
    """A legal action that could not be written to the database. Nothing changed, in memory
    or stored, so trying again is safe."""

    def __init__(self, reason: str) -> None:
        super().__init__("Saving failed. Please try again.")
        self.reason = reason


@dataclass(frozen=True)
class Seat:
    colour: int
    kind: str
    level: str = "medium"
    name: str = ""
    person: str = ""
    """The person the seat's results count for (``people``; "": a guest, or for a
    computer seat, that level's computer)."""

    @property
    def is_human(self) -> bool:
        return self.kind == HUMAN

    def display_name(self, colours: Sequence[str]) -> str:
        """The player's name, or the seat's colour (of the game's ``colours``)."""
        return self.name or colours[self.colour].title()

    def description(self, colours: Sequence[str]) -> str:
        """Who plays the seat, for the turn line: "Ann (Ruby)", "Amber, hard computer"."""
        colour = colours[self.colour].title()
        if not self.is_human:
            return f"{colour}, {self.level} computer"
        return f"{self.name} ({colour})" if self.name else colour


class SetupError(ValueError):
    """Seats that do not make a valid game; the message says why."""


def check_seats(mode: str, seats: list[Seat], kind: str = DEFAULT_GAME,
                house: tuple[str, ...] = ()) -> list[Seat]:
    """Validate a seat list of game ``kind`` with house rules ``house`` for ``mode`` and
    return it in turn order."""
    if mode not in MODES:
        raise SetupError(f"unknown mode {mode!r}")
    if not plays(kind):
        raise SetupError(f"unknown game {kind!r}")
    rules = rules_for(kind)
    try:
        rules.check_colours(tuple(s.colour for s in seats))
        rules.new_state(tuple(s.colour for s in seats), house)
    except ValueError as error:
        raise SetupError(str(error)) from None
    for seat in seats:
        _check_seat(seat, rules.table_levels)
    humans = sum(1 for s in seats if s.is_human)
    if mode == SOLO and humans != 1:
        raise SetupError("a solo game has exactly one human and 1-3 computers")
    return sorted(seats, key=lambda s: s.colour)


def _check_seat(seat: Seat, levels: tuple[str, ...]) -> None:
    """One seat: a human or a computer of one of the game's ``levels``, a name not too
    long."""
    if seat.kind not in (HUMAN, COMPUTER):
        raise SetupError(f"a seat is a human or a computer, not {seat.kind!r}")
    if seat.kind == COMPUTER and seat.level not in levels:
        raise SetupError(f"computers are {', '.join(levels[:-1])} or "
                         f"{levels[-1]}, not {seat.level!r}")
    if len(seat.name) > NAME_LENGTH:
        raise SetupError(f"names are at most {NAME_LENGTH} characters")


RECENT_EVENTS = 200
"""Events a live game keeps for its tables' move log (a few turns' worth)."""


@dataclass
class Stats:
    """What a game's record says beyond its position: per colour, captures made and pieces
    lost (the winner screen), and the latest events (the move log). Rebuilt from the record
    when a game is loaded, so every tab, a reload and a restart show the same."""

    rules: AnyRules
    captures: dict[int, int] = field(default_factory=dict)
    lost: dict[int, int] = field(default_factory=dict)
    recent: deque[Event] = field(default_factory=lambda: deque(maxlen=RECENT_EVENTS))

    def copy(self) -> Stats:
        """These statistics as they are now, kept apart from what happens next (Undo)."""
        return Stats(self.rules, dict(self.captures), dict(self.lost),
                     deque(self.recent, maxlen=RECENT_EVENTS))

    def record(self, events: list[Event]) -> None:
        self.recent.extend(events)
        for by, victim in self.rules.captures(events):
            self.captures[by] = self.captures.get(by, 0) + 1
            self.lost[victim] = self.lost.get(victim, 0) + 1


@dataclass(frozen=True)
class TakeBack:
    """Where Undo returns to: the position, statistics and deadline before a move."""

    state: State
    stats: Stats
    deadline: datetime | None


Listener = Callable[["LiveGame", list[Event]], None]
"""Told of every accepted action (``[]``: the game changed otherwise, e.g. a fault)."""


class LiveGame:
    """A game being played: the single place where its state changes."""

    def __init__(self, row: GameRow, state: State, store: Store, stats: Stats,
                 clock: Clock = time.monotonic, wall: WallClock = utc_now) -> None:
        self.rules = rules_for(row.kind)
        """What the game's engine says; the only way this object learns a rule."""
        self.kind = row.kind
        self.house = house_of(row.house)
        """The house rules it is played by."""
        self.id = row.id
        self.owner = row.owner
        self.mode = row.mode
        self.seed = row.seed
        self.commitment = row.commitment
        """The SHA-256 of the dice secret, which the game's details show from the start."""
        self.contributions: dict[str, str] = json.loads(row.contributions)
        """What the players' browsers added to the dice (colour name -> hex)."""
        self.seats = {s.colour: s for s in seats_of(row)}
        self.state = state
        self.played = row.version
        """Actions in the game's record (``GameRow.version``)."""
        self.undos = row.undos
        """Moves taken back so far (``GameRow.undos``)."""
        self.takebacks: list[TakeBack] = []
        """Before each move the table's one person made in the current roll, newest last:
        what Undo returns to. Any other action empties it (a roll is never taken back), and
        a game loaded from the database starts with none."""
        self.store = store
        self.stats = stats
        self.dice = self.rules.dice(row.seed)
        self.lock = asyncio.Lock()
        self.listeners: list[Listener] = []
        """Open views of this game; while there are none, computers wait."""
        self.watchers: list[Listener] = []
        """Bookkeeping callbacks (rooms) told of every action; they do not count as views."""
        self._presence: Callable[[], bool] | None = None
        self.changed = asyncio.Event()
        """Set on every accepted action and on every (un)subscription: wakes the runner."""
        self.abandoned = False
        self.runner: asyncio.Task[None] | None = None
        self.holders = 0
        """Pages built on this object (connected or not): while any is, it stays loaded."""
        self.fault: str | None = None
        """What keeps the game from going on (a write that keeps failing), for the tables."""
        self.motion_ms = 0
        """How long the tables take to show the latest action's moves."""
        self.roll_to_read = False
        """Whether the latest action was a roll the next one replaces on the dice (an opening
        roll, a roll nothing could use): the tables should show it long enough to read."""
        self.clock = clock
        self.touched = clock()
        """When a page or an action last used this game (for unloading idle games)."""
        self.wall = wall
        self.turn_clock = row.clock
        """Seconds a human seat has for each move (0: no clock)."""
        self.stand_in = row.stand_in
        """The computer level that moves for a human seat whose time ran out."""
        self.deadline = None if row.deadline is None else aware(row.deadline)
        """When the move to make now runs out (None: no clock, or a computer is to act)."""
        self.timeouts: dict[int, int] = {int(c): n for c, n in json.loads(row.timeouts).items()}
        """Per seat, the moves in a row a computer made because the seat's time ran out."""
        self.finishing: int | None = None
        """The version at which a computer that timed out still has the rest of the same
        roll to play for the same seat (its decision's later actions)."""
        self.on_deadline: Callable[[datetime], None] | None = None
        """Told of every new deadline (the hub's clock watch, to wake in time)."""
        self.on_finish: Callable[[LiveGame], None] | None = None
        """Told once the game ends (the hub's, for the ratings)."""
        self._chances: tuple[int, dict[int, float] | None] | None = None

    @property
    def version(self) -> int:
        """The number of the position now, what an action must be made against: an action
        adds one, and so does an undo (an action takes ``played`` one up, an undo one down
        and ``undos`` one up), so a position never has the number of an earlier one."""
        return self.played + 2 * self.undos

    @property
    def over(self) -> bool:
        return self.rules.over(self.state)

    @property
    def people(self) -> int:
        """How many seats people play."""
        return sum(s.is_human for s in self.seats.values())

    @property
    def one_person(self) -> bool:
        """Whether the game is a local table of one person and computers (where a move may
        be taken back: nobody else saw it as final)."""
        return self.mode in MODES and self.people == 1

    @property
    def shared_by_people(self) -> bool:
        """Whether several people play on one screen (they pass the phone between turns)."""
        return self.mode == SAME_DEVICE and self.people > 1

    def can_undo(self) -> bool:
        """Whether the one person may take back their last move now: a move of the current
        roll, nobody acted since (a computer waits its pace first), the game not over."""
        return bool(self.takebacks) and self.one_person and not self.over

    @property
    def turn(self) -> int:
        """The colour to act now."""
        return self.rules.turn(self.state)

    def seat_to_act(self) -> Seat:
        return self.seats[self.turn]

    def due(self) -> bool:
        """Whether the human seat to act ran out of time (its move is a computer's now)."""
        return (self.deadline is not None and not self.over and self.seat_to_act().is_human
                and self.wall() >= self.deadline)

    def win_chances(self) -> dict[int, float] | None:
        """Each playing colour's chance to win now, by the game's learned evaluation (None:
        the game has none). Worked out once per version, however many pages show it."""
        if self._chances is None or self._chances[0] != self.version:
            found = self.rules.win_chances([self.state])
            self._chances = (self.version, None if found is None else found[0])
        return self._chances[1]

    def timed_out_in_a_row(self, colour: int) -> int:
        return self.timeouts.get(colour, 0)

    def name_of(self, colour: int) -> str:
        """The seat's player, or its colour, for messages."""
        return self.seats[colour].display_name(self.rules.colours)

    def subscribe(self, listener: Listener) -> None:
        self.listeners.append(listener)
        self._touch()

    def unsubscribe(self, listener: Listener) -> None:
        if listener in self.listeners:
            self.listeners.remove(listener)
        self._touch()

    def watch(self, watcher: Listener, presence: Callable[[], bool] | None = None) -> None:
        """Tell ``watcher`` (the game's room) of every action, before the views; with
        ``presence``, the room also says whether a person is there (see :meth:`present`).
        A game has one watcher: a new one replaces the last."""
        self.watchers[:] = [watcher]
        self._presence = presence

    def unwatch(self) -> None:
        self.watchers.clear()
        self._presence = None

    def present(self) -> bool:
        """Whether a person is there to watch: computers wait while nobody is. A view open
        counts, unless the game's watcher says who counts (a room: one of its players
        connected). A game with a turn clock never waits for anyone (``clocks``)."""
        if self.turn_clock:
            return True
        if self._presence is not None:
            return self._presence()
        return bool(self.listeners)

    def hold(self) -> None:
        """A page was built on this object: keep it loaded until :meth:`release`."""
        self.holders += 1
        self._touch()

    def release(self) -> None:
        self.holders = max(0, self.holders - 1)
        self._touch()

    def idle_for(self) -> float:
        """Seconds since anything used this game, or 0 while a page holds or views it."""
        if self.holders or self.listeners:
            return 0.0
        return self.clock() - self.touched

    def _touch(self) -> None:
        self.touched = self.clock()
        self.changed.set()

    def set_fault(self, fault: str | None) -> None:
        """Tell the tables what keeps the game from going on (None: nothing any more)."""
        if fault != self.fault:
            self.fault = fault
            self.notify([])

    async def act(self, action: Action, *, version: int, computer: bool = False,
                  colour: int | None = None, timed_out: bool = False) -> list[Event]:
        """Apply ``action`` made against ``version`` (the version its sender saw).

        Raises :class:`Refused` (nothing changed) when that version is not the current one,
        for a computer's seat, for a seat (``colour``) whose turn it is not, after the game
        ended or against the rules; :class:`SaveFailed` when it could not be stored.
        ``timed_out``: a computer's action for the human seat to act, taken only once that
        seat's deadline has passed (or to finish the roll such an action began).
        """
        try:
            events = await self._act(action, version, computer, colour, timed_out)
        except Refused as error:
            log.info("action rejected", extra={"game": self.id, "reason": str(error),
                                               "detail": error.detail})
            raise
        if self.over:
            winner = self.rules.winner(self.state)
            log.info("game finished", extra={
                "game": self.id, "mode": self.mode,
                "winner": None if winner is None else self.rules.colours[winner]})
            if self.on_finish is not None:
                self.on_finish(self)
        self.fault = None
        self.notify(events)
        return events

    async def contribute(self, colour: int, value: str) -> bool:
        """Add a human seat's browser randomness to the dice (``fairness``): once per seat,
        only before the first roll, and only for a game with a commitment. Returns whether
        it was taken; anything else is ignored, changing nothing."""
        name = self.rules.colours[colour] if 0 <= colour < len(self.rules.colours) else ""
        seat = self.seats.get(colour)
        if (seat is None or not seat.is_human or not self.commitment
                or not fairness.is_hex(value, fairness.CONTRIBUTION_BYTES)):
            return False
        async with self.lock:
            if self.version != 0 or name in self.contributions:
                return False
            row = await self.store.game(self.id)
            if row is None or not row.secret:
                return False
            added = {**self.contributions, name: value}
            seed = fairness.dice_seed(row.secret, added)
            if not await self.store.add_contribution(self.id, json.dumps(added), seed):
                return False
            self.contributions, self.seed, self.dice = added, seed, self.rules.dice(seed)
        return True

    def notify(self, events: list[Event]) -> None:
        """Tell the watchers and the open views (a failing one never stops the others)."""
        for listener in [*self.watchers, *self.listeners]:
            try:
                listener(self, events)
            except Exception:  # a broken client must not stop the game for the others
                log.exception("listener failed", extra={"game": self.id})

    async def _act(self, action: Action, version: int, computer: bool,
                   colour: int | None, timed_out: bool) -> list[Event]:
        async with self.lock:
            before = self.deadline
            self._check(version, computer, colour)
            if timed_out:
                self._check_timed_out()
            mover = self.turn
            try:
                new, events = self.rules.apply(self.state, action, self.dice)
            except IllegalAction as error:
                raise Refused(NOT_POSSIBLE, str(error)) from None
            started = timed_out and self.finishing != self.version
            timeouts = self._timeouts_after(mover, computer, timed_out, started)
            deadline = self._deadline_after(new, mover)
            await self._save(action, new, Clocked(
                deadline, json.dumps({str(c): n for c, n in timeouts.items()}), timed_out))
            # Within a move a computer began for a timed-out seat (the roll itself or one
            # of its moves), it may play the rest.
            mid_move = same_move(self.rules, mover, new)
            rolled_over = roll_replaced(self.rules, self.state, new)
            self._keep_takeback(not computer and not timed_out, events, before)
            self.state = new
            self.played += 1
            self.timeouts, self.deadline = timeouts, deadline
            self.finishing = self.version if timed_out and mid_move else None
            if started:
                events = [TimedOut(mover), *events]
            self.stats.record(events)
            self.motion_ms = self.rules.motion_ms(self.rules.motions(events))
            self.roll_to_read = rolled_over
            self._touch()
        if deadline is not None and deadline != before and self.on_deadline is not None:
            self.on_deadline(deadline)
        return events

    async def _save(self, action: Action, new: State, clocked: Clocked) -> None:
        """Commit the action and the position it leads to, before anyone is told of it.

        Raises :class:`Refused` when the database is ahead of this object (it catches up
        first), :class:`SaveFailed` when nothing could be kept."""
        try:
            await self.store.append_action(
                self.id, self.played, self.rules.action_to_json(action),
                self.rules.state_to_json(new), self.rules.over(new), clocked, self.undos)
        except VersionConflict:
            await self._reload()
            raise Refused(STALE) from None
        except Exception as error:  # any driver or file error: nothing was kept
            log.warning("saving an action failed", extra={"game": self.id,
                                                          "reason": str(error)})
            raise SaveFailed(str(error)) from error

    def _keep_takeback(self, by_person: bool, events: list[Event],
                       deadline: datetime | None) -> None:
        """Before the state moves on: keep what Undo returns to when the action is a move
        of the table's one person (it moved a piece, and was no roll), else forget it all."""
        if (by_person and self.one_person and not self.rules.rolling(self.state)
                and self.rules.motions(events)):
            self.takebacks.append(TakeBack(self.state, self.stats.copy(), deadline))
        else:
            self.takebacks.clear()

    async def undo(self, *, version: int) -> None:
        """Take back the one person's last move of the current roll (never the roll), made
        against ``version``: the record loses it and the position, statistics and deadline
        go back to before it, in one write; the tables are told.

        Raises :class:`Refused` (nothing changed) for another version or when there is no
        such move (:meth:`can_undo`), :class:`SaveFailed` when it could not be stored.
        """
        async with self.lock:
            if type(version) is not int or version != self.version:
                raise Refused(STALE)
            if not self.can_undo():
                raise Refused(NOTHING_TO_UNDO)
            back = self.takebacks[-1]
            deadline = back.deadline
            if deadline is not None and deadline <= self.wall():
                deadline = self.fresh_deadline()
            try:
                taken = await self.store.take_back(
                    self.id, self.played, self.undos, self.rules.state_to_json(back.state),
                    deadline)
            except Exception as error:  # any driver or file error: nothing was changed
                log.warning("taking a move back failed", extra={"game": self.id,
                                                                "reason": str(error)})
                raise SaveFailed(str(error)) from error
            if not taken:  # the database is ahead of this object
                await self._reload()
                raise Refused(STALE)
            self.takebacks.pop()
            self.state, self.stats, self.deadline = back.state, back.stats, deadline
            self.played -= 1
            self.undos += 1
            self.finishing, self._chances = None, None
            self.motion_ms, self.roll_to_read = 0, False
            self._touch()
        log.info("move taken back", extra={"game": self.id, "version": self.version})
        if deadline is not None and self.on_deadline is not None:
            self.on_deadline(deadline)
        self.fault = None
        self.notify([])

    def _check_timed_out(self) -> None:
        """Refuse a computer's action for a person whose time has not run out."""
        if not self.seat_to_act().is_human:
            raise Refused("Only a person's move can time out.")
        if self.finishing != self.version and not self.due():
            raise Refused("There is time left for this move.")

    def _timeouts_after(self, mover: int, computer: bool, timed_out: bool, started: bool
                        ) -> dict[int, int]:
        """The seats' timeouts in a row after the mover's action: one more for a move a
        computer made when time ran out, none for the seat's own action."""
        timeouts = dict(self.timeouts)
        if started:
            timeouts[mover] = timeouts.get(mover, 0) + 1
        elif not timed_out and not computer:
            timeouts.pop(mover, None)
        return timeouts

    def _deadline_after(self, state: State, mover: int) -> datetime | None:
        """When the next move runs out, when a person is to make it (else none). A move is
        a roll and the moves of that roll: after the roll and between its moves the same
        deadline stands (while it has not passed); a new roll (doubles, a new turn) gets
        the clock's whole length from now."""
        if (not self.turn_clock or self.rules.over(state)
                or not self.seats[self.rules.turn(state)].is_human):
            return None
        if (self.deadline is not None and same_move(self.rules, mover, state)
                and self.deadline > self.wall()):
            return self.deadline
        return self.fresh_deadline()

    def fresh_deadline(self) -> datetime | None:
        """The clock's whole length from now (None: no clock)."""
        return self.wall() + timedelta(seconds=self.turn_clock) if self.turn_clock else None

    def _check(self, version: int, computer: bool, colour: int | None) -> None:
        """Refuse an action that is not for the current position and seat."""
        if type(version) is not int or version != self.version:
            raise Refused(STALE)
        if self.over:
            raise Refused("The game is over.")
        if colour is not None and colour != self.turn:
            raise Refused(f"It is {self.name_of(self.turn)}'s turn, not yours.")
        if self.seat_to_act().is_human == computer:
            who = "a computer" if computer else "a person"
            raise Refused(f"{self.rules.colours[self.turn].title()} is not played by {who}.")

    async def _reload(self) -> None:
        """Take the stored record as the truth (another writer extended it)."""
        row = await self.store.game(self.id)
        if row is None:
            return
        state, stats = await load_record(self.store, row)
        self.state, self.stats = state, stats
        self.played, self.undos, self.takebacks = row.version, row.undos, []
        self.contributions, self.seed = json.loads(row.contributions), row.seed
        self.deadline = None if row.deadline is None else aware(row.deadline)
        self.timeouts = {int(c): n for c, n in json.loads(row.timeouts).items()}
        self.finishing = None
        self.dice = self.rules.dice(row.seed)
        log.warning("game reloaded from the database", extra={"game": self.id,
                                                              "version": row.version})
        self.notify([])


class Seating(Protocol):
    """Whom a table acts for: a shared screen or a solo player's device (every human seat),
    or one seat of an online room. The table asks it, never the game, whether the person in
    front of it may act, and sends actions through it."""

    @property
    def game(self) -> LiveGame: ...

    @property
    def view_colour(self) -> int | None:
        """The colour the board turns to by default (None: Ruby's side)."""

    def may_act(self) -> bool:
        """Whether the person at this table may act now."""

    async def act(self, action: Action, version: int) -> list[Event]:
        """Play ``action`` made against ``version`` (raises like :meth:`LiveGame.act`)."""


@dataclass(frozen=True)
class LocalSeating:
    """Every human seat of a game played on this device."""

    game: LiveGame
    view_colour: int | None = None

    def may_act(self) -> bool:
        return not self.game.over and self.game.seat_to_act().is_human

    async def act(self, action: Action, version: int) -> list[Event]:
        return await self.game.act(action, version=version)


async def load_record(store: Store, row: GameRow) -> tuple[State, Stats]:
    """A stored game's state and statistics, rebuilt from its record (the stored snapshot
    must agree with it; the record wins if not)."""
    rules = rules_for(row.kind)
    actions = [rules.action_from_json(raw) for raw in await store.actions(row.id)]
    timed_out = await store.timed_out_actions(row.id) if row.clock else set()
    state, dice, stats = first_state(row), rules.dice(row.seed), Stats(rules)
    finishing = False
    for k, action in enumerate(actions):
        mover = rules.turn(state)
        state, events = rules.apply(state, action, dice)
        if k in timed_out and not finishing:  # as the live game told it (``TimedOut``)
            events = [TimedOut(mover), *events]
        finishing = k in timed_out and same_move(rules, mover, state)
        stats.record(events)
    if state != rules.state_from_json(json.loads(row.state)):
        log.error("game %s: stored snapshot differs from its record; using the record", row.id)
    return state, stats


def first_state(row: GameRow) -> State:
    """The position a stored game began at."""
    rules = rules_for(row.kind)
    if row.start:
        return rules.state_from_json(json.loads(row.start))
    return rules.new_state(tuple(s.colour for s in seats_of(row)), house_of(row.house))


def next_opening(last: GameRow, seats: list[Seat], house: tuple[str, ...]) -> State:
    """The first position of the game that follows ``last`` at the same table (Play again, a
    room's next game): its opening roll begins with the seat after the one that began
    ``last``'s, so the honour goes round."""
    rules = rules_for(last.kind)
    order = rules.check_colours(tuple(sorted(s.colour for s in seats)))
    began = rules.turn(first_state(last))
    first = order[(order.index(began) + 1) % len(order)] if began in order else order[0]
    return rules.new_state(order, house, first)


def seats_of(row: GameRow) -> list[Seat]:
    """A stored game's seats, in turn order."""
    return sorted((Seat(**raw) for raw in json.loads(row.seats)), key=lambda s: s.colour)


class Hub:
    """All live games of this server process, loaded from the store on demand: one object
    per game, however many pages ask for it at once."""

    def __init__(self, store: Store, clock: Clock = time.monotonic,
                 wall: WallClock = utc_now) -> None:
        self.store = store
        self.clock = clock
        self.wall = wall
        """The time of day the games' deadlines are set and checked by."""
        self.on_deadline: Callable[[datetime], None] | None = None
        """Told of every deadline a game sets (the clock watch)."""
        self.on_finish: Callable[[LiveGame], None] | None = None
        """Told of every game that ends (the ratings)."""
        self.games: dict[str, LiveGame] = {}
        self._loading: SingleFlight[LiveGame | None] = SingleFlight("game")
        self.shard = Shard()
        """This process's place among the shards (:mod:`.shards`): which keys it owns..."""
        self.owners: Ownership = Alone()
        """...and the locks that keep each of them live in this process only."""

    async def hold(self, key: str) -> None:
        """Make sure owner key ``key`` (a room's, or a browser's local games') is this
        process's to have live: Elsewhere if another shard owns it or holds its lock."""
        if not self.shard.owns(key) or not await self.owners.take(key):
            raise Elsewhere(key, self.shard.owner(key))

    def mine(self, owner: str) -> bool:
        """Whether games of owner key ``owner`` belong to this shard."""
        return self.shard.owns(owner)

    async def create_local(self, owner: str, mode: str, seats: list[Seat],
                           kind: str = DEFAULT_GAME, house: tuple[str, ...] = (),
                           start: State | None = None) -> LiveGame:
        """A new local game of ``kind`` with house rules ``house`` for this browser (from
        position ``start``, if given); its previous local game is abandoned (in the same
        transaction)."""
        ordered = check_seats(mode, seats, kind, house)
        await self.hold(owner)
        previous = await self.store.current_local_game(owner, finished_too=True)
        row, state = self.new_row(owner, mode, ordered, kind, house, start)
        await self.store.create_game(row, replacing=previous.id if previous else None)
        if previous is not None:
            self._forget(previous.id)
        return self.add(row, state)

    def new_row(self, owner: str, mode: str, seats: list[Seat], kind: str = DEFAULT_GAME,
                house: tuple[str, ...] = (), start: State | None = None, clock: int = 0,
                stand_in: str | None = None) -> tuple[GameRow, State]:
        """The row and first state of a new game of ``kind`` (not stored yet), with a fresh
        dice secret committed to; ``start``: a position to begin at other than the opening
        one (a game continued from a record); ``clock``: seconds a person has for each
        move (0: no clock), the first move's deadline set from now; ``stand_in``: the
        computer level that moves for a person whose time runs out (default: the game's
        ``default_level``)."""
        rules = rules_for(kind)
        ordered = sorted(seats, key=lambda s: s.colour)
        state = start if start is not None else rules.new_state(
            tuple(s.colour for s in ordered), house)
        secret = fairness.new_secret()
        row = GameRow(id=uuid.uuid4().hex, owner=owner, mode=mode, kind=kind,
                      house=house_text(house),
                      seats=json.dumps([asdict(s) for s in ordered]),
                      seed=fairness.dice_seed(secret, {}), secret=secret,
                      commitment=fairness.commitment(secret),
                      start="" if start is None else json.dumps(rules.state_to_json(start)),
                      state=json.dumps(rules.state_to_json(state)), clock=clock,
                      stand_in=stand_in or rules.default_level)
        first = next(s for s in ordered if s.colour == rules.turn(state))
        if clock and first.is_human and not rules.over(state):
            row.deadline = self.wall() + timedelta(seconds=clock)
        return row, state

    def add(self, row: GameRow, state: State) -> LiveGame:
        """The live object of a game just stored."""
        game = LiveGame(row, state, self.store, Stats(rules_for(row.kind)), self.clock,
                        self.wall)
        return self._keep(game)

    def _keep(self, game: LiveGame) -> LiveGame:
        game.on_deadline = self._deadline_set
        game.on_finish = self.on_finish
        self.games[game.id] = game
        if game.deadline is not None:
            self._deadline_set(game.deadline)
        return game

    def _deadline_set(self, deadline: datetime) -> None:
        if self.on_deadline is not None:
            self.on_deadline(deadline)

    async def local_game(self, owner: str, finished_too: bool = False) -> LiveGame | None:
        """This browser's current local game (unfinished, unless ``finished_too``)."""
        row = await self.store.current_local_game(owner, finished_too)
        if row is None:
            return None
        return await self.get(row.id)

    async def get(self, game_id: str) -> LiveGame | None:
        """The live game, loading it once even when many pages ask at the same moment."""
        game = self.games.get(game_id)
        if game is not None:
            return game
        return await self._loading.load(game_id, self._load)

    async def _load(self, game_id: str) -> LiveGame | None:
        row = await self.store.game(game_id)
        if row is None or row.abandoned:
            return None
        await self.hold(row.owner)
        if not plays(row.kind):  # written by a newer version of the server
            log.error("game %s is of an unknown kind %r; it is not loaded", row.id, row.kind)
            return None
        state, stats = await load_record(self.store, row)
        return self._keep(LiveGame(row, state, self.store, stats, self.clock, self.wall))

    async def switch_seat(self, game: LiveGame, colour: int, human: bool) -> Seat:
        """A local table's seat is played by a person, or by a computer, from now on (in the
        middle of a game, as a room's seat can be handed over): stored, then shown. The
        computer plays at the seat's last level, or the game's default one."""
        if game.mode not in MODES:
            raise SetupError("A room's seats change in the room.")
        if game.over:
            raise SetupError("The game is over.")
        old = game.seats[colour]
        level = old.level if old.level in game.rules.table_levels else game.rules.default_level
        seat = Seat(colour, HUMAN if human else COMPUTER, level, old.name, old.person)
        columns = self.seat_change(game, seat)
        await self.store.set_seats(game.id, columns)
        self.seat_changed(game, seat, columns)
        return seat

    def seat_changed(self, game: LiveGame, seat: Seat, columns: dict[str, Any]) -> None:
        """Who plays a seat changed (stored by the caller: ``columns``, from
        :meth:`seat_change`)."""
        game.seats[seat.colour] = seat
        game.timeouts.pop(seat.colour, None)
        if game.turn == seat.colour:
            game.deadline, game.finishing = columns["deadline"], None
            if game.deadline is not None:
                self._deadline_set(game.deadline)
        game.changed.set()
        game.notify([])

    def seat_change(self, game: LiveGame, seat: Seat) -> dict[str, Any]:
        """The game's columns as stored with ``seat`` in place of its colour's: the seats,
        and the turn clock (no deadline for a computer to act, the clock's whole length for
        a person taking the seat to act, no timeouts for a new player)."""
        seats = {**game.seats, seat.colour: seat}
        timeouts = {str(c): n for c, n in game.timeouts.items() if c != seat.colour}
        deadline = game.deadline
        if game.turn == seat.colour and not game.over:  # a computer has none, a person all
            deadline = game.fresh_deadline() if seat.is_human else None
        return {"seats": json.dumps([asdict(s) for s in sorted(seats.values(),
                                                                key=lambda s: s.colour)]),
                "timeouts": json.dumps(timeouts), "deadline": deadline}

    def _forget(self, game_id: str) -> None:
        game = self.games.pop(game_id, None)
        if game is not None:
            game.abandoned = True
            game.changed.set()

    def unload_idle(self, idle: float = IDLE_BEFORE_UNLOAD) -> list[str]:
        """Let go of games no page has held or viewed for ``idle`` seconds and whose
        computers are not mid-move; they load again from the database when asked for."""
        gone = [g.id for g in self.games.values()
                if g.idle_for() >= idle and not g.lock.locked()]
        for game_id in gone:
            game = self.games.pop(game_id)
            if game.runner is not None:
                game.runner.cancel()
        return gone
