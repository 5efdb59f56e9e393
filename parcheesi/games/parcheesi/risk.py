"""The danger a piece runs: how likely an opponent's next roll captures it.

Exact over the 36 dice outcomes of each opponent (entries, mandatory entries, blockades on
the way, safe squares and the owner's entry square respected), combined over opponents as
independent rolls. Two measures: :func:`capture_chances` looks at one roll of each
opponent (the learned evaluation reads it as one of its terms, and the hint explains a
choice with it); :func:`turn_capture_chances` also counts the rest of the opponent's turn,
the reroll after doubles and the 20-square bonus of a capture made elsewhere, which Hard
weighs its pieces by (one roll alone left its pieces captured 1.38 times as often as it
expected in two-player games; docs/benchmarks.md).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from ...core.state import Pieces
from .board import HOME, LAST_TRACK, SAFE_SQUARES, START, TRACK_LENGTH, TRACK_SQUARES, entry_square
from .turns import CAPTURE_REWARD

ALL_HOME = (HOME,) * 4


def opponents(pieces: Pieces, me: int) -> list[int]:
    """The other colours still racing (in play, not all four pieces HOME)."""
    return [c for c in range(4) if c != me and pieces[c] and pieces[c] != ALL_HOME]


def occupancy(pieces: Pieces) -> dict[int, tuple[int, int]]:
    """Track square -> (colour, count)."""
    board: dict[int, tuple[int, int]] = {}
    for c, own in enumerate(pieces):
        squares = TRACK_SQUARES[c]
        for p in own:
            if 0 <= p <= LAST_TRACK:
                sq = squares[p]
                board[sq] = (c, board[sq][1] + 1) if sq in board else (c, 1)
    return board


_ENTRY_SQUARES = {entry_square(c): c for c in range(4)}


def exposed(pieces: Pieces, me: int) -> list[int]:
    """My pieces that an opponent could capture: alone on an ordinary track square (or alone
    on an active opponent's entry square, where only an entering piece can take them)."""
    own = pieces[me]
    squares = TRACK_SQUARES[me]
    out = []
    for i, p in enumerate(own):
        if 0 <= p <= LAST_TRACK and own.count(p) == 1:
            sq = squares[p]
            owner = _ENTRY_SQUARES.get(sq, me)
            if sq not in SAFE_SQUARES or (owner != me and pieces[owner]):
                out.append(i)
    return out



_DICE = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def _dice_tables() -> dict[str, tuple[list[int], int, list[int]]]:
    """Per START situation of the opponent, over the 36 dice outcomes as bitmasks:
    (outcomes letting a piece already out move exactly d, for d = 0..14;
    outcomes that enter a piece; outcomes that enter and then move the new piece d).

    Situations: ``none`` (no piece in START: doubles give four portions), ``blocked``
    (pieces in START but the entry is blocked), ``one`` / ``many`` (one or several pieces in
    START and the entry open: entry is mandatory, so a 5 or a 1+4 / 2+3 goes to entering).
    """
    tables = {}
    for mode in ("none", "blocked", "one", "many"):
        moves = [0] * 15
        enters = 0
        enter_then = [0] * 15
        for k, (a, b) in enumerate(_DICE):
            bit = 1 << k
            distances, after_entry, can_enter = _roll_effects(mode, a, b)
            for d in distances:
                moves[d] |= bit
            for d in after_entry:
                enter_then[d] |= bit
            if can_enter:
                enters |= bit
        tables[mode] = (moves, enters, enter_then)
    return tables


def _roll_effects(mode: str, a: int, b: int) -> tuple[set[int], set[int], bool]:
    """For the dice a and b in a START situation (see :func:`_dice_tables`): the distances
    a piece already out can move, the distances a just-entered piece can move on, and
    whether a piece enters."""
    if mode == "none" and a == b:
        c = 7 - a
        return {a, 2 * a, c, 2 * c, a + c, 2 * a + c, a + 2 * c, 2 * a + 2 * c}, set(), False
    if mode in ("none", "blocked"):
        return {a, b, a + b}, set(), False
    if a + b == 5:
        return set(), set(), True
    if a == 5 and b == 5:
        return ({5}, {5}, True) if mode == "one" else (set(), set(), True)
    if a == 5 or b == 5:
        other = b if a == 5 else a
        return {other}, {other}, True
    return {a, b, a + b}, set(), False


_TABLES = _dice_tables()
_SQUARE_TO_PROGRESS = tuple(tuple((sq - 17 * c - 5) % TRACK_LENGTH for sq in range(TRACK_LENGTH))
                            for c in range(4))


def capture_chances(pieces: Pieces, me: int,
                    board: dict[int, tuple[int, int]] | None = None) -> dict[int, float]:
    """For each exposed piece of ``me``: the chance that some opponent can capture it on
    their next roll, exact over each opponent's 36 dice outcomes (opponents combined as
    independent rolls). Mandatory and blocked entries, entry captures, blockades on the path
    and safe squares are respected; what a piece landing mid-move would meet is not."""
    return _chances(pieces, me, board, whole_turn=False)


def turn_capture_chances(pieces: Pieces, me: int,
                         board: dict[int, tuple[int, int]] | None = None) -> dict[int, float]:
    """For each exposed piece of ``me``: the chance that some opponent captures it during
    their next turn, not just their next roll. Beyond :func:`capture_chances` it counts the
    rerolls after doubles that missed (up to two more rolls), and the bonus of 20 squares an
    opponent earns by capturing something else, which lands on the piece when one of that
    opponent's pieces stands exactly 20 squares behind it with no blockade between. An
    estimate (a capture that both bonuses and rerolls make is counted once), capped at 1."""
    return _chances(pieces, me, board, whole_turn=True)


def _chances(pieces: Pieces, me: int, board: dict[int, tuple[int, int]] | None,
             whole_turn: bool) -> dict[int, float]:
    """:func:`capture_chances` or, with ``whole_turn``, :func:`turn_capture_chances`:
    each opponent's chance on each exposed square, combined as independent."""
    open_pieces = exposed(pieces, me)
    if not open_pieces:
        return {}
    if board is None:
        board = occupancy(pieces)
    blocked = _blocked(board)
    squares = TRACK_SQUARES[me]
    survive = dict.fromkeys(open_pieces, 1.0)
    for o in opponents(pieces, me):
        landing = _landing(o, pieces[o], blocked)
        chance_at = (_turn_chance(o, pieces[o], blocked, board, landing) if whole_turn
                     else _roll_chance(landing))
        for i in open_pieces:
            chance = chance_at(squares[pieces[me][i]])
            if chance:
                survive[i] *= 1 - chance
    return {i: 1 - s for i, s in survive.items()}


def _roll_chance(landing: dict[int, int]) -> Callable[[int], float]:
    """The chance one roll of the opponent whose ``landing`` map this is captures on a
    square."""
    return lambda sq: landing.get(sq, 0).bit_count() / 36


_DOUBLES = sum(1 << 7 * a for a in range(6))
"""The six doubles among the 36 dice outcomes, as a bitmask (outcome k is (k // 6 + 1,
k % 6 + 1))."""


def _turn_chance(colour: int, own: tuple[int, ...], blocked: tuple[int, ...],
                 board: dict[int, tuple[int, int]], landing: dict[int, int]
                 ) -> Callable[[int], float]:
    """The chance ``colour``'s whole next turn captures on a square: its first roll, the
    rerolls after doubles that missed, and a capture elsewhere whose bonus lands there."""
    chained = _bonus_targets(colour, own, blocked)
    captures = 0
    if chained:
        for sq, (c, n) in board.items():
            if n == 1 and c != colour:
                captures |= landing.get(sq, 0)

    def chance(sq: int) -> float:
        mask = landing.get(sq, 0)
        first = mask.bit_count() / 36
        again = (_DOUBLES & ~mask).bit_count() / 36
        value = first * (1 + again + again * again)
        if sq in chained:
            value += (captures & ~mask).bit_count() / 36
        return min(1.0, value)

    return chance


@lru_cache(maxsize=8192)
def _bonus_targets(colour: int, own: tuple[int, ...], blocked: tuple[int, ...]) -> frozenset[int]:
    """The ordinary track squares exactly a capture's bonus (20 squares) ahead of one of
    ``colour``'s pieces on the track with no blockade on the way: where a capture bonus can
    land."""
    to_progress = _SQUARE_TO_PROGRESS[colour]
    squares = TRACK_SQUARES[colour]
    walls = [to_progress[sq] for sq in blocked]
    targets = set()
    for p in set(own):
        if 0 <= p <= LAST_TRACK - CAPTURE_REWARD and not any(
                p < w <= p + CAPTURE_REWARD for w in walls):
            sq = squares[p + CAPTURE_REWARD]
            if sq not in SAFE_SQUARES:
                targets.add(sq)
    return frozenset(targets)


def capture_chances_all(pieces: Pieces, board: dict[int, tuple[int, int]]
                        ) -> list[dict[int, float]]:
    """:func:`capture_chances` of every colour at once (empty for a colour not racing)."""
    blocked = _blocked(board)
    racing = [c for c in range(4) if pieces[c] and pieces[c] != ALL_HOME]
    result: list[dict[int, float]] = [{}, {}, {}, {}]
    for me in racing:
        open_pieces = exposed(pieces, me)
        if not open_pieces:
            continue
        own = pieces[me]
        squares = TRACK_SQUARES[me]
        survive = dict.fromkeys(open_pieces, 1.0)
        for o in racing:
            if o == me:
                continue
            landing = _landing(o, pieces[o], blocked)
            for i in open_pieces:
                mask = landing.get(squares[own[i]])
                if mask:
                    survive[i] *= 1 - mask.bit_count() / 36
        result[me] = {i: 1 - s for i, s in survive.items()}
    return result


def _blocked(board: dict[int, tuple[int, int]]) -> tuple[int, ...]:
    """The track squares holding a blockade, in order."""
    return tuple(sorted(sq for sq, (_, n) in board.items() if n == 2))


@lru_cache(maxsize=8192)
def _landing(colour: int, own: tuple[int, ...], blocked: tuple[int, ...]) -> dict[int, int]:
    """Where ``colour``'s next roll can land a piece that captures: track square -> the dice
    outcomes (a bitmask over the 36) that land one there. Only squares where a capture is
    possible are listed: ordinary track squares, and the colour's own entry square for a
    piece entering. Cached: the opponents of the player to move are the same in every end
    position of a roll, and often across rolls."""
    to_progress = _SQUARE_TO_PROGRESS[colour]
    squares = TRACK_SQUARES[colour]
    walls = sorted(to_progress[sq] for sq in blocked)
    starts = own.count(START)
    mode = ("none" if not starts else "blocked" if 0 in walls
            else "one" if starts == 1 else "many")
    moves, enters, enter_then = _TABLES[mode]
    landing: dict[int, int] = {}
    runs = [(p, moves) for p in set(own) if 0 <= p <= LAST_TRACK]
    if mode in ("one", "many"):
        landing[squares[0]] = enters
        runs.append((0, enter_then))
    for p, masks in runs:
        limit = min(next((w for w in walls if w > p), 99), LAST_TRACK + 1)
        for x in range(p + 1, min(p + 15, limit)):
            mask = masks[x - p]
            sq = squares[x]
            if mask and sq not in SAFE_SQUARES:
                landing[sq] = landing.get(sq, 0) | mask
    return landing


def capture_counts(pieces: Pieces, me: int,
                   board: dict[int, tuple[int, int]] | None = None) -> dict[int, dict[int, int]]:
    """For each exposed piece of ``me``: for each opponent whose next roll can capture it,
    how many of that opponent's 36 dice outcomes can (the counts :func:`capture_chances`
    combines; an opponent that cannot reach the piece is left out). For the hint's words:
    "10 of Sapphire's 36 rolls could hit it" is exact."""
    open_pieces = exposed(pieces, me)
    if not open_pieces:
        return {}
    if board is None:
        board = occupancy(pieces)
    blocked = _blocked(board)
    squares = TRACK_SQUARES[me]
    counts: dict[int, dict[int, int]] = {i: {} for i in open_pieces}
    for o in opponents(pieces, me):
        landing = _landing(o, pieces[o], blocked)
        for i in open_pieces:
            n = landing.get(squares[pieces[me][i]], 0).bit_count()
            if n:
                counts[i][o] = n
    return counts
