"""Games kept: My games (every game this browser played), a record's replay on the board,
records downloaded and imported, and a game continued from any step of a record.

The pages receive domain objects (the server, a record read and replayed by
:mod:`parcheesi.server.records`); nothing here knows a rule: the board shows the states the engine
replayed, the words come from the game's :class:`~.looks.Look`.
"""

from __future__ import annotations

import asyncio
import html
import json
import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from datetime import datetime
from typing import Any

from fastapi.responses import JSONResponse, Response
from nicegui import events, ui
from nicegui.elements.mixins.text_element import TextElement

from parcheesi.core.events import Rolled
from parcheesi.core.registry import plays, rules_for
from parcheesi.server.live import Seat, seats_of
from parcheesi.server.records import (
    MAX_RECORD_BYTES,
    Record,
    RecordError,
    Step,
    parse_record,
    read_record,
    replay,
    stored_record,
    summary,
)
from parcheesi.server.rooms import Rooms
from parcheesi.server.shards import room_of
from parcheesi.server.store import ONLINE, GameRow

from .board_view import Board
from .buttons import PlainButton
from .dice_view import Dice
from .game_details import record_url
from .server import Server
from .turns import (
    Turn,
    countdown,
    held_seats,
    local_turn_of_row,
    table_url,
    turn_mark,
    turn_of_row,
)

GAME_ID = re.compile(r"[0-9a-f]{32}")
"""A game's id as the server makes them (128 random bits): anything else is no game's, and is
not looked up."""
SPEEDS = {"1×": 1.0, "2×": 0.5, "4×": 0.25}
"""Seconds per step when the replay plays by itself."""
Continue = Callable[[Record, Step], Awaitable[None]]
"""Start a new local game from a step of a record."""


# --- records out ---------------------------------------------------------------------------

async def record_download(server: Server, game_id: str) -> Response:
    """A stored game's record as a file to save (404 for no such game)."""
    record = await stored_record(server.store, game_id) if GAME_ID.fullmatch(game_id) \
        else None
    if record is None:
        return JSONResponse({"error": "no game with that id"}, status_code=404)
    day = record["created"][:10]
    name = f"{record['game']}-{day}-{game_id[:8]}.json"
    return JSONResponse(record, headers={"Content-Disposition": f'attachment; filename="{name}"',
                                         "Cache-Control": "no-store"})


# --- My games ------------------------------------------------------------------------------

def line_up(seats: Iterable[Seat], colours: Sequence[str]) -> str:
    """Who played, seat by seat. A seat's own words may hold a comma ("Amber, hard
    computer"), so the seats are set apart by a dot."""
    return " · ".join(seat.description(colours) for seat in seats)


def _when(moment: datetime) -> str:
    return moment.strftime("%d %b %Y, %H:%M")


def _standing(row: GameRow, turn: Turn | None) -> tuple[str, str]:
    """What a game's row says about where it stands (``turn``: whose move, while it goes
    on), and where to open it."""
    rules = rules_for(row.kind)
    if turn is None:
        state = rules.state_from_json(json.loads(row.state))
        seats = {s.colour: s for s in seats_of(row)}
        winner = rules.winner(state)
        return (f"Won by {seats[winner].display_name(rules.colours)}" if winner is not None
                else "Drawn"), f"/replay/{row.id}"
    if row.abandoned:
        return "Left unfinished", f"/replay/{row.id}"
    return f"{turn.name} to play", table_url(row.owner)


def game_entry(row: GameRow, browser: str | None, now: datetime) -> ui.element | None:
    """One game of the list: what it is, who played, how it stands (while it goes on, whose
    move, how long is left on a clock, and the "Your turn" mark on this browser's local
    move), and a way in. Returns where the mark goes for a game going on online, whose
    seat only the browser's tokens tell (:func:`mark_online_turns`)."""
    rules = rules_for(row.kind)
    turn = local_turn_of_row(row, browser)
    standing, where = _standing(row, turn)
    players = line_up(seats_of(row), rules.colours)
    ongoing = not where.startswith("/replay/")
    mark = None
    with ui.element("li").classes("game-entry").props(f'data-testid=game-{row.id}'):
        mode = "online" if row.mode == ONLINE else "on this device"
        ui.label(f"{rules.title} · {mode} · {_when(row.created_at)}").classes("font-medium")
        ui.label(players).classes("text-sm")
        with ui.element("div").classes("game-turn text-sm"):
            if ongoing and turn is not None:
                with ui.element("span").classes("turn-mark-slot") as mark:
                    if turn.mine:
                        turn_mark()
            ui.label(standing).classes("game-standing").props('data-testid=game-standing')
        if ongoing and turn is not None and turn.deadline is not None:
            # a line of its own: the mark, which may come once the page is connected, then
            # never makes the line it joins wrap
            with ui.element("div").classes("text-sm"):
                countdown(turn.deadline, now, lead=False)
        with ui.row().classes("gap-2"):
            if ongoing and (row.owner == browser or row.mode == ONLINE):
                ui.link("Continue", where).classes("btn btn-md btn-filled tone-primary").props(
                    'data-testid=open-game')
            ui.link("Replay", f"/replay/{row.id}").classes(
                "btn btn-md btn-outline tone-primary").props('data-testid=replay-game')
    return mark


async def my_games_page(server: Server, browser: str, host: bool,
                        keep: Callable[[dict[str, Any]], None],
                        connected: Callable[[], Awaitable[bool]]) -> None:
    """Every game this browser played (the host: every game on the server), newest first,
    and the import of a record file; once the page is ``connected``, the "Your turn" marks
    of its online games."""
    rows = [r for r in await server.store.games_of(None if host else browser)
            if plays(r.kind)]
    now = server.hub.wall()
    online: list[tuple[GameRow, ui.element]] = []
    with ui.column().classes("w-full max-w-xl mx-auto p-4 gap-3"):
        TextElement(tag="h1", text="My games")
        if host:
            ui.label("You are on the server's own machine, so every game on it is listed."
                     ).classes("text-sm text-grey-8")
        if not rows:
            ui.label("No games yet: the games you play on this device and online show up "
                     "here.").props('data-testid=no-games')
        with ui.element("ul").classes("game-list w-full").props('data-testid=games'):
            for row in rows:
                mark = game_entry(row, browser, now)
                if mark is not None and row.mode == ONLINE:
                    online.append((row, mark))
        box, error = import_box()
    if not await connected():
        return
    with box:
        record_upload(keep, error)
    if online:
        await mark_online_turns(server.rooms, online)


async def mark_online_turns(rooms: Rooms, entries: list[tuple[GameRow, ui.element]]) -> None:
    """Mark "Your turn" on the online games going on whose move is the seat this browser's
    token holds in their room (asked of the browser, once the page is connected)."""
    codes = {code for row, _ in entries if (code := room_of(row.owner)) is not None}
    held = {room.code: (room, colour) for room, colour in await held_seats(rooms, codes)}
    for row, mark in entries:
        room, colour = held.get(room_of(row.owner) or "", (None, None))
        if room is None or room.game_id != row.id:
            continue
        turn = turn_of_row(row, () if colour is None else (colour,))
        if turn is not None and turn.mine:
            with mark:
                turn_mark()


def import_box() -> tuple[ui.element, ui.label]:
    """The card where a record file is opened, and its error line; the upload control
    itself comes once the page is connected (:func:`record_upload`)."""
    with ui.card().classes("w-full") as card:
        ui.label("Open a game record").classes("font-medium")
        ui.label("A record file downloaded from any table, to watch it or go on from any "
                 "step.").classes("text-sm")
        error = ui.label("").classes("text-negative").props('role=alert data-testid=import-error')
    return card, error


def record_upload(keep: Callable[[dict[str, Any]], None], error: ui.label) -> None:
    """Open a record file: it is read and replayed here, and refused with the reason (on
    ``error``); one that replays is handed to ``keep`` and shown on the imported record's
    page.

    NiceGUI registers an address of its own for every upload control, and FastAPI's caches
    of what it calls keep the last few thousand of them alive, each with its whole page: a
    page loaded by a script that never connects must not make one."""

    async def received(upload: events.UploadEventArguments) -> None:
        data = await upload.file.read()
        try:  # a long game takes a moment to replay: not on the loop every table shares
            await asyncio.to_thread(lambda: replay(parse_record(data)))
        except RecordError as problem:
            error.set_text(f"This record was refused: {problem}")
            return
        keep(json.loads(data))
        ui.navigate.to(IMPORTED_URL)

    upload = ui.upload(
        on_upload=received, auto_upload=True, max_file_size=MAX_RECORD_BYTES,
        on_rejected=lambda: error.set_text(
            f"A record is a JSON file of at most {MAX_RECORD_BYTES // 1_000_000} MB.")
    ).props('accept=".json,application/json" flat bordered data-testid=import-record'
            ).classes("w-full")
    upload.add_slot("header", PICK_RECORD)
    upload.add_slot("list")  # no "0.0B / 0.00%", no unnamed buttons: the error says it


PICK_RECORD = """
<q-btn flat no-caps icon="upload_file" label="Choose a record file" class="w-full"
       @click="props.pickFiles" />
<input type="file" class="q-uploader__input" hidden accept=".json,application/json"
       aria-label="Record file" @change="props.addFiles($event.target.files)">
"""
"""The import's header: a button, and beside it (not in it, as in Quasar's own header) the
file input it opens, which the uploader finds by its class."""


IMPORTED_URL = "/replay/imported"


# --- replay --------------------------------------------------------------------------------

class ReplayView:
    """A record on the board, one step at a time: forward and back by action or by roll,
    by itself at a chosen speed, or straight to any step with the slider or the keys."""

    def __init__(self, record: Record, steps: list[Step], on_continue: Continue | None
                 ) -> None:
        self.record, self.steps, self.on_continue = record, steps, on_continue
        self.rules, self.look = record.rules, record.rules.look
        self.at = len(steps) - 1
        self.names = {s.colour: s.display_name(self.rules.colours) for s in record.seats}
        self.lines = [self._words(step) for step in steps]
        with ui.element("div").classes("table-layout w-full"):
            with ui.element("div").classes("board-column items-center min-w-0"):
                self.where = ui.label("").classes("text-base font-medium min-h-[3em]").props(
                    'data-testid=replay-step aria-live=polite')
                with ui.element("div").classes("w-full items-center board-stage"):
                    self.board = Board(self.rules, house=record.house)
                    self.board.classes("board-box")
            with ui.element("div").classes("controls-column gap-2 min-w-0"):
                self._controls()
                self._log()
        self.timer = ui.timer(SPEEDS["1×"], self._tick, active=False)
        ui.keyboard(on_key=self._key, ignore=["input", "select", "textarea"])
        self.show(self.at, animate=False)

    def _controls(self) -> None:
        with ui.row().classes("items-center gap-3 w-full no-wrap"):
            self.dice = Dice()
            self.dice_owner = ui.label("").classes("dice-owner text-xs")
        self.slider = ui.slider(min=0, max=len(self.steps) - 1, value=self.at,
                                on_change=lambda e: self.show(int(e.value), animate=False)
                                ).props('label data-testid=replay-slider '
                                        'aria-label="Step of the game"').classes(
            "w-full replay-slider")
        with ui.element("div").classes("replay-buttons"):
            for text, label, test_id, go in (
                    ("Start", "To the start (Home)", "replay-start",
                     lambda: self.show(0, animate=False)),
                    ("◀ Step", "Back one step (left arrow)", "replay-back",
                     lambda: self.move(-1)),
                    ("Step ▶", "Forward one step (right arrow)", "replay-forward",
                     lambda: self.move(1)),
                    ("◀ Roll", "Back to the roll before", "replay-back-roll",
                     lambda: self.roll(-1)),
                    ("Roll ▶", "On to the next roll", "replay-forward-roll",
                     lambda: self.roll(1)),
                    ("End", "To the end (End)", "replay-end",
                     lambda: self.show(len(self.steps) - 1, animate=False))):
                PlainButton(text, on_click=go, size="lg").props(
                    f'data-testid={test_id} aria-label="{label}" title="{label}"')
        with ui.row().classes("gap-2 w-full items-center"):
            self.play_button = PlainButton("Play", on_click=self.toggle, filled=True,
                                           size="lg").props(
                'data-testid=replay-play aria-keyshortcuts=Space')
            self.speed = ui.toggle(list(SPEEDS), value="1×", on_change=self._speed).props(
                'data-testid=replay-speed aria-label=Speed')
            if self.on_continue is not None:
                self.continue_button = PlainButton(
                    "Play on from here", on_click=self._continue, size="lg").props(
                    'data-testid=continue-from-step')

    def _log(self) -> None:
        entries = "".join(
            f'<div role="listitem" id="step-{k}" data-step="{k}">{k}. {html.escape(line)}</div>'
            for k, line in enumerate(self.lines) if k)
        with ui.expansion("Moves", value=True).classes("w-full").props('dense'):
            self.log = ui.html(entries, sanitize=False).classes("log replay-log text-sm").props(
                'data-testid=log role=list aria-label="Moves, oldest first" tabindex=0')
        self.log.on("click", self._step_clicked, js_handler=(
            "(e) => { const s = e.target.closest('[data-step]'); if (s) emit(s.dataset.step); }"))

    def _words(self, step: Step) -> str:
        said = [self.look.describe(e, self.names.__getitem__) for e in step.events]
        return "; ".join(s for s in said if s) or ("The start" if step.number == 0 else "")

    def _last_roll(self, at: int) -> tuple[tuple[int, ...] | None, str | None]:
        for step in reversed(self.steps[1:at + 1]):
            for event in reversed(step.events):
                if isinstance(event, Rolled):
                    return tuple(event.dice), self.names[event.colour]
        return None, None

    def _step_clicked(self, e: events.GenericEventArguments) -> None:
        """A line of the move list tapped: the browser sends its step number as text."""
        step = e.args
        if isinstance(step, str) and step.isascii() and step.isdigit() and len(step) < 10:
            self.show(int(step))

    def show(self, at: int, animate: bool = True) -> None:
        """Draw step ``at`` (the moves of that step animated when coming from the one
        before it)."""
        at = max(0, min(at, len(self.steps) - 1))
        moves = self.rules.motions(self.steps[at].events) if animate and at == self.at + 1 \
            else []
        self.at = at
        state = self.steps[at].state
        self.board.show(state.pieces, moves=moves)
        dice, owner = self._last_roll(at)
        self.dice.show(dice, owner=owner)
        self.dice_owner.set_text(f"{owner}'s roll" if owner else "")
        self.where.set_text(f"Step {at} of {len(self.steps) - 1}: {self.lines[at]}")
        if self.slider.value != at:
            self.slider.set_value(at)
        if self.on_continue is not None:
            self.continue_button.set_enabled(not self.rules.over(state))
        ui.run_javascript(
            "document.querySelectorAll('.replay-log [aria-current]').forEach("
            "e => e.removeAttribute('aria-current'));"
            f"const s = document.getElementById('step-{at}');"
            "if (s) { s.setAttribute('aria-current', 'step'); const log = s.parentElement;"
            " log.scrollTop = s.offsetTop - log.clientHeight / 2; }")

    def move(self, by: int) -> None:
        self.show(self.at + by)

    def roll(self, by: int) -> None:
        """To the next (or previous) step that rolled."""
        k = self.at + by
        while 0 < k < len(self.steps) - 1 and not self._rolled(k):
            k += by
        self.show(k, animate=False)

    def _rolled(self, k: int) -> bool:
        return any(isinstance(e, Rolled) for e in self.steps[k].events)

    def toggle(self) -> None:
        playing = not self.timer.active
        if playing and self.at == len(self.steps) - 1:
            self.show(0, animate=False)
        self.timer.active = playing
        self.play_button.set_text("Pause" if playing else "Play")

    def _tick(self) -> None:
        if self.at >= len(self.steps) - 1:
            self.toggle()
            return
        self.move(1)

    def _speed(self, change: events.ValueChangeEventArguments) -> None:
        self.timer.interval = SPEEDS.get(str(change.value), 1.0)

    def _key(self, key: events.KeyEventArguments) -> None:
        if not key.action.keydown:
            return
        actions = {"ArrowRight": lambda: self.move(1), "ArrowLeft": lambda: self.move(-1),
                   "Home": lambda: self.show(0, animate=False),
                   "End": lambda: self.show(len(self.steps) - 1, animate=False),
                   " ": self.toggle}
        work = actions.get(str(key.key))
        if work is not None:
            work()

    async def _continue(self) -> None:
        if self.on_continue is not None:
            await self.on_continue(self.record, self.steps[self.at])


def _replayed(record_json: dict[str, Any]) -> tuple[Record, list[Step]] | str:
    """A record read and replayed, or why it does not replay."""
    try:
        record = read_record(record_json)
        return record, replay(record)
    except RecordError as problem:
        return f"This record does not replay: {problem}"


async def replay_page(record_json: dict[str, Any] | None, game_id: str | None,
                      on_continue: Continue) -> None:
    """A record's replay, its dice check and its download; a clear message when there is
    no such record or it does not replay. The replay runs on a thread: a long game takes
    a moment, which the other tables' updates must not wait for."""
    replayed = None if record_json is None else await asyncio.to_thread(_replayed, record_json)
    with ui.column().classes("w-full max-w-6xl mx-auto p-2 gap-2"):
        if not isinstance(replayed, tuple):
            TextElement(tag="h1", text="Replay")
            ui.label(replayed or "There is no such game here.").props(
                'role=alert data-testid=replay-error')
            ui.link("My games", "/games")
            return
        record, steps = replayed
        TextElement(tag="h1", text=f"Replay of {record.rules.title}").classes("text-lg")
        ui.label(line_up(record.seats, record.rules.colours)).classes("text-sm")
        ReplayView(record, steps, on_continue)
        with ui.expansion("About these dice").classes("w-full").props('dense'):
            ui.label(summary(record, steps[-1].state)).classes("text-sm").props(
                'data-testid=verification')
            if record.commitment:
                ui.label(f"Commitment: {record.commitment}").classes("text-xs break-all")
        if game_id is not None:
            with ui.row().classes("gap-4 items-center"):
                ui.link("Download the record", record_url(game_id)).classes(
                    "touch-target").props('data-testid=export-record download=""')
                if record.rules.over(steps[-1].state):
                    ui.link("Charts: how the game went", f"/games/{game_id}/charts").classes(
                        "touch-target").props('data-testid=charts-link')
