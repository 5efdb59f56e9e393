"""People as a family meets them: "Who's playing?" on a browser's first visit, a reload and a
forged token, seats credited to people in a room and on a shared screen, and the rating
change on the finish card (simulated users, NiceGUI ``user``)."""

from __future__ import annotations

from conftest import Phone
from room_helpers import (
    choose,
    click,
    create_room,
    enabled_now,
    shown,
    type_into,
)
from ui_helpers import element, elements, text, until

from components.person import PERSON_KEY
from components.server import Server
from parcheesi.games.parcheesi.ai import decide
from parcheesi.server.leaderboard import leaderboard


async def become(phone: Phone, name: str) -> None:
    """The phone's first visit: "Who's playing?" there, a new person added."""
    await phone.user.open("/")
    await shown(phone.user, "who-is-playing")
    await type_into(phone.user, "person-name", name)
    await click(phone.user, "person-add")
    await until(lambda: elements(phone.user, "who-am-i") != [], "the chooser closes")
    assert f"Playing as {name}" in text(phone.user, "who-am-i")


async def test_a_browser_is_asked_once_and_keeps_its_person(app_server: Server, phones):
    ann = phones()
    await become(ann, "Ann")
    token = ann.browser.local_storage[PERSON_KEY]
    person = await app_server.people.of_token(token)
    assert person is not None and person.name == "Ann"
    await ann.user.open("/")  # a reload: no question, the same person
    await shown(ann.user, "who-am-i")
    assert "Playing as Ann" in text(ann.user, "who-am-i") and not elements(
        ann.user, "who-is-playing")
    # Another phone picks Ann from the list; a third stays a guest.
    other = phones()
    await other.user.open("/")
    await click(other.user, "person-Ann")
    await until(lambda: elements(other.user, "who-am-i") != [], "picked")
    assert await app_server.people.of_token(other.browser.local_storage[PERSON_KEY]) == person
    guest = phones()
    await guest.user.open("/")
    await click(guest.user, "person-Guest")
    await until(lambda: elements(guest.user, "who-am-i") != [], "a guest")
    assert PERSON_KEY not in guest.browser.local_storage
    # A forged token is nobody: the page says Guest and nothing is changed.
    before = await app_server.people.everyone()
    ann.browser.local_storage[PERSON_KEY] = token[:-2] + "xx"
    await ann.user.open("/")
    await shown(ann.user, "who-am-i")
    assert "Playing as Guest" in text(ann.user, "who-am-i")
    assert await app_server.people.everyone() == before


async def test_a_room_game_credits_both_people_and_the_finish_says_their_change(
        app_server: Server, phones, monkeypatch):
    monkeypatch.setattr("parcheesi.server.fairness.dice_seed", lambda secret, added: 14)
    ann, ben = phones(), phones()
    await become(ann, "Ann")
    await become(ben, "Ben")
    code = await create_room(ann.user, ann.browser, name="", invited=["sapphire"],
                             computers={}, count=2)
    await ben.user.open(f"/r/{code}")
    await shown(ben.user, "guest-name")
    assert element(ben.user, "guest-name").props["placeholder"] == "Ben"
    await click(ben.user, "claim-seat-sapphire")
    await ben.user.should_see("Ben (you)")
    await click(ben.user, "ready")
    await until(lambda: enabled_now(ann.user, "start-game"), "the host may start")
    await click(ann.user, "start-game")
    room = await app_server.rooms.get(code)
    assert room is not None
    game = await app_server.hub.get(room.game_id or "")
    assert game is not None
    people = {p.name: p for p in await app_server.people.everyone()}
    assert {s.name: s.person for s in game.seats.values()} == {
        "Ann": people["Ann"].id, "Ben": people["Ben"].id}
    tokens = {0: ann.browser.seat_token(code), 2: ben.browser.seat_token(code)}
    while not game.over:
        for action in decide(game.state, "easy").actions:
            await app_server.rooms.act(room, tokens[game.state.turn], action, game.version)
    for phone in (ann, ben):
        await shown(phone.user, "winner")
        await until(lambda p=phone: len(elements(p.user, "rating-change")) == 2,
                    "both changes on the card")
    changes = {c.name: c for c in await app_server.ratings.changes(game.id)}
    winner = game.name_of(game.state.winner)
    loser = ({"Ann", "Ben"} - {winner}).pop()
    assert changes[winner].delta > 0 > changes[loser].delta
    everyone = {p.id: p for p in await app_server.people.everyone(computers=True)}
    board = leaderboard(await app_server.ratings.results_of(game.kind), everyone)
    assert [(e.person.name, e.games) for e in board] == [(winner, 1), (loser, 1)]


async def test_a_shared_screen_seats_people_of_the_house(app_server: Server, phones):
    ann = phones()
    await become(ann, "Ann")
    await app_server.people.add("Ben")
    await ann.user.open("/new")
    await choose(ann.user, "mode", "same_device")
    await choose(ann.user, "player-count", 2)
    await choose(ann.user, "kind-sapphire", "human")
    ben = next(p for p in await app_server.people.everyone() if p.name == "Ben")
    await choose(ann.user, "seat-person-ruby", ben.id)
    await click(ann.user, "start-game")
    await shown(ann.user, "roll")
    (game,) = app_server.hub.games.values()
    seats = {s.colour: (s.name, s.person) for s in game.seats.values()}
    assert seats[0] == ("Ben", ben.id) and seats[2] == ("", "")
