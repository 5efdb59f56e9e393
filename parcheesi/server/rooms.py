"""Online private rooms: codes, seat tokens, ready/start, replacement of absent players, expiry.

A room is a lobby and then a game. The host creates it with seat rows (the first row is the
host's own seat); guests claim *unoccupied* human seats with the room code. Claiming gives
the browser a random seat token (256 bits) that the server keeps only as a SHA-256 hash; the
token is the only thing that authorises acting for a seat. Wrong codes are counted per
browser, and per address by the browsers guessing from it, so codes cannot be enumerated
while one browser's typos never shut another out (:class:`GuessLimiter`).

What a room says about its game is kept true across crashes by deriving it from the game
when the room is loaded: a room whose game was won is finished, whatever its own row said.
One live object per room exists however many pages ask for it at once, and rooms nobody is
in leave memory after a few minutes.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any

from ..core.registry import DEFAULT_GAME, rules_for
from ..core.rules import Action, Event
from .clocks import TIMEOUTS_BEFORE_REPLACE, TURN_CLOCKS, UNKNOWN_CLOCK
from .live import (
    COMPUTER,
    HUMAN,
    IDLE_BEFORE_UNLOAD,
    NAME_LENGTH,
    Clock,
    Hub,
    LiveGame,
    Refused,
    Seat,
    SetupError,
    check_seats,
    next_opening,
)
from .loading import SingleFlight
from .shards import Elsewhere, room_key
from .signals import Quiet, Signals
from .store import ONLINE, SAME_DEVICE, RoomRow, Store, house_of, house_text

log = logging.getLogger(__name__)

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Letters and digits that cannot be mistaken for each other (no I, O, 0, 1)."""
CODE_LENGTH = 8
ABSENT_BEFORE_REPLACE = 60.0
"""Seconds without a connection before the host may hand a seat to a computer."""
REPLACEABLE_AFTER = "been away for a minute, or their time ran out three moves in a row"
"""When the host may hand a player's seat to a computer, in words (:data:`ABSENT_BEFORE_REPLACE`
and :data:`~parcheesi.server.clocks.TIMEOUTS_BEFORE_REPLACE`): "a player who has ..."."""
EXPIRY = timedelta(days=30)
ACTIVITY_PRECISION = timedelta(minutes=1)
"""A room's last action time is written at most this often (it only decides expiry)."""
ATTEMPTS_PER_MINUTE = 20
"""Wrong room codes (and seat claims) one browser may try in a minute."""
GUESSING_BROWSERS_PER_ADDRESS = 5
"""Browsers of one address that may be guessing codes in a minute: a script making a new
browser for every try is stopped after this many, a family's other phones are not."""
UNKNOWN_ANSWERS_PER_MINUTE = 120
"""Answers in any minute, server-wide, that a code names no room. Past it, a code that names
no room is answered as too many attempts (a code that names one, and a seated player, are
answered as ever): however many addresses a guesser has (IPv6 gives millions), no more codes
than this are told apart from rooms in a minute by their answer."""
LIMITER_KEYS = 10_000
"""Counters kept at most (the oldest go first): guessing cannot fill the memory."""
REACTIONS: tuple[tuple[str, str], ...] = (
    ("👍", "thumbs up"), ("Nice capture!", "Nice capture!"), ("Oops", "Oops"),
    ("Well played", "Well played"), ("Hurry up", "Hurry up"), ("😂", "laughing"))
"""What a seated player may send to the room's tables and TV: (shown, the picker button's
name for a screen reader). A press sends only an index into this list, so nothing anyone
types ever reaches another screen."""
REACTION_GAP = 2.0
"""Seconds a seat waits between two reactions."""
REACTIONS_PER_MINUTE = 10
"""Reactions a seat may send in any minute."""

class RoomError(ValueError):
    """A refused room request; the message is safe to show."""


class Busy(RoomError):
    """The room is live in another server process (a shard restarting, or a request that
    reached the wrong one): it is not loaded here."""

    def __init__(self, code: str) -> None:
        super().__init__("This table is restarting or is served elsewhere just now. "
                         "This page tries again in a few seconds.")
        self.code = code


class SlowDown(RoomError):
    """A reaction sent too soon after the seat's last ones (the page says "Slow down")."""


@dataclass(frozen=True)
class Reaction:
    """One reaction a seated player sent, as every table and TV of the room shows it for a
    moment. Not stored: it means something only while people watch."""

    colour: int
    name: str
    """The sender's name (or their colour's, when they gave none)."""
    index: int
    """Which of :data:`REACTIONS`."""
    at: float
    """The rooms' clock when it was sent (the pages let it go a few seconds later)."""

    @property
    def text(self) -> str:
        """What the screens show, e.g. "Sam: Nice capture!"."""
        return f"{self.name}: {REACTIONS[self.index][0]}"


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(text: str) -> str:
    """Accept codes typed in lower case, with spaces or dashes."""
    return "".join(ch for ch in text.upper() if ch.isalnum())


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class RoomSeat:
    colour: int
    kind: str
    level: str = "medium"
    name: str = ""
    token_hash: str | None = None
    ready: bool = False
    replaced_hash: str | None = None
    """The token hash of the player the host gave this seat to a computer from (so that
    browser can be told why it only watches now)."""
    away: bool = False
    """Its player handed it to a computer for a while (the seat's token still holds it,
    so that browser may take it back)."""
    person: str = ""
    """The person of the browser that took the seat ("": a guest); a computer the host
    seated in a player's place plays for itself."""

    @property
    def claimed(self) -> bool:
        return self.token_hash is not None

    def seat(self) -> Seat:
        return Seat(colour=self.colour, kind=self.kind, level=self.level, name=self.name,
                    person=self.person)


class RoomStatus(StrEnum):
    """Where a room is: seats being taken, a game under way, or the game over."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"


@dataclass
class Room:
    code: str
    host: int
    """Colour of the host's seat."""
    seats: dict[int, RoomSeat]
    status: RoomStatus = RoomStatus.LOBBY
    kind: str = DEFAULT_GAME
    """The game its tables play."""
    house: tuple[str, ...] = ()
    """The house rules its tables play by."""
    clock: int = 0
    """Seconds a person has for each move (``clocks.TURN_CLOCKS``; 0: no clock)."""
    stand_in: str = ""
    """The computer level that moves for a player whose time ran out, or who handed their
    seat to a computer (:meth:`Rooms.create` sets it: by default the game's
    ``default_level``)."""
    game_id: str | None = None
    tournament: str = ""
    """The tournament whose table this is ("": none). Its seats are assigned, not claimed:
    a person's seat goes to their browser (:meth:`Rooms.take_assigned`); nobody hosts it;
    its computers play whether or not anyone watches."""
    created_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    last_action_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    connections: dict[int, int] = field(default_factory=dict)
    """Open tabs per seat colour (not stored)."""
    absent_since: dict[int, float] = field(default_factory=dict)
    """Clock time each human seat lost its last connection (not stored)."""
    listeners: list[Callable[[Room], None]] = field(default_factory=list)
    reaction_listeners: list[Callable[[Reaction], None]] = field(default_factory=list)
    """The pages that show the room's reactions (its tables and TVs; not stored)."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watched: LiveGame | None = None
    """The live game whose progress this room follows (not stored)."""
    touched: float = 0.0
    """Clock time a page or a player last used this room (not stored; for unloading)."""

    def in_use(self) -> bool:
        """Whether something holds the room in memory: a page, a player connected, a change
        being saved, or a tournament's game under way (its computers play with nobody
        there, watched by the room)."""
        return bool(self.listeners or self.reaction_listeners
                    or any(self.connections.values()) or self.lock.locked()
                    or (self.tournament and self.status == RoomStatus.PLAYING))

    def human_seats(self) -> list[RoomSeat]:
        return [s for s in self.seats.values() if s.kind == HUMAN]

    def waiting_for(self) -> list[RoomSeat]:
        """The invited seats the start waits for: not taken yet, or taken and not ready."""
        return [s for s in self.human_seats()
                if s.colour != self.host and not (s.claimed and s.ready)]

    def open_seats(self) -> list[RoomSeat]:
        return [s for s in self.human_seats() if not s.claimed]

    def can_start(self) -> bool:
        return self.status == RoomStatus.LOBBY and all(
            s.claimed and (s.ready or s.colour == self.host) for s in self.human_seats())

    def replaced_colour(self, token: str | None) -> int | None:
        """The seat this token held before the host gave it to a computer, or None."""
        return self._seat_of(token, lambda seat: seat.replaced_hash)

    def colour_of(self, token: str | None) -> int | None:
        """The seat this token holds, or None."""
        return self._seat_of(token, lambda seat: seat.token_hash)

    def _seat_of(self, token: str | None, stored: Callable[[RoomSeat], str | None]
                 ) -> int | None:
        """The seat whose ``stored`` hash is the token's (every seat is compared, in
        constant time, so the answer takes as long whichever seat it is)."""
        if not token:
            return None
        digest = token_hash(token)
        found = None
        for seat in self.seats.values():
            held = stored(seat)
            if held is not None and hmac.compare_digest(held, digest):
                found = seat.colour
        return found

    def to_row(self) -> RoomRow:
        return RoomRow(code=self.code, host=self.host, status=self.status, kind=self.kind,
                       house=house_text(self.house), clock=self.clock,
                       stand_in=self.stand_in, game_id=self.game_id,
                       seats=json.dumps([asdict(s) for s in self.seats.values()]),
                       tournament=self.tournament, created_at=self.created_at,
                       last_action_at=self.last_action_at)

    @classmethod
    def from_row(cls, row: RoomRow) -> Room:
        seats = {raw["colour"]: RoomSeat(**raw) for raw in json.loads(row.seats)}
        return cls(code=row.code, host=row.host, seats=seats, status=RoomStatus(row.status),
                   kind=row.kind, house=house_of(row.house), clock=row.clock,
                   stand_in=row.stand_in, game_id=row.game_id, tournament=row.tournament,
                   created_at=_aware(row.created_at),
                   last_action_at=_aware(row.last_action_at))


def _check_level(kind: str, level: str) -> None:
    levels = rules_for(kind).table_levels
    if level not in levels:
        raise RoomError(f"Computers are {', '.join(levels[:-1])} or {levels[-1]}.")


def _well_formed(code: str) -> bool:
    return len(code) == CODE_LENGTH and all(ch in ALPHABET for ch in code)


@dataclass(frozen=True)
class RoomSeating:
    """The seat of an online room that a browser's token held when its page was built
    (``colour`` None: a watcher, who may not act)."""

    rooms: Rooms
    room: Room
    token: str | None
    game: LiveGame
    colour: int | None

    @property
    def view_colour(self) -> int | None:
        return self.colour

    def may_act(self) -> bool:
        colour = self.colour
        game = self.game
        return (colour is not None and not game.over and game.turn == colour
                and game.seat_to_act().is_human)

    def away(self) -> frozenset[int]:
        """The seats whose players have no page of the room open now (the table says so
        instead of "is thinking")."""
        return self.rooms.away(self.room)

    async def act(self, action: Action, version: int) -> list[Event]:
        return await self.rooms.act(self.room, self.token, action, version)


def _listed_turn(game: LiveGame) -> tuple[int, bool, datetime | None]:
    """What a list of a room says of its game: whose turn, whether it is over, and when the
    turn runs out."""
    return game.turn, game.over, game.deadline


def expired(room: Room) -> bool:
    """Whether nobody played in the room for :data:`EXPIRY` (a tournament's table never
    expires: its tournament waits for it)."""
    return not room.tournament and datetime.now(UTC) - room.last_action_at > EXPIRY


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class RateLimiter:
    """At most ``limit`` attempts per key in any ``window`` seconds, with at most
    ``capacity`` keys remembered (counters expire with their window)."""

    def __init__(self, limit: int, window: float, clock: Clock,
                 capacity: int = LIMITER_KEYS) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self.capacity = capacity
        self.attempts: OrderedDict[str, deque[float]] = OrderedDict()

    def count(self, key: str) -> int:
        """Attempts of ``key`` within the window (forgetting older ones)."""
        recent = self.attempts.get(key)
        if recent is None:
            return 0
        cutoff = self.clock() - self.window
        while recent and recent[0] <= cutoff:
            recent.popleft()
        if not recent:
            del self.attempts[key]
            return 0
        return len(recent)

    def record(self, key: str) -> None:
        recent = self.attempts.get(key)
        if recent is None:
            recent = self.attempts[key] = deque(maxlen=self.limit)
        recent.append(self.clock())
        self.attempts.move_to_end(key)
        while len(self.attempts) > self.capacity:
            self.attempts.popitem(last=False)

    def check(self, key: str) -> None:
        """Refuse when ``key`` is over the limit; otherwise count this attempt."""
        if self.count(key) >= self.limit:
            raise RoomError(TOO_MANY)
        self.record(key)

    def sweep(self) -> None:
        """Drop every expired counter."""
        for key in list(self.attempts):
            self.count(key)


TOO_MANY = "Too many attempts. Please wait a minute and try again."


class GuessLimiter:
    """Wrong room codes: at most ``ATTEMPTS_PER_MINUTE`` per browser, and at most
    ``GUESSING_BROWSERS_PER_ADDRESS`` guessing browsers per address, in any minute; and at
    most ``UNKNOWN_ANSWERS_PER_MINUTE`` answers "no such room" in any minute server-wide.

    A browser is refused only for its own wrong codes, or when its address is full of
    guessing browsers; a browser that already guessed from that address keeps its own
    allowance."""

    def __init__(self, clock: Clock, capacity: int = LIMITER_KEYS) -> None:
        self._clock = clock
        self.capacity = capacity
        self.browsers = RateLimiter(ATTEMPTS_PER_MINUTE, 60.0, clock, capacity)
        self.unknown = RateLimiter(UNKNOWN_ANSWERS_PER_MINUTE, 60.0, clock, 1)
        """The server's answers that a code names no room (one key: the server)."""
        self.addresses: OrderedDict[str, OrderedDict[str, float]] = OrderedDict()
        """Per address: the browsers with wrong codes in the last minute, and when."""

    def ensure_allowed(self, browser: str, address: str) -> None:
        if self.browsers.count(browser) >= ATTEMPTS_PER_MINUTE:
            raise RoomError(TOO_MANY)
        guessing = self._guessing(address)
        if len(guessing) >= GUESSING_BROWSERS_PER_ADDRESS and browser not in guessing:
            raise RoomError(TOO_MANY)

    @property
    def clock(self) -> Clock:
        return self._clock

    @clock.setter
    def clock(self, clock: Clock) -> None:
        self._clock = self.browsers.clock = self.unknown.clock = clock

    def answer_unknown(self) -> None:
        """Count an answer that a code names no room; past the server's bound, refuse it
        as too many attempts instead (whoever asked)."""
        self.unknown.check("server")

    def wrong(self, browser: str, address: str) -> None:
        self.browsers.record(browser)
        guessing = self._guessing(address)
        guessing[browser] = self.clock()
        guessing.move_to_end(browser)
        self.addresses[address] = guessing
        self.addresses.move_to_end(address)
        while len(self.addresses) > self.capacity:
            self.addresses.popitem(last=False)

    def _guessing(self, address: str) -> OrderedDict[str, float]:
        guessing = self.addresses.get(address) or OrderedDict()
        cutoff = self.clock() - 60.0
        while guessing and next(iter(guessing.values())) <= cutoff:
            guessing.popitem(last=False)
        if not guessing:
            self.addresses.pop(address, None)
        return guessing

    def sweep(self) -> None:
        self.browsers.sweep()
        self.unknown.sweep()
        for address in list(self.addresses):
            self._guessing(address)

    def __len__(self) -> int:
        """Counters held (for the memory report)."""
        return len(self.browsers.attempts) + len(self.addresses) + len(self.unknown.attempts)


class Rooms:
    """Every room of this server; rooms are loaded from the store on demand."""

    def __init__(self, store: Store, hub: Hub, clock: Clock = time.monotonic) -> None:
        self.store = store
        self.hub = hub
        self._clock = clock
        self.rooms: dict[str, Room] = {}
        self.guesses = GuessLimiter(clock)
        self.claims = RateLimiter(ATTEMPTS_PER_MINUTE, 60.0, clock)
        self.reaction_gap = RateLimiter(1, REACTION_GAP, clock)
        self.reaction_minute = RateLimiter(REACTIONS_PER_MINUTE, 60.0, clock)
        """Reactions per seat token (by its hash): one every two seconds, ten a minute."""
        self._saving: set[asyncio.Task[None]] = set()
        self._loading: SingleFlight[Room | None] = SingleFlight("room")
        self.followers: dict[str, list[Callable[[str], None]]] = {}
        """Pages that list a room without showing it (a home page's "Your games"), by the
        room's code: told when what they list changes, on whichever shard the room is."""
        self.signals: Signals = Quiet()

    @property
    def clock(self) -> Clock:
        return self._clock

    @clock.setter
    def clock(self, clock: Clock) -> None:
        """One clock for absences, attempt windows and reactions (tests move it by hand)."""
        self._clock = clock
        self.guesses.clock = self.claims.clock = clock
        self.reaction_gap.clock = self.reaction_minute.clock = clock

    # --- finding rooms -------------------------------------------------------------------------

    async def find(self, text: str, browser: str, address: str, *, live: bool = True
                   ) -> Room:
        """The room with this code: live (Elsewhere when another shard owns it), or, unless
        ``live``, as it is now to read only (:meth:`look`). Wrong codes count against this
        browser and its address (:class:`GuessLimiter`); after too many, even right codes
        are refused for a while, so codes cannot be guessed. Opening a room one belongs to
        again and again costs nothing."""
        self.guesses.ensure_allowed(browser, address)
        code = normalise_code(text)
        room = await (self.get(code) if live else self.look(code))
        if room is None:
            self.guesses.wrong(browser, address)
            self.guesses.answer_unknown()
            if await self._expired_code(code):
                raise RoomError("That room has closed: nobody played in it for 30 days.")
            raise RoomError("There is no room with that code. Check the code and try again.")
        return room

    async def _expired_code(self, code: str) -> bool:
        """Whether ``code`` names a room that expired but is not deleted yet."""
        if not _well_formed(code):
            return False
        row = await self.store.room(code)
        return row is not None and expired(Room.from_row(row))

    async def get(self, code: str) -> Room | None:
        """The room, loading it once even when many pages ask at the same moment."""
        room = self.rooms.get(code)
        if room is None:
            if not _well_formed(code):
                return None
            room = await self._loading.load(code, self._load)
            if room is None:
                return None
        if expired(room):  # also while still held in memory, before the clean-up runs
            return None
        room.touched = self.clock()
        return room

    def owns(self, code: str) -> bool:
        """Whether room ``code`` belongs to this shard (:mod:`.shards`)."""
        return self.hub.mine(room_key(code))

    async def look(self, code: str) -> Room | None:
        """The room as it is now, to read only: the live one where this shard owns it, else
        as stored (another shard has it live; :class:`Elsewhere` is never raised)."""
        if self.owns(code):
            with contextlib.suppress(Busy):
                return await self.get(code)
        row = await self.store.room(code) if _well_formed(code) else None
        room = None if row is None else Room.from_row(row)
        return None if room is None or expired(room) else room

    async def _load(self, code: str) -> Room | None:
        """A room as stored, with what its game says: a room whose game was won (committed
        with the winning move) is finished, and its last activity is the game's. Elsewhere
        when it is another shard's."""
        row = await self.store.room(code)
        if row is None:
            return None
        try:
            await self.hub.hold(room_key(code))
        except Elsewhere:
            raise Busy(code) from None
        room = Room.from_row(row)
        if room.game_id:
            game = await self.store.game(room.game_id)
            if game is not None:
                room.last_action_at = max(room.last_action_at, _aware(game.updated_at))
                if room.status == RoomStatus.PLAYING and game.finished:
                    room.status = RoomStatus.FINISHED
        # Nobody is connected yet: every player is away from now on (for replacement).
        now = self.clock()
        room.absent_since = {s.colour: now for s in room.human_seats() if s.claimed}
        self.rooms[code] = room
        return room

    async def game(self, room: Room) -> LiveGame | None:
        """The room's current game, watched so the room follows its progress."""
        if not room.game_id:
            return None
        game = await self.hub.get(room.game_id)
        if game is not None and room.watched is not game:
            self._watch(room, game)
        return game

    # --- lobby ---------------------------------------------------------------------------------

    async def create(self, seats: list[Seat], kind: str = DEFAULT_GAME,
                     house: tuple[str, ...] = (), clock: int = 0,
                     stand_in: str | None = None) -> tuple[Room, str]:
        """A new room playing ``kind`` by the house rules ``house``, with a turn clock of
        ``clock`` seconds a move (0: none) and a computer of level ``stand_in`` (default: the
        game's ``default_level``) for a player whose time runs out; the first seat is the
        host's. Returns the room and the host's token. The room's code is drawn at random,
        so its owner may be another shard (live here only when this shard owns it): a
        browser's rooms spread over the shards as everyone's do, and the owner serves the
        room from its first visit."""
        if not seats or not seats[0].is_human:
            raise RoomError("The first seat is the host's own seat and must be a person.")
        if clock not in TURN_CLOCKS:
            raise RoomError(UNKNOWN_CLOCK)
        host = seats[0].colour
        try:
            check_seats(SAME_DEVICE, seats, kind, house)
        except SetupError as error:
            raise RoomError(str(error)) from None
        stand_in = stand_in or rules_for(kind).default_level
        _check_level(kind, stand_in)
        token = secrets.token_urlsafe(32)
        room_seats = {s.colour: RoomSeat(colour=s.colour, kind=s.kind, level=s.level,
                                         name=s.name, person=s.person if s.colour == host
                                         else "") for s in seats}
        room_seats[host].token_hash = token_hash(token)
        room_seats[host].ready = True
        code = await self._free_code()
        room = Room(code=code, host=host, seats=room_seats, kind=kind,
                    house=tuple(sorted(house)), clock=clock, stand_in=stand_in,
                    touched=self.clock())
        room.absent_since[host] = self.clock()
        mine = self.owns(code)
        if mine:
            await self.hub.hold(room_key(code))
        await self.store.save_room(room.to_row())
        if mine:
            self.rooms[code] = room
        log.info("room created", extra={"room": code, "seats": len(room_seats),
                                        "invited": len(room.human_seats()) - 1})
        return room, token

    async def _free_code(self) -> str:
        """A new room code, no room's yet."""
        for _ in range(10):
            code = new_code()
            if await self.store.room(code) is None:
                return code
        raise RoomError(  # pragma: no cover - 32^8 codes
            "Could not find a free room code; please try again.")

    async def discard(self, room: Room) -> None:
        """Take back a room whose making did not complete (nothing was played in it)."""
        self.rooms.pop(room.code, None)
        await self.store.delete_room(room.code)

    async def claim(self, room: Room, colour: int, name: str, *requesters: str,
                    person: str = "") -> str:
        """Claim an unoccupied human seat for ``person`` (the claiming browser's; "": a
        guest); returns the new seat token. Claims count against the browser (the first of
        ``requesters``)."""
        self.claims.check(requesters[0] if requesters else "")
        async with room.lock:
            seat = room.seats.get(colour)
            if room.status != RoomStatus.LOBBY:
                raise RoomError("The game has already started.")
            if seat is None or seat.kind != HUMAN:
                raise RoomError("That seat is not open to players.")
            if seat.claimed:
                raise RoomError("Someone has already taken that seat.")
            name = name.strip()[:NAME_LENGTH]
            token = secrets.token_urlsafe(32)
            seat.token_hash = token_hash(token)
            seat.name = name
            seat.person = person
            seat.ready = False
            room.absent_since[colour] = self.clock()
            await self._save(room)
        self._notify(room)
        return token

    async def set_ready(self, room: Room, token: str | None, ready: bool,
                        name: str | None = None) -> None:
        colour = self._require_seat(room, token)
        async with room.lock:
            if room.status != RoomStatus.LOBBY:
                raise RoomError("The game has already started.")
            seat = room.seats[colour]
            seat.ready = ready
            if name is not None:
                seat.name = name.strip()[:NAME_LENGTH]
            await self._save(room)
        self._notify(room)

    async def start(self, room: Room, token: str | None) -> LiveGame:
        """The host starts the game once every invited seat is taken and ready."""
        return await self._begin(room, token, RoomStatus.LOBBY)

    async def play_again(self, room: Room, token: str | None) -> LiveGame | None:
        """A finished room starts a new game with the same seats, the opening roll begun by
        the next seat in turn; when a player left the room, it opens its lobby again for the
        free seats instead (returning None)."""
        if room.status == RoomStatus.FINISHED and room.open_seats():
            await self._reopen(room, token)
            return None
        return await self._begin(room, token, RoomStatus.FINISHED)

    async def _reopen(self, room: Room, token: str | None) -> None:
        self._require_host(room, token)
        async with room.lock:
            if room.status != RoomStatus.FINISHED:
                raise RoomError("The current game is not finished yet.")
            room.status = RoomStatus.LOBBY
            try:
                await self._save(room)
            except Exception:
                room.status = RoomStatus.FINISHED
                raise
        self._notify(room)

    async def _begin(self, room: Room, token: str | None, status: RoomStatus) -> LiveGame:
        self._require_host(room, token)
        async with room.lock:
            if room.status != status:
                raise RoomError("The game has already started." if status == RoomStatus.LOBBY
                                else "The current game is not finished yet.")
            if not room.can_start() and status == RoomStatus.LOBBY:
                raise RoomError("Every invited seat must be taken and ready before the start.")
            seats = [s.seat() for s in room.seats.values()]
            row, state = self.hub.new_row(room_key(room.code), ONLINE, seats, room.kind,
                                          room.house, start=await self._opening(room, seats),
                                          clock=room.clock, stand_in=room.stand_in)
            before = (room.game_id, room.status, room.last_action_at)
            room.game_id, room.status = row.id, RoomStatus.PLAYING
            room.last_action_at = datetime.now(UTC)
            try:  # the game and the room that points at it, in one transaction
                await self.store.save_room(room.to_row(), game=row)
            except Exception:
                room.game_id, room.status, room.last_action_at = before
                raise
            game = self.hub.add(row, state)
        self._watch(room, game)
        self._notify(room)
        return game

    async def _opening(self, room: Room, seats: list[Seat]) -> Any:
        """The first position of the room's next game: after a game, the opening roll begins
        with the seat after the one that began the last game's (None: the room's first game,
        the usual opening position)."""
        last = await self.store.game(room.game_id) if room.game_id else None
        return None if last is None else next_opening(last, seats, room.house)

    # --- play ----------------------------------------------------------------------------------

    async def act(self, room: Room, token: str | None, action: Action,
                  version: int) -> list[Event]:
        """Play ``action`` for the seat the token holds (and only on that seat's turn)."""
        if self.rooms.get(room.code) is not room or expired(room):
            raise Refused("This room has expired (30 days without a move) and is closed.")
        colour = self._require_seat(room, token)
        game = await self.game(room)
        if game is None or room.status == RoomStatus.LOBBY:
            raise Refused("The game has not started yet.")
        return await game.act(action, version=version, colour=colour)

    def connect(self, room: Room, colour: int | None) -> None:
        if colour is None:
            return
        room.connections[colour] = room.connections.get(colour, 0) + 1
        room.absent_since.pop(colour, None)
        room.touched = self.clock()
        self._wake(room)
        self._notify(room, stored=False)

    def disconnect(self, room: Room, colour: int | None) -> None:
        if colour is None:
            return
        room.connections[colour] = max(0, room.connections.get(colour, 0) - 1)
        if not room.connections[colour]:
            room.absent_since[colour] = self.clock()
        room.touched = self.clock()
        self._wake(room)
        self._notify(room, stored=False)

    def _wake(self, room: Room) -> None:
        """Let the room's computers notice that a player came or went."""
        if room.watched is not None:
            room.watched.changed.set()

    def away(self, room: Room) -> frozenset[int]:
        """The human seats of a game under way whose players have no page of the room open
        (a phone asleep, a tab closed): their tables wait for them."""
        if room.status != RoomStatus.PLAYING:
            return frozenset()
        return frozenset(s.colour for s in room.human_seats()
                         if (s.claimed or s.person) and not room.connections.get(s.colour))

    def absent_for(self, room: Room, colour: int) -> float:
        """Seconds since the seat's last connection closed (0 while connected)."""
        since = room.absent_since.get(colour)
        if since is None or room.connections.get(colour):
            return 0.0
        return self.clock() - since

    def replaceable(self, room: Room) -> list[int]:
        """Human seats (not the host's) the host may replace now."""
        return list(self.replacements(room))

    def replacements(self, room: Room) -> dict[int, str]:
        """The human seats (not the host's) the host may replace now, each with why
        (:meth:`why_replaceable`)."""
        if room.status != RoomStatus.PLAYING:
            return {}
        reasons = {s.colour: self.why_replaceable(room, s.colour) for s in room.human_seats()
                   if s.colour != room.host}
        return {colour: why for colour, why in reasons.items() if why}

    def why_replaceable(self, room: Room, colour: int) -> str:
        """Why the host may replace a seat's player, in words ("away for 2 min"), or "" when
        the player is not away long enough (:data:`ABSENT_BEFORE_REPLACE`) and their time
        did not run out :data:`~parcheesi.server.clocks.TIMEOUTS_BEFORE_REPLACE` moves in a
        row (connected or not)."""
        away = self.absent_for(room, colour)
        if away >= ABSENT_BEFORE_REPLACE:
            return f"away for {int(away // 60)} min"
        game = room.watched
        if game is not None and game.id == room.game_id \
                and game.timed_out_in_a_row(colour) >= TIMEOUTS_BEFORE_REPLACE:
            return "time ran out three moves in a row"
        return ""

    async def replace(self, room: Room, token: str | None, colour: int, level: str) -> None:
        """The host hands an absent human's seat to a computer of ``level``."""
        self._require_host(room, token)
        _check_level(room.kind, level)
        if colour not in self.replaceable(room):
            raise RoomError(f"A player can be replaced only when they have {REPLACEABLE_AFTER}.")
        await self._reseat(room, colour, kind=COMPUTER, level=level, token_hash=None,
                           replaced_hash=room.seats[colour].token_hash, away=False,
                           person="")

    async def take_assigned(self, room: Room, person: str) -> str | None:
        """The seat token of ``person``'s seat at a tournament's table (None: not theirs).
        Each call makes a new one, so the device that opened the table last plays it (a
        person plays a table from one device at a time)."""
        if not room.tournament or not person:
            return None
        seat = next((s for s in room.seats.values() if s.person == person), None)
        if seat is None:
            return None
        token = secrets.token_urlsafe(32)
        async with room.lock:
            before = seat.token_hash
            seat.token_hash = token_hash(token)
            try:
                await self._save(room)
            except Exception:
                seat.token_hash = before
                raise
        self._notify(room)
        return token

    async def stand_in(self, room: Room, colour: int) -> None:
        """The room's stand-in computer plays a seat from now on, for itself (a tournament's
        entrant taken out)."""
        await self._reseat(room, colour, kind=COMPUTER, level=room.stand_in, person="",
                           away=False, token_hash=None,
                           replaced_hash=room.seats[colour].token_hash)

    async def hand_over(self, room: Room, token: str | None) -> None:
        """A player lets a computer (the room's stand-in level) play their seat for a while;
        the same browser may take it back (:meth:`take_back`)."""
        colour = self._require_seat(room, token)
        seat = room.seats[colour]
        if room.status != RoomStatus.PLAYING or seat.away or seat.kind != HUMAN:
            raise RoomError("Only a player's seat in a game under way can be handed to a "
                            "computer.")
        await self._reseat(room, colour, kind=COMPUTER, level=room.stand_in, away=True)

    async def take_back(self, room: Room, token: str | None) -> None:
        """The player who handed their seat to a computer plays it again (during a game, or
        between games for the next one)."""
        colour = self._require_seat(room, token)
        if not room.seats[colour].away:
            raise RoomError("This seat is already yours to play.")
        await self._reseat(room, colour, kind=HUMAN, away=False)

    async def _reseat(self, room: Room, colour: int, **change: Any) -> None:
        """Change who plays a seat (``change``: the :class:`RoomSeat` fields), in the room
        and in its game under way, in one transaction; nothing changes if it fails. A game
        that is over keeps the seats it was played with (its record says who played)."""
        game = await self.game(room) if room.status == RoomStatus.PLAYING else None
        async with room.lock:
            seat = room.seats[colour]
            before = asdict(seat)
            for name, value in change.items():
                setattr(seat, name, value)
            seats = None if game is None else (game.id, self.hub.seat_change(game, seat.seat()))
            try:  # the room's seat and the game's, in one transaction
                await self.store.save_room(room.to_row(), seats_of=seats)
            except Exception:
                room.seats[colour] = RoomSeat(**before)
                raise
        if game is not None and seats is not None:
            self.hub.seat_changed(game, seat.seat(), seats[1])
        self._notify(room)

    async def leave(self, room: Room, token: str | None) -> None:
        """A player leaves the room between games (in its lobby, or once its game is over),
        freeing the seat for someone else; the host keeps the room."""
        colour = self._require_seat(room, token)
        if colour == room.host:
            raise RoomError("The host keeps the room and cannot leave it.")
        async with room.lock:
            if room.status == RoomStatus.PLAYING:
                raise RoomError("A seat can be left once the game is over; until then, "
                                "a computer can play it for you.")
            before = asdict(room.seats[colour])
            room.seats[colour] = RoomSeat(colour=colour, kind=HUMAN)
            try:
                await self._save(room)
            except Exception:
                room.seats[colour] = RoomSeat(**before)
                raise
            room.connections.pop(colour, None)
            room.absent_since.pop(colour, None)
        self._notify(room)

    # --- reactions --------------------------------------------------------------------------------

    def react(self, room: Room, token: str | None, index: Any) -> Reaction:
        """A seated player sends reaction ``index`` (of :data:`REACTIONS`) to every table and
        TV of the room. Refused, with nothing shown anywhere: an index not in the list, a
        token that holds no seat (a watcher, a forged or missing one), a room in its lobby,
        and (:class:`SlowDown`) a seat sending more than one every two seconds or ten a
        minute. Only the index comes from the page: nobody can make another screen say
        anything of their own."""
        if isinstance(index, bool) or not isinstance(index, int) or not (
                0 <= index < len(REACTIONS)):
            raise RoomError("There is no such reaction.")
        colour = self._require_seat(room, token)
        if room.status == RoomStatus.LOBBY:
            raise RoomError("Reactions are for the game.")
        key = token_hash(token or "")
        if (self.reaction_gap.count(key) >= 1
                or self.reaction_minute.count(key) >= REACTIONS_PER_MINUTE):
            raise SlowDown("Slow down")
        self.reaction_gap.record(key)
        self.reaction_minute.record(key)
        seat = room.seats[colour]
        reaction = Reaction(colour, seat.name or rules_for(room.kind).colours[colour].title(),
                            index, self.clock())
        room.touched = reaction.at
        for listener in list(room.reaction_listeners):
            listener(reaction)
        return reaction

    def subscribe_reactions(self, room: Room, listener: Callable[[Reaction], None]) -> None:
        """Tell ``listener`` (a table's or a TV's page) of every reaction sent in the room."""
        room.reaction_listeners.append(listener)
        room.touched = self.clock()

    def unsubscribe_reactions(self, room: Room, listener: Callable[[Reaction], None]) -> None:
        if listener in room.reaction_listeners:
            room.reaction_listeners.remove(listener)
        room.touched = self.clock()

    # --- housekeeping --------------------------------------------------------------------------

    async def cleanup(self, now: datetime | None = None) -> int:
        """Delete rooms (with their tokens and games) idle for longer than the expiry."""
        cutoff = (now or datetime.now(UTC)) - EXPIRY
        codes = await self.store.delete_rooms_before(cutoff)
        for code in codes:
            self.rooms.pop(code, None)
            for game_id in [g.id for g in self.hub.games.values()
                            if g.owner == room_key(code)]:
                self.hub.games.pop(game_id).abandoned = True
        return len(codes)

    def unload_idle(self, idle: float = IDLE_BEFORE_UNLOAD) -> list[str]:
        """Let go of rooms without pages or players for ``idle`` seconds (and of expired
        attempt counters); they load again from the database when asked for."""
        now = self.clock()
        gone = [code for code, room in self.rooms.items()
                if not room.in_use() and now - room.touched >= idle]
        for code in gone:
            room = self.rooms.pop(code)
            if room.watched is not None:
                room.watched.unwatch()
            room.watched = None
        self.guesses.sweep()
        self.claims.sweep()
        self.reaction_gap.sweep()
        self.reaction_minute.sweep()
        return gone

    def subscribe(self, room: Room, listener: Callable[[Room], None]) -> None:
        room.listeners.append(listener)
        room.touched = self.clock()

    def unsubscribe(self, room: Room, listener: Callable[[Room], None]) -> None:
        if listener in room.listeners:
            room.listeners.remove(listener)
        room.touched = self.clock()

    def _watch(self, room: Room, game: LiveGame) -> None:
        """Keep the room's last action time and status in step with its game."""

        listed = {"turn": _listed_turn(game)}

        def on_action(game: LiveGame, _: list[Event]) -> None:
            now = datetime.now(UTC)
            stale = now - room.last_action_at > ACTIVITY_PRECISION
            room.last_action_at = now
            finished = game.over and room.status == RoomStatus.PLAYING
            if finished:
                room.status = RoomStatus.FINISHED
            if finished or stale:  # the expiry needs minutes, not every click
                task = asyncio.get_running_loop().create_task(self._save(room))
                self._saving.add(task)
                task.add_done_callback(self._saved)
            turn = _listed_turn(game)
            if turn != listed["turn"]:  # the action is stored: lists may say so
                listed["turn"] = turn
                self._moved(room.code)

        # Computers play while a player of the room is connected (watchers do not count; a
        # player who handed their seat to a computer does); at a tournament's table, always.
        game.watch(on_action, lambda: bool(room.tournament) or any(
            room.connections.get(s.colour, 0) > 0 for s in room.seats.values() if s.claimed))
        room.watched = game

    def _saved(self, task: asyncio.Task[None]) -> None:
        self._saving.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("saving a room failed", exc_info=task.exception())

    async def _save(self, room: Room) -> None:
        await self.store.save_room(room.to_row())

    def _notify(self, room: Room, *, stored: bool = True) -> None:
        """Tell the room's pages of a change. A ``stored`` change (a seat, the status, not
        who is connected) is what the room's followers list: they are told too."""
        for listener in list(room.listeners):
            listener(room)
        if stored:
            self._moved(room.code)

    # --- followers: pages that list rooms, here and on the other shards ------------------------

    def tell_shards(self, signals: Signals) -> None:
        """Tell the other shards' followers of every change of this shard's rooms, and this
        shard's followers of theirs."""
        self.signals = signals
        signals.listen("room", self._moved_elsewhere)

    def follow(self, code: str, listener: Callable[[str], None]) -> None:
        """Call ``listener(code)`` whenever room ``code`` changes what a list of it shows:
        its lobby, its status, whose turn it is (the room may be another shard's)."""
        self.followers.setdefault(code, []).append(listener)

    def unfollow(self, code: str, listener: Callable[[str], None]) -> None:
        listeners = self.followers.get(code, [])
        if listener in listeners:
            listeners.remove(listener)
        if not listeners:
            self.followers.pop(code, None)

    def _moved(self, code: str) -> None:
        self._tell_followers(code)
        self.signals.tell("room", code)

    async def _moved_elsewhere(self, code: str) -> None:
        self._tell_followers(code)

    def _tell_followers(self, code: str) -> None:
        for listener in list(self.followers.get(code, ())):
            try:
                listener(code)
            except Exception:  # one broken page must not keep the others from hearing it
                log.exception("a room's follower failed", extra={"room": code})

    def _require_seat(self, room: Room, token: str | None) -> int:
        colour = room.colour_of(token)
        if colour is None:
            log.info("action rejected", extra={"room": room.code, "reason": "no seat"})
            raise Refused("This browser holds no seat in this room.")
        return colour

    def _require_host(self, room: Room, token: str | None) -> None:
        if room.colour_of(token) != room.host:
            log.info("host action rejected", extra={"room": room.code})
            raise RoomError("Only the host can do that.")
