"""Parcheesi's computer players (random, easy, medium, hard, expert; grace for benchmarks).

Every player chooses among the same thing a human can reach: the distinct end positions of
the current roll (dice portions, then rewards) from :func:`game.roll_outcomes`. None of them
sees future dice. All are deterministic for a given state: Easy's coin flips are seeded from
the state itself, and ties are broken by the fixed order of ``roll_outcomes``.

- **random**: a uniformly random end position (the baseline).
- **easy**: half the time a random end position, otherwise the most progress (captures first).
- **medium**: a hand-made evaluation of each end position: progress, pieces HOME and in
  START, captures, crude safety (opponents close behind), blockades.
- **hard**: the same terms with exact risk: for each exposed piece the chance, over the 36
  dice outcomes, that some opponent captures it during their next turn (entries, blockades
  and safe squares respected; rerolls after doubles and capture bonuses counted),
  blockades weighed by the opponents they hold back, the race, and the danger of the third
  doubles when the player must roll again (:mod:`.risk` counts the chances).
- **expert**: the learned evaluation with one ply of chance (:mod:`.expert`); as the
  strongest table level it also gives the hint (``GameRules.hint``). Its search stops at a
  budget of positions looked at, so it too is deterministic (a time budget behind it, for a
  machine far too busy, is the one exception).
- **grace**: the published "Amazing Grace" evaluation (:mod:`.grace`), for benchmarks only.

Every player agrees to play on for the next places when asked (as in Ludo, docs/rules/ludo.md
3.3: computers always agree), and a player still racing after the first finish plays
against the others still racing (the players placed are out of the race).
"""

from __future__ import annotations

import hashlib
import random

from ...core import rules
from ...core.actions import PlayOn, Roll
from ...core.events import Captured, Entered, Moved, ReachedHome
from ...core.state import Phase, Pieces
from . import expert, grace
from .board import COLOURS, HOME, LAST_TRACK, SAFE_SQUARES, START, TRACK_LENGTH, track_square
from .risk import ALL_HOME, capture_chances, exposed, occupancy, opponents, turn_capture_chances
from .state import State
from .turns import Action, apply, roll_outcomes

TABLE_LEVELS = ("easy", "medium", "hard", expert.LEVEL)
"""The levels a computer seat at a table can have."""
LEVELS = ("random", *TABLE_LEVELS, grace.LEVEL)
"""Every computer player, the benchmarks' random mover and Grace, the outside benchmark
opponent of :mod:`.grace`, included."""


Decision = rules.Decision[Action, State]
"""What a player does with the current roll (or question), and why (for the hint)."""


def decide(state: State, level: str, reason: bool = False) -> Decision:
    """The computer's choice for the player to act (OPENING/ROLL: roll; MOVE/REWARD: move;
    PLAY_ON: play on).

    The reason text costs a replay of the choice, so it is only written when asked for.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown player {level!r} (use {', '.join(LEVELS)})")
    if state.phase in (Phase.OPENING, Phase.ROLL):
        return Decision([Roll()], state, "rolls the dice")
    if state.phase is Phase.PLAY_ON:
        agree = PlayOn(True)
        return Decision([agree], apply(state, agree)[0], "Plays on for the next places")
    if state.phase is Phase.OVER:
        raise ValueError("the game is over")
    options = roll_outcomes(state)
    if len(options) == 1:
        index = 0
    elif level == "random":
        index = _rng(state).randrange(len(options))
    elif level == "easy":
        index = _easy(state, options)
    elif level == expert.LEVEL:  # the learned evaluation and its search: parcheesi/expert
        index = expert.choose(state, [after for after, _ in options])
    elif level == grace.LEVEL:  # the outside benchmark opponent: all of it is in grace.py
        index = grace.choose(options, state.turn, _rng(state))
    else:
        evaluate = _evaluate_hard if level == "hard" else _evaluate_medium
        scores = [evaluate(after, state.turn) for after, _ in options]
        index = max(range(len(options)), key=lambda k: (scores[k], -k))
    after, actions = options[index]
    return Decision(actions, after, explain(state, actions) if reason else "")


def _rng(state: State) -> random.Random:
    """A generator seeded from the state, so a decision replays identically."""
    digest = hashlib.blake2b(repr((state.pieces, state.turn, state.dice, state.portions,
                                   state.rewards, state.rolls)).encode(), digest_size=8)
    return random.Random(int.from_bytes(digest.digest(), "big"))


# --- easy ----------------------------------------------------------------------------------------

def _easy(state: State, options: list[tuple[State, list[Action]]]) -> int:
    rng = _rng(state)
    if rng.random() < 0.5:
        return rng.randrange(len(options))
    me = state.turn

    def greed(k: int) -> tuple[int, int]:
        after = options[k][0]
        captured = _start_count_of_others(after.pieces, me) - _start_count_of_others(
            state.pieces, me)
        return captured, sum(_progress_value(p) for p in after.pieces[me])

    return max(range(len(options)), key=lambda k: (greed(k), -k))


def _start_count_of_others(pieces: Pieces, me: int) -> int:
    return sum(own.count(START) for c, own in enumerate(pieces) if c != me)


def _progress_value(p: int) -> int:
    return 0 if p == START else p + 1


# --- shared evaluation terms ---------------------------------------------------------------------

ENTER_VALUE = 12
"""A piece out of START is worth more than its distance: it can move and threaten."""
LANE_BONUS = 6
HOME_BONUS = 14


def piece_value(p: int) -> float:
    if p == START:
        return 0.0
    if p == HOME:
        return ENTER_VALUE + HOME + HOME_BONUS
    if p > LAST_TRACK:
        return ENTER_VALUE + p + LANE_BONUS
    return ENTER_VALUE + p


def _colour_value(own: tuple[int, ...]) -> float:
    return sum(piece_value(p) for p in own)


# --- medium --------------------------------------------------------------------------------------

def _mean(values: list[float]) -> float:
    """The opponents' average; none left racing (a request may say so) weigh nothing."""
    return sum(values) / len(values) if values else 0.0


MEDIUM_EXPOSED = 0.1


def _evaluate_medium(after: State, me: int) -> float:
    pieces = after.pieces
    if pieces[me] == ALL_HOME:  # the roll finishes: nothing is better
        return 1e6
    others = opponents(pieces, me)
    mine = _colour_value(pieces[me])
    theirs = _mean([_colour_value(pieces[o]) for o in others])
    score = mine - 0.8 * theirs
    # Static safety: a piece alone on an ordinary track square is open to capture, more so
    # the further it has come (no look at where the opponents actually are).
    for i in exposed(pieces, me):
        score -= MEDIUM_EXPOSED * piece_value(pieces[me][i])
    # Blockades are good.
    own = pieces[me]
    score += 3 * sum(1 for i in range(4) for j in range(i + 1, 4)
                     if own[i] == own[j] and START < own[i] < HOME)
    return score


# --- hard ----------------------------------------------------------------------------------------

HARD_WEIGHTS = {
    "leader_blend": 0.5,
    "risk_reward": 16.0,
    "risk_scale": 1.0,
    "blockade": 2.0,
    "blockade_held": 3.0,
    "threat": 0.6,
}
"""Weights of Hard's evaluation terms, tuned with the simulator (docs/benchmarks.md)."""


def _evaluate_hard(after: State, me: int) -> float:
    w = HARD_WEIGHTS
    pieces = after.pieces
    if pieces[me] == ALL_HOME:  # the roll finishes: nothing is better
        return 1e6
    others = opponents(pieces, me)
    own = pieces[me]
    mine = _colour_value(own)
    # The strongest opponent matters most: a blend of the leader and the average.
    values = [_colour_value(pieces[o]) for o in others]
    blend = w["leader_blend"]
    theirs = blend * max(values, default=0.0) + (1 - blend) * _mean(values)
    score = mine - theirs
    board = occupancy(pieces)
    score = _with_risks(score, pieces, me, others, board)
    score = _with_blockades(score, own, me, board)
    # The third doubles: if this roll was doubles the player rolls again, and a third
    # doubles would send the leader back.
    if after.phase is Phase.ROLL and after.turn == me and after.doubles == 2:
        leader = max((p for p in own if START < p < HOME), default=None)
        if leader is not None:
            score -= piece_value(leader) / 6
    return score


def _with_risks(score: float, pieces: Pieces, me: int, others: list[int],
                board: dict[int, tuple[int, int]]) -> float:
    """``score`` less the risk of being captured before the next turn (the piece's value
    plus the 20 the opponent earns), plus the opponents' pieces left open to capture (their
    chances for a whole turn of mine). Added term by term, in the evaluation's own order."""
    w = HARD_WEIGHTS
    own = pieces[me]
    for i, chance in turn_capture_chances(pieces, me, board).items():
        score -= w["risk_scale"] * chance * (piece_value(own[i]) + w["risk_reward"])
    if w["threat"]:
        for o in others:
            for i, chance in turn_capture_chances(pieces, o, board).items():
                score += w["threat"] * chance * piece_value(pieces[o][i])
    return score


def _with_blockades(score: float, own: tuple[int, ...], me: int,
                    board: dict[int, tuple[int, int]]) -> float:
    """``score`` plus the blockades: worth more the more opponent pieces they hold back
    (within 12 squares behind)."""
    w = HARD_WEIGHTS
    for i in range(4):
        for j in range(i + 1, 4):
            if own[i] == own[j] and 0 <= own[i] <= LAST_TRACK:
                sq = track_square(me, own[i])
                held = sum(n for d in range(1, 13)
                           for c, n in [board.get((sq - d) % TRACK_LENGTH, (me, 0))]
                           if c != me)
                score += w["blockade"] + w["blockade_held"] * held
    return score


# --- reasons -------------------------------------------------------------------------------------

def explain(state: State, actions: list[Action]) -> str:
    """A short reason for a sequence of actions, from what they do on the board."""
    me = state.turn
    current, parts, entered, moved_to_lane = _what_happens(state, actions)
    if entered:
        parts.append("enters a piece" if entered == 1 else f"enters {entered} pieces")
    if _builds_safe_blockade(state.mover, current.pieces[me], me):
        parts.append("builds a blockade on a safe square")
    if moved_to_lane:
        parts.append("runs a piece into the home lane")
    if not parts:
        parts.append(_quiet_reason(state, current, actions))
    text = ", ".join(parts)
    return text[0].upper() + text[1:]


def _what_happens(state: State, actions: list[Action]) -> tuple[State, list[str], int, int]:
    """The state after ``actions``, the captures and HOMEs they make (as reasons), and how
    many pieces they enter and run into the home lane."""
    me = state.turn
    parts: list[str] = []
    current = state
    entered = moved_to_lane = 0
    for action in actions:
        current, events = apply(current, action)
        for event in events:
            if getattr(event, "colour", None) != me and not isinstance(event, Captured):
                continue
            if isinstance(event, Captured) and event.by_colour == me:
                parts.append(f"captures {COLOURS[event.colour].title()} and takes the 20")
            elif isinstance(event, ReachedHome):
                parts.append(f"brings piece {event.piece + 1} HOME and takes the 10")
            elif isinstance(event, Entered):
                entered += 1
            elif isinstance(event, Moved) and event.start <= LAST_TRACK < event.end < HOME:
                moved_to_lane += 1
    return current, parts, entered, moved_to_lane


def _builds_safe_blockade(before: tuple[int, ...], own: tuple[int, ...], me: int) -> bool:
    """Whether two pieces now stand together on a safe track square and did not before."""
    pairs = [(i, j) for i in range(4) for j in range(i + 1, 4)]
    on_safe = any(own[i] == own[j] and 0 <= own[i] <= LAST_TRACK
                  and track_square(me, own[i]) in SAFE_SQUARES for i, j in pairs)
    return on_safe and not any(before[i] == before[j] == own[i] for i, j in pairs)


def _quiet_reason(state: State, after: State, actions: list[Action]) -> str:
    """The reason for a roll that captures, enters, runs home or blocks nothing."""
    me = state.turn
    risk_before = capture_chances(state.pieces, me)
    risk_after = capture_chances(after.pieces, me)
    if sum(risk_after.values()) < sum(risk_before.values()) - 0.05:
        return "moves pieces out of reach"
    if not actions:
        return "no move is possible"
    return "makes the most progress with the least risk"
