"""The people's pages through the app (NiceGUI's simulated users): the leaderboard of every
game with people and computers, a person's page, the one-time link for a second device, and
the host's tools, for the server's own machine or behind the host PIN."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from nicegui import ui
from nicegui.elements.mixins.text_element import TextElement
from nicegui.testing import User
from people_helpers import computer, finished_game, game_id, human
from room_helpers import click, click_on, shown, text_is, type_into
from ui_helpers import elements, text, until

from components.host_tools import PIN_BROWSERS, PIN_TRIES, PIN_WINDOW, PinGuard
from components.people_page import day
from components.person import PERSON_KEY
from components.server import Server
from parcheesi.core.registry import DEFAULT_GAME, games, rules_for
from parcheesi.core.words import counted, place_name
from parcheesi.server.config import parse
from parcheesi.server.leaderboard import leaderboard, profile
from parcheesi.server.people import LINK_MINUTES, Person
from parcheesi.server.ratings import PROVISIONAL_GAMES
from parcheesi.server.ratings import shown as shown_rating

PIN = "2468"


async def settled(server: Server) -> None:
    """The ratings worked out again after a change of the people (in a task of their own)."""
    await until(lambda: not server.ratings._tasks, "the ratings to be worked out again")


def rows(user: User, kind: str, testid: str = "person-row") -> list[ui.element]:
    """The rows of game ``kind``'s leaderboard, top first."""
    (table,) = [t for t in elements(user, "leaderboard") if t.props["data-game"] == kind]
    return [e for e in table.descendants() if e.props.get("data-testid") == testid]


def with_person(user: User, testid: str, name: str) -> Any:
    """The one element ``testid`` of the person called ``name``."""
    (found,) = [e for e in elements(user, testid) if e.props.get("data-person") == name]
    return found


async def household(server: Server) -> dict[str, Person]:
    """Ann and Ben, five games of the first game (among them, with a computer, and the
    computers alone) and one of the second: everyone's results rated."""
    ann, _ = await server.people.add("Ann")
    ben, _ = await server.people.add("Ben", "🐸")
    first, second = list(games())[:2]
    tables = [[human(0, ann), human(2, ben)], [human(0, ann), computer(2)],
              [human(0, ben), computer(2)], [human(0, ann), human(2, ben), computer(1)],
              [computer(0), computer(2, "hard")]]
    for n, seats in enumerate(tables, start=1):
        await finished_game(server.store, n, seats, first)
    await finished_game(server.store, 6, [human(0, ann), human(2, ben)], second)
    await server.ratings.rate_pending()
    return {p.name: p for p in await server.people.everyone(computers=True)}


async def expected_board(server: Server, kind: str) -> list[tuple[str, str]]:
    everyone = {p.id: p for p in await server.people.everyone(computers=True)}
    return [(e.person.name, str(e.rating))
            for e in leaderboard(await server.ratings.results_of(kind), everyone)]


async def test_the_leaderboard_lists_people_and_computers_by_rating(
        app_server: Server, user: User) -> None:
    await user.open("/people")
    await text_is(user, "no-results",
                  "No finished games yet: the leaderboard fills in as games end.")
    assert not elements(user, "leaderboard")
    people = await household(app_server)
    await user.open("/people")
    first, second = list(games())[:2]
    assert [t.props["data-game"] for t in elements(user, "leaderboard")] == [first, second]
    assert elements(user, f"game-tab-{first}") and elements(user, f"game-tab-{second}")
    board = [(r.props["data-person"], r.props["data-rating"]) for r in rows(user, first)]
    assert board == await expected_board(app_server, first)
    assert {name for name, _ in board} == {"Ann", "Ben", "Easy computer", "Hard computer"}
    ratings = [int(rating) for _, rating in board]
    assert ratings == sorted(ratings, reverse=True)
    # every rating is provisional: nobody has played five rated games yet
    assert len(rows(user, first, "provisional")) == len(board)
    for row in rows(user, first):  # the computers are marked, with their robot's avatar
        robot = row.props["data-person"].endswith("computer")
        assert ("lb-computer" in row.classes) == robot
        assert any("🤖" in getattr(e, "content", "") for e in row.descendants()) == robot
    everyone = {p.id: p for p in await app_server.people.everyone(computers=True)}
    entries = leaderboard(await app_server.ratings.results_of(first), everyone)
    for row, entry in zip(rows(user, first), entries, strict=True):
        cells = [getattr(c, "text", None) for c in row.descendants() if c.tag == "td"]
        assert cells == [str(entry.rank), None, None, str(entry.games), str(entry.wins),
                         f"{entry.average_place:g}", entry.streak or "–",
                         day(entry.last_played)]
        (link,) = [e for e in row.descendants() if isinstance(e, ui.link)]
        assert link.props["href"] == f"/people/{entry.person.id}"
    assert [e.games for e in entries if e.person.name == "Ann"] == [3]
    assert [r.props["data-person"] for r in rows(user, second)] == [
        name for name, _ in await expected_board(app_server, second)]
    # Ann's and Ben's fifth rated games: their ratings are provisional no more.
    ann, ben = people["Ann"], people["Ben"]
    for n in range(7, 7 + PROVISIONAL_GAMES - 3):
        await finished_game(app_server.store, n, [human(0, ann), human(2, ben)], first)
    await app_server.ratings.rate_pending()
    await user.open("/people")
    await shown(user, f"game-tab-{first}")
    for row in rows(user, first):
        provisional = [e for e in row.descendants() if e.props.get("data-testid") ==
                       "provisional"]
        assert bool(provisional) == (row.props["data-person"] not in ("Ann", "Ben"))


async def test_a_persons_page_shows_their_games_their_record_and_their_recent_games(
        app_server: Server, user: User) -> None:
    people = await household(app_server)
    ann = people["Ann"]
    await user.open(f"/people/{ann.id}")
    await text_is(user, "person-title", "Ann")
    own = await app_server.ratings.results_of(person=ann.id)
    together = await app_server.ratings.games_with({r.game_id for r in own})
    expected = profile(ann, own, together, people_by_id(people))
    assert text(user, "person-games") == str(len(own)) == "4"
    assert [(r.props["data-person"], [c.text for c in r.descendants() if c.tag == "td"
                                      and isinstance(c, TextElement)])
            for r in elements(user, "meeting-row")] == [
        (m.other.name, [str(m.games), str(m.ahead), str(m.behind)]) for m in expected.meetings]
    assert [m.other.name for m in expected.meetings][:1] == ["Ben"]  # three games together
    recent = elements(user, "recent-game")
    assert [e.props["data-game"] for e in recent] == [game_id(n) for n in (6, 4, 2, 1)]
    assert elements(user, "recent-replay")[0].props["href"] == f"/replay/{game_id(6)}"
    assert elements(user, "recent-charts")[0].props["href"] == f"/games/{game_id(6)}/charts"
    newest = own[-1]
    assert elements(user, "recent-place")[0].text == (
        f"{place_name(newest.place)} of 2 · rating {shown_rating(newest.mu, newest.sigma)}")
    kind, colour = expected.favourite_colour or ("", 0)
    assert text(user, "favourite-colour") == rules_for(kind).colours[colour].title()
    assert text(user, "captures-made") == str(expected.captures)
    assert text(user, "captures-suffered") == str(expected.captured)
    chart = elements(user, "rating-chart")[0]
    assert [s["name"] for s in chart.options["series"]] == [
        rules_for(k).title for k in games() if k in expected.history]
    assert [len(s["data"]) for s in chart.options["series"]] == [
        len(expected.history[k]) for k in games() if k in expected.history]
    assert not elements(user, "person-link-make")  # this browser is nobody
    # A computer has a page too; its record is against the people it met.
    await user.open(f"/people/{people['Hard computer'].id}")
    await text_is(user, "person-title", "Hard computer")
    assert [r.props["data-person"] for r in elements(user, "meeting-row")] == [
        "Easy computer"]


def people_by_id(people: dict[str, Person]) -> dict[str, Person]:
    return {p.id: p for p in people.values()}


@pytest.mark.parametrize(("place", "name"), [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"),
                                           (11, "11th"), (12, "12th"), (13, "13th"),
                                           (21, "21st"), (22, "22nd"), (111, "111th")])
def test_places_are_named_as_people_say_them(place: int, name: str) -> None:
    """One way to say a place, on the table's finish and in a person's games."""
    assert place_name(place) == name


def test_a_number_of_things_is_said_as_people_say_it() -> None:
    """A round robin of one game said "1 games at one table"."""
    assert [counted(n, "game") for n in (0, 1, 2, 12)] == [
        "0 games", "1 game", "2 games", "12 games"]


@pytest.mark.parametrize("wrong", ["not-an-id", "0" * 33, "F" * 32, "f" * 32, "removed"])
async def test_an_id_that_is_nobodys_says_the_person_is_not_here(
        app_server: Server, user: User, wrong: str) -> None:
    sam, _ = await app_server.people.add("Sam")
    await app_server.people.remove(sam.id)
    await settled(app_server)
    await user.open(f"/people/{sam.id if wrong == 'removed' else wrong}")
    await text_is(user, "person-missing", "This person is not here: they may have been "
                  "removed, or the address is wrong.")
    assert not elements(user, "person-title")


async def test_a_one_time_link_makes_another_device_the_same_person_once(
        app_server: Server, user: User, create_user: Callable[[], User]) -> None:
    ann, token = await app_server.people.add("Ann")
    _, ben_token = await app_server.people.add("Ben")
    user.storage[PERSON_KEY] = ben_token
    await user.open(f"/people/{ann.id}")
    await shown(user, "person-title")
    assert not elements(user, "person-link-make")  # Ben's browser on Ann's page
    user.storage[PERSON_KEY] = token
    await user.open(f"/people/{ann.id}")
    await click(user, "person-link-make")
    url = text(user, "person-link-url")
    assert url.startswith("http://test/people/link/")
    assert elements(user, "person-link-qr")
    assert f"works once, for {LINK_MINUTES} minutes" in text(user, "person-link-note")
    path = url.removeprefix("http://test")
    phone = create_user()
    await phone.open(path)
    await text_is(phone, "link-done", "This device is now Ann.")
    assert elements(phone, "link-person")[0].props["href"] == f"/people/{ann.id}"
    assert await app_server.people.of_token(phone.storage[PERSON_KEY]) == ann
    await phone.open(f"/people/{ann.id}")  # the new device is Ann on her page
    await shown(phone, "person-link-make")
    again = create_user()
    await again.open(path)
    await text_is(again, "link-message",
                  "That link does not work (it is wrong, used or too old).")
    assert PERSON_KEY not in again.storage
    await again.open("/people/link/made-up-code")
    await shown(again, "link-message")
    assert PERSON_KEY not in again.storage


async def open_tools(user: User) -> None:
    await user.open("/people")
    await shown(user, "people-manage")


async def test_the_host_renames_merges_removes_and_caps_the_people(
        app_server: Server, user: User) -> None:
    people = await household(app_server)
    await open_tools(user)  # the simulated browser asks from the server's own machine
    assert not elements(user, "host-pin")
    assert [e.props["data-person"] for e in elements(user, "manage-person")] == ["Ann", "Ben"]
    # rename, with a new avatar; a name taken is refused in the dialog's words
    await click_on(user, with_person(user, "person-rename", "Ben"))
    await type_into(user, "rename-name", "Ann")
    await click(user, "rename-save")
    await text_is(user, "rename-error", "Someone is already called Ann.")
    await type_into(user, "rename-name", "Benny")
    await type_into(user, "rename-emoji", "🦊")
    await click(user, "rename-save")
    await settled(app_server)
    assert [e.props["data-person"] for e in elements(user, "manage-person")] == ["Ann", "Benny"]
    renamed = await app_server.people.get(people["Ben"].id)
    assert renamed is not None and (renamed.name, renamed.emoji) == ("Benny", "🦊")
    assert "Benny" in {r.props["data-person"] for r in rows(user, DEFAULT_GAME)}
    # merge: the dialog says what it means first
    await click_on(user, with_person(user, "person-merge", "Benny"))
    await text_is(user, "merge-words", "The games and devices of Benny count for Ann from now "
                  "on (one person on two devices). This cannot be undone.")
    await click(user, "merge-confirm")
    await settled(app_server)
    assert [e.props["data-person"] for e in elements(user, "manage-person")] == ["Ann"]
    assert await app_server.people.get(people["Ben"].id) == await app_server.people.get(
        people["Ann"].id)
    await open_tools(user)
    first = DEFAULT_GAME
    assert "Benny" not in {r.props["data-person"] for r in rows(user, first)}
    assert [r.props["data-person"] for r in rows(user, first)] == [
        name for name, _ in await expected_board(app_server, first)]
    # the cap: never below the people on the list
    await app_server.people.add("Ben")
    await open_tools(user)
    await type_into(user, "people-limit", 1)
    await click(user, "people-limit-save")
    await text_is(user, "people-limit-error", "There are more people than that already.")
    await type_into(user, "people-limit", 2.5)
    await click(user, "people-limit-save")
    await text_is(user, "people-limit-error", "The cap is a number from 1 to 500.")
    await type_into(user, "people-limit", 7)
    await click(user, "people-limit-save")
    await text_is(user, "people-count", "2 of at most 7 people.")
    assert await app_server.people.limit() == 7
    # remove: their games stay, under the name they played with
    await click_on(user, with_person(user, "person-remove", "Ann"))
    assert "Their games stay, under the name they played with" in text(user, "remove-words")
    await click(user, "remove-confirm")
    await settled(app_server)
    assert [e.props["data-person"] for e in elements(user, "manage-person")] == ["Ben"]
    assert [p.name for p in await app_server.people.everyone()] == ["Ben"]
    assert await app_server.store.game(game_id(1)) is not None


async def test_a_phone_sees_no_tools_without_a_host_pin(app_server: Server, user: User
                                                        ) -> None:
    await household(app_server)
    app_server.host_addresses = ()  # a phone on the network
    await user.open("/people")
    await shown(user, f"game-tab-{DEFAULT_GAME}")
    assert not elements(user, "people-manage") and not elements(user, "host-pin")


@pytest.mark.parametrize("app_config", [{"host_pin": PIN}], indirect=True)
async def test_the_host_pin_unlocks_the_tools_on_that_page_only(
        app_server: Server, user: User, create_user: Callable[[], User]) -> None:
    await household(app_server)
    app_server.host_addresses = ()
    await user.open("/people")
    await shown(user, "host-pin")
    assert not elements(user, "people-manage")
    await type_into(user, "host-pin", "1357")
    await click(user, "host-pin-enter")
    await text_is(user, "host-pin-error", "That PIN is not right.")
    assert not elements(user, "people-manage")
    await type_into(user, "host-pin", f" {PIN} ")
    await click(user, "host-pin-enter")
    await shown(user, "people-manage")
    assert not elements(user, "host-pin")
    await user.open("/people")  # nothing kept: the next page asks again
    await shown(user, "host-pin")
    assert not elements(user, "people-manage")
    # Guessing is slow: after five wrong PINs a minute, even the right one waits.
    guesser = create_user()
    await guesser.open("/people")
    for guess in range(PIN_TRIES):
        await type_into(guesser, "host-pin", str(1000 + guess))
        await click(guesser, "host-pin-enter")
    await type_into(guesser, "host-pin", PIN)
    await click(guesser, "host-pin-enter")
    await text_is(guesser, "host-pin-error", "Too many wrong PINs: please wait a minute.")
    assert not elements(guesser, "people-manage")


def test_wrong_pins_are_counted_per_browser_for_a_minute_and_bounded() -> None:
    now = [0.0]
    guard = PinGuard(PIN, lambda: now[0])
    for _ in range(PIN_TRIES):
        assert guard.check("a", "0000") == "That PIN is not right."
    assert guard.check("a", PIN) == "Too many wrong PINs: please wait a minute."
    assert guard.check("b", PIN) is None  # another browser is not held up
    now[0] += PIN_WINDOW
    assert guard.check("a", PIN) is None
    for wrong in (None, 1234, ["2468"], "2468x", "é"):
        assert guard.check("c", wrong) == "That PIN is not right."
    for k in range(PIN_BROWSERS + 10):
        guard.check(f"browser-{k}", "0")
    assert len(guard.wrong) == PIN_BROWSERS
    assert PinGuard("").check("d", "") == "That PIN is not right."  # no PIN: nothing opens


def test_the_host_pin_setting(app_data) -> None:
    environ = {"PARCHEESI_DATA_DIR": str(app_data)}
    assert parse([], environ).host_pin == ""
    assert parse(["--host-pin", "1234"], environ).host_pin == "1234"
    assert parse([], {**environ, "PARCHEESI_HOST_PIN": "9876"}).host_pin == "9876"
