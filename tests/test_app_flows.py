"""The app's pages as a person uses them, through NiceGUI's simulated user (no browser).

Each test's server (``app.create_app``, started by the ``user`` fixture) has its own data
directory and computer pace 0 (conftest). Games get a fixed dice seed, so the dice and the
computers' choices are known: with ``SEED`` Ruby wins the opening roll (4+3 against 1+1) and
then rolls 5 and 3 with every piece in START. Helpers (finding by ``data-testid``, clicking
and awaiting the handler, bounded polling) are in ``ui_helpers``.
"""

from __future__ import annotations

import gc
import json
import re
import weakref
from collections.abc import Awaitable, Sequence
from dataclasses import replace

import pytest
from nicegui import app, background_tasks, ui
from nicegui.testing import User
from room_helpers import drop_connection, restore_connection
from simulation import simulated_app, simulated_user
from ui_helpers import (
    Control,
    board,
    board_click,
    browser_id,
    choose,
    click,
    computers_done,
    element,
    elements,
    enabled,
    forge,
    ids_starting,
    live_game,
    press,
    roll_until_move,
    send_press,
    settle,
    start_game,
    stop_runners,
    text,
    trigger,
    two_step_moves,
    until,
)

from components.meter import words
from components.server import Server
from components.setup import SetupForm
from components.table_model import LOG_LINES
from parcheesi.core import registry
from parcheesi.core.events import PlayingOn, PlayOnAgreed, Rolled, TurnPassed
from parcheesi.core.state import Phase
from parcheesi.core.words import move_log
from parcheesi.games.parcheesi.board import HOME, START
from parcheesi.games.parcheesi.game import GAME as PARCHEESI_RULES
from parcheesi.games.parcheesi.notation import action_from_json
from parcheesi.games.parcheesi.state import State
from parcheesi.games.parcheesi.turns import apply
from parcheesi.server.config import Config
from parcheesi.server.live import COMPUTER, HUMAN, STALE, LiveGame, SetupError

SEED = 26
RUBY, EMERALD, SAPPHIRE, AMBER = 0, 1, 2, 3


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("parcheesi.server.fairness.dice_seed", lambda secret, added: SEED)


@pytest.fixture
async def table_user(app_server: Server, user: User):
    """The ``user`` fixture, with the computers' tasks stopped before the app goes away."""
    yield user
    stop_runners(app_server)


def board_state(user: User) -> dict:
    shown = board(user)
    assert shown is not None, "no board on the page"
    return shown.view


def board_pieces(user: User) -> dict[tuple[int, int], list]:
    return {(p[0], p[1]): p for p in board_state(user)["pieces"]}


def log_lines(user: User) -> list[str]:
    """The move log's entries (one element each), newest first."""
    return list(element(user, "log").lines)


async def first_roll_to_play(app_server: Server, user: User) -> None:
    """A solo Ruby-Sapphire game at Ruby's first roll to play (5 and 3, all in START)."""
    game = await start_game(app_server, user, levels={"sapphire": "easy"})
    assert text(user, "turn").startswith("Opening roll") and "Ruby" in text(user, "turn")
    await roll_until_move(user, game)
    assert game.state.turn == RUBY and game.state.dice == (5, 3)


async def guarded(checks: Awaitable[None]) -> BaseException | None:
    try:
        await checks
    except Exception as error:
        return error
    return None


# --- the set-up form ---------------------------------------------------------------------------


async def test_two_players_are_offered_only_opposite_pairs(table_user: User) -> None:
    user = table_user
    await user.open("/")
    await click(user, "new-game")
    assert elements(user, "start-game")
    await choose(user, "player-count", 2)
    pair = element(user, "pair", ui.radio)
    assert set(pair.options) == {"ruby-sapphire", "emerald-amber"}
    assert ids_starting(user, "seat-") == ["seat-ruby", "seat-sapphire"]
    assert set(element(user, "your-colour").options) == {RUBY, SAPPHIRE}
    await choose(user, "pair", "emerald-amber")
    assert ids_starting(user, "seat-") == ["seat-emerald", "seat-amber"]
    assert set(element(user, "your-colour").options) == {EMERALD, AMBER}
    await user.should_see("Emerald with Amber")

    await choose(user, "player-count", 3)
    assert not elements(user, "pair")
    await choose(user, "left-out", RUBY)
    assert ids_starting(user, "seat-") == ["seat-emerald", "seat-sapphire", "seat-amber"]
    await choose(user, "player-count", 4)
    assert not elements(user, "left-out")
    assert len(ids_starting(user, "seat-")) == 4


async def test_same_device_game_of_computers_only_can_be_watched_to_the_end(
        app_server: Server, table_user: User) -> None:
    """Any mix of people and computers may share a screen, even no people at all."""
    user = table_user
    await user.open("/new")
    await choose(user, "mode", "same_device")
    await choose(user, "player-count", 2)
    assert ids_starting(user, "kind-") == ["kind-ruby", "kind-sapphire"]
    await choose(user, "kind-ruby", COMPUTER)
    await click(user, "start-game")
    game = await live_game(app_server, user)
    assert game.mode == "same_device"
    assert [game.seats[c].kind for c in (RUBY, SAPPHIRE)] == [COMPUTER, COMPUTER]
    await until(lambda: game.over, "the computers finish the game", timeout=60)
    await user.should_see(marker=None, content="wins!")
    assert not enabled(user, "roll")


async def test_an_online_rooms_other_seats_are_for_invited_players_until_made_computers(
        app_server: Server, table_user: User) -> None:
    """A room is made to invite people to: its seats start as invited players (they started
    as computers, and a room made as it was offered had nobody to invite), a shared screen's
    as computers; a seat picked keeps what was picked whatever the mode."""
    user = table_user
    await user.open("/new")
    await choose(user, "player-count", 4)
    await choose(user, "mode", "online")
    kinds = ["kind-emerald", "kind-sapphire", "kind-amber"]
    assert [element(user, k).value for k in kinds] == [HUMAN, HUMAN, HUMAN]
    await choose(user, "kind-amber", COMPUTER)
    await choose(user, "mode", "same_device")
    assert [element(user, k).value for k in kinds] == [COMPUTER, COMPUTER, COMPUTER]
    await choose(user, "kind-emerald", HUMAN)
    await choose(user, "mode", "online")
    assert [element(user, k).value for k in kinds] == [HUMAN, HUMAN, COMPUTER]


async def test_a_local_seat_switches_between_a_person_and_a_computer_mid_game(
        app_server: Server, table_user: User) -> None:
    """At a shared screen, Sapphire's person hands the seat to a computer for a while and
    takes it back: stored with the game (a reload keeps it), and the computer plays it
    meanwhile."""
    user = table_user
    await user.open("/new")
    await choose(user, "mode", "same_device")
    await choose(user, "player-count", 2)
    await choose(user, "kind-sapphire", HUMAN)
    await click(user, "start-game")
    game = await live_game(app_server, user)
    assert [game.seats[c].kind for c in (RUBY, SAPPHIRE)] == [HUMAN, HUMAN]
    await choose(user, "seat-kind-sapphire", COMPUTER)
    assert game.seats[SAPPHIRE].kind == COMPUTER
    assert game.seats[SAPPHIRE].level == game.rules.default_level
    stored = await app_server.store.game(game.id)
    assert stored is not None and '"computer"' in stored.seats
    for _ in range(100):  # Ruby (the person here) plays; the computer plays Sapphire
        if game.over or any(isinstance(e, Rolled) and e.colour == SAPPHIRE
                            for e in game.stats.recent):
            break
        if game.turn == RUBY:
            await click(user, "roll" if game.rules.rolling(game.state) else "play-best")
        await computers_done(game)
    assert any(isinstance(e, Rolled) and e.colour == SAPPHIRE for e in game.stats.recent)
    await choose(user, "seat-kind-sapphire", HUMAN)
    assert game.seats[SAPPHIRE].kind == HUMAN
    stored = await app_server.store.game(game.id)
    assert stored is not None and '"computer"' not in stored.seats
    game.state = game.state.with_(phase=Phase.OVER)
    with pytest.raises(SetupError, match="over"):
        await app_server.hub.switch_seat(game, SAPPHIRE, False)


async def test_a_shared_screen_of_two_people_hands_the_phone_over_between_their_turns(
        app_server: Server, table_user: User) -> None:
    """Ruby and Sapphire share one phone: each turn of the other person begins with the
    hand-over screen, in their name; a tap shows them the table, with their colour at the
    bottom of the board. Switched off in the settings, the table shows at once."""
    user = table_user
    await user.open("/new")
    await choose(user, "mode", "same_device")
    await choose(user, "player-count", 2)
    await choose(user, "kind-sapphire", HUMAN)
    await click(user, "start-game")
    game = await live_game(app_server, user)
    assert text(user, "hand-over-title") == "Ruby's turn"
    await click(user, "hand-over")
    assert not elements(user, "hand-over")
    assert board_state(user)["rotation"] == game.rules.look.layout.quarter_turns(RUBY)
    await click(user, "roll")  # Ruby's opening roll: Sapphire's turn to roll next
    assert game.turn == SAPPHIRE
    assert text(user, "hand-over-title") == "Sapphire's turn"
    assert text(user, "hand-over-news").startswith("Ruby rolled")
    assert element(user, "hand-over", ui.element).props["role"] == "dialog"
    await click(user, "hand-over")
    assert not elements(user, "hand-over")
    assert board_state(user)["rotation"] == game.rules.look.layout.quarter_turns(SAPPHIRE)

    await click(user, "settings")
    await click(user, "setting-hand-over")
    await click(user, "settings-close")
    await click(user, "roll")
    await until(lambda: game.turn == RUBY or game.state.phase is not Phase.OPENING,
                "the opening roll to go on")
    assert not elements(user, "hand-over")


async def test_a_solo_table_never_hands_over(app_server: Server, table_user: User) -> None:
    user = table_user
    await first_roll_to_play(app_server, user)
    assert not elements(user, "hand-over")


async def test_solo_game_seats_follow_the_form(app_server: Server, table_user: User) -> None:
    user = table_user
    await user.open("/new")
    await choose(user, "player-count", 3)
    await choose(user, "left-out", EMERALD)
    await choose(user, "your-colour", SAPPHIRE)
    assert ids_starting(user, "name-") == ["name-sapphire"]  # only the person has a name box
    assert ids_starting(user, "level-") == ["level-ruby", "level-amber"]
    user.find(kind=ui.input).type("Grandma")
    await choose(user, "level-ruby", "hard")
    await choose(user, "level-amber", "easy")
    await click(user, "start-game")

    game = await live_game(app_server, user)
    assert game.mode == "solo"
    seats = {c: (s.kind, s.level if s.kind == COMPUTER else s.name) for c, s in game.seats.items()}
    assert seats == {RUBY: (COMPUTER, "hard"), SAPPHIRE: (HUMAN, "Grandma"),
                     AMBER: (COMPUTER, "easy")}
    await computers_done(game)  # Ruby (a computer) rolls for the start first
    assert text(user, "turn").startswith("Opening roll") and "Grandma" in text(user, "turn")
    state = board_state(user)
    assert state["active"] == [1, 0, 1, 1]
    assert state["rotation"] == SAPPHIRE  # the person's colour is at the bottom
    assert element(user, "piece-1").props["aria-label"] == "Grandma piece 1, in START"


# --- playing -----------------------------------------------------------------------------------


async def test_solo_game_to_a_first_move(app_server: Server, table_user: User) -> None:
    user = table_user
    await first_roll_to_play(app_server, user)
    game = await live_game(app_server, user)
    assert "Ruby starts" in log_lines(user)
    assert element(user, "dice").props["aria-label"] == "Dice of Ruby: 5 and 3"
    assert text(user, "status") == "Ruby rolled 5 and 3"
    assert ids_starting(user, "portion-") == ["portion-5", "portion-3"]
    assert not enabled(user, "roll")
    assert all(enabled(user, f"piece-{k}") for k in range(1, 5))
    assert not elements(user, "move-option")
    await user.should_see("Choose a piece")

    await two_step_moves(user)  # the piece's options first, then the move
    await click(user, "piece-1")
    options = elements(user, "move-option")
    assert [o.text for o in options] == ["Enter"]
    assert board_pieces(user)[(RUBY, 0)][6] == 3  # movable and selected
    assert len(board_state(user)["targets"]) == 1
    before = board_pieces(user)[(RUBY, 0)][2:4]
    await click(user, "move-option")

    assert game.state.pieces[RUBY][0] == 0
    assert text(user, "status") == "Ruby entered piece 1"
    assert log_lines(user)[0] == "Ruby entered piece 1"  # newest first
    assert board_pieces(user)[(RUBY, 0)][2:4] != before
    assert element(user, "piece-1").props["aria-label"] == (
        "Ruby piece 1, on the track, 71 squares from home")
    # The 3 is left, and only the piece just entered can use it.
    assert ids_starting(user, "portion-") == ["portion-3"]
    assert [enabled(user, f"piece-{k}") for k in range(1, 5)] == [True, False, False, False]
    await user.open("/play")  # a reload: the status line says the last move (it was empty)
    assert text(user, "status") == "Ruby entered piece 1"

    # Use the chip, then the piece on the board.
    await click(user, "portion-3")
    assert element(user, "portion-3").props["aria-pressed"] == "true"
    version = game.version
    await board_click(user, RUBY, 0)
    # The move with the 3 is the next action (the computers may already have gone on).
    assert (await game.store.actions(game.id))[version] == {
        "type": "move", "piece": 1, "portions": [3]}
    assert game.state.pieces[RUBY][0] == 3 or game.stats.lost.get(RUBY)
    assert any(line.startswith("Ruby moved piece 1") for line in log_lines(user))


async def test_undo_takes_back_a_move_of_the_roll_in_a_solo_game(
        app_server: Server, table_user: User) -> None:
    user = table_user
    await first_roll_to_play(app_server, user)
    game = await live_game(app_server, user)
    after_roll = game.state
    assert not elements(user, "undo")  # the roll itself is never taken back
    await click(user, "piece-1")  # its one move: enter with the 5
    assert game.state.pieces[RUBY][0] == 0
    assert elements(user, "undo")

    await click(user, "undo")
    assert game.state == after_roll
    assert text(user, "status") == "Move taken back: play this roll again."
    assert not elements(user, "undo")
    assert ids_starting(user, "portion-") == ["portion-5", "portion-3"]
    assert "Ruby entered piece 1" not in log_lines(user)
    assert len(await game.store.actions(game.id)) == game.played
    await click(user, "piece-2")  # the same roll, played another way
    assert game.state.pieces[RUBY][1] == 0


async def test_learning_mode_says_why_a_tapped_piece_cannot_move(
        app_server: Server, table_user: User) -> None:
    """Only in learning mode, only for the player to act's pieces that cannot move; a tap
    never acts."""
    user = table_user
    await first_roll_to_play(app_server, user)
    game = await live_game(app_server, user)

    async def tap_stuck(colour: int, piece: int) -> None:
        await trigger(user, board(user), "piece_stuck", {"colour": colour, "piece": piece})

    await click(user, "piece-1")  # enter with the 5: only piece 1 may use the 3
    status = text(user, "status")
    await tap_stuck(RUBY, 1)
    assert text(user, "status") == status  # learning mode is off
    assert board_state(user)["explain"] == -1

    await click(user, "settings")
    await click(user, "setting-learning")
    await click(user, "settings-close")
    assert board_state(user)["explain"] == RUBY
    version = game.version
    await tap_stuck(RUBY, 1)
    assert text(user, "status") == "Needs a 5 to come out"
    await tap_stuck(RUBY, 0)  # piece 1 can move: its tap is a move, not a question
    await tap_stuck(SAPPHIRE, 0)  # not the player to act
    await tap_stuck(RUBY, 7)  # no such piece
    assert text(user, "status") == "Needs a 5 to come out"
    assert game.version == version  # asking why acts for nobody


async def test_reload_and_home_resume_the_same_game(app_server: Server, table_user: User) -> None:
    user = table_user
    await first_roll_to_play(app_server, user)
    await click(user, "piece-1")  # Enter, its one move
    game = await live_game(app_server, user)
    assert game.state.pieces[RUBY][0] == 0
    shown = board_pieces(user)

    await user.open("/play")  # a reload
    assert await live_game(app_server, user) is game
    assert board_pieces(user) == shown
    assert element(user, "dice").props["aria-label"] == "Dice of Ruby: 5 and 3"
    assert ids_starting(user, "portion-") == ["portion-3"]

    await user.open("/")
    assert elements(user, "resume")
    await click(user, "resume")
    assert board_pieces(user) == shown
    version = game.version
    await click(user, "piece-1")  # the 3 is left, for piece 1 only: the game goes on
    assert (await game.store.actions(game.id))[version] == {
        "type": "move", "piece": 1, "portions": [3]}


async def test_a_restarted_server_carries_on_with_the_game(
        app_config: Config, caplog: pytest.LogCaptureFixture) -> None:
    """Two servers, one after the other, on one data directory; the browser keeps its
    cookie in between.

    A failure inside ``simulated_app`` would skip NiceGUI's shutdown and break the tests
    after this one, so each run's checks are caught and raised after the run has ended.
    """
    before: dict = {}

    async def first_run(app_server: Server, user: User) -> None:
        await first_roll_to_play(app_server, user)
        await click(user, "piece-1")  # Enter, its one move
        game = await live_game(app_server, user)
        before.update(game=game, state=game.state, version=game.version, id=game.id,
                      shown=board_pieces(user), cookies=user.http_client.cookies)

    async def second_run(app_server: Server, user: User) -> None:
        assert app_server.hub.games == {}  # a new process knows no game yet
        user.http_client.cookies = before["cookies"]
        await user.open("/")
        assert elements(user, "resume")
        await click(user, "resume")
        restored = await live_game(app_server, user)
        assert restored is not before["game"]
        assert (restored.id, restored.version, restored.state) == (
            before["id"], before["version"], before["state"])
        assert board_pieces(user) == before["shown"]
        assert ids_starting(user, "portion-") == ["portion-3"]
        await click(user, "piece-1")  # Move 3, its one move: the game goes on
        assert (await restored.store.actions(restored.id))[before["version"]] == {
            "type": "move", "piece": 1, "portions": [3]}
        await computers_done(restored)

    for run in (first_run, second_run):
        async with simulated_app(app_config) as server:
            assert server is not None
            user = simulated_user()
            async with user.http_client:
                failure = await guarded(run(server, user))
            stop_runners(server)  # the process ends: its computers stop
        if failure is not None:
            raise failure
    assert [r.getMessage() for r in caplog.records if r.levelname == "ERROR"] == []


async def test_hint_is_shown_and_play_best_plays_it(app_server: Server, table_user: User) -> None:
    user = table_user
    await first_roll_to_play(app_server, user)
    game = await live_game(app_server, user)
    rolled = game.state
    expected = PARCHEESI_RULES.hint(rolled)

    await click(user, "hint")
    assert text(user, "status") == f"Hint: {expected.reason}"
    assert board_state(user)["targets"], "the hinted landing squares are previewed"
    assert game.version == 3  # a hint changes nothing

    await click(user, "play-best")
    # The actions Play best sent reach the hinted position. (Compared as positions: which of
    # two interchangeable pieces, e.g. START pieces, the engine names can depend on what was
    # asked of it before.)
    played = [action_from_json(raw) for raw in await game.store.actions(game.id)]
    after = rolled
    for action in played[3:3 + len(expected.actions)]:
        after, _ = apply(after, action, game.dice)
    assert [sorted(own) for own in after.pieces] == [
        sorted(own) for own in expected.state.pieces]
    assert not text(user, "status").startswith("Hint")


async def test_settings_are_kept_for_the_browser(app_server: Server, table_user: User) -> None:
    user = table_user
    await start_game(app_server, user)
    assert board_state(user)["rotation"] == RUBY and board_state(user)["reduced"] is False
    dialog = element(user, "settings-dialog").parent_slot.parent
    assert isinstance(dialog, ui.dialog) and dialog.value is False
    await click(user, "settings")
    assert dialog.value is True
    assert element(user, "setting-sound").value is True
    assert element(user, "setting-one-tap").value is True
    await click(user, "setting-sound")
    await click(user, "setting-one-tap")
    await choose(user, "setting-motion", "on")
    await choose(user, "setting-orientation", "sapphire")
    with user:
        element(user, "setting-volume").value = 25
    state = board_state(user)
    assert (state["rotation"], state["reduced"]) == (SAPPHIRE, True)  # applied at once
    await click(user, "settings-close")
    assert dialog.value is False

    await user.open("/play")
    assert element(user, "setting-sound").value is False
    assert element(user, "setting-one-tap").value is False
    assert element(user, "setting-volume").value == 25
    assert element(user, "setting-motion").value == "on"
    assert element(user, "setting-orientation").value == "sapphire"
    state = board_state(user)
    assert (state["rotation"], state["reduced"]) == (SAPPHIRE, True)
    with user:
        assert app.storage.user["orientation"] == "sapphire"


async def test_the_win_chance_meter_is_off_until_switched_on_and_follows_the_game(
        app_server: Server, table_user: User) -> None:
    """Off by default (not everyone wants to be told they are losing); switched on, it
    shows the live game's chances, and after the next action the new ones."""
    user = table_user
    game = await start_game(app_server, user)
    await computers_done(game)
    assert elements(user, "win-chances") == []  # drawn, hidden
    (meter,) = elements(user, "win-chances", visible=False)
    await click(user, "settings")
    assert element(user, "setting-chances").value is False
    await click(user, "setting-chances")
    assert element(user, "win-chances") is meter
    chances = game.win_chances()
    assert chances is not None and set(chances) == set(game.state.colours)
    assert sum(chances.values()) == pytest.approx(1.0)
    assert element(user, "win-chances").props["aria-label"] == words(chances,
                                                                    game.rules.colours)
    version = game.version
    await click(user, "roll")
    await until(lambda: game.version > version, "the roll")
    assert element(user, "win-chances").props["aria-label"] == words(game.win_chances() or {},
                                                                    game.rules.colours)
    await click(user, "setting-chances")
    assert elements(user, "win-chances") == []


async def test_the_sound_of_an_action_comes_with_the_boards_update(
        app_server: Server, table_user: User) -> None:
    """No message of its own: the board plays the sound of the update it draws, once; the
    turn coming back to the player has a sound of its own."""
    user = table_user
    game = await start_game(app_server, user)
    await computers_done(game)
    await click(user, "roll")  # Ruby's roll for the start; Sapphire's follows, Ruby starts
    await computers_done(game)
    assert board_state(user)["sound"] == ["turn", 0.6]  # the default volume, 60
    await click(user, "roll")  # 5 and 3: still Ruby's turn
    assert board_state(user)["sound"] == ["roll", 0.6]
    await click(user, "settings")
    await click(user, "setting-sound")
    await click(user, "settings-close")
    await roll_until_move(user, game)
    assert board_state(user)["sound"] is None


async def test_two_browsers_do_not_see_each_others_games(
        app_server: Server, table_user: User, create_user) -> None:
    alice: User = create_user()
    bob: User = create_user()
    alice_game = await start_game(app_server, alice)
    await alice.open("/")
    assert elements(alice, "resume")

    await bob.open("/")
    assert not elements(bob, "resume")
    assert browser_id(bob) != browser_id(alice)
    await bob.open("/play")  # no game: back home
    await until(lambda: bool(elements(bob, "new-game")), "Bob to be sent home")
    assert board(bob) is None

    bob_game = await start_game(app_server, bob, count=4)
    assert bob_game.id != alice_game.id
    assert bob_game.owner != alice_game.owner
    assert board_state(bob)["active"] == [1, 1, 1, 1]
    await alice.open("/play")
    assert await live_game(app_server, alice) is alice_game
    assert not alice_game.abandoned
    assert board_state(alice)["active"] == [1, 0, 1, 0]


async def test_new_game_during_a_game_asks_first(app_server: Server, table_user: User) -> None:
    user = table_user
    game = await start_game(app_server, user)
    await click(user, "roll")  # Ruby rolls for the start
    await computers_done(game)
    version = game.version

    await user.open("/")
    await click(user, "new-game")
    before = set(background_tasks.running_tasks)
    await click(user, "start-game", wait=False)
    await until(lambda: bool(elements(user, "keep-game")), "the confirmation dialog")
    await user.should_see("Abandon the game in progress and start a new one?")
    await click(user, "keep-game")
    await settle(before)
    assert elements(user, "start-game"), "Keep playing stays on the form"
    assert await live_game(app_server, user) is game and not game.abandoned
    await user.open("/")
    await click(user, "resume")
    assert game.version == version
    assert "Ruby" in text(user, "turn") and game.state.turn == RUBY

    await user.open("/new")
    before = set(background_tasks.running_tasks)
    await click(user, "start-game", wait=False)
    await until(lambda: bool(elements(user, "confirm-new-game")), "the confirmation dialog")
    await click(user, "confirm-new-game")
    await settle(before)
    fresh = await live_game(app_server, user)
    assert fresh.id != game.id and game.abandoned
    assert fresh.version == 0 and text(user, "turn").startswith("Opening roll")


# --- inputs that must change nothing ------------------------------------------------------------


async def test_pieces_that_cannot_move_ignore_clicks_and_keys(
        app_server: Server, table_user: User) -> None:
    user = table_user
    await first_roll_to_play(app_server, user)
    game = await live_game(app_server, user)
    await click(user, "piece-1")  # Enter, its one move; the 3 is left for piece 1 only
    assert game.state.pieces[RUBY][0] == 0
    version = game.version
    await click(user, "piece-2")  # disabled: a person's click does nothing
    await forge(user, "piece-2")  # a forged click neither
    await press(user, "3")
    await board_click(user, RUBY, 3)
    await board_click(user, SAPPHIRE, 0)
    assert not elements(user, "move-option")
    assert not any(p[6] & 2 for p in board_state(user)["pieces"]), "nothing is selected"
    # Roll is not for now: the roll is still being played.
    assert not enabled(user, "roll")
    await forge(user, "roll")
    await press(user, "r")
    assert game.version == version
    assert game.state.phase is Phase.MOVE and game.state.portions == (3,)

    await press(user, "1")  # the key moves the piece that can move: its one move
    assert (await game.store.actions(game.id))[version] == {
        "type": "move", "piece": 1, "portions": [3]}


@pytest.mark.parametrize("app_config", [{"pace": 10.0}], indirect=True)
async def test_roll_on_a_computers_turn_does_nothing(
        app_server: Server, table_user: User) -> None:
    """Computers wait 10 s (the most allowed) before each step: longer than the test."""
    user = table_user
    game = await start_game(app_server, user)
    await click(user, "roll")  # Ruby rolls for the start; Sapphire rolls next
    assert game.state.phase is Phase.OPENING and game.state.turn == SAPPHIRE
    assert text(user, "turn").startswith("Opening roll") and "Sapphire" in text(user, "turn")
    version = game.version
    assert not enabled(user, "roll")
    await forge(user, "roll")
    await press(user, "r")
    assert not enabled(user, "hint")
    await forge(user, "hint")
    assert game.version == version
    assert text(user, "status") == "A hint is available when you have a roll to play."
    assert not any(enabled(user, f"piece-{k}") for k in range(1, 5))


# --- presses count once ------------------------------------------------------------------------


async def test_a_double_tap_on_roll_rolls_once_on_a_shared_screen(
        app_server: Server, table_user: User) -> None:
    """Both taps carry the position the screen showed; the second finds it played."""
    user = table_user
    await user.open("/new")
    await choose(user, "mode", "same_device")
    await choose(user, "player-count", 2)
    await choose(user, "kind-sapphire", HUMAN)
    await click(user, "start-game")
    game = await live_game(app_server, user)
    assert all(seat.is_human for seat in game.seats.values())
    roll = element(user, "roll")
    stamp = roll.props["data-stamp"]
    before = set(background_tasks.running_tasks)
    for _ in range(2):
        send_press(user, roll, stamp)
    await settle(before)
    assert game.version == 1 and game.state.turn == SAPPHIRE
    assert text(user, "status") == STALE
    assert element(user, "roll").props["data-stamp"] != stamp  # the controls are free again


async def test_every_answer_gives_the_controls_a_new_stamp(
        app_server: Server, table_user: User) -> None:
    """The browser holds a pressed table until the stamp changes: a refusal, a selection and
    a reconnection each answer with a new one."""
    user = table_user
    await first_roll_to_play(app_server, user)
    await two_step_moves(user)
    stamps = [element(user, "roll").props["data-stamp"]]
    await click(user, "piece-1")  # a selection
    stamps.append(element(user, "roll").props["data-stamp"])
    await forge(user, "roll")  # refused: not the time to roll
    stamps.append(element(user, "roll").props["data-stamp"])
    await restore_connection(user, drop_connection(user))  # the phone slept a moment
    stamps.append(element(user, "roll").props["data-stamp"])
    assert len(set(stamps)) == 4, stamps
    assert all(s.split(".")[0] == stamps[0].split(".")[0] for s in stamps)  # same position


async def test_a_movement_option_no_longer_shown_plays_nothing(
        app_server: Server, table_user: User) -> None:
    """The controls are one component: a press names its option by its place in the set of
    options drawn. Once that set is gone (another piece's options, even in the same words,
    or a chip picked instead, at the same position), its press finds no option, as a click
    on a removed button would; it is answered and plays nothing."""
    user = table_user
    await first_roll_to_play(app_server, user)
    await two_step_moves(user)
    game = await live_game(app_server, user)
    version = game.version
    await click(user, "piece-1")
    (enter_1,) = elements(user, "move-option")
    await click(user, "piece-2")
    (enter_2,) = elements(user, "move-option")
    assert enter_1.text == enter_2.text == "Enter"

    async def replay(option: Control) -> None:
        """The press of ``option`` sent now, with the stamp the table shows now."""
        stamp = element(user, "roll").props["data-stamp"]
        before = set(background_tasks.running_tasks)
        send_press(user, option, stamp)
        await settle(before)
        assert game.version == version and game.state.pieces[RUBY] == (-1, -1, -1, -1)
        assert element(user, "roll").props["data-stamp"] != stamp  # answered: the page is free

    await replay(enter_1)  # piece 1's Enter, while piece 2's reads the same
    assert [o.args for o in elements(user, "move-option")] == [enter_2.args]  # still shown
    await click(user, "portion-3")  # a chip: the piece's options go
    assert not elements(user, "move-option")
    await replay(enter_2)


async def test_presses_that_name_no_control_play_nothing(
        app_server: Server, table_user: User) -> None:
    """What a tampered page could send the controls instead of a press: each is answered
    with a new stamp and plays nothing."""
    user = table_user
    await first_roll_to_play(app_server, user)
    game = await live_game(app_server, user)
    version = game.version
    controls = element(user, "roll").owner
    for forged in ("roll", None, [0], {"control": "jump", "index": 0},
                   {"control": "piece", "index": "1"}, {"control": "option", "index": 0},
                   {"control": "option", "index": -1, "set": controls.state["set"]}):
        stamp = element(user, "roll").props["data-stamp"]
        args = {**forged, "stamp": stamp} if isinstance(forged, dict) else forged
        await trigger(user, controls, "press", args)
        assert game.version == version, forged
        if isinstance(forged, dict):
            assert element(user, "roll").props["data-stamp"] != stamp, forged
    for chip in (-1, 2, "0", None):  # a chip by its place among the two shown
        await trigger(user, controls, "chip", chip)
        assert element(user, "portion-5").props["aria-pressed"] == "false", chip
        assert element(user, "portion-3").props["aria-pressed"] == "false", chip


async def test_a_redraw_with_nothing_new_sends_nothing(
        app_server: Server, table_user: User) -> None:
    """Each part of the table is sent only when it changed: drawn again as it is, the table
    sends the browser no update at all (no board, no stamp, no log)."""
    user = table_user
    await first_roll_to_play(app_server, user)
    game = await live_game(app_server, user)
    (view,) = [listener.__self__ for listener in game.listeners]
    outbox = user.client.outbox
    with user:
        view.redraw([])
        outbox.updates.clear()
        view.redraw([])
        assert not outbox.updates
        view.answers += 1  # an answer: every action control shows the new stamp
        view.redraw([])
    assert {view.controls.id, view.board.id} <= set(outbox.updates)


async def test_the_log_shows_the_newest_entries_first_through_a_game(
        app_server: Server, table_user: User) -> None:
    """All through a game of computers, the log is the game's latest sentences, newest first,
    one element each; an entry keeps its key while it stays shown (the browser adds the new
    line and drops the oldest)."""
    user = table_user
    await user.open("/new")
    await choose(user, "mode", "same_device")
    await choose(user, "player-count", 2)
    await choose(user, "kind-ruby", COMPUTER)
    await click(user, "start-game")
    game = await live_game(app_server, user)
    log = element(user, "log")
    names = {c: s.display_name(game.rules.colours) for c, s in game.seats.items()}
    seen: list[tuple[int, str]] = []
    keys: set[int] = set()
    checked = 0
    while not game.over:
        version = game.version
        await until(lambda v=version: game.over or game.version > v, "the next action")
        entries = [tuple(e) for e in json.loads(log.props["entries"])]
        assert [text for _, text in entries] == list(log.lines) == move_log(
            game.stats.recent, game.rules.look.describe, names.__getitem__, LOG_LINES)
        assert len(set(key for key, _ in entries)) == len(entries)
        kept = [e for e in entries if e[0] in dict(seen)]
        assert kept == [e for e in seen if e[0] in dict(entries)]  # same keys, same words
        assert all(new[0] > old[0] for new in entries[:len(entries) - len(kept)]
                   for old in seen)  # a new entry has a new key, above the others
        seen = entries
        keys.update(key for key, _ in entries)
        checked += 1
    # The computers may play several actions between two looks: what counts is that the
    # log was seen more than once and that more entries came and went than it shows.
    assert checked > 1 and len(keys) > LOG_LINES and len(log.lines) == LOG_LINES


async def test_a_closed_setup_page_leaves_nothing_behind(table_user: User) -> None:
    """The form is drawn into a plain container: NiceGUI's refreshable would keep every
    form it ever drew until the next one, pages long gone included."""
    user = table_user
    gc.collect()
    earlier = {id(o) for o in gc.get_objects() if isinstance(o, SetupForm)}
    await user.open("/new")
    await choose(user, "player-count", 3)  # the seat rows are drawn again
    forms = [o for o in gc.get_objects() if isinstance(o, SetupForm) and id(o) not in earlier]
    assert len(forms) == 1
    form = weakref.ref(forms[0])
    del forms
    assert user.client is not None
    user.client.delete()
    gc.collect()
    assert form() is None


# --- playing on for places ---------------------------------------------------------------------

NEAR_THE_END = ((START,) * 4, (68, HOME, HOME, HOME), (START, START, 5, 40), ())
"""Ruby (the person) in START; Emerald's last piece on 68, a 3 (or 1 and 2) from HOME;
Sapphire far behind."""


@pytest.fixture
def near_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """Three-player Parcheesi games start (at the opening roll) from NEAR_THE_END: the
    server's games and their records alike, so a reload replays the same game."""
    plain = PARCHEESI_RULES.new_state

    def near(colours: tuple[int, ...], house: Sequence[str] = (), first: int | None = None
             ) -> State:
        state = plain(colours, house, first)
        return state.with_(pieces=NEAR_THE_END) if state.colours == (RUBY, EMERALD,
                                                                      SAPPHIRE) else state

    monkeypatch.setitem(registry._games, PARCHEESI_RULES.kind,
                        replace(PARCHEESI_RULES, new_state=near))


def badge(user: User, colour: str) -> str:
    """What a seat's badge says (name, then detail: who plays it, its place, pieces HOME)."""
    with user:
        return " | ".join(e.text for e in element(user, f"player-{colour}").descendants()
                          if isinstance(e, ui.label))


async def asked_to_play_on(app_server: Server, user: User) -> LiveGame:
    """A solo game of three (Ruby the person, Emerald and Sapphire hard computers) played by
    clicking Roll or Play best until Emerald has finished first and Ruby is asked."""
    game = await start_game(app_server, user, count=3,
                            levels={"emerald": "hard", "sapphire": "hard"})
    assert game.state.pieces[EMERALD] == NEAR_THE_END[EMERALD]
    for _ in range(100):
        await computers_done(game)
        if game.state.phase is Phase.PLAY_ON:
            break
        assert game.state.winner is None and not game.over
        await click(user, "roll" if game.rules.rolling(game.state) else "play-best")
    assert game.state.phase is Phase.PLAY_ON and game.state.turn == RUBY
    assert game.state.places == (EMERALD,)
    return game


async def test_the_person_asked_to_play_on_agrees_and_the_race_goes_on(
        near_the_end, app_server: Server, table_user: User) -> None:
    user = table_user
    game = await asked_to_play_on(app_server, user)
    # Sapphire, a computer, was asked first and agreed; now the person is asked.
    assert "Sapphire plays on" in log_lines(user)
    assert "Emerald takes 1st place" in log_lines(user)
    assert text(user, "status") == ("Ruby: play on for the next places, or end the game and "
                                    "place everyone by how far they got?")
    assert [o.text for o in elements(user, "move-option")] == [
        "Play on for the next places", "End the game now"]
    assert not enabled(user, "roll") and not elements(user, "winner")
    assert badge(user, "emerald") == "Emerald | hard computer · 1st · 4 HOME"  # its place
    assert element(user, "player-emerald").props["aria-label"].startswith(
        "Emerald, hard computer, 1st place")

    await click(user, "move-option", index=0)
    await computers_done(game)
    recent = list(game.stats.recent)
    k = recent.index(PlayOnAgreed(RUBY))
    assert recent[k:k + 3] == [PlayOnAgreed(RUBY), PlayingOn((RUBY, SAPPHIRE)),
                               TurnPassed(SAPPHIRE)]  # Sapphire, next after Emerald, rolls
    # the game goes on without Emerald: Sapphire and Ruby race for second place
    assert not game.over and game.state.turn == RUBY and game.state.places == (EMERALD,)
    assert not elements(user, "winner") and not elements(user, "move-option")
    assert "1st" in badge(user, "emerald") and badge(user, "ruby") == "Ruby | you · 0 HOME"
    assert enabled(user, "roll")


async def test_the_finish_card_closes_to_show_the_final_board_and_comes_back(
        near_the_end, app_server: Server, table_user: User) -> None:
    """The winner card hides the board: it closes (its close button, or a tap beside it), the
    final board stays in view with a Show result button, and that brings the card back."""
    user = table_user
    game = await asked_to_play_on(app_server, user)
    await click(user, "move-option", index=1)
    assert game.over and elements(user, "winner") and not elements(user, "show-result")
    await click(user, "finish-close")
    assert not elements(user, "winner") and elements(user, "show-result")
    await click(user, "show-result")
    assert elements(user, "winner") and not elements(user, "show-result")


async def test_the_person_asked_to_play_on_ends_the_game_and_sees_every_place(
        near_the_end, app_server: Server, table_user: User) -> None:
    user = table_user
    game = await asked_to_play_on(app_server, user)
    await click(user, "move-option", index=1)
    assert game.over and game.state.places == (EMERALD, SAPPHIRE, RUBY)
    assert "Ruby ends the game" in log_lines(user)
    card = element(user, "winner")
    with user:
        assert any(isinstance(e, ui.label) and e.text == "Emerald wins!"
                   for e in card.descendants())
        (table,) = [e for e in card.descendants() if isinstance(e, ui.table)]
        (confetti,) = [e for e in card.descendants() if isinstance(e, ui.html)]
    # the confetti falls in the table's three colours, Amber's (not at the table) not among them
    assert sorted(set(re.findall(r'class="tone-(\w+)"', confetti.content))) == [
        "emerald", "ruby", "sapphire"]
    # Sapphire (pieces on 5 and 40) is ahead of Ruby (all in START)
    assert [(row["place"], row["player"]) for row in table.rows] == [
        (1, "Emerald"), (2, "Sapphire"), (3, "Ruby")]
    assert badge(user, "ruby") == "Ruby | you · 3rd · 0 HOME"
    assert badge(user, "sapphire") == "Sapphire | hard computer · 2nd · 0 HOME"
    # the finish links to the game's charts, which draw the race and the luck of the dice
    link = element(user, "charts-link")
    assert link.props["href"] == f"/games/{game.id}/charts"
    await user.open(link.props["href"])
    await user.should_see("The race")
    await user.should_see("The luck of the dice")
