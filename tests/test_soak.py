"""Soak test: 1,000 computer-only random games with fixed seeds all end with one winner, and
each one's game record exports, reads back and replays to the identical final state.

The random players also answer the question whether to play on for places at random (games
of three or four), so some games end at the first finish and some are played on."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from parcheesi.core.state import Phase
from parcheesi.games.parcheesi.board import HOME
from parcheesi.games.parcheesi.notation import action_to_json
from parcheesi.games.parcheesi.turns import Game, legal_actions
from tests.record_helpers import assert_round_trip, stored_row

COLOUR_SETS = {2: [(0, 2), (1, 3)],
               3: [(0, 1, 2), (1, 2, 3), (0, 1, 3), (0, 2, 3)],
               4: [(0, 1, 2, 3)]}
GAMES = 1000
MAX_ROLLS_PER_COLOUR = 100
"""Rolls per game, opening rolls included. Measured over seeds 0..999 with this mix: at most
119 rolls with 2 colours, 195 with 3 and 256 with 4 (means 86, 122 and 162)."""
MAX_ACTIONS = 5000


def colours_for(seed: int) -> tuple[int, ...]:
    """A third of the games each with 2, 3 and 4 colours, every seat set in turn."""
    sets = COLOUR_SETS[2 + seed % 3]
    return sets[seed // 3 % len(sets)]


def play(seed: int) -> Game:
    colours = colours_for(seed)
    game = Game(colours, seed)
    rng = random.Random(seed)
    for _ in range(MAX_ACTIONS):
        if game.state.phase is Phase.OVER:
            break
        actions = legal_actions(game.state)
        assert actions, (seed, game.state)
        game.play(rng.choice(actions))
    return game


@pytest.mark.slow
def test_a_thousand_random_games_each_end_with_one_winner() -> None:
    winners: Counter = Counter()
    sizes: Counter = Counter()
    played_on: Counter = Counter()
    for seed in range(GAMES):
        game = play(seed)
        state = game.state
        colours = game.colours
        assert state.phase is Phase.OVER, (seed, len(game.actions))
        finished = [c for c in colours if state.pieces[c] == (HOME,) * 4]
        assert state.winner in finished, (seed, state.pieces, state.winner)
        if state.places:  # asked to play on: everyone is placed, the finishers first
            assert len(colours) > 2 and sorted(state.places) == list(colours), seed
            assert state.places[0] == state.winner, seed
            assert set(state.places[:len(finished)]) == set(finished), seed
            played_on[len(finished) > 1] += 1
        else:
            assert finished == [state.winner], (seed, state.pieces, state.winner)
        assert all(state.pieces[c] == () for c in range(4) if c not in colours)
        assert legal_actions(state) == []
        # a sane length: every game needs rolls, none goes on for ever
        assert len(colours) < state.rolls <= MAX_ROLLS_PER_COLOUR * len(colours), (
            seed, state.rolls)
        assert_round_trip(stored_row("parcheesi", colours, seed=seed),
                          [action_to_json(a) for a in game.actions], state)
        winners[state.winner] += 1
        sizes[len(colours)] += 1
    assert sum(winners.values()) == GAMES
    assert set(winners) == {0, 1, 2, 3}  # every colour wins some games
    assert sizes == {2: 334, 3: 333, 4: 333}
    assert played_on[True] and played_on[False]  # some played on, some stopped when asked
