"""A Ludo position as the learned evaluation reads it: sparse board units plus a few derived
terms.

The position is seen from the colour about to roll (the *roller*): slot ``j`` holds colour
``(roller + j) % 4``, so the same board relation between two colours always lands in the same
slots (a colour's track progress ``p`` stands ``13 * j + p`` squares past the roller's start
square), and turn order runs up the slots. An inactive colour's slot is marked absent, as is
a colour with every piece HOME (out of the race).

Board units (binary, given as the indices of the units that are on):

- per slot and per progress 0..55 (track and home lane): one or more pieces there, two or
  more there;
- per slot: at least 1, 2, 3, 4 pieces in the yard; at least 1, 2, 3, 4 pieces HOME;
- per slot: the colour is absent;
- the roller rolls again after one six (two sixes) this turn (under ``third_six`` a third
  six moves nothing);
- each house rule switched on: one network plays every rule set, since the rules change
  only a few squares' safety and a few extra rolls, and a network per set (32 of them)
  would each see a thirty-second of the games.

Derived terms (real numbers, per slot): the pips still to travel; the chance over the next
turns of the others that some opponent captures each of the colour's exposed pieces (the
exact count over the die and the roll a six earns, :mod:`..threats`), summed and weighted
by how far those pieces came; and the same weighted chance for the opponents' pieces this
colour can hit on its own next turn. A network could learn these from the board units, but
only from far more games than the 2-core training budget allows.
"""

from __future__ import annotations

from collections.abc import Callable

from ....core.learning.learner import Encoding
from ....core.state import Pieces
from ..board import HOME, HOUSE_RULES, YARD
from ..threats import HIT, REACH, SAFE, SQUARES

TRACK_UNITS = 2 * HOME
"""Per slot: one or more, two or more pieces at each progress 0..55."""
_YARD_UNIT = TRACK_UNITS
_HOME_UNIT = TRACK_UNITS + 4
SLOT_UNITS = TRACK_UNITS + 8
ABSENT_UNIT = 4 * SLOT_UNITS
SIXES_UNIT = ABSENT_UNIT + 4
HOUSE_UNIT = SIXES_UNIT + 2
SPARSE_UNITS = HOUSE_UNIT + len(HOUSE_RULES)
PAD_UNIT = SPARSE_UNITS
UNITS_ON = 24
"""At most 23 units are on in any position (4 per slot, 2 for the sixes, 5 house rules)."""
DENSE_PER_SLOT = 4
DENSE_UNITS = 4 * DENSE_PER_SLOT
FULL_PIPS = 4 * (HOME - YARD)
"""Pips of a colour with every piece in the yard (each needs 57 steps to HOME)."""
ENCODING = Encoding(sparse_units=SPARSE_UNITS, dense_units=DENSE_UNITS, units_on=UNITS_ON,
                    absent_unit=ABSENT_UNIT)

_ALL_HOME = (HOME,) * 4
_THERMOMETER = tuple(tuple(range(n)) for n in range(5))
_PADDING = [PAD_UNIT] * UNITS_ON
_HOUSE = {name: HOUSE_UNIT + k for k, name in enumerate(HOUSE_RULES)}
_ABSENT_TERMS = (0.0,) * DENSE_PER_SLOT


def slots(roller: int) -> tuple[int, int, int, int]:
    """The colour in each slot, seen from ``roller``."""
    return roller, (roller + 1) % 4, (roller + 2) % 4, (roller + 3) % 4


def encode(pieces: Pieces, roller: int, sixes: int, house: tuple[str, ...]) -> tuple[
        list[int], list[float]]:
    """The board units that are on (padded to ``UNITS_ON``), and the derived terms, of a
    position where ``roller`` is to roll having rolled ``sixes`` sixes in a row already this
    turn, with the house rules ``house``."""
    units: list[int] = []
    dense: list[float] = []
    add = units.append
    racing = [c for c in range(4) if pieces[c] and pieces[c] != _ALL_HOME]
    safe = SAFE["stars" in house]
    for j, colour in enumerate(slots(roller)):
        if colour not in racing:  # not playing, or placed and out of the race
            add(ABSENT_UNIT + j)
            dense += _ABSENT_TERMS
            continue
        _board_units(pieces[colour], j * SLOT_UNITS, add)
        rivals = [c for c in racing if c != colour]
        pips = sum(HOME - p for p in pieces[colour])
        risk, weighted = _exposure(pieces, colour, rivals, safe[colour])
        dense += (pips / FULL_PIPS, risk, weighted, _threat(pieces, colour, rivals, safe))
    if sixes:
        add(SIXES_UNIT)
        if sixes > 1:
            add(SIXES_UNIT + 1)
    for name in house:
        add(_HOUSE[name])
    units += _PADDING[len(units):]
    return units, dense


def _board_units(own: tuple[int, ...], base: int, put: Callable[[int], None]) -> None:
    """Add one colour's units (its slot's first unit is ``base``)."""
    yards = homes = 0
    once = twice = 0
    for p in own:
        if p == YARD:
            yards += 1
        elif p == HOME:
            homes += 1
        else:
            bit = 1 << p
            if not once & bit:
                once |= bit
                put(base + 2 * p)
            elif not twice & bit:  # a third or fourth piece there adds nothing more
                twice |= bit
                put(base + 2 * p + 1)
    for k in _THERMOMETER[yards]:
        put(base + _YARD_UNIT + k)
    for k in _THERMOMETER[homes]:
        put(base + _HOME_UNIT + k)


def _hit(pieces: Pieces, hunter: int, square: int) -> float:
    row = REACH[hunter]
    a, b, c, d = pieces[hunter]
    return HIT[row[a][square] | row[b][square] | row[c][square] | row[d][square]]


def _exposure(pieces: Pieces, colour: int, rivals: list[int], safe: tuple[bool, ...]
              ) -> tuple[float, float]:
    """The chance that some opponent hits each of ``colour``'s exposed track squares before
    it rolls again, summed, and weighted by how far the pieces there came."""
    risk = weighted = 0.0
    squares = SQUARES[colour]
    seen = 0
    for at in pieces[colour]:
        square = squares[at]
        if square < 0 or safe[square] or seen >> square & 1:
            continue  # off the track, safe, or counted already
        seen |= 1 << square
        miss = 1.0
        for other in rivals:
            miss *= 1.0 - _hit(pieces, other, square)
        risk += 1.0 - miss
        weighted += (1.0 - miss) * (at + 1) / HOME
    return risk, weighted


def _threat(pieces: Pieces, colour: int, rivals: list[int],
            safe: tuple[tuple[bool, ...], ...]) -> float:
    """The chance ``colour`` hits each exposed opponent piece on its next turn, weighted by
    how far that piece came, summed."""
    total = 0.0
    for other in rivals:
        squares, theirs = SQUARES[other], safe[other]
        for at in pieces[other]:
            square = squares[at]
            if square >= 0 and not theirs[square]:
                total += _hit(pieces, colour, square) * (at + 1) / HOME
    return total
