"""A whole solo game played through the table, from the set-up form to the winner card.

The person (Ruby) is driven by the test: whenever Ruby is to act it clicks Roll, or Play best
(the hint) when there is a roll to play; Sapphire, a hard computer, plays itself through the
app's computer task (pace 0). Waiting is on state: after a click, the handler's background
task is awaited; for the computers, the live game (found through the hub of the test's
server) is polled every 10 ms, within a time limit, until a person is to
act or the game is over. No fixed sleeps.

The dice seed is fixed, so the game is the same on every run. The winner card (placing,
pieces HOME, captures, losses) is checked against the engine's replay of the game's stored
record. (Not against an engine-only game from the seed: the hint's choice between
interchangeable pieces, e.g. which START piece enters, depends on what the table asked the
engine before, so such a game can take another path.)
"""

from __future__ import annotations

import time

import pytest
from nicegui import ui
from nicegui.testing import User
from ui_helpers import (
    board,
    choose,
    click,
    computers_done,
    element,
    elements,
    enabled,
    live_game,
    start_game,
    stop_runners,
    text,
    until,
)

from components.server import Server
from parcheesi.core.state import Phase
from parcheesi.games.parcheesi.board import HOME
from parcheesi.games.parcheesi.game import GAME as PARCHEESI_RULES
from parcheesi.games.parcheesi.notation import action_from_json
from parcheesi.games.parcheesi.turns import Game
from parcheesi.server.live import LiveGame, Stats, first_state

SEED = 1
LEVEL = "hard"
RUBY, SAPPHIRE = 0, 2
TIME_LIMIT = 60.0
MAX_CLICKS = 400


async def record_replay(game: LiveGame) -> tuple[Game, Stats]:
    """The game rebuilt by the engine from its stored record (seed and actions)."""
    replay = Game([RUBY, SAPPHIRE], game.seed)
    stats = Stats(PARCHEESI_RULES)
    for raw in await game.store.actions(game.id):
        stats.record(replay.play(action_from_json(raw)))
    return replay, stats


@pytest.fixture
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("parcheesi.server.fairness.dice_seed", lambda secret, added: SEED)


async def test_a_solo_game_is_played_to_the_winner_card(
        fixed_seed, app_server: Server, user: User) -> None:
    started = time.monotonic()
    try:
        game = await start_game(app_server, user, levels={"sapphire": LEVEL})
        # Animations off, through the settings dialog.
        await click(user, "settings")
        await choose(user, "setting-motion", "on")
        await click(user, "settings-close")
        assert board(user).view["reduced"] is True

        clicks = 0
        while True:
            await computers_done(game, timeout=TIME_LIMIT)
            if game.over:
                break
            assert time.monotonic() - started < TIME_LIMIT, f"still playing after {clicks} clicks"
            assert clicks < MAX_CLICKS, "the game does not end"
            version = game.version
            if game.state.phase in (Phase.OPENING, Phase.ROLL):
                assert enabled(user, "roll") and not enabled(user, "play-best")
                await click(user, "roll")
            else:
                assert enabled(user, "play-best") and not enabled(user, "roll")
                await click(user, "play-best")
            clicks += 1
            assert game.version > version, f"click {clicks} was not accepted"
            assert board(user).view["moves"] == []  # nothing is animated
    finally:
        stop_runners(app_server)

    expected, stats = await record_replay(game)
    assert game.seed == SEED and game.state == expected.state
    assert (game.stats.captures, game.stats.lost) == (stats.captures, stats.lost)
    winner = expected.state.winner
    assert winner is not None and game.state.pieces[winner] == (HOME,) * 4

    card = element(user, "winner")
    names = {RUBY: game.name_of(RUBY), SAPPHIRE: game.name_of(SAPPHIRE)}
    loser = SAPPHIRE if winner == RUBY else RUBY
    with user:
        assert any(isinstance(e, ui.label) and e.text == f"{names[winner]} wins!"
                   for e in card.descendants())
        (table,) = [e for e in card.descendants() if isinstance(e, ui.table)]
    assert [column["label"] for column in table.columns] == [
        "Place", "Player", "HOME", "Captures", "Lost"]
    assert table.rows == [
        {"place": 1, "player": names[winner], "home": 4,
         "captures": stats.captures.get(winner, 0), "lost": stats.lost.get(winner, 0)},
        {"place": 2, "player": names[loser], "home": expected.state.pieces[loser].count(HOME),
         "captures": stats.captures.get(loser, 0), "lost": stats.lost.get(loser, 0)},
    ]
    assert elements(user, "winner-new-game")
    assert names[winner] in text(user, "turn")
    assert not enabled(user, "roll") and not enabled(user, "play-best")

    await click(user, "play-again")  # the same seats, a new game
    await until(lambda: bool(elements(user, "turn"))
                and text(user, "turn").startswith("Opening roll"), "the next game's table")
    again = await live_game(app_server, user)
    assert again.id != game.id and not again.over
    assert again.seats == game.seats and again.mode == game.mode
    # the opening roll passes on: the seat after the one that began this game begins the next
    order = game.state.colours
    began = game.rules.turn(first_state(await app_server.store.game(game.id)))
    began_again = again.rules.turn(first_state(await app_server.store.game(again.id)))
    assert began_again == order[(order.index(began) + 1) % len(order)] != began
    print(f"{clicks} clicks, {game.version} actions, captures {stats.captures}, "
          f"{time.monotonic() - started:.1f} s")
