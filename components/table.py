"""The game table: board, dice, turn controls, hint, status line, log and winner summary.

A ``TableView`` belongs to one browser tab. It reads the live game's state, sends actions to
it and redraws when the game tells it something changed; it never decides a rule. What the
player has selected (a piece, or a dice portion) is the only state it keeps.

Every press carries the stamp its control showed (``presses.py``): an action is sent against
the version the person saw, never against whatever the server drew since, and every press
gets an answer (the next position, or a refusal in words) that gives the controls a new
stamp.
"""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from nicegui import ui

from parcheesi.ai import hint
from parcheesi.board import COLOURS, HOME, START, progress_of_square
from parcheesi.choices import Choice, choices, for_piece, pieces_to_choose, using_portion
from parcheesi.game import (
    Action,
    Captured,
    Entered,
    Event,
    Moved,
    NoMove,
    Roll,
    Rolled,
    TurnPassed,
    Won,
    standings,
)
from parcheesi.state import IllegalAction, Phase, State
from parcheesi.tables import STALE, LiveGame, Refused, SaveFailed

from .board import Board
from .buttons import PlainButton
from .dice import Dice
from .palette import TONES
from .presses import stamp_text, version_of
from .region import Region
from .settings import ARROW_ICON, Settings
from .texts import describe, move_log, option_label, piece_label
from .updates import set_props

LOG_LINES = 8
NOT_UNDERSTOOD = "That press was not understood. Please try again."
NOT_POSSIBLE = "That move is not possible now."
NOT_THROUGH = "That did not go through. Please try again."
log = logging.getLogger("parcheesi.ui")


def animations(events: list[Event], before: State) -> list[tuple[int, int, int, int]]:
    """(colour, piece, from, to) for every piece the events moved, in order."""
    pieces = [list(own) for own in before.pieces]
    out = []
    for event in events:
        if isinstance(event, Entered):
            out.append((event.colour, event.piece, START, 0))
            pieces[event.colour][event.piece] = 0
        elif isinstance(event, Moved):
            out.append((event.colour, event.piece, event.start, event.end))
            pieces[event.colour][event.piece] = event.end
        elif isinstance(event, Captured):
            was = progress_of_square(event.colour, event.square)
            out.append((event.colour, event.piece, was, START))
            pieces[event.colour][event.piece] = START
    return out


Send = Callable[[Action, int], Awaitable[Any]]
"""How this tab submits an action made against a game version."""


class TableView:
    def __init__(self, game: LiveGame, settings: Settings, on_new_game: Callable[[], Any],
                 local_colour: int | None = None, *, seat: int | None = None,
                 send: Send | None = None) -> None:
        self.game = game
        self.settings = settings
        self.on_new_game = on_new_game
        self.local_colour = local_colour if seat is None else seat
        """The seat this tab plays in a solo or online game (the board turns to it)."""
        self.seat = seat
        """Online: the only seat this tab may act for (-1: watching only); None: every human
        seat (a local game)."""
        self._send = send or (lambda action, version: game.act(action, version=version))
        self.version_seen = game.version
        """The game version the table on screen was drawn for (part of its stamp)."""
        self.answers = 0
        """Answers this table gave to presses and reconnections (the rest of its stamp)."""
        self.selected: int | None = None
        self.portion: int | None = None
        self.hinted: State | None = None
        """Where the hint's moves would leave the roll, while the hint is shown."""
        self._choices: tuple[int, list[Choice]] = (-1, [])
        self.shown_state = game.state
        self.last_roll: tuple[int, int] | None = None
        """The newest roll seen, still shown after a roll that passed the turn at once."""
        self.chip_values: list[int] = []
        """The dice portion each chip stands for, in the order of ``self.chip_buttons``."""
        self.drawn_options: Any = None
        self.option_buttons: list[PlainButton] = []
        self.busy = False
        self.winner_shown = False

        self.client = ui.context.client
        # Each part that changes on its own sits in a Region (a redraw boundary): an update
        # then costs the browser that part, not the whole page.
        self.root = ui.element("div").classes("table-layout w-full")
        with self.root:
            with Region().classes("board-column items-center"):
                with Region():
                    self.turn = ui.label("").classes("text-lg font-medium").props(
                        'data-testid=turn aria-live=polite')
                with Region().classes("w-full items-center"):
                    self.board = Board(on_piece_click=self._board_click)
                    self.board.classes("board-box")
            with Region().classes("controls-column gap-2"):
                with ui.row().classes("items-center gap-3 w-full"):
                    with Region():
                        self.dice = Dice()
                    self.chip_row = Region("row").classes("gap-1")
                    self.chip_buttons: list[PlainButton] = []
                    ui.space()
                    with Region():
                        self.roll_button = PlainButton.stamped(
                            "Roll", on_press=self.roll, stamp=self.stamp(), filled=True,
                            size="lg").props('data-testid=roll aria-keyshortcuts=R')
                with Region("row").classes("gap-2 w-full no-wrap"):
                    self.piece_buttons = []
                    for piece in range(4):
                        button = PlainButton.stamped(
                            str(piece + 1), size="lg", stamp=self.stamp(),
                            on_press=functools.partial(self.press_piece, piece))
                        button.props(f'data-testid=piece-{piece + 1} '
                                     f'aria-keyshortcuts={piece + 1}').classes("grow")
                        self.piece_buttons.append(button)
                with Region().classes("w-full min-h-[44px]"):
                    self.choose_note = ui.label("").classes("text-grey-8")
                    self.options = ui.row().classes("gap-2 w-full")
                with Region("row").classes("gap-2 w-full"):
                    self.hint_button = PlainButton.stamped(
                        "Hint", on_press=self.show_hint, stamp=self.stamp()).props(
                        'data-testid=hint')
                    self.best_button = PlainButton.stamped(
                        "Play best", on_press=self.play_best, stamp=self.stamp()).props(
                        'data-testid=play-best')
                with Region().classes("w-full"):
                    self.status = ui.label("").classes("text-base min-h-[1.5em]").props(
                        'data-testid=status aria-live=polite role=status')
                with Region().classes("w-full"):
                    self.winner = ui.column().classes("w-full")
                with ui.expansion("Moves", value=True).classes("w-full").props(
                        f'dense data-testid=log-panel expand-icon="{ARROW_ICON}"'), Region():
                    self.log_view = ui.label("").classes("text-sm whitespace-pre-line").props(
                        'data-testid=log')
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
        self.redraw([])

    # --- names and permissions -----------------------------------------------------------------

    def name(self, colour: int) -> str:
        return self.game.seats[colour].display_name()

    def can_act(self) -> bool:
        """A person at this tab may act now: a human seat (this tab's, online) is to act."""
        game = self.game
        if game.over or not game.seat_to_act().is_human:
            return False
        return self.seat is None or game.state.turn == self.seat

    def stamp(self) -> str:
        """What every action control of this table shows and sends back when pressed."""
        return stamp_text(self.version_seen, self.answers)

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
                self.status.set_text(NOT_UNDERSTOOD)
            elif version != self.game.version:
                self.status.set_text(STALE)
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
            await self._send(action, version)
        except Refused as error:
            self.status.set_text(str(error))
            return False
        except IllegalAction:  # words of the engine are not for players
            self.status.set_text(NOT_POSSIBLE)
            return False
        except SaveFailed as error:
            self.status.set_text(str(error))
            return False
        except Exception:
            log.exception("action failed", extra={"game": self.game.id})
            self.status.set_text(NOT_THROUGH)
            return False
        finally:
            self.busy = False
        return True

    async def roll(self, stamp: Any) -> None:
        await self._press(stamp, self._roll)

    async def _roll(self, version: int) -> None:
        if self.can_act() and self.game.state.phase in (Phase.OPENING, Phase.ROLL):
            await self.send(Roll(), version)

    async def press_piece(self, piece: int, stamp: Any) -> None:
        await self._press(stamp, lambda version: self.choose_piece(piece, version))

    async def choose_piece(self, piece: int, version: int) -> None:
        if not self.can_act() or piece not in self.movable_pieces():
            return
        if self.portion is not None:  # a dice portion was chosen first: use it on this piece
            move = self._portion_move(piece)
            if move is not None:
                await self.take(move, version)
            return
        self.selected = None if self.selected == piece else piece
        self.hinted = None

    def choose_portion(self, value: int) -> None:
        self.portion = None if self.portion == value else value
        self.selected = None
        self.redraw([])

    async def press_option(self, action: Action, stamp: Any) -> None:
        await self._press(stamp, lambda version: self.take(action, version))

    async def take(self, action: Action, version: int) -> None:
        self.selected = None
        self.portion = None
        self.hinted = None
        await self.send(action, version)

    async def show_hint(self, stamp: Any) -> None:
        await self._press(stamp, lambda _: self._hint())

    def _hint(self) -> None:
        state = self.game.state
        if not self.can_act() or state.phase not in (Phase.MOVE, Phase.REWARD):
            self.status.set_text("A hint is available when you have a roll to play.")
            return
        decision = hint(state)
        self.hinted = decision.state
        self.selected = None
        self.status.set_text(f"Hint: {decision.reason}")

    async def play_best(self, stamp: Any) -> None:
        await self._press(stamp, self._play_best)

    async def _play_best(self, version: int) -> None:
        """The hint's actions for the position at ``version``, each against the version the
        one before it made."""
        state = self.game.state
        if not self.can_act() or state.phase not in (Phase.MOVE, Phase.REWARD):
            return
        self.hinted = None
        for k, action in enumerate(hint(state).actions):
            if not await self.send(action, version + k):
                break

    async def _board_click(self, colour: int, piece: int, stamp: Any) -> None:
        if colour == self.game.state.turn:
            await self.press_piece(piece, stamp)
        else:
            await self._press(stamp, lambda _: None)

    def _portion_move(self, piece: int) -> Action | None:
        if self.portion is None:
            return None
        moves = for_piece(using_portion(self.choices(), self.portion), piece)
        return moves[0].action if moves else None

    # --- what can be done now ------------------------------------------------------------------

    def choices(self) -> list[Choice]:
        """What the engine offers now (worked out once per position)."""
        if self._choices[0] != self.game.version:
            self._choices = (self.game.version, choices(self.game.state))
        return self._choices[1]

    def movable_pieces(self) -> set[int]:
        options = self.choices()
        if self.portion is not None:
            options = using_portion(options, self.portion)
        return pieces_to_choose(options)

    def options_for(self, piece: int) -> list[Choice]:
        return for_piece(self.choices(), piece)

    # --- drawing ---------------------------------------------------------------------------------

    def _reconnected(self) -> None:
        """Back after the socket dropped: listen again and answer with a fresh stamp (a press
        the browser sent before the drop may never have arrived)."""
        if self._changed not in self.game.listeners:
            self.game.subscribe(self._changed)
        if self.version_seen != self.game.version:
            self.last_roll = None  # rolls were made meanwhile: the one kept is not the newest
        self.answers += 1
        with self.root:
            self.redraw([])

    def _deleted(self) -> None:
        self.game.unsubscribe(self._changed)
        self.game.release()

    def _changed(self, game: LiveGame, events: list[Event]) -> None:
        """Called by the live game (possibly from the computers' task) after each action."""
        with self.root:
            self._update(game, events)

    def _update(self, game: LiveGame, events: list[Event]) -> None:
        if self.selected is not None and self.selected not in self.movable_pieces():
            self.selected = None
        self.portion = None if game.state.phase is not Phase.MOVE else self.portion
        self.hinted = None
        for event in events:
            if isinstance(event, Rolled) and event.portions:
                self.last_roll = event.dice
            elif isinstance(event, TurnPassed):
                self.last_roll = None if not any(isinstance(e, NoMove) for e in events) \
                    else self.last_roll
        said = [t for t in (describe(e, self.name) for e in events) if t]
        if said:
            self.status.set_text(". ".join(said[-3:]))
        elif game.fault:
            self.status.set_text(game.fault)
        self.redraw(events)

    def _sound(self, events: list[Event]) -> list[Any] | None:
        """The sound for these events and its volume, played by the board with the update
        (no message of its own), or None when the sound is off or nothing happened."""
        if not self.settings.sound or not events:
            return None
        kind = ("win" if any(isinstance(e, Won) for e in events)
                else "capture" if any(isinstance(e, Captured) for e in events)
                else "move")
        return [kind, round(self.settings.volume / 100, 2)]

    def rotation(self) -> int:
        choice = self.settings.orientation
        if choice == "auto":
            local = self.local_colour
            return local if local is not None and local in range(4) else 0
        if choice == "turn":
            return self.game.state.turn
        return COLOURS.index(choice) if choice in COLOURS else 0

    def redraw(self, events: list[Event]) -> None:
        game = self.game
        state = game.state
        self.version_seen = game.version
        stamp = self.stamp()
        acting = self.can_act()
        movable = self.movable_pieces() if acting else set()
        turn_name = self.name(state.turn)
        seat = game.seats[state.turn].description()
        if state.phase is Phase.OVER:
            self.turn.set_text(f"{self.name(standings(state)[0])} won")
        elif state.phase is Phase.OPENING:
            self.turn.set_text(f"Opening roll: {seat}")
        else:
            self.turn.set_text(f"Turn: {seat}")
        # Board
        targets: list[tuple[int, int]] = []
        if self.selected is not None:
            targets += [(state.turn, c.end) for c in self.options_for(self.selected)
                        if c.end is not None]
        if self.hinted is not None:
            targets += [(state.turn, p) for k, p in enumerate(self.hinted.pieces[state.turn])
                        if p != state.mover[k]]
        labels = {(c, k): piece_label(self.name(c), k, p)
                  for c, own in enumerate(state.pieces) for k, p in enumerate(own)}
        self.board.show(state.pieces,
                        movable=frozenset((state.turn, p) for p in movable),
                        selected=(state.turn, self.selected) if self.selected is not None
                        else None,
                        targets=targets, labels=labels, rotation=self.rotation(),
                        moves=animations(events, self.shown_state),
                        reduced_motion=self.settings.reduced_motion_for_board(),
                        sound=self._sound(events), stamp=stamp)
        self.shown_state = state
        # Dice and portions
        self.dice.show(state.dice or self.last_roll)
        values = sorted(set(state.portions), reverse=True) \
            if state.phase is Phase.MOVE and acting else []
        self._show_chips(values, state.portions)
        # Roll
        can_roll = acting and state.phase in (Phase.OPENING, Phase.ROLL)
        self.roll_button.set_text("Roll for the start" if state.phase is Phase.OPENING
                                  else "Roll")
        self.roll_button.set_enabled(can_roll)
        # Pieces
        colour = TONES[state.turn]
        for piece, button in enumerate(self.piece_buttons):
            progress = state.pieces[state.turn][piece]
            button.set_enabled(piece in movable)
            button.restyle(tone=colour, filled=piece == self.selected)
            set_props(button, {"aria-label": piece_label(self.name(state.turn), piece, progress)})
        # Movement options (rebuilt only when they change)
        options: tuple[tuple[str, Action], ...] = ()
        if self.selected is not None and acting:
            options = tuple((option_label(c), c.action) for c in self.options_for(self.selected))
        choose = acting and not options and state.phase in (Phase.MOVE, Phase.REWARD)
        self.choose_note.set_text("Choose a piece" + (" for the bonus"
                                                      if state.phase is Phase.REWARD else ""))
        self.choose_note.set_visibility(choose)
        if (options, colour) != self.drawn_options:
            self.drawn_options = (options, colour)
            self.options.clear()
            with self.options:
                self.option_buttons = [
                    PlainButton.stamped(
                        text, on_press=functools.partial(self.press_option, action),
                        stamp=stamp, tone=colour, filled=True, gone_when_pressed=True).props(
                        "data-testid=move-option")
                    for text, action in options]
        can_hint = acting and state.phase in (Phase.MOVE, Phase.REWARD)
        self.hint_button.set_enabled(can_hint)
        self.best_button.set_enabled(can_hint)
        if not acting and not game.over:
            self.status.set_text(self.status.text or f"{turn_name} is thinking…")
        elif acting and state.phase is Phase.ROLL and state.doubles:
            self.status.set_text(f"{turn_name} rolled doubles: roll again")
        self.log_view.set_text("\n".join(move_log(game.stats.recent, self.name, LOG_LINES)))
        for button in (self.roll_button, self.hint_button, self.best_button,
                       *self.piece_buttons, *self.option_buttons):
            set_props(button, {"data-stamp": stamp})
        self._winner(state)

    def _show_chips(self, values: list[int], portions: tuple[int, ...]) -> None:
        """One chip per dice portion value still to use. The chips are kept and relabelled
        (a chip only selects a portion, it is no action), so the browser builds none."""
        while len(self.chip_buttons) < len(values):
            k = len(self.chip_buttons)
            with self.chip_row:
                chip = PlainButton(on_click=functools.partial(self._chip, k), size="sm")
            self.chip_buttons.append(chip)
        self.chip_values = values
        for k, chip in enumerate(self.chip_buttons):
            chip.set_visibility(k < len(values))
            if k >= len(values):  # hidden, and no longer any portion's chip for the hooks
                set_props(chip, {}, remove=("data-testid", "aria-label", "aria-pressed"))
                continue
            value, count = values[k], portions.count(values[k])
            pressed = self.portion == value
            chip.set_text(f"{value}" + (f" ×{count}" if count > 1 else ""))
            chip.restyle(filled=pressed)
            set_props(chip, {"aria-label": f"Use {value}",
                             "aria-pressed": "true" if pressed else "false",
                             "data-testid": f"portion-{value}"})

    def _chip(self, k: int) -> None:
        if k < len(self.chip_values):
            self.choose_portion(self.chip_values[k])

    def _winner(self, state: State) -> None:
        shown = state.phase is Phase.OVER and state.winner is not None
        if shown == self.winner_shown:
            return
        self.winner_shown = shown
        self.winner.clear()
        if not shown:
            return
        stats = self.game.stats
        order = standings(state)
        with self.winner, ui.card().classes("w-full").props('data-testid=winner'):
            ui.label(f"{self.name(order[0])} wins!").classes("text-2xl font-bold")
            rows = [{"place": k + 1, "player": self.name(c),
                     "home": state.pieces[c].count(HOME),
                     "captures": stats.captures.get(c, 0), "lost": stats.lost.get(c, 0)}
                    for k, c in enumerate(order)]
            ui.table(columns=[
                {"name": "place", "label": "Place", "field": "place"},
                {"name": "player", "label": "Player", "field": "player", "align": "left"},
                {"name": "home", "label": "HOME", "field": "home"},
                {"name": "captures", "label": "Captures", "field": "captures"},
                {"name": "lost", "label": "Lost", "field": "lost"},
            ], rows=rows).props("dense flat").classes("w-full")
            ui.button("New game", on_click=self.on_new_game).props(
                'color=primary data-testid=winner-new-game')

