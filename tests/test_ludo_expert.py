"""Ludo's learned evaluation and Ludo Expert: what the encoding's units and terms mean, the
search over the six numbers of the die, Expert at the table and as the hint. What every
game's learned evaluation does alike is checked in ``test_learning.py``."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from parcheesi.core.actions import Roll
from parcheesi.core.learning import search
from parcheesi.core.learning.network import Network
from parcheesi.core.learning.values import race_chances
from parcheesi.core.state import Phase
from parcheesi.games.ludo import ai, threats
from parcheesi.games.ludo.board import HOME, YARD
from parcheesi.games.ludo.expert import EXPERT, LEARNER, encoded, roll_ends
from parcheesi.games.ludo.expert.encoding import (
    ABSENT_UNIT,
    ENCODING,
    FULL_PIPS,
    HOUSE_UNIT,
    PAD_UNIT,
    SIXES_UNIT,
    SLOT_UNITS,
    encode,
)
from parcheesi.games.ludo.game import GAME
from parcheesi.games.ludo.moves import legal_moves
from parcheesi.games.ludo.state import LudoState
from parcheesi.games.ludo.turns import advance

RED, GREEN, YELLOW, BLUE = range(4)
Y = YARD


def position(turn: int, pieces: dict[int, tuple[int, ...]], house: tuple[str, ...] = (),
             sixes: int = 0) -> LudoState:
    """``turn`` to roll with ``pieces`` (colour -> four progresses) on the board."""
    return LudoState(colours=tuple(sorted(pieces)),
                     pieces=tuple(pieces.get(c, ()) for c in range(4)), phase=Phase.ROLL,
                     turn=turn, house=house, sixes=sixes)


def on(units: list[int]) -> set[int]:
    return {u for u in units if u != PAD_UNIT}


@pytest.fixture
def small_expert() -> Iterator[Network]:
    """Expert playing with small random weights (what it does does not depend on them)."""
    net = Network.fresh(16, np.random.default_rng(3), ENCODING)
    EXPERT.use(net)
    yield net
    EXPERT.use(None)


# --- encoding ------------------------------------------------------------------------------------

def test_the_roller_is_slot_zero_and_each_unit_says_where_pieces_stand():
    state = position(RED, {RED: (Y, 3, 3, HOME), YELLOW: (10, Y, Y, Y)})
    units, dense = encoded(state)
    red = {2 * 3, 2 * 3 + 1, 2 * HOME, 2 * HOME + 4}  # two at 3, one in the yard, one HOME
    yellow = {2 * SLOT_UNITS + 2 * 10} | {2 * SLOT_UNITS + 2 * HOME + k for k in range(3)}
    assert on(units) == red | yellow | {ABSENT_UNIT + 1, ABSENT_UNIT + 3}
    assert dense[0] == pytest.approx((57 + 53 + 53) / FULL_PIPS)
    assert dense[8] == pytest.approx((46 + 3 * 57) / FULL_PIPS)
    assert dense[4:8] == [0.0] * 4 and dense[12:] == [0.0] * 4  # the absent slots


def test_seen_from_yellow_the_slots_turn_with_the_roller():
    pieces = {RED: (Y, 3, 3, HOME), YELLOW: (10, Y, Y, Y)}
    from_yellow = encoded(position(YELLOW, pieces))
    assert on(from_yellow[0]) >= {2 * 10, 2 * SLOT_UNITS + 2 * 3}
    assert from_yellow != encoded(position(RED, pieces))


def test_three_pieces_on_one_square_are_two_units_not_a_repeated_one():
    units, _ = encoded(position(RED, {RED: (7, 7, 7, Y), GREEN: (Y, Y, Y, Y)}))
    assert sorted(u for u in units if u < SLOT_UNITS) == [14, 15, 2 * HOME]
    assert len(on(units)) == len([u for u in units if u != PAD_UNIT])


def test_sixes_rolled_this_turn_and_the_house_rules_are_units_of_their_own():
    pieces = {RED: (5, Y, Y, Y), BLUE: (9, Y, Y, Y)}
    plain = on(encoded(position(RED, pieces))[0])
    assert not plain & set(range(SIXES_UNIT, HOUSE_UNIT + 5))
    assert SIXES_UNIT in on(encoded(position(RED, pieces, sixes=1))[0])
    assert {SIXES_UNIT, SIXES_UNIT + 1} <= on(encoded(position(RED, pieces, sixes=2))[0])
    with_house = on(encoded(position(RED, pieces, house=("stars", "six_again")))[0])
    assert with_house - plain == {HOUSE_UNIT + 0, HOUSE_UNIT + 4}  # the rules' order


def test_during_a_move_the_sixes_are_not_read():
    state = advance(position(RED, {RED: (5, Y, Y, Y), BLUE: (9, Y, Y, Y)}, sixes=1), Roll(), 6)
    assert state.phase is Phase.MOVE and state.sixes == 2
    assert SIXES_UNIT not in on(encoded(state)[0])


def test_the_risk_terms_are_the_exact_hit_chances():
    # red alone at 20 (square 20) with yellow's pieces behind it; yellow's 45 is square 19
    pieces = {RED: (20, Y, Y, Y), YELLOW: (45, 40, Y, Y)}
    state = position(RED, pieces)
    danger = threats.danger(state.pieces, RED, (YELLOW,), 20, stars=False)
    assert danger > 0
    _, dense = encoded(state)
    assert dense[1] == pytest.approx(danger)
    assert dense[2] == pytest.approx(danger * 21 / HOME)
    # red's threat on yellow: yellow's 45 (square 19) and 40 (square 14) lie behind red
    assert dense[3] == 0.0
    threat = sum(threats.hit_chance(state.pieces, YELLOW, sq) for sq in (20,)) * 21 / HOME
    assert dense[8 + 3] == pytest.approx(threat)


def test_a_safe_square_carries_no_risk_and_stars_count_only_under_their_rule():
    on_star = {RED: (8, Y, Y, Y), BLUE: (18, Y, Y, Y)}  # star square 8; blue 3 behind
    assert encoded(position(RED, on_star))[1][1] > 0
    assert encoded(position(RED, on_star, house=("stars",)))[1][1] == 0.0


def test_the_encoding_is_the_one_the_weights_fit():
    assert ENCODING.sparse_units == HOUSE_UNIT + 5 and ENCODING.units_on >= 23
    units, dense = encode(((HOME,) * 4, (Y,) * 4, (), ()), GREEN, 0, ())
    assert ABSENT_UNIT + 3 in units  # red, three slots on from green, has finished
    assert len(dense) == ENCODING.dense_units


# --- the search ----------------------------------------------------------------------------------

def test_one_ply_is_the_average_over_the_six_numbers_of_the_next_rollers_best_answer():
    net = Network.fresh(16, np.random.default_rng(1), ENCODING)
    state = advance(position(RED, {RED: (10, 20, Y, Y), GREEN: (5, 30, Y, Y)}), Roll(), 3)
    after = roll_ends(state)[0]
    assert after.turn == GREEN
    expected = 0.0
    for die in range(1, 7):
        answered = advance(after, Roll(), die)
        if answered.phase is Phase.MOVE:
            options = [advance(answered, move[4]) for move in legal_moves(answered)]
        else:
            options = [answered]
        values = race_chances(LEARNER, net, options, GREEN)
        expected += values[int(np.argmax(values[:, GREEN])), RED] / 6
    assert search.one_ply(LEARNER, net, after, RED) == pytest.approx(expected)


def test_a_move_that_earns_another_roll_is_answered_by_the_mover_itself():
    net = Network.fresh(16, np.random.default_rng(2), ENCODING)
    state = advance(position(RED, {RED: (10, 20, Y, Y), GREEN: (5, 30, Y, Y)}), Roll(), 6)
    again = roll_ends(state)[0]
    assert again.turn == RED and again.phase is Phase.ROLL and again.sixes == 1
    value = search.one_ply(LEARNER, net, again, RED)
    assert value is not None and 0 < value < 1


# --- Expert at the table -------------------------------------------------------------------------

def test_expert_is_the_strongest_table_level_and_gives_the_hint(small_expert: Network):
    assert GAME.table_levels[-1] == "expert" and "expert" in GAME.levels
    state = advance(position(RED, {RED: (10, 20, 33, Y), GREEN: (5, 30, 17, Y)}), Roll(), 4)
    decision = ai.decide(state, "expert", reason=True)
    assert decision.reason and decision.actions[0] in [m[4] for m in legal_moves(state)]
    ends = roll_ends(state)
    assert decision.state == ends[EXPERT.choose(state, ends)]
    hint = GAME.hint(state)
    assert hint.actions == decision.actions and hint.reason == decision.reason


def test_expert_chances_are_the_meters_and_add_up_to_one(small_expert: Network):
    state = position(GREEN, {RED: (10, 20, 33, Y), GREEN: (5, 30, 17, Y), BLUE: (Y,) * 4})
    chances = GAME.win_chances([state])
    assert chances is not None
    assert set(chances[0]) == {RED, GREEN, BLUE}
    assert sum(chances[0].values()) == pytest.approx(1.0)


def test_ludos_teacher_is_hard() -> None:
    """The training's teacher games are Hard's play (the level most Ludo tables meet)."""
    state = LEARNER.new_game((0, 1, 2, 3), ())
    dice = LEARNER.dice(11)
    decided = 0
    while state.winner is None and decided < 60:
        if state.phase in (Phase.ROLL, Phase.OPENING):
            state = LEARNER.roll(state, dice)
            continue
        assert LEARNER.teacher is not None
        hard = ai.decide(state, "hard").state
        assert LEARNER.teacher(state) == hard
        state, decided = hard, decided + 1
    assert decided == 60
