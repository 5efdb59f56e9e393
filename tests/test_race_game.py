"""A game is one folder: the test-only race (``tests/race/``), registered for these tests
and nowhere listed, is served by the real set-up form, table, store, records and command
line with no change to any of them.

The end-to-end test plays a solo race through the table as a person would (NiceGUI's
simulated user): the form's game toggle, Roll, the piece buttons, a tap on the board and
the options, the play-on question; every action is checked stored, the page is reloaded
from the database half-way, the game is played to the winner card, and its downloaded
record is checked by the command line's ``verify`` and ``replay``. The dice are the real
ones (the server's secret and the browser's contribution), so each run plays another game.
"""

from __future__ import annotations

import io
import json
import random
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from nicegui import ui
from nicegui.testing import User
from race.board import HOME, START
from race.game import GAME as RACE
from race.notation import pieces_to_json
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
    two_step_moves,
    until,
)

from components.server import Server
from parcheesi.__main__ import main
from parcheesi.core.registry import games, register, unregister
from parcheesi.core.state import Phase
from parcheesi.server.live import LiveGame
from parcheesi.server.records import parse_record, replay
from parcheesi.server.simulate import simulate

VIOLET, TEAL, ORANGE = 0, 1, 2
MAX_ACTIONS = 400
"""The person's actions a race takes at most (about 40 in practice)."""
RELOAD_AFTER = 12
"""The person's actions before the page is reloaded from the database."""


@pytest.fixture(autouse=True)
def race_registered() -> Iterator[None]:
    """The race is served for the test (before its server starts), and not after it."""
    register(RACE)
    yield
    unregister(RACE.kind)


# --- through the table -------------------------------------------------------------------------


async def open_race_table(server: Server, user: User) -> LiveGame:
    """Fill in /new for a solo race of three: Violet the person, Teal a simple computer,
    Orange a random one."""
    await user.open("/new")
    assert set(element(user, "game").options) == {"parcheesi", "ludo", "race"}
    await choose(user, "game", "race")
    assert ids_starting(user, "seat-") == ["seat-violet", "seat-teal", "seat-orange",
                                           "seat-grey"]
    await choose(user, "player-count", 3)
    assert ids_starting(user, "seat-") == ["seat-violet", "seat-teal", "seat-orange"]
    assert set(element(user, "level-teal").options) == {"random", "simple"}
    await choose(user, "level-teal", "simple")
    await choose(user, "level-orange", "random")
    await click(user, "start-game")
    await until(lambda: bool(elements(user, "turn")) and board(user) is not None,
                "the table to open")
    return await live_game(server, user)


def check_table(user: User, game: LiveGame) -> None:
    """The table draws the race's own board, seats and words."""
    assert (game.kind, game.rules, game.mode) == ("race", RACE, "solo")
    assert {c: (s.kind, s.level) for c, s in game.seats.items() if not s.is_human} == {
        TEAL: ("computer", "simple"), ORANGE: ("computer", "random")}
    shown = board(user)
    assert shown is not None
    geometry = shown._geometry
    assert geometry["label"] == "Race board" and geometry["track"] == []
    assert len(geometry["lanes"]) == 4 * HOME and len(geometry["slots"]) == 16
    assert ids_starting(user, "player-") == ["player-violet", "player-teal", "player-orange"]


async def check_saved(server: Server, game: LiveGame) -> None:
    """Every action so far is stored, with the position it led to."""
    row = await server.store.game(game.id)
    assert row is not None and row.version == game.version
    assert len(await server.store.actions(game.id)) == game.version
    assert json.loads(row.state) == RACE.state_to_json(game.state)


async def move_with_piece_button(user: User, game: LiveGame) -> None:
    """The table offers exactly the engine's pieces; one tap moves the first (its one
    move)."""
    offered = [k for k in range(4) if enabled(user, f"piece-{k + 1}")]
    assert offered == sorted({c.piece for c in RACE.choices(game.state)})
    await click(user, f"piece-{offered[0] + 1}")


async def move_with_board_and_option(user: User, game: LiveGame) -> None:
    """A tap on the board selects the last movable piece; its one option, worded as the
    race words it, moves it."""
    options = RACE.choices(game.state)
    choice = options[-1]
    assert choice.piece is not None and choice.start is not None and choice.end is not None
    await board_click(user, VIOLET, choice.piece)
    (option,) = elements(user, "move-option")
    assert option.text == RACE.look.option_label(choice, game.name_of)
    assert option.text.startswith("Bring in to square" if choice.start == START else "Move")
    await click(user, "move-option")


async def answer_play_on(user: User) -> None:
    """Teal or Orange finished first: Violet plays on for the next places."""
    assert [o.text for o in elements(user, "move-option")] == [
        "Play on for the next places", "End the game now"]
    await click(user, "move-option", 0)


async def act(user: User, game: LiveGame, two_step: bool) -> str:
    """One action of the person, by the table's controls; it is taken. Returns which."""
    version = game.version
    if RACE.rolling(game.state):
        assert enabled(user, "roll")
        await click(user, "roll")
        kind = "roll"
    elif game.state.phase is Phase.PLAY_ON:
        await answer_play_on(user)
        kind = "play on"
    elif two_step:
        await move_with_board_and_option(user, game)
        kind = "board and option"
    else:
        await move_with_piece_button(user, game)
        kind = "piece button"
    assert game.version > version, "the press was not taken"
    return kind


def pieces_drawn(user: User) -> list[list[object]]:
    shown = board(user)
    assert shown is not None, "no board on the page"
    return list(shown.view["pieces"])


async def reload_from_the_database(server: Server, user: User, game: LiveGame) -> LiveGame:
    """The server forgets the game (as a restart, or an idle unload, does) and the page is
    opened again: the game is rebuilt from its stored record, where it was."""
    before = (game.id, game.version, game.state)
    shown = pieces_drawn(user)
    stop_runners(server)
    server.hub.games.pop(game.id)
    await user.open("/play")
    await until(lambda: board(user) is not None, "the table to open again")
    restored = await live_game(server, user)
    assert restored is not game
    assert (restored.id, restored.version, restored.state) == before
    assert pieces_drawn(user) == shown
    return restored


async def play_to_the_end(server: Server, user: User, game: LiveGame
                          ) -> tuple[LiveGame, Counter[str]]:
    """The person's actions until the game is over (counted by kind); the page is reloaded
    after :data:`RELOAD_AFTER` of them, and from then on moves are made by a tap on the
    board and an option."""
    done: Counter[str] = Counter()
    while True:
        await computers_done(game, timeout=30)
        await check_saved(server, game)
        if game.over:
            return game, done
        count = done.total()
        assert count < MAX_ACTIONS, "the race does not end"
        if count == RELOAD_AFTER:
            game = await reload_from_the_database(server, user, game)
            await two_step_moves(user)
        done[await act(user, game, two_step=count >= RELOAD_AFTER)] += 1


def check_winner_card(user: User, game: LiveGame) -> None:
    standings = RACE.standings(game.state)
    winner = RACE.winner(game.state)
    assert winner == standings[0] and game.state.pieces[winner] == (HOME,) * 4
    card = element(user, "winner")
    with user:
        assert any(isinstance(e, ui.label) and e.text == f"{game.name_of(winner)} wins!"
                   for e in card.descendants())
        (table,) = [e for e in card.descendants() if isinstance(e, ui.table)]
    assert [row["player"] for row in table.rows] == [game.name_of(c) for c in standings]
    assert [row["place"] for row in table.rows] == [1, 2, 3]
    assert [row["home"] for row in table.rows] == [
        game.state.pieces[c].count(HOME) for c in standings]


async def check_record(user: User, game: LiveGame, folder: Path,
                       capsys: pytest.CaptureFixture[str]) -> None:
    """The table's record link gives the whole game, which ``verify`` and ``replay`` of the
    command line accept, dice and all."""
    link = elements(user, "export-record")[0]
    assert link.props["href"] == f"/records/{game.id}.json"
    answer = await user.http_client.get(link.props["href"])
    assert answer.status_code == 200
    record = answer.json()
    assert record["game"] == "race" and record["seed"] and record["result"]["over"]
    assert len(record["actions"]) == game.version
    assert replay(parse_record(answer.content))[-1].state == game.state
    path = folder / "race.json"
    path.write_bytes(answer.content)
    capsys.readouterr()
    assert main(["verify", str(path)]) == 0
    checked = capsys.readouterr().out
    winner = RACE.colours[RACE.winner(game.state) or 0].title()
    assert checked.startswith(f"verified: Race, 3 players, {game.version} actions, "
                              f"{game.state.rolls} rolls, {winner} won; every die follows "
                              "from the seed committed to"), checked
    assert main(["replay", str(path)]) == 0
    position, result = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert position == {"game": "race", "turn": RACE.colours[game.state.turn],
                        "pieces": pieces_to_json(game.state.pieces)}
    assert result == record["result"]


async def check_pages_after(server: Server, user: User, game: LiveGame) -> None:
    """The pages every finished game has know the race too: its charts, My games, its
    replay with the dice verified, its rules; and Play again starts another race."""
    winner = game.name_of(RACE.winner(game.state) or 0)
    await user.open(f"/games/{game.id}/charts")
    assert text(user, "charts-outcome").startswith(f"Race · {winner} won · ")
    await user.open("/games")
    assert text(user, "game-standing") == f"Won by {winner}"
    await user.open(f"/replay/{game.id}")
    assert text(user, "verification").startswith("verified: Race, 3 players")
    assert text(user, "replay-step").startswith(f"Step {game.version} of {game.version}")
    await user.open("/rules/race")
    assert "lane of **12**" in element(user, "rules", ui.markdown).content
    await user.open("/play")
    await until(lambda: bool(elements(user, "play-again")), "the winner card again")
    await click(user, "play-again")
    await until(lambda: any(g.id != game.id and g.kind == "race"
                            for g in server.hub.games.values()), "the next race")


async def test_a_solo_race_is_played_through_the_table_reloaded_and_its_record_verified(
        app_server: Server, user: User, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    try:
        game = await open_race_table(app_server, user)
        check_table(user, game)
        assert text(user, "turn").startswith("Opening roll")
        game, done = await play_to_the_end(app_server, user, game)
        assert RACE.over(game.state)
        assert done["piece button"] and done["board and option"], done
        await until(lambda: bool(elements(user, "winner")), "the winner card")
        check_winner_card(user, game)
        log = list(element(user, "log").lines)
        assert log and any(" rolled " in line for line in log), log
        await check_record(user, game, tmp_path, capsys)
        await check_pages_after(app_server, user, game)
    finally:
        stop_runners(app_server)


# --- through the command line ------------------------------------------------------------------


async def test_an_online_race_room_is_set_up_with_the_races_own_pairs_and_levels(
        app_server: Server, user: User) -> None:
    """The form offers what the race's rules say: every pair of its colours for two players,
    its own computer levels for the seats and the stand-in (no level of another game)."""
    await user.open("/new")
    await choose(user, "game", "race")
    await choose(user, "mode", "online")
    await choose(user, "player-count", 2)
    assert list(element(user, "pair", ui.radio).options) == [
        "-".join(RACE.colours[c] for c in pair) for pair in RACE.colour_sets(2)]
    assert len(RACE.colour_sets(2)) == 6
    assert element(user, "stand-in").value == RACE.default_level
    assert set(element(user, "stand-in").options) == set(RACE.table_levels)
    await choose(user, "pair", "violet-teal")
    await choose(user, "kind-teal", "computer")
    assert element(user, "level-teal").value == RACE.default_level
    await click(user, "start-game")
    await until(lambda: any(room.kind == "race" for room in app_server.rooms.rooms.values()),
                "the race's room")
    room = next(room for room in app_server.rooms.rooms.values() if room.kind == "race")
    assert room.stand_in == RACE.default_level and sorted(room.seats) == [VIOLET, TEAL]
    stop_runners(app_server)


def run(argv: list[str], request: object, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``python -m parcheesi`` in this process, with ``request`` as JSON on its input."""
    data = json.dumps(request).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


POSITION = {"game": "race", "turn": "teal",
            "pieces": {"teal": ["start", "start", 9, 10], "grey": ["home", 3, 0, "start"]},
            "die": 2}
"""Teal's 2 brings a piece in, moves 9 to 11 or brings 10 HOME."""


def test_the_command_line_answers_race_requests(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["outcomes"], POSITION, monkeypatch, capsys)
    grey = ["start", 0, 3, "home"]
    assert code == 0 and json.loads(out) == {"outcomes": [  # sorted by their compact JSON
        {"pieces": {"grey": grey, "teal": ["start", "start", 10, 11]}},
        {"pieces": {"grey": grey, "teal": ["start", "start", 9, "home"]}},
        {"pieces": {"grey": grey, "teal": ["start", 1, 9, 10]}},
    ]}
    code, out, _ = run(["choose", "--player", "simple"], POSITION, monkeypatch, capsys)
    assert code == 0 and json.loads(out) == {
        "pieces": {"teal": ["start", "start", 9, "home"], "grey": grey},
        "reason": "Brings piece 4 HOME"}
    code, _, err = run(["outcomes"], {**POSITION, "die": 7}, monkeypatch, capsys)
    assert code == 2 and err == "error: die must be 1..6, not 7\n"


def test_the_simulator_plays_races(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--game", "race", "--players", "random,simple,simple",
                 "--games", "30", "--seed", "5", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["game"] == "race" and result["draws"] == 0
    assert sum(result["wins"].values()) == 30
    again = simulate(["random", "simple", "simple"], 30, 5, kind="race")
    assert again["wins"] == result["wins"] and again["mean_rolls"] == result["mean_rolls"]


def test_the_race_is_registered_for_these_tests_only() -> None:
    assert list(games()) == ["parcheesi", "ludo", "race"] and games()["race"] is RACE


@pytest.mark.parametrize("seed", range(30))
def test_random_races_keep_to_the_interface(seed: int) -> None:
    """Random choices among the interface's own, to the end: each action and position
    survives its JSON, and the game ends with everyone placed."""
    count = 2 + seed % 3
    colours = RACE.colour_sets(count)[seed % len(RACE.colour_sets(count))]
    state, dice, pick = RACE.new_state(colours), RACE.dice(seed), random.Random(seed)
    while not RACE.over(state):
        action = pick.choice(RACE.choices(state)).action
        assert RACE.action_from_json(json.loads(json.dumps(RACE.action_to_json(action)))) \
            == action
        state, _ = RACE.apply(state, action, dice)
        assert RACE.state_from_json(json.loads(json.dumps(RACE.state_to_json(state)))) \
            == state
    assert sorted(RACE.standings(state)) == list(colours)
    assert sorted(rank for _, rank in RACE.places(state))[0] == 1

