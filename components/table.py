"""The game table: board, dice, turn controls, hint, status line, log and winner summary.

A ``TableView`` belongs to one browser tab. It holds the widgets, sends actions to the live
game and redraws when the game tells it something changed; what to show comes from its
``TableModel`` (``table_model.py``: the picks, the hint, the status line, the screen
description), and what a choice does from the engine. It never decides a rule.

Every press carries the stamp its control showed (``presses.py``): an action is sent against
the version the person saw, never against whatever the server drew since, and every press
gets an answer (the next position, or a refusal in words) that gives the controls a new
stamp.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from nicegui import background_tasks, ui

from parcheesi.core.events import OpeningRolled, Rolled
from parcheesi.core.rules import Action, Event
from parcheesi.core.state import IllegalAction
from parcheesi.server.clocks import clock_words
from parcheesi.server.live import NOT_POSSIBLE, STALE, LiveGame, Refused, SaveFailed, Seating
from parcheesi.server.ratings import Change

from .badges import Badges
from .board_view import Board
from .controls import Controls
from .dice_view import Dice
from .game_details import game_details
from .meter import Meter
from .move_log import MoveLog
from .palette import paints_by_name
from .presses import stamp_text, version_of
from .region import Region
from .seat_switch import Switch, seat_switches
from .settings import ARROW_ICON, Settings
from .table_model import Screen, Seen, Standing, TableModel
from .turns import tell_turn, turn_words

CLOSE_ICON = ("M19 6.41L17.59 5 12 10.59 6.41 5 5 6.41 10.59 12 5 17.59 6.41 19 12 13.41 17.59 19 "
              "19 17.59 13.41 12z|0 0 24 24")
"""A close cross drawn as an SVG path (the pages load no icon font)."""
SHARES_WAIT = 5.0
"""Seconds at most the first action waits for this browser's shares of the dice (the
browser's answer has 3)."""
NOT_UNDERSTOOD = "That press was not understood. Please try again."
NOT_THROUGH = "That did not go through. Please try again."
TAKEN_BACK = "Move taken back: play this roll again."
HAND_OVER_NOTE = "Tap when you have the phone."
log = logging.getLogger("parcheesi.ui")
RatingChanges = Callable[[str], Awaitable[list[Change]]]
"""A finished game's rating changes by its id (``Ratings.changes``)."""


class TableView:
    """The widgets of one table, applying the :class:`Screen` its model describes."""

    def __init__(self, seating: Seating, settings: Settings,
                 on_new_game: Callable[[], Any], on_play_again: Callable[[], Any] | None,
                 on_leave: Callable[[], Any] | None = None,
                 away: Callable[[], frozenset[int]] | None = None,
                 switch_seat: Switch | None = None,
                 rating_changes: RatingChanges | None = None) -> None:
        self.seating = seating
        self.game = game = seating.game
        self.settings = settings
        self.on_new_game = on_new_game
        self.on_play_again = on_play_again
        """Start the next game at the same seats (None: not offered, at a tournament's
        table)."""
        self.on_leave = on_leave
        """Leave the room from the finish (a room's guests; None: no such choice)."""
        self.away = away or frozenset
        """The seats whose players are away (a room's, who knows who has a page open)."""
        self.switch_seat = switch_seat
        """Switch a seat between a person and a computer (a local table's; None: a room's)."""
        self.rating_changes = rating_changes
        """The people's rating changes from a finished game (the finish card says them)."""
        self.seats_drawn: tuple[str, ...] = ()
        """Who played each seat when the seat switches were last drawn."""
        self.version_seen = game.version
        """The game version the table on screen was drawn for (part of its stamp)."""
        self.answers = 0
        """Answers this table gave to presses and reconnections (the rest of its stamp)."""
        self.model = TableModel()
        self.option_actions: tuple[Action, ...] = ()
        """The action of each movement option shown, in order."""
        self.chip_values: list[int] = []
        """The dice portion each chip shown stands for, in order."""
        self.busy = False
        self.shares: asyncio.Future[None] | None = None
        """This browser's shares of the dice on their way (``pages.add_randomness``): the
        game's first action waits for them, which a quick first press would leave out."""
        self.result_closed = False
        """Whether this table's player closed the finish card (to look at the final board)."""
        self.finish_drawn: tuple[str | None, bool] = (None, False)
        """The winner and whether the card was closed, as last drawn."""
        self.holder: int | None = None
        """The seat whose person took the phone last at a hand-over (a shared screen of
        several people): the hand-over screen shows when another person's turn comes."""
        self.last_person: int | None = None
        """The seat of the person who acted last (or acts now): the shared screen's board
        keeps their colour at the bottom while computers play."""
        self.hand_over_drawn: tuple[Any, ...] | None = None
        """What the hand-over screen showed when last drawn (None: it was not shown)."""
        self.your_turn = False
        self.turn_told = False
        """Whether the tab was last told it is its viewer's turn (a new page's title says
        nothing of it)."""

        self.client = ui.context.client
        # Each part that changes on its own sits in a Region (a redraw boundary): an update
        # then costs the browser that part, not the whole page.
        self.root = ui.element("div").classes("table-layout w-full")
        with self.root:
            with Region().classes("board-column items-center"):
                with ui.element("div").classes("turn-row w-full"):
                    with Region().classes("turn-box"):
                        self.turn = ui.label("").classes("text-lg font-medium").props(
                            'data-testid=turn aria-live=polite')
                    # A room's tools on the turn line, over the badges (the host's, the
                    # seat's, the reactions): filled by the room page (lobby.table_tools).
                    self.room_bar = Region("row").classes("room-bar")
                self.badges = Badges(game)
                self.meter = Meter(game.rules.colours, game.state.colours)
                if game.house:
                    ui.label("House rules: " + game.rules.look.house_line(game.house)
                             ).classes("text-sm house-rules").props('data-testid=house-rules')
                if game.turn_clock:
                    ui.label(f"Turn clock: {clock_words(game.turn_clock)}").classes(
                        "text-sm").props('data-testid=table-clock')
                # The board in a region of its own: its update redraws the board alone, not
                # the winner overlay beside it.
                with ui.column().classes("w-full items-center board-stage"):
                    with Region().classes("w-full items-center"):
                        self.board = Board(game.rules, self._board_click, self._target_click,
                                           house=game.house,
                                           on_stuck_click=self._stuck_click)
                    self.board.classes("board-box")
                    self.winner = Region().classes("winner-overlay")
                    self.winner.on("click", lambda: self._close_result(True),
                                   js_handler="(e) => { if (e.target === e.currentTarget) "
                                              "emit(); }")
                self.result_button = Region().classes("items-center")
            with Region().classes("controls-column gap-2"):
                self._controls()
            # Over everything, on a shared screen of several people (``_show_hand_over``).
            self.hand_over = Region().classes("hand-over-layer")
        game.hold()
        if self.client.has_socket_connection:  # a table drawn after the page connected
            game.subscribe(self._changed)
        # The table listens while its page is connected: from the first connection (a page
        # fetched but never opened makes no computer play), not while a phone sleeps (NiceGUI
        # reports every dropped socket, also when the page reconnects a moment later), and
        # redraws on every return; it lets go for good when the page is deleted.
        self.client.on_disconnect(lambda: game.unsubscribe(self._changed))
        self.client.on_connect(self._reconnected)
        self.client.on_delete(self._deleted)
        self.model.missed(self.seen())  # what happened before this page: its last move
        self.redraw([])

    def _controls(self) -> None:
        # One component for every control that changes with the actions (see controls.py),
        # alone in its region: its update re-renders it, not the panels below.
        with Region().classes("w-full"):
            self.controls = Controls(on_press=self._pressed, on_chip=self._chip).classes(
                "nicegui-column gap-2 w-full")
        with ui.expansion("Moves", value=True).classes("w-full").props(
                f'dense data-testid=log-panel expand-icon="{ARROW_ICON}"'), Region():
            self.log_view = MoveLog().classes("log text-sm").props(
                'data-testid=log role=list aria-label="Moves, newest first"')
        with ui.expansion("This game").classes("w-full").props(
                f'dense data-testid=game-panel expand-icon="{ARROW_ICON}"'):
            game_details(self.game)
        if self.switch_seat is not None:
            with ui.expansion("Who plays").classes("w-full").props(
                    f'dense data-testid=seats-panel expand-icon="{ARROW_ICON}"'):
                self.seats_box = Region().classes("w-full")

    # --- names and permissions -----------------------------------------------------------------

    def can_act(self) -> bool:
        """A person at this tab may act now (the seating says: a human seat, this tab's
        online, is to act)."""
        return self.seating.may_act()

    def seen(self) -> Seen:
        """What the model reads of the game now."""
        game = self.game
        return Seen(game.rules, game.state, game.version,
                    {c: s.display_name(game.rules.colours) for c, s in game.seats.items()},
                    {c: s.description(game.rules.colours) for c, s in game.seats.items()},
                    game.stats, self.can_act(), game.fault,
                    {c: s.level for c, s in game.seats.items() if not s.is_human},
                    self.seating.view_colour, game.deadline, self.away(), game.can_undo())

    def stamp(self) -> str:
        """What every action control of this table shows and sends back when pressed."""
        return stamp_text(self.version_seen, self.answers)

    def say(self, text: str) -> None:
        """Put ``text`` on the status line (the table's answer, which always follows, shows
        it)."""
        self.model.status = text

    # --- presses -------------------------------------------------------------------------------

    async def _press(self, stamp: Any, work: Callable[[int], Any]) -> None:
        """Handle a press made against the position its stamp names. ``work`` gets that
        version; a press made against any other position does nothing but say so. Whatever
        happens, the table answers with a new stamp, which frees the browser's controls."""
        drawn = self.version_seen
        try:
            version = version_of(stamp)
            if version is None:
                log.info("press without a stamp", extra={"game": self.game.id})
                self.say(NOT_UNDERSTOOD)
            elif version != self.game.version:
                self.say(STALE)
            else:
                result = work(version)
                if inspect.isawaitable(result):
                    await result
        finally:
            if self.version_seen == drawn:  # no new position drawn: answer with a new stamp
                self.answers += 1
                self.redraw([])

    async def send(self, action: Action, version: int) -> bool:
        """Submit ``action`` made against ``version``; say why when it is not accepted."""
        if self.busy:  # only a forged page sends again before the answer: it is dropped
            return False
        self.busy = True
        try:
            if version == 0 and self.shares is not None and not self.shares.done():
                await asyncio.wait({self.shares}, timeout=SHARES_WAIT)
            await self.seating.act(action, version)
        except (Refused, SaveFailed) as error:
            self.say(str(error))
            return False
        except IllegalAction:  # words of the engine are not for players
            self.say(NOT_POSSIBLE)
            return False
        except Exception:
            log.exception("action failed", extra={"game": self.game.id})
            self.say(NOT_THROUGH)
            return False
        finally:
            self.busy = False
        return True

    def _pressed(self, control: str | None, index: int, stamp: Any) -> Awaitable[None]:
        """A press of one of the controls (see ``Controls``): the work of that control, made
        against the position the stamp names; a press that names no control shown is
        answered with nothing done. An option's action is the one shown when the press
        arrived (taken now, before anything else can redraw the options)."""
        if control == "roll":
            return self.roll(stamp)
        if control == "piece":
            return self.press_piece(index, stamp)
        if control == "option":
            return self.press_option(self.option_actions[index], stamp)
        if control == "hint":
            return self.show_hint(stamp)
        if control == "best":
            return self.play_best(stamp)
        if control == "undo":
            return self._press(stamp, self._undo)
        return self._press(stamp, lambda _: None)

    async def roll(self, stamp: Any) -> None:
        await self._press(stamp, self._roll)

    async def _roll(self, version: int) -> None:
        action = self.model.roll_action(self.seen())
        if action is not None:
            await self.send(action, version)

    async def press_piece(self, piece: int, stamp: Any) -> None:
        await self._press(stamp, lambda version: self.choose_piece(piece, version))

    async def choose_piece(self, piece: int, version: int) -> None:
        action = self.model.pick_piece(self.seen(), piece, at_once=self.settings.one_tap)
        if action is not None:  # a dice portion chosen first, or the piece's one move
            await self.take(action, version)

    def choose_portion(self, value: int) -> None:
        self.model.pick_portion(value)
        self.redraw([])

    async def press_option(self, action: Action, stamp: Any) -> None:
        await self._press(stamp, lambda version: self.take(action, version))

    async def take(self, action: Action, version: int) -> None:
        self.model.taking()
        await self.send(action, version)

    async def show_hint(self, stamp: Any) -> None:
        await self._press(stamp, lambda _: self._hint())

    async def _hint(self) -> None:
        seen = self.seen()
        if not self.model.hint_applies(seen):
            self.model.show_hint(seen, None, None)
        else:
            decision = await self._best(seen.state)
            if self.game.version == seen.version:  # else the position moved on meanwhile
                self.model.show_hint(seen, decision.reason, decision.state)

    async def _best(self, state: Any) -> Any:
        """The hint's decision for ``state``, worked out in a worker thread: Expert searches
        for up to a quarter of a second, and this event loop serves every table."""
        return await asyncio.to_thread(self.game.rules.hint, state)

    async def play_best(self, stamp: Any) -> None:
        await self._press(stamp, self._play_best)

    async def _play_best(self, version: int) -> None:
        """The hint's actions for the position at ``version``, each against the version the
        one before it made."""
        if not self.model.hint_applies(self.seen()):
            return
        self.model.hinted = None
        decision = await self._best(self.game.state)
        if self.game.version != version:  # the position moved on while the hint thought
            return
        for k, action in enumerate(decision.actions):
            if not await self.send(action, version + k):
                break

    async def _undo(self, version: int) -> None:
        """Take back the person's last move of this roll; say so, or why not."""
        try:
            await self.game.undo(version=version)
        except (Refused, SaveFailed) as error:
            self.say(str(error))
            return
        self.model.taking()
        self.say(TAKEN_BACK)
        self.redraw([])

    async def _target_click(self, colour: int, end: int, stamp: Any) -> None:
        await self._press(stamp, lambda version: self._take_target(end, version))

    async def _take_target(self, end: int, version: int) -> None:
        action = self.model.pick_target(self.seen(), end)
        if action is not None:
            await self.take(action, version)

    def _explained(self) -> int | None:
        """The colour whose pieces that cannot move say why when tapped: the player to act
        here, in learning mode."""
        if not self.settings.learning or not self.can_act():
            return None
        return self.game.turn

    def _stuck_click(self, colour: int, piece: int) -> None:
        """Learning mode: a tap on a piece that cannot move puts the game's reason on the
        status line (the engine says why; the table only shows it)."""
        if colour != self._explained():
            return
        reason = self.game.rules.stuck_reason(self.game.state, piece)
        if reason:
            self.say(reason)
            self.redraw([])

    async def _board_click(self, colour: int, piece: int, stamp: Any) -> None:
        if colour == self.game.turn:
            await self.press_piece(piece, stamp)
        else:
            await self._press(stamp, lambda _: None)

    # --- drawing ---------------------------------------------------------------------------------

    def _reconnected(self) -> None:
        """Back after the socket dropped: listen again and answer with a fresh stamp (a press
        the browser sent before the drop may never have arrived)."""
        if self._changed not in self.game.listeners:
            self.game.subscribe(self._changed)
        if self.version_seen != self.game.version:
            self.model.missed(self.seen())
        self.answers += 1
        with self.root:
            self.redraw([])

    def _deleted(self) -> None:
        self.game.unsubscribe(self._changed)
        self.game.release()

    def _changed(self, game: LiveGame, events: list[Event]) -> None:
        """Called by the live game (possibly from the computers' task) after each action."""
        with self.root:
            self.model.changed(self.seen(), events)
            self.redraw(events)

    def _sound(self, screen: Screen) -> list[Any] | None:
        """The sound of what just happened and its volume, played by the board with the
        update (no message of its own), or None when the sound is off or nothing happened.
        The turn reaching the one person at this table has its own sound (and a vibration),
        unless something louder (a capture, a win) happened at the same time."""
        arrived = screen.your_turn and not self.your_turn
        self.your_turn = screen.your_turn
        kind = screen.sound
        if arrived and kind in (None, "move", "roll"):
            kind = "turn"
        if not self.settings.sound or kind is None:
            return None
        return [kind, round(self.settings.volume / 100, 2)]

    def _tell_turn(self, yours: bool) -> None:
        """Tell the tab (its title, a notification) when its viewer's turn comes or passes:
        once each time, not on every redraw."""
        if yours != self.turn_told:
            self.turn_told = yours
            tell_turn(self.client, yours, turn_words(self.game), self.settings.notify_turn)

    def rotation(self) -> int:
        """The quarter turns that bring the chosen colour to the bottom of the board."""
        return self.board.layout.quarter_turns(self.bottom_colour())

    def bottom_colour(self) -> int:
        choice = self.settings.orientation
        if choice == "auto":
            local = self.seating.view_colour
            if local is None and self.game.shared_by_people:
                local = self.last_person
            return local if local is not None and local in range(4) else 0
        if choice == "turn":
            return self.game.turn
        # A colour of the setting's names, or the colour of the same paint in this game.
        paint = paints_by_name().get(choice)
        paints = self.game.rules.look.paints
        return paints.index(paint) if paint in paints else 0

    def _draw_seat_switches(self) -> None:
        """The local table's seat switches, drawn again when who plays a seat changed."""
        kinds = tuple(self.game.seats[c].kind for c in self.game.state.colours)
        if self.switch_seat is None or kinds == self.seats_drawn:
            return
        self.seats_drawn = kinds
        self.seats_box.clear()
        with self.seats_box:
            seat_switches(self.game, self.switch_seat)

    def redraw(self, events: list[Event]) -> None:
        """Draw the model's screen for the game now (``events``: what led there)."""
        self.version_seen = self.game.version
        if not self.game.over and self.game.seat_to_act().is_human:
            self.last_person = self.game.turn
        stamp = self.stamp()
        screen = self.model.screen(self.seen(), events)
        self._draw_seat_switches()
        self.turn.set_text(screen.turn)
        self._tell_turn(screen.your_turn)
        self.badges.show(screen.badges)
        self.meter.show(self.game.win_chances() if self.settings.show_chances else None)
        board = screen.board
        self.board.show(board.pieces, movable=board.movable, selected=board.selected,
                        targets=board.targets, target_labels=board.target_labels,
                        labels=board.labels, rotation=self.rotation(),
                        moves=board.moves,
                        reduced_motion=self.settings.reduced_motion_for_board(),
                        sound=self._sound(screen), bursts=board.bursts, stamp=stamp,
                        explain=self._explained())
        self.option_actions = tuple(action for _, action in screen.options)
        self.chip_values = [c.value for c in screen.chips]
        self.controls.show(screen, stamp, tumble=screen.rolled
                           and not self.settings.reduced_motion_for_board())
        self.log_view.show(screen.log)
        self._show_winner(screen)
        self._show_hand_over(screen)

    def _hand_over_to(self) -> int | None:
        """The seat the phone goes to now: on a shared screen of several people (with the
        hand-over on), the person to act when another person had the phone last."""
        game = self.game
        if not (self.settings.hand_over and game.shared_by_people) or game.over:
            return None
        seat = game.seat_to_act()
        return seat.colour if seat.is_human and seat.colour != self.holder else None

    def _show_hand_over(self, screen: Screen) -> None:
        """The hand-over screen over the whole page: whose turn it is, in their colour, what
        just happened and the game's latest roll in large dice (whoever rolled it); a tap
        anywhere (or its button) means the next person has the phone."""
        to = self._hand_over_to()
        roll = self._latest_roll()
        drawn = None if to is None else (to, screen.status, roll)
        if drawn == self.hand_over_drawn:
            return
        self.hand_over_drawn = drawn
        self.hand_over.clear()
        if to is None:
            return
        title = f"{self.game.name_of(to)}'s turn"
        with self.hand_over, ui.element("div").classes(
                f"hand-over-screen tone-{self.game.rules.colours[to]}").props(
                'data-testid=hand-over role=dialog aria-modal=true') as cover:
            cover._props["aria-label"] = title  # a name is any text: not through props()
            cover.on("click", lambda: self._take_phone(to))
            ui.element("div").classes("hand-over-dot").props("aria-hidden=true")
            ui.label(title).classes("hand-over-title").props(
                'data-testid=hand-over-title role=heading aria-level=2')
            ui.label(HAND_OVER_NOTE).classes("text-lg")
            if screen.status:
                ui.label(screen.status).classes("hand-over-news").props(
                    'data-testid=hand-over-news')
            if roll is not None:
                roller = self.game.name_of(roll[0])
                Dice().classes("hand-over-dice").props("data-testid=hand-over-dice").show(
                    roll[1], roller)
                ui.label(f"{roller}'s roll").classes("text-sm hand-over-news")
            # The cover takes the tap (the button's too): one handler, however it came.
            ui.button("I have the phone", color=None).props(
                'unelevated no-caps size=lg autofocus data-testid=hand-over-ready').classes(
                "hand-over-ready")

    def _latest_roll(self) -> tuple[int, tuple[int, ...]] | None:
        """(colour, dice) of the newest roll of the game (an opening roll too), if any."""
        for event in reversed(self.game.stats.recent):
            if isinstance(event, Rolled | OpeningRolled):
                return event.colour, event.dice
        return None

    def _take_phone(self, colour: int) -> None:
        """The person of ``colour`` has the phone: the table shows for them."""
        self.holder = self.last_person = colour
        self.redraw([])

    def _chip(self, k: int) -> None:
        self.choose_portion(self.chip_values[k])

    def _show_winner(self, screen: Screen) -> None:
        """The finish card over the board once the game is over; closed (its close button,
        Escape or a tap beside it), it leaves the final board in view and a button brings it
        back."""
        if screen.winner is None:
            self.result_closed = False
        drawn = (screen.winner, self.result_closed)
        if drawn == self.finish_drawn:
            return
        self.finish_drawn = drawn
        self.winner.clear()
        self.result_button.clear()
        if screen.winner is None:
            return
        if self.result_closed:
            with self.result_button:
                ui.button("Show result", on_click=lambda: self._close_result(False)).props(
                    'color=primary data-testid=show-result')
            return
        with self.winner, ui.card().classes("winner-card").props(
                'data-testid=winner role=dialog aria-label="Game over"'):
            colours = [self.game.rules.colours[c] for c in sorted(self.game.seats)]
            ui.html(f'<div class="confetti" aria-hidden="true">{confetti(colours)}</div>',
                    sanitize=False)
            with ui.row().classes("w-full items-center no-wrap"):
                ui.label(f"{screen.winner} wins!").classes("text-2xl font-bold grow")
                ui.button(icon=CLOSE_ICON, on_click=lambda: self._close_result(True)).props(
                    'flat round aria-label="Close" data-testid=finish-close').classes(
                    "finish-close")
            ui.table(columns=STANDINGS_COLUMNS, rows=[_row(s) for s in screen.standings]
                     ).props("dense flat").classes("w-full")
            if self.rating_changes is not None:
                changes = ui.row().classes("w-full gap-x-4 gap-y-1 text-sm")
                background_tasks.create(self._show_changes(changes, self.rating_changes),
                                        name="rating changes")
            with ui.row().classes("gap-2 w-full"):
                if self.on_play_again is not None:
                    ui.button("Play again", on_click=self.on_play_again).props(
                        'color=primary data-testid=play-again').classes("grow")
                ui.button("New game", on_click=self.on_new_game).props(
                    'outline data-testid=winner-new-game').classes("grow")
                if self.on_leave is not None:
                    ui.button("Leave room", on_click=self.on_leave).props(
                        'outline data-testid=leave-room').classes("grow")
            ui.link("Charts: how the game went", f"/games/{self.game.id}/charts").classes(
                "touch-target justify-center w-full").props('data-testid=charts-link')

    async def _show_changes(self, box: ui.row, changes: RatingChanges) -> None:
        """Each person's rating change from this game, once it is rated: "Ann +14"."""
        try:
            shown = await changes(self.game.id)
        except Exception:  # the card stands without them; the leaderboard has them later
            log.exception("rating changes not shown", extra={"game": self.game.id})
            return
        if box.is_deleted:
            return
        with box:
            for change in shown:
                seat = self.game.seats.get(change.colour)
                if seat is None or seat.person != change.person:
                    continue  # a computer's or a guest's seat
                words = f"{change.delta:+d}" if change.rated else "not rated"
                label = ui.label(f"{change.name} {words} ({change.after})").props(
                    "data-testid=rating-change")
                label.props.update({"data-person": change.name, "data-delta": change.delta})

    def _close_result(self, closed: bool) -> None:
        """Close the finish card (or bring it back) and redraw."""
        self.result_closed = closed
        self.redraw([])


def confetti(colours: Sequence[str]) -> str:
    """Twelve pieces of confetti across the winner card, falling at staggered moments, in
    turn in the colours of the table (each colour's ``tone-`` class gives its fill)."""
    return "".join(f'<i class="tone-{colours[k % len(colours)]}" style="left:{k * 8 + 6}%;'
                   f'animation-delay:{(k * 5 % 12) / 20}s"></i>' for k in range(12))

STANDINGS_COLUMNS = [
    {"name": "place", "label": "Place", "field": "place"},
    {"name": "player", "label": "Player", "field": "player", "align": "left"},
    {"name": "home", "label": "HOME", "field": "home"},
    {"name": "captures", "label": "Captures", "field": "captures"},
    {"name": "lost", "label": "Lost", "field": "lost"},
]


def _row(standing: Standing) -> dict[str, Any]:
    return {"place": standing.place, "player": standing.player, "home": standing.home,
            "captures": standing.captures, "lost": standing.lost}
