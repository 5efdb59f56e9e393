"""The host's tools on the leaderboard: rename (and a new avatar), merge, remove, and the cap
on the list of people.

They are there for a page opened on the server's own machine, or once the host PIN
(``--host-pin``) is entered: the PIN unlocks that one page and is kept nowhere, so a phone
passed round the table gives nothing away; wrong PINs are counted per browser
(:class:`PinGuard`), so a short PIN is not guessed in an evening.
"""

from __future__ import annotations

import hmac
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from nicegui import ui

from parcheesi.server.live import NAME_LENGTH
from parcheesi.server.people import (
    EMOJI_LENGTH,
    MAX_LIMIT,
    People,
    Person,
    PersonError,
)

from .person import avatar
from .updates import set_props

PIN_TRIES = 5
"""Wrong host PINs a browser may enter in :data:`PIN_WINDOW` seconds."""
PIN_WINDOW = 60.0
PIN_BROWSERS = 1000
"""Browsers whose wrong PINs are remembered at once (the oldest are forgotten first)."""


# --- the host PIN --------------------------------------------------------------------------

class PinGuard:
    """The host PIN, and the wrong ones each browser entered lately, in memory: bounded, so
    a flood of made-up browsers costs the oldest entries, never the server's memory."""

    def __init__(self, pin: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.pin = pin
        self.clock = clock
        self.wrong: dict[str, list[float]] = {}

    def check(self, browser: str, entered: object) -> str | None:
        """None when ``entered`` is the PIN; else why not, in words fit to show (a wrong
        PIN, or too many of them in the last minute)."""
        now = self.clock()
        recent = [t for t in self.wrong.pop(browser, []) if now - t < PIN_WINDOW]
        if len(recent) >= PIN_TRIES:
            self._keep(browser, recent)
            return "Too many wrong PINs: please wait a minute."
        given = entered.strip() if isinstance(entered, str) else ""
        if self.pin and hmac.compare_digest(given.encode(), self.pin.encode()):
            self._keep(browser, recent)
            return None
        self._keep(browser, [*recent, now])
        return "That PIN is not right."

    def _keep(self, browser: str, times: list[float]) -> None:
        if not times:
            return
        while len(self.wrong) >= PIN_BROWSERS:
            del self.wrong[next(iter(self.wrong))]
        self.wrong[browser] = times


@dataclass(frozen=True)
class Visitor:
    """Who opened the leaderboard: the host (on the server's own machine) or not, and the
    browser their wrong PINs are counted for."""

    host: bool
    browser: str


def merge_words(name: str, into: str) -> str:
    return (f"The games and devices of {name} count for {into} from now on (one person "
            "on two devices). This cannot be undone.")


def remove_words(name: str) -> str:
    return (f"Remove {name} from the list? Their games stay, under the name they played "
            "with; their devices become guests.")




# --- the host's tools ----------------------------------------------------------------------

Change = Callable[[], Awaitable[object]]


class HostTools:
    """Rename (and a new avatar), merge, remove, and the cap on the list; every refusal is
    shown as :class:`PersonError` words it, and the page is drawn again after a change
    (after a merge or a removal, once the ratings are worked out again)."""

    def __init__(self, people: People, everyone: list[Person], limit: int,
                 changed: Callable[[], Awaitable[None]]) -> None:
        self.people, self.everyone, self.changed = people, everyone, changed
        with ui.card().classes("w-full gap-2").props("data-testid=people-manage"):
            ui.label("Manage people").classes("text-lg font-medium").props(
                "role=heading aria-level=2")
            if not everyone:
                ui.label("Nobody has been added yet.").classes("text-grey-8")
            with ui.element("ul").classes("manage-list"):
                for person in everyone:
                    self._row(person)
            self._cap(limit)

    def _row(self, person: Person) -> None:
        with ui.element("li").classes("manage-row") as item:
            set_props(item, {"data-testid": "manage-person", "data-person": person.name})
            with ui.row().classes("items-center gap-2 no-wrap manage-who"):
                avatar(person)
                ui.label(person.name).classes("font-medium manage-name")
            with ui.row().classes("gap-1"):
                self._button("Rename", "person-rename", person, lambda: self._rename(person))
                if len(self.everyone) > 1:
                    self._button("Merge", "person-merge", person, lambda: self._merge(person))
                self._button("Remove", "person-remove", person, lambda: self._remove(person))

    @staticmethod
    def _button(label: str, testid: str, person: Person, action: Callable[[], None]) -> None:
        button = ui.button(label, on_click=action).props("flat no-caps")
        set_props(button, {"data-testid": testid, "data-person": person.name,
                           "aria-label": f"{label} {person.name}"})

    @staticmethod
    def _dialog(title: str) -> ui.dialog:
        """A dialog that goes away once closed (a page opens many in an evening)."""
        dialog = ui.dialog().props(f'aria-label="{title}"')
        dialog.on_value_change(lambda event: None if event.value else dialog.delete())
        return dialog

    async def _apply(self, dialog: ui.dialog, error: ui.label, change: Change) -> None:
        """Make ``change``; a refusal stays in its dialog, to be corrected there."""
        try:
            await change()
        except PersonError as problem:
            error.set_text(str(problem))
            return
        dialog.close()
        await self.changed()

    def _rename(self, person: Person) -> None:
        with self._dialog("Rename") as dialog, ui.card().classes("gap-2 host-card people-dialog"):
            ui.label(f"Rename {person.name}").classes("text-lg font-medium")
            name = ui.input("Name", value=person.name).props(
                f"maxlength={NAME_LENGTH} autocomplete=off data-testid=rename-name").classes(
                "w-full")
            emoji = ui.input("Avatar emoji (empty: initials)", value=person.emoji).props(
                f"maxlength={EMOJI_LENGTH} autocomplete=off data-testid=rename-emoji").classes(
                "w-full")
            error = _error("rename-error")
            _buttons(dialog, "Save", "rename-save", lambda: self._apply(
                dialog, error, lambda: self.people.rename(person.id, name.value,
                                                          emoji.value or "")))
        dialog.open()

    def _merge(self, person: Person) -> None:
        others = {p.id: p.name for p in self.everyone if p.id != person.id}
        first = next(iter(others))
        with self._dialog("Merge") as dialog, ui.card().classes("gap-2 host-card people-dialog"):
            ui.label(f"Merge {person.name} into…").classes("text-lg font-medium")
            into = ui.select(others, value=first, label="The same person as").props(
                "data-testid=merge-into").classes("w-full")
            words = ui.label(merge_words(person.name, others[first])).props(
                "data-testid=merge-words")
            into.on_value_change(lambda event: words.set_text(
                merge_words(person.name, others.get(event.value, ""))))
            error = _error("merge-error")
            _buttons(dialog, "Merge", "merge-confirm", lambda: self._apply(
                dialog, error, lambda: self.people.merge(person.id, into.value)),
                negative=True)
        dialog.open()

    def _remove(self, person: Person) -> None:
        with self._dialog("Remove") as dialog, ui.card().classes("gap-2 host-card people-dialog"):
            ui.label(remove_words(person.name)).props("data-testid=remove-words")
            error = _error("remove-error")
            _buttons(dialog, "Remove", "remove-confirm", lambda: self._apply(
                dialog, error, lambda: self.people.remove(person.id)), negative=True)
        dialog.open()

    def _cap(self, limit: int) -> None:
        """The most people the list may hold (never fewer than are on it)."""
        ui.label(f"{len(self.everyone)} of at most {limit} people.").props(
            "data-testid=people-count")
        with ui.row().classes("w-full items-center gap-2 no-wrap") as line:
            cap = ui.number("Most people", value=limit, min=1, max=MAX_LIMIT, precision=0,
                            format="%d").props("dense data-testid=people-limit").classes(
                "grow")
        error = _error("people-limit-error")
        with line:
            ui.button("Set", on_click=lambda: self._set_limit(cap.value, error)).props(
                "data-testid=people-limit-save")

    async def _set_limit(self, value: Any, error: ui.label) -> None:
        whole = int(value) if isinstance(value, int | float) and float(value).is_integer() \
            else value
        try:
            await self.people.set_limit(whole)
        except PersonError as problem:
            error.set_text(str(problem))
            return
        await self.changed()


def _error(testid: str) -> ui.label:
    return ui.label("").classes("text-negative").props(f"role=alert data-testid={testid}")


def _buttons(dialog: ui.dialog, label: str, testid: str, action: Callable[[], Any],
             negative: bool = False) -> None:
    """A dialog's Cancel and its action."""
    with ui.row().classes("w-full justify-end gap-2"):
        ui.button("Cancel", on_click=dialog.close).props("flat no-caps data-testid=cancel")
        ui.button(label, on_click=action).props(
            f"no-caps data-testid={testid}" + (" color=negative" if negative else ""))
