"""Named scenario tests: one or more concrete positions per rule and Decision of
docs/rules/parcheesi.md.

Every expectation below is worked out by hand from docs/rules/parcheesi.md; the comments show the
square arithmetic. Track square of progress p for a colour with turn-off t is (t + 5 + p) mod 68
(Ruby t=0, Emerald 17, Sapphire 34, Amber 51); progress 63 is the turn-off square, 64..70
the home lane, 71 HOME. Ruby's safe progresses are therefore
{0, 7, 12, 17, 24, 29, 34, 41, 46, 51, 58, 63} (squares 5, 12, 17, 22, 29, 34, 39, 46, 51,
56, 63, 0).
"""

from __future__ import annotations

import json

import pytest
from dice_helpers import fixed
from positions import (
    AMBER,
    EMERALD,
    HOME,
    RUBY,
    SAFE,
    SAPPHIRE,
    START,
    H,
    S,
    at_roll,
    expect,
    outcomes,
    pos,
    progress_on,
    request,
    rolled,
    square,
    steps,
)

from parcheesi.__main__ import outcomes_json
from parcheesi.core.actions import Roll
from parcheesi.core.events import (
    Captured,
    Entered,
    Moved,
    NoMove,
    OpeningTied,
    ReachedHome,
    Rolled,
    Starts,
    TurnPassed,
    Won,
)
from parcheesi.core.notation import NotationError
from parcheesi.core.state import IllegalAction, Phase
from parcheesi.games.parcheesi.board import SAFE_SQUARES, entry_square, track_square, turn_off
from parcheesi.games.parcheesi.notation import request_from_json, state_to_json
from parcheesi.games.parcheesi.state import new_state
from parcheesi.games.parcheesi.turns import (
    Move,
    Penalty,
    Reward,
    RewardsForfeited,
    apply,
    combined_moves,
    legal_actions,
    legal_rewards,
    legal_steps,
    roll_outcomes,
)

ALL_START = [S, S, S, S]


def play(state, *actions):
    """Apply actions in turn; return the final state and all events."""
    events = []
    for action in actions:
        state, new = apply(state, action)
        events.extend(new)
    return state, events


def kinds(events):
    return [type(e) for e in events]


# --- 1. Seats, colours, order ---------------------------------------------------------------

def test_opening_roll_highest_total_starts():
    state = new_state((RUBY, EMERALD, SAPPHIRE, AMBER))
    assert state.phase is Phase.OPENING
    # Ruby 3+4=7, Emerald 6+5=11, Sapphire 2+2=4, Amber 1+3=4: Emerald is highest.
    for dice in [(3, 4), (6, 5), (2, 2), (1, 3)]:
        state, events = apply(state, Roll(), dice)
    assert events[-1] == Starts(EMERALD)
    assert state.phase is Phase.ROLL
    assert state.turn == EMERALD
    assert state.pieces[EMERALD] == (START,) * 4


def test_opening_roll_rerolls_only_the_tied_leaders():
    state = new_state((RUBY, EMERALD, SAPPHIRE, AMBER))
    dice = fixed([
        (6, 5), (1, 1), (5, 6), (6, 4),  # Ruby 11, Emerald 2, Sapphire 11, Amber 10: tie
        (2, 2), (3, 1),                  # only Ruby and Sapphire reroll: 4 and 4, tie again
        (6, 6), (1, 2),                  # Ruby 12, Sapphire 3: Ruby starts
    ])
    rollers = []
    all_events = []
    while state.phase is Phase.OPENING:
        rollers.append(state.turn)
        state, events = apply(state, Roll(), dice)
        all_events.extend(events)
    assert rollers == [RUBY, EMERALD, SAPPHIRE, AMBER, RUBY, SAPPHIRE, RUBY, SAPPHIRE]
    ties = [e for e in all_events if isinstance(e, OpeningTied)]
    assert ties == [OpeningTied((RUBY, SAPPHIRE)), OpeningTied((RUBY, SAPPHIRE))]
    assert all_events[-1] == Starts(RUBY)
    assert state.turn == RUBY and state.phase is Phase.ROLL
    assert state.rolls == 8


def test_turn_order_skips_inactive_colours_in_a_three_player_game():
    # Ruby, Emerald and Amber play; Sapphire is inactive (no pieces at all).
    state = new_state((AMBER, RUBY, EMERALD))
    assert state.colours == (RUBY, EMERALD, AMBER)
    assert state.pieces[SAPPHIRE] == ()
    # Opening: Ruby 2+1=3, Emerald 2+2=4, Amber 6+6=12 -> Amber starts.
    for dice in [(2, 1), (2, 2), (6, 6)]:
        state, _ = apply(state, Roll(), dice)
    assert state.turn == AMBER
    # All pieces in START and no 5 (and no sum 5): nothing moves, the turn passes on.
    turns = []
    for dice in [(6, 3), (2, 1), (3, 1), (6, 2)]:
        state, events = apply(state, Roll(), dice)
        assert NoMove in kinds(events)
        turns.append(state.turn)
    # Amber -> Ruby (wrapping round), Ruby -> Emerald, Emerald -> Amber (skipping Sapphire).
    assert turns == [RUBY, EMERALD, AMBER, RUBY]


def test_two_player_game_must_use_an_opposite_pair_and_colours_once():
    with pytest.raises(ValueError):
        new_state((RUBY, EMERALD))
    with pytest.raises(ValueError):
        new_state((RUBY, RUBY, SAPPHIRE))
    assert new_state((SAPPHIRE, RUBY)).colours == (RUBY, SAPPHIRE)
    assert new_state((EMERALD, AMBER)).colours == (EMERALD, AMBER)
    with pytest.raises(NotationError):
        request_from_json(request("ruby", {"ruby": ALL_START, "amber": ALL_START}))


# --- 2. The board -----------------------------------------------------------------------------

def test_board_turn_off_entry_and_safe_squares():
    assert [turn_off(c) for c in range(4)] == [0, 17, 34, 51]
    assert [entry_square(c) for c in range(4)] == [5, 22, 39, 56]
    assert set(SAFE_SQUARES) == {0, 5, 12, 17, 22, 29, 34, 39, 46, 51, 56, 63} == SAFE
    # Progress 63 is the colour's own turn-off square: Ruby (0+5+63)%68=0,
    # Emerald (17+5+63)%68=17, Sapphire 34, Amber 51.
    assert [track_square(c, 63) for c in range(4)] == [0, 17, 34, 51]
    # Emerald 45 -> (22+45)=67, Emerald 46 -> 68%68=0: the track wraps 67 -> 0.
    assert track_square(EMERALD, 45) == 67
    assert track_square(EMERALD, 46) == 0


def test_wrap_from_square_67_to_0_lands_and_captures_past_the_seam():
    # Emerald 44 is square (22+44)=66; +4 -> progress 48, square 70%68=2 (not safe).
    # Amber 14 is square (56+14)%68=2: a single there is captured.
    assert square(EMERALD, 44) == 66 and square(EMERALD, 48) == 2
    assert square(AMBER, 14) == 2 == square(EMERALD, progress_on(EMERALD, 2)) and 2 not in SAFE
    pieces = {"emerald": [44, H, H, H], "amber": [14, S, S, S]}
    state, _ = rolled("emerald", pieces, (4, 6))
    after, events = apply(state, Move(0, (4,)))
    assert [e for e in events if isinstance(e, Moved)] == [Moved(EMERALD, 0, 44, 48, 4)]
    assert [e for e in events if isinstance(e, Captured)] == [Captured(AMBER, 0, EMERALD, 0, 14)]
    assert after.pieces[AMBER] == (START,) * 4
    # Whole roll: 4 then 6 captures and ends on 54 (square 76%68=8); 6 first goes to 50
    # (square 4) and the 4 then passes the single on square 2 to 54. The 20 from 54 would
    # overshoot HOME (74 > 71), so it is forfeited.
    assert outcomes("emerald", pieces, (4, 6)) == expect(
        pos(emerald=[54, H, H, H], amber=[S, S, S, S]),
        pos(emerald=[54, H, H, H], amber=[14, S, S, S]),
    )


def test_turn_off_square_is_track_so_a_blockade_there_bars_the_home_lane():
    # Amber 12 is square (56+12)%68=0, Ruby's turn-off square = Ruby progress 63.
    assert square(AMBER, 12) == 0 == square(RUBY, 63)
    # Ruby 60+3 = 63 would land on the blockade; 60+5 = 65, 62+3 = 65 and 62+5 = 67 would
    # pass it into the lane. Nothing can move.
    pieces = {"ruby": [60, 62, H, H], "sapphire": ALL_START, "amber": [12, 12, S, S]}
    state, events = rolled("ruby", pieces, (5, 3))
    assert NoMove in kinds(events)
    assert state.turn == SAPPHIRE
    assert state.pieces[RUBY] == (60, 62, HOME, HOME)


def test_turn_off_square_single_opponent_is_passed_but_not_landed_on():
    # Amber single on square 0 (Ruby 63, a safe square): Ruby 60+3=63 may not land there,
    # 60+5=65 passes it into the lane, then +3 = 68.
    pieces = {"ruby": [60, H, H, H], "sapphire": ALL_START, "amber": [12, S, S, S]}
    state, _ = rolled("ruby", pieces, (5, 3))
    assert steps(legal_steps(state)) == {(0, (5,))}
    assert outcomes("ruby", pieces, (5, 3)) == expect(
        pos(ruby=[68, H, H, H], sapphire=ALL_START, amber=[12, S, S, S]),
    )


# --- 3. Portions --------------------------------------------------------------------------------

def test_non_doubles_give_the_two_die_values():
    state, _ = rolled("ruby", {"ruby": [10, 20, H, H], "sapphire": ALL_START}, (6, 2))
    assert state.portions == (6, 2) and not state.four


def test_doubles_with_a_piece_in_start_give_two_portions():
    state, _ = rolled("ruby", {"ruby": [S, 10, 20, 30], "sapphire": ALL_START}, (3, 3))
    assert state.portions == (3, 3) and not state.four


def test_doubles_with_no_piece_in_start_give_four_portions_home_not_counting():
    # Two pieces HOME, two on the track: no piece in START -> tops and bottoms 3,3,4,4.
    state, _ = rolled("ruby", {"ruby": [H, H, 10, 20], "sapphire": ALL_START}, (3, 3))
    assert sorted(state.portions) == [3, 3, 4, 4] and state.four
    state, _ = rolled("ruby", {"ruby": [H, H, 10, 20], "sapphire": ALL_START}, (6, 6))
    assert sorted(state.portions) == [1, 1, 6, 6]


def test_each_portion_moves_one_piece_its_full_count_in_any_order():
    # Ruby 66 cannot use the 6 (72 > 71) nor part of it; 66+1=67 then +6 is 73.
    # The piece on 20 takes 6 and 1 in either order (26, 27).
    pieces = {"ruby": [66, 20, H, H], "sapphire": ALL_START}
    assert outcomes("ruby", pieces, (6, 1)) == expect(
        pos(ruby=[26, 67, H, H], sapphire=ALL_START),
        pos(ruby=[27, 66, H, H], sapphire=ALL_START),
    )
    state, _ = rolled("ruby", pieces, (6, 1))
    assert steps(legal_steps(state)) == {(0, (1,)), (1, (1,)), (1, (6,))}
    assert [tuple(sorted(m.portions)) for m in combined_moves(state, 1)] == [(1, 6)]
    assert combined_moves(state, 0) == []


# --- 3.1 Entering -------------------------------------------------------------------------------

def test_entry_needs_a_five_or_both_portions_summing_to_five():
    pieces = {"ruby": ALL_START, "sapphire": ALL_START}
    # 5+3: the 5 enters onto progress 0, the 3 must then move the entered piece to 3.
    assert outcomes("ruby", pieces, (5, 3)) == expect(pos(ruby=[S, S, S, 3], sapphire=ALL_START))
    # 4+1 and 2+3: both portions together enter one piece.
    for dice in [(4, 1), (1, 4), (2, 3)]:
        assert outcomes("ruby", pieces, dice) == expect(pos(ruby=[S, S, S, 0],
                                                            sapphire=ALL_START))
    # 6+3: no 5 and the sum is 9: nothing can leave START, the turn passes.
    state, events = rolled("ruby", pieces, (6, 3))
    assert NoMove in kinds(events) and state.turn == SAPPHIRE
    assert state.pieces[RUBY] == (START,) * 4


def test_one_plus_four_entry_is_mandatory_even_when_the_one_or_the_four_could_move():
    # The piece on 10 could move 1 (to 11) or 4 (to 14), but entering (1+4) is legal,
    # so it is mandatory and uses both portions.
    pieces = {"ruby": [S, S, S, 10], "sapphire": ALL_START}
    assert outcomes("ruby", pieces, (1, 4)) == expect(pos(ruby=[S, S, 0, 10],
                                                          sapphire=ALL_START))
    state, _ = rolled("ruby", pieces, (1, 4))
    assert steps(legal_steps(state)) == {(0, (1, 4)), (1, (1, 4)), (2, (1, 4))}
    with pytest.raises(IllegalAction):
        apply(state, Move(3, (1,)))
    with pytest.raises(IllegalAction):
        apply(state, Move(3, (4,)))


def test_two_plus_three_entry_uses_both_portions():
    pieces = {"ruby": [S, S, 20, 30], "sapphire": ALL_START}
    assert outcomes("ruby", pieces, (3, 2)) == expect(pos(ruby=[S, 0, 20, 30],
                                                          sapphire=ALL_START))


def test_entry_with_a_five_is_mandatory_and_the_other_die_moves_any_piece():
    # Enter with the 5; the 3 moves the new piece (0 -> 3) or the old one (10 -> 13).
    # Moving 10 by 5+3 to 18 would leave the entry undone.
    pieces = {"ruby": [S, S, S, 10], "sapphire": ALL_START}
    assert outcomes("ruby", pieces, (5, 3)) == expect(
        pos(ruby=[S, S, 3, 10], sapphire=ALL_START),
        pos(ruby=[S, S, 0, 13], sapphire=ALL_START),
    )


def test_five_five_with_two_pieces_in_start_enters_both():
    pieces = {"ruby": [S, S, 10, 20], "sapphire": ALL_START}
    state, _ = rolled("ruby", pieces, (5, 5))
    assert state.portions == (5, 5)
    assert outcomes("ruby", pieces, (5, 5)) == expect(pos(ruby=[0, 0, 10, 20],
                                                          sapphire=ALL_START))


def test_five_five_with_one_piece_in_start_enters_it_and_moves_a_five():
    # One piece in START -> two portions 5, 5 (not four). One enters; the other 5 moves any
    # piece: 0->5, 10->15, 20->25 or 30->35.
    pieces = {"ruby": [S, 10, 20, 30], "sapphire": ALL_START}
    state, _ = rolled("ruby", pieces, (5, 5))
    assert state.portions == (5, 5) and not state.four
    assert outcomes("ruby", pieces, (5, 5)) == expect(
        pos(ruby=[5, 10, 20, 30], sapphire=ALL_START),
        pos(ruby=[0, 15, 20, 30], sapphire=ALL_START),
        pos(ruby=[0, 10, 25, 30], sapphire=ALL_START),
        pos(ruby=[0, 10, 20, 35], sapphire=ALL_START),
    )


def test_five_five_second_entry_blocked_by_the_blockade_the_first_entry_forms():
    # One own piece already on the entry square (progress 0): the first entry forms a
    # blockade there, so a second piece cannot enter (three on one square). At most one
    # entry; the other 5 moves a piece (0 -> 5 or 20 -> 25).
    pieces = {"ruby": [S, S, 0, 20], "sapphire": ALL_START}
    assert outcomes("ruby", pieces, (5, 5)) == expect(
        pos(ruby=[S, 0, 5, 20], sapphire=ALL_START),
        pos(ruby=[S, 0, 0, 25], sapphire=ALL_START),
    )


def test_five_five_first_entry_captures_and_the_second_joins_it():
    # Emerald 51 is square (22+51)%68=5, Ruby's entry: the first entry captures it (20),
    # the second forms a Ruby blockade on 0. The 20 then moves 0->20 (joining 20),
    # 20->40 or 30->50.
    assert square(EMERALD, 51) == 5
    pieces = {"ruby": [S, S, 20, 30], "emerald": [51, S, S, S], "sapphire": ALL_START}
    assert outcomes("ruby", pieces, (5, 5)) == expect(
        pos(ruby=[0, 20, 20, 30], emerald=ALL_START, sapphire=ALL_START),
        pos(ruby=[0, 0, 30, 40], emerald=ALL_START, sapphire=ALL_START),
        pos(ruby=[0, 0, 20, 50], emerald=ALL_START, sapphire=ALL_START),
    )


def test_entering_comes_before_using_both_portions():
    # Sapphire blockade on 37 = square 8 = Ruby 3; Sapphire single on 51 = square 22 (safe)
    # = Ruby 17. Entering with the 5 leaves the 6 unusable (0+6 passes the blockade, 11+6
    # lands on the safe single). Not entering, 11+5+6 = 22 would use both portions - but a
    # sequence that enters a piece beats any that does not.
    assert square(SAPPHIRE, 37) == 8 == square(RUBY, 3)
    assert square(SAPPHIRE, 51) == 22 == square(RUBY, 17) and 22 in SAFE
    pieces = {"ruby": [S, S, S, 11], "sapphire": [37, 37, 51, S]}
    assert outcomes("ruby", pieces, (5, 6)) == expect(
        pos(ruby=[S, S, 0, 11], sapphire=[37, 37, 51, S]))
    state, _ = rolled("ruby", pieces, (5, 6))
    assert steps(legal_steps(state)) == {(0, (5,)), (1, (5,)), (2, (5,))}
    with pytest.raises(IllegalAction):
        apply(state, Move(3, (5,)))


def test_entry_blocked_by_an_opponent_blockade_lets_the_five_move_a_piece():
    # Two Emerald pieces on 51 = square 5, Ruby's entry: no entry. The 5 (or 1+4) that
    # cannot enter moves the piece on 10 instead: 10+5+3 = 18, 10+1+4 = 15.
    pieces = {"ruby": [S, S, S, 10], "emerald": [51, 51, S, S], "sapphire": ALL_START}
    assert outcomes("ruby", pieces, (5, 3)) == expect(
        pos(ruby=[S, S, S, 18], emerald=[51, 51, S, S], sapphire=ALL_START))
    assert outcomes("ruby", pieces, (4, 1)) == expect(
        pos(ruby=[S, S, S, 15], emerald=[51, 51, S, S], sapphire=ALL_START))


def test_entry_blocked_by_an_own_blockade_on_the_entry_square():
    # Ruby blockade on progress 0; Sapphire blockade on 36 = square (39+36)%68=7 = Ruby 2,
    # so neither Ruby piece can move 3 or 5 past it. Entry would put three on one square.
    assert square(SAPPHIRE, 36) == 7 == square(RUBY, 2)
    pieces = {"ruby": [0, 0, S, S], "sapphire": [36, 36, S, S]}
    state, events = rolled("ruby", pieces, (5, 3))
    assert NoMove in kinds(events)
    assert state.turn == SAPPHIRE and state.pieces[RUBY] == (0, 0, START, START)


def test_entry_is_mandatory_once_a_move_opens_the_own_blockade_on_the_entry_square():
    # Ruby blockade on 0. Moving one piece 3 (to 3) leaves one on 0, so the 5 can then
    # enter beside it: that sequence enters a piece, so it is the only legal one.
    pieces = {"ruby": [0, 0, S, S], "sapphire": ALL_START}
    assert outcomes("ruby", pieces, (5, 3)) == expect(pos(ruby=[S, 0, 0, 3],
                                                          sapphire=ALL_START))
    state, _ = rolled("ruby", pieces, (5, 3))
    assert steps(legal_steps(state)) == {(0, (3,)), (1, (3,))}
    with pytest.raises(IllegalAction):
        apply(state, Move(0, (5,)))


def test_entering_captures_an_opponent_single_on_the_entry_square():
    # Emerald 51 = square 5 (safe, Ruby's entry). Entering captures it anyway: 20 reward.
    pieces = {"ruby": [S, S, S, 20], "emerald": [51, S, S, S], "sapphire": ALL_START}
    state, _ = rolled("ruby", pieces, (5, 2))
    after, events = apply(state, Move(0, (5,)))
    assert Entered(RUBY, 0, (5,)) in events
    assert Captured(EMERALD, 0, RUBY, 0, 51) in events
    assert after.pieces[EMERALD] == (START,) * 4
    assert after.rewards == (20,)
    # Whole roll: enter, 2 on the new piece (2) or on 20 (22), then the 20 on either piece.
    assert outcomes("ruby", pieces, (5, 2)) == expect(
        pos(ruby=[S, S, 20, 22], emerald=ALL_START, sapphire=ALL_START),
        pos(ruby=[S, S, 2, 40], emerald=ALL_START, sapphire=ALL_START),
        pos(ruby=[S, S, 0, 42], emerald=ALL_START, sapphire=ALL_START),
    )


def test_capture_on_an_entry_square_by_entering_but_never_by_moving():
    # Emerald single on square 5 (Ruby's entry, safe). Amber 14 is square (56+14)%68=2;
    # Amber 17 is square 5. Amber moving 14+3 onto it is impossible (safe square); 14+6=20
    # then +3=23 passes it.
    assert square(AMBER, 17) == 5 == square(EMERALD, 51)
    board = {"ruby": ALL_START, "emerald": [51, S, S, S], "amber": [14, H, H, H]}
    state, _ = rolled("amber", board, (3, 6))
    assert steps(legal_steps(state)) == {(0, (6,))}
    assert outcomes("amber", board, (3, 6)) == expect(
        pos(ruby=ALL_START, emerald=[51, S, S, S], amber=[23, H, H, H]))
    # Ruby entering onto square 5 captures the same single: enter (0), move the 6 (0 -> 6),
    # then the 20 (6 -> 26; Amber on square 2 is Ruby 65, off Ruby's track).
    assert outcomes("ruby", board, (5, 6)) == expect(
        pos(ruby=[S, S, S, 26], emerald=ALL_START, amber=[14, H, H, H]))


def test_entering_beside_one_own_piece_forms_a_blockade():
    # Sapphire blockade on 37 = square (39+37)%68=8 = Ruby 3: the 6 cannot move a Ruby
    # piece from 0. The 5 enters beside the piece on 0, forming a blockade.
    assert square(SAPPHIRE, 37) == 8 == square(RUBY, 3)
    pieces = {"ruby": [0, S, S, S], "sapphire": [37, 37, S, S]}
    assert outcomes("ruby", pieces, (5, 6)) == expect(pos(ruby=[S, S, 0, 0],
                                                          sapphire=[37, 37, S, S]))


# --- 3.2 Moving ------------------------------------------------------------------------------

def test_piece_passes_a_single_on_a_safe_square_but_may_not_land_there():
    # Sapphire 46 is square (39+46)%68=17 (safe) = Ruby 12. Ruby 10+2=12 may not land;
    # 10+6=16 passes it, then +2 = 18.
    assert square(SAPPHIRE, 46) == 17 == square(RUBY, 12) and 17 in SAFE
    pieces = {"ruby": [10, H, H, H], "sapphire": [46, S, S, S]}
    state, _ = rolled("ruby", pieces, (6, 2))
    assert steps(legal_steps(state)) == {(0, (6,))}
    with pytest.raises(IllegalAction):
        apply(state, Move(0, (2,)))
    assert outcomes("ruby", pieces, (6, 2)) == expect(
        pos(ruby=[18, H, H, H], sapphire=[46, S, S, S]))


def test_landing_on_an_opponent_single_captures_it_to_start_for_a_20():
    # Sapphire 47 = square (39+47)%68=18 (not safe) = Ruby 13. Ruby 10+3 captures; the 6
    # then goes 13 -> 19 and the 20 takes it to 39 (square 44). 6 first (16) then 3 passes
    # the single to 19: no capture.
    assert square(SAPPHIRE, 47) == 18 == square(RUBY, 13) and 18 not in SAFE
    pieces = {"ruby": [10, S, S, S], "sapphire": [47, S, S, S]}
    state, _ = rolled("ruby", pieces, (3, 6))
    after, events = apply(state, Move(0, (3,)))
    assert Captured(SAPPHIRE, 0, RUBY, 0, 47) in events
    assert after.pieces[SAPPHIRE] == (START,) * 4 and after.rewards == (20,)
    # The reward waits until the dice are used: the 6 comes first.
    assert after.phase is Phase.MOVE and legal_rewards(after) == []
    with pytest.raises(IllegalAction):
        apply(after, Reward(0, 20))
    assert outcomes("ruby", pieces, (3, 6)) == expect(
        pos(ruby=[S, S, S, 39], sapphire=ALL_START),
        pos(ruby=[S, S, S, 19], sapphire=[47, S, S, S]),
    )


def test_opponent_blockade_may_be_neither_passed_nor_landed_on():
    # Sapphire 48 = square (39+48)%68=19 = Ruby 14. Ruby 10+4 lands on it, 10+6 passes it:
    # the piece on 10 cannot move; the piece on 30 takes both: 40.
    assert square(SAPPHIRE, 48) == 19 == square(RUBY, 14)
    pieces = {"ruby": [10, 30, H, H], "sapphire": [48, 48, S, S]}
    assert outcomes("ruby", pieces, (4, 6)) == expect(
        pos(ruby=[10, 40, H, H], sapphire=[48, 48, S, S]))


def test_blockade_met_by_the_second_portion_but_not_the_first():
    # Same blockade on Ruby 14. 10+3 = 13 stops short, but the 5 from 13 would pass 14,
    # so 10 -> 18 (3 then 5) is illegal; 10+5 passes it directly.
    pieces = {"ruby": [10, 30, H, H], "sapphire": [48, 48, S, S]}
    assert outcomes("ruby", pieces, (3, 5)) == expect(
        pos(ruby=[13, 35, H, H], sapphire=[48, 48, S, S]),
        pos(ruby=[10, 38, H, H], sapphire=[48, 48, S, S]),
    )
    state, _ = rolled("ruby", pieces, (3, 5))
    assert (0, (3,)) in steps(legal_steps(state))
    assert combined_moves(state, 0) == []
    with pytest.raises(IllegalAction):
        apply(state, Move(0, (3, 5)))


def test_own_blockade_may_be_neither_passed_nor_landed_on():
    # Ruby blockade on 20, third piece on 15: 15+5 would land on it, 15+2=17 then +5=22
    # would pass it. Once a blockade piece moves off, the 15 may pass or join the other.
    pieces = {"ruby": [20, 20, 15, H], "sapphire": ALL_START}
    state, _ = rolled("ruby", pieces, (5, 2))
    assert steps(legal_steps(state)) == {(0, (5,)), (1, (5,)), (0, (2,)), (1, (2,)),
                                         (2, (2,))}
    # 15+2 & 20+5; 20+5 & 20+2 (not together: 25, 22); 20+5+2; 20+2 then 15+5 joins the
    # single left on 20.
    assert outcomes("ruby", pieces, (5, 2)) == expect(
        pos(ruby=[17, 20, 25, H], sapphire=ALL_START),
        pos(ruby=[15, 22, 25, H], sapphire=ALL_START),
        pos(ruby=[15, 20, 27, H], sapphire=ALL_START),
        pos(ruby=[20, 20, 22, H], sapphire=ALL_START),
    )


def test_own_blockade_in_the_home_lane_may_be_neither_passed_nor_landed_on():
    # Ruby blockade on lane square 67, third piece on 65: 65+2 = 67 would land on it,
    # 65+4 = 69 would pass it. 67+4 = 71 is HOME; 67+2 = 69.
    pieces = {"ruby": [67, 67, 65, H], "sapphire": ALL_START}
    state, _ = rolled("ruby", pieces, (4, 2))
    assert steps(legal_steps(state)) == {(0, (4,)), (1, (4,)), (0, (2,)), (1, (2,))}
    # 67 HOME & other 67+2=69; 67 HOME & 65+2=67 (joins the single); 67+2=69 then 65+4=69
    # (passes the single on 67, joins 69). Each 10 is forfeited (65, 67, 69 + 10 > 71).
    assert outcomes("ruby", pieces, (4, 2)) == expect(
        pos(ruby=[65, 69, H, H], sapphire=ALL_START),
        pos(ruby=[67, 67, H, H], sapphire=ALL_START),
        pos(ruby=[67, 69, 69, H], sapphire=ALL_START),
    )


def test_blockade_formed_by_one_portion_blocks_the_next_so_order_matters():
    # Ruby 10, 13, 11. 10+3 = 13 forms a blockade with 13; after that 11+4 = 15 would pass
    # it. Played the other way round (11+4 = 15 passing the single, then 10+3) both work.
    pieces = {"ruby": [10, 13, 11, H], "sapphire": ALL_START}
    assert outcomes("ruby", pieces, (3, 4)) == expect(
        pos(ruby=[11, 13, 17, H], sapphire=ALL_START),  # 10+3+4, or 10+3 & 13+4
        pos(ruby=[10, 11, 20, H], sapphire=ALL_START),  # 13+3+4
        pos(ruby=[10, 13, 18, H], sapphire=ALL_START),  # 11+3+4
        pos(ruby=[11, 14, 16, H], sapphire=ALL_START),  # 10+4 & 13+3
        pos(ruby=[13, 13, 15, H], sapphire=ALL_START),  # 11+4 first, then 10+3
        pos(ruby=[13, 14, 14, H], sapphire=ALL_START),  # 10+4 & 11+3
        pos(ruby=[10, 15, 16, H], sapphire=ALL_START),  # 13+3 & 11+4
        pos(ruby=[10, 14, 17, H], sapphire=ALL_START),  # 13+4 & 11+3
    )
    state, _ = rolled("ruby", pieces, (3, 4))
    after, _ = apply(state, Move(0, (3,)))
    assert after.mover == (13, 13, 11, HOME)
    assert steps(legal_steps(after)) == {(0, (4,)), (1, (4,))}
    with pytest.raises(IllegalAction):
        apply(after, Move(2, (4,)))
    first, _ = apply(state, Move(2, (4,)))
    final, _ = apply(first, Move(0, (3,)))
    assert final.pieces[RUBY] == (13, 13, 15, HOME) and final.turn == SAPPHIRE


def test_home_needs_the_exact_count():
    # 68+3 = 71 is HOME; 68+4 = 72 is past it. The 10 is forfeited: only START pieces left.
    pieces = {"ruby": [68, S, S, S], "sapphire": ALL_START}
    state, _ = rolled("ruby", pieces, (4, 3))
    assert steps(legal_steps(state)) == {(0, (3,))}
    with pytest.raises(IllegalAction):
        apply(state, Move(0, (4,)))
    after, events = apply(state, Move(0, (3,)))
    assert ReachedHome(RUBY, 0) in events
    assert RewardsForfeited(RUBY, (10,)) in events
    assert after.pieces[RUBY] == (HOME, START, START, START)
    assert after.turn == SAPPHIRE
    # 68 + 4 or 6 overshoots: nothing moves at all.
    state, events = rolled("ruby", pieces, (4, 6))
    assert NoMove in kinds(events) and state.pieces[RUBY] == (68, START, START, START)


def test_reaching_home_earns_a_10_reward():
    # 68+3 HOME (10), 20+6 = 26, then the 10: 26 -> 36. Or 20+3+6 = 29 (68+6 overshoots).
    pieces = {"ruby": [68, 20, H, H], "sapphire": ALL_START}
    assert outcomes("ruby", pieces, (3, 6)) == expect(
        pos(ruby=[36, H, H, H], sapphire=ALL_START),
        pos(ruby=[29, 68, H, H], sapphire=ALL_START),
    )
    state, _ = rolled("ruby", pieces, (3, 6))
    state, events = play(state, Move(0, (3,)), Move(1, (6,)))
    assert ReachedHome(RUBY, 0) in events
    assert state.phase is Phase.REWARD and state.rewards == (10,)
    assert legal_rewards(state) == [Reward(1, 10)]
    state, events = apply(state, Reward(1, 10))
    assert Moved(RUBY, 1, 26, 36, 10, reward=True) in events
    assert state.turn == SAPPHIRE


def test_no_square_ever_holds_more_than_two_pieces():
    # Ruby blockade on 20, third piece on 17: 17+3 = 20 would make three on one square.
    pieces = {"ruby": [20, 20, 17, H], "sapphire": ALL_START}
    state, _ = rolled("ruby", pieces, (3, 6))
    assert steps(legal_steps(state)) == {(0, (3,)), (1, (3,)), (0, (6,)), (1, (6,))}
    with pytest.raises(IllegalAction):
        apply(state, Move(2, (3,)))
    # Positions with three pieces on a square (or two colours on one) are rejected.
    with pytest.raises(NotationError):
        request_from_json(request("ruby", {"ruby": [20, 20, 20, S], "sapphire": ALL_START}))
    with pytest.raises(NotationError):
        request_from_json(request("ruby", {"ruby": [66, 66, 66, S], "sapphire": ALL_START}))
    with pytest.raises(NotationError):  # Ruby 34 and Sapphire 0 are both square 39
        request_from_json(request("ruby", {"ruby": [34, S, S, S], "sapphire": [0, S, S, S]}))


# --- 3.3 Which sequences are legal -------------------------------------------------------------

def test_two_portion_roll_must_use_both_portions_when_it_can():
    # Sapphire blockade on its entry 39 = Ruby 34. Ruby 65+6 = HOME and 30+2 = 32 uses both.
    # 65+2 = 67 alone is a legal single move, but then the 6 fits nowhere (67+6 > 71, 30+6
    # passes 34): it uses one portion only, so it is not offered. The 10 (32+10 passes 34)
    # is forfeited.
    assert square(RUBY, 34) == 39 == square(SAPPHIRE, 0)
    pieces = {"ruby": [65, 30, H, H], "sapphire": [0, 0, S, S]}
    state, _ = rolled("ruby", pieces, (6, 2))
    assert steps(legal_steps(state)) == {(0, (6,)), (1, (2,))}
    with pytest.raises(IllegalAction):
        apply(state, Move(0, (2,)))
    assert outcomes("ruby", pieces, (6, 2)) == expect(
        pos(ruby=[32, H, H, H], sapphire=[0, 0, S, S]))


def test_two_portion_roll_either_die_when_only_one_can_be_used():
    # Only the piece on 65 can move: 65+6 = HOME or 65+2 = 67, never both (67+6 > 71).
    # Either die may be chosen; the higher one is not required.
    pieces = {"ruby": [S, 65, H, H], "sapphire": ALL_START}
    state, _ = rolled("ruby", pieces, (6, 2))
    assert steps(legal_steps(state)) == {(1, (6,)), (1, (2,))}
    assert outcomes("ruby", pieces, (6, 2)) == expect(
        pos(ruby=[S, 67, H, H], sapphire=ALL_START),
        pos(ruby=[S, H, H, H], sapphire=ALL_START),
    )
    after, _ = apply(state, Move(1, (2,)))
    assert after.turn == SAPPHIRE and after.pieces[RUBY] == (START, 67, HOME, HOME)


def test_four_portion_roll_uses_all_four_portions_by_any_pieces():
    # 2-2 with no piece in START: portions 5,5,2,2 (sum 14). The piece on 60 can take
    # 0, 2, 4, 5, 7, 9 or 10 of them (11 is no sub-sum, 12 and 14 overshoot 71); the piece
    # on 10 takes the rest.
    pieces = {"ruby": [10, 60, H, H], "sapphire": ALL_START}
    state, _ = rolled("ruby", pieces, (2, 2))
    assert sorted(state.portions) == [2, 2, 5, 5]
    assert outcomes("ruby", pieces, (2, 2)) == expect(
        pos(ruby=[24, 60, H, H], sapphire=ALL_START),
        pos(ruby=[22, 62, H, H], sapphire=ALL_START),
        pos(ruby=[20, 64, H, H], sapphire=ALL_START),
        pos(ruby=[19, 65, H, H], sapphire=ALL_START),
        pos(ruby=[17, 67, H, H], sapphire=ALL_START),
        pos(ruby=[15, 69, H, H], sapphire=ALL_START),
        pos(ruby=[14, 70, H, H], sapphire=ALL_START),
    )


def test_four_portion_roll_where_only_three_portions_fit_moves_nothing():
    # 3-3, no piece in START: 4,4,3,3. Sapphire blockade on 45 = square (39+45)%68=16 =
    # Ruby 11 freezes the piece on 10. The piece on 60 can take 4+4+3 = 11 (to 71) but not
    # all 14. Three portions fit, four do not: nothing moves, but the doubles roll again.
    assert square(SAPPHIRE, 45) == 16 == square(RUBY, 11)
    pieces = {"ruby": [10, 60, H, H], "sapphire": [45, 45, S, S]}
    state, events = rolled("ruby", pieces, (3, 3))
    assert NoMove in kinds(events)
    assert legal_steps(state) == []
    assert state.pieces[RUBY] == (10, 60, HOME, HOME)
    assert state.phase is Phase.ROLL and state.turn == RUBY and state.doubles == 1
    assert outcomes("ruby", pieces, (3, 3)) == expect(
        pos(ruby=[10, 60, H, H], sapphire=[45, 45, S, S]))


def test_four_portion_roll_is_all_or_nothing_even_when_three_would_bring_the_last_piece_home():
    # Last piece on 60, 3-3 -> 4,4,3,3: 60+4+4+3 = 71 is HOME with three portions, but all
    # four (74) do not fit, so nothing moves and the player rolls again.
    pieces = {"ruby": [60, H, H, H], "sapphire": ALL_START}
    state, events = rolled("ruby", pieces, (3, 3))
    assert NoMove in kinds(events)
    assert state.pieces[RUBY] == (60, HOME, HOME, HOME)
    assert state.phase is Phase.ROLL and state.turn == RUBY and state.winner is None
    assert outcomes("ruby", pieces, (3, 3)) == expect(pos(ruby=[60, H, H, H],
                                                          sapphire=ALL_START))


def test_a_player_may_be_forced_to_break_a_blockade():
    # Only the blockade on 10 can move: 10+6+2 = 18, or 10+6 and 10+2 (16, 12).
    pieces = {"ruby": [10, 10, S, S], "sapphire": ALL_START}
    assert outcomes("ruby", pieces, (6, 2)) == expect(
        pos(ruby=[S, S, 10, 18], sapphire=ALL_START),
        pos(ruby=[S, S, 12, 16], sapphire=ALL_START),
    )


def test_pieces_in_home_never_form_a_blockade():
    # Two pieces already HOME; 68+3 = 71 brings a third there (HOME is no square of two).
    pieces = {"ruby": [H, H, 68, S], "sapphire": ALL_START}
    state, _ = rolled("ruby", pieces, (3, 6))
    assert steps(legal_steps(state)) == {(2, (3,))}
    assert outcomes("ruby", pieces, (3, 6)) == expect(pos(ruby=[S, H, H, H],
                                                          sapphire=ALL_START))
    assert at_roll("ruby", {"ruby": [H, H, 10, 10], "sapphire": ALL_START}).pairs == ((2, 3),)


# --- 3.4 Blockades may not move together ------------------------------------------------------

def test_blockade_pair_may_not_move_together_with_the_dice():
    # Pair on 10 at the start of the turn; 4-4 with a piece in START -> two 4s.
    # 10+4 and 10+4 would put the pair together on 14: not allowed.
    pieces = {"ruby": [10, 10, 30, S], "sapphire": ALL_START}
    assert outcomes("ruby", pieces, (4, 4)) == expect(
        pos(ruby=[S, 10, 18, 30], sapphire=ALL_START),
        pos(ruby=[S, 10, 14, 34], sapphire=ALL_START),
        pos(ruby=[S, 10, 10, 38], sapphire=ALL_START),
    )
    state, _ = rolled("ruby", pieces, (4, 4))
    after, _ = apply(state, Move(0, (4,)))
    assert steps(legal_steps(after)) == {(0, (4,)), (2, (4,))}
    with pytest.raises(IllegalAction):
        apply(after, Move(1, (4,)))


def test_blockade_pair_may_not_rejoin_with_four_portions():
    # 2-2 -> 5,5,2,2 on a pair on 10. Splits of the 14: 0/14, 2/12, 4/10, 5/9 and 7/7 -
    # the last would bring the pair together on 17 and is not allowed.
    pieces = {"ruby": [10, 10, H, H], "sapphire": ALL_START}
    assert outcomes("ruby", pieces, (2, 2)) == expect(
        pos(ruby=[10, 24, H, H], sapphire=ALL_START),
        pos(ruby=[12, 22, H, H], sapphire=ALL_START),
        pos(ruby=[14, 20, H, H], sapphire=ALL_START),
        pos(ruby=[15, 19, H, H], sapphire=ALL_START),
    )


def test_four_portions_that_fit_only_by_rejoining_a_pair_move_nothing():
    # Pair on 10, Sapphire blockade on 52 = square (39+52)%68=23 = Ruby 18: each piece can
    # go at most to 17 (7 squares). 5,5,2,2 (14) fits only as 7 + 7, which would put the
    # pair together on 17: so no four-portion sequence exists and nothing moves.
    assert square(SAPPHIRE, 52) == 23 == square(RUBY, 18)
    pieces = {"ruby": [10, 10, H, H], "sapphire": [52, 52, S, S]}
    state, events = rolled("ruby", pieces, (2, 2))
    assert NoMove in kinds(events)
    assert state.pieces[RUBY] == (10, 10, HOME, HOME)
    assert state.phase is Phase.ROLL and state.turn == RUBY
    assert outcomes("ruby", pieces, (2, 2)) == expect(
        pos(ruby=[10, 10, H, H], sapphire=[52, 52, S, S]))


def test_blockade_pair_restriction_lasts_for_every_roll_of_the_turn():
    # Pair on 10. First roll 4-4: 10 -> 14 and 30 -> 34. Second roll 4-4: the other pair
    # piece may not go 10 -> 14 while its partner stands there.
    state, _ = rolled("ruby", {"ruby": [10, 10, 30, S], "sapphire": ALL_START}, (4, 4))
    state, _ = play(state, Move(0, (4,)), Move(2, (4,)))
    assert state.phase is Phase.ROLL and state.turn == RUBY
    state, _ = apply(state, Roll(), (4, 4))
    assert state.mover == (14, 10, 34, START)
    assert steps(legal_steps(state)) == {(0, (4,)), (2, (4,))}
    with pytest.raises(IllegalAction):
        apply(state, Move(1, (4,)))


def test_blockade_pair_is_the_one_standing_when_the_turn_begins():
    # Ruby's turn: 10+3 joins 13 (a blockade formed during the turn), 30+6 = 36. Sapphire
    # cannot move (6+3), so Ruby's next turn begins with the blockade on 13: now it is a
    # pair, and after 13+4 = 17 the other may not follow with its own 4.
    state = at_roll("ruby", {"ruby": [10, 13, 30, S], "sapphire": ALL_START})
    state, _ = apply(state, Roll(), (3, 6))
    state, _ = play(state, Move(0, (3,)), Move(2, (6,)))
    assert state.turn == SAPPHIRE
    state, _ = apply(state, Roll(), (6, 3))
    assert state.turn == RUBY and state.pieces[RUBY] == (13, 13, 36, START)
    state, _ = apply(state, Roll(), (4, 4))
    state, _ = apply(state, Move(0, (4,)))
    assert steps(legal_steps(state)) == {(0, (4,)), (2, (4,))}
    with pytest.raises(IllegalAction):
        apply(state, Move(1, (4,)))


def test_blockade_pair_may_not_move_together_with_rewards():
    # Pair on 10. Sapphire 57 = square (39+57)%68=28 = Ruby 23; Sapphire 1 = square 40 =
    # Ruby 35 (both not safe). 20+3 and 31+4 capture both: two 20s.
    assert square(SAPPHIRE, 57) == 28 == square(RUBY, 23)
    assert square(SAPPHIRE, 1) == 40 == square(RUBY, 35)
    pieces = {"ruby": [10, 10, 20, 31], "sapphire": [57, 1, S, S]}
    state, _ = rolled("ruby", pieces, (3, 4))
    state, events = play(state, Move(2, (3,)), Move(3, (4,)))
    assert len([e for e in events if isinstance(e, Captured)]) == 2
    assert state.phase is Phase.REWARD and state.rewards == (20, 20)
    # 10+20 = 30, 23+20 = 43, 35+20 = 55: every piece may take a 20.
    assert set(legal_rewards(state)) == {Reward(0, 20), Reward(1, 20), Reward(2, 20),
                                         Reward(3, 20)}
    state, _ = apply(state, Reward(0, 20))
    # Partner on 30 now: 10+20 = 30 would rejoin it.
    assert set(legal_rewards(state)) == {Reward(0, 20), Reward(2, 20), Reward(3, 20)}
    with pytest.raises(IllegalAction):
        apply(state, Reward(1, 20))


def test_blockade_pair_may_both_reach_home_with_the_dice():
    # Pair on lane square 68; 3-3 with pieces in START -> 3, 3: both reach HOME (71).
    # Both 10s are forfeited (only START pieces left) and the doubles roll again.
    pieces = {"ruby": [68, 68, S, S], "sapphire": ALL_START}
    assert outcomes("ruby", pieces, (3, 3)) == expect(pos(ruby=[S, S, H, H],
                                                          sapphire=ALL_START))
    state, _ = rolled("ruby", pieces, (3, 3))
    state, events = play(state, Move(0, (3,)), Move(1, (3,)))
    assert state.pieces[RUBY] == (HOME, HOME, START, START)
    assert RewardsForfeited(RUBY, (10, 10)) in events
    assert state.phase is Phase.ROLL and state.turn == RUBY


def test_blockade_pair_may_both_reach_home_with_rewards():
    # Pair on 61. 66+5 = HOME (10), 20+1 = 21. The 10 takes one pair piece 61 -> 71 (another
    # 10), which takes the other pair piece HOME too.
    pieces = {"ruby": [61, 61, 66, 20], "sapphire": ALL_START}
    state, _ = rolled("ruby", pieces, (5, 1))
    state, _ = play(state, Move(2, (5,)), Move(3, (1,)))
    assert state.rewards == (10,)
    assert set(legal_rewards(state)) == {Reward(0, 10), Reward(1, 10), Reward(3, 10)}
    state, _ = apply(state, Reward(0, 10))
    assert Reward(1, 10) in legal_rewards(state)
    state, _ = apply(state, Reward(1, 10))
    assert state.pieces[RUBY] == (HOME, HOME, HOME, 21)
    assert legal_rewards(state) == [Reward(3, 10)]
    state, _ = apply(state, Reward(3, 10))
    assert state.pieces[RUBY] == (HOME, HOME, HOME, 31) and state.turn == SAPPHIRE


def test_blockade_formed_during_the_turn_may_move_together():
    # 10+3 joins 13 during the first roll (3-3, other 3: 30 -> 33); on the second roll
    # (6-6) both move 6 to 19 together: only pairs standing at the turn's start are bound.
    state, _ = rolled("ruby", {"ruby": [10, 13, 30, S], "sapphire": ALL_START}, (3, 3))
    assert state.pairs == ()
    state, _ = play(state, Move(0, (3,)), Move(2, (3,)))
    assert state.mover == (13, 13, 33, START)
    state, _ = apply(state, Roll(), (6, 6))
    state, _ = play(state, Move(0, (6,)), Move(1, (6,)))
    assert state.mover == (19, 19, 33, START)
    assert state.phase is Phase.ROLL and state.turn == RUBY and state.doubles == 2


# --- 3.5 Rewards -------------------------------------------------------------------------------

def test_reward_that_captures_earns_another_reward():
    # Sapphire 47 = Ruby 13 (square 18), Sapphire 5 = square 44 = Ruby 39 (not safe).
    # 10+3 captures (20), +6 -> 19; the 20 lands on 39 and captures (20); that 20 -> 59
    # (square 64). 6 first then 3 passes the single on 13: 19, no capture.
    assert square(SAPPHIRE, 5) == 44 == square(RUBY, 39) and 44 not in SAFE
    pieces = {"ruby": [10, H, H, H], "sapphire": [47, 5, S, S]}
    state, _ = rolled("ruby", pieces, (3, 6))
    state, _ = play(state, Move(0, (3,)), Move(0, (6,)))
    assert state.rewards == (20,)
    state, events = apply(state, Reward(0, 20))
    assert Captured(SAPPHIRE, 1, RUBY, 0, 5) in events
    assert state.phase is Phase.REWARD and state.rewards == (20,)
    state, _ = apply(state, Reward(0, 20))
    assert state.pieces[RUBY] == (59, HOME, HOME, HOME) and state.turn == SAPPHIRE
    assert outcomes("ruby", pieces, (3, 6)) == expect(
        pos(ruby=[59, H, H, H], sapphire=ALL_START),
        pos(ruby=[19, H, H, H], sapphire=[5, 47, S, S]),
    )


def test_player_chooses_among_pending_rewards_and_pieces():
    # 66+5 = HOME (10); 10+3 = 13 captures Sapphire 47 (20). Pending 10 and 20, both usable
    # by both track pieces (13 and 40) in either order.
    pieces = {"ruby": [66, 10, 40, H], "sapphire": [47, S, S, S]}
    state, _ = rolled("ruby", pieces, (5, 3))
    state, _ = play(state, Move(0, (5,)), Move(1, (3,)))
    assert sorted(state.rewards) == [10, 20]
    assert set(legal_rewards(state)) == {Reward(1, 20), Reward(1, 10), Reward(2, 20),
                                         Reward(2, 10)}
    # Every way to spend them: 13+20+10, 13+20 & 40+10, 40+20 & 13+10, 40+20+10.
    ends = {after.pieces[RUBY] for after, _ in roll_outcomes(state)}
    assert ends == {(HOME, 43, 40, HOME), (HOME, 33, 50, HOME), (HOME, 23, 60, HOME),
                    (HOME, 13, 70, HOME)}
    smaller_first, _ = apply(state, Reward(2, 10))
    assert smaller_first.rewards == (20,)
    assert set(legal_rewards(smaller_first)) == {Reward(1, 20), Reward(2, 20)}


def test_reward_becomes_usable_after_another_reward_move():
    # Sapphire 48 = square 19 = Ruby 14 (ordinary); Sapphire 58 = square 29 = Ruby 24 (safe).
    # 66+5 = HOME (10) and 11+3 = 14 captures (20). Now the 10 (14 -> 24) would land on the
    # safe single: not usable; the 20 (14 -> 34, passing it) is. After it, the 10 takes
    # 34 -> 44 (square 49).
    assert square(SAPPHIRE, 48) == 19 == square(RUBY, 14)
    assert square(SAPPHIRE, 58) == 29 == square(RUBY, 24) and 29 in SAFE
    pieces = {"ruby": [66, 11, H, H], "sapphire": [48, 58, S, S]}
    state, _ = rolled("ruby", pieces, (5, 3))
    state, _ = play(state, Move(0, (5,)), Move(1, (3,)))
    assert sorted(state.rewards) == [10, 20]
    assert legal_rewards(state) == [Reward(1, 20)]
    state, _ = apply(state, Reward(1, 20))
    assert legal_rewards(state) == [Reward(1, 10)]
    state, _ = apply(state, Reward(1, 10))
    assert state.pieces[RUBY] == (HOME, 44, HOME, HOME) and state.turn == SAPPHIRE
    # The whole roll: also 66+3 & 11+5 (69, 16); 11+5+3 = 19 passing 14; 11+3 (capture) +5
    # = 19 then the 20 -> 39 (66+20 overshoots).
    assert outcomes("ruby", pieces, (5, 3)) == expect(
        pos(ruby=[44, H, H, H], sapphire=[S, S, S, 58]),
        pos(ruby=[16, 69, H, H], sapphire=[48, 58, S, S]),
        pos(ruby=[19, 66, H, H], sapphire=[48, 58, S, S]),
        pos(ruby=[39, 66, H, H], sapphire=[S, S, S, 58]),
    )


def test_rewards_are_forfeited_when_no_piece_can_use_them_and_never_enter_a_piece():
    # Sapphire 28 = square 67 = Ruby 62 (not safe). 60+2 captures, +6 -> 68. The 20 would
    # need 68+20 = 88 > 71, and START pieces never take a reward: it is forfeited.
    assert square(SAPPHIRE, 28) == 67 == square(RUBY, 62) and 67 not in SAFE
    pieces = {"ruby": [60, S, S, S], "sapphire": [28, S, S, S]}
    state, _ = rolled("ruby", pieces, (2, 6))
    state, events = play(state, Move(0, (2,)), Move(0, (6,)))
    assert RewardsForfeited(RUBY, (20,)) in events
    assert state.pieces[RUBY] == (68, START, START, START)
    assert state.rewards == () and state.turn == SAPPHIRE
    assert outcomes("ruby", pieces, (2, 6)) == expect(
        pos(ruby=[S, S, S, 68], sapphire=ALL_START),
        pos(ruby=[S, S, S, 68], sapphire=[28, S, S, S]),
    )


def test_usable_reward_is_taken_and_the_unusable_rest_forfeited():
    # Sapphire 19 = square 58 = Ruby 53 (not safe). 66+5 = HOME (10), 50+3 = 53 captures
    # (20). The 20 fits nowhere (53+20 = 73 > 71), the 10 does (53 -> 63, Ruby's empty
    # turn-off square): take the 10, then the 20 is forfeited.
    assert square(SAPPHIRE, 19) == 58 == square(RUBY, 53) and 58 not in SAFE
    pieces = {"ruby": [66, 50, H, H], "sapphire": [19, S, S, S]}
    state, _ = rolled("ruby", pieces, (5, 3))
    state, _ = play(state, Move(0, (5,)), Move(1, (3,)))
    assert sorted(state.rewards) == [10, 20]
    assert legal_rewards(state) == [Reward(1, 10)]
    with pytest.raises(IllegalAction):
        apply(state, Reward(1, 20))
    state, events = apply(state, Reward(1, 10))
    assert RewardsForfeited(RUBY, (20,)) in events
    assert state.pieces[RUBY] == (HOME, 63, HOME, HOME) and state.turn == SAPPHIRE
    # Whole roll: also 66+3 & 50+5 (69, 55); 50+3 (capture) +5 = 58, the 20 forfeited;
    # 50+5+3 = 58 passing the single.
    assert outcomes("ruby", pieces, (5, 3)) == expect(
        pos(ruby=[63, H, H, H], sapphire=ALL_START),
        pos(ruby=[55, 69, H, H], sapphire=[19, S, S, S]),
        pos(ruby=[58, 66, H, H], sapphire=ALL_START),
        pos(ruby=[58, 66, H, H], sapphire=[19, S, S, S]),
    )


def test_all_rewards_are_taken_before_the_next_roll():
    # 3-3 with pieces in START: 10+3 captures Sapphire on 13, +3 -> 16. The doubles give
    # another roll, but only after the 20 (16 -> 36).
    pieces = {"ruby": [10, S, S, S], "sapphire": [47, S, S, S]}
    state, _ = rolled("ruby", pieces, (3, 3))
    state, _ = play(state, Move(0, (3,)), Move(0, (3,)))
    assert state.phase is Phase.REWARD
    assert legal_actions(state) == [Reward(0, 20)]
    with pytest.raises(IllegalAction):
        apply(state, Roll(), (1, 2))
    state, _ = apply(state, Reward(0, 20))
    assert state.pieces[RUBY] == (36, START, START, START)
    assert state.phase is Phase.ROLL and state.turn == RUBY


# --- 3.6 Doubles and the third doubles ---------------------------------------------------------

def test_doubles_earn_another_roll_even_if_nothing_could_move():
    pieces = {"ruby": ALL_START, "sapphire": ALL_START}
    state, events = rolled("ruby", pieces, (3, 3))  # two 3s, no 5, sum 6: nothing moves
    assert NoMove in kinds(events) and TurnPassed not in kinds(events)
    assert state.phase is Phase.ROLL and state.turn == RUBY and state.doubles == 1
    state, events = apply(state, Roll(), (6, 1))  # not doubles, nothing moves: turn passes
    assert events[-1] == TurnPassed(SAPPHIRE)
    assert state.turn == SAPPHIRE and state.doubles == 0


def test_doubles_earn_another_roll_after_the_movement():
    state, _ = rolled("ruby", {"ruby": [10, S, S, S], "sapphire": ALL_START}, (4, 4))
    state, _ = play(state, Move(0, (4,)), Move(0, (4,)))
    assert state.mover == (18, START, START, START)
    assert state.phase is Phase.ROLL and state.turn == RUBY and state.doubles == 1


def test_third_doubles_sends_the_leader_in_the_home_lane_to_start_and_passes_the_turn():
    # Pieces 40, 65 (home lane), START, HOME: the leader is 65 (HOME does not count).
    pieces = {"ruby": [40, 65, S, H], "sapphire": ALL_START}
    state, events = rolled("ruby", pieces, (2, 2), doubles=2)
    assert Penalty(RUBY, 1) in events and events[-1] == TurnPassed(SAPPHIRE)
    assert state.pieces[RUBY] == (40, START, START, HOME)
    assert state.turn == SAPPHIRE and state.doubles == 0
    assert outcomes("ruby", pieces, (2, 2), doubles=2) == expect(
        pos(ruby=[S, S, 40, H], sapphire=ALL_START))


def test_third_doubles_tie_returns_the_lowest_numbered_piece():
    pieces = {"ruby": [30, 30, 10, S], "sapphire": ALL_START}
    state, events = rolled("ruby", pieces, (1, 1), doubles=2)
    assert Penalty(RUBY, 0) in events
    assert state.pieces[RUBY] == (START, 30, 10, START)
    assert state.turn == SAPPHIRE


def test_third_doubles_with_no_piece_out_returns_nothing_and_moves_nothing():
    # 5-5 could enter two pieces, but the third doubles moves nothing.
    pieces = {"ruby": [S, S, H, H], "sapphire": ALL_START}
    state, events = rolled("ruby", pieces, (5, 5), doubles=2)
    assert Penalty(RUBY, None) in events
    assert state.pieces[RUBY] == (START, START, HOME, HOME)
    assert state.turn == SAPPHIRE
    assert outcomes("ruby", pieces, (5, 5), doubles=2) == expect(
        pos(ruby=[S, S, H, H], sapphire=ALL_START))


def test_third_consecutive_doubles_over_a_whole_turn():
    # 4-4: 10 -> 14 -> 18; 3-3: 20 -> 23 -> 26; 6-6 is the third doubles: the leader (26)
    # returns to START, nothing moves, Sapphire is next.
    state = at_roll("ruby", {"ruby": [10, 20, S, S], "sapphire": ALL_START})
    dice = fixed([(4, 4), (3, 3), (6, 6)])
    state, _ = apply(state, Roll(), dice)
    state, _ = play(state, Move(0, (4,)), Move(0, (4,)))
    state, _ = apply(state, Roll(), dice)
    assert state.doubles == 2
    state, _ = play(state, Move(1, (3,)), Move(1, (3,)))
    assert state.mover == (18, 26, START, START) and state.phase is Phase.ROLL
    state, events = apply(state, Roll(), dice)
    assert Penalty(RUBY, 1) in events
    assert state.pieces[RUBY] == (18, START, START, START)
    assert state.turn == SAPPHIRE and state.doubles == 0


# --- 3.7 End of a turn, end of the game ------------------------------------------------------

def test_turn_passes_when_nothing_can_move():
    # Sapphire blockade on 46 = square (39+46)%68=17 = Ruby 12. Ruby 10+4 or 10+6 would pass
    # it, and there is no 5 (nor a sum of 5) to enter.
    assert square(SAPPHIRE, 46) == 17 == square(RUBY, 12)
    pieces = {"ruby": [10, S, S, S], "sapphire": [46, 46, S, S]}
    state, events = rolled("ruby", pieces, (6, 4))
    assert kinds(events) == [Rolled, NoMove, TurnPassed]
    assert state.turn == SAPPHIRE and state.pieces[RUBY] == (10, START, START, START)


def test_win_ends_the_game_at_once_ignoring_pending_rewards_and_the_doubles_roll():
    # Last piece on 57; 4-4 -> 4,4,3,3 (14): 57+14 = 71. Sapphire 26 = square 65 = Ruby 60.
    # 57+3 captures there (20), then 63, 67, 71: HOME (10) and all four HOME: Ruby wins
    # at once: no rewards are taken and no further roll for the doubles.
    assert square(SAPPHIRE, 26) == 65 == square(RUBY, 60) and 65 not in SAFE
    pieces = {"ruby": [57, H, H, H], "sapphire": [26, S, S, S]}
    state, _ = rolled("ruby", pieces, (4, 4))
    state, events = play(state, Move(0, (3,)), Move(0, (3,)), Move(0, (4,)))
    assert Captured(SAPPHIRE, 0, RUBY, 0, 26) in events
    assert state.phase is Phase.MOVE and state.rewards == (20,)
    state, events = apply(state, Move(0, (4,)))
    assert ReachedHome(RUBY, 0) in events and events[-1] == Won(RUBY)
    assert state.phase is Phase.OVER and state.winner == RUBY
    assert state.rewards == () and legal_actions(state) == []
    with pytest.raises(IllegalAction):
        apply(state, Roll(), (1, 2))
    assert outcomes("ruby", pieces, (4, 4)) == expect(
        pos(ruby=[H, H, H, H], sapphire=ALL_START),
        pos(ruby=[H, H, H, H], sapphire=[26, S, S, S]),
    )


def test_win_by_a_reward_move_ends_the_game_at_once():
    # 66+5 HOME (10), 60+1 = 61; the 10 takes 61 HOME: all four HOME, and the new 10 is
    # ignored. Other sequences: 66+1 & 60+5 (67, 65); 60+1+5 = 66 joins the piece on 66.
    pieces = {"ruby": [66, 60, H, H], "sapphire": ALL_START}
    state, _ = rolled("ruby", pieces, (5, 1))
    state, _ = play(state, Move(0, (5,)), Move(1, (1,)))
    assert legal_rewards(state) == [Reward(1, 10)]
    state, events = apply(state, Reward(1, 10))
    assert events[-1] == Won(RUBY)
    assert state.phase is Phase.OVER and state.winner == RUBY and state.rewards == ()
    assert outcomes("ruby", pieces, (5, 1)) == expect(
        pos(ruby=[H, H, H, H], sapphire=ALL_START),
        pos(ruby=[65, 67, H, H], sapphire=ALL_START),
        pos(ruby=[66, 66, H, H], sapphire=ALL_START),
    )


def test_win_with_a_die_left_over_ends_the_game_at_once():
    # Last piece on 68: 68+3 = 71 wins with the 2 unused (and the 10 is not even offered);
    # 68+2 = 70 is the other choice (then 70+3 > 71).
    pieces = {"ruby": [68, H, H, H], "sapphire": ALL_START}
    assert outcomes("ruby", pieces, (3, 2)) == expect(
        pos(ruby=[H, H, H, H], sapphire=ALL_START),
        pos(ruby=[70, H, H, H], sapphire=ALL_START),
    )
    state, _ = rolled("ruby", pieces, (3, 2))
    state, events = apply(state, Move(0, (3,)))
    assert events[-1] == Won(RUBY) and RewardsForfeited not in kinds(events)
    assert state.phase is Phase.OVER and state.winner == RUBY
    assert state.portions == () and state.rewards == ()
    assert legal_actions(state) == []


# --- Illegal actions and the outcome contract ------------------------------------------------

def test_illegal_actions_raise_and_change_nothing():
    pieces = {"ruby": [10, 20, S, H], "sapphire": ALL_START}
    state, _ = rolled("ruby", pieces, (6, 2))
    before = state_to_json(state)
    offered = legal_steps(state)
    for action in [Move(0, (3,)),        # no such portion
                   Move(3, (2,)),        # piece already HOME
                   Move(2, (6,)),        # START piece without a 5
                   Move(0, (6, 6)),      # the 6 twice
                   Move(7, (2,)),        # no such piece
                   Reward(0, 20),        # no reward pending
                   Roll()]:              # the dice must be used first
        with pytest.raises(IllegalAction):
            apply(state, action, (1, 2))
        assert state_to_json(state) == before
        assert legal_steps(state) == offered
    idle = at_roll("ruby", pieces)
    with pytest.raises(IllegalAction):
        apply(idle, Move(0, (2,)))
    with pytest.raises(IllegalAction):
        apply(idle, Roll(), (7, 1))
    assert idle == at_roll("ruby", pieces)


def test_outcomes_command_lists_sorted_distinct_positions():
    text = json.dumps({"turn": "ruby", "dice": [5, 3],
                       "pieces": {"sapphire": [S, 30, S, S], "ruby": [10, S, S, S]}})
    assert outcomes_json(text) == {"outcomes": [
        {"pieces": {"ruby": ["start", "start", 0, 13], "sapphire": ["start", "start", "start",
                                                                     30]}},
        {"pieces": {"ruby": ["start", "start", 3, 10], "sapphire": ["start", "start", "start",
                                                                     30]}},
    ]}
