"""Who can hit what on Ludo's board, on the next turn: the tables Hard's evaluation, its
reasons and the learned evaluation's encoding all read.

A piece of ``hunter`` lands on a square by moving ``d`` squares from where it stands (a
piece in the yard comes out onto its start square with a 6 and may move on with the roll the
6 earns); :data:`REACH` lists those distances per square as bits, so the chance that one
turn hits a square is one table look-up (:data:`HIT`) over the bits of every piece of the
hunter. Safe squares (a colour's own start square, and under the ``stars`` house rule the
stars) are :data:`SAFE`'s.
"""

from __future__ import annotations

from ...core.state import Pieces
from .board import COLOURS, HOME, LAST_TRACK, STARS, START_SQUARES, TRACK_LENGTH, YARD


def _square_row(colour: int) -> tuple[int, ...]:
    """SQUARES[colour][progress]: the track square of a piece there, -1 off the track (the
    yard's entry last, so that ``row[YARD]`` finds it)."""
    start = START_SQUARES[colour]
    row = [(start + p) % TRACK_LENGTH if p <= LAST_TRACK else -1 for p in range(HOME + 1)]
    return (*row, -1)


def _reach_row(hunter: int, at: int) -> tuple[int, ...]:
    """For a piece of ``hunter`` at progress ``at``: per track square, bit ``d`` set when the
    piece lands there by moving ``d`` (1..12) squares without turning into its home lane
    first; for a piece in the yard, bit ``6 + n`` on the square ``n`` (0..6) past the start
    (out with a 6, which itself lands on the start square, then on by ``n``)."""
    start = START_SQUARES[hunter]
    row = [0] * TRACK_LENGTH
    if at == YARD:
        for n in range(7):
            row[(start + n) % TRACK_LENGTH] = 1 << (6 + n)
    elif at <= LAST_TRACK:
        for d in range(1, 13):
            if at + d <= LAST_TRACK:
                row[(start + at + d) % TRACK_LENGTH] = 1 << d
    return tuple(row)


def _hit(reach: int) -> float:
    """The chance that one turn lands on a square reached with the distances of ``reach``:
    one roll of 1..6, and after a 6 that does not land there, the roll it earns (a piece
    6 + n behind, or a piece n behind that did not move)."""
    first = bin(reach & 0x7E).count("1") / 6
    if reach & (1 << 6):
        return first
    return first + bin((reach >> 6 | reach) & 0x7E).count("1") / 36


SQUARES: tuple[tuple[int, ...], ...] = tuple(_square_row(c) for c in range(len(COLOURS)))
REACH: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_reach_row(c, p) for p in (*range(HOME + 1), YARD)) for c in range(len(COLOURS)))
"""REACH[hunter][progress][square]: the distances (bits, see :func:`_reach_row`) by which a
piece of ``hunter`` at ``progress`` can land on ``square`` in one turn."""
HIT: tuple[float, ...] = tuple(_hit(bits) for bits in range(1 << 13))
"""HIT[distances]: the chance of one turn landing on a square reached with those distances."""
SAFE: tuple[tuple[tuple[bool, ...], ...], ...] = tuple(
    tuple(tuple(sq == START_SQUARES[c] or (stars and sq in STARS) for sq in range(TRACK_LENGTH))
          for c in range(len(COLOURS))) for stars in (False, True))
"""SAFE[stars][colour][square]: whether a piece of ``colour`` cannot be captured there."""


def reach(pieces: Pieces, hunter: int, square: int) -> int:
    """The distances by which ``hunter``'s pieces can land on ``square`` in one turn."""
    row = REACH[hunter]
    bits = 0
    for at in pieces[hunter]:
        bits |= row[at][square]
    return bits


def hit_chance(pieces: Pieces, hunter: int, square: int) -> float:
    """The chance that ``hunter``, on its next turn, can land a piece on track ``square``.

    Counted over its roll and, after a 6 that does not hit, the roll the 6 earns: a piece
    1..6 squares behind hits with that number, 7..12 behind with a 6 and the rest; a piece
    that would turn into its home lane before the square cannot reach it; a piece in the
    yard comes out on the start square with a 6 (hitting there) and then moves on from it.
    Whether the square is safe for whoever stands there is the caller's business."""
    return HIT[reach(pieces, hunter, square)]


def danger(pieces: Pieces, me: int, rivals: tuple[int, ...], square: int, stars: bool
           ) -> float:
    """The chance that some opponent captures a piece of ``me`` standing on ``square``
    before ``me`` rolls again (each opponent that can land there is taken to do so)."""
    if SAFE[stars][me][square]:
        return 0.0
    miss = 1.0
    for other in rivals:
        miss *= 1.0 - hit_chance(pieces, other, square)
    return 1.0 - miss


def nearest_threat(pieces: Pieces, me: int, rivals: tuple[int, ...], square: int
                   ) -> tuple[int, int] | None:
    """(colour, squares behind) of the closest opponent piece that can reach ``square`` with
    one roll, or None (the reason's wording)."""
    found: tuple[int, int] | None = None
    for other in rivals:
        bits = reach(pieces, other, square) & 0x7E
        if bits:
            d = (bits & -bits).bit_length() - 1
            if found is None or d < found[1]:
                found = (other, d)
    return found
