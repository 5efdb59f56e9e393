"""The online room: lobby (code, invitation, seats, ready, start), and what a room adds to
its table (the host's tools, the seat's, the reactions, who is away).

Seat tokens never reach the page's HTML: they live in the browser's ``localStorage`` and are
read by a small script when a room page opens. The server keeps only their hashes.
"""

from __future__ import annotations

import io
import json
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import segno
from nicegui import Client, ui

from parcheesi.core.registry import rules_for
from parcheesi.core.words import counted
from parcheesi.server.clocks import clock_words
from parcheesi.server.live import HUMAN, NAME_LENGTH
from parcheesi.server.people import Person
from parcheesi.server.rooms import (
    REPLACEABLE_AFTER,
    Room,
    RoomError,
    Rooms,
    RoomSeat,
    RoomStatus,
)

from .reactions import ReactionFeed, ReactionPicker

if TYPE_CHECKING:
    from .table import TableView

TOKEN_PREFIX = "parcheesi-seat-"
COPY_ICON = "M8 3h11v13h-2V5H8zM5 7h10v14H5zm2 2v10h6V9z|0 0 24 24"


def token_key(code: str) -> str:
    return TOKEN_PREFIX + code


async def ask_browser(code: str, default: Any = None) -> Any:
    """Run ``code`` in the browser and return its result; ``default`` if it does not answer
    in time (a page must still work when a phone is slow or the socket drops)."""
    try:
        return await ui.run_javascript(code, timeout=3.0)
    except TimeoutError:
        return default


async def read_token(code: str) -> str | None:
    """This browser's seat token for room ``code`` (from its localStorage)."""
    value = await ask_browser(f"localStorage.getItem({json.dumps(token_key(code))})")
    return value if isinstance(value, str) and value else None


async def store_token(code: str, token: str, client: Client | None = None) -> None:
    """Keep the seat token in this browser's localStorage (never on the page itself)."""
    await (client or ui.context.client).run_javascript(
        f"localStorage.setItem({json.dumps(token_key(code))}, {json.dumps(token)}); true",
        timeout=10.0)


async def forget_token(code: str, client: Client | None = None) -> None:
    """Drop the seat token of a room this browser left (it holds nothing any more)."""
    await (client or ui.context.client).run_javascript(
        f"localStorage.removeItem({json.dumps(token_key(code))}); true", timeout=10.0)


async def stored_room_codes() -> list[str]:
    """Codes of the rooms this browser holds a seat token for."""
    value = await ask_browser(
        f"Object.keys(localStorage).filter(k => k.startsWith({json.dumps(TOKEN_PREFIX)}))"
        f".map(k => k.slice({len(TOKEN_PREFIX)}))", [])
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def qr_svg(url: str, title: str = "QR code of the invitation link", fit: bool = False) -> str:
    """The QR code of ``url`` as SVG, 4 px a module; ``fit``: without a size of its own, to
    fill its box (a TV's corner, sized by the screen)."""
    buffer = io.BytesIO()
    segno.make(url, error="m").save(buffer, kind="svg", scale=4, border=2, xmldecl=False,
                                    svgns=True, title=title, omitsize=fit)
    return buffer.getvalue().decode()


def spaced_code(code: str) -> str:
    """A room code as people read it aloud and type it: two groups of four."""
    return f"{code[:4]} {code[4:]}"


def waiting_words(room: Room) -> str:
    """Whom the start waits for, in words ("" when nobody)."""
    colours = rules_for(room.kind).colours
    waiting = [f"{colours[s.colour].title()} to be taken" if not s.claimed
               else f"{s.name or colours[s.colour].title()} to be ready"
               for s in room.waiting_for()]
    return f"Waiting for {', '.join(waiting)}." if waiting else ""


def game_words(room: Room) -> str:
    """The game the room plays and its house rules, e.g. "<title> · house rules: Star
    squares, Six again"."""
    house = rules_for(room.kind).look.house_line(room.house)
    return f"{rules_for(room.kind).title}" + (f" · house rules: {house}" if house else "")


def clock_line(room: Room) -> str:
    """The room's turn clock and its stand-in, e.g. "Turn clock: 2 minutes a move, then a
    hard computer moves", or "No turn clock"."""
    if not room.clock:
        return clock_words(room.clock).capitalize()
    return f"Turn clock: {clock_words(room.clock)}, then a {room.stand_in} computer moves"


class LobbyView:
    """Seats filling up and readiness changing, live for everyone in the room."""

    def __init__(self, rooms: Rooms, room: Room, token: str | None, invite_url: str,
                 requester: tuple[str, ...],
                 on_claimed: Callable[[str], Any], tv_url: str = "",
                 person: Person | None = None) -> None:
        """``person``: this browser's person, whom a seat taken here counts for (None: a
        guest)."""
        self.rooms = rooms
        self.person = person
        self.room = room
        self.token = token
        self.invite_url = invite_url
        self.requester = requester
        self.on_claimed = on_claimed
        self.client = ui.context.client
        with ui.column().classes("w-full gap-3") as self.root:
            ui.label(game_words(room)).classes("text-base font-medium").props(
                'data-testid=room-game')
            ui.label(clock_line(room)).classes("text-sm").props('data-testid=room-clock')
            with ui.row().classes("items-center gap-3"):
                ui.label("Room code").classes("text-lg")
                ui.label(spaced_code(room.code)).classes(
                    "text-2xl font-mono font-bold tracking-widest").props(
                    f'data-testid=room-code aria-label="Room code {" ".join(room.code)}"')
            with ui.row().classes("items-center gap-2 w-full"):
                ui.link(invite_url, invite_url).classes("break-all").props(
                    'data-testid=invite-link')
                ui.button(icon=COPY_ICON, on_click=self.copy_link).props(
                    'flat round dense aria-label="Copy the invitation link"')
            with ui.row().classes("items-start qr-row"):
                with ui.column().classes("gap-1 items-center qr-figure"):
                    ui.html(qr_svg(invite_url, fit=True), sanitize=False).classes(
                        "qr-code qr-invite").props('data-testid=invite-qr')
                    ui.label("Scan to join this room").classes("qr-caption").props(
                        'data-testid=invite-qr-caption')
                if tv_url:
                    self._tv(tv_url)
            self.name = ui.input("Your name (optional)",
                                 placeholder=person.name if person else "").props(
                f'maxlength={NAME_LENGTH} data-testid=guest-name').classes("w-64")
            self.seats = ui.column().classes("w-full gap-1")
            self.message = ui.label("").props('role=alert data-testid=room-message').classes(
                "text-negative")
            self.watching = ui.label("Watching: every seat is taken.").classes(
                "text-grey-8").props('data-testid=watching')
            with ui.row().classes("gap-2"):
                self.ready_button = ui.button("I'm ready", on_click=self.toggle_ready).props(
                    "data-testid=ready color=primary")
                self.start_button = ui.button("Start game", on_click=self.start).props(
                    "data-testid=start-game color=primary")
                self.leave_button = ui.button("Leave this seat", on_click=self.leave).props(
                    "data-testid=leave-seat outline")
            self.waits_for = ui.label("").classes("text-sm text-grey-8").props(
                'data-testid=start-waits-for aria-live=polite')
        rooms.subscribe(room, self._changed)
        # Not on disconnect: NiceGUI reports every dropped socket, also when the page reconnects.
        self.client.on_delete(lambda: rooms.unsubscribe(room, self._changed))
        self.redraw()

    @staticmethod
    def _tv(url: str) -> None:
        """The room's TV view: its link, and its QR code for the device that shows it (each
        QR code says what it opens, so nobody scans the TV's to join)."""
        with ui.column().classes("gap-1 items-center qr-figure"):
            ui.html(qr_svg(url, "QR code of the TV view", fit=True), sanitize=False).classes(
                "qr-code qr-tv").props('data-testid=tv-qr')
            ui.label("Scan to open the TV view").classes("qr-caption").props(
                'data-testid=tv-qr-caption')
            ui.link("TV view", url, new_tab=True).classes("touch-target").props(
                'data-testid=tv-link aria-label="Open the TV view of this room"')

    @property
    def colour(self) -> int | None:
        return self.room.colour_of(self.token)

    def _changed(self, room: Room) -> None:
        if room.status != RoomStatus.LOBBY:
            return  # the room page swaps the lobby for the table
        with self.root:
            self.redraw()

    def redraw(self) -> None:
        room = self.room
        mine = self.colour
        self.seats.clear()
        with self.seats:
            for seat in room.seats.values():
                self._seat_row(seat, mine)
        is_host = mine == room.host
        self.ready_button.set_visibility(mine is not None and not is_host)
        self.leave_button.set_visibility(mine is not None and not is_host)
        if mine is not None and not is_host:
            ready = room.seats[mine].ready
            self.ready_button.set_text("Not ready" if ready else "I'm ready")
            self.ready_button.props(f'aria-pressed={"true" if ready else "false"}')
        watching = mine is None and not room.open_seats()
        self.name.set_visibility(mine is None and not watching)
        self.watching.set_visibility(watching)
        self.start_button.set_visibility(is_host)
        self.start_button.set_enabled(room.can_start())
        self.waits_for.set_text(waiting_words(room))

    def _seat_row(self, seat: RoomSeat, mine: int | None) -> None:
        """One seat of the lobby: its colour, and who sits there or how to take it."""
        rules = rules_for(self.room.kind)
        name = rules.colours[seat.colour]
        with ui.row().classes("items-center gap-2 w-full no-wrap"):
            ui.element("div").style(
                f"width:18px;height:18px;border-radius:50%;"
                f"background:{rules.look.paints[seat.colour].fill};flex:none").props('aria-hidden="true"')
            ui.label(name.title()).classes("w-20 font-medium")
            if seat.away:
                self._away(seat, mine)
            elif seat.kind != HUMAN:
                ui.label(f"{seat.level.title()} computer")
            elif seat.claimed:
                self._taken(seat, mine)
            elif mine is None:
                ui.button("Take this seat",
                          on_click=lambda c=seat.colour: self.claim(c)).props(
                    f'data-testid=claim-seat-{name} outline dense')
            else:
                ui.label("Open seat").classes("text-grey-7")

    def _away(self, seat: RoomSeat, mine: int | None) -> None:
        """A seat its player handed to a computer: theirs to take back."""
        who = seat.name or "a player"
        ui.label(f"{seat.level.title()} computer, playing for {who}"
                 + (" (you)" if seat.colour == mine else ""))
        if seat.colour == mine:
            ui.button("Take my seat back", on_click=self.take_back).props(
                'data-testid=take-back-seat outline dense')

    async def take_back(self) -> None:
        await self._try(self.rooms.take_back(self.room, self.token))

    def _taken(self, seat: RoomSeat, mine: int | None) -> None:
        who = seat.name or "A player"
        if seat.colour == mine:
            who += " (you)"
        if seat.colour == self.room.host:
            who += ", host"
        ui.label(who)
        ready = seat.ready or seat.colour == self.room.host
        ui.badge("ready" if ready else "not ready",
                 color="positive" if ready else "grey").props(
            f'data-testid=seat-status-{rules_for(self.room.kind).colours[seat.colour]}')

    async def claim(self, colour: int) -> None:
        await self._try(self._claim(colour))

    async def _claim(self, colour: int) -> None:
        typed = (self.name.value or "").strip()
        token = await self.rooms.claim(self.room, colour,
                                       typed or (self.person.name if self.person else ""),
                                       *self.requester,
                                       person=self.person.id if self.person else "")
        self.token = token
        self.on_claimed(token)
        try:
            await store_token(self.room.code, token, self.client)
        except TimeoutError:
            self.message.set_text("Your seat is taken, but this browser did not confirm it "
                                  "kept the key; if you reload, you may lose the seat.")
        self.redraw()

    async def toggle_ready(self) -> None:
        colour = self.colour
        if colour is None:
            return
        ready = not self.room.seats[colour].ready
        await self._try(self.rooms.set_ready(self.room, self.token, ready,
                                             self.name.value or None))

    async def start(self) -> None:
        await self._try(self.rooms.start(self.room, self.token))

    async def leave(self) -> None:
        """Give the seat up (someone else may take it); this browser forgets its key."""
        await self._try(self._leave())

    async def _leave(self) -> None:
        await self.rooms.leave(self.room, self.token)
        self.token = None
        await forget_token(self.room.code, self.client)
        self.redraw()

    async def copy_link(self) -> None:
        ui.clipboard.write(self.invite_url)
        ui.notify("Invitation link copied")

    async def _try(self, work: Awaitable[Any]) -> None:
        self.message.set_text("")
        try:
            await work
        except (RoomError, ValueError) as error:
            self.message.set_text(str(error))


def table_tools(rooms: Rooms, room: Room, token: str | None, view: TableView) -> None:
    """What a room adds to its table, beside the player badges where everyone looks: a
    seated player's reactions and seat tools, the host's tools; the room's reactions shown
    over the table; and the status line kept true about who is away."""
    colour = room.colour_of(token)
    with view.room_bar:
        if colour is not None:
            ReactionPicker(rooms, room, token)
        if colour is not None and colour == room.host:
            HostTools(rooms, room, token)
        seat_tools(rooms, room, token)
    ReactionFeed(rooms, room)
    follow_presence(rooms, room, view)


def follow_presence(rooms: Rooms, room: Room, view: TableView) -> None:
    """Draw the table again when a player's page comes or goes, so its status line says
    who it waits for ("Sam is away: waiting for them"); a table still catching up on
    actions it missed is left to do that first (it draws the presence with them)."""
    drawn = {"away": rooms.away(room)}

    def changed(_: Room) -> None:
        if view.root.is_deleted:
            rooms.unsubscribe(room, changed)
            return
        away = rooms.away(room)
        if away == drawn["away"] or view.version_seen != view.game.version:
            return
        drawn["away"] = away
        with view.root:
            view.redraw([])

    rooms.subscribe(room, changed)
    ui.context.client.on_delete(lambda: rooms.unsubscribe(room, changed))


def seat_tools(rooms: Rooms, room: Room, token: str | None) -> None:
    """For a player during play: let the room's stand-in computer play the seat for a while
    (going out, a call; in the *My seat* menu), and take it back later from this browser
    (a button in view, with what plays the seat meanwhile)."""
    if room.colour_of(token) is None:
        return
    box = ui.row().classes("items-center gap-2").props('data-testid=seat-tools')
    shown: dict[str, object] = {"drawn": None}

    def redraw(_: Room | None = None) -> None:
        if box.is_deleted:  # the page moved on to the room's next game
            rooms.unsubscribe(room, redraw)
            return
        colour = room.colour_of(token)
        seat = room.seats.get(colour) if colour is not None else None
        state = None if seat is None or room.status != RoomStatus.PLAYING else seat.away
        if state == shown["drawn"]:
            return
        shown["drawn"] = state
        box.clear()
        if state is None:
            return
        with box:
            if state:
                ui.label(f"A {room.stand_in} computer is playing your seat.").props(
                    'role=status data-testid=seat-away').classes("text-sm")
                ui.button("Take my seat back", on_click=lambda: change(rooms.take_back)).props(
                    'dense no-caps data-testid=take-back-seat color=primary').classes(
                    "room-tool")
            else:  # a menu: a press on the turn line should not hand the seat over
                with ui.button("My seat").props(
                        'outline dense no-caps data-testid=seat-menu').classes("room-tool"), \
                        ui.menu():
                    ui.menu_item("Let a computer play for me",
                                 on_click=lambda: change(rooms.hand_over)).props(
                        'data-testid=hand-over-seat')

    async def change(work: Callable[[Room, str | None], Awaitable[None]]) -> None:
        try:
            await work(room, token)
        except (RoomError, ValueError) as error:
            ui.notify(str(error), type="negative")
        redraw()

    rooms.subscribe(room, redraw)
    ui.context.client.on_delete(lambda: rooms.unsubscribe(room, redraw))
    redraw()


HOST_REFRESH = 5.0
"""Seconds between the host tools' looks at who may be replaced (a minute away passes with no
event to tell the page)."""


class HostTools:
    """For the host during play: a *Host* button beside the badges, marked with the number of
    players who may be replaced (away for a minute, or out of time three moves in a row),
    opening a dialog that lists them; replacing one asks first, since that player can no
    longer play the seat in this game."""

    def __init__(self, rooms: Rooms, room: Room, token: str | None) -> None:
        self.rooms = rooms
        self.room = room
        self.token = token
        self.rules = rules_for(room.kind)
        self.level = self.rules.default_level
        self.asked: int | None = None
        """The seat the confirmation asks about."""
        self.drawn: tuple[tuple[int, str], ...] | None = None
        with ui.button("Host", on_click=self.open).props(
                'outline dense no-caps data-testid=host-menu').classes("room-tool") as self.button:
            self.count = ui.badge("", color="negative").props(
                'floating data-testid=host-count aria-hidden=true')
        with ui.dialog().props('data-testid=host-dialog aria-label="Host tools"'
                               ) as self.dialog, ui.card().classes(
                "host-card"):
            ui.label("Host tools").classes("text-lg font-medium")
            self.intro = ui.label("").classes("text-sm").props('data-testid=host-intro')
            self.choice = ui.select({lv: lv.title() for lv in self.rules.table_levels},
                                    value=self.level, label="Computer level",
                                    on_change=self._level).classes("w-40").props(
                'data-testid=replace-level')
            self.absent = ui.column().classes("w-full gap-2")
            ui.button("Close", on_click=self.dialog.close).props(
                'flat no-caps data-testid=host-close').classes("self-end")
        with ui.dialog().props('data-testid=replace-dialog aria-label="Replace a player?"'
                               ) as self.confirm, ui.card():
            self.question = ui.label("").props('data-testid=replace-question')
            with ui.row().classes("gap-2 justify-end w-full"):
                ui.button("Cancel", on_click=self.confirm.close).props(
                    'flat no-caps data-testid=replace-cancel')
                ui.button("Replace", on_click=self.replace).props(
                    'no-caps color=negative data-testid=replace-confirm')
        rooms.subscribe(room, self.refresh)
        ui.context.client.on_delete(lambda: rooms.unsubscribe(room, self.refresh))
        ui.timer(HOST_REFRESH, self.refresh)
        self.refresh()

    def _level(self, event: Any) -> None:
        self.level = event.value

    def who(self, colour: int) -> str:
        """The seat's player by name (their colour's when they gave none)."""
        return self.room.seats[colour].name or self.rules.colours[colour].title()

    def refresh(self, _: Room | None = None) -> None:
        """Show who may be replaced now (only what changed is drawn again)."""
        if self.button.is_deleted:  # the page moved on to the room's next game
            self.rooms.unsubscribe(self.room, self.refresh)
            return
        listed = tuple(self.rooms.replacements(self.room).items())
        if listed == self.drawn:
            return
        self.drawn = listed
        self.count.set_text(str(len(listed)))
        self.count.set_visibility(bool(listed))
        self.button.props['aria-label'] = (
            f"Host tools: {counted(len(listed), 'player')} may be replaced"
            if listed else "Host tools")
        self.choice.set_visibility(bool(listed))
        self.intro.set_text(
            f"These players have {REPLACEABLE_AFTER}. You may let a computer take their "
            "seat." if listed else f"Everyone is here. When a player has {REPLACEABLE_AFTER}, "
            "you may let a computer take their seat here.")
        self.absent.clear()
        with self.absent:
            for colour, why in listed:
                self._absent_row(colour, why)

    def _absent_row(self, colour: int, why: str) -> None:
        name = self.rules.colours[colour]
        with ui.row().classes("items-center gap-2 w-full no-wrap"):
            with ui.column().classes("gap-0 grow"):
                ui.label(f"{self.who(colour)} ({name.title()})").classes("font-medium")
                ui.label(why).classes("text-sm text-grey-8")
            button = ui.button("Replace with a computer",
                               on_click=lambda c=colour: self.ask(c)).props(
                f'outline no-caps data-testid=replace-seat-{name}')
            button.props['aria-label'] = f"Replace {self.who(colour)} with a computer"

    def open(self) -> None:
        self.refresh()
        self.dialog.open()

    def ask(self, colour: int) -> None:
        """Ask before replacing: the player can no longer play this seat in this game."""
        self.asked = colour
        who = self.who(colour)
        self.question.set_text(f"Replace {who} with a {self.level} computer? {who} can no "
                               "longer play this seat in this game.")
        self.confirm.open()

    async def replace(self) -> None:
        """The host confirmed: the seat's player is replaced (unless they came back)."""
        colour, self.asked = self.asked, None
        self.confirm.close()
        if colour is None:
            return
        try:
            await self.rooms.replace(self.room, self.token, colour, self.level)
        except RoomError as error:
            ui.notify(str(error), type="negative")
        else:
            self.dialog.close()
            ui.notify(f"A {self.level} computer plays {self.rules.colours[colour].title()} "
                      "now.")
        self.refresh()
