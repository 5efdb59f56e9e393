"""Every game's leaderboard (``/people``), with the host's tools below it for the host
(:mod:`.host_tools`).

The numbers come from :mod:`parcheesi.server.leaderboard` (pure, over the stored results);
this module only lays them out, phone first: a leaderboard's less telling columns make way on
a narrow screen, and the table scrolls inside its own box rather than the page sideways.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from nicegui import ui
from nicegui.elements.mixins.text_element import TextElement

from parcheesi.core.registry import games, rules_for
from parcheesi.server.leaderboard import Entry, leaderboard
from parcheesi.server.people import (
    Person,
)
from parcheesi.server.ratings import PROVISIONAL_GAMES, ResultRow

from .host_tools import HostTools, PinGuard, Visitor
from .person import avatar
from .server import Server
from .updates import set_props

# --- words ---------------------------------------------------------------------------------

def day(moment: datetime) -> str:
    """A date as people say it ("5 Jan 2026"), in the server's time zone."""
    local = moment.astimezone()
    return f"{local.day} {local:%b %Y}"


# --- the leaderboard -----------------------------------------------------------------------

COLUMNS = (("#", ""), ("Person", ""), ("Rating", ""), ("Games", ""), ("Wins", ""),
           ("Avg place", "lb-optional"), ("Streak", "lb-optional"),
           ("Last played", "lb-optional"))
"""The leaderboard's columns; the optional ones give way on a phone (style.css)."""


def cell(text: str, classes: str = "") -> None:
    TextElement(tag="td", text=text).classes(classes)


def entry_row(entry: Entry) -> None:
    """One person's row: rank, avatar and name (to their page), rating (provisional until
    :data:`PROVISIONAL_GAMES` rated games), games, wins, average place, streak, last game."""
    person = entry.person
    with ui.element("tr").classes("lb-computer" if person.is_computer else "") as row:
        set_props(row, {"data-testid": "person-row", "data-person": person.name,
                        "data-rating": str(entry.rating)})
        cell(str(entry.rank), "lb-rank")
        with ui.element("td"), ui.element("div").classes("lb-person"):
            avatar(person, "1.75rem")
            ui.link(person.name, f"/people/{person.id}").classes("lb-name")
        with ui.element("td").classes("lb-rating"):
            TextElement(tag="span", text=str(entry.rating))
            if entry.provisional:
                TextElement(tag="span", text="provisional").classes("lb-provisional").props(
                    "data-testid=provisional")
        cell(str(entry.games))
        cell(str(entry.wins))
        cell(f"{entry.average_place:g}", "lb-optional")
        cell(entry.streak or "–", "lb-optional")
        cell(day(entry.last_played), "lb-optional")


def leaderboard_table(kind: str, entries: list[Entry]) -> None:
    with ui.element("div").classes("lb-box"), ui.element("table").classes(
            "leaderboard").props(f"data-testid=leaderboard data-game={kind}"):
        with ui.element("thead"), ui.element("tr"):
            for title, classes in COLUMNS:
                TextElement(tag="th", text=title).classes(classes).props("scope=col")
        with ui.element("tbody"):
            for entry in entries:
                entry_row(entry)


def leaderboards(results: Sequence[ResultRow], people: dict[str, Person]) -> None:
    """A tab per game with results (in the server's order, the default game first), each
    with its leaderboard; a friendly word when no game has finished yet."""
    by_kind: dict[str, list[ResultRow]] = {}
    for result in results:
        by_kind.setdefault(result.kind, []).append(result)
    kinds = [kind for kind in games() if by_kind.get(kind)]
    if not kinds:
        ui.label("No finished games yet: the leaderboard fills in as games end.").props(
            "data-testid=no-results")
        return
    with ui.tabs().props("dense no-caps align=left").classes("lb-tabs") as tabs:
        for kind in kinds:
            ui.tab(kind, rules_for(kind).title).props(f"data-testid=game-tab-{kind}")
    with ui.tab_panels(tabs, value=kinds[0], animated=False).classes("lb-panels"):
        for kind in kinds:
            with ui.tab_panel(kind):
                leaderboard_table(kind, leaderboard(by_kind[kind], people))
    ui.label(f"A rating is provisional until {PROVISIONAL_GAMES} rated games. The computers "
             "are on the list to measure against.").classes("text-sm lb-note")


class PeoplePage:
    """The leaderboards and, for the host, the tools; drawn again after every change."""

    def __init__(self, server: Server, visitor: Visitor, guard: PinGuard) -> None:
        self.server, self.visitor, self.guard = server, visitor, guard
        self.unlocked = visitor.host
        with ui.column().classes("w-full max-w-2xl mx-auto p-4 gap-3 people-page"):
            TextElement(tag="h1", text="People")
            self.content = ui.column().classes("w-full gap-3")

    async def show(self) -> None:
        """Draw the page from the stored results, once the finished games are rated (and a
        rebuild going on is done: the ratings take one turn at a time)."""
        await self.server.ratings.rate_pending()
        people = self.server.people
        everyone = await people.everyone(computers=True)
        results = await self.server.ratings.results_of()
        limit = await people.limit() if self.unlocked else 0
        self.content.clear()
        with self.content:
            leaderboards(results, {p.id: p for p in everyone})
            if self.unlocked:
                HostTools(people, [p for p in everyone if not p.is_computer], limit, self.show)
            elif self.guard.pin:
                self.pin_box()

    def pin_box(self) -> None:
        """The host PIN's field: the right PIN opens the tools on this page only."""
        with ui.card().classes("w-full gap-2").props("data-testid=host-pin-box"):
            ui.label("Manage people").classes("text-lg font-medium").props(
                "role=heading aria-level=2")
            ui.label("The host renames, merges and removes people: enter the host PIN.")
            with ui.row().classes("w-full items-center gap-2 no-wrap"):
                pin = ui.input("Host PIN", password=True).props(
                    "dense maxlength=64 autocomplete=off data-testid=host-pin").classes(
                    "grow")
                ui.button("Enter", on_click=lambda: enter()).props(
                    "data-testid=host-pin-enter")
            error = ui.label("").classes("text-negative").props(
                "role=alert data-testid=host-pin-error")

        async def enter() -> None:
            problem = self.guard.check(self.visitor.browser, pin.value)
            if problem is not None:
                error.set_text(problem)
                return
            self.unlocked = True
            await self.show()

        pin.on("keydown.enter", enter)
