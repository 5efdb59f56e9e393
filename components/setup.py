"""The new-game form: game, mode, number of players, colours, seat rows, house rules and,
for an online room, its turn clock.

The form offers the seatings the game's rules list (``GameRules.colour_sets``): two players
sit opposite (Ruby with Sapphire or Emerald with Amber; Red with Yellow or Green with Blue),
three players leave one colour out, four use every colour. The engine's own check
(``live.check_seats``) still runs on submit.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from nicegui import ui

from parcheesi.core.registry import DEFAULT_GAME, AnyRules, games, rules_for
from parcheesi.server.clocks import TURN_CLOCKS
from parcheesi.server.live import (
    COMPUTER,
    HUMAN,
    NAME_LENGTH,
    Seat,
    SetupError,
    check_seats,
)
from parcheesi.server.people import GUEST, GUEST_NAME, Person
from parcheesi.server.store import ONLINE, SAME_DEVICE, SOLO

Start = Callable[[str, list[Seat], str, tuple[str, ...], int, str], Awaitable[None]]
"""What the form calls on submit: (mode, seats, game kind, house rules, turn clock: seconds a
move, 0 for none, always 0 for a local game; the stand-in: the computer level that moves for
a player whose time runs out or who hands their seat to a computer)."""


Identify = Callable[[], Awaitable[Person | None]]
"""This browser's person (None: a guest)."""


class SeatRow:
    """One seat's controls: who plays it (a person of the house, or a guest under a name),
    how well."""

    def __init__(self, colour: int, level: str) -> None:
        self.colour = colour
        self.chosen: str | None = None
        """Who plays the seat as picked (None: not picked, :meth:`kind`)."""
        self.level = level
        self.name = ""
        self.person = GUEST

    def kind(self, mode: str) -> str:
        """Who plays the seat: as picked, else an invited player in an online room (made to
        invite people to), and on a shared screen a person at the first colour and
        computers at the others."""
        if self.chosen is not None:
            return self.chosen
        return HUMAN if mode == ONLINE or self.colour == 0 else COMPUTER


class SetupForm:
    def __init__(self, on_start: Start, people: list[Person] | None = None,
                 identify: Identify | None = None) -> None:
        """``people``: whom a shared screen's seats may be (besides guests); ``identify``:
        asks the browser whose it is (who plays "your" seat: solo, or a room's host seat),
        again on submit, so a start made before the page first heard it is theirs too."""
        self.on_start = on_start
        self.people = {p.id: p for p in people or []}
        self.identify = identify
        self.me: Person | None = None
        self.kind = DEFAULT_GAME
        self.mode = SOLO
        self.count = 4
        self.pair: tuple[int, ...] = ()
        """The colours of a two-player table (``()``: the game's first pair); kept by colour
        number when the game changes, so Emerald and Amber become Green and Blue."""
        self.left_out = 3
        self.human = 0
        self.house: set[str] = set()
        self.clock = 0
        """The online room's turn clock (seconds a move, 0: off)."""
        self.stand_in = self.rules.default_level
        """The online room's computer for a player whose time runs out, or who is away."""
        self.rows: dict[int, SeatRow] = {}
        """Each colour's seat row, kept when the game changes (made when first shown)."""
        with ui.column().classes("w-full gap-3 setup-form"):
            if len(games()) > 1:
                ui.toggle({kind: rules.title for kind, rules in games().items()}, value=self.kind,
                          on_change=lambda e: self._set_game(e.value)).props(
                    'aria-label="Game" data-testid=game')
            ui.label("Who is playing?").classes("text-lg font-medium")
            ui.toggle({SOLO: "Solo", SAME_DEVICE: "Same device", ONLINE: "Online room"},
                      value=self.mode,
                      on_change=lambda e: self._set("mode", e.value)).props(
                'aria-label="Mode" data-testid=mode')
            ui.toggle({2: "2 players", 3: "3 players", 4: "4 players"}, value=self.count,
                      on_change=lambda e: self._set("count", e.value)).props(
                'aria-label="Number of players" data-testid=player-count')
            self.seats_box = ui.element("div")
            self.house_box = ui.element("div")
            self._draw_seats()
            self.error = ui.label("").classes("text-negative").props(
                'role=alert data-testid=setup-error')
            ui.button("Start game", on_click=self.submit).props(
                'data-testid=start-game color=primary size=lg').classes("w-full")

    @property
    def rules(self) -> AnyRules:
        return rules_for(self.kind)

    def _set(self, attribute: str, value: object) -> None:
        setattr(self, attribute, value)
        self.error.set_text("")
        self._draw_seats()

    def _set_game(self, kind: str) -> None:
        """Another game: its own colours and levels (the seats keep who plays them)."""
        self.house = set()
        rules = rules_for(kind)
        for row in self.rows.values():
            if row.level not in rules.table_levels:
                row.level = rules.default_level
        self._set("kind", kind)

    def colours(self) -> tuple[int, ...]:
        """The colours of the table: the pair chosen, the colours but the one left out, or
        the game's first set of that many."""
        sets = self.rules.colour_sets(self.count)
        chosen = {2: self.pair, 3: self._without(self.left_out)}.get(self.count, ())
        return chosen if chosen in sets else sets[0]

    def _without(self, colour: int) -> tuple[int, ...]:
        return tuple(c for c in range(len(self.rules.colours)) if c != colour)

    def _row(self, colour: int) -> SeatRow:
        if colour not in self.rows:
            self.rows[colour] = SeatRow(colour, self.rules.default_level)
        return self.rows[colour]

    def _key(self, colours: tuple[int, ...]) -> str:
        return "-".join(self.rules.colours[c] for c in colours)

    def _pair_of(self, key: str) -> tuple[int, ...]:
        return next(pair for pair in self.rules.colour_sets(2) if self._key(pair) == key)

    def _title(self, colour: int) -> str:
        return self.rules.colours[colour].title()

    def _draw_seats(self) -> None:
        """The part of the form that depends on the choices so far, drawn again on each.
        (A plain container: NiceGUI's refreshable keeps every page's form it ever drew
        until the next form is drawn, pages long gone included.)"""
        self.seats_box.clear()
        with self.seats_box:
            self._seats_view()
        self.house_box.clear()
        with self.house_box:
            self._house_view()

    def _house_view(self) -> None:
        """A switch per house rule of the game, off unless the host turns it on."""
        words = self.rules.look.house_words
        if not self.rules.house_rules:
            return
        ui.label("House rules").classes("text-base font-medium")
        for name in self.rules.house_rules:
            ui.switch(": ".join(words[name]), value=name in self.house,
                      on_change=lambda e, n=name: self._set_house(n, e.value)).props(
                f'data-testid=house-{name}')

    def _set_house(self, name: str, on: bool) -> None:
        (self.house.add if on else self.house.discard)(name)

    def _seats_view(self) -> None:
        if self.count == 2:
            self._pair_view()
        elif self.count == 3:
            self._left_out_view()
        colours = self.colours()
        if self.mode == ONLINE:
            ui.label("You host the room from this browser. Invite friends to the other "
                     "human seats with the room code or link.").classes("text-sm text-grey-8")
        if self.mode in (SOLO, ONLINE):
            if self.human not in colours:
                self.human = colours[0]
            ui.select({c: self._title(c) for c in colours}, value=self.human,
                      label="Your colour", on_change=lambda e: self._set("human", e.value)
                      ).props('data-testid=your-colour').classes("w-48")
        for colour in colours:
            self._seat_row(self._row(colour))
        if self.mode == ONLINE:
            self._clock_view()

    def _pair_view(self) -> None:
        """The colour pairs a table of two may use."""
        pairs = self.rules.colour_sets(2)
        ui.label("Two players play as one of these pairs: " + ", or ".join(
            " with ".join(self._title(c) for c in pair) for pair in pairs) + ".").classes(
            "text-sm text-grey-8")
        ui.radio({self._key(pair): " and ".join(self._title(c) for c in pair)
                  for pair in pairs},
                 value=self._key(self.colours()),
                 on_change=lambda e: self._set("pair", self._pair_of(e.value))).props(
            'inline aria-label="Colours" data-testid=pair')

    def _left_out_view(self) -> None:
        """The colour that sits out of a table of three (of those the game allows)."""
        sets = self.rules.colour_sets(3)
        out = {c: self._title(c) for c in range(len(self.rules.colours))
               if self._without(c) in sets}
        if self.left_out not in out:
            self.left_out = next(iter(out))
        ui.select(out, value=self.left_out, label="Colour that sits out",
                  on_change=lambda e: self._set("left_out", e.value)).props(
            'data-testid=left-out').classes("w-48")

    def _clock_view(self) -> None:
        """An online room's turn clock and the computer that stands in for a player."""
        with ui.row().classes("gap-3 items-end"):
            ui.select(TURN_CLOCKS, value=self.clock, label="Turn clock",
                      on_change=lambda e: setattr(self, "clock", e.value)).props(
                'data-testid=turn-clock').classes("w-48")
            if self.stand_in not in self.rules.table_levels:
                self.stand_in = self.rules.default_level
            ui.select({level: level.title() for level in self.rules.table_levels},
                      value=self.stand_in, label="Stand-in computer",
                      on_change=lambda e: setattr(self, "stand_in", e.value)).props(
                'data-testid=stand-in').classes("w-48")
        ui.label("With a clock, the stand-in computer makes the move of a player whose "
                 "time runs out; the seat stays theirs. It also plays for a player who "
                 "hands their seat over for a while.").classes("text-sm text-grey-8")

    def _seat_row(self, row: SeatRow) -> None:
        name = self.rules.colours[row.colour]
        solo = self.mode == SOLO
        mine = self.mode in (SOLO, ONLINE) and row.colour == self.human
        is_human = mine or (not solo and row.kind(self.mode) == HUMAN)
        with ui.row().classes("w-full items-center gap-2 no-wrap seat-row").props(
                f'data-testid=seat-{name}'):
            paint = self.rules.look.paints[row.colour]
            ui.element("div").style(
                f"width:18px;height:18px;border-radius:50%;background:{paint.fill};"
                "flex:none").props('aria-hidden="true"')
            ui.label(name.title()).classes("w-20 font-medium")
            if solo or mine:
                ui.label("You" if mine else "Computer").classes("w-24")
            else:
                human = "Invited player" if self.mode == ONLINE else "Human"
                ui.select({HUMAN: human, COMPUTER: "Computer"}, value=row.kind(self.mode),
                          on_change=lambda e, r=row: self._set_row(r, "chosen", e.value)).props(
                    f'dense aria-label="{name.title()} player" data-testid=kind-{name}'
                ).classes("w-28")
            if self.mode == ONLINE and is_human and not mine:
                ui.label("joins with the code").classes("grow text-grey-7")
            elif is_human:
                self._who(row, name, mine)
            else:
                ui.select({level: level.title() for level in self.rules.table_levels},
                          value=row.level,
                          on_change=lambda e, r=row: setattr(r, "level", e.value)).props(
                    f'dense aria-label="{name.title()} computer level" '
                    f'data-testid=level-{name}').classes("w-28")

    def played_by(self, me: Person | None) -> None:
        """This browser's person, once it is known: "your" seat is theirs."""
        if me != self.me:
            self.me = me
            self._draw_seats()

    def _who(self, row: SeatRow, name: str, mine: bool) -> None:
        """A person's seat: on a shared screen, which person of the house (or a guest, with
        a name); "your" seat is this browser's person, if it is one, under their name unless
        another is typed."""
        if not mine and self.people:
            ui.select({GUEST: GUEST_NAME, **{p.id: p.name for p in self.people.values()}},
                      value=row.person if row.person in self.people else GUEST,
                      on_change=lambda e, r=row: self._set_row(r, "person", e.value)).props(
                f'dense aria-label="Who plays {name.title()}" '
                f'data-testid=seat-person-{name}').classes("w-28")
            if row.person in self.people:
                return
        hint = self.me.name if mine and self.me is not None else "Name (optional)"
        ui.input(placeholder=hint, value=row.name,
                 on_change=lambda e, r=row: setattr(r, "name", e.value or "")).props(
            f'dense maxlength={NAME_LENGTH} aria-label="{name.title()} name" '
            f'data-testid=name-{name}').classes("grow")

    def _seat(self, colour: int) -> Seat:
        """One seat as the form says: who plays it, under which name, for which person (a
        room's invited seats are named by whoever takes them)."""
        row = self._row(colour)
        mine = self.mode in (SOLO, ONLINE) and colour == self.human
        human = mine if self.mode == SOLO else (mine or row.kind(self.mode) == HUMAN)
        if not human:
            return Seat(colour=colour, kind=COMPUTER, level=row.level)
        named = self.mode != ONLINE or mine
        person = self._person_of(row, mine)
        typed = row.name.strip() if named and (mine or person is None) else ""
        return Seat(colour=colour, kind=HUMAN, level=row.level,
                    name=typed or (person.name if person else ""),
                    person=person.id if person else GUEST)

    def _person_of(self, row: SeatRow, mine: bool) -> Person | None:
        """The person a human seat's results count for (None: a guest)."""
        if mine:
            return self.me
        return self.people.get(row.person) if self.mode == SAME_DEVICE else None

    def _set_row(self, row: SeatRow, attribute: str, value: str) -> None:
        """Change a seat row and redraw (a name box appears for humans, a level for computers)."""
        setattr(row, attribute, value)
        self.error.set_text("")
        self._draw_seats()

    def seats(self) -> list[Seat]:
        """The seats in colour order; online, the host's own seat comes first."""
        seats = [self._seat(colour) for colour in self.colours()]
        if self.mode == ONLINE:
            seats.sort(key=lambda s: s.colour != self.human)
        return seats

    async def submit(self) -> None:
        if self.identify is not None:
            self.me = await self.identify()
        seats = self.seats()
        try:
            check_seats(SAME_DEVICE if self.mode == ONLINE else self.mode, seats,
                        self.kind)
        except SetupError as error:
            self.error.set_text(str(error))
            return
        await self.on_start(self.mode, seats, self.kind, tuple(sorted(self.house)),
                            self.clock if self.mode == ONLINE else 0, self.stand_in)
