"""A position as the learned evaluation reads it: sparse board units plus a few derived terms.

The position is seen from the colour about to roll (the *roller*): slot ``j`` holds colour
``(roller + j) % 4``, so the same board relation between two colours always lands in the same
slots (a colour's progress ``p`` stands ``17 * j + p`` squares past the roller's entry), and
turn order runs up the slots. An inactive colour's slot is marked absent.

Board units (binary, given as the indices of the units that are on):

- per slot and per progress 0..70 (track and home lane): one or more pieces there, two there;
- per slot: at least 1, 2, 3, 4 pieces in START; at least 1, 2, 3, 4 pieces HOME;
- per slot: the colour is absent;
- the roller has rolled doubles once (twice) already this turn (the third doubles is a
  penalty, so the second and third roll of a turn are not like the first).

Derived terms (real numbers, per slot): the pips still to travel, the chance over the next
roll that some opponent captures each exposed piece (Hard's exact count over the 36 dice,
``risk.capture_chances``), summed and weighted by how far those pieces came. A
network could learn these from the board units, but only from far more games than the
2-core training budget allows.
"""

from __future__ import annotations

from ....core.learning.learner import Encoding
from ....core.state import Pieces
from ..board import HOME, START
from ..risk import ALL_HOME, capture_chances_all, occupancy

SLOT_UNITS = 150
"""Board units per slot: 2 x 71 progress units, 4 START units, 4 HOME units."""
_START_UNIT = 142
_HOME_UNIT = 146
ABSENT_UNIT = 4 * SLOT_UNITS
DOUBLES_UNIT = ABSENT_UNIT + 4
SPARSE_UNITS = DOUBLES_UNIT + 2
PAD_UNIT = SPARSE_UNITS
"""A unit that is never on: every position's list of units is padded with it to
``UNITS_ON`` entries, so a batch is one rectangular array."""
UNITS_ON = 20
"""At most 18 units are on in any position (4 per slot, 2 for the doubles)."""
DENSE_PER_SLOT = 3
DENSE_UNITS = 4 * DENSE_PER_SLOT
ENCODING = Encoding(sparse_units=SPARSE_UNITS, dense_units=DENSE_UNITS, units_on=UNITS_ON,
                    absent_unit=ABSENT_UNIT)
FULL_PIPS = 4 * (HOME - START)
"""Pips of a colour with every piece in START (each needs 72 steps to HOME)."""

_THERMOMETER = tuple(tuple(range(n)) for n in range(5))
_PADDING = [PAD_UNIT] * UNITS_ON


def slots(roller: int) -> tuple[int, int, int, int]:
    """The colour in each slot, seen from ``roller``."""
    return roller, (roller + 1) % 4, (roller + 2) % 4, (roller + 3) % 4


def encode(pieces: Pieces, roller: int, doubles: int) -> tuple[list[int], list[float]]:
    """The board units that are on (padded to ``UNITS_ON``), and the derived terms, of a
    position where ``roller`` is to roll having rolled ``doubles`` doubles in a row already
    this turn."""
    units: list[int] = []
    dense: list[float] = []
    add = units.append
    risks = capture_chances_all(pieces, occupancy(pieces))
    for j, colour in enumerate(slots(roller)):
        own = pieces[colour]
        base = j * SLOT_UNITS
        if not own or own == ALL_HOME:  # not playing, or placed and out of the race
            add(ABSENT_UNIT + j)
            dense += (0.0, 0.0, 0.0)
            continue
        starts = homes = 0
        pips = 0
        seen = 0
        for p in own:
            if p == START:
                starts += 1
                pips += HOME - START
            elif p == HOME:
                homes += 1
            else:
                pips += HOME - p
                bit = 1 << p
                if seen & bit:
                    add(base + 2 * p + 1)
                else:
                    seen |= bit
                    add(base + 2 * p)
        for k in _THERMOMETER[starts]:
            add(base + _START_UNIT + k)
        for k in _THERMOMETER[homes]:
            add(base + _HOME_UNIT + k)
        risk = weighted = 0.0
        for i, chance in risks[colour].items():
            risk += chance
            weighted += chance * (own[i] + 1) / HOME
        dense += (pips / FULL_PIPS, risk, weighted)
    if doubles:
        add(DOUBLES_UNIT)
        if doubles > 1:
            add(DOUBLES_UNIT + 1)
    units += _PADDING[len(units):]
    return units, dense
