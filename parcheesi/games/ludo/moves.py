"""The lean core of Ludo's rules: which moves a roll allows and what a move does to the
pieces (docs/rules/ludo.md 3, 3.1, 3.2), in plain tuples and ints.

Everything that needs to know a move's result asks here: the turn machine
(:mod:`.rules`), the choices the table shows, the outcomes of the command line, the
computers and the benchmark, so a simulated game pays for no event objects and the rules are
written once. A legal move is the tuple ``(piece, end, capture, victims, action)``:

- ``piece``: the index 0..3 of the mover's piece, ``end``: its progress after the move;
- ``capture``: the opponent colour the mover chose to capture when capturable pieces of more
  than one colour stand on the landing square (``None`` when there is no choice to make);
- ``victims``: the ``(colour, piece)`` of every opponent piece the move sends to its yard;
- ``action``: the :class:`~.actions.Move` that makes it, ``Move(piece, capture)``.

Pieces of one colour on one square are interchangeable, so a capture takes the first of
them (lowest index); pieces of the mover that stand together each get their own move (the
table groups them by piece).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...core.state import Phase, Pieces
from .actions import Move, move_action
from .board import HOME, ON_STAR, RIVALS, YARD
from .state import LudoState

LegalMove = tuple[int, int, int | None, tuple[tuple[int, int], ...], Move]
"""(piece, end, capture colour or None, victims as (colour, piece), the move's action)."""

_SET = object.__setattr__
_MOVE = Phase.MOVE

ENDS: tuple[tuple[int | None, ...], ...] = tuple(
    tuple(p + die if p + die <= HOME else None for p in range(HOME + 1))
    + (0 if die == 6 else None,)
    for die in range(7))
"""ENDS[die][progress]: where a piece at ``progress`` ends with ``die``, None if it cannot
move (past HOME, or in the yard without a 6). The yard's entry is the last, so that
``ENDS[die][YARD]`` (index -1) finds it."""
_PLAIN: tuple[Move, ...] = tuple(move_action(piece) for piece in range(4))

Rivals = tuple[tuple[int, int], ...]
Step = tuple[LegalMove, Rivals] | None
"""A piece's move with one die when nobody is captured, and the (colour, progress) of the
opponents it would capture where it lands; None when the piece cannot use the die."""


def _step_row(colour: int, die: int, piece: int) -> tuple[Step, ...]:
    """STEPS[colour][die][piece][progress], per progress (the yard's entry last)."""
    return tuple(None if end is None
                 else ((piece, end, None, (), _PLAIN[piece]), RIVALS[colour][end])
                 for end in ENDS[die])


STEPS: tuple[tuple[tuple[tuple[Step, ...], ...], ...], ...] = tuple(
    tuple(tuple(_step_row(colour, die, piece) for piece in range(4)) for die in range(7))
    for colour in range(len(RIVALS)))
"""STEPS[colour][die][piece][progress]: see :data:`Step`. The plain move tuples are made
once here, so a roll that captures nobody builds no tuple but the result."""


def find_moves(pieces: Pieces, colour: int, die: int, house: tuple[str, ...]
               ) -> tuple[LegalMove, ...]:
    """Every legal move of ``colour`` with ``die``, one per piece and capture choice, in
    piece order. Empty when no piece can use the roll.

    A piece in the yard comes out only on a 6, onto its start square, and that is the whole
    move; any other piece moves exactly ``die`` squares and never past HOME. It captures
    where it lands, unless the square is safe for the opponent there (their own start
    square; any star under ``stars``)."""
    found: list[LegalMove] = []
    a, b, c, d = STEPS[colour][die]
    at_a, at_b, at_c, at_d = pieces[colour]
    for step in (a[at_a], b[at_b], c[at_c], d[at_d]):
        if step is None:
            continue
        move, rivals = step
        for other, theirs in rivals:
            if theirs in pieces[other]:
                found.extend(_landing(pieces, colour, move[0], move[1], house))
                break
        else:  # nobody to capture there: the common case, kept short
            found.append(move)
    return tuple(found)


def _landing(pieces: Pieces, colour: int, piece: int, end: int, house: tuple[str, ...]
             ) -> list[LegalMove]:
    """The moves of ``piece`` landing at ``end`` where some opponent stands."""
    if "stars" in house and ON_STAR[colour][end]:
        return [(piece, end, None, (), _PLAIN[piece])]
    hit = [(other, theirs) for other, theirs in RIVALS[colour][end]
           if theirs in pieces[other]]
    return _captures(pieces, piece, end, hit, "capture_all" in house)


def _captures(pieces: Pieces, piece: int, end: int, hit: list[tuple[int, int]],
              capture_all: bool) -> list[LegalMove]:
    """The moves of a landing on capturable opponents ``hit`` ((colour, their progress))."""
    if capture_all:
        victims = tuple((other, k) for other, theirs in hit
                        for k, at in enumerate(pieces[other]) if at == theirs)
        return [(piece, end, None, victims, _PLAIN[piece])]
    if len(hit) == 1:
        other, theirs = hit[0]
        return [(piece, end, None, ((other, pieces[other].index(theirs)),), _PLAIN[piece])]
    return [(piece, end, other, ((other, pieces[other].index(theirs)),),
             move_action(piece, other)) for other, theirs in hit]


def legal_moves(state: LudoState) -> tuple[LegalMove, ...]:
    """The legal moves of the current roll (empty outside ``MOVE``), found once per roll and
    kept on the state."""
    if state.phase is not _MOVE:
        return ()
    cached: tuple[LegalMove, ...] | None = state.moves
    if cached is None:
        cached = find_moves(state.pieces, state.turn, state.portions[0], state.house)
        _SET(state, "moves", cached)
    return cached


def moved_pieces(pieces: Pieces, colour: int, move: LegalMove) -> Pieces:
    """The pieces after ``colour`` makes ``move``: the piece at its end, victims in their
    yards."""
    piece, end, _, victims, _ = move
    pieces = SWAP[colour](pieces, SWAP[piece](pieces[colour], end))
    if victims:  # rare: skip making an iterator for none
        for other, k in victims:
            pieces = SWAP[other](pieces, SWAP[k](pieces[other], YARD))
    return pieces


SWAP: tuple[Callable[[tuple[Any, ...], Any], tuple[Any, ...]], ...] = (
    lambda t, v: (v, t[1], t[2], t[3]),
    lambda t, v: (t[0], v, t[2], t[3]),
    lambda t, v: (t[0], t[1], v, t[3]),
    lambda t, v: (t[0], t[1], t[2], v),
)
"""SWAP[k](t, v): the 4-tuple ``t`` with item ``k`` replaced by ``v`` (four pieces, four
colours), the cheapest way Python has to make it. The turn machine places the piece of a
move that captures nobody with these itself, without :func:`moved_pieces`' call."""

