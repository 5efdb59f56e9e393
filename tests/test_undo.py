"""Undo at a table of one person and computers: the person takes back their last move of the
current roll (never the roll), on SQLite and PostgreSQL.

What must hold: the position, statistics and record go back to before the move in one
write (the record keeps only what was finally played, so a reload and a restart agree); every
change, an undo too, gives the game a new number, so nothing sent against a position before
the undo is taken after it; only that person's own moves of the roll in progress come back.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from parcheesi.core.actions import Roll
from parcheesi.core.state import Phase
from parcheesi.server.live import (
    COMPUTER,
    HUMAN,
    NOTHING_TO_UNDO,
    STALE,
    Hub,
    LiveGame,
    Refused,
    Seat,
    load_record,
)
from parcheesi.server.store import Store

SOLO = [Seat(colour=0, kind=HUMAN, name="Ann"), Seat(colour=2, kind=COMPUTER, level="easy")]
LUDO_SOLO = [Seat(colour=0, kind=HUMAN, name="Ann"), Seat(colour=1, kind=COMPUTER, level="easy")]
TWO_PEOPLE = [Seat(colour=0, kind=HUMAN, name="Ann"), Seat(colour=2, kind=HUMAN, name="Bo")]
MAX_ACTIONS = 3000


@pytest.fixture
async def store(database_url: str):
    opened = Store(database_url)
    await opened.init()
    yield opened
    await opened.close()


def moves(game: LiveGame) -> list:
    """The choices that move a piece now."""
    return [c for c in game.rules.choices(game.state) if c.piece is not None]


async def play_until(game: LiveGame, wanted: Callable[[LiveGame], bool]) -> None:
    """Play the first choice offered, for whoever is to act, until ``wanted`` holds."""
    for _ in range(MAX_ACTIONS):
        if wanted(game):
            return
        assert not game.over, "the game ended first"
        action = game.rules.choices(game.state)[0].action
        await game.act(action, version=game.version, computer=not game.seat_to_act().is_human)
    raise AssertionError(f"not reached in {MAX_ACTIONS} actions")


def person_to_move(game: LiveGame) -> bool:
    return game.seat_to_act().is_human and bool(moves(game))


def two_single_steps(game: LiveGame) -> bool:
    """The person has a roll of two or more portions to play and a single step that leaves
    some of it (so two moves of one roll can be taken back one after the other)."""
    return (person_to_move(game) and len(game.state.portions) >= 2
            and any(not c.combined and len(c.portions) == 1 for c in moves(game)))


async def stored(store: Store, game: LiveGame) -> tuple[int, int, int]:
    """(actions the stored game says it has, actions in its record, its undos)."""
    row = await store.game(game.id)
    assert row is not None
    return row.version, len(await store.actions(game.id)), row.undos


async def test_undo_takes_back_the_persons_move_and_the_record_forgets_it(store: Store) -> None:
    game = await Hub(store).create_local("browser", "solo", SOLO)
    await play_until(game, person_to_move)
    before, stats_before, version = game.state, game.stats.copy(), game.version
    told: list[int] = []
    game.subscribe(lambda live, _: told.append(live.version))
    await game.act(moves(game)[0].action, version=version)
    assert game.can_undo()

    await game.undo(version=version + 1)

    assert game.state == before
    assert (game.stats.captures, game.stats.lost, list(game.stats.recent)) == (
        stats_before.captures, stats_before.lost, list(stats_before.recent))
    assert game.version == version + 2 and told == [version + 1, version + 2]
    assert await stored(store, game) == (game.played, game.played, 1)
    row = await store.game(game.id)
    assert row is not None
    state, _ = await load_record(store, row)
    assert state == before  # the record replays to the position the table shows
    assert not game.can_undo()  # the roll itself never comes back


async def test_two_moves_of_one_roll_come_back_one_by_one_then_nothing(store: Store) -> None:
    game = await Hub(store).create_local("browser", "solo", SOLO)
    await play_until(game, two_single_steps)
    after_roll, played = game.state, game.played
    step = next(c for c in moves(game) if not c.combined and len(c.portions) == 1)
    await game.act(step.action, version=game.version)
    middle = game.state
    assert person_to_move(game), "the roll has a portion left"
    await game.act(moves(game)[0].action, version=game.version)

    await game.undo(version=game.version)
    assert game.state == middle
    await game.undo(version=game.version)
    assert game.state == after_roll and game.played == played

    version = game.version
    with pytest.raises(Refused, match=NOTHING_TO_UNDO):
        await game.undo(version=version)
    assert (game.version, game.state) == (version, after_roll)
    assert await stored(store, game) == (played, played, 2)


async def test_a_roll_is_never_taken_back(store: Store) -> None:
    game = await Hub(store).create_local("browser", "solo", SOLO)
    await play_until(game, lambda g: g.seat_to_act().is_human and g.state.phase is Phase.ROLL)
    await game.act(Roll(), version=game.version)
    version, state = game.version, game.state
    assert not game.can_undo()
    with pytest.raises(Refused, match=NOTHING_TO_UNDO):
        await game.undo(version=version)
    assert (game.version, game.state) == (version, state)


async def test_nothing_sent_against_a_position_before_the_undo_is_taken_after_it(
        store: Store) -> None:
    """The same move sent again from a page drawn before the undo (a replayed message, a
    second tab) is refused, though the game has as many actions as when it was drawn."""
    game = await Hub(store).create_local("browser", "solo", SOLO)
    await play_until(game, person_to_move)
    move, version = moves(game)[0].action, game.version
    await game.act(move, version=version)
    await game.undo(version=version + 1)
    for seen in (version, version + 1):
        with pytest.raises(Refused, match=STALE):
            await game.act(move, version=seen)
        with pytest.raises(Refused, match=STALE):
            await game.undo(version=seen)
    await game.act(move, version=game.version)  # against the position now: taken
    assert await stored(store, game) == (game.played, game.played, 1)


async def test_the_last_move_of_a_roll_comes_back_until_a_computer_acts(store: Store) -> None:
    """The person's move that passed the turn may be taken back while the computer waits its
    pace; once the computer acted, it may not."""
    game = await Hub(store).create_local("browser", "solo", SOLO)
    for _ in range(MAX_ACTIONS):
        await play_until(game, person_to_move)
        await game.act(moves(game)[0].action, version=game.version)
        if not game.seat_to_act().is_human:
            break
    assert not game.seat_to_act().is_human and game.can_undo()
    await game.act(game.rules.choices(game.state)[0].action, version=game.version,
                   computer=True)
    assert not game.can_undo()
    with pytest.raises(Refused, match=NOTHING_TO_UNDO):
        await game.undo(version=game.version)


async def test_no_undo_at_a_table_of_two_people(store: Store) -> None:
    game = await Hub(store).create_local("browser", "same_device", TWO_PEOPLE)
    await play_until(game, person_to_move)
    await game.act(moves(game)[0].action, version=game.version)
    assert not game.can_undo()
    with pytest.raises(Refused, match=NOTHING_TO_UNDO):
        await game.undo(version=game.version)


async def test_a_ludo_move_comes_back_too(store: Store) -> None:
    game = await Hub(store).create_local("browser", "solo", LUDO_SOLO, kind="ludo")
    await play_until(game, person_to_move)
    before = game.state
    await game.act(moves(game)[0].action, version=game.version)
    await game.undo(version=game.version)
    assert game.state == before
    assert await stored(store, game) == (game.played, game.played, 1)


async def test_after_a_restart_the_game_keeps_its_number_and_its_record(
        store: Store, database_url: str) -> None:
    game = await Hub(store).create_local("browser", "solo", SOLO)
    await play_until(game, person_to_move)
    await game.act(moves(game)[0].action, version=game.version)
    await game.undo(version=game.version)
    version, state = game.version, game.state

    restarted = Store(database_url)
    try:
        resumed = await Hub(restarted).local_game("browser")
        assert resumed is not None
        assert (resumed.version, resumed.state) == (version, state)
        assert not resumed.can_undo()  # what Undo returns to is not kept over a restart
        await resumed.act(moves(resumed)[0].action, version=version)
    finally:
        await restarted.close()


async def test_an_undo_against_a_record_another_writer_moved_on_is_refused(
        store: Store) -> None:
    game = await Hub(store).create_local("browser", "solo", SOLO)
    await play_until(game, person_to_move)
    await game.act(moves(game)[0].action, version=game.version)
    # Another writer (a second server on the same database) took the move back already.
    assert await store.take_back(game.id, game.played, game.undos,
                                 game.rules.state_to_json(game.takebacks[-1].state), None)
    with pytest.raises(Refused, match=STALE):
        await game.undo(version=game.version)
    assert await stored(store, game) == (game.played, game.played, 1)  # caught up
