"""Ludo through the app's pages, as a person uses them (NiceGUI's simulated user).

The same set-up form, table and rooms serve Ludo: the form offers the game, Ludo's colours,
levels and house rules; the table draws the Ludo board and says what happened in Ludo's
words; a game plays to its end and Play again keeps the game and its house rules.
"""

from __future__ import annotations

import pytest
from nicegui import ui
from nicegui.testing import User
from ui_helpers import (
    board,
    board_click,
    choose,
    click,
    computers_done,
    element,
    elements,
    enabled,
    ids_starting,
    live_game,
    stop_runners,
    text,
    until,
)

from components.server import Server
from parcheesi.core.state import Phase
from parcheesi.games.ludo.board import HOME
from parcheesi.games.ludo.words import HOUSE_WORDS
from parcheesi.server.live import COMPUTER
from parcheesi.server.rooms import Rooms

RED, GREEN, YELLOW, BLUE = 0, 1, 2, 3


@pytest.fixture
async def table_user(app_server: Server, user: User):
    yield user
    stop_runners(app_server)


async def open_ludo_form(user: User) -> None:
    await user.open("/new")
    await choose(user, "game", "ludo")


async def test_the_form_offers_ludo_with_its_colours_levels_and_house_rules(
        table_user: User) -> None:
    user = table_user
    await open_ludo_form(user)
    assert ids_starting(user, "seat-") == ["seat-red", "seat-green", "seat-yellow", "seat-blue"]
    assert set(element(user, "level-green").options) == {"easy", "medium", "hard", "expert"}
    assert ids_starting(user, "house-") == ["house-stars", "house-third_six",
                                            "house-capture_all", "house-no_home_bonus",
                                            "house-six_again"]
    await choose(user, "player-count", 2)
    assert list(element(user, "pair", ui.radio).options) == [
        "red-yellow", "green-blue", "red-green", "red-blue", "green-yellow", "yellow-blue"]
    await user.should_see("Red with Yellow")
    await choose(user, "pair", "red-green")  # neighbours too (docs/rules/ludo.md 1)
    assert ids_starting(user, "seat-") == ["seat-red", "seat-green"]
    await choose(user, "pair", "green-blue")
    assert ids_starting(user, "seat-") == ["seat-green", "seat-blue"]
    await choose(user, "game", "parcheesi")
    assert not ids_starting(user, "house-")
    assert ids_starting(user, "seat-") == ["seat-emerald", "seat-amber"]


async def test_a_solo_ludo_game_with_house_rules_opens_on_the_ludo_board(
        app_server: Server, table_user: User) -> None:
    user = table_user
    await open_ludo_form(user)
    await choose(user, "player-count", 2)
    element(user, "house-stars", ui.switch).set_value(True)
    element(user, "house-six_again", ui.switch).set_value(True)
    await click(user, "start-game")
    await until(lambda: board(user) is not None, "the table to open")
    game = await live_game(app_server, user)
    assert (game.kind, game.house) == ("ludo", ("six_again", "stars"))
    assert game.state.house == ("six_again", "stars")
    assert text(user, "house-rules") == "House rules: Six again, Star squares"
    shown = board(user)
    assert shown is not None
    geometry = shown._geometry
    assert geometry["label"] == "Ludo board" and len(geometry["yards"]) == 4
    assert len(geometry["track"]) == 52
    assert sorted(m[2] for m in geometry["safe"]) == [-1, -1, -1, -1, 0, 1, 2, 3]
    assert ids_starting(user, "player-") == ["player-red", "player-yellow"]


async def test_a_ludo_game_is_played_to_the_end_through_the_table(
        app_server: Server, table_user: User) -> None:
    """The person rolls and moves with the table's own controls until the game ends; every
    action goes through the page, none straight to the game."""
    user = table_user
    await open_ludo_form(user)
    await choose(user, "player-count", 2)
    await choose(user, "level-yellow", "easy")
    await click(user, "start-game")
    await until(lambda: board(user) is not None, "the table to open")
    game = await live_game(app_server, user)
    for _ in range(3000):
        await computers_done(game, timeout=30)
        if game.over:
            break
        version = game.version
        if game.rules.rolling(game.state):
            assert enabled(user, "roll")
            await click(user, "roll")
        else:
            await take_first_move(user, game)
        await until(lambda v=version: game.version > v or game.over,  # type: ignore[misc]
                    "the press to be taken")
    assert game.over
    await until(lambda: bool(elements(user, "winner")), "the finish to show")
    assert game.rules.winner(game.state) is not None or game.state.draw
    standing = game.rules.standings(game.state)
    assert sorted(standing) == [RED, YELLOW]
    if game.rules.winner(game.state) is not None:
        assert game.state.pieces[standing[0]] == (HOME,) * 4


async def take_first_move(user: User, game) -> None:
    """Tap the first movable piece on the board, then its first option if one is asked."""
    assert game.state.phase is Phase.MOVE
    piece = min(c.piece for c in game.rules.choices(game.state) if c.piece is not None)
    version = game.version
    await board_click(user, game.state.turn, piece)
    if game.version == version:
        await click(user, "move-option")


async def test_play_again_keeps_ludo_and_its_house_rules(app_server: Server,
                                                         table_user: User) -> None:
    user = table_user
    await open_ludo_form(user)
    await choose(user, "mode", "same_device")
    await choose(user, "player-count", 2)
    for colour in ("red", "yellow"):
        await choose(user, f"kind-{colour}", COMPUTER)
    element(user, "house-capture_all", ui.switch).set_value(True)
    await click(user, "start-game")
    await until(lambda: board(user) is not None, "the table to open")
    game = await live_game(app_server, user)
    await until(lambda: game.over, "the computers to finish the game", timeout=60)
    await until(lambda: bool(elements(user, "play-again")), "Play again to show")
    await click(user, "play-again")
    await until(lambda: (g := app_server.hub.games) and any(
        x.id != game.id and x.kind == "ludo" for x in g.values()), "the next game")
    again = next(x for x in app_server.hub.games.values() if x.id != game.id)
    assert (again.kind, again.house) == ("ludo", ("capture_all",))


async def test_an_online_ludo_room_keeps_its_game_and_house_rules(app_server: Server,
                                                                  table_user: User) -> None:
    user = table_user
    await open_ludo_form(user)
    await choose(user, "mode", "online")
    await choose(user, "player-count", 2)
    await choose(user, "kind-yellow", COMPUTER)
    element(user, "house-third_six", ui.switch).set_value(True)
    await click(user, "start-game")
    await until(lambda: bool(elements(user, "room-code")), "the lobby to open")
    rooms: Rooms = app_server.rooms
    room = next(iter(rooms.rooms.values()))
    assert (room.kind, room.house) == ("ludo", ("third_six",))
    assert text(user, "room-game") == "Ludo · house rules: Third six"
    await click(user, "start-game")
    await until(lambda: room.game_id is not None, "the game to start")
    game = await app_server.hub.get(room.game_id)
    assert game is not None and (game.kind, game.house) == ("ludo", ("third_six",))
    await computers_done(game)


async def test_the_ludo_rules_page_agrees_with_the_rules_and_lists_every_house_rule(
        table_user: User) -> None:
    user = table_user
    await user.open("/rules")
    assert elements(user, "rules-ludo")
    await user.open("/rules/ludo")
    rules = element(user, "rules", ui.markdown).content
    for fact in ("track has 52 squares", "only with a **6**", "**exact** number",
                 "sends **one** of their pieces", "protects **your** pieces only",
                 "1,000 rolls", "**play on**"):
        assert fact in rules, fact
    for short, what in HOUSE_WORDS.values():
        assert f"**{short}**: {what}." in rules
    assert elements(user, "rules-parcheesi")


async def test_the_board_turns_so_the_players_yard_is_at_the_bottom(
        app_server: Server, table_user: User) -> None:
    user = table_user
    await open_ludo_form(user)
    await choose(user, "your-colour", GREEN)
    await click(user, "start-game")
    await until(lambda: board(user) is not None, "the table to open")
    shown = board(user)
    assert shown is not None and shown.view["rotation"] == 3  # Green's yard is top left
    await choose(user, "setting-orientation", "sapphire")  # the blue paint: Ludo's Blue
    await until(lambda: board(user).view["rotation"] == 1, "Blue at the bottom")
    # the settings speak the table's game ("Sapphire (Ludo: Blue) at the bottom" before)
    options = element(user, "setting-orientation").options
    assert [options[key] for key in ("ruby", "emerald", "sapphire", "amber")] == [
        "Red at the bottom", "Green at the bottom", "Blue at the bottom", "Yellow at the bottom"]
    assert not elements(user, "setting-hand-over")  # alone at the table: no phone to pass
    assert element(user, "setting-chances").text == "Show each player's chance to win"


async def test_one_route_serves_every_games_rules_and_refuses_a_game_not_played(
        table_user: User) -> None:
    """``/rules/{kind}`` serves every game (``/rules`` the default one's); the links between
    them lead there; a kind this server does not play is a 404 that names the ones it does."""
    user = table_user
    await user.open("/rules/parcheesi")
    assert element(user, "rules", ui.markdown).props["data-game"] == "parcheesi"
    assert element(user, "rules-ludo", ui.link).props["href"] == "/rules/ludo"
    await user.open("/rules/ludo")
    assert element(user, "rules-parcheesi", ui.link).props["href"] == "/rules"
    missing = await user.http_client.get("/rules/chess")
    assert missing.status_code == 404
    assert ("There are no rules for 'chess' here: this server plays Parcheesi and Ludo."
            in missing.text)
