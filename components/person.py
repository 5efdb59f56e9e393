"""This browser's person: the token it keeps in its localStorage (never on a page, never on
the server but as a hash), the avatar drawn for a person, and the "Who's playing?" chooser.

A page asks :func:`this_person` once its socket is connected; a forged or stale token finds
nobody, and the browser is then a guest (and asked again). The chooser lists the people
(``person-<name>``), Guest, and a field to add someone (``person-name``, ``person-add``);
it is shown once, gently, on the home page of a browser that is nobody yet, and from the
header's avatar at any time.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable

from nicegui import Client, ui

from parcheesi.server.live import NAME_LENGTH
from parcheesi.server.people import GUEST_NAME, People, Person, PersonError

from .lobby import ask_browser

PERSON_KEY = "parcheesi-person"
"""The localStorage key of this browser's person token (contract: the browser hooks)."""
ASKED_KEY = "parcheesi-person-asked"
"""Set once the browser was asked who plays (so the home page asks only once)."""


async def stored_token() -> str | None:
    value = await ask_browser(f"localStorage.getItem({json.dumps(PERSON_KEY)})")
    return value if isinstance(value, str) and value else None


async def this_person(people: People) -> Person | None:
    """The person this browser is (None: a guest, or a token the server does not know)."""
    return await people.of_token(await stored_token())


async def keep_token(token: str | None, client: Client | None = None) -> None:
    """This browser is the token's person from now on (None: a guest)."""
    run = (client or ui.context.client).run_javascript
    if token is None:
        await run(f"localStorage.removeItem({json.dumps(PERSON_KEY)}); true", timeout=10.0)
    else:
        await run(f"localStorage.setItem({json.dumps(PERSON_KEY)}, {json.dumps(token)}); true",
                  timeout=10.0)
    await run(f"localStorage.setItem({json.dumps(ASKED_KEY)}, \"1\"); true", timeout=10.0)


async def was_asked() -> bool:
    return bool(await ask_browser(f"localStorage.getItem({json.dumps(ASKED_KEY)})", True))


def avatar(person: Person | None, size: str = "2rem") -> None:
    """A person's avatar: their emoji, or their initials on their colour (Guest: "?")."""
    face = "?" if person is None else person.emoji or person.initials
    colour = "#757575" if person is None or person.emoji else person.colour
    label = GUEST_NAME if person is None else person.name
    ui.html(f'<span class="avatar" style="--avatar-size:{size};background:'
            f'{colour if not (person and person.emoji) else "transparent"}" '
            f'role="img" aria-label="{_escape(label)}">{_escape(face)}</span>',
            sanitize=False)


def _escape(text: str) -> str:
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


Chosen = Callable[[Person | None], Awaitable[None] | None]


async def chooser(people: People, on_chosen: Chosen) -> None:
    """"Who's playing?" drawn here: pick a person, Guest, or add someone; the browser keeps
    the choice, and ``on_chosen`` hears it (None: Guest)."""
    everyone = await people.everyone()
    with ui.card().classes("w-full gap-3").props("data-testid=who-is-playing"):
        ui.label("Who's playing?").classes("text-lg font-medium")
        with ui.row().classes("w-full gap-2"):
            for person in everyone:
                with ui.button(on_click=lambda p=person: pick(p)).props(
                        f'outline no-caps data-testid="person-{person.name}"'), \
                        ui.row().classes("items-center gap-2 no-wrap"):
                    avatar(person)
                    ui.label(person.name)
            ui.button(GUEST_NAME, on_click=lambda: pick(None)).props(
                f'outline no-caps data-testid="person-{GUEST_NAME}"')
        with ui.row().classes("w-full items-center gap-2 no-wrap"):
            name = ui.input("Add someone", placeholder="Name").props(
                f'dense data-testid=person-name maxlength={NAME_LENGTH} autocomplete=off'
            ).classes("grow")
            ui.button("Add", on_click=lambda: add()).props("data-testid=person-add")
        error = ui.label("").classes("text-negative").props("role=alert")

    async def add() -> None:
        try:
            person, token = await people.add(name.value)
        except PersonError as problem:
            error.set_text(str(problem))
            return
        await finish(person, token)

    async def pick(person: Person | None) -> None:
        if person is None:
            await finish(None, None)
            return
        try:
            chosen, token = await people.choose(person.id)
        except PersonError as problem:
            error.set_text(str(problem))
            return
        await finish(chosen, token)

    async def finish(person: Person | None, token: str | None) -> None:
        await keep_token(token)
        done = on_chosen(person)
        if done is not None:
            await done

    name.on("keydown.enter", add)


async def playing_as(people: People, box: ui.element) -> None:
    """Who this browser plays as, drawn in ``box`` with a way to change it; a browser that
    is nobody and was never asked finds the chooser there instead, once (Guest is one tap
    away, and nothing else on the page waits for it)."""

    def draw(now: Person | None) -> None:
        box.clear()
        with box, ui.row().classes("items-center gap-2"):
            avatar(now)
            ui.label(f"Playing as {now.name if now else GUEST_NAME}").props(
                "data-testid=who-am-i")
            ui.button("Change", on_click=change).props(
                "flat dense no-caps data-testid=change-person")

    async def change() -> None:
        box.clear()
        with box:
            await chooser(people, draw)

    person = await this_person(people)
    if person is None and not await was_asked():
        await change()
    else:
        draw(person)
