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

The hint's words (:func:`explain`) say what the chosen actions do in the position: which
piece captures, reaches HOME, enters, escapes or accepts danger (with the exact count of an
opponent's 36 rolls that could hit it, from :func:`.risk.capture_counts`), builds a
blockade, lines up a capture or closes in on HOME.

Every player agrees to play on for the next places when asked (as in Ludo, docs/rules/ludo.md
3.3: computers always agree), and a player still racing after the first finish plays
against the others still racing (the players placed are out of the race).
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import NamedTuple

from ...core import rules
from ...core.actions import PlayOn, Roll
from ...core.events import Captured, Entered, ReachedHome
from ...core.state import Phase, Pieces
from ...core.words import counted
from . import expert, grace
from .board import (
    COLOURS,
    HOME,
    LAST_TRACK,
    SAFE_SQUARES,
    START,
    TRACK_LENGTH,
    entry_square,
    progress_of_square,
    track_square,
)
from .risk import (
    ALL_HOME,
    capture_chances,
    capture_counts,
    exposed,
    occupancy,
    opponents,
    turn_capture_chances,
)
from .state import State
from .turns import (
    CAPTURE_REWARD,
    HOME_REWARD,
    Action,
    Event,
    Reward,
    RewardsForfeited,
    apply,
    roll_outcomes,
)

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
    return Decision(actions, after, explain(state, actions, options) if reason else "")


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
#
# The hint says what the chosen actions do in this position: which piece, what it gains or
# avoids, with exact numbers. Each fact the actions make true is a clause with a rank (the
# lower, the more it matters) and the pieces it is about; the reason is the first clause,
# and a second one about other pieces when both fit on one line. The danger in the words is
# :func:`.risk.capture_counts`: how many of an opponent's 36 dice outcomes can hit a piece on
# its next roll, exact per opponent.

REASON_WIDTH = 90
"""The longest reason a second clause may make (one line on a phone)."""
HOLD_REACH = 12
"""How far behind a blockade an opponent's piece counts as held back (as Hard weighs it)."""

WIN, CAPTURE, ARRIVE, ESCAPE, BLOCK, SAFER, THREAT, ENTER, LANE, DANGER, QUIET, KEEP = range(12)
"""Clause ranks, most telling first."""


class _Clause(NamedTuple):
    rank: int
    weight: float
    """Within a rank, the larger first."""
    pieces: frozenset[int]
    text: str
    short: str = ""
    """The words without their detail, for a line shared with another clause."""

    @property
    def brief(self) -> str:
        return self.short or self.text


@dataclass(frozen=True, slots=True)
class _Roll:
    """What a sequence of actions does, read from the engine's events."""

    state: State
    after: State
    me: int
    start: tuple[int, ...]
    end: tuple[int, ...]
    entered: tuple[int, ...]
    captures: tuple[tuple[int, int, bool], ...]
    """(my capturing piece, colour captured, on my entry square), in order."""
    homes: tuple[int, ...]
    bonuses: tuple[tuple[int, int], ...]
    """(piece, squares) for every reward taken, in order."""
    taken: dict[tuple[int, int], int]
    """(piece that earned a bonus, its squares) -> the piece that took it."""
    forfeited: tuple[int, ...]
    danger_before: dict[int, dict[int, int]]
    danger_after: dict[int, dict[int, int]]

    def moved(self, i: int) -> bool:
        return self.start[i] != self.end[i]


def explain(state: State, actions: list[Action],
            options: list[tuple[State, list[Action]]] | None = None) -> str:
    """A short reason for a sequence of actions: what they do for which piece, here.

    ``options`` are the roll's end positions (:func:`.turns.roll_outcomes`) when the caller
    has them already; the words only look at them to tell whether any move was safe."""
    if not actions:
        return "No move is possible"
    roll = _replay(state, actions)
    clauses = sorted(_clauses(roll), key=lambda c: (c.rank, -c.weight, sorted(c.pieces), c.text))
    if not clauses:
        return "Plays the roll"
    first = clauses[0]
    unsafe = first.rank == DANGER and not _safe_move_exists(state, options)
    prefix = "no move is safe: " if unsafe else ""
    lead = _fit(prefix + first.text, prefix + first.brief, first.text, first.brief)
    brief = (prefix if lead.startswith(prefix) else "") + first.brief
    text = _with_second(lead, brief, first.pieces, clauses[1:])
    return text[0].upper() + text[1:]


def _with_second(lead: str, brief: str, covered: frozenset[int], rest: list[_Clause]) -> str:
    """The lead clause and the most telling clause about other pieces that fits the line
    with it (each in full if they fit, else in brief), or the lead clause alone. A piece's
    most telling clause that does not fit is not replaced by a lesser one about it."""
    for other in rest:
        if other.pieces & covered:
            continue
        for first, second in ((lead, other.text), (lead, other.brief), (brief, other.text),
                              (brief, other.brief)):
            if len(first) + len(second) + 2 <= REASON_WIDTH:
                return f"{first}; {second}"
        covered |= other.pieces
    return lead


def _replay(state: State, actions: list[Action]) -> _Roll:
    me = state.turn
    current = state
    tally = _Tally(me, state.rewards)
    for action in actions:
        if isinstance(action, Reward):
            tally.take(action)
        current, events = apply(current, action)
        for event in events:
            tally.note(event)
    bonuses = tuple((a.piece, a.amount) for a in actions if isinstance(a, Reward))
    return _Roll(state, current, me, state.pieces[me], current.pieces[me],
                 tuple(tally.entered), tuple(tally.captures), tuple(tally.homes), bonuses,
                 tally.taken, tally.forfeited,
                 capture_counts(state.pieces, me), capture_counts(current.pieces, me))


class _Tally:
    """What the events of a roll did for the mover, as :func:`_replay` reads them."""

    def __init__(self, me: int, rewards: tuple[int, ...]) -> None:
        self.me = me
        self.entry = entry_square(me)
        self.entered: list[int] = []
        self.captures: list[tuple[int, int, bool]] = []
        self.homes: list[int] = []
        self.forfeited: tuple[int, ...] = ()
        self.pending: list[tuple[int | None, int]] = [(None, amount) for amount in rewards]
        """Bonuses earned and not yet taken: (the piece that earned it, or None for one
        pending before the actions; its squares), the earliest first."""
        self.taken: dict[tuple[int, int], int] = {}

    def note(self, event: Event) -> None:
        if isinstance(event, Captured) and event.by_colour == self.me:
            on_entry = track_square(event.colour, event.progress) == self.entry
            self.captures.append((event.by_piece, event.colour, on_entry))
            self.pending.append((event.by_piece, CAPTURE_REWARD))
        elif isinstance(event, ReachedHome) and event.colour == self.me:
            self.homes.append(event.piece)
            self.pending.append((event.piece, HOME_REWARD))
        elif isinstance(event, Entered) and event.colour == self.me:
            self.entered.append(event.piece)
        elif isinstance(event, RewardsForfeited) and event.colour == self.me:
            self.forfeited += event.amounts

    def take(self, reward: Reward) -> None:
        """Match a reward taken to the earliest pending bonus of its size, and note which
        piece took the bonus which piece earned."""
        for k, (earner, amount) in enumerate(self.pending):
            if amount == reward.amount:
                del self.pending[k]
                if earner is not None:
                    self.taken.setdefault((earner, amount), reward.piece)
                return


def _clauses(roll: _Roll) -> list[_Clause]:
    return [*_scoring_clauses(roll), *_danger_clauses(roll), *_blockade_clauses(roll),
            *_threat_clauses(roll), *_move_clauses(roll)]


# What the words are made of.

def _name(colour: int) -> str:
    return COLOURS[colour].title()


def _pieces(indices: list[int]) -> str:
    """"piece 2", "pieces 1 and 3", "pieces 1, 2 and 4"."""
    numbers = [str(i + 1) for i in sorted(indices)]
    if len(numbers) == 1:
        return f"piece {numbers[0]}"
    return f"pieces {', '.join(numbers[:-1])} and {numbers[-1]}"


def _to_go(progress: int) -> str:
    return f"{counted(HOME - progress, 'square')} to go"


def _rolls(counts: dict[int, int]) -> str:
    """Whose rolls, how many of 36: "10 of Sapphire's 36 rolls", or for several opponents
    "10 of Sapphire's and 4 of Amber's rolls" (each exact for its opponent)."""
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    if len(ranked) == 1:
        colour, n = ranked[0]
        return f"{n} of {_name(colour)}'s 36 rolls"
    parts = [f"{n} of {_name(colour)}'s" for colour, n in ranked]
    return f"{', '.join(parts[:-1])} and {parts[-1]} rolls"


def _names(colours: list[int]) -> str:
    """"Ruby", "Ruby and Amber", "Ruby, Emerald and Amber"."""
    names = [_name(colour) for colour in colours]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _whose(counts: dict[int, int]) -> str:
    """The opponents of ``counts`` by name, the most dangerous first."""
    return _names(sorted(counts, key=lambda colour: (-counts[colour], colour)))


def _fit(*texts: str) -> str:
    """The first of ``texts`` (longest first) that fits on a line, else the last."""
    return next((text for text in texts if len(text) <= REASON_WIDTH), texts[-1])


def _chance(counts: dict[int, int] | None) -> float:
    """The chance some opponent's next roll hits the piece (opponents roll independently)."""
    miss = 1.0
    for n in (counts or {}).values():
        miss *= 1 - n / 36
    return 1 - miss


def _is_safe_square(me: int, progress: int) -> bool:
    return 0 <= progress <= LAST_TRACK and track_square(me, progress) in SAFE_SQUARES


def _partner(own: tuple[int, ...], i: int) -> int | None:
    """The other piece standing with piece ``i`` on a track square (a blockade), if any."""
    if not 0 <= own[i] <= LAST_TRACK:
        return None
    return next((j for j in range(4) if j != i and own[j] == own[i]), None)


def _move_words(roll: _Roll, i: int) -> str:
    """How piece ``i`` moved: "enters", "enters and moves on 3", "moves on 7", "takes the 20
    bonus", "moves on 26 with the 20 bonus"."""
    if i in roll.entered:
        return "enters" if roll.end[i] == 0 else f"enters and moves on {roll.end[i]}"
    distance = roll.end[i] - roll.start[i]
    bonus = sum(amount for piece, amount in roll.bonuses if piece == i)
    if bonus and bonus == distance:
        return f"takes the {bonus} bonus"
    if bonus:
        return f"moves on {distance} with the {bonus} bonus"
    return f"moves on {distance}"


def _destination(roll: _Roll, i: int) -> str:
    """Where a bonus took piece ``i``, when that says something: HOME, the lane, safety."""
    end = roll.end[i]
    if end == HOME:
        return " HOME"
    if end > LAST_TRACK:
        return " into its home lane"
    if _is_safe_square(roll.me, end) or _partner(roll.end, i) is not None:
        return " to safety"
    return ""


# Captures, HOME, the win.

def _scoring_clauses(roll: _Roll) -> list[_Clause]:
    found = []
    if roll.captures:
        found.append(_capture_clause(roll))
    if roll.homes:
        found.append(_home_clause(roll))
    return found


def _bonus_words(roll: _Roll, piece: int, amount: int) -> tuple[str, list[int]]:
    """Who took the bonus ``piece`` earned, and where to, and the pieces that names."""
    taker = roll.taken.get((piece, amount))
    if taker is None:
        return (f", but no piece can use the {amount}" if amount in roll.forfeited else ""), []
    where = _destination(roll, taker)
    if taker == piece:
        return f" and takes the {amount}{where}", [taker]
    return f" and piece {taker + 1} takes the {amount}{where}", [taker]


def _capture_clause(roll: _Roll) -> _Clause:
    capturers = sorted({p for p, _, _ in roll.captures})
    victims = [colour for _, colour, _ in roll.captures]
    if len(roll.captures) == 1:
        piece, colour, _ = roll.captures[0]
        bonus, takers = _bonus_words(roll, piece, CAPTURE_REWARD)
        return _Clause(CAPTURE, 1, frozenset([piece, *takers]),
                       f"piece {piece + 1} {_capture_verb(roll, piece, colour)}{bonus}")
    verb = "captures" if len(capturers) == 1 else "capture"
    names = sorted(set(victims), key=victims.index)
    whom = (f"{_name(names[0])} twice" if len(names) == 1 and len(victims) == 2
            else _names(names))
    squares = CAPTURE_REWARD * len(victims)
    return _Clause(CAPTURE, len(victims), frozenset(capturers),
                   f"{_pieces(capturers)} {verb} {whom}: {squares} squares of bonus")


def _capture_verb(roll: _Roll, piece: int, colour: int) -> str:
    """"captures Emerald", "captures Emerald as it enters" (on the entry square), "enters
    and captures Emerald"."""
    if roll.start[piece] != START:
        return f"captures {_name(colour)}"
    on_entry = (piece, colour, True) in roll.captures
    return (f"captures {_name(colour)} as it enters" if on_entry
            else f"enters and captures {_name(colour)}")


def _home_clause(roll: _Roll) -> _Clause:
    homes = list(roll.homes)
    if roll.end == ALL_HOME:
        verb = "reaches HOME and wins" if len(homes) == 1 else "reach HOME and win"
        return _Clause(WIN, 1, frozenset(homes), f"{_pieces(homes)} {verb} the game")
    if len(homes) == 1:
        piece = homes[0]
        bonus, takers = _bonus_words(roll, piece, HOME_REWARD)
        ride = next((squares for p, squares in roll.bonuses if p == piece), None)
        verb = f"rides the {ride} bonus HOME" if ride else "reaches HOME"
        if not bonus and roll.end.count(HOME) == 3:
            bonus = ": one piece left to bring in"
        return _Clause(ARRIVE, 1, frozenset([piece, *takers]), f"piece {piece + 1} {verb}{bonus}")
    return _Clause(ARRIVE, len(homes), frozenset(homes),
                   f"{_pieces(homes)} reach HOME: {HOME_REWARD * len(homes)} squares of bonus")


# Danger escaped, lowered, accepted.

def _danger_clauses(roll: _Roll) -> list[_Clause]:
    found = []
    for i in range(4):
        before, after = roll.danger_before.get(i), roll.danger_after.get(i)
        was, now = _chance(before), _chance(after)
        if before and was > 0 and now == 0:
            found.append(_escape_clause(roll, i, before))
        elif before and after and now <= was - 1 / 18:
            found.append(_safer_clause(roll, i, before, after))
        elif after and now > 0:
            found.append(_accept_clause(roll, i, after, was, now))
    return found


def _escape_clause(roll: _Roll, i: int, before: dict[int, int]) -> _Clause:
    how, pieces = _escape_how(roll, i)
    return _Clause(ESCAPE, _chance(before), frozenset(pieces), _fit(
        f"{how}: {_rolls(before)} could hit it now, none after",
        f"{how}: {_rolls(before)} could hit it now",
        f"{how}: {_rolls(before)} could hit it",
        f"{how}: {_whose(before)} could hit it now"))


def _safer_clause(roll: _Roll, i: int, before: dict[int, int],
                  after: dict[int, int]) -> _Clause:
    how = f"piece {i + 1} {'moves on to less danger' if roll.moved(i) else 'is safer'}"
    later = (str(after[next(iter(before))]) if len(before) == len(after) == 1
             and before.keys() == after.keys() else _rolls(after))
    return _Clause(SAFER, _chance(before) - _chance(after), frozenset([i]), _fit(
        f"{how}: {_rolls(before)} could hit it now, {later} after",
        f"{how}: {_whose(before)} could hit it now, {_rolls(after)} after",
        f"{how}: {_rolls(after)} could still hit it",
        f"{how}: {_whose(after)} could still hit it"))


def _escape_how(roll: _Roll, i: int) -> tuple[str, list[int]]:
    """How piece ``i`` got out of reach, and the pieces that took part."""
    end = roll.end[i]
    partner = _partner(roll.end, i)
    if roll.moved(i):
        if end > LAST_TRACK:
            where = "reaches HOME" if end == HOME else "runs into its home lane"
            return f"piece {i + 1} {where}", [i]
        if partner is not None:
            return f"piece {i + 1} joins piece {partner + 1} in a blockade", [i, partner]
        if _is_safe_square(roll.me, end):
            return f"piece {i + 1} moves to a safe square", [i]
        return f"moves piece {i + 1} out of reach", [i]
    if partner is not None and roll.moved(partner):
        return f"piece {partner + 1} shields piece {i + 1} with a blockade", [i, partner]
    return f"piece {i + 1} is out of reach now", [i]


def _accept_clause(roll: _Roll, i: int, after: dict[int, int], was: float,
                   now: float) -> _Clause:
    if roll.moved(i):
        text = f"piece {i + 1} {_move_words(roll, i)}, {'still ' if was else ''}open to " \
               f"{_rolls(after)}"
        return _Clause(DANGER, now, frozenset([i]),
                       _fit(f"{text}: {_to_go(roll.end[i])}", text), text)
    if now > was + 1 / 36:
        mate = next((j for j in range(4) if j != i and roll.start[j] == roll.start[i]
                     and roll.moved(j)), None)
        if mate is not None:  # a blockade broken: say who left
            short = f"piece {mate + 1} leaves piece {i + 1} open to {_rolls(after)}"
            return _Clause(DANGER, now, frozenset([i, mate]), _fit(
                f"piece {mate + 1} {_move_words(roll, mate)} and leaves piece {i + 1} open "
                f"to {_rolls(after)}", short), short)
        return _Clause(DANGER, now, frozenset([i]),
                       f"piece {i + 1} is left open to {_rolls(after)}")
    return _Clause(KEEP, now, frozenset([i]), f"piece {i + 1} stays open to {_rolls(after)}")


def _safe_move_exists(state: State,
                      options: list[tuple[State, list[Action]]] | None) -> bool:
    """Whether some end position of the roll leaves no piece of the mover open to a hit."""
    me = state.turn
    return any(not any(capture_chances(after.pieces, me).values())
               for after, _ in (roll_outcomes(state) if options is None else options))


# Blockades.

def _blockade_clauses(roll: _Roll) -> list[_Clause]:
    found = []
    own = roll.end
    for i in range(4):
        j = _partner(own, i)
        if j is None or j < i:
            continue
        held = _held(roll.after.pieces, roll.me, track_square(roll.me, own[i]))
        if roll.start[i] == roll.start[j] == own[i]:  # it stood before the roll
            if held:
                found.append(_Clause(KEEP, 0, frozenset([i, j]),
                                     f"{_pieces([i, j])} hold their blockade{held[1]}"))
            continue
        if own[i] == 0 and {i, j} & set(roll.entered) and not held:
            continue  # an entry beside a piece: the entry's own words say so
        builds = _builds(roll, i, j)
        if held:
            found.append(_Clause(BLOCK, held[0], frozenset([i, j]), f"{builds}{held[1]}"))
            continue
        # Both moved (doubles): the pair's words; one moved: its move's words say so.
        travel = own[i] - roll.start[i] + own[j] - roll.start[j]
        where = " on a safe square" if _is_safe_square(roll.me, own[i]) else ""
        found.append(_Clause(QUIET, travel, frozenset([i, j]),
                             f"{builds}{where}, {counted(HOME - own[i], 'square')} from HOME",
                             f"{builds}{where}"))
    return found


def _builds(roll: _Roll, i: int, j: int) -> str:
    """"pieces 1 and 2 build a blockade", or with an entry "enters piece 1 beside piece 2: a
    blockade", "enters pieces 1 and 2: a blockade"."""
    entering = [k for k in (i, j) if k in roll.entered and roll.end[k] == 0]
    if len(entering) == 2:
        return f"enters {_pieces(entering)}: a blockade"
    if entering:
        other = j if entering[0] == i else i
        return f"enters piece {entering[0] + 1} beside piece {other + 1}: a blockade"
    return f"{_pieces([i, j])} build a blockade"


def _held(pieces: Pieces, me: int, square: int) -> tuple[int, str] | None:
    """Whom a blockade of ``me`` on ``square`` holds back, as (how many pieces, words):
    the opponents' pieces within reach behind it that must pass it, or an opponent whose
    pieces in START it keeps from entering; None if nobody."""
    for o in opponents(pieces, me):
        if square == entry_square(o) and START in pieces[o]:
            return 4, f" on {_name(o)}'s entry square"
    behind = []
    for o in opponents(pieces, me):
        ahead = progress_of_square(o, square)
        behind += [(ahead - p, o) for p in pieces[o] if 0 <= p < ahead <= LAST_TRACK
                   and ahead - p <= HOLD_REACH]
    if not behind:
        return None
    distance, colour = min(behind)
    return len(behind), f" {counted(distance, 'square')} in front of {_name(colour)}"


# Threats, entries and plain moves.

def _threat_clauses(roll: _Roll) -> list[_Clause]:
    """A moved piece, itself out of reach, that now lines up a capture for the next roll."""
    movers = [i for i in range(4) if roll.moved(i) and 0 <= roll.end[i] <= LAST_TRACK
              and not roll.danger_after.get(i)]
    found: list[_Clause] = []
    if not movers:
        return found
    me, pieces = roll.me, roll.after.pieces
    for o in opponents(pieces, me):
        before = capture_counts(roll.state.pieces, o)
        for j, counts in capture_counts(pieces, o).items():
            n = counts.get(me, 0)
            if n <= before.get(j, {}).get(me, 0):
                continue
            target = progress_of_square(me, track_square(o, pieces[o][j]))
            for i in movers:
                gap = target - roll.end[i]
                if 0 < gap <= HOLD_REACH and target <= LAST_TRACK:
                    found.append(_Clause(THREAT, n, frozenset([i]), (
                        f"piece {i + 1} lines up {gap} behind {_name(o)}: "
                        f"{n} of 36 rolls could capture it")))
    return found


def _move_clauses(roll: _Roll) -> list[_Clause]:
    found = []
    entries = [i for i in roll.entered if roll.end[i] == 0]
    if entries:
        found.append(_entry_clause(roll, entries))
    for i in range(4):
        if not roll.moved(i) or roll.end[i] == HOME or i in entries:
            continue
        end = roll.end[i]
        if end > LAST_TRACK:
            verb = "closes in on HOME" if roll.start[i] > LAST_TRACK else "runs into its home lane"
            found.append(_Clause(LANE, end, frozenset([i]), f"piece {i + 1} {verb}: {_to_go(end)}"))
            continue
        rank = ENTER if i in roll.entered else QUIET
        words = f"piece {i + 1} {_move_words(roll, i)}{_where(roll, i)}"
        found.append(_Clause(rank, end - roll.start[i], frozenset([i]),
                             f"{words}: {_to_go(end)}", words))
    return found


def _entry_clause(roll: _Roll, entries: list[int]) -> _Clause:
    """Pieces entering (and staying on the entry square), with the blockade they make."""
    others = [j for j in range(4) if roll.end[j] == 0 and j not in entries]
    text = f"enters {_pieces(entries)}"
    if len(entries) == 1 and not others:
        return _Clause(ENTER, 1, frozenset(entries), f"{text}, safe on its entry square", text)
    if len(entries) >= 2:
        text += ": a blockade on the entry square"
    else:
        text += f" beside piece {others[0] + 1}: a blockade on the entry square"
    return _Clause(ENTER, len(entries), frozenset(entries + others[:1]), text)


def _where(roll: _Roll, i: int) -> str:
    """Where a moved track piece stands now, when it is out of reach there."""
    partner = _partner(roll.end, i)
    if partner is not None:
        return f" to join piece {partner + 1} in a blockade"
    if _is_safe_square(roll.me, roll.end[i]):
        return " to a safe square"
    if i in roll.danger_after and not roll.danger_after[i]:
        return ", out of every opponent's reach"
    return ""
