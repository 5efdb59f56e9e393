"""Live games: one object per game in memory with its seats, version, lock and listeners.

Every action goes through :meth:`LiveGame.act`: check the seat and the version, ask the
engine, persist the action and the new state in one transaction, and only then update the
in-memory state and tell the listeners. A listener that fails never blocks the others.
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from .board import COLOUR_INDEX, COLOURS
from .dice import new_seed, seeded
from .game import Action, Captured, Event, Game, apply
from .notation import action_from_json, action_to_json, state_from_json, state_to_json
from .state import IllegalAction, Phase, State, new_state, validate_colours
from .store import GameRow, Store, VersionConflict

log = logging.getLogger(__name__)

HUMAN = "human"
COMPUTER = "computer"
LEVELS = ("easy", "medium", "hard")
MODES = ("same_device", "solo")
"""Local game modes; online games (mode ``online``) belong to a room."""


@dataclass(frozen=True)
class Seat:
    colour: int
    kind: str
    level: str = "medium"
    name: str = ""

    @property
    def is_human(self) -> bool:
        return self.kind == HUMAN

    def display_name(self) -> str:
        return self.name or COLOURS[self.colour].title()

    def description(self) -> str:
        """Who plays the seat, for the turn line: "Ann (Ruby)", "Amber, hard computer"."""
        colour = COLOURS[self.colour].title()
        if not self.is_human:
            return f"{colour}, {self.level} computer"
        return f"{self.name} ({colour})" if self.name else colour


class SetupError(ValueError):
    """Seats that do not make a valid game; the message says why."""


def check_seats(mode: str, seats: list[Seat]) -> list[Seat]:
    """Validate a seat list for ``mode`` and return it in turn order."""
    if mode not in MODES:
        raise SetupError(f"unknown mode {mode!r}")
    try:
        validate_colours(tuple(s.colour for s in seats))
    except ValueError as error:
        raise SetupError(str(error)) from None
    for seat in seats:
        if seat.kind not in (HUMAN, COMPUTER):
            raise SetupError(f"a seat is a human or a computer, not {seat.kind!r}")
        if seat.kind == COMPUTER and seat.level not in LEVELS:
            raise SetupError(f"computers are easy, medium or hard, not {seat.level!r}")
        if len(seat.name) > 24:
            raise SetupError("names are at most 24 characters")
    humans = sum(1 for s in seats if s.is_human)
    if mode == "solo" and humans != 1:
        raise SetupError("a solo game has exactly one human and 1-3 computers")
    return sorted(seats, key=lambda s: s.colour)


@dataclass
class Stats:
    """Per colour: captures made and pieces lost, for the winner screen."""

    captures: dict[int, int] = field(default_factory=dict)
    lost: dict[int, int] = field(default_factory=dict)

    def record(self, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, Captured):
                self.captures[event.by_colour] = self.captures.get(event.by_colour, 0) + 1
                self.lost[event.colour] = self.lost.get(event.colour, 0) + 1


Listener = Callable[["LiveGame", list[Event]], None]


class LiveGame:
    """A game being played: the single place where its state changes."""

    def __init__(self, row: GameRow, state: State, store: Store, stats: Stats) -> None:
        self.id = row.id
        self.owner = row.owner
        self.mode = row.mode
        self.seed = row.seed
        self.seats = {s.colour: s for s in (Seat(**raw) for raw in json.loads(row.seats))}
        self.state = state
        self.version = row.version
        self.store = store
        self.stats = stats
        self.dice = seeded(row.seed)
        self.lock = asyncio.Lock()
        self.listeners: list[Listener] = []
        """Open views of this game; while there are none, computers wait."""
        self.watchers: list[Listener] = []
        """Bookkeeping callbacks (rooms) told of every action; they do not count as views."""
        self.present: Callable[[], bool] = lambda: bool(self.listeners)
        """Whether a person is there to watch: computers wait while nobody is. A room
        replaces it with "a player of the room is connected"."""
        self.changed = asyncio.Event()
        """Set on every accepted action and on every (un)subscription: wakes the runner."""
        self.abandoned = False
        self.runner: asyncio.Task[None] | None = None

    @property
    def over(self) -> bool:
        return self.state.phase is Phase.OVER

    def seat_to_act(self) -> Seat:
        return self.seats[self.state.turn]

    def subscribe(self, listener: Listener) -> None:
        self.listeners.append(listener)
        self.changed.set()

    def unsubscribe(self, listener: Listener) -> None:
        if listener in self.listeners:
            self.listeners.remove(listener)
        self.changed.set()

    async def act(self, action: Action, *, version: int, computer: bool = False,
                  colour: int | None = None) -> list[Event]:
        """Apply ``action`` made against ``version``; raise IllegalAction (nothing changed)
        when it is stale, for a computer's seat, for a seat (``colour``) whose turn it is
        not, after the game ended or against the rules."""
        try:
            events = await self._act(action, version, computer, colour)
        except IllegalAction as error:
            log.info("action rejected", extra={"game": self.id, "reason": str(error)})
            raise
        if self.over:
            log.info("game finished", extra={"game": self.id, "mode": self.mode,
                                             "winner": COLOURS[self.state.winner or 0]})
        for listener in [*self.watchers, *self.listeners]:
            try:
                listener(self, events)
            except Exception:  # a broken client must not stop the game for the others
                log.exception("listener failed", extra={"game": self.id})
        return events

    async def _act(self, action: Action, version: int, computer: bool,
                   colour: int | None) -> list[Event]:
        async with self.lock:
            if version != self.version:
                raise IllegalAction("The game has moved on; that action was for an older "
                                    "position.")
            if self.over:
                raise IllegalAction("The game is over.")
            if colour is not None and colour != self.state.turn:
                raise IllegalAction(f"It is {self.seat_to_act().display_name()}'s turn, "
                                    "not yours.")
            if self.seat_to_act().is_human == computer:
                who = "a computer" if computer else "a person"
                raise IllegalAction(f"{COLOURS[self.state.turn].title()} is not played by {who}")
            new, events = apply(self.state, action, self.dice)
            try:
                await self.store.append_action(self.id, self.version, action_to_json(action),
                                               state_to_json(new), new.phase is Phase.OVER)
            except VersionConflict as error:
                raise IllegalAction(str(error)) from None
            self.state = new
            self.version += 1
            self.stats.record(events)
            self.changed.set()
        return events


class Hub:
    """All live games of this server process, loaded from the store on demand."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.games: dict[str, LiveGame] = {}

    async def create_local(self, owner: str, mode: str, seats: list[Seat]) -> LiveGame:
        """A new local game for this browser; its previous local game is abandoned."""
        ordered = check_seats(mode, seats)
        previous = await self.store.current_local_game(owner, finished_too=True)
        if previous is not None:
            await self.abandon(previous.id)
        return await self.create_game(owner, mode, ordered)

    async def create_game(self, owner: str, mode: str, seats: list[Seat]) -> LiveGame:
        ordered = sorted(seats, key=lambda s: s.colour)
        state = new_state(tuple(s.colour for s in ordered))
        row = GameRow(id=uuid.uuid4().hex, owner=owner, mode=mode,
                      seats=json.dumps([asdict(s) for s in ordered]), seed=new_seed(),
                      state=json.dumps(state_to_json(state)))
        await self.store.create_game(row)
        game = LiveGame(row, state, self.store, Stats())
        self.games[row.id] = game
        return game

    async def local_game(self, owner: str, finished_too: bool = False) -> LiveGame | None:
        """This browser's current local game (unfinished, unless ``finished_too``)."""
        row = await self.store.current_local_game(owner, finished_too)
        if row is None:
            return None
        return await self.get(row.id)

    async def get(self, game_id: str) -> LiveGame | None:
        if game_id in self.games:
            return self.games[game_id]
        row = await self.store.game(game_id)
        if row is None:
            return None
        actions = [action_from_json(raw) for raw in await self.store.actions(game_id)]
        # Rebuild from the record (the stored snapshot must agree) to recover the stats.
        replay = Game([COLOUR_INDEX[name] for name in
                       json.loads(row.state)["colours"]], row.seed)
        stats = Stats()
        for action in actions:
            stats.record(replay.play(action))
        if replay.state != state_from_json(json.loads(row.state)):
            log.error("game %s: stored snapshot differs from its record; using the record",
                      game_id)
        game = LiveGame(row, replay.state, self.store, stats)
        self.games[game_id] = game
        return game

    async def set_seat(self, game: LiveGame, seat: Seat) -> None:
        """Change who plays a seat (an absent person replaced by a computer)."""
        game.seats[seat.colour] = seat
        await self.store.update_seats(game.id, json.dumps([asdict(s) for s in
                                                          game.seats.values()]))
        game.changed.set()

    async def abandon(self, game_id: str) -> None:
        await self.store.abandon(game_id)
        game = self.games.pop(game_id, None)
        if game is not None:
            game.abandoned = True
            game.changed.set()
