"""A person's page (``/people/<id>``: their rating over time, their record against the
others, their recent games, their favourite colour and captures) and the one-time link that
makes another device the same person (``/people/link/<code>``).

The numbers come from :mod:`parcheesi.server.leaderboard` (pure, over the stored results);
this module only lays them out, phone first.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from nicegui import ui
from nicegui.elements.mixins.text_element import TextElement

from parcheesi.core.registry import games, plays, rules_for
from parcheesi.core.words import counted, place_name
from parcheesi.server.leaderboard import Meeting, Profile, profile
from parcheesi.server.people import (
    LINK_MINUTES,
    People,
    Person,
    PersonError,
)
from parcheesi.server.ratings import ResultRow, provisional, shown
from parcheesi.server.store import aware

from .charts_page import DARK, LIGHT, Ink, axis
from .lobby import ask_browser, qr_svg
from .missing import missing
from .people_page import cell, day
from .person import avatar, keep_token, this_person
from .server import Server
from .updates import set_props

PERSON_ID = re.compile(r"[0-9a-f]{1,32}")
"""What a person's id may look like (theirs are 32 hex digits); anything else is looked up
nowhere."""
Connected = Callable[[], Awaitable[bool]]
"""Waits for the page's socket; False when it never comes."""




# --- a person's page -----------------------------------------------------------------------

def rating_options(history: dict[str, list[tuple[datetime, int]]], ink: Ink = LIGHT
                   ) -> dict[str, Any]:
    """A line per game: the shown rating after each rated game, over time (each game's line
    in a paint of its own look)."""
    series = []
    for k, (kind, points) in enumerate(history.items()):
        paints = rules_for(kind).look.paints
        series.append({"name": rules_for(kind).title, "type": "line", "showSymbol": True,
                       "symbolSize": 6, "color": paints[k % len(paints)].fill,
                       "lineStyle": {"width": 2.5},
                       "data": [[when.isoformat(), rating] for when, rating in points]})
    return {
        "animation": False, "backgroundColor": "transparent",
        "textStyle": {"color": ink.text},
        "legend": {"top": 0, "left": 0, "textStyle": {"color": ink.text, "fontSize": 14}},
        "tooltip": {"trigger": "axis"},
        "grid": {"left": 48, "right": 16, "top": 40, "bottom": 32},
        "xAxis": axis(ink, type="time", splitLine={"show": False},
                       axisLabel={"color": ink.text, "fontSize": 12, "hideOverlap": True}),
        "yAxis": axis(ink, type="value", scale=True, minInterval=1),
        "series": series,
    }


def rating_lines(history: dict[str, list[tuple[datetime, int]]]) -> list[str]:
    """One line per game: the rating now, after how many rated games, and its highest."""
    lines = []
    for kind, points in history.items():
        now, high = points[-1][1], max(rating for _, rating in points)
        note = ", provisional" if provisional(len(points)) else ""
        lines.append(f"{rules_for(kind).title}: {now} after {counted(len(points), 'rated game')}"
                     f"{note}; highest {high}.")
    return lines


def ordered(history: dict[str, list[tuple[datetime, int]]]
            ) -> dict[str, list[tuple[datetime, int]]]:
    """The games in the server's order (the default game first)."""
    return {kind: history[kind] for kind in games() if kind in history}


def _card(title: str, testid: str) -> ui.card:
    card = ui.card().classes("w-full gap-2").props(f"data-testid={testid}")
    with card:
        ui.label(title).classes("text-lg font-medium").props("role=heading aria-level=2")
    return card


def rating_card(history: dict[str, list[tuple[datetime, int]]]) -> ui.echart | None:
    with _card("Rating over time", "rating-card"):
        if not history:
            ui.label("No rated games yet: a game with at least one other person (or a "
                     "computer) is rated.").classes("text-grey-8")
            return None
        lines = rating_lines(history)
        chart = ui.echart(rating_options(history)).classes("w-full chart rating-chart")
        set_props(chart, {"data-testid": "rating-chart", "role": "img",
                          "aria-label": "Rating chart. " + " ".join(lines)})
        with ui.element("ul").classes("chart-lines text-sm").props(
                "data-testid=rating-lines"):
            for line in lines:
                with ui.element("li"):
                    ui.label(line)
    return chart


def meetings_card(meetings: list[Meeting]) -> None:
    """The record against each other person: games together, placed ahead, placed behind."""
    with _card("Against the others", "meetings"):
        if not meetings:
            ui.label("Nobody else yet.").classes("text-grey-8")
            return
        with ui.element("div").classes("lb-box"), ui.element("table").classes("leaderboard"):
            with ui.element("thead"), ui.element("tr"):
                for title in ("Person", "Games", "Ahead", "Behind"):
                    TextElement(tag="th", text=title).props("scope=col")
            with ui.element("tbody"):
                for meeting in meetings:
                    meeting_row(meeting)


def meeting_row(meeting: Meeting) -> None:
    other = meeting.other
    with ui.element("tr") as row:
        set_props(row, {"data-testid": "meeting-row", "data-person": other.name})
        with ui.element("td"), ui.element("div").classes("lb-person"):
            avatar(other, "1.75rem")
            ui.link(other.name, f"/people/{other.id}").classes("lb-name")
        cell(str(meeting.games))
        cell(str(meeting.ahead))
        cell(str(meeting.behind))


def recent_card(recent: list[ResultRow]) -> None:
    """The newest games, each with its replay and its charts."""
    with _card("Recent games", "recent-games"), ui.element("ul").classes("game-list w-full"):
        for result in recent:
            rating = (f"rating {shown(result.mu, result.sigma)}" if result.rated
                      else "not rated")
            with ui.element("li").classes("game-entry") as item:
                set_props(item, {"data-testid": "recent-game", "data-game": result.game_id})
                when = day(aware(result.finished_at))
                ui.label(f"{rules_for(result.kind).title} · {when}").classes("font-medium")
                ui.label(f"{place_name(result.place)} of {result.players} · {rating}"
                         ).classes("text-sm").props("data-testid=recent-place")
                with ui.row().classes("gap-3"):
                    ui.link("Replay", f"/replay/{result.game_id}").classes(
                        "touch-target").props("data-testid=recent-replay")
                    ui.link("Charts", f"/games/{result.game_id}/charts").classes(
                        "touch-target").props("data-testid=recent-charts")


def facts_card(shown_profile: Profile) -> None:
    """Games played, the favourite colour, and the captures made and suffered."""
    with _card("In numbers", "person-facts"), ui.element("dl").classes("facts"):
        favourite = shown_profile.favourite_colour
        colour = (rules_for(favourite[0]).colours[favourite[1]].title() if favourite
                  else "–")
        for term, value, testid in (
                ("Games", str(shown_profile.games), "person-games"),
                ("Favourite colour", colour, "favourite-colour"),
                ("Captures made", str(shown_profile.captures), "captures-made"),
                ("Captures suffered", str(shown_profile.captured), "captures-suffered")):
            TextElement(tag="dt", text=term)
            TextElement(tag="dd", text=value).props(f"data-testid={testid}")


async def person_profile(server: Server, person: Person) -> Profile:
    """What the page shows of ``person``, from their results once every finished game is
    rated (the games of a game this server no longer plays are left out: the page has no
    words for them)."""
    await server.ratings.rate_pending()
    own = [r for r in await server.ratings.results_of(person=person.id) if plays(r.kind)]
    together = await server.ratings.games_with({r.game_id for r in own})
    everyone = {p.id: p for p in await server.people.everyone(computers=True)}
    return profile(person, own, together, everyone)


async def person_page(server: Server, person_id: str, base: Callable[[], str],
                      connected: Connected) -> None:
    """A person's page; an id that is no one's (removed, made up) says so and looks up
    nothing it need not. ``base``: this server's address as other devices reach it."""
    person = await server.people.get(person_id) if PERSON_ID.fullmatch(person_id) else None
    if person is None:
        missing("Not here", "This person is not here: they may have been removed, or the "
                "address is wrong.", "person-missing", ("Everyone", "/people")).props(
            "data-testid=back-to-people")
        return
    with ui.column().classes("w-full max-w-2xl mx-auto p-4 gap-3 people-page"):
        shown_profile = await person_profile(server, person)
        with ui.row().classes("items-center gap-3 no-wrap"):
            avatar(person, "3rem")
            TextElement(tag="h1", text=person.name).props("data-testid=person-title")
        link_box = ui.column().classes("w-full gap-2").props("data-testid=person-link-box")
        if not shown_profile.games:
            ui.label("No finished games yet.").props("data-testid=person-no-games")
        chart = rating_card(ordered(shown_profile.history))
        meetings_card(shown_profile.meetings)
        if shown_profile.recent:
            recent_card(shown_profile.recent)
        facts_card(shown_profile)
        ui.link("Everyone", "/people").classes("touch-target").props(
            "data-testid=back-to-people")
    if not await connected():
        return
    if chart is not None and await ask_browser(
            "matchMedia('(prefers-color-scheme: dark)').matches", False):
        chart.options.clear()
        chart.options.update(rating_options(ordered(shown_profile.history), DARK))
        chart.update()
    me = await this_person(server.people)
    if me is not None and me.id == person.id:
        with link_box:
            second_device(server.people, person, base)


def second_device(people: People, person: Person, base: Callable[[], str]) -> None:
    """On a person's own page: a one-time link (and its QR code) that makes another device
    this person too."""
    ui.button("Use on another device", on_click=lambda: make()).props(
        "outline no-caps data-testid=person-link-make")
    shown_link = ui.column().classes("w-full gap-2 items-center")

    async def make() -> None:
        shown_link.clear()
        with shown_link:
            try:
                code = await people.link(person.id)
            except PersonError as problem:
                ui.label(str(problem)).classes("text-negative").props("role=alert")
                return
            url = f"{base()}/people/link/{code}"
            ui.html(qr_svg(url, "QR code of the link for another device"),
                    sanitize=False).classes("w-40 qr-code").props("data-testid=person-link-qr")
            ui.label(url).classes("text-sm break-all").props("data-testid=person-link-url")
            ui.label(f"It works once, for {LINK_MINUTES} minutes: open it on the other device "
                     "or scan the code there.").classes("text-sm qr-note").props(
                "data-testid=person-link-note")


# --- a second device -----------------------------------------------------------------------

async def link_page(server: Server, code: str, connected: Connected) -> None:
    """Open a one-time link: this browser becomes its person. The link is used only once the
    page is connected, so a chat app fetching it for a preview does not use it up."""
    with ui.column().classes("w-full max-w-md mx-auto p-4 gap-3 people-page"):
        TextElement(tag="h1", text="Another device")
        box = ui.column().classes("w-full gap-2")
    if not await connected():
        return
    with box:
        try:
            person, token = await server.people.redeem(code)
        except PersonError as problem:
            ui.label(str(problem)).props("role=alert data-testid=link-message")
            ui.link("Home", "/").classes("touch-target")
            return
        try:
            await keep_token(token)
        except TimeoutError:
            ui.label("This browser did not keep it in time: please make a new link.").props(
                "role=alert data-testid=link-message")
            return
        with ui.row().classes("items-center gap-2 no-wrap"):
            avatar(person)
            ui.label(f"This device is now {person.name}.").props(
                "role=status data-testid=link-done")
        ui.link(f"{person.name}'s page", f"/people/{person.id}").classes(
            "touch-target").props("data-testid=link-person")


# --- the addresses -------------------------------------------------------------------------
