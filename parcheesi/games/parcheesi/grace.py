"""Amazing Grace: an outside benchmark opponent, ported from a published evaluation.

The source is the "Amazing Grace" player (``best-player%``) of the Parcheesi game in
Racket's games collection (the ``games`` package, ``parcheesi/best-players.rkt`` with
``board.rkt`` and ``moves.rkt``; Racket is MIT/Apache-2.0 licensed). That code was read to
learn what the evaluation measures; this module is our own implementation of it on this
engine, so that our players can be measured against a bot nobody here tuned. It is a
benchmark level only (``python -m parcheesi simulate`` and ``choose``), never offered at a
table (``ai.TABLE_LEVELS``).

Grace scores each end position of its roll and takes the best::

    2 * (500 - distance) + (36 - bop_chance) + 10 * blockades

- ``distance`` (:func:`distance`, Racket's ``find-distance``): the squares the player's
  four pieces still have to travel. A piece in START counts 100, a piece on the track
  ``73 - progress`` (73 on its entry square, 10 on its turn-off square), a piece in the
  home lane ``71 - progress`` (7 on the first lane square, 1 on the last) and a piece HOME
  0. The true distance from the entry square is 71: Racket subtracts track squares from 73
  but lane squares from 7, so stepping from the turn-off square into the lane gains three
  instead of one. Kept as published: it is a small pull into the safe lane.
- ``bop_chance`` (:func:`bop_chance`, ``find-bop-chance``): how many of the 36 outcomes of
  the next roll (ordered pairs of dice) let some opponent capture at least one of the
  player's pieces: a union over pieces and opponents, not a sum. Only a piece alone on a
  track square can be hit (two of the player's pieces together are a blockade and safe;
  lane, START and HOME never count). For each such piece and each opponent piece:

  * an opponent piece in START threatens through entering: on the opponent's entry square
    any roll with a 5 or summing to 5 (15 outcomes; entering captures even on that safe
    square), and 1 to 6 squares past it the 5 plus that die (enter with the 5, move on
    with the other: 2 outcomes, 1 for 5-5). Whether the entry or the way on is blocked is
    not looked at;
  * an opponent piece on the track threatens a piece d squares ahead of it, unless the
    target stands on a safe square or a blockade (two pieces on one track square, of any
    colour) stands anywhere from the opponent's own square to the target's. The rolls
    counted are the pairs summing to d (d = 2 to 12: doubles therefore count only as
    their sum) and, for d = 1 to 6, every roll with a die showing **1**. That 1 is what
    the published code does for every distance 1 to 6 (``add-single-roll-chances 1``, and
    Racket's own test expects 11 for a distance of 2); the evident intent is a die showing
    d. Ported as published, since the benchmark is that published player.

  The count ignores, as Racket's does, four-portion doubles (a, a, 7-a, 7-a), the rewards
  a capture or a HOME would earn the opponent on the way, mandatory entries, an opponent's
  turn-off into its lane (a piece just before its turn-off square is counted as
  threatening squares past it) and that a piece standing in a blockade can move out of
  it (the path check includes the opponent's own square).
- ``blockades`` (:func:`blockades`, ``find-blockades/color``): the number of squares, on
  the track or in the home lane, holding two of the player's pieces.

How the Racket board maps onto ours. The geometry is the same: Racket's colours green,
red, blue and yellow turn off at squares 0, 17, 34 and 51 and enter at 5, 22, 39 and 56,
like our ruby, emerald, sapphire and amber, with the same twelve safe squares and a lane of
seven squares after the turn-off square; a Racket main-board location is our track square
(``board.track_square``) and a home-row location ``n`` our progress ``64 + n``. The rules
the evaluation could be affected by are the same too: Racket's Parcheesi also moves tops
and bottoms on doubles when no pawn is in START and also rewards 20 for a capture and 10
for HOME, and its evaluation leaves both out of the bop count, so this one does too. What
differs, and the choices made:

- Candidates: Racket scores every end board of its own move search (bonuses as extra
  moves among the dice); here the candidates are our engine's complete end positions of
  the roll, :func:`game.roll_outcomes`, as for every other player, so which sequences are
  legal (mandatory entry, four portions all or none, rewards after the dice, blockades
  apart for the whole turn) is our rules'.
- Seats: Racket always seats four colours. Here an inactive colour has no pieces, so only
  the opponents actually seated threaten; a player already placed (playing on for places)
  has every piece HOME and so threatens nothing.
- Ties: Racket picks at random among the best scores; here the pick among them comes from
  the generator seeded from the state (``ai._rng``), so a game replays identically.
- The end of the game: as in Racket, the finishing position has no special case. It scores
  1036 (distance 0, nothing to hit), which only blockades on the lane's last two squares
  with every other piece HOME would beat.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from ...core.state import Pieces
from .board import HOME, LAST_TRACK, SAFE_SQUARES, START, TRACK_LENGTH, TRACK_SQUARES, entry_square
from .state import State
from .turns import Action

LEVEL = "grace"
"""The computer level's name (``simulate --players``, ``choose --player``)."""

START_DISTANCE = 100
"""A piece in START: more than the 73 of one just entered, so entering is worth 27."""
TRACK_DISTANCE = 73
"""A piece on the track has ``73 - progress`` to go by Racket's count (truly 71)."""


def piece_distance(progress: int) -> int:
    """What one piece still has to travel, by Racket's ``find-loc-distance``."""
    if progress == START:
        return START_DISTANCE
    if progress <= LAST_TRACK:
        return TRACK_DISTANCE - progress
    return HOME - progress


def distance(own: tuple[int, ...]) -> int:
    return sum(piece_distance(p) for p in own)


def _blockade_spots(own: tuple[int, ...]) -> set[int]:
    """The progress values (track or lane) where two of ``own`` stand together."""
    return {p for p in own if START < p < HOME and own.count(p) == 2}


def blockades(own: tuple[int, ...]) -> int:
    return len(_blockade_spots(own))


_DICE = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def _outcomes(rolls: Iterable[tuple[int, int]]) -> int:
    """The dice outcomes ``rolls`` as a bitmask over the 36 ordered pairs."""
    return sum(1 << _DICE.index(roll) for roll in set(rolls))


_ENTERING_HIT = _outcomes(r for r in _DICE if 5 in r or sum(r) == 5)
"""An opponent in START hits a piece on its entry square: a 5, or 1+4 / 2+3."""
_ENTER_THEN_HIT = tuple(_outcomes(r for r in _DICE if sorted(r) == sorted((5, k)))
                        for k in range(7))
"""An opponent in START hits a piece k = 1..6 squares past its entry: the 5 and a k."""
_TRACK_HIT = tuple(_outcomes(r for r in _DICE if sum(r) == d or (1 <= d <= 6 and 1 in r))
                   for d in range(TRACK_LENGTH))
"""An opponent on the track hits a piece d squares ahead (see the module docstring for the
die showing 1, as published)."""


def bop_chance(pieces: Pieces, me: int) -> int:
    """How many of the 36 outcomes of the next roll let some opponent hit one of ``me``'s
    pieces, counted as Racket's ``find-bop-chance`` counts them."""
    own = pieces[me]
    spots = _blockade_spots(own)
    targets = [TRACK_SQUARES[me][p] for p in own if 0 <= p <= LAST_TRACK and p not in spots]
    if not targets:
        return 0
    walls = _walls(pieces)
    hit = 0
    for colour, theirs in enumerate(pieces):
        if colour == me:
            continue
        entry = entry_square(colour)
        for q in set(theirs):
            for target in targets:
                hit |= _hits(colour, q, target, entry, walls)
    return hit.bit_count()


def _walls(pieces: Pieces) -> list[int]:
    """Track squares holding two pieces (blockades, whoever's)."""
    counts: dict[int, int] = {}
    for colour, own in enumerate(pieces):
        for p in own:
            if 0 <= p <= LAST_TRACK:
                square = TRACK_SQUARES[colour][p]
                counts[square] = counts.get(square, 0) + 1
    return [square for square, n in counts.items() if n == 2]


def _hits(colour: int, q: int, target: int, entry: int, walls: list[int]) -> int:
    """The outcomes with which ``colour``'s piece at progress ``q`` hits a piece alone on
    track square ``target``."""
    if q == START:
        past = (target - entry) % TRACK_LENGTH
        if past == 0:
            return _ENTERING_HIT
        return _ENTER_THEN_HIT[past] if past <= 6 else 0
    if q > LAST_TRACK or target in SAFE_SQUARES:
        return 0
    start = TRACK_SQUARES[colour][q]
    ahead = (target - start) % TRACK_LENGTH
    if any((wall - start) % TRACK_LENGTH <= ahead for wall in walls):
        return 0
    return _TRACK_HIT[ahead]


def score(pieces: Pieces, me: int) -> int:
    """Amazing Grace's value of a position for ``me`` (higher is better)."""
    own = pieces[me]
    return (2 * (500 - distance(own)) + (36 - bop_chance(pieces, me))
            + 10 * blockades(own))


def choose(options: Sequence[tuple[State, list[Action]]], me: int,
           rng: random.Random) -> int:
    """The index of the best-scoring end position among ``options`` (those of
    ``game.roll_outcomes``), a tie settled by ``rng``."""
    scores = [score(after.pieces, me) for after, _ in options]
    best = max(scores)
    tied = [k for k, value in enumerate(scores) if value == best]
    return tied[0] if len(tied) == 1 else rng.choice(tied)
