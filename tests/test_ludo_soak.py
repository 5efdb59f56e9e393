"""Soak test: 1,000 computer-only Ludo games with fixed seeds, mixed table sizes and house
rules, played through the game-rules interface as the server plays them (the computers'
``decide``, then ``apply`` with the game's seeded dice): each ends in places or a draw, and
its game record exports, reads back and replays to the identical final state."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from parcheesi.core.state import Phase
from parcheesi.games.ludo.board import HOME, HOUSE_RULES
from parcheesi.games.ludo.game import GAME as LUDO_RULES
from parcheesi.games.ludo.turns import DRAW_ROLLS
from tests.record_helpers import assert_round_trip, stored_row

GAMES = 1000
MAX_ACTIONS = 3 * DRAW_ROLLS
"""A roll, a move and at most a few play-on answers per roll: a game that takes more
actions has stopped counting its rolls."""


def table(seed: int) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """A third of the games each with 2, 3 and 4 colours, every colour set in turn, and a
    house rule switched on with probability one half."""
    sets = LUDO_RULES.colour_sets(2 + seed % 3)
    rng = random.Random(seed)
    return sets[seed // 3 % len(sets)], tuple(h for h in HOUSE_RULES if rng.random() < 0.5)


@pytest.mark.slow
def test_a_thousand_computer_games_each_end_in_places_or_a_draw() -> None:
    rules = LUDO_RULES
    winners: Counter[int] = Counter()
    draws = 0
    for seed in range(GAMES):
        colours, house = table(seed)
        state, dice = rules.new_state(colours, house), rules.dice(seed)
        played = []
        for _ in range(MAX_ACTIONS):
            if rules.over(state):
                break
            for action in rules.decide(state, "random").actions:
                state, _ = rules.apply(state, action, dice)
                played.append(rules.action_to_json(action))
        assert state.phase is Phase.OVER, (seed, state.race_rolls)
        assert_round_trip(stored_row("ludo", colours, house, seed=seed), played, state)
        assert state.race_rolls <= DRAW_ROLLS and rules.choices(state) == []
        assert all(state.pieces[c] == () for c in range(4) if c not in colours)
        if state.draw:
            assert state.winner is None and state.race_rolls == DRAW_ROLLS, seed
            draws += 1
            continue
        winner = rules.winner(state)
        assert winner is not None and state.pieces[winner] == (HOME,) * 4, seed
        # computers always play on: everyone is placed, the last one left without finishing
        # (unless the roll limit stopped the race and placed the rest by standing)
        assert sorted(state.places) == list(colours), seed
        if state.race_rolls < DRAW_ROLLS:
            assert state.ranks == tuple(range(1, len(colours) + 1)), (seed, state.ranks)
            assert all(state.pieces[c] == (HOME,) * 4 for c in state.places[:-1]), seed
        assert rules.standings(state) == list(state.places)
        winners[winner] += 1
    assert sum(winners.values()) + draws == GAMES
    assert set(winners) == {0, 1, 2, 3}  # every colour wins some games
    assert draws <= GAMES // 100, draws
