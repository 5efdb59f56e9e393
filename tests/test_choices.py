"""What the engine says each choice does (``parcheesi/choices.py``): named positions from
docs/rules/parcheesi.md, checked by hand with the square arithmetic of ``positions.py``."""

from __future__ import annotations

from positions import AMBER, EMERALD, RUBY, SAFE, H, S, at_roll, rolled, square

from parcheesi.core.actions import Roll
from parcheesi.core.choices import Capture, Choice, for_piece, pieces_to_choose, using_portion
from parcheesi.games.parcheesi.choices import choices
from parcheesi.games.parcheesi.turns import Move, Reward, apply


def test_before_a_roll_the_only_choice_is_to_roll():
    assert choices(at_roll("ruby", {"ruby": [S, S, S, S], "sapphire": [S, S, S, S]})) == [
        Choice(Roll())]


def test_a_capture_says_whom_it_sends_back_and_earns_twenty():
    # Emerald 44 +4 -> progress 48, square (22+48)%68 = 2, where Amber 14 stands alone.
    assert square(EMERALD, 48) == 2 == square(AMBER, 14) and 2 not in SAFE
    state, _ = rolled("emerald", {"emerald": [44, H, H, H], "amber": [14, S, S, S]}, (4, 6))
    options = choices(state)
    four = next(c for c in options if c.action == Move(0, (4,)))
    assert four == Choice(Move(0, (4,)), 0, 44, (48,), 48, (Capture(AMBER, 0, 14),),
                          bonus=20, portions=(4,))
    six = next(c for c in options if c.action == Move(0, (6,)))
    assert (six.end, six.captures, six.bonus) == (50, (), 0)
    # Both dice at once end on 54 either way; 6 first passes Amber (50 is beyond square 2),
    # 4 first captures it: two choices, as they do different things.
    both = [(c.action, c.path, c.captures, c.bonus) for c in options if c.combined]
    assert both == [(Move(0, (6, 4)), (50, 54), (), 0),
                    (Move(0, (4, 6)), (48, 54), (Capture(AMBER, 0, 14),), 20)]


def test_an_entry_ends_on_the_safe_entry_square_and_a_portion_finds_it():
    # Ruby enters on progress 0, square 5: safe. A 1+4 enters with both dice as one step.
    assert square(RUBY, 0) == 5 and 5 in SAFE
    state, _ = rolled("ruby", {"ruby": [S, S, S, S], "sapphire": [S, S, S, S]}, (1, 4))
    options = choices(state)
    assert pieces_to_choose(options) == {0, 1, 2, 3}
    entry = for_piece(options, 2)
    assert [(c.action, c.start, c.end, c.safe, c.combined) for c in entry] == [
        (Move(2, (4, 1)), -1, 0, True, False)]
    assert {c.piece for c in using_portion(options, 1)} == {0, 1, 2, 3}
    assert using_portion(options, 6) == []


def test_reaching_home_earns_ten_and_the_last_piece_wins():
    # Ruby 66 in the lane +5 -> 71, HOME; the other three are HOME already.
    state, _ = rolled("ruby", {"ruby": [66, H, H, H], "sapphire": [S, S, S, S]}, (5, 3))
    [home] = [c for c in choices(state) if c.action == Move(0, (5,))]
    assert (home.end, home.home, home.bonus, home.wins, home.safe) == (71, True, 10, True, False)


def test_bonus_choices_say_where_the_bonus_takes_each_piece():
    # Emerald 44 +4 captures Amber (square 2) and the 6 is spent on piece 2 (progress 10 ->
    # 16): the 20 is then to take, by a piece that can move 20.
    state, _ = rolled("emerald", {"emerald": [44, 10, H, H], "amber": [14, S, S, S]}, (4, 6))
    state, _ = apply(state, Move(0, (4,)))
    state, _ = apply(state, Move(1, (6,)))
    options = choices(state)
    assert options and all(isinstance(c.action, Reward) and c.portions == (20,)
                           for c in options)
    # Piece 1: 48 + 20 = 68, in the home lane; piece 2: 16 + 20 = 36 on the track.
    assert {c.piece: (c.start, c.end) for c in options} == {0: (48, 68), 1: (16, 36)}


def test_a_finished_game_offers_nothing():
    state, _ = rolled("ruby", {"ruby": [66, H, H, H], "sapphire": [S, S, S, S]}, (5, 3))
    over, _ = apply(state, Move(0, (5,)))
    assert choices(over) == []
