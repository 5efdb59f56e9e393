"""Ludo's computer players (``parcheesi/ludo/ai.py``): named positions where a level must
choose a given move, the threat model Hard plays by, legality, determinism and the play-on
answer over many random positions, and a small strength check.

A piece's track square is (start + progress) mod 52 with the start squares Red 0, Green 13,
Yellow 26, Blue 39; progress 0..50 is the track, 51..55 the home lane, 56 HOME, -1 the yard.
So yellow's progress p stands on red's progress p + 26 (mod 52), green's on p + 13.
"""

from __future__ import annotations

import random
import time

import pytest

from parcheesi.core.actions import PlayOn, Roll
from parcheesi.core.state import Phase
from parcheesi.games.ludo import ai, threats
from parcheesi.games.ludo.actions import Move
from parcheesi.games.ludo.board import HOME, HOUSE_RULES, YARD
from parcheesi.games.ludo.expert import EXPERT
from parcheesi.games.ludo.game import GAME as LUDO
from parcheesi.games.ludo.moves import legal_moves
from parcheesi.games.ludo.state import LudoState, new_state
from parcheesi.games.ludo.turns import advance
from parcheesi.server.simulate import simulate

RED, GREEN, YELLOW, BLUE = range(4)
Y, H = YARD, HOME


def position(turn: int, pieces: dict[int, tuple[int, ...]], house: tuple[str, ...] = ()
             ) -> LudoState:
    """``turn`` to roll with ``pieces`` (colour -> four progresses) on the board."""
    return LudoState(colours=tuple(sorted(pieces)),
                     pieces=tuple(pieces.get(c, ()) for c in range(4)), phase=Phase.ROLL,
                     turn=turn, house=house)


def rolled(turn: int, pieces: dict[int, tuple[int, ...]], die: int,
           house: tuple[str, ...] = ()) -> LudoState:
    """The same position after ``turn`` rolls ``die`` (a move to choose)."""
    state = advance(position(turn, pieces, house), Roll(), die)
    assert state.phase is Phase.MOVE
    return state


def hard_reason(state: LudoState) -> str:
    """Why Hard plays what it plays (the words the hint uses for whichever level gives it)."""
    return ai.decide(state, "hard", reason=True).reason


def chosen(state: LudoState, level: str = "hard") -> Move:
    (action,) = ai.decide(state, level).actions
    assert isinstance(action, Move)
    return action


# --- named positions: Hard ---------------------------------------------------------------------

def test_hard_captures_when_the_capturing_piece_is_safe_afterwards():
    # red 10 + 4 = square 14, where yellow's progress 40 stands; yellow's others are in the
    # yard far ahead (its start is 26), so nobody can answer the capture
    state = rolled(RED, {RED: (10, 30, Y, Y), YELLOW: (40, Y, Y, Y)}, 4)
    assert chosen(state) == Move(0)
    assert hard_reason(state) == "Piece 1 captures Yellow"


def test_hard_runs_from_a_piece_two_squares_behind():
    # yellow's 44 stands on square 18, two behind red's piece on 20; red's piece on 40 is out
    # of everyone's reach. A 5 takes the piece on 20 to 25, seven ahead of yellow
    state = rolled(RED, {RED: (20, 40, Y, Y), YELLOW: (44, Y, Y, Y)}, 5)
    assert chosen(state) == Move(0)
    assert hard_reason(state) == "Piece 1 runs from Yellow two squares behind"


def test_hard_runs_into_its_home_lane():
    # red's 47 has yellow's 19 (square 45) two behind; a 4 takes it into the home lane
    state = rolled(RED, {RED: (47, 5, Y, Y), YELLOW: (19, Y, Y, Y)}, 4)
    assert chosen(state) == Move(0)
    assert hard_reason(state) == ("Piece 1 runs into its home lane from Yellow two "
                                       "squares behind")


def test_hard_brings_a_piece_out_with_a_six():
    # the piece on 10 is out of everyone's reach where it is: the 6 brings a piece out
    state = rolled(RED, {RED: (Y, Y, Y, 10), YELLOW: (Y, Y, Y, Y)}, 6)
    assert chosen(state) == Move(0)
    assert hard_reason(state) == "Piece 1 comes out with the 6"


def test_hard_does_not_step_in_front_of_an_opponent_when_an_equal_safe_move_exists():
    # yellow's 38 stands on square 12. Red 10 + 3 = 13 would stop one square in front of it;
    # red 40 + 3 = 43 is as far a move and nobody is behind it there
    state = rolled(RED, {RED: (10, 40, Y, Y), YELLOW: (38, Y, Y, Y)}, 3)
    assert chosen(state) == Move(1)


def test_hard_keeps_off_an_opponents_start_square_while_that_opponent_has_pieces_in_its_yard():
    # red 23 + 3 = 26 is yellow's start square: any yellow 6 brings a piece out onto it
    # and captures; red 5 + 3 = 8 is as far and out of reach
    state = rolled(RED, {RED: (23, 5, Y, Y), YELLOW: (Y, Y, Y, Y)}, 3)
    assert chosen(state) == Move(1)


def test_hard_takes_the_more_advanced_of_two_victims():
    # a 5 lets red's 0 hit yellow's 31 (square 5) or red's 30 hit yellow's 9 (square 35)
    state = rolled(RED, {RED: (0, 30, Y, Y), YELLOW: (31, 9, Y, Y)}, 5)
    assert chosen(state) == Move(0)


def test_hard_runs_to_a_star_only_under_the_stars_rule():
    # yellow's 4 stands on square 30, one behind red's 31. A 3 takes it to 34: a star, safe
    # under the stars rule; without the rule it would still be four in front of yellow, so
    # red moves its piece on 2 instead, where nobody can reach it
    pieces = {RED: (31, 2, Y, Y), YELLOW: (4, Y, Y, Y)}
    star = rolled(RED, pieces, 3, ("stars",))
    assert chosen(star) == Move(0)
    assert hard_reason(star) == "Piece 1 runs to a star from Yellow one square behind"
    assert chosen(rolled(RED, pieces, 3)) == Move(1)


def test_hard_reaches_home_with_a_piece_out_of_reach_anyway():
    state = rolled(RED, {RED: (3, 20, Y, 55), GREEN: (23, Y, Y, Y), YELLOW: (H, H, H, 54)}, 1)
    assert chosen(state) == Move(3)
    assert hard_reason(state) == "Piece 4 reaches HOME"


# --- named positions: Medium and Easy ----------------------------------------------------------

def test_medium_captures_first():
    state = rolled(RED, {RED: (10, 30, Y, Y), YELLOW: (40, Y, Y, Y)}, 4)
    assert chosen(state, "medium") == Move(0)


def test_medium_runs_from_an_opponent_close_behind():
    state = rolled(RED, {RED: (20, 40, Y, Y), YELLOW: (44, Y, Y, Y)}, 5)
    assert chosen(state, "medium") == Move(0)


def test_medium_brings_a_piece_out_with_a_six_before_moving_on():
    state = rolled(RED, {RED: (Y, Y, Y, 10), YELLOW: (Y, Y, Y, Y)}, 6)
    assert chosen(state, "medium") == Move(0)


def test_medium_otherwise_moves_its_most_advanced_piece():
    state = rolled(RED, {RED: (5, 30, 12, Y), YELLOW: (Y, Y, Y, Y)}, 2)
    assert chosen(state, "medium") == Move(1)


def test_easy_captures_when_it_can():
    for die, pieces in ((4, (10, 30, 2, 7)), (1, (45, 12, 20, 22))):
        # red + die lands on square 14 (yellow's 40) or 23 (yellow's 49)
        state = rolled(RED, {RED: pieces, YELLOW: (40, 49, Y, Y)}, die)
        capture = next(m for m in legal_moves(state) if m[3])
        assert chosen(state, "easy") == capture[4]


# --- the threat model --------------------------------------------------------------------------

def test_hit_chance_counts_one_roll_and_the_roll_a_six_earns():
    pieces = ((20, Y, Y, Y), (Y, Y, Y, Y), (30, H, H, H), ())
    # yellow's 30 is on square 4, three behind square 7: a 3 hits it, and so does a 3 after
    # a 6 (counted as if another piece had moved the 6: the chance is an upper bound)
    assert threats.hit_chance(pieces, YELLOW, 7) == pytest.approx(1 / 6 + 1 / 36)
    # 8 ahead: a 6 then a 2; 13 ahead: out of reach
    assert threats.hit_chance(pieces, YELLOW, 12) == pytest.approx(1 / 36)
    assert threats.hit_chance(pieces, YELLOW, 17) == 0.0
    # a 6 itself: nothing after it counts
    assert threats.hit_chance(pieces, YELLOW, 10) == pytest.approx(1 / 6)


def test_a_piece_about_to_turn_into_its_home_lane_is_no_threat():
    # yellow's 49 stands on square 23; square 25 would be its progress 51: its lane
    pieces = ((25, Y, Y, Y), (), (49, H, H, H), ())
    assert threats.hit_chance(pieces, YELLOW, 25) == 0.0
    assert threats.danger(pieces, RED, (YELLOW,), 25, stars=False) == 0.0
    assert threats.hit_chance(pieces, YELLOW, 24) > 0.0  # its 50, still on the track


def test_an_opponents_start_square_is_dangerous_while_it_has_pieces_in_its_yard():
    with_yard = ((26, Y, Y, Y), (), (H, H, H, Y), ())
    assert threats.danger(with_yard, RED, (YELLOW,), 26, stars=False) == pytest.approx(1 / 6)
    # out with the 6, then on by 3
    assert threats.danger(with_yard, RED, (YELLOW,), 29, stars=False) == pytest.approx(1 / 36)
    no_yard = ((26, Y, Y, Y), (), (H, H, H, 52), ())
    assert threats.danger(no_yard, RED, (YELLOW,), 26, stars=False) == 0.0


def test_own_start_square_is_safe_only_for_its_owner_and_stars_only_under_the_rule():
    pieces = ((0, 5, Y, Y), (), (22, Y, Y, Y), ())  # yellow's 22 on square 48, 4 behind 0
    assert threats.danger(pieces, RED, (YELLOW,), 0, stars=False) == 0.0
    assert threats.hit_chance(pieces, YELLOW, 0) > 0.0  # a yellow piece there could be hit
    star = ((34, Y, Y, Y), (), (4, Y, Y, Y), ())  # yellow's 4 on 30, four behind the star
    assert threats.danger(star, RED, (YELLOW,), 34, stars=True) == 0.0
    assert threats.danger(star, RED, (YELLOW,), 34, stars=False) > 0.0


def test_two_opponents_behind_add_up_as_independent_chances():
    # green's 5 on 18 and yellow's 44 on 18: both 2 behind square 20
    pieces = ((20, Y, Y, Y), (5, H, H, H), (44, H, H, H), ())
    one = threats.hit_chance(pieces, GREEN, 20)
    assert threats.danger(pieces, RED, (GREEN, YELLOW), 20, stars=False) == pytest.approx(
        1 - (1 - one) ** 2)


# --- every level, every position ----------------------------------------------------------------

def _random_position(rng: random.Random) -> LudoState:
    colours = tuple(sorted(rng.sample(range(4), rng.choice((2, 3, 4)))))
    house = tuple(sorted(rng.sample(HOUSE_RULES, rng.randrange(3))))
    spots = [Y, Y, H, *range(0, 56)]
    pieces = {c: tuple(rng.choice(spots) for _ in range(4)) for c in colours}
    return position(rng.choice(colours), pieces, house)


def test_every_level_chooses_a_legal_move_and_the_state_it_leads_to():
    rng = random.Random(20260)
    checked = 0
    while checked < 300:
        state = advance(_random_position(rng), Roll(), rng.randint(1, 6))
        if state.phase is not Phase.MOVE:
            continue
        legal = [m[4] for m in legal_moves(state)]
        for level in ai.LEVELS:
            decision = ai.decide(state, level, reason=True)
            (action,) = decision.actions
            assert action in legal, (level, state)
            assert decision.state == advance(state, action)
            assert decision.reason
        checked += 1


def test_decisions_are_deterministic_for_a_position(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(EXPERT, "clock", lambda: 0.0)  # only the answers budget ends a search
    rng = random.Random(7)
    for _ in range(100):
        state = advance(_random_position(rng), Roll(), rng.randint(1, 6))
        if state.phase is not Phase.MOVE:
            continue
        for level in ai.LEVELS:
            first = ai.decide(state, level, reason=True)
            again = ai.decide(state.with_(), level, reason=True)  # a copy, no cached moves
            assert (first.actions, first.reason) == (again.actions, again.reason)


def test_the_hint_is_experts_choice_with_a_reason():
    rng = random.Random(11)
    for _ in range(60):
        state = advance(_random_position(rng), Roll(), rng.randint(1, 6))
        if state.phase is not Phase.MOVE:
            continue
        hint = LUDO.hint(state)
        assert hint.actions == ai.decide(state, "expert").actions
        assert hint.reason.startswith("Piece ")


def test_every_level_rolls_and_always_agrees_to_play_on():
    asked = LudoState(colours=(0, 1, 2), pieces=((H,) * 4, (5, Y, Y, Y), (7, Y, Y, Y), ()),
                      phase=Phase.PLAY_ON, turn=1, asking=(1, 2), places=(0,), ranks=(1,),
                      winner=0)
    for level in ai.LEVELS:
        decision = ai.decide(asked, level, reason=True)
        assert decision.actions == [PlayOn(True)]
        assert decision.state.turn == 2 and decision.reason
        assert ai.decide(position(RED, {RED: (Y,) * 4, BLUE: (Y,) * 4}), level).actions \
            == [Roll()]
    with pytest.raises(ValueError, match="game is over"):
        ai.decide(new_state((0, 2)).with_(phase=Phase.OVER), "hard")


def test_capture_all_and_a_choice_of_victims_are_handled():
    # red 10 + 4 = 14: green's 1 and yellow's 40 both stand there
    pieces = {RED: (10, 30, Y, Y), GREEN: (1, Y, Y, Y), YELLOW: (40, Y, Y, Y)}
    choice = rolled(RED, pieces, 4)
    assert {m[2] for m in legal_moves(choice) if m[0] == 0} == {GREEN, YELLOW}
    assert chosen(choice).piece == 0
    everyone = rolled(RED, pieces, 4, ("capture_all",))
    decision = ai.decide(everyone, "hard", reason=True)
    assert decision.actions == [Move(0)] and decision.reason == "Piece 1 captures Green and Yellow"


# --- strength -----------------------------------------------------------------------------------

def test_hard_beats_random_in_a_small_seeded_match():
    started = time.perf_counter()
    result = simulate(["hard", "random"], 100, seed=31, kind="ludo")
    assert result["wins"]["hard"] > 70  # type: ignore[index]
    assert time.perf_counter() - started < 30
