"""The TV view of an online room's game: the whole board large, the player badges, each
player's chance to win (the meter), the dice and the last move in words, for a screen the
whole family looks at; in a corner, the room's code and the QR code of its join link, for
whoever comes late. Nothing on it can be pressed and it holds no seat.

A ``TvView`` is a table that never acts: it reads the live game through the same
:class:`~components.table_model.TableModel` as every table (with nobody at it to act), and
draws with the table's own board, badges and dice. It listens to the game like a table does
(after every accepted action), but it is no player: the room decides whether computers play
(:meth:`LiveGame.present` asks the room, which counts only its players' pages), so a TV left
on alone shows a game that waits for its players.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from nicegui import ui

from parcheesi.core.rules import Event
from parcheesi.server.live import LiveGame

from .badges import Badges
from .board_view import Board
from .dice_view import Dice
from .lobby import qr_svg, spaced_code
from .meter import Meter
from .region import Region
from .table_model import Seen, TableModel, last_move

TV_LOG_LINES = 5
"""Sentences of the move log a TV shows under the last move."""


@dataclass(frozen=True)
class Invitation:
    """How to join the room a TV shows: its code and its join link (``/r/<code>``)."""

    code: str
    url: str


def join_box(invitation: Invitation, large: bool = False) -> None:
    """The room's code (spaced as the lobby says it) and the QR code of its join link, with
    words saying what they are for: small in the TV's corner during a game, larger while the
    room waits in its lobby."""
    with ui.element("div").classes("tv-join" + (" tv-join-large" if large else "")).props(
            'data-testid=tv-join role=group aria-label="Join this room"'):
        ui.html(qr_svg(invitation.url, "QR code of the room's join link", fit=True),
                sanitize=False).classes("tv-join-qr").props('data-testid=tv-join-qr')
        with ui.element("div").classes("tv-join-text"):
            ui.label(spaced_code(invitation.code)).classes("tv-join-code font-mono").props(
                f'data-testid=tv-join-code aria-label="Room code {" ".join(invitation.code)}"')
            ui.label(f"Join: scan or go to\n{invitation.url}").classes(  # the link whole
                "tv-join-caption").props('data-testid=tv-join-caption')


class TvView:
    """One TV's drawing of a game, turned so ``bottom`` (a colour) sits at the bottom."""

    def __init__(self, game: LiveGame, bottom: int, reduced_motion: bool = False,
                 invitation: Invitation | None = None) -> None:
        self.game = game
        self.bottom = bottom if bottom in range(len(game.rules.colours)) else 0
        self.reduced_motion = reduced_motion
        self.model = TableModel()
        self.closed = False
        self.client = ui.context.client
        with ui.element("div").classes("tv-layout").props('data-testid=tv') as self.root:
            with Region().classes("tv-board"):
                self.board = Board(game.rules, house=game.house)
            with ui.element("div").classes("tv-side"):
                with Region():
                    self.turn = ui.label("").classes("tv-turn").props(
                        'data-testid=turn aria-live=polite')
                self.badges = Badges(game)
                self.meter = Meter(game.rules.colours, game.state.colours)
                with Region().classes("tv-dice"):
                    self.dice = Dice()
                    self.dice_owner = ui.label("").classes("dice-owner").props(
                        'data-testid=dice-owner')
                # What happened, and beside it in the corner the room's code and join QR.
                with ui.element("div").classes("tv-bottom"):
                    self._story(game)
                    if invitation is not None:
                        join_box(invitation)
        game.hold()
        if self.client.has_socket_connection:
            game.subscribe(self._changed)
        self.client.on_disconnect(lambda: game.unsubscribe(self._changed))
        self.client.on_connect(self._reconnected)
        self.client.on_delete(self.close)
        self.redraw([])

    def _story(self, game: LiveGame) -> None:
        """The last move in words, the move log under it (as many lines as fit) and the
        house rules."""
        with ui.element("div").classes("tv-story"):
            with Region():
                self.last = ui.label("").classes("tv-last-move").props(
                    'data-testid=tv-last-move aria-live=polite role=status')
            with Region().classes("tv-log-box"):
                self.log_view = ui.html("", sanitize=False).classes("log tv-log").props(
                    'data-testid=log role=list aria-label="Moves, newest first"')
            if game.house:
                ui.label("House rules: " + game.rules.look.house_line(game.house)).classes(
                    "tv-house").props('data-testid=house-rules')

    def seen(self) -> Seen:
        """The game now, as a table with nobody at it to act reads it."""
        game = self.game
        colours = game.rules.colours
        return Seen(game.rules, game.state, game.version,
                    {c: s.display_name(colours) for c, s in game.seats.items()},
                    {c: s.description(colours) for c, s in game.seats.items()},
                    game.stats, False, game.fault,
                    {c: s.level for c, s in game.seats.items() if not s.is_human}, None)

    def close(self) -> None:
        """Stop following the game (the page went, or the room moved on to its next game)."""
        if not self.closed:
            self.closed = True
            self.game.unsubscribe(self._changed)
            self.game.release()

    def _reconnected(self) -> None:
        if self.closed:
            return
        if self._changed not in self.game.listeners:
            self.game.subscribe(self._changed)
        self.model.missed(self.seen())
        with self.root:
            self.redraw([])

    def _changed(self, game: LiveGame, events: list[Event]) -> None:
        with self.root:
            self.model.changed(self.seen(), events)
            self.redraw(events)

    def redraw(self, events: list[Event]) -> None:
        """Draw the game now (``events``: what led there, animated on the board)."""
        seen = self.seen()
        screen = self.model.screen(seen, events)
        self.turn.set_text(screen.turn)
        self.badges.show(screen.badges)
        self.meter.show(self.game.win_chances())
        board = screen.board
        self.board.show(board.pieces, labels=board.labels,
                        rotation=self.board.layout.quarter_turns(self.bottom),
                        moves=board.moves, reduced_motion=self.reduced_motion,
                        bursts=board.bursts)
        self.dice.show(screen.dice, owner=screen.dice_owner,
                       tumble=screen.rolled and not self.reduced_motion)
        self.dice_owner.set_text(f"{screen.dice_owner}'s roll" if screen.dice_owner else "")
        self.last.set_text(last_move(seen))
        self.log_view.set_content("".join(f'<div role="listitem">{html.escape(line)}</div>'
                                          for line in screen.log[:TV_LOG_LINES]))
