"""Your turn, across games: in each game of this browser, whose move it is, how long is left
on a turn clock, and whether the move is this browser's; the home page's list of the games
in progress, the marks My games shows, and what a table tells its tab when the turn comes.

Which games are this browser's: its local game by ``games.owner``, its online seats by the
seat tokens it keeps (``lobby.read_token``, so only once the page's socket is connected).
Whose move it is comes from the game's rules (``GameRules.turn``) on the live or the stored
state, how long is left from the stored deadline (``games.deadline``): nothing here decides
a rule or keeps time. The countdown is the table's (``badges.CLOCK_SCRIPT``, in every page's
head); the tab's title and the notification are the page script :data:`TURN_SCRIPT`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from datetime import datetime
from string import Template

from nicegui import Client, background_tasks, ui

from parcheesi.core.registry import AnyRules, rules_for
from parcheesi.core.rules import State
from parcheesi.server.live import LiveGame, Seat, seats_of
from parcheesi.server.rooms import Room, Rooms, RoomStatus
from parcheesi.server.shards import room_of
from parcheesi.server.store import ONLINE, GameRow, Store, aware

from .install import ICON
from .lobby import read_token, spaced_code, stored_room_codes, waiting_words

LOCAL_URL = "/play"
"""The page of a browser's local game."""
YOUR_TURN = "Your turn"
"""The mark of a game whose move is this browser's (and the start of the tab's title)."""


# --- whose move, how long, whose browser -------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Turn:
    """Where a game in play stands for one browser."""

    name: str
    """Who is to move: the seat's player, or its colour."""
    deadline: datetime | None
    """When that move runs out (a turn clock), if it does."""
    mine: bool
    """Whether the move is this browser's: one of its seats is to act and a person plays it."""


def turn_now(rules: AnyRules, state: State, seats: Mapping[int, Seat],
             deadline: datetime | None, mine: Collection[int]) -> Turn | None:
    """Who is to move in ``state`` and whether it is one of the colours ``mine`` (None once
    the game is over)."""
    if rules.over(state):
        return None
    colour = rules.turn(state)
    seat = seats.get(colour)
    human = seat is not None and seat.is_human
    name = seat.display_name(rules.colours) if seat is not None else rules.colours[colour].title()
    return Turn(name, deadline if human else None, human and colour in mine)


def human_colours(seats: Collection[Seat]) -> set[int]:
    """The seats a local game's device plays: every human one (solo or the shared screen)."""
    return {s.colour for s in seats if s.is_human}


def turn_of_game(game: LiveGame, mine: Collection[int]) -> Turn | None:
    return turn_now(game.rules, game.state, game.seats, game.deadline, mine)


def turn_of_row(row: GameRow, mine: Collection[int]) -> Turn | None:
    """The same, read off a stored game (its snapshot and its stored deadline)."""
    rules = rules_for(row.kind)
    seats = {s.colour: s for s in seats_of(row)}
    deadline = None if row.deadline is None else aware(row.deadline)
    return turn_now(rules, rules.state_from_json(json.loads(row.state)), seats, deadline, mine)


def local_turn_of_row(row: GameRow, browser: str | None) -> Turn | None:
    """A stored game's turn for ``browser``, as far as the server knows it without the
    browser's seat tokens: a local game of its own is its move when a human seat is to act;
    an online game's seat is known only from the tokens (:func:`held_seats`)."""
    own = row.mode != ONLINE and row.owner == browser
    return turn_of_row(row, human_colours(seats_of(row)) if own else ())


def game_place(kind: str, owner: str) -> str:
    """Which game, in words: "<title> on this device", "<title>, room ABCD 2345"."""
    title = rules_for(kind).title
    code = room_of(owner)
    return f"{title}, room {spaced_code(code)}" if code else f"{title} on this device"


def table_url(owner: str) -> str:
    """Where a game of ``owner`` (an owner key) is played: its room, or this browser's."""
    code = room_of(owner)
    return f"/room/{code}" if code else LOCAL_URL


async def held_seats(rooms: Rooms, codes: Collection[str] | None = None
                     ) -> list[tuple[Room, int]]:
    """The rooms where this browser's seat tokens hold a seat, with that seat's colour (of
    ``codes``, or of every room it keeps a token for); asks the browser, so only once the
    page is connected."""
    return await seated(rooms, await seat_tokens(codes))


async def seat_tokens(codes: Collection[str] | None = None) -> dict[str, str]:
    """This browser's seat tokens by room code (of ``codes``, or every one it keeps), as its
    localStorage holds them."""
    tokens = {}
    for code in await stored_room_codes():
        if codes is not None and code not in codes:
            continue
        token = await read_token(code)
        if token is not None:
            tokens[code] = token
    return tokens


async def seated(rooms: Rooms, tokens: Mapping[str, str]) -> list[tuple[Room, int]]:
    """The rooms where ``tokens`` (by room code) hold a seat, with that seat's colour."""
    held = []
    for code, token in tokens.items():
        room = await rooms.look(code)  # another shard's room is read as stored
        colour = None if room is None else room.colour_of(token)
        if room is not None and colour is not None:
            held.append((room, colour))
    return held


# --- the home page's list ----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Entry:
    """One game in progress of this browser, as the home page lists it."""

    key: str
    """``local``, or the room's code."""
    url: str
    game: str
    """The game's title."""
    where: str
    """"On this device", "Room ABCD 2345"."""
    turn: Turn | None
    """Whose move it is; None in a room's lobby."""
    note: str = ""
    """What a lobby waits for."""

    @property
    def mine(self) -> bool:
        return self.turn is not None and self.turn.mine


async def room_entry(store: Store, room: Room, colour: int) -> Entry | None:
    """A room this browser holds the seat ``colour`` in, unless its game is over."""
    where = f"Room {spaced_code(room.code)}"
    title = rules_for(room.kind).title
    url = f"/room/{room.code}"
    if room.status == RoomStatus.LOBBY:
        note = waiting_words(room) or ("Everyone is ready: you may start."
                                       if colour == room.host else "Waiting for the start.")
        return Entry(room.code, url, title, where, None, f"In the lobby. {note}")
    if room.status == RoomStatus.FINISHED or room.game_id is None:
        return None
    row = await store.game(room.game_id)
    turn = None if row is None else turn_of_row(row, (colour,))
    return None if turn is None else Entry(room.code, url, title, where, turn)


async def your_games(store: Store, rooms: Rooms, local: LiveGame | None,
                     tokens: Mapping[str, str]) -> list[Entry]:
    """This browser's games in progress (its local game, then every room where its seat
    ``tokens`` hold a seat, in the lobby or playing), the ones whose move is its own first."""
    entries = []
    if local is not None and not local.over:
        turn = turn_of_game(local, human_colours(local.seats.values()))
        entries.append(Entry("local", LOCAL_URL, local.rules.title, "On this device", turn))
    for room, colour in await seated(rooms, tokens):
        entry = await room_entry(store, room, colour)
        if entry is not None:
            entries.append(entry)
    return sorted(entries, key=lambda e: not e.mine)


class YourGames:
    """The home page's "Your games" in ``box``, drawn again whenever one of its rooms
    changes what the list says (a seat taken in its lobby, the start, whose turn it is), on
    this shard or another (``Rooms.follow``), until the page goes.

    The seat tokens are asked of the browser once, at the first drawing: a phone slow to
    answer later must not empty the list. ``drawn`` hears the entries of every drawing (the
    page's resume button offers the same rooms)."""

    def __init__(self, store: Store, rooms: Rooms, local: LiveGame | None, box: ui.element,
                 wall: Callable[[], datetime],
                 drawn: Callable[[list[Entry]], None] = lambda _: None) -> None:
        self.store, self.rooms, self.local, self.box, self.wall = store, rooms, local, box, wall
        self.drawn = drawn
        self.tokens: dict[str, str] = {}
        self.followed: set[str] = set()
        self.drawing = False
        self.again = False
        """A room changed while the list was being drawn: draw it once more."""

    async def draw(self) -> None:
        """The first drawing (the page's socket must be connected)."""
        self.tokens = await seat_tokens()
        ui.context.client.on_delete(self.stop)
        await self._draw()

    async def _draw(self) -> None:
        entries = await your_games(self.store, self.rooms, self.local, self.tokens)
        if self.box.is_deleted:
            return
        self.box.clear()
        with self.box:
            your_games_list(entries, self.wall())
        self._follow({e.key for e in entries if e.key != "local"})
        self.drawn(entries)

    def _follow(self, codes: set[str]) -> None:
        for code in self.followed - codes:
            self.rooms.unfollow(code, self.changed)
        for code in codes - self.followed:
            self.rooms.follow(code, self.changed)
        self.followed = codes

    def changed(self, _: str) -> None:
        if self.box.is_deleted:
            self.stop()
        elif self.drawing:
            self.again = True
        else:
            self.drawing = self.again = True
            background_tasks.create(self._redraw(), name="your games")

    async def _redraw(self) -> None:
        try:
            while self.again and not self.box.is_deleted:
                self.again = False
                await self._draw()
        finally:
            self.drawing = False

    def stop(self) -> None:
        self._follow(set())


def your_games_list(entries: list[Entry], now: datetime) -> None:
    """The list "Your games": each game a link saying which game, whose move and how long is
    left, with the "Your turn" mark first where the move is this browser's (so the link's
    accessible name begins with it). ``now``: the server's time the countdowns start from."""
    if not entries:
        return
    with ui.element("section").classes("w-full your-games").props(
            'aria-labelledby=your-games-title data-testid=your-games'):
        ui.label("Your games").classes("text-lg font-medium").props('id=your-games-title')
        with ui.element("ul").classes("game-list"):
            for entry in entries:
                with ui.element("li"):
                    _entry_link(entry, now)


def _entry_link(entry: Entry, now: datetime) -> None:
    with ui.link(target=entry.url).classes("your-game").props(
            f'data-testid=your-game-{entry.key}'):
        with ui.element("div").classes("your-game-head"):
            if entry.mine:
                turn_mark()
            ui.label(f"{entry.game} · {entry.where}").classes("font-medium")
        if entry.turn is None:
            ui.label(entry.note).classes("text-sm").props('data-testid=game-to-play')
        else:
            with ui.element("div").classes("game-turn text-sm"):
                ui.label(f"{entry.turn.name} to play").props('data-testid=game-to-play')
                if entry.turn.deadline is not None:
                    countdown(entry.turn.deadline, now)


def turn_mark() -> ui.label:
    """The "Your turn" mark."""
    return ui.label(YOUR_TURN).classes("turn-mark").props('data-testid=your-turn')


def countdown(deadline: datetime, now: datetime, lead: bool = True) -> None:
    """How long is left, "· 1:59 left" (the dot only with ``lead``), counted down in the
    browser by the table's clock script from the deadline and the server's time now
    (``data-deadline``, ``data-sent``); drawn with the time left now, so nothing changes
    size when the script takes over. A screen reader hears the script's coarse words
    ("About 2 minutes left") instead."""
    left = max(0, math.ceil((deadline - now).total_seconds()))
    with ui.element("span").classes("game-clock"):
        if lead:
            ui.label("·").props('aria-hidden=true')
        ui.label(clock_text(left)).props(
            f'role=timer data-testid=game-clock data-deadline={_ms(deadline)} '
            f'data-sent={_ms(now)}')
        ui.label("left").props('aria-hidden=true')


def clock_text(seconds: int) -> str:
    """A time left as the clock script shows it: "1:59", "23 h 59 min"."""
    if seconds >= 3600:
        return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"
    return f"{seconds // 60}:{seconds % 60:02d}"


def _ms(moment: datetime) -> int:
    return round(moment.timestamp() * 1000)


# --- the tab of a table ------------------------------------------------------------------------

def tell_turn(client: Client, yours: bool, words: str, notify: bool) -> None:
    """Tell the table's tab that its viewer's turn came (``yours``) or passed: the title
    says so, and with ``notify`` (the browser's setting) a hidden tab shows a notification
    saying ``words``, where the browser allows it (:data:`TURN_SCRIPT`)."""
    client.run_javascript(f"window.parcheesiYourTurn({json.dumps(yours)}, "
                          f"{json.dumps(words)}, {json.dumps(notify)})")


def turn_words(game: LiveGame) -> str:
    """What a notification says: whose move in which game."""
    return f"{game_place(game.kind, game.owner)}: {game.name_of(game.turn)} to play"


TURN_SCRIPT = Template("""
<script>
(() => {
  const YOUR_TURN = $your_turn, ICON = $icon;
  // "(Your turn) " before the page's own title while it is this viewer's move; where the
  // page is a secure context and the player allowed it, a notification when the turn comes
  // while the tab is hidden. Nothing is sent anywhere: the page itself shows it.
  const mark = '(' + YOUR_TURN + ') ';
  const root = document.documentElement;
  const able = () => window.isSecureContext && 'Notification' in window;
  const blocked = () => able() && Notification.permission === 'denied';
  if (able()) root.dataset.canNotify = '';
  if (blocked()) root.dataset.notifyBlocked = '';
  let note = null;
  window.parcheesiYourTurn = (yours, words, notify) => {
    const title = document.title;
    const base = title.startsWith(mark) ? title.slice(mark.length) : title;
    document.title = yours ? mark + base : base;
    if (note) { note.close(); note = null; }
    if (!yours || !notify || !document.hidden || !able()) return;
    if (Notification.permission !== 'granted') return;
    try {
      note = new Notification(YOUR_TURN, {body: words, tag: 'parcheesi-turn', icon: ICON});
      note.onclick = () => { window.focus(); if (note) note.close(); };
    } catch (error) {  // some phones show notifications only through a service worker
      note = null;
    }
  };
  // Switching the setting on asks the browser's permission, in the tap or key press itself
  // (browsers ask only then).
  const ask = (event) => {
    const toggle = event.target.closest && event.target.closest('[data-testid=setting-notify]');
    if (!toggle || toggle.getAttribute('aria-checked') === 'true' || !able()) return;
    if (Notification.permission !== 'default') return;
    Notification.requestPermission().then(() => {
      if (blocked()) root.dataset.notifyBlocked = ''; else delete root.dataset.notifyBlocked;
    });
  };
  addEventListener('click', ask, {capture: true});
  addEventListener('keydown', (event) => {
    if (event.key === ' ' || event.key === 'Enter') ask(event);
  }, {capture: true});
})();
</script>
""").substitute(your_turn=json.dumps(YOUR_TURN), icon=json.dumps(ICON))
"""The tab title and the notification of a table page (in every page's head)."""
