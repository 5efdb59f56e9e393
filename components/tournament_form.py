"""The form that makes a tournament: the game and its house rules, the format and its numbers,
the turn clock of its tables, the people entered and the computer entrants.

It only gathers choices and hands them to the server's tournaments
(:meth:`~parcheesi.server.tournaments.Tournaments.create`), which checks them; whatever they
refuse is shown on the form as they word it, and nothing is made.
"""

from __future__ import annotations

from nicegui import ui

from parcheesi.core.registry import AnyRules, games, rules_for
from parcheesi.server.clocks import TURN_CLOCKS
from parcheesi.server.people import Person
from parcheesi.server.tournament import (
    FORMATS,
    LARGEST_TABLE,
    MOST_ROUNDS,
    POINTS,
    SMALLEST_TABLE,
    Settings,
    TournamentError,
)
from parcheesi.server.tournaments import Request, Tournaments

FORMAT_WORDS = {"knockout": "Knockout", "swiss": "Swiss rounds", "robin": "Round robin"}
"""Each format's name on the pages (the engine's :data:`FORMATS` in order)."""
FORMAT_HELP = {
    "knockout": f"Tables of {SMALLEST_TABLE} to {LARGEST_TABLE}; the first of each table go "
                "through to the next round, until the final table. Seats left over go to "
                "computers.",
    "swiss": "A set number of rounds; each round seats the leaders together, avoiding "
             f"rematches. Points by place: {'/'.join(map(str, POINTS[LARGEST_TABLE]))} at "
             f"tables of {LARGEST_TABLE}.",
    "robin": f"Up to {LARGEST_TABLE} entrants at one table for a set number of games, the "
             "seats turning each game. Points as in Swiss rounds.",
}
COMPUTERS_LIMIT = 32
"""Computer entrants the form offers at most."""
FIELD = "flex: 1 1 7.5rem; min-width: 7.5rem"
"""A small field of the form: side by side where they fit, one under another on a narrow
phone, never so narrow that its label is cut."""


class TournamentForm:
    """The new-tournament form for ``host`` (None: a guest, who is asked to choose who they
    are first), offering ``people`` as entrants."""

    def __init__(self, tournaments: Tournaments, host: Person | None,
                 people: list[Person]) -> None:
        self.tournaments = tournaments
        self.host = host
        self.people = people
        self.kind = next(iter(games()))
        self.format = FORMATS[0]
        self.table_size = 4
        self.advance = 2
        self.rounds = 3
        self.clock = 0
        self.house: set[str] = set()
        self.entered: set[str] = {host.id} if host else set()
        self.computers = 0
        self.level = self.rules.default_level
        self.filler = self.rules.table_levels[0]
        """The level of the computers that fill a knockout round's empty seats."""
        with ui.card().classes("w-full gap-3").props("data-testid=tournament-form"):
            ui.label("New tournament").classes("text-lg font-medium")
            ui.select({k: r.title for k, r in games().items()}, value=self.kind, label="Game",
                      on_change=lambda e: self._set_game(e.value)).props(
                'data-testid=tournament-game').classes("w-full")
            self.house_box = ui.column().classes("gap-1")
            ui.select(FORMAT_WORDS, value=self.format, label="Format",
                      on_change=lambda e: self._set_format(e.value)).props(
                'data-testid=tournament-format').classes("w-full")
            self.format_box = ui.column().classes("w-full gap-2")
            ui.select(TURN_CLOCKS, value=self.clock, label="Turn clock",
                      on_change=lambda e: setattr(self, "clock", e.value)).props(
                'data-testid=tournament-clock').classes("w-full")
            ui.label("Entrants").classes("font-medium")
            with ui.column().classes("gap-0"):
                for person in people:
                    ui.checkbox(person.name, value=person.id in self.entered,
                                on_change=lambda e, p=person.id: self._enter(p, e.value)
                                ).props.update({"data-testid": f"tournament-entrant-{person.name}"})
            self.computer_box = ui.row().classes("w-full items-end gap-2")
            self.error = ui.label("").classes("text-negative").props(
                "role=alert data-testid=tournament-error")
            ui.button("Start the tournament", on_click=self.start).props(
                "color=primary data-testid=start-tournament")
        self._draw_game()
        self._draw_format()

    @property
    def rules(self) -> AnyRules:
        return rules_for(self.kind)

    def _enter(self, person: str, on: bool) -> None:
        (self.entered.add if on else self.entered.discard)(person)

    def _set_game(self, kind: str) -> None:
        self.kind, self.house = kind, set()
        self.level = self.rules.default_level
        self.filler = self.rules.table_levels[0]
        self._draw_game()
        self._draw_format()

    def _set_format(self, format_: str) -> None:
        self.format = format_
        self._draw_format()

    def _draw_game(self) -> None:
        """The house rules and the computer entrants' levels of the game chosen."""
        words = self.rules.look.house_words
        self.house_box.clear()
        with self.house_box:
            for name in self.rules.house_rules:
                ui.switch(": ".join(words[name]), value=False,
                          on_change=lambda e, n=name: (self.house.add if e.value
                                                       else self.house.discard)(n)).props(
                    f'data-testid=tournament-house-{name}')
        self.computer_box.clear()
        with self.computer_box:
            ui.select(list(range(COMPUTERS_LIMIT + 1)), value=self.computers,
                      label="Computers",
                      on_change=lambda e: setattr(self, "computers", e.value)).props(
                'data-testid=tournament-computers').style(FIELD)
            ui.select({lv: lv.title() for lv in self.rules.table_levels}, value=self.level,
                      label="Their level", on_change=lambda e: setattr(self, "level", e.value)
                      ).props('data-testid=tournament-computer-level').style(FIELD)

    def _draw_format(self) -> None:
        """The numbers the format chosen asks for."""
        self.format_box.clear()
        with self.format_box:
            ui.label(FORMAT_HELP[self.format]).classes("text-sm text-grey-8")
            with ui.row().classes("w-full gap-2"):
                if self.format != "robin":
                    ui.select(list(range(SMALLEST_TABLE, LARGEST_TABLE + 1)),
                              value=self.table_size, label="Table size",
                              on_change=lambda e: setattr(self, "table_size", e.value)).props(
                        'data-testid=tournament-table-size').style(FIELD)
                if self.format == "knockout":
                    ui.select([1, 2, 3], value=self.advance, label="Go through",
                              on_change=lambda e: setattr(self, "advance", e.value)).props(
                        'data-testid=tournament-advance').style(FIELD)
                    ui.select({lv: lv.title() for lv in self.rules.table_levels},
                              value=self.filler, label="Empty seats",
                              on_change=lambda e: setattr(self, "filler", e.value)).props(
                        'data-testid=tournament-filler').style(FIELD)
                else:
                    ui.select(list(range(1, MOST_ROUNDS + 1)), value=self.rounds,
                              label="Rounds" if self.format == "swiss" else "Games",
                              on_change=lambda e: setattr(self, "rounds", e.value)).props(
                        'data-testid=tournament-rounds').style(FIELD)

    def request(self) -> Request:
        """What the form asks for (:class:`TournamentError` for numbers that make no
        tournament)."""
        computers = self.computers
        if self.format == "knockout":
            settings = Settings(self.format, table_size=self.table_size, advance=self.advance,
                                filler=self.filler)
        else:
            settings = Settings(self.format, table_size=self.table_size if self.format ==
                                "swiss" else LARGEST_TABLE, rounds=self.rounds)
        entered = tuple(p.id for p in self.people if p.id in self.entered)
        return Request(self.kind, settings, entered, (self.level,) * computers,
                       tuple(sorted(self.house)), self.clock)

    async def start(self) -> None:
        if self.host is None:
            self.error.set_text("Choose who you are first (above): a tournament is made by "
                                "one of the people of this server.")
            return
        try:
            contest = await self.tournaments.create(self.host.id, self.request())
        except TournamentError as problem:
            self.error.set_text(_sentence(str(problem)))
            return
        ui.navigate.to(f"/t/{contest.code}")


def _sentence(text: str) -> str:
    """An engine's message as a sentence on the page."""
    text = text[:1].upper() + text[1:]
    return text if text.endswith(".") else text + "."
