"""Parcheesi's learned evaluation: what its encoding's units and terms mean, and its search's
rolls. What every game's learned evaluation does alike (the network, the chances, self-play,
training, the search's budgets, the shipped weights) is checked in ``test_learning.py``."""

from __future__ import annotations

import numpy as np
import pytest

from parcheesi.core.actions import Roll
from parcheesi.core.learning import search
from parcheesi.core.learning.network import Network
from parcheesi.core.learning.values import race_chances
from parcheesi.core.state import Phase
from parcheesi.games.parcheesi.board import HOME, START
from parcheesi.games.parcheesi.expert import LEARNER, ROLL_CHANCES, ROLLS
from parcheesi.games.parcheesi.expert.encoding import (
    ABSENT_UNIT,
    DOUBLES_UNIT,
    ENCODING,
    FULL_PIPS,
    PAD_UNIT,
    SLOT_UNITS,
    UNITS_ON,
    encode,
)
from parcheesi.games.parcheesi.notation import request_from_json
from parcheesi.games.parcheesi.risk import capture_chances
from parcheesi.games.parcheesi.state import State
from parcheesi.games.parcheesi.turns import apply, roll_outcomes


def small_net(seed: int = 1, hidden: int = 16) -> Network:
    return Network.fresh(hidden, np.random.default_rng(seed), ENCODING)


def rotated(pieces: tuple[tuple[int, ...], ...], k: int) -> tuple[tuple[int, ...], ...]:
    """The same position with every colour moved on by ``k`` (the board is symmetric)."""
    return tuple(pieces[(c - k) % 4] for c in range(4))


# --- encoding ----------------------------------------------------------------------------------

def test_the_roller_is_slot_zero_and_each_unit_says_where_pieces_stand():
    pieces = ((START, 3, 3, HOME), (), (10, START, START, START), ())
    units, dense = encode(pieces, 0, 0)
    on = [u for u in units if u != PAD_UNIT]
    ruby = [2 * 3, 2 * 3 + 1, 142, 146]  # two at 3, one in START, one HOME
    sapphire = [2 * SLOT_UNITS + 2 * 10] + [2 * SLOT_UNITS + 142 + k for k in range(3)]
    assert sorted(on) == sorted(ruby + sapphire + [ABSENT_UNIT + 1, ABSENT_UNIT + 3])
    assert len(units) == UNITS_ON
    # pips: Ruby 72 + 68 + 68 + 0; Sapphire 61 + 3 * 72
    assert dense[0] == pytest.approx((72 + 68 + 68) / FULL_PIPS)
    assert dense[6] == pytest.approx((61 + 3 * 72) / FULL_PIPS)
    assert dense[3:6] == [0.0, 0.0, 0.0] and dense[9:] == [0.0, 0.0, 0.0]


def test_seen_from_sapphire_the_slots_turn_with_the_roller():
    pieces = ((START, 3, 3, HOME), (), (10, START, START, START), ())
    from_ruby = encode(pieces, 0, 0)
    from_sapphire = encode(pieces, 2, 0)
    assert from_sapphire == encode(rotated(pieces, 2), 0, 0)
    assert from_sapphire != from_ruby


def test_doubles_already_rolled_this_turn_are_units_of_their_own():
    pieces = ((10, 20, 30, 40), (), (10, 20, 30, 40), ())
    assert DOUBLES_UNIT not in encode(pieces, 0, 0)[0]
    assert DOUBLES_UNIT in encode(pieces, 0, 1)[0]
    assert DOUBLES_UNIT + 1 not in encode(pieces, 0, 1)[0]
    assert {DOUBLES_UNIT, DOUBLES_UNIT + 1} <= set(encode(pieces, 0, 2)[0])


def test_a_colour_with_every_piece_home_is_out_of_the_race():
    pieces = ((HOME,) * 4, (5, 6, 7, 8), (9, 10, 11, 12), ())
    units, dense = encode(pieces, 1, 0)
    assert ABSENT_UNIT + 3 in units  # Ruby, three slots on from Emerald
    assert dense[9:] == [0.0, 0.0, 0.0]


def test_the_risk_terms_are_the_exact_capture_chances():
    # Ruby alone at 20 with Sapphire's pieces behind it on the track.
    state, _ = request_from_json({"turn": "ruby", "pieces": {
        "ruby": [20, "start", "start", "start"], "sapphire": [48, 50, "start", "start"]},
        "dice": [1, 2]})
    risk = capture_chances(state.pieces, 0)
    assert risk, "the test position must put Ruby at risk"
    _, dense = encode(state.pieces, 0, 0)
    assert dense[1] == pytest.approx(sum(risk.values()))
    assert dense[2] == pytest.approx(sum(c * (20 + 1) / HOME for c in risk.values()))


# --- the search ----------------------------------------------------------------------------------

def test_the_21_rolls_weigh_one_in_all():
    assert len(ROLLS) == 21 and len(set(ROLLS)) == 21
    assert sum(ROLL_CHANCES) == pytest.approx(1.0)
    assert ROLL_CHANCES[ROLLS.index((3, 3))] * 2 == ROLL_CHANCES[ROLLS.index((3, 4))]


def rolled_position() -> tuple[State, list[State]]:
    state, dice = request_from_json({"turn": "ruby", "pieces": {
        "ruby": [10, 20, 33, "start"], "sapphire": [15, 3, 40, "start"]}, "dice": [3, 4]})
    rolled, _ = apply(state, Roll(), dice)
    return rolled, [end for end, _ in roll_outcomes(rolled)]


def test_one_ply_is_the_average_of_the_next_rollers_best_answers():
    net = small_net()
    _, ends = rolled_position()
    after = ends[0]
    expected = 0.0
    for (a, b), weight in zip(ROLLS, ROLL_CHANCES, strict=True):
        answered, _ = apply(after, Roll(), (a, b))
        if answered.phase in (Phase.MOVE, Phase.REWARD) and answered.turn == after.turn:
            options = [end for end, _ in roll_outcomes(answered)]
        else:
            options = [answered]
        values = race_chances(LEARNER, net, options, after.turn)
        expected += weight * values[int(np.argmax(values[:, after.turn])), 0]
    assert search.one_ply(LEARNER, net, after, 0) == pytest.approx(expected)
