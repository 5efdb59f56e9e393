"""Why a piece cannot move: ``GameRules.stuck_reason`` (the learning mode's sentence when a
piece that cannot move is tapped), per game and case, and as a property of random games.

Parcheesi positions are worked out by hand like ``tests/test_rules_scenarios.py``: a piece's
track square is (t + 5 + progress) mod 68 (turn-off t: Ruby 0, Emerald 17, Sapphire 34,
Amber 51), so Ruby's progress p stands on square 5 + p, and an opponent's progress there is
``progress_on(colour, 5 + p)``. Ruby's safe progresses are {0, 7, 12, 17, 24, 29, 34, 41, 46,
51, 58, 63}; 64..70 is the home lane, 71 HOME. Ludo's are worked out like
``tests/test_ludo_rules.py``: progress 0..50 on the track, 51..55 the lane, 56 HOME, -1 the
yard.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import AMBER, RUBY, SAFE, SAPPHIRE, H, S, at_roll, progress_on, rolled, square
from race.game import GAME as RACE

from parcheesi.core.actions import PlayOn, Roll
from parcheesi.core.choices import pieces_to_choose
from parcheesi.core.registry import AnyRules, games
from parcheesi.core.state import IllegalAction, Phase
from parcheesi.games.ludo import stuck as ludo_stuck
from parcheesi.games.ludo.actions import Move as LudoMove
from parcheesi.games.ludo.game import GAME as LUDO
from parcheesi.games.ludo.state import LudoState
from parcheesi.games.ludo.state import new_state as ludo_new_state
from parcheesi.games.ludo.turns import apply as ludo_apply
from parcheesi.games.parcheesi import stuck as parcheesi_stuck
from parcheesi.games.parcheesi.game import GAME as PARCHEESI
from parcheesi.games.parcheesi.state import new_state as parcheesi_new_state
from parcheesi.games.parcheesi.turns import Move, apply, legal_steps


def reasons(rules: AnyRules, state: Any) -> list[str | None]:
    """What the learning mode says for each of the player to act's four pieces."""
    return [rules.stuck_reason(state, piece) for piece in range(4)]


def play(state: Any, *actions: Any) -> Any:
    for action in actions:
        state, _ = apply(state, action)
    return state


def amber(ruby_progress: int) -> int:
    """Amber's progress on the square where Ruby's progress is ``ruby_progress``."""
    return progress_on(AMBER, square(RUBY, ruby_progress))


def sapphire(ruby_progress: int) -> int:
    return progress_on(SAPPHIRE, square(RUBY, ruby_progress))


# --- Parcheesi: no roll to use ---------------------------------------------------------------

def test_parcheesi_before_the_roll_says_roll_first_except_for_a_piece_home():
    state = at_roll("ruby", {"ruby": [S, 10, 30, H], "sapphire": [S, S, S, S]})
    assert reasons(PARCHEESI, state) == ["Roll the dice first"] * 3 + ["Already HOME"]


def test_parcheesi_opening_roll():
    state = parcheesi_new_state((RUBY, SAPPHIRE))
    assert state.phase is Phase.OPENING
    assert reasons(PARCHEESI, state) == ["First roll the dice to see who begins"] * 4


def test_parcheesi_play_on_question_and_game_over():
    # Ruby 70 + 1 = 71: the fourth piece HOME. With three players the others are asked
    # whether to play on; with two the game is over and nobody acts.
    three = {"ruby": [70, H, H, H], "sapphire": [S, S, S, S], "amber": [S, S, S, S]}
    state, _ = rolled("ruby", three, (1, 2))
    asked = play(state, Move(0, (1,)))
    assert asked.phase is Phase.PLAY_ON
    assert reasons(PARCHEESI, asked) == ["Answer the question first"] * 4
    state, _ = rolled("ruby", {"ruby": [70, H, H, H], "sapphire": [S, S, S, S]}, (1, 2))
    over = play(state, Move(0, (1,)))
    assert over.phase is Phase.OVER
    assert reasons(PARCHEESI, over) == [None] * 4


# --- Parcheesi: coming out of START (docs/rules/parcheesi.md 3.1) ----------------------------

def test_parcheesi_start_needs_a_five_or_two_dice_adding_up_to_five():
    state, _ = rolled("ruby", {"ruby": [S, 10, H, H], "sapphire": [S, S, S, S]}, (6, 3))
    assert reasons(PARCHEESI, state) == [
        "Needs a 5 to come out (or two dice that add up to 5)", None, "Already HOME",
        "Already HOME"]
    # The 6 played, one die is left: only a 5 would do.
    after = play(state, Move(1, (6,)))
    assert PARCHEESI.stuck_reason(after, 0) == "Needs a 5 to come out"


def test_parcheesi_entry_square_blocked_by_an_opponent_blockade():
    # Ruby's entry square is square 5 (Ruby 0), Amber's progress 17 there: Amber's
    # blockade keeps Ruby in START. Ruby 20 uses the 5 and the 2 instead.
    assert amber(0) == 17 and square(RUBY, 0) == 5 in SAFE
    pieces = {"ruby": [S, 20, H, H], "sapphire": [S, S, S, S], "amber": [17, 17, S, S]}
    state, _ = rolled("ruby", pieces, (5, 2))
    assert PARCHEESI.stuck_reason(state, 0) == "Its entry square is blocked by Amber's blockade"
    assert PARCHEESI.stuck_reason(state, 1) is None


def test_parcheesi_entry_square_blocked_by_own_blockade_that_cannot_move():
    # Ruby's two pieces on the entry square (0) face Sapphire's blockade on Ruby 1 (square
    # 6, Sapphire 35): they cannot move, so no piece comes out; Ruby 30 moves instead.
    assert sapphire(1) == 35
    pieces = {"ruby": [S, 0, 0, 30], "sapphire": [35, 35, S, S]}
    state, _ = rolled("ruby", pieces, (5, 2))
    assert reasons(PARCHEESI, state) == [
        "Its entry square is blocked by your own blockade",
        "Sapphire's blockade 1 square ahead is in the way",
        "Sapphire's blockade 1 square ahead is in the way", None]


def test_parcheesi_entry_square_blocked_by_own_blockade_until_it_opens():
    # 6 then 5: a piece of the blockade on the entry square moves 6, then the 5 brings a
    # piece out (entering is compulsory, docs/rules/parcheesi.md 3.3): later, not now.
    state, _ = rolled("ruby", {"ruby": [S, 0, 0, H], "sapphire": [S, S, S, S]}, (5, 6))
    assert PARCHEESI.stuck_reason(state, 0) == (
        "Another move must be played first: its entry square is blocked by your own blockade")
    after = play(state, Move(1, (6,)))
    assert PARCHEESI.stuck_reason(after, 0) is None


# --- Parcheesi: the track and the home lane (3.2, 3.4) ---------------------------------------

def test_parcheesi_needs_the_exact_count_to_reach_home():
    # Ruby 68 needs 3: 68 + 6 = 74 and 68 + 4 = 72 both go past HOME (71).
    state, _ = rolled("ruby", {"ruby": [68, 20, H, H], "sapphire": [S, S, S, S]}, (6, 4))
    assert PARCHEESI.stuck_reason(state, 0) == "Needs exactly 3 to reach HOME"
    assert PARCHEESI.stuck_reason(state, 1) is None


def test_parcheesi_opponent_blockade_ahead():
    # Amber's blockade on Ruby 14 (square 19, Amber 31): Ruby 10 + 5 and 10 + 6 both cross it.
    assert amber(14) == 31
    pieces = {"ruby": [10, 30, H, H], "sapphire": [S, S, S, S], "amber": [31, 31, S, S]}
    state, _ = rolled("ruby", pieces, (6, 5))
    assert PARCHEESI.stuck_reason(state, 0) == "Amber's blockade 4 squares ahead is in the way"
    assert PARCHEESI.stuck_reason(state, 1) is None


def test_parcheesi_own_blockade_ahead_that_cannot_open():
    # Ruby's blockade on 13 stands behind Amber's on 14 and cannot move; Ruby 10 cannot pass
    # its own blockade, 3 squares ahead; Ruby 40 moves.
    pieces = {"ruby": [10, 13, 13, 40], "sapphire": [S, S, S, S], "amber": [31, 31, S, S]}
    state, _ = rolled("ruby", pieces, (6, 4))
    assert reasons(PARCHEESI, state) == [
        "Your own blockade 3 squares ahead is in the way",
        "Amber's blockade 1 square ahead is in the way",
        "Amber's blockade 1 square ahead is in the way", None]


def test_parcheesi_own_blockade_ahead_that_another_move_opens():
    # The blockade on 13 can move (6 or 4) and so open the way for Ruby 10's other die.
    pieces = {"ruby": [10, 13, 13, H], "sapphire": [S, S, S, S]}
    state, _ = rolled("ruby", pieces, (6, 4))
    assert PARCHEESI.stuck_reason(state, 0) == (
        "Another move must be played first: your own blockade 3 squares ahead is in the way")
    assert PARCHEESI.stuck_reason(play(state, Move(1, (6,))), 0) is None


def test_parcheesi_cannot_land_on_an_opponent_on_a_safe_square():
    # Amber alone on Ruby 7 (square 12, safe; Amber 24). Ruby 3 + 6 = 9 is open, so once
    # Ruby 30 has used the 6, only the 4 is left and 3 + 4 = 7 is that safe square.
    assert amber(7) == 24 and square(RUBY, 7) in SAFE
    pieces = {"ruby": [3, 30, H, H], "sapphire": [S, S, S, S], "amber": [24, S, S, S]}
    state, _ = rolled("ruby", pieces, (4, 6))
    assert PARCHEESI.stuck_reason(state, 0) is None
    after = play(state, Move(1, (6,)))
    assert after.portions == (4,)
    assert PARCHEESI.stuck_reason(after, 0) == "Cannot land on Amber's piece on a safe square"


def test_parcheesi_a_blockade_of_the_turn_may_not_form_again():
    # Ruby 10 and 10 began the turn as a blockade; piece 1 moved 3 to 13; piece 2's 3 would
    # join it on 13 (docs/rules/parcheesi.md 3.4). Piece 1 takes the second 3 instead.
    state, _ = rolled("ruby", {"ruby": [S, 10, 10, S], "sapphire": [S, S, S, S]}, (3, 3))
    after = play(state, Move(1, (3,)))
    assert after.pairs == ((1, 2),) and after.portions == (3,)
    assert reasons(PARCHEESI, after) == [
        "Needs a 5 to come out", None,
        "It cannot pair up with piece 2 again this turn",
        "Needs a 5 to come out"]


# --- Parcheesi: which sequences are legal (3.3) -----------------------------------------------

def test_parcheesi_a_step_that_would_waste_the_roll():
    # Sapphire alone on square 0 (Sapphire 29) = Ruby 63, safe. Ruby 70 + 1 reaches HOME,
    # but then the 4 fits no piece (59 + 4 = 63 is that square): both dice can be played
    # (59 + 1 + 4 = 64), so both must be, and Ruby 70 never moves with this roll.
    assert sapphire(63) == 29
    pieces = {"ruby": [59, 70, H, H], "sapphire": [29, S, S, S]}
    state, _ = rolled("ruby", pieces, (1, 4))
    assert PARCHEESI.stuck_reason(state, 0) is None
    assert PARCHEESI.stuck_reason(state, 1) == (
        "Moving it would waste part of the roll: the whole roll has to be used")
    after = play(state, Move(0, (1,)))
    assert PARCHEESI.stuck_reason(after, 1) == "Needs exactly 1 to reach HOME"


def test_parcheesi_another_move_first_so_the_whole_roll_is_used():
    # Ruby 5 + 2 = 7 is safe with Amber alone there (Amber 24); Ruby 5 + 6 = 11 joins
    # Ruby 11 in a blockade that would stop Ruby 10's 2 (10 + 2 crosses 11), and Amber's
    # blockade on 13 (Amber 30) stops 11 + 2. So Ruby 10 plays the 2 first, then 5 + 6.
    assert amber(13) == 30
    pieces = {"ruby": [5, 10, 11, H], "sapphire": [S, S, S, S], "amber": [24, 30, 30, S]}
    state, _ = rolled("ruby", pieces, (6, 2))
    assert {(m.piece, m.portions) for m in legal_steps(state)} == {(1, (2,))}
    assert reasons(PARCHEESI, state) == [
        "Another move must be played first: the whole roll has to be used", None,
        "Amber's blockade 2 squares ahead is in the way", "Already HOME"]
    assert PARCHEESI.stuck_reason(play(state, Move(1, (2,))), 0) is None


def test_parcheesi_a_five_must_bring_a_piece_out():
    # Ruby 21 + 3 = 24 is safe with Amber alone there (Amber 41); 21 + 5 would spend the 5
    # that must bring the piece in START out.
    assert amber(24) == 41
    pieces = {"ruby": [S, 21, H, H], "sapphire": [S, S, S, S], "amber": [41, S, S, S]}
    state, _ = rolled("ruby", pieces, (5, 3))
    assert PARCHEESI.stuck_reason(state, 0) is None
    assert PARCHEESI.stuck_reason(state, 1) == "A 5 must be used to bring a piece out of START"


def test_parcheesi_two_dice_adding_up_to_five_must_bring_a_piece_out():
    state, _ = rolled("ruby", {"ruby": [S, 30, H, H], "sapphire": [S, S, S, S]}, (3, 2))
    assert PARCHEESI.stuck_reason(state, 0) is None
    assert PARCHEESI.stuck_reason(state, 1) == (
        "The 2 and 3 must be used to bring a piece out of START")


# --- Parcheesi: a pending bonus (3.5) ---------------------------------------------------------

def test_parcheesi_bonus_from_start_and_a_bonus_that_cannot_be_split():
    # Ruby 10 + 3 = 13 (square 18, not safe) captures Sapphire alone there (Sapphire 47):
    # 20 to take after the dice. Ruby 60 + 1 = 61 then needs 10 for HOME, not 20.
    assert sapphire(13) == 47 and square(RUBY, 13) not in SAFE
    pieces = {"ruby": [S, 10, 60, H], "sapphire": [47, S, S, S]}
    state, _ = rolled("ruby", pieces, (3, 1))
    state = play(state, Move(1, (3,)), Move(2, (1,)))
    assert state.phase is Phase.REWARD and state.rewards == (20,)
    assert reasons(PARCHEESI, state) == [
        "A bonus cannot bring a piece out of START", None,
        "A bonus cannot be split: it needs exactly 10 to reach HOME", "Already HOME"]


def test_parcheesi_bonus_blocked_by_a_blockade():
    # After the capture on Ruby 13 the 20 fits Ruby 13 (to 33) but not Ruby 30: Amber's
    # blockade on Ruby 40 (square 45, Amber 57) is 10 squares ahead of it.
    assert amber(40) == 57
    pieces = {"ruby": [S, 10, 30, H], "sapphire": [47, S, S, S], "amber": [57, 57, S, S]}
    state, _ = rolled("ruby", pieces, (3, 1))
    state = play(state, Move(1, (3,)), Move(2, (1,)))
    assert state.phase is Phase.REWARD and state.mover[2] == 31
    assert PARCHEESI.stuck_reason(state, 1) is None
    assert PARCHEESI.stuck_reason(state, 2) == "Amber's blockade 9 squares ahead is in the way"


def test_parcheesi_no_such_piece():
    state = at_roll("ruby", {"ruby": [S, S, S, S], "sapphire": [S, S, S, S]})
    for piece in (-1, 4, True):
        with pytest.raises(ValueError, match="no piece"):
            PARCHEESI.stuck_reason(state, piece)


# --- Ludo --------------------------------------------------------------------------------------

RED, GREEN, YELLOW, BLUE = range(4)
YARD, HOME = -1, 56


def ludo_at_roll(turn: int, pieces: dict[int, list[int]], **fields: Any) -> LudoState:
    table = tuple(tuple(pieces[c]) if c in pieces else () for c in range(4))
    return LudoState(colours=tuple(sorted(pieces)), pieces=table, phase=Phase.ROLL,
                     turn=turn, **fields)


def ludo_play(state: LudoState, *steps: Any) -> LudoState:
    """An int is a roll of that die, anything else an action."""
    for step in steps:
        action = Roll() if isinstance(step, int) else step
        state, _ = ludo_apply(state, action, step if isinstance(step, int) else None)
    return state


def test_ludo_before_the_roll():
    state = ludo_at_roll(RED, {RED: [YARD, 10, 54, HOME], YELLOW: [YARD] * 4})
    assert reasons(LUDO, state) == ["Roll the die first"] * 3 + ["Already HOME"]
    opening = ludo_new_state((RED, YELLOW))
    assert reasons(LUDO, opening) == ["First roll the die to see who begins"] * 4


def test_ludo_yard_home_and_the_exact_count():
    # A 3: the yard needs a 6; 54 + 3 = 57 passes HOME (56), it needs 2; 10 + 3 = 13 moves.
    state = ludo_play(ludo_at_roll(RED, {RED: [YARD, 10, 54, HOME], YELLOW: [YARD] * 4}), 3)
    assert state.phase is Phase.MOVE
    assert reasons(LUDO, state) == ["Needs a 6 to come out of the yard", None,
                                    "Needs exactly 2 to reach HOME", "Already HOME"]
    # A 6 brings the yard out; 54 + 6 still passes HOME.
    state = ludo_play(ludo_at_roll(RED, {RED: [YARD, 10, 54, HOME], YELLOW: [YARD] * 4}), 6)
    assert reasons(LUDO, state) == [None, None, "Needs exactly 2 to reach HOME", "Already HOME"]


def test_ludo_refusal_and_reason_read_the_same_stop():
    # The turn machine's refusal words what stops the piece its own way
    # (parcheesi.games.ludo.stuck.what_stops, one answer for both).
    state = ludo_play(ludo_at_roll(RED, {RED: [YARD, 10, 54, HOME], YELLOW: [YARD] * 4}), 3)
    assert [ludo_stuck.what_stops(at, 3) for at in state.mover] == ["yard", None, "past",
                                                                     "home"]
    for piece, why in ((0, "piece 1 can come out of the yard only on a 6"),
                       (2, "piece 3 needs 2 to reach HOME, not 3"),
                       (3, "piece 4 is already HOME")):
        with pytest.raises(IllegalAction, match=why):
            ludo_apply(state, LudoMove(piece))


def test_ludo_house_rules_add_no_reason_to_a_choice():
    # stars: Red 5 + 3 = 8 is a star with Yellow on it (Yellow 34 stands on square 8): safe,
    # so no capture, but Red still moves there. capture_all: the move takes both.
    pieces = {RED: [5, YARD, YARD, YARD], YELLOW: [34, 34, YARD, YARD]}
    for house in [("stars",), ("capture_all",)]:
        state = ludo_play(ludo_at_roll(RED, pieces, house=house), 3)
        assert reasons(LUDO, state) == [None] + ["Needs a 6 to come out of the yard"] * 3
    # six_again: a 6 nobody can use (54 + 6 > 56) rolls again: nothing to choose yet.
    state = ludo_play(ludo_at_roll(RED, {RED: [54, HOME, HOME, HOME], YELLOW: [YARD] * 4},
                                   house=("six_again",)), 6)
    assert state.phase is Phase.ROLL and state.turn == RED
    assert reasons(LUDO, state) == ["Roll the die first"] + ["Already HOME"] * 3
    # third_six: the third 6 in a row is void and the turn passes.
    state = ludo_play(ludo_at_roll(RED, {RED: [10, YARD, YARD, YARD], YELLOW: [YARD] * 4},
                                   house=("third_six",), sixes=2), 6)
    assert state.turn == YELLOW and reasons(LUDO, state) == ["Roll the die first"] * 4


def test_ludo_play_on_question_and_game_over():
    # Red 55 + 1 reaches HOME with Red's fourth piece: three players are asked, two are over.
    three = ludo_at_roll(RED, {RED: [55, HOME, HOME, HOME], GREEN: [YARD] * 4,
                               YELLOW: [YARD] * 4})
    asked = ludo_play(three, 1, LudoMove(0))
    assert asked.phase is Phase.PLAY_ON
    assert reasons(LUDO, asked) == ["Answer the question first"] * 4
    over = ludo_play(ludo_at_roll(RED, {RED: [55, HOME, HOME, HOME], YELLOW: [YARD] * 4}),
                     1, LudoMove(0))
    assert over.phase is Phase.OVER and reasons(LUDO, over) == [None] * 4
    assert reasons(LUDO, ludo_play(asked, PlayOn(False))) == [None] * 4


def test_ludo_no_such_piece():
    with pytest.raises(ValueError, match="no piece"):
        LUDO.stuck_reason(ludo_new_state((RED, YELLOW)), 4)


def test_a_game_without_reasons_says_nothing():
    assert RACE.why_stuck is None
    state = RACE.new_state((0, 1))
    assert reasons(RACE, state) == [None] * 4


# --- every game: a property of random games -----------------------------------------------------

MAX_SENTENCE = 90
UNEXPLAINED = {parcheesi_stuck.UNEXPLAINED}
"""What the games say when they find no reason: never expected."""


def check_random_game(rules: AnyRules, seed: int, pick: int) -> set[str]:
    """Play a game of random choices through the interface; at every position, for every
    piece of the player to act, the reason is None exactly when a choice moves that piece,
    else one short line (always None in a game without reasons). Returns the sentences
    said."""
    rng = random.Random(pick)
    sizes = [n for n in (2, 3, 4) if rules.colour_sets(n)]
    colours = rng.choice(rules.colour_sets(rng.choice(sizes)))
    house = tuple(h for h in rules.house_rules if rng.random() < 0.4)
    state = rules.new_state(colours, house)
    dice = rules.dice(seed)
    said: set[str] = set()
    while not rules.over(state):
        options = rules.choices(state)
        movable = pieces_to_choose(options)
        for piece in range(4):
            why = rules.stuck_reason(state, piece)
            stuck = piece not in movable and rules.why_stuck is not None
            assert (why is not None) == stuck, (state, piece, why, options)
            if why is not None:
                assert why.strip() == why and why and "\n" not in why, why
                assert len(why) < MAX_SENTENCE and why not in UNEXPLAINED, (state, piece, why)
                said.add(why)
        state, _ = rules.apply(state, rng.choice(options).action, dice)
    assert reasons(rules, state) == [None] * 4
    return said


@pytest.mark.parametrize("kind", [*games(), RACE.kind])
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), pick=st.integers(0, 2**32 - 1))
def test_a_piece_is_stuck_exactly_when_no_choice_moves_it(kind: str, seed: int,
                                                          pick: int) -> None:
    rules = RACE if kind == RACE.kind else games()[kind]
    said = check_random_game(rules, seed, pick)
    if rules.why_stuck is None:
        assert not said


def test_ludo_what_stops_a_piece_for_every_place_and_die():
    """docs/rules/ludo.md 3: the yard needs a 6, HOME the exact count, HOME moves no more."""
    for die in range(1, 7):
        for at in [YARD, *range(HOME + 1)]:
            expected = ("home" if at == HOME else ("yard" if die != 6 else None)
                        if at == YARD else "past" if at + die > HOME else None)
            assert ludo_stuck.what_stops(at, die) == expected, (at, die)
            assert (ludo_stuck.die_reason(at, die) is None) == (expected is None)
