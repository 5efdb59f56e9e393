"""Named scenario tests for Ludo: one or more concrete positions per rule, per trap of
docs/rules/ludo.md section 5, per house rule, the play-on question and the draw.

Every expectation is worked out by hand from docs/rules/ludo.md. A piece's track square is
(start + progress) mod 52 with the start squares Red 0, Green 13, Yellow 26, Blue 39;
progress 0..50 is the track, 51..55 the home lane, 56 HOME, -1 the yard. So green's
progress p stands on red's progress p + 13 (mod 52), yellow's on p + 26, blue's on p + 39.
"""

from __future__ import annotations

import pytest
from dice_helpers import fixed

from parcheesi.core.actions import PlayOn, Roll
from parcheesi.core.choices import Capture
from parcheesi.core.events import (
    Captured,
    Entered,
    Moved,
    NoMove,
    OpeningRolled,
    OpeningTied,
    Placed,
    PlayingOn,
    PlayOnAgreed,
    PlayOnAsked,
    PlayOnDeclined,
    ReachedHome,
    Rolled,
    Starts,
    TurnPassed,
    Won,
)
from parcheesi.core.state import IllegalAction, Phase
from parcheesi.games.ludo.actions import Move
from parcheesi.games.ludo.board import (
    HOME,
    HOUSE_RULES,
    STARS,
    START_SQUARES,
    YARD,
    progress_of_square,
    track_square,
)
from parcheesi.games.ludo.choices import choices
from parcheesi.games.ludo.events import Drawn, LimitReached, RollAgain, ThirdSix
from parcheesi.games.ludo.moves import legal_moves
from parcheesi.games.ludo.state import LudoState, new_state
from parcheesi.games.ludo.turns import DRAW_ROLLS, apply, standings

RED, GREEN, YELLOW, BLUE = range(4)
Y, H = YARD, HOME


def at_roll(turn: int, pieces: dict[int, list[int]], **fields: object) -> LudoState:
    """A position where ``turn`` is about to roll (no finishers unless given)."""
    table = tuple(tuple(pieces[c]) if c in pieces else () for c in range(4))
    return LudoState(colours=tuple(sorted(pieces)), pieces=table, phase=Phase.ROLL,
                     turn=turn, **fields)  # type: ignore[arg-type]


def play(state: LudoState, *steps: object) -> tuple[LudoState, list[object]]:
    """Apply steps in turn: an int is a roll of that die, anything else an action."""
    events: list[object] = []
    for step in steps:
        action = Roll() if isinstance(step, int) else step
        state, new = apply(state, action, step if isinstance(step, int) else None)
        events.extend(new)
    return state, events


def kinds(events: list[object]) -> list[type]:
    return [type(e) for e in events]


def only(state: LudoState) -> Move:
    """The one move open (the test's position allows one)."""
    (move,) = legal_moves(state)
    return move[4]


# --- 1. seats, colours, order ------------------------------------------------------------------

def test_any_two_to_four_distinct_colours_play_in_travel_order():
    assert new_state((RED, GREEN)).colours == (RED, GREEN)  # not only opposite pairs
    assert new_state((BLUE, GREEN, RED)).colours == (RED, GREEN, BLUE)
    assert new_state((3, 1)).pieces == ((), (Y,) * 4, (), (Y,) * 4)
    for bad, why in (((RED,), "2, 3 or 4"), ((0, 1, 2, 3, 0), "2, 3 or 4"),
                     ((RED, RED), "only once"), ((RED, 4), "unknown colour"),
                     ((True, 2), "unknown colour")):
        with pytest.raises(ValueError, match=why):
            new_state(bad)


def test_turns_pass_in_travel_order_skipping_inactive_colours():
    # Red, yellow and blue play; nobody can use a 2 with every piece in the yard.
    state = at_roll(RED, {RED: [Y] * 4, YELLOW: [Y] * 4, BLUE: [Y] * 4})
    seen = []
    for _ in range(4):
        state, events = play(state, 2)
        seen.append(events[-1])
    assert seen == [TurnPassed(YELLOW), TurnPassed(BLUE), TurnPassed(RED),
                    TurnPassed(YELLOW)]


def test_opening_roll_the_highest_starts_and_only_ties_reroll():
    state = new_state((RED, GREEN, YELLOW))
    dice = fixed([6, 4, 6, 3, 5])
    events = []
    for _ in range(5):
        state, new = apply(state, Roll(), dice)
        events.extend(new)
    assert events == [OpeningRolled(RED, (6,)), OpeningRolled(GREEN, (4,)),
                      OpeningRolled(YELLOW, (6,)), OpeningTied((RED, YELLOW)),
                      OpeningRolled(RED, (3,)), OpeningRolled(YELLOW, (5,)), Starts(YELLOW)]
    # green did not roll again; the starter then rolls for the first move
    assert (state.phase, state.turn, state.dice, state.opening) == (Phase.ROLL, YELLOW,
                                                                   None, ())
    # the opening rolls are in the dice source but not counted toward the draw limit
    assert (state.rolls, state.race_rolls) == (5, 0)
    state, events = apply(state, Roll(), fixed([6], first_index=5))
    assert events[0] == Rolled(YELLOW, (6,), (6,)) and state.race_rolls == 1


# --- 2. the board --------------------------------------------------------------------------------

def test_track_squares_follow_each_colours_start_and_wrap():
    assert START_SQUARES == (0, 13, 26, 39) and STARS == (8, 21, 34, 47)
    assert [track_square(c, 0) for c in range(4)] == [0, 13, 26, 39]
    assert track_square(GREEN, 38) == 51 and track_square(GREEN, 39) == 0  # wraps 51 -> 0
    assert track_square(BLUE, 20) == 7 and track_square(RED, 50) == 50
    assert [track_square(RED, p) for p in (YARD, 51, 55, HOME)] == [None] * 4
    assert progress_of_square(YELLOW, 1) == 27
    assert progress_of_square(RED, 51) is None  # the square before red's start: not red's


def test_trap_wrap_51_to_0_captures_across_the_seam():
    # Yellow 25 stands on square 51; a 2 takes it to progress 27, square 53 - 52 = 1, where
    # red's piece at progress 1 stands.
    state = at_roll(YELLOW, {RED: [1, Y, Y, Y], YELLOW: [25, Y, Y, Y]})
    state, events = play(state, 2)
    state, events = play(state, only(state))
    assert events == [Moved(YELLOW, 0, 25, 27, 2), Captured(RED, 0, YELLOW, 0, 1),
                      RollAgain(YELLOW, "capture")]
    assert state.pieces[RED] == (Y, Y, Y, Y) and state.pieces[YELLOW] == (27, Y, Y, Y)


def test_trap_the_last_track_square_before_the_lane():
    # Red 47 + 3 = 50 (square 50): green's 37 stands there (13 + 37) and is captured.
    state = at_roll(RED, {RED: [47, Y, Y, Y], GREEN: [37, Y, Y, Y]})
    state, events = play(state, 3, Move(0))
    assert Captured(GREEN, 0, RED, 0, 37) in events and state.pieces[RED][0] == 50
    # From 49 a 2 goes into the lane (51): blue's 12 on square 51 (39 + 12) is not on red's
    # way at all, so it stays.
    state = at_roll(RED, {RED: [49, Y, Y, Y], BLUE: [12, Y, Y, Y]})
    state, events = play(state, 2, Move(0))
    assert events[1:] == [Moved(RED, 0, 49, 51, 2), TurnPassed(BLUE)]
    assert state.pieces[BLUE] == (12, Y, Y, Y)


def test_trap_exact_home_from_the_lane():
    state = at_roll(RED, {RED: [53, Y, Y, H], YELLOW: [Y] * 4})
    after, events = play(state, 3, Move(0))
    assert events[1:] == [Moved(RED, 0, 53, 56, 3), ReachedHome(RED, 0),
                          RollAgain(RED, "home")]
    assert after.pieces[RED] == (H, Y, Y, H)
    after, events = play(state, 2, Move(0))
    assert after.pieces[RED][0] == 55
    after, events = play(state, 4)  # 53 + 4 = 57 is past HOME; the yard needs a 6
    assert events == [Rolled(RED, (4,), ()), NoMove(RED, (4,)), TurnPassed(YELLOW)]
    assert after.pieces == state.pieces


def test_home_lanes_are_out_of_everyones_reach():
    # Red's lane pieces and HOME pieces: no opponent move by any die ever captures them.
    lane = [51, 53, 55, H]
    for colour in (GREEN, YELLOW, BLUE):
        for start in range(-1, 51):
            for die in range(1, 7):
                state = at_roll(colour, {RED: lane, colour: [start, Y, Y, Y]})
                state, _ = play(state, die)
                assert all(not victims for _, _, _, victims, _ in legal_moves(state))


# --- 3. a turn -------------------------------------------------------------------------------

def test_a_piece_leaves_the_yard_only_on_a_six_onto_its_start_square():
    state = at_roll(GREEN, {GREEN: [Y] * 4, BLUE: [Y] * 4})
    for die in range(1, 6):
        _, events = play(state, die)
        assert kinds(events) == [Rolled, NoMove, TurnPassed]
    state, events = play(state, 6)
    assert events == [Rolled(GREEN, (6,), (6,))]
    assert [c.piece for c in choices(state)] == [0, 1, 2, 3]
    state, events = play(state, Move(2))
    # out onto progress 0 (square 13) and that is the whole move; the 6 rolls again
    assert events == [Entered(GREEN, 2, (6,)), RollAgain(GREEN, "six")]
    assert state.pieces[GREEN] == (Y, Y, 0, Y) and track_square(GREEN, 0) == 13
    assert (state.phase, state.turn) == (Phase.ROLL, GREEN)


def test_the_roll_moves_one_piece_exactly_and_is_never_split():
    state = at_roll(RED, {RED: [10, 20, Y, H], GREEN: [Y] * 4})
    state, _ = play(state, 5)
    options = choices(state)
    assert [(c.piece, c.start, c.end, c.path) for c in options] == [
        (0, 10, 15, (15,)), (1, 20, 25, (25,))]
    after, events = play(state, Move(1))
    assert events == [Moved(RED, 1, 20, 25, 5), TurnPassed(GREEN)]
    assert after.pieces[RED] == (10, 25, Y, H)


def test_the_mover_must_move_when_any_piece_can():
    state = at_roll(RED, {RED: [10, Y, Y, Y], GREEN: [Y] * 4})
    state, _ = play(state, 4)
    assert state.phase is Phase.MOVE and state.portions == (4,)
    for refused in (Roll(), PlayOn(True), Move(1), Move(4), Move(0, GREEN), Move(True)):
        with pytest.raises(IllegalAction):
            apply(state, refused, 4)
    assert [c.action for c in choices(state)] == [Move(0)]


def test_a_refused_action_changes_nothing():
    state = at_roll(RED, {RED: [53, 10, Y, H], GREEN: [Y] * 4})
    rolled, _ = play(state, 5)
    before = rolled.with_()
    for refused, why in ((Move(0), "needs 3 to reach HOME"), (Move(2), "only on a 6"),
                         (Move(3), "already HOME"), (Move(7), "no piece"),
                         (Move(1, GREEN), "no choice of capture")):
        with pytest.raises(IllegalAction, match=why):
            apply(rolled, refused)
    assert rolled == before
    with pytest.raises(IllegalAction, match="cannot move now"):
        apply(state, Move(0))
    with pytest.raises(IllegalAction, match=r"a die is a value 1\.\.6"):
        apply(state, Roll(), 7)
    with pytest.raises(IllegalAction, match="needs a die"):
        apply(state, Roll())


class OwnRoll(Roll):
    __slots__ = ()


class OwnMove(Move):
    __slots__ = ()


def test_a_roll_or_move_of_a_subclass_is_applied_like_the_action_itself():
    # The turn machine tells the usual roll and move by their exact class; an action of a
    # subclass takes the checked way, which must lead to the same game.
    state = at_roll(RED, {RED: [5, 11, Y, Y], GREEN: [47, Y, Y, Y]})
    rolled, first = apply(state, OwnRoll(), 6)
    moved, second = apply(rolled, OwnMove(0))
    assert (moved, first + second) == play(state, 6, Move(0))
    with pytest.raises(IllegalAction, match=r"a die is a value 1\.\.6"):
        apply(state, OwnRoll(), 7)
    with pytest.raises(IllegalAction, match="cannot move now"):
        apply(state, OwnMove(0))


def test_an_unusable_roll_passes_the_turn():
    state = at_roll(RED, {RED: [54, Y, Y, H], YELLOW: [Y] * 4})
    state, events = play(state, 3)
    assert events == [Rolled(RED, (3,), ()), NoMove(RED, (3,)), TurnPassed(YELLOW)]
    assert (state.turn, state.dice, state.sixes) == (YELLOW, None, 0)


# --- 3.1 sharing and capturing -------------------------------------------------------------------

def test_pieces_share_squares_and_passing_over_them_does_nothing():
    # Red 5 + 6 = 11 passes green's piece on square 8 (green 47) and lands beside its own
    # piece on 11: nothing is captured, all stay.
    state = at_roll(RED, {RED: [5, 11, Y, Y], GREEN: [47, Y, Y, Y]})
    state, events = play(state, 6, Move(0))
    assert events[1:] == [Moved(RED, 0, 5, 11, 6), RollAgain(RED, "six")]
    assert state.pieces == ((11, 11, Y, Y), (47, Y, Y, Y), (), ())


def test_a_landing_captures_one_piece_and_the_others_stay():
    # Two green pieces on square 20 (green 7); red 17 + 3 lands there: one goes home.
    state = at_roll(RED, {RED: [17, Y, Y, Y], GREEN: [7, 7, Y, Y]})
    state, _ = play(state, 3)
    (option,) = choices(state)  # capturing is not optional: the move captures
    assert option.captures == (Capture(GREEN, 0, 7),) and option.again
    state, events = play(state, option.action)
    assert events == [Moved(RED, 0, 17, 20, 3), Captured(GREEN, 0, RED, 0, 7),
                      RollAgain(RED, "capture")]
    assert state.pieces[GREEN] == (Y, 7, Y, Y)


def test_trap_two_opponent_colours_on_one_square_the_mover_chooses():
    # Red 15 + 5 = 20: green 7 (13 + 7) and yellow 46 (26 + 46 - 52) stand there.
    state = at_roll(RED, {RED: [15, Y, Y, Y], GREEN: [7, Y, Y, Y], YELLOW: [46, Y, Y, Y]})
    state, _ = play(state, 5)
    options = choices(state)
    assert [(c.action, c.captures) for c in options] == [
        (Move(0, GREEN), (Capture(GREEN, 0, 7),)),
        (Move(0, YELLOW), (Capture(YELLOW, 0, 46),))]
    with pytest.raises(IllegalAction, match="choose whose piece piece 1 captures: "
                                            "green or yellow"):
        apply(state, Move(0))
    with pytest.raises(IllegalAction, match="can capture green or yellow"):
        apply(state, Move(0, BLUE))
    after, events = play(state, Move(0, YELLOW))
    assert Captured(YELLOW, 0, RED, 0, 46) in events
    assert after.pieces[GREEN] == (7, Y, Y, Y) and after.pieces[YELLOW] == (Y, Y, Y, Y)


def test_trap_a_six_with_every_piece_in_the_yard_and_an_opponent_on_the_start_square():
    # Green 39 stands on square 0, red's start: coming out captures it, and the 6 earns
    # one extra roll (not two for the capture as well).
    state = at_roll(RED, {RED: [Y] * 4, GREEN: [39, Y, Y, Y]})
    state, _ = play(state, 6)
    assert [c.captures for c in choices(state)] == [(Capture(GREEN, 0, 39),)] * 4
    state, events = play(state, Move(0))
    assert events == [Entered(RED, 0, (6,)), Captured(GREEN, 0, RED, 0, 39),
                      RollAgain(RED, "six")]
    assert state.pieces == ((0, Y, Y, Y), (Y, Y, Y, Y), (), ())
    state, events = play(state, 2, Move(0))
    assert events[-1] == TurnPassed(GREEN)


def test_a_piece_on_its_own_start_square_is_safe():
    # Green 0 is on square 13, green's start; red 10 + 3 lands there and shares it.
    state = at_roll(RED, {RED: [10, Y, Y, Y], GREEN: [0, Y, Y, Y]})
    state, _ = play(state, 3)
    (option,) = choices(state)
    assert option.captures == () and not option.safe  # square 13 is not safe for red
    state, events = play(state, option.action)
    assert events == [Moved(RED, 0, 10, 13, 3), TurnPassed(GREEN)]
    assert state.pieces[GREEN] == (0, Y, Y, Y)


def test_trap_an_opponent_on_your_start_square_is_captured_by_a_third_colour():
    # Yellow 26 stands on square 0, red's start, beside red's own piece (safe there). Blue
    # 10 + 3 = 13 lands on square 39 + 13 - 52 = 0: it captures yellow, not red.
    state = at_roll(BLUE, {RED: [0, Y, Y, Y], YELLOW: [26, Y, Y, Y], BLUE: [10, Y, Y, Y]})
    state, _ = play(state, 3)
    (option,) = choices(state)
    assert option.captures == (Capture(YELLOW, 0, 26),)
    state, events = play(state, option.action)
    assert Captured(YELLOW, 0, BLUE, 0, 26) in events
    assert state.pieces[RED] == (0, Y, Y, Y) and state.pieces[YELLOW] == (Y,) * 4
    # ... and red's own piece coming out captures an opponent standing there too
    state = at_roll(RED, {RED: [Y] * 4, YELLOW: [26, Y, Y, Y]})
    _, events = play(state, 6, Move(3))
    assert Captured(YELLOW, 0, RED, 3, 26) in events


# --- 3.2 rolling again ---------------------------------------------------------------------------

def test_trap_a_move_that_is_a_six_and_a_capture_earns_one_extra_roll():
    # Red 14 + 6 = 20 captures green 7; one extra roll, then a plain 1 passes the turn.
    state = at_roll(RED, {RED: [14, Y, Y, Y], GREEN: [7, Y, Y, Y]})
    state, events = play(state, 6, Move(0))
    assert [e for e in events if isinstance(e, RollAgain)] == [RollAgain(RED, "six")]
    assert (state.phase, state.turn) == (Phase.ROLL, RED)
    state, events = play(state, 1, Move(0))
    assert events[-1] == TurnPassed(GREEN)


def test_there_is_no_limit_on_sixes_in_a_row():
    state = at_roll(RED, {RED: [0, Y, Y, Y], GREEN: [Y] * 4})
    for count in range(1, 6):
        state, _ = play(state, 6, Move(0))
        assert (state.turn, state.sixes, state.pieces[RED][0]) == (RED, count, 6 * count)


def test_trap_a_six_that_cannot_be_used_earns_nothing():
    # 51 + 6 and 53 + 6 are past HOME and no piece is in the yard.
    state = at_roll(RED, {RED: [51, 53, H, H], GREEN: [Y] * 4})
    state, events = play(state, 6)
    assert events == [Rolled(RED, (6,), ()), NoMove(RED, (6,)), TurnPassed(GREEN)]


def test_the_fourth_piece_home_earns_no_extra_roll():
    # Two players: red's 50 + 6 is its fourth piece HOME; it is a 6, yet red has finished.
    state = at_roll(RED, {RED: [50, H, H, H], YELLOW: [Y] * 4})
    state, events = play(state, 6, Move(0))
    assert events[1:] == [Moved(RED, 0, 50, 56, 6), ReachedHome(RED, 0), Won(RED),
                          Placed(RED, 1), Placed(YELLOW, 2)]
    assert (state.phase, state.winner, state.places, state.ranks) == (
        Phase.OVER, RED, (RED, YELLOW), (1, 2))
    assert standings(state) == [RED, YELLOW] and choices(state) == []


# --- 3.3 the end of the game ---------------------------------------------------------------------

def four_players_red_about_to_finish() -> LudoState:
    return at_roll(RED, {RED: [55, H, H, H], GREEN: [H, 10, Y, Y], YELLOW: [H, H, Y, Y],
                         BLUE: [50, 50, 50, 50]})


def test_play_on_is_asked_of_the_racing_players_one_at_a_time():
    state, events = play(four_players_red_about_to_finish(), 1)
    (option,) = choices(state)
    assert option.wins and option.home and not option.again
    state, events = play(state, option.action)
    assert events == [Moved(RED, 0, 55, 56, 1), ReachedHome(RED, 0), Won(RED),
                      Placed(RED, 1), PlayOnAsked((GREEN, YELLOW, BLUE))]
    assert (state.phase, state.turn, state.winner) == (Phase.PLAY_ON, GREEN, RED)
    assert [c.action for c in choices(state)] == [PlayOn(True), PlayOn(False)]
    with pytest.raises(IllegalAction, match="is asked whether to play on"):
        apply(state, Roll(), 3)
    state, events = play(state, PlayOn(True))
    assert events == [PlayOnAgreed(GREEN)] and state.turn == YELLOW
    state, events = play(state, PlayOn(True), PlayOn(True))
    assert events == [PlayOnAgreed(YELLOW), PlayOnAgreed(BLUE),
                      PlayingOn((GREEN, YELLOW, BLUE)), TurnPassed(GREEN)]
    assert (state.phase, state.turn, state.asking) == (Phase.ROLL, GREEN, ())


def test_playing_on_skips_finished_players_until_one_is_left():
    # Red finished first; yellow finishes second: the turn goes to blue, then past red to
    # green; when green finishes, blue is the last one left and takes the last place.
    state = at_roll(YELLOW, {RED: [H] * 4, GREEN: [55, H, H, H], YELLOW: [55, H, H, H],
                             BLUE: [Y] * 4}, places=(RED,), ranks=(1,), winner=RED)
    state, events = play(state, 1, Move(0))
    assert events[-2:] == [Placed(YELLOW, 2), TurnPassed(BLUE)]
    state, events = play(state, 2)
    assert events[-1] == TurnPassed(GREEN)
    state, events = play(state, 1, Move(0))
    assert events[-2:] == [Placed(GREEN, 3), Placed(BLUE, 4)]
    assert Won not in kinds(events)
    assert (state.phase, state.places, state.ranks, state.winner) == (
        Phase.OVER, (RED, YELLOW, GREEN, BLUE), (1, 2, 3, 4), RED)


def test_a_declined_play_on_places_the_rest_by_pieces_home_then_progress():
    state, _ = play(four_players_red_about_to_finish(), 1, Move(0), PlayOn(True))
    state, events = play(state, PlayOn(False))
    # yellow: 2 HOME; green: 1 HOME; blue: none, however far (200 squares) it has come
    assert events == [PlayOnDeclined(YELLOW), Placed(YELLOW, 2), Placed(GREEN, 3),
                      Placed(BLUE, 4)]
    assert (state.phase, state.places, state.ranks) == (
        Phase.OVER, (RED, YELLOW, GREEN, BLUE), (1, 2, 3, 4))


def test_equal_players_share_a_place():
    # Green and blue both have one piece HOME and the same total progress (56 + 10 - 2).
    state = at_roll(RED, {RED: [55, H, H, H], GREEN: [H, 10, Y, Y], YELLOW: [H, H, Y, Y],
                          BLUE: [Y, H, 10, Y]})
    state, events = play(state, 1, Move(0), PlayOn(False))
    assert events[-3:] == [Placed(YELLOW, 2), Placed(GREEN, 3), Placed(BLUE, 3)]
    assert state.ranks == (1, 2, 3, 3) and standings(state) == [RED, YELLOW, GREEN, BLUE]


def test_three_players_are_asked_too_and_two_players_are_not():
    state = at_roll(BLUE, {RED: [Y] * 4, GREEN: [5, Y, Y, Y], BLUE: [52, H, H, H]})
    state, events = play(state, 4, Move(0))
    assert events[-1] == PlayOnAsked((RED, GREEN)) and state.turn == RED
    state, events = play(state, PlayOn(True), PlayOn(True))
    assert events[-1] == TurnPassed(RED)  # the next still racing after blue


def test_the_game_is_drawn_at_the_roll_limit_with_nobody_finished():
    state = at_roll(RED, {RED: [10, Y, Y, Y], GREEN: [Y] * 4}, race_rolls=DRAW_ROLLS - 2,
                    rolls=DRAW_ROLLS + 3)
    state, events = play(state, 3, Move(0))
    assert events[-1] == TurnPassed(GREEN)
    state, events = play(state, 2)  # the 1,000th roll, opening rolls not counted
    assert events == [Rolled(GREEN, (2,), ()), NoMove(GREEN, (2,)),
                      LimitReached(DRAW_ROLLS), Drawn()]
    assert (state.phase, state.draw, state.winner, state.places) == (Phase.OVER, True,
                                                                     None, ())
    assert standings(state) == [RED, GREEN]  # red has come further


def test_the_last_rolls_move_is_still_made_and_can_win():
    state = at_roll(RED, {RED: [10, Y, Y, Y], GREEN: [Y] * 4}, race_rolls=DRAW_ROLLS - 1)
    after, events = play(state, 6, Move(0))  # a 6, but the limit is reached: no extra roll
    assert kinds(events) == [Rolled, Moved, LimitReached, Drawn]
    assert after.pieces[RED][0] == 16
    state = at_roll(RED, {RED: [55, H, H, H], GREEN: [Y] * 4}, race_rolls=DRAW_ROLLS - 1)
    after, events = play(state, 1, Move(0))
    assert (after.winner, after.draw) == (RED, False) and Drawn not in kinds(events)


def test_the_roll_limit_during_play_on_places_the_rest():
    state = at_roll(GREEN, {RED: [H] * 4, GREEN: [5, Y, Y, Y], YELLOW: [Y, Y, Y, 3]},
                    places=(RED,), ranks=(1,), winner=RED, race_rolls=DRAW_ROLLS - 1)
    state, events = play(state, 3, Move(0))
    assert events[-3:] == [LimitReached(DRAW_ROLLS), Placed(GREEN, 2), Placed(YELLOW, 3)]
    assert (state.phase, state.winner, state.draw) == (Phase.OVER, RED, False)
    # a first finish on the last roll asks nobody: play stops at once
    state = at_roll(RED, {RED: [55, H, H, H], GREEN: [Y] * 4, YELLOW: [3, Y, Y, Y]},
                    race_rolls=DRAW_ROLLS - 1)
    state, events = play(state, 1, Move(0))
    assert PlayOnAsked not in kinds(events)
    assert events[-3:] == [LimitReached(DRAW_ROLLS), Placed(YELLOW, 2), Placed(GREEN, 3)]


# --- 4. house rules ------------------------------------------------------------------------------

def test_house_rules_are_named_checked_and_kept_sorted():
    assert HOUSE_RULES == ("stars", "third_six", "capture_all", "no_home_bonus",
                           "six_again")
    assert new_state((0, 2), ["six_again", "stars"]).house == ("six_again", "stars")
    with pytest.raises(ValueError, match="unknown house rule 'safe'"):
        new_state((0, 2), ["safe"])
    with pytest.raises(ValueError, match="'stars' is given more than once"):
        new_state((0, 2), ["stars", "stars"])


def test_stars_make_the_star_squares_safe_for_everyone():
    # Red 5 + 3 = 8, a star; green 47 stands there (13 + 47 - 52).
    pieces = {RED: [5, Y, Y, Y], GREEN: [47, Y, Y, Y]}
    plain, _ = play(at_roll(RED, pieces), 3)
    assert choices(plain)[0].captures == (Capture(GREEN, 0, 47),)
    starred, _ = play(at_roll(RED, pieces, house=("stars",)), 3)
    (option,) = choices(starred)
    assert option.captures == () and option.safe and not option.again
    after, events = play(starred, option.action)
    assert events[-1] == TurnPassed(GREEN) and after.pieces[GREEN] == (47, Y, Y, Y)


def test_third_six_passes_the_turn_even_when_a_piece_could_move():
    state = at_roll(RED, {RED: [0, Y, Y, Y], GREEN: [Y] * 4}, house=("third_six",))
    state, _ = play(state, 6, Move(0), 6, Move(0))
    assert (state.sixes, state.pieces[RED]) == (2, (12, Y, Y, Y))
    state, events = play(state, 6)
    assert events == [Rolled(RED, (6,), ()), ThirdSix(RED), TurnPassed(GREEN)]
    assert state.pieces[RED] == (12, Y, Y, Y)  # the earlier moves of the turn stand


def test_third_six_counts_unused_sixes_and_beats_six_again():
    state = at_roll(RED, {RED: [52, H, H, H], GREEN: [Y] * 4},
                    house=("six_again", "third_six"))
    state, events = play(state, 6, 6)
    assert [e for e in events if isinstance(e, RollAgain)] == [RollAgain(RED, "six_again")] * 2
    state, events = play(state, 6)
    assert events[-2:] == [ThirdSix(RED), TurnPassed(GREEN)]
    # any other number breaks the run
    state = at_roll(RED, {RED: [0, Y, Y, Y], GREEN: [Y] * 4}, house=("third_six",))
    state, _ = play(state, 6, Move(0), 6, Move(0))
    state, _ = play(state, 6)
    assert state.turn == GREEN
    # a 6, then a capture with a 3 (red 17 + 3 = 20, green 7): the run is broken, the turn
    # goes on
    state = at_roll(RED, {RED: [0, 17, Y, Y], GREEN: [7, Y, Y, Y]}, house=("third_six",))
    state, _ = play(state, 6, Move(0), 3, Move(1))
    assert (state.turn, state.sixes, state.pieces[GREEN]) == (RED, 0, (Y,) * 4)


def test_capture_all_captures_every_capturable_piece_on_the_square():
    # Red comes out onto square 0: two green 39s and a yellow 26 stand there.
    pieces = {RED: [Y] * 4, GREEN: [39, 39, Y, Y], YELLOW: [26, Y, Y, Y]}
    state, _ = play(at_roll(RED, pieces, house=("capture_all",)), 6)
    option = choices(state)[0]
    assert option.action == Move(0) and option.captures == (
        Capture(GREEN, 0, 39), Capture(GREEN, 1, 39), Capture(YELLOW, 0, 26))
    state, _ = play(state, option.action)
    assert state.pieces[GREEN] == (Y,) * 4 and state.pieces[YELLOW] == (Y,) * 4


def test_capture_all_leaves_pieces_that_are_safe_where_they_stand():
    # Blue 25 + 1 = 26 lands on square 39 + 26 - 52 = 13, green's start: yellow 39 is
    # captured there, green 0 is safe on its own start square and stays.
    pieces = {GREEN: [0, Y, Y, Y], YELLOW: [39, Y, Y, Y], BLUE: [25, Y, Y, Y]}
    state, _ = play(at_roll(BLUE, pieces, house=("capture_all",)), 1)
    (option,) = choices(state)
    assert option.captures == (Capture(YELLOW, 0, 39),)
    # under stars as well, a star protects everyone
    pieces = {RED: [5, Y, Y, Y], GREEN: [47, Y, Y, Y]}
    state, _ = play(at_roll(RED, pieces, house=("capture_all", "stars")), 3)
    assert choices(state)[0].captures == ()
    state, _ = play(at_roll(BLUE, {GREEN: [0, Y, Y, Y], YELLOW: [39, Y, Y, Y],
                                   BLUE: [25, Y, Y, Y]}, house=("capture_all",)), 1, Move(0))
    assert state.pieces[GREEN] == (0, Y, Y, Y) and state.pieces[YELLOW] == (Y,) * 4


def test_no_home_bonus_takes_the_extra_roll_of_home_but_not_of_a_six():
    pieces = {RED: [53, 50, Y, Y], GREEN: [Y] * 4}
    state, events = play(at_roll(RED, pieces, house=("no_home_bonus",)), 3, Move(0))
    assert events[-1] == TurnPassed(GREEN)
    state, events = play(at_roll(RED, pieces, house=("no_home_bonus",)), 6, Move(1))
    assert events[-1] == RollAgain(RED, "six") and state.pieces[RED][1] == HOME


def test_six_again_rolls_again_after_an_unusable_six_only():
    pieces = {RED: [52, H, H, H], GREEN: [Y] * 4}
    state, events = play(at_roll(RED, pieces, house=("six_again",)), 6)
    assert events == [Rolled(RED, (6,), ()), NoMove(RED, (6,)), RollAgain(RED, "six_again")]
    assert (state.phase, state.turn, state.sixes) == (Phase.ROLL, RED, 1)
    state, events = play(state, 5)
    assert events[-1] == TurnPassed(GREEN)
