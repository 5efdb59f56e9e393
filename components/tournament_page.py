"""The tournaments' pages: the list with the new-tournament form (``/tournaments``), a
tournament's own page (``/t/{code}``: its bracket, its standings, every table with its room
and TV view, the champion at the end) and its TV view (``/tv/t/{code}``: the same large, and
the tables in progress sharing the screen below).

The pages read a tournament as the server holds it and redraw whenever it moves on (a
table's result, the next round drawn); the only thing they change is the host's taking an
entrant out, which the server checks.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from nicegui import background_tasks, ui
from nicegui.elements.mixins.text_element import TextElement

from parcheesi.core.words import counted
from parcheesi.server.clocks import clock_words
from parcheesi.server.people import Person
from parcheesi.server.tournament import Table, TournamentError
from parcheesi.server.tournament.knockout import shape
from parcheesi.server.tournament.scoring import points
from parcheesi.server.tournaments import Contest, Tournaments, YourTable

from .missing import missing
from .person import this_person
from .server import Server
from .tournament_form import FORMAT_WORDS, TournamentForm

Connected = Callable[[], Awaitable[bool]]


def contest_title(contest: Contest) -> str:
    """The game's name and the format: "<game> knockout", "<game> Swiss rounds"."""
    return f"{contest.rules.title} {FORMAT_WORDS[contest.tournament.settings.format].lower()}"


def settings_words(contest: Contest) -> str:
    """How the tournament is played, in one line: "Tables of 4, the first 2 go through ·
    no turn clock · house rules: Stars"."""
    settings = contest.tournament.settings
    if settings.format == "knockout":
        words = [f"Tables of {settings.table_size}, the first {settings.advance} go through"]
    elif settings.format == "swiss":
        words = [f"{counted(settings.rounds, 'round')} at tables of up to {settings.table_size}"]
    else:
        words = [f"{counted(settings.rounds, 'game')} at one table"]
    words.append(clock_words(contest.clock))
    if contest.house:
        names = contest.rules.look.house_words
        words.append("house rules: " + ", ".join(names[h][0] for h in contest.house))
    return " · ".join(words)


def round_name(contest: Contest, number: int) -> str:
    """"Round 2", or "Final" for a knockout's table of one."""
    tables = contest.tournament.rounds[number].tables
    if contest.tournament.settings.format == "knockout" and len(tables) == 1 and number:
        return "Final"
    if contest.tournament.settings.format == "robin":
        return f"Game {number + 1}"
    return f"Round {number + 1}"


async def follow_tables(tournaments: Tournaments, person: str, box: ui.element) -> None:
    """The tables waiting for ``person``, drawn in ``box`` (the home page's *Your table is
    ready*), again whenever a tournament moves on (a round drawn) until the page goes."""

    async def draw() -> None:
        tables = await tournaments.tables_of(person)
        if box.is_deleted:
            return
        box.clear()
        with box:
            your_tables(tables)

    def moved(_: Contest) -> None:
        if not box.is_deleted:
            background_tasks.create(draw(), name="your tables")

    tournaments.watch_all(moved)
    ui.context.client.on_delete(lambda: tournaments.unwatch_all(moved))
    await draw()


def your_tables(tables: list[YourTable]) -> None:
    """The tables waiting for this browser's person."""
    for table in tables:
        go = f"/room/{table.room}"
        with ui.card().classes("w-full cursor-pointer").props(
                "data-testid=your-table").on("click", lambda g=go: ui.navigate.to(g)):
            ui.label("Your table is ready").classes("text-lg font-medium")
            ui.label(f"{table.title} tournament {table.code}: round {table.round}, "
                     f"table {table.table}").classes("text-sm")
            ui.button("Go to your table", on_click=lambda g=go: ui.navigate.to(g)).props(
                "color=primary data-testid=your-table-open")


async def tournaments_page(server: Server, connected: Connected) -> None:
    """The tournaments of this server, newest first, and the form to make one."""
    with ui.column().classes("w-full max-w-md mx-auto p-4 gap-3 items-stretch"):
        TextElement(tag="h1", text="Tournaments").classes("text-2xl font-bold")
        form_box = ui.column().classes("w-full")
        listing = ui.column().classes("w-full gap-2")
    rows = await server.tournaments.everything()
    with listing:
        if not rows:
            ui.label("No tournaments yet.").classes("text-grey-8")
        for row in rows:
            contest = await server.tournaments.get(row.code)
            if contest is None:
                continue
            state = (f"won by {contest.name(contest.champion)}" if contest.champion
                     else f"round {len(contest.tournament.rounds)} under way")
            entrants = sum(not e.filler for e in contest.tournament.entrants)
            ui.link(f"{contest_title(contest)} · {entrants} entrants · {state}",
                    f"/t/{row.code}").classes("touch-target").props(
                f"data-testid=tournament-{row.code}")
    if not await connected():
        return
    host = await this_person(server.people)
    everyone = await server.people.everyone()

    def open_form() -> None:
        form_box.clear()
        with form_box:
            if host is None:
                ui.label("Choose who you are on the home page first: a tournament is made "
                         "by one of the people of this server.").props("role=status")
            TournamentForm(server.tournaments, host, everyone)

    with form_box:
        ui.button("New tournament", on_click=open_form).props(
            "color=primary size=lg data-testid=new-tournament").classes("w-full")


async def tournament_page(server: Server, code: str, connected: Connected,
                          tv: bool = False) -> None:
    """One tournament, live, for its page; ``tv``: for a TV (no header, the bracket and
    standings large, the tables in progress sharing the screen below, nobody's table)."""
    if tv:
        ui.query("body").classes("tv-body")
    contest = await server.tournaments.get(code)
    if contest is None:
        missing("Tournament", "There is no tournament with that code.", "tournament-missing",
                ("All tournaments", "/tournaments"))
        return
    box = ui.column().classes("w-full p-4 gap-4 tournament-tv" if tv else
                              "tournament-page w-full max-w-5xl mx-auto p-3 gap-3")
    if not await connected():
        return
    me = None if tv else await this_person(server.people)
    view = TournamentView(server.tournaments, contest, me, box, tv)
    view.follow()
    view.draw()


class TournamentView:
    """A tournament drawn in ``box`` for a person (``me``; None: a guest) or a TV (large,
    with the tables in progress)."""

    def __init__(self, tournaments: Tournaments, contest: Contest, me: Person | None,
                 box: ui.element, tv: bool = False) -> None:
        self.tournaments = tournaments
        self.contest = contest
        self.me = me
        self.box = box
        self.tv = tv

    def follow(self) -> None:
        """Redraw whenever the tournament moves on, until the page is gone."""
        client = ui.context.client

        def moved(_: Contest) -> None:
            if not self.box.is_deleted:
                background_tasks.create(self._redraw(), name="tournament redraw")

        self.tournaments.subscribe(self.contest, moved)
        client.on_delete(lambda: self.tournaments.unsubscribe(self.contest, moved))

    async def _redraw(self) -> None:
        self.draw()

    def draw(self) -> None:
        contest = self.contest
        self.box.clear()
        with self.box:
            TextElement(tag="h1", text=contest_title(contest)).classes(
                "tv-title" if self.tv else "text-2xl font-bold")
            ui.label(settings_words(contest)).classes("text-sm text-grey-8").props(
                "data-testid=tournament-settings")
            if not self.tv:
                with ui.row().classes("gap-4 items-center"):
                    ui.label(f"Code {contest.code}").classes("font-mono")
                    ui.link("TV view", f"/tv/t/{contest.code}", new_tab=True).classes(
                        "touch-target").props("data-testid=tournament-tv-link")
                    ui.link("Download results", f"/t/{contest.code}/results.json").classes(
                        "touch-target").props("data-testid=results-download")
            self._champion()
            self._mine()
            with ui.element("div").classes("tournament-grid"):
                self._bracket()
                self._standings()
            if self.tv:
                self._boards()

    def _champion(self) -> None:
        winner = self.contest.champion
        if winner is None:
            return
        with ui.card().classes("champion-card w-full items-center").props(
                "data-testid=champion role=status"):
            ui.label("🏆").classes("text-5xl").props("aria-hidden=true")
            ui.label(f"{self.contest.name(winner)} is the champion!").classes(
                "text-2xl font-bold")

    def _mine(self) -> None:
        """This person's table of the round under way, first."""
        if self.me is None or self.tv:
            return
        for _, table, room in self.contest.playing():
            if self.me.id in table.seats and self.me.id not in self.contest.withdrawn:
                ui.button("Your table is ready: play", on_click=lambda r=room: ui.navigate.to(
                    f"/room/{r}")).props("color=primary size=lg data-testid=your-table")

    def _bracket(self) -> None:
        contest = self.contest
        # Focusable: on a narrow screen its rounds scroll sideways, also by the keyboard.
        with ui.element("section").classes("bracket").props(
                'data-testid=bracket aria-label="Tables" tabindex=0'):
            for number, round_ in enumerate(contest.tournament.rounds):
                with ui.column().classes("bracket-round gap-2"):
                    ui.label(round_name(contest, number)).classes("font-medium")
                    for k, table in enumerate(round_.tables):
                        self._table(number, k, table, contest.rooms[number][k])
            self._rounds_to_come()

    def _rounds_to_come(self) -> None:
        """A knockout's rounds not drawn yet, as many tables as each will have."""
        contest = self.contest
        settings = contest.tournament.settings
        if settings.format != "knockout" or contest.over:
            return
        planned = shape(sum(not e.filler for e in contest.tournament.entrants),
                        settings.table_size, settings.advance)
        for number in range(len(contest.tournament.rounds), len(planned)):
            with ui.column().classes("bracket-round gap-2"):
                final = number == len(planned) - 1
                ui.label("Final" if final else f"Round {number + 1}").classes("font-medium")
                for k in range(planned[number][0]):
                    with ui.card().classes("bracket-later p-2").props(
                            "data-testid=bracket-later"):
                        ui.label(f"Table {k + 1}").classes("text-sm text-grey-8")
                        ui.label("Drawn when the round before ends").classes("text-sm")

    def _table(self, number: int, k: int, table: Table, room: str) -> None:
        contest = self.contest
        card = ui.card().classes("bracket-table gap-1 p-2")
        card.props.update({"data-testid": "bracket-table", "data-round": number + 1,
                           "data-table": k + 1, "data-room": room})
        seats = [e for e, _ in table.finish()] if table.played else list(table.seats)
        scored = points(table) if table.played else {}
        through = _going_through(contest, number, table)
        with card:
            ui.label(f"Table {k + 1}").classes("text-sm text-grey-8")
            for position, entrant in enumerate(seats):
                with ui.row().classes("items-center gap-2 no-wrap"):
                    place = f"{position + 1}." if table.played else "·"
                    ui.label(place).classes("w-6")
                    label = ui.label(contest.name(entrant)).classes(
                        "font-medium" if entrant in through else "")
                    label.props.update({"data-entrant": contest.name(entrant)})
                    if table.played:
                        ui.label(f"{scored[entrant]} pts").classes("text-sm text-grey-8")
            if not self.tv:
                with ui.row().classes("gap-3"):
                    words = "Replay" if table.played else "Watch"
                    ui.link(words, f"/room/{room}").classes("touch-target")
                    ui.link("TV", f"/tv/{room}", new_tab=True).classes("touch-target")

    def _standings(self) -> None:
        contest = self.contest
        host = self.me is not None and self.me.id == contest.host and not contest.over
        with ui.element("section").classes("standings-box"):
            ui.label("Standings").classes("font-medium")
            with ui.element("table").classes("standings").props("data-testid=standings"):
                for rank, (entrant, score) in enumerate(contest.standings(), start=1):
                    row = ui.element("tr").props("data-testid=standing-row")
                    row.props.update({"data-entrant": contest.name(entrant),
                                      "data-points": score})
                    with row:
                        _cell(str(rank))
                        _cell(contest.name(entrant) + (" (out)" if entrant in
                                                       contest.withdrawn else ""))
                        _cell(f"{score} pts")
                        if host and contest.is_person(entrant) and \
                                entrant not in contest.withdrawn:
                            with ui.element("td"):
                                self._withdraw_button(entrant)

    def _withdraw_button(self, entrant: str) -> None:
        name = self.contest.name(entrant)

        async def withdraw() -> None:
            assert self.me is not None
            try:
                await self.tournaments.withdraw(self.contest.code, self.me.id, entrant)
            except TournamentError as problem:
                ui.notify(str(problem), type="negative")

        ui.button("Take out", on_click=withdraw).props(
            "flat dense no-caps").props.update({
                "data-testid": f"withdraw-{name}",
                "aria-label": f"Take out {name}: a computer plays their seats"})

    def _boards(self) -> None:
        """The tables in progress, each its room's TV view, as large as the screen below the
        bracket allows: one table across the screen, up to four in a row."""
        playing = self.contest.playing()
        if not playing:
            return
        columns = min(len(playing), TV_TABLES_IN_A_ROW)
        rows = -(-len(playing) // columns)
        with ui.element("div").classes("tv-tables").props(
                "data-testid=tv-tables").style(f"--columns: {columns}; --rows: {rows}"):
            for k, _, room in playing:
                frame = ui.element("iframe").classes("tv-table-frame")
                frame.props.update({"src": f"/tv/{room}", "title": f"Table {k + 1}",
                                    "loading": "lazy"})


TV_TABLES_IN_A_ROW = 4
"""The tables a tournament's TV shows side by side at most."""


def _going_through(contest: Contest, number: int, table: Table) -> set[str]:
    """The entrants of a knockout table who are seated in the next round."""
    rounds = contest.tournament.rounds
    if contest.tournament.settings.format != "knockout" or number + 1 >= len(rounds):
        return set()
    seated = {e for t in rounds[number + 1].tables for e in t.seats}
    return seated & set(table.seats)


def _cell(text: str) -> None:
    with ui.element("td"):
        ui.label(text)

