"""Grace, the outside benchmark opponent (Racket's "Amazing Grace"): each term of its
evaluation on concrete positions, its choice among the roll's outcomes, determinism, its
place among the levels, and a seeded match against Random.

Squares are worked out by hand in the comments (tests/positions.py restates the arithmetic):
a piece of colour c at track progress p stands on square (t + 5 + p) mod 68, t = 0, 17, 34,
51 for Ruby, Emerald, Sapphire, Amber; entries 5, 22, 39, 56; safe squares 0, 5, 12, 17, 22,
29, 34, 39, 46, 51, 56, 63. The expected counts are the published evaluation's, so where it
departs from the true odds (a die showing 1 for every distance up to 6, doubles as their sum
only, an opponent's turn-off ignored) a comment says what the true count would be.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from positions import H, S, rolled, square

from parcheesi.__main__ import choose_json, outcomes_json
from parcheesi.core.notation import NotationError
from parcheesi.core.state import Phase, Pieces
from parcheesi.games.parcheesi import grace
from parcheesi.games.parcheesi.ai import LEVELS, TABLE_LEVELS, decide
from parcheesi.games.parcheesi.game import GAME as PARCHEESI_RULES
from parcheesi.games.parcheesi.notation import request_from_json
from parcheesi.games.parcheesi.state import State
from parcheesi.games.parcheesi.turns import Game, apply, legal_actions, roll_outcomes
from parcheesi.server.live import COMPUTER, Seat, SetupError, check_seats
from parcheesi.server.simulate import simulate

RUBY, SAPPHIRE = 0, 2
ALL_START = [S, S, S, S]


def pieces(**colours: list[Any]) -> Pieces:
    """A position (validated like an outcome request's), Ruby to move."""
    state, _ = request_from_json({"turn": "ruby", "pieces": colours, "dice": [1, 2]})
    return state.pieces


def sapphire_at(track_square: int) -> int:
    """Sapphire's progress on ``track_square`` (its entry is square 39)."""
    return (track_square - 39) % 68


# --- distance ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("progress", "expected"), [
    (-1, 100),  # START
    (0, 73),    # just entered: Racket counts 73 from the entry square (truly 71)
    (40, 33),
    (63, 10),   # the turn-off square
    (64, 7),    # one step on, the first lane square: three less
    (70, 1),
    (71, 0),    # HOME
])
def test_distance_of_one_piece_by_where_it_stands(progress, expected):
    assert grace.piece_distance(progress) == expected


def test_distance_adds_the_four_pieces():
    assert grace.distance((-1, -1, -1, -1)) == 400
    assert grace.distance((0, -1, -1, -1)) == 373  # entering is worth 27
    # Racket's own example: two pieces entered and moved 1, two more entered.
    assert grace.distance((1, 1, 0, 0)) == 73 + 73 + 72 + 72
    assert grace.distance((63, 64, 70, 71)) == 10 + 7 + 1 + 0


# --- bop chance: entering opponents ----------------------------------------------------------

def test_a_piece_on_an_opponents_entry_square_is_hit_by_any_entering_roll():
    # Ruby at progress 17 stands on square 22, Emerald's entry (safe, but entering captures).
    # Emerald has pieces in START: a 5 on either die (11) or 1+4 / 2+3 (4 more) = 15.
    # Sapphire's and Amber's entries (39, 56) are not within 6 squares behind square 22.
    position = pieces(ruby=[17, S, S, S], emerald=ALL_START, sapphire=ALL_START,
                      amber=ALL_START)
    assert grace.bop_chance(position, RUBY) == 15


@pytest.mark.parametrize(("progress", "expected"), [
    (18, 2), (19, 2), (20, 2), (21, 2),  # squares 23..26: the 5 enters, the other die hits
    (22, 1),   # square 27, 5 past the entry: only 5-5
    (23, 2),   # square 28, 6 past
    (24, 0),   # square 29, 7 past (and safe)
    (27, 0),   # square 32
])
def test_squares_just_past_an_entry_are_hit_by_the_5_and_the_other_die(progress, expected):
    position = pieces(ruby=[progress, S, S, S], emerald=ALL_START, sapphire=ALL_START,
                      amber=ALL_START)
    assert grace.bop_chance(position, RUBY) == expected


def test_only_seated_opponents_threaten_from_start():
    # The same piece on Emerald's entry square in a game of Ruby and Sapphire: Emerald is
    # not seated (Racket always seats four colours; here an empty seat has no pieces).
    position = pieces(ruby=[17, S, S, S], sapphire=ALL_START)
    assert grace.bop_chance(position, RUBY) == 0


# --- bop chance: opponents on the track -----------------------------------------------------

@pytest.mark.parametrize(("behind", "expected"), [
    (1, 11),   # every roll with a 1
    (2, 11),   # a 1 (11), and 1-1 has one; a die showing 2 (the intent) would give 12
    (3, 11),   # a 1, and 1+2 already has one
    (4, 12),   # a 1, and 2-2 (1+3 has a 1)
    (5, 13),   # a 1, and 2+3 / 3+2
    (6, 14),   # a 1, and 2+4 / 4+2 / 3-3
    (7, 6),    # 1+6, 2+5, 3+4 both ways; no four-portion doubles (a + (7 - a))
    (8, 5),
    (9, 4),
    (10, 3),
    (11, 2),
    (12, 1),   # 6-6
    (13, 0),
    (14, 0),   # any doubles' four portions (a, a, 7-a, 7-a) reach 14: not counted
])
def test_a_track_threat_counts_sums_and_a_die_showing_one(behind, expected):
    # Ruby alone at progress 20 (square 25, not safe); Sapphire's one piece out stands
    # ``behind`` squares back, the rest HOME (no pieces in START, so no entering threat).
    position = pieces(ruby=[20, H, H, H],
                      sapphire=[sapphire_at(square(RUBY, 20) - behind), H, H, H])
    assert grace.bop_chance(position, RUBY) == expected


def test_safe_squares_are_not_hit_from_the_track():
    # Ruby at progress 24 stands on square 29 (safe); Sapphire one behind on square 28.
    position = pieces(ruby=[24, H, H, H], sapphire=[sapphire_at(28), H, H, H])
    assert grace.bop_chance(position, RUBY) == 0


def test_a_blockade_on_the_way_stops_a_track_threat():
    # Sapphire 4 behind Ruby's piece at square 25 (on square 21); Ruby's own pair at
    # progress 18 (square 23) stands between, and a pair is never hit itself.
    position = pieces(ruby=[18, 18, 20, H], sapphire=[sapphire_at(21), H, H, H])
    assert grace.bop_chance(position, RUBY) == 0
    # A blockade beyond the target does not matter: Sapphire's pair on square 27.
    position = pieces(ruby=[20, H, H, H],
                      sapphire=[sapphire_at(21), sapphire_at(27), sapphire_at(27), H])
    assert grace.bop_chance(position, RUBY) == 12


def test_pieces_standing_in_a_blockade_are_counted_as_no_threat():
    # Sapphire's pair on square 23, two behind Ruby at square 25: the published path check
    # includes the opponent's own square, so a blockade's pieces never count (truly 11).
    position = pieces(ruby=[20, H, H, H], sapphire=[sapphire_at(23), sapphire_at(23), H, H])
    assert grace.bop_chance(position, RUBY) == 0


def test_a_players_own_blockade_is_never_hit():
    position = pieces(ruby=[20, 20, H, H], sapphire=[sapphire_at(24), H, H, H])
    assert grace.bop_chance(position, RUBY) == 0


def test_hits_are_counted_once_over_pieces_and_opponents():
    # Two Ruby pieces each one behind a Sapphire piece (squares 25 and 40): the rolls with a
    # 1 hit either, 11 in all, not 22.
    position = pieces(ruby=[20, 35, H, H], sapphire=[sapphire_at(24), sapphire_at(39), H, H])
    assert grace.bop_chance(position, RUBY) == 11
    # 7 behind one piece (6 rolls) and 12 behind the other (6-6): 7 outcomes.
    position = pieces(ruby=[20, 35, H, H], sapphire=[sapphire_at(18), sapphire_at(28), H, H])
    assert grace.bop_chance(position, RUBY) == 7
    # Two opponents behind the same piece, Emerald 1 behind (square 24) and Amber 4 behind
    # (square 21): the rolls with a 1 and 2-2, 12 outcomes, not 11 + 12.
    position = pieces(ruby=[20, H, H, H], emerald=[24 - 22, H, H, H], sapphire=[H, H, H, 70],
                      amber=[21 - 56 + 68, H, H, H])
    assert grace.bop_chance(position, RUBY) == 12


def test_only_pieces_on_the_track_are_hit_or_hit():
    # Ruby in START, in its lane and HOME; Sapphire's pieces in START sit by its entry (39)
    # and one in its lane: nothing on the track of Ruby's is alone to be hit.
    position = pieces(ruby=[S, 64, 70, H], sapphire=[S, S, 66, H])
    assert grace.bop_chance(position, RUBY) == 0
    # A Sapphire piece in its lane threatens nothing on the track either.
    position = pieces(ruby=[20, H, H, H], sapphire=[66, H, H, H])
    assert grace.bop_chance(position, RUBY) == 0


def test_an_opponent_near_its_turn_off_counts_as_threatening_past_it():
    # Sapphire at progress 62 (square 33) turns off at square 34 into its lane, so it cannot
    # reach Ruby's piece on square 35 (progress 30); the published count ignores the turn-off
    # and counts it 2 behind: 11.
    position = pieces(ruby=[30, H, H, H], sapphire=[62, H, H, H])
    assert grace.bop_chance(position, RUBY) == 11


# --- blockades and the whole score -------------------------------------------------------------

def test_blockades_count_pairs_on_the_track_and_in_the_lane():
    assert grace.blockades((10, 10, 66, 66)) == 2
    assert grace.blockades((10, 10, 11, 71)) == 1
    assert grace.blockades((-1, -1, 71, 71)) == 0  # START and HOME hold no blockade
    assert grace.blockades((10, 11, 12, 13)) == 0


def test_score_adds_twice_the_distance_saved_the_rolls_that_miss_and_the_blockades():
    # Ruby: START (100), a pair at progress 10 (63 each), progress 30 (43): distance 269.
    # Sapphire 5 behind the piece at 30 (square 35, from square 30): 13 hitting rolls; the
    # pair is safe, and Sapphire's START pieces enter at 39, after both Ruby squares.
    position = pieces(ruby=[S, 10, 10, 30], sapphire=[sapphire_at(30), S, S, S])
    assert grace.bop_chance(position, RUBY) == 13
    assert grace.score(position, RUBY) == 2 * (500 - 269) + (36 - 13) + 10 * 1


# --- the choice -------------------------------------------------------------------------------

def grace_choice(turn: str, position: dict[str, list[Any]], dice: tuple[int, int]) -> State:
    state, _ = rolled(turn, position, dice)
    return decide(state, "grace").state


def test_grace_builds_a_blockade_out_of_reach():
    # Ruby 10 and 13 (squares 15, 18) and 40 (square 45); Sapphire on square 14 hits 15
    # (1 behind) and 18 (4 behind). With 3+2 every choice travels 5 squares; only 10+3
    # pairs the two exposed pieces on 13 (safe as a blockade, +10), the 2 going to 42.
    position = {"ruby": [10, 13, 40, H], "sapphire": [sapphire_at(14), H, H, H]}
    after = grace_choice("ruby", position, (3, 2))
    assert sorted(after.pieces[RUBY]) == [13, 13, 42, 71]


def test_grace_moves_the_threatened_piece_onto_a_safe_square():
    # Ruby 10 (square 15, 1 ahead of Sapphire on 14) and 40 (square 45). With 2+6: 10+2 to
    # square 17 and 40+6 to square 51 are both safe (0 hitting rolls), where 10+6 to square
    # 21 (7 ahead: 6 rolls) or leaving the piece on 15 (11 rolls) are not.
    position = {"ruby": [10, 40, H, H], "sapphire": [sapphire_at(14), H, H, H]}
    after = grace_choice("ruby", position, (2, 6))
    assert sorted(after.pieces[RUBY]) == [12, 46, 71, 71]


def _grace_games(seeds: range):
    """The states where Grace chose, over seeded games of Grace in every seat."""
    rng = random.Random(9)
    for seed in seeds:
        game = Game((0, 1, 2, 3) if seed % 2 else (1, 3), seed)
        while game.state.phase is not Phase.OVER:
            if game.state.phase in (Phase.MOVE, Phase.REWARD):
                yield game.state
                for action in decide(game.state, "grace").actions:
                    game.play(action)
            else:
                game.play(rng.choice(legal_actions(game.state)))


def test_grace_only_takes_a_best_scoring_outcome_of_the_roll():
    chosen = 0
    for state in _grace_games(range(4)):
        decision = decide(state, "grace")
        options = roll_outcomes(state)
        ends = [after for after, _ in options]
        assert decision.state in ends
        replayed = state
        for action in decision.actions:
            replayed, _ = apply(replayed, action)
        assert replayed == decision.state
        best = max(grace.score(after.pieces, state.turn) for after in ends)
        assert grace.score(decision.state.pieces, state.turn) == best
        chosen += 1
    assert chosen > 200


def test_grace_decides_the_same_way_for_the_same_state():
    for state in _grace_games(range(4, 6)):
        assert decide(state, "grace").actions == decide(state, "grace").actions


def test_ties_are_settled_at_random_but_from_the_state():
    # Ruby 10 and 30 (squares 15, 35) with nothing to fear (Sapphire in its lane): every
    # split of the dice scores the same. Racket picks among such ties at random; here the
    # pick is seeded from the state, so it replays but is not always the first outcome.
    picks = set()
    for dice in [(1, 2), (1, 3), (2, 3), (2, 4), (3, 4), (1, 4), (2, 6), (3, 6), (4, 6)]:
        state, _ = rolled("ruby", {"ruby": [10, 30, H, H], "sapphire": [66, H, H, H]}, dice)
        options = roll_outcomes(state)
        assert len({grace.score(after.pieces, RUBY) for after, _ in options}) == 1
        chosen = decide(state, "grace").state
        assert chosen == decide(state, "grace").state
        picks.add([after for after, _ in options].index(chosen))
    assert len(picks) > 1


# --- a benchmark level, not a table level ---------------------------------------------------

def test_grace_is_a_benchmark_level_but_never_seated_at_a_table():
    assert "grace" in LEVELS and "grace" in PARCHEESI_RULES.levels
    assert TABLE_LEVELS == ("easy", "medium", "hard", "expert") == PARCHEESI_RULES.table_levels
    seats = [Seat(0, COMPUTER, "grace"), Seat(2, COMPUTER, "hard")]
    with pytest.raises(SetupError, match="not 'grace'"):
        check_seats("same_device", seats)


def test_the_choose_command_answers_for_grace_with_one_of_the_outcomes():
    request = json.dumps({"turn": "ruby", "dice": [3, 2], "pieces": {
        "ruby": [10, 13, 40, "home"], "sapphire": [sapphire_at(14), "home", "home", "home"]}})
    answer = choose_json(request, "grace")
    assert answer["pieces"] in [o["pieces"] for o in outcomes_json(request)["outcomes"]]
    assert answer["pieces"]["ruby"] == [13, 13, 42, "home"]
    assert answer["reason"]
    with pytest.raises(NotationError, match="Ludo has no player 'grace'"):
        choose_json(json.dumps({"game": "ludo", "turn": "red", "die": 3, "pieces": {
            "red": ["yard"] * 4, "yellow": ["yard"] * 4}}), "grace")


def test_grace_beats_random_clearly_in_a_seeded_match():
    """Seeded, so the result is fixed; the bar is well under Grace's measured rate."""
    result = simulate(["grace", "random"], 100, seed=3)
    assert result["wins"]["grace"] >= 75
