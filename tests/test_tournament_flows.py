"""Tournaments as a family meets them (simulated users): the form and what it refuses, the
tournament's page with its bracket and standings, *Your table is ready* on the home page and
at the table, the maker taking someone out, the results download, unknown codes."""

from __future__ import annotations

from conftest import Phone
from nicegui.testing import User
from room_helpers import choose, click, shown
from test_people_flows import become
from tournament_helpers import play_out
from ui_helpers import element, elements, text, until

from components.server import Server
from parcheesi.server.tournament import Settings
from parcheesi.server.tournaments import Request


async def open_form(phone: Phone) -> None:
    await phone.user.open("/")
    await click(phone.user, "tournaments-link")
    await click(phone.user, "new-tournament")
    await shown(phone.user, "tournament-form")


def rows(user: User, testid: str) -> list[dict]:
    return [dict(e.props) for e in elements(user, testid)]


async def test_a_guest_and_too_few_entrants_are_told_why_and_nothing_is_made(
        app_server: Server, phones):
    guest = phones()
    await guest.user.open("/")
    await click(guest.user, "person-Guest")
    await open_form(guest)
    await click(guest.user, "start-tournament")
    assert "Choose who you are first" in text(guest.user, "tournament-error")
    ann = phones()
    await become(ann, "Ann")
    await open_form(ann)
    await click(ann.user, "start-tournament")  # Ann alone at a knockout of four
    assert text(ann.user, "tournament-error") == (
        "A knockout at tables of 4 needs at least 4 entrants, not 1.")
    await choose(ann.user, "tournament-advance", 3)
    await choose(ann.user, "tournament-table-size", 2)
    await choose(ann.user, "tournament-computers", 3)
    await click(ann.user, "start-tournament")
    assert "must be 1 to 1 at tables of 2" in text(ann.user, "tournament-error")
    assert await app_server.tournaments.everything() == []


async def test_a_knockout_from_the_form_to_its_page_and_the_tables(app_server: Server, phones):
    ann, ben = phones(), phones()
    await become(ann, "Ann")
    await become(ben, "Ben")
    await ben.user.open("/")  # Ben's home page, open while Ann makes the tournament
    await shown(ben.user, "who-am-i")
    assert not elements(ben.user, "your-table")
    await open_form(ann)
    await choose(ann.user, "tournament-game", "ludo")
    await choose(ann.user, "tournament-format", "knockout")
    await ann.user.should_see("Tables of 2 to 4; the first of each table go through")
    assert list(element(ann.user, "tournament-table-size").options) == [2, 3, 4]
    await click(ann.user, "tournament-entrant-Ben")
    await choose(ann.user, "tournament-computers", 2)
    await choose(ann.user, "tournament-computer-level", "easy")
    await click(ann.user, "start-tournament")
    await shown(ann.user, "bracket")
    [row] = await app_server.tournaments.everything()
    contest = await app_server.tournaments.get(row.code)
    assert contest is not None and contest.kind == "ludo"
    tables = rows(ann.user, "bracket-table")
    assert [(t["data-round"], t["data-room"]) for t in tables] == [(1, contest.rooms[0][0])]
    assert [r["data-entrant"] for r in rows(ann.user, "standing-row")][:2] == ["Ann", "Ben"]
    assert not elements(ann.user, "bracket-later")  # four entrants: the final only
    await ann.user.should_see("Tables of 4, the first 2 go through · no turn clock")
    assert elements(ann.user, "withdraw-Ben") and not elements(ann.user, "champion")
    # Ben, on his home page all along, is told his table is ready; opening it gives him
    # his seat (no claiming).
    await click(ben.user, "your-table")  # the card, or its button: the table either way
    await shown(ben.user, "tournament-back")
    room = await app_server.rooms.get(contest.rooms[0][0])
    assert room is not None
    token = ben.browser.seat_token(room.code)
    ben_id = next(e.id for e in contest.tournament.entrants if contest.name(e.id) == "Ben")
    colour = room.colour_of(token)
    assert colour is not None and room.seats[colour].person == ben_id
    # Ben did not make the tournament: he has no Take out.
    await ben.user.open(f"/t/{contest.code}")
    await shown(ben.user, "bracket")
    assert not elements(ben.user, "withdraw-Ann")
    # Ann takes Ben out: the stand-in plays his seat, his home page has no table.
    await click(ann.user, "withdraw-Ben")
    await until(lambda: not elements(ann.user, "withdraw-Ben"), "Ben out")
    assert ben_id in contest.withdrawn
    seat = room.seats[colour]
    assert (seat.kind, seat.person, room.colour_of(token)) == ("computer", "", None)
    await ben.user.open("/")
    await shown(ben.user, "who-am-i")
    assert not elements(ben.user, "your-table")
    # The table played out: the final's champion on the page, the download says the same.
    game = await app_server.rooms.game(room)
    assert game is not None
    await play_out(game)
    await until(lambda: contest.over, "the final recorded")
    await ann.user.open(f"/t/{contest.code}")
    await shown(ann.user, "champion")
    champion = contest.name(contest.champion or "")
    await ann.user.should_see(f"{champion} is the champion!")
    await ann.user.open("/tournaments")
    await ann.user.should_see(f"Ludo knockout · 4 entrants · won by {champion}")
    answer = (await ann.user.http_client.get(f"/t/{contest.code}/results.json")).json()
    missing = await ann.user.http_client.get("/t/NOPE2345/results.json")
    assert answer["champion"] == contest.champion and answer["names"][ben_id] == "Ben"
    assert answer["withdrawn"] == [ben_id] and missing.status_code == 404


async def test_an_unknown_tournament_says_so(app_server: Server, user: User):
    await user.open("/t/NOPE2345")
    await shown(user, "tournament-missing")
    assert text(user, "tournament-missing") == "There is no tournament with that code."
    await user.open("/tv/t/NOPE2345")
    await shown(user, "tournament-missing")


async def test_a_knockout_short_of_players_is_filled_at_the_level_chosen(
        app_server: Server, phones):
    ann = phones()
    await become(ann, "Ann")
    await open_form(ann)
    await choose(ann.user, "tournament-game", "ludo")
    await choose(ann.user, "tournament-computers", 4)  # five entrants at tables of four
    await choose(ann.user, "tournament-filler", "hard")
    await click(ann.user, "start-tournament")
    await shown(ann.user, "bracket")
    [row] = await app_server.tournaments.everything()
    contest = await app_server.tournaments.get(row.code)
    assert contest is not None
    fillers = [e for e in contest.tournament.entrants if e.filler]
    assert len(fillers) == 3 and {e.level for e in fillers} == {"hard"}
    assert len(elements(ann.user, "bracket-table")) == 2


async def test_swiss_rounds_of_computers_are_played_out_with_standings_by_points(
        app_server: Server, phones):
    """Nobody watching: the computers play every round; the page shows each round's tables
    and the standings by points (6/0 at tables of two), the champion at the top."""
    ann = phones()
    await become(ann, "Ann")
    person = (await app_server.people.everyone())[0]
    contest = await app_server.tournaments.create(person.id, Request(
        "ludo", Settings("swiss", table_size=2, rounds=2), (), ("easy",) * 4))
    await until(lambda: contest.over, "two rounds played", timeout=60)
    await ann.user.open(f"/t/{contest.code}")
    await shown(ann.user, "champion")
    tables = rows(ann.user, "bracket-table")
    assert sorted((t["data-round"], t["data-table"]) for t in tables) == [
        (1, 1), (1, 2), (2, 1), (2, 2)]
    standing = [(r["data-entrant"], r["data-points"]) for r in rows(ann.user, "standing-row")]
    assert [p for _, p in standing] == sorted((p for _, p in standing), reverse=True)
    assert sum(p for _, p in standing) == 4 * 6 and standing[0][1] >= 6
    assert standing[0][0] == contest.name(contest.champion or "")
