"""Ludo's computer players (random, easy, medium, hard, expert; points for benchmarks).

``decide(state, level, reason=False)`` returns a :class:`Decision`: the actions that finish
the current roll (or answer the current question), the position after them and, if asked,
a reason a person can read. The hint is Expert's decision with its reason, as the strongest
table level's (``GameRules.hint``).

Every player chooses among the legal moves of the roll (:func:`.moves.legal_moves`) and
sees the result of each through :func:`.moves.moved_pieces`, so no rule is written twice;
none of them sees future dice. All are deterministic for a given position: the random
player's draw is seeded from the position, and ties go to the first move in the rules'
order (piece order), so a game replays identically.

- **random**: a uniformly random legal move (the baseline).
- **easy**: a capture when it can make one (the most advanced victim), else a move drawn by
  a generator seeded from the position.
- **medium**: a fixed order of simple preferences: capture (the most advanced victim), run
  from an opponent 1..6 squares behind to where none is, bring a piece out with a 6, then
  move the most advanced piece.
- **hard**: looks one roll ahead. For each move it takes the resulting position, and for
  each of the six numbers the next roller can throw (the next opponent, or itself when the
  move earns another roll) the move that roller likes best by the same evaluation; the
  move's score is the mean of its evaluation of those six positions. The evaluation
  (:func:`evaluate`) is the value of every piece (progress, out of the yard, in the home
  lane, HOME), less each exposed piece's expected loss (the chance, over an opponent's roll
  and the roll a 6 earns, that some opponent lands on it: pieces about to turn into their
  own lane cannot, a player's own start square and, under ``stars``, the stars are safe, an
  opponent's yard comes out with a 6 onto its start square and captures there), less the
  opponents' pieces' value (so captures count), plus a share of what it threatens to
  capture on its next roll; an extra roll counts for whoever earns it. The weights
  (:class:`Weights`) were tuned with the simulator (docs/benchmarks.md).
- **expert**: the learned evaluation with one ply of chance (:mod:`.expert`): the network's
  best few moves, each looked at over the six numbers of the next roll.
- **points**: the classic points heuristic (:mod:`.points`), for benchmarks only.

Every player always agrees to play on for the next places (docs/rules/ludo.md 3.3: computers
always agree).
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

from ...core import rules
from ...core.actions import PlayOn, Roll
from ...core.state import Phase, Pieces, next_racing
from ...core.words import counted
from . import points
from .actions import Action
from .board import COLOURS, FIRST_LANE, HOME, LAST_TRACK, STARS, START_SQUARES, TRACK_LENGTH, YARD
from .expert import EXPERT, LEVEL
from .moves import LegalMove, find_moves, legal_moves, moved_pieces
from .state import LudoState
from .threats import HIT, REACH, SAFE, SQUARES, danger, nearest_threat
from .turns import advance

TABLE_LEVELS = ("easy", "medium", "hard", LEVEL)
"""The levels a computer seat at a table can have."""
LEVELS = ("random", *TABLE_LEVELS, points.LEVEL)
"""Every computer player, the benchmarks' random mover and points opponent included."""

_ALL_HOME = (HOME,) * 4


Decision = rules.Decision[Action, LudoState]
"""What a player does with the current roll (or question), and why (for the hint)."""


def decide(state: LudoState, level: str, reason: bool = False) -> Decision:
    """The computer's choice for the player to act: roll, move, or play on.

    The reason is only written when asked for (it costs a second look at the position)."""
    if level not in LEVELS:
        raise ValueError(f"unknown player {level!r} (use {', '.join(LEVELS)})")
    if state.phase in (Phase.OPENING, Phase.ROLL):
        return Decision([Roll()], state, "Rolls the die")
    if state.phase is Phase.PLAY_ON:
        agree = PlayOn(True)
        return Decision([agree], advance(state, agree), "Plays on for the next places")
    moves = legal_moves(state)
    if not moves:
        raise ValueError("the game is over" if state.phase is Phase.OVER
                         else "there is nothing to decide")
    index = 0 if len(moves) == 1 else CHOOSERS[level](state, moves)
    move = moves[index]
    action = move[4]
    return Decision([action], advance(state, action), explain(state, move) if reason else "")


def _rng(state: LudoState) -> random.Random:
    """A generator seeded from the position, so a decision replays identically."""
    digest = hashlib.blake2b(repr((state.pieces, state.turn, state.dice, state.rolls)).encode(),
                             digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "big"))


def _best(scores: list[float]) -> int:
    """The index of the highest score, the first on a tie."""
    return max(range(len(scores)), key=lambda k: (scores[k], -k))


# --- random and easy --------------------------------------------------------------------------

def _random(state: LudoState, moves: tuple[LegalMove, ...]) -> int:
    return _rng(state).randrange(len(moves))


def _easy(state: LudoState, moves: tuple[LegalMove, ...]) -> int:
    """A capture if there is one (the most advanced victim), else a seeded random move."""
    taken = [_victims_progress(state.pieces, move) for move in moves]
    if max(taken) > 0:
        return _best(taken)
    return _rng(state).randrange(len(moves))


def _victims_progress(pieces: Pieces, move: LegalMove) -> float:
    """How much progress a move takes from the opponents (each victim counts at least 1)."""
    return float(sum(pieces[other][k] + 2 for other, k in move[3]))


# --- hard --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Weights:
    """Hard's evaluation, in squares of progress (tuned by measurement, benchmarks/ludo_ai.py)."""

    out: float = 12.0
    """A piece out of the yard, beyond its progress (a 6 is needed to bring it out)."""
    lane: float = 10.0
    """A piece in its home lane: out of everyone's reach for good."""
    home: float = 6.0
    """A piece HOME, beyond the lane."""
    lead: float = 0.0
    """Extra value of progress the further a piece has come: ``lead * p * p / 50``."""
    risk: float = 0.3
    """Weight of the expected loss of an exposed piece."""
    rival: float = 1.0
    """Weight of the opponents' pieces (what a capture takes from them)."""
    threat: float = 1.0
    """Weight of the expected gain from the captures the position threatens."""
    again: float = 6.0
    """An extra roll (earned by a 6, a capture or HOME)."""


WEIGHTS = Weights()


def piece_values(w: Weights) -> tuple[float, ...]:
    """VALUES[progress] of one piece (the yard's value last, so that VALUES[YARD] finds it)."""
    values = [w.out + p + w.lead * p * p / 50 for p in range(FIRST_LANE)]
    values += [w.out + p + w.lead * p * p / 50 + w.lane for p in range(FIRST_LANE, HOME)]
    values.append(w.out + HOME + w.lead * HOME * HOME / 50 + w.lane + w.home)
    values.append(0.0)
    return tuple(values)


_VALUES = piece_values(WEIGHTS)


def evaluate(pieces: Pieces, me: int, rivals: tuple[int, ...], stars: bool,
             w: Weights = WEIGHTS, values: tuple[float, ...] = _VALUES) -> float:
    """The static score of a position for ``me``: its pieces' value less their expected
    loss to the opponents' next turns, less the opponents' pieces' value, plus a share of
    what ``me`` threatens to capture."""
    return (_own_score(pieces, me, rivals, SAFE[stars][me], w.risk, values)
            + _rivals_score(pieces, me, rivals, SAFE[stars], w, values))


def _own_score(pieces: Pieces, me: int, rivals: tuple[int, ...], safe: tuple[bool, ...],
               risk: float, values: tuple[float, ...]) -> float:
    score = 0.0
    squares = SQUARES[me]
    seen = 0
    for at in pieces[me]:
        value = values[at]
        score += value
        square = squares[at]
        if square < 0 or safe[square] or seen >> square & 1:
            continue  # off the track, safe, or counted (a landing captures one piece)
        seen |= 1 << square
        miss = 1.0
        for other in rivals:
            row = REACH[other]
            a, b, c, d = pieces[other]
            miss *= 1.0 - HIT[row[a][square] | row[b][square] | row[c][square] | row[d][square]]
        score -= risk * value * (1.0 - miss)
    return score


def _rivals_score(pieces: Pieces, me: int, rivals: tuple[int, ...],
                  safe: tuple[tuple[bool, ...], ...], w: Weights, values: tuple[float, ...]
                  ) -> float:
    row = REACH[me]
    a, b, c, d = pieces[me]
    ra, rb, rc, rd = row[a], row[b], row[c], row[d]
    lost = 0.0
    threatened = 0.0
    for other in rivals:
        squares = SQUARES[other]
        theirs = safe[other]
        for at in pieces[other]:
            value = values[at]
            lost += value
            square = squares[at]
            if square >= 0 and not theirs[square]:
                threatened += value * HIT[ra[square] | rb[square] | rc[square] | rd[square]]
    return w.threat * threatened - w.rival * lost


def _hard(state: LudoState, moves: tuple[LegalMove, ...]) -> int:
    return _best(hard_scores(state, moves))


def hard_scores(state: LudoState, moves: tuple[LegalMove, ...], w: Weights = WEIGHTS
                ) -> list[float]:
    """Hard's score of each move: the expected static score after the next roll (the
    opponent's who moves next, or the player's own when the move earns another), its best
    move for that roller by the same evaluation."""
    me = state.turn
    values = _VALUES if w is WEIGHTS else piece_values(w)
    scores = []
    for move in moves:
        pieces = moved_pieces(state.pieces, me, move)
        if pieces[me] == _ALL_HOME:
            scores.append(float("inf"))
            continue
        again = _earns_roll(state.house, state.portions[0], move)
        roller = me if again else next_racing(state.colours, state.places, me)
        scores.append(_expected(state, pieces, me, roller, w, values))
    return scores


def _earns_roll(house: tuple[str, ...], die: int, move: LegalMove) -> bool:
    """Whether ``move`` with ``die`` earns another roll (docs/rules/ludo.md 3.2)."""
    return die == 6 or bool(move[3]) or (move[1] == HOME and "no_home_bonus" not in house)


def _expected(state: LudoState, pieces: Pieces, me: int, roller: int, w: Weights,
              values: tuple[float, ...]) -> float:
    """The mean over ``roller``'s next roll of ``me``'s score once ``roller`` has made its
    best move (an extra roll it earns counted as ``w.again`` for whoever earns it)."""
    house = state.house
    stars = "stars" in house
    mine = tuple(c for c in state.colours if c != me)
    theirs = tuple(c for c in state.colours if c != roller)
    sign = 1.0 if roller == me else -1.0
    # under third_six, a third 6 in a row moves nothing (docs/rules/ludo.md 4)
    last = 6 if roller == me and state.sixes >= 2 and "third_six" in house else 7
    total = 0.0
    for die in range(1, 7):
        options = find_moves(pieces, roller, die, house) if die < last else ()
        if not options:
            total += evaluate(pieces, me, mine, stars, w, values)
            continue
        after, again = _reply(pieces, roller, theirs, options, die, state.house, w, values)
        total += evaluate(after, me, mine, stars, w, values) + sign * w.again * again
    return total / 6


def _reply(pieces: Pieces, roller: int, rivals: tuple[int, ...],
           options: tuple[LegalMove, ...], die: int, house: tuple[str, ...], w: Weights,
           values: tuple[float, ...]) -> tuple[Pieces, bool]:
    """The pieces after ``roller``'s best move with ``die`` by the static evaluation, and
    whether that move earns another roll."""
    stars = "stars" in house
    best = -float("inf")
    after = pieces
    again = False
    for option in options:
        result = moved_pieces(pieces, roller, option)
        extra = _earns_roll(house, die, option)
        score = evaluate(result, roller, rivals, stars, w, values) + w.again * extra
        if score > best:
            best, after, again = score, result, extra
    return after, again


# --- medium ------------------------------------------------------------------------------------

def _medium(state: LudoState, moves: tuple[LegalMove, ...]) -> int:
    me = state.turn
    rivals = tuple(c for c in state.colours if c != me)
    stars = "stars" in state.house
    return _best([_medium_key(state, move, me, rivals, stars) for move in moves])


def _medium_key(state: LudoState, move: LegalMove, me: int, rivals: tuple[int, ...],
                stars: bool) -> float:
    """Medium's preferences as one number: each rank outweighs everything below it."""
    piece, end, _, victims, _ = move
    start = state.mover[piece]
    if victims:
        return 3e6 + _victims_progress(state.pieces, move)
    if (_exposed(state.pieces, me, rivals, start, stars)
            and not _exposed(moved_pieces(state.pieces, me, move), me, rivals, end, stars)):
        return 2e6 + start
    if start == YARD:
        return 1e6
    return start


def _exposed(pieces: Pieces, me: int, rivals: tuple[int, ...], at: int, stars: bool
             ) -> bool:
    """Whether a piece of ``me`` at ``at`` has an opponent 1..6 squares behind it."""
    if not 0 <= at <= LAST_TRACK:
        return False
    square = (START_SQUARES[me] + at) % TRACK_LENGTH
    if SAFE[stars][me][square]:
        return False
    return nearest_threat(pieces, me, rivals, square) is not None


def _expert(state: LudoState, moves: tuple[LegalMove, ...]) -> int:
    """The learned evaluation and its search (:mod:`.expert`), over each move's end."""
    return EXPERT.choose(state, [advance(state, move[4]) for move in moves])


CHOOSERS = {"random": _random, "easy": _easy, "medium": _medium, "hard": _hard,
            LEVEL: _expert, points.LEVEL: points.choose}


# --- reasons -----------------------------------------------------------------------------------

_NUMBERS = ("no", "one", "two", "three", "four", "five", "six")


def explain(state: LudoState, move: LegalMove) -> str:
    """What a move does and why it is worth making, in words."""
    me = state.turn
    piece, end, _, victims, _ = move
    number = piece + 1
    if victims:
        names = " and ".join(sorted({COLOURS[c].capitalize() for c, _ in victims}))
        return f"Piece {number} captures {names}"
    if end == HOME:
        return f"Piece {number} reaches HOME"
    start = state.mover[piece]
    if start == YARD:
        return f"Piece {number} comes out with the 6"
    rivals = tuple(c for c in state.colours if c != me)
    stars = "stars" in state.house
    chased = _chaser(state.pieces, me, rivals, start, stars)
    after = moved_pieces(state.pieces, me, move)
    if chased and not _exposed(after, me, rivals, end, stars):
        other, d = chased
        where = (" into its home lane" if end >= FIRST_LANE
                 else " to a star" if stars and SQUARES[me][end] in STARS else "")
        return (f"Piece {number} runs{where} from {COLOURS[other].capitalize()} "
                f"{_NUMBERS[d]} square{'s' if d > 1 else ''} behind")
    return _quiet(state, move, after, rivals, stars)


def _chaser(pieces: Pieces, me: int, rivals: tuple[int, ...], at: int, stars: bool
            ) -> tuple[int, int] | None:
    if not _exposed(pieces, me, rivals, at, stars):
        return None
    return nearest_threat(pieces, me, rivals, (START_SQUARES[me] + at) % TRACK_LENGTH)


def _quiet(state: LudoState, move: LegalMove, after: Pieces, rivals: tuple[int, ...],
           stars: bool) -> str:
    """The reason of a move that captures nothing, reaches nothing and runs from nobody."""
    me = state.turn
    piece, end = move[0], move[1]
    number = piece + 1
    if end >= FIRST_LANE:
        return f"Piece {number} enters its home lane, out of reach"
    square = SQUARES[me][end]
    if stars and square in STARS:
        return f"Piece {number} moves to a star, where nobody can capture it"
    hunted = _hunted(after, me, rivals, end, stars)
    if hunted is not None:
        return f"Piece {number} moves in behind {COLOURS[hunted].capitalize()}, ready to capture"
    steps = end - state.mover[piece]
    safe = "" if danger(after, me, rivals, square, stars) else ", out of every opponent's reach"
    return f"Piece {number} moves on {counted(steps, 'square')}{safe}"


def _hunted(pieces: Pieces, me: int, rivals: tuple[int, ...], at: int, stars: bool
            ) -> int | None:
    """The first opponent with a capturable piece 1..6 squares in front of ``me``'s piece at
    ``at`` (which it can reach before turning into its home lane), or None."""
    for other in rivals:
        for theirs in pieces[other]:
            square = SQUARES[other][theirs]
            if square < 0 or SAFE[stars][other][square]:
                continue
            ahead = (square - SQUARES[me][at]) % TRACK_LENGTH
            if 0 < ahead <= 6 and at + ahead <= LAST_TRACK:
                return other
    return None
