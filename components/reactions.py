"""Reactions in an online room: a seated player picks one of a few fixed words or emoji
(``rooms.REACTIONS``) at their table, and every table and TV of the room shows it for a few
seconds with the sender's name ("Sam: Nice capture!").

The page sends only the reaction's index; :meth:`~parcheesi.server.rooms.Rooms.react` checks
it, the seat token and the seat's pace (one every two seconds, ten a minute) and tells the
room's pages. Nothing is typed and nothing is stored: a reaction is for the people watching
now. A refused press shows nothing anywhere; one sent too fast says "Slow down" to its sender.
"""

from __future__ import annotations

from nicegui import ui

from parcheesi.core.registry import rules_for
from parcheesi.server.live import Refused
from parcheesi.server.rooms import REACTIONS, Reaction, Room, RoomError, Rooms, SlowDown

SHOWN_FOR = 3.0
"""Seconds a reaction stays on the screens (by the rooms' clock)."""
MOST_SHOWN = 3
"""Reactions on a screen at once: a burst pushes the oldest off rather than fill the table."""
EXPIRY_TICK = 0.5
"""How often a screen showing reactions looks for the ones whose time is up."""
MOOD_ICON = ("M11.99 2C6.47 2 2 6.48 2 12s4.47 10 9.99 10C17.52 22 22 17.52 22 12S17.52 2 "
             "11.99 2zM12 20c-4.42 0-8-3.58-8-8s3.58-8 8-8 8 3.58 8 8-3.58 8-8 8zm3.5-9c.83 "
             "0 1.5-.67 1.5-1.5S16.33 8 15.5 8 14 8.67 14 9.5s.67 1.5 1.5 1.5zm-7 0c.83 0 "
             "1.5-.67 1.5-1.5S9.33 8 8.5 8 7 8.67 7 9.5 7.67 11 8.5 11zm3.5 6.5c2.33 0 4.31"
             "-1.46 5.11-3.5H6.89c.8 2.04 2.78 3.5 5.11 3.5z|0 0 24 24")
"""A smiling face (Material's "mood" icon) for the button that opens the reactions."""


class ReactionPicker:
    """A seated player's compact *React* button, opening the fixed set of reactions."""

    def __init__(self, rooms: Rooms, room: Room, token: str | None) -> None:
        self.rooms = rooms
        self.room = room
        self.token = token
        self.button = ui.button("React", icon=MOOD_ICON).props(
            'outline dense no-caps data-testid=reactions '
            'aria-label="React: send a reaction to the room"').classes("room-tool")
        with self.button, ui.menu().props(  # opening leftwards: the button ends the line
                'data-testid=reactions-menu anchor="bottom right" self="top right"'
        ) as self.menu, \
                ui.element("div").classes("reaction-grid").props(
                    'role=group aria-label=Reactions'):
            for k, (shown, said) in enumerate(REACTIONS):
                ui.button(shown, on_click=lambda k=k: self.send(k)).props(
                    f'flat no-caps data-testid=reaction-{k} aria-label="{said}"'
                ).classes("reaction-choice")

    def send(self, index: int) -> None:
        """Send reaction ``index``; too fast says "Slow down", any other refusal (a seat
        taken away meanwhile) shows nothing."""
        self.menu.close()
        try:
            self.rooms.react(self.room, self.token, index)
        except SlowDown:
            ui.notify("Slow down", position="top", timeout=1500)
        except (RoomError, Refused):
            pass


class ReactionFeed:
    """Where one page (a table or a TV) shows the room's reactions for a few seconds each,
    over the page (fixed, nothing pressed through it)."""

    def __init__(self, rooms: Rooms, room: Room, tv: bool = False) -> None:
        self.rooms = rooms
        self.room = room
        self.colours = rules_for(room.kind).colours
        self.shown: list[tuple[float, ui.element]] = []
        """The reactions on screen, oldest first, with when each was sent."""
        self.root = ui.element("div").classes(
            "reaction-feed" + (" reaction-feed-tv" if tv else "")).props(
            'role=status aria-live=polite aria-relevant=additions data-testid=reaction-feed'
        ).style(f"--shown-for: {SHOWN_FOR}s")  # the reactions' fading lasts as long
        self.timer = ui.timer(EXPIRY_TICK, self.expire, active=False)
        rooms.subscribe_reactions(room, self.show)
        ui.context.client.on_delete(self.close)

    def close(self) -> None:
        """Stop showing the room's reactions (the page, or this part of it, went)."""
        self.rooms.unsubscribe_reactions(self.room, self.show)
        self.timer.cancel()

    def show(self, reaction: Reaction) -> None:
        """A reaction was sent: show it (at most :data:`MOST_SHOWN` at once)."""
        if self.root.is_deleted:  # the room page moved on to its next game
            self.close()
            return
        with self.root:
            item = ui.label(reaction.text).classes(
                f"reaction tone-{self.colours[reaction.colour]}").props('data-testid=reaction')
        self.shown.append((reaction.at, item))
        while len(self.shown) > MOST_SHOWN:
            self._drop()
        self.timer.activate()

    def expire(self) -> None:
        """Let go of the reactions shown for :data:`SHOWN_FOR` seconds; rest when none is."""
        now = self.rooms.clock()
        while self.shown and now - self.shown[0][0] >= SHOWN_FOR:
            self._drop()
        if not self.shown:
            self.timer.deactivate()

    def _drop(self) -> None:
        _, item = self.shown.pop(0)
        if not item.is_deleted:
            item.delete()
