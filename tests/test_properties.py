"""Property tests over random legal games (docs/rules/parcheesi.md, docs/contracts.md).

Random games are played with the engine's own legal actions; every invariant is then
checked against the rules text. The legality checks compare the engine with a small,
deliberately naive reference written here from docs/rules/parcheesi.md alone: it works in absolute
track squares, moves pieces square by square, removes captured pieces for real and enumerates
every order of portions and pieces without any pruning or symmetry tricks.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from record_helpers import through_json

from parcheesi.core.actions import Roll
from parcheesi.core.events import NoMove, OpeningRolled, OpeningTied, Rolled, Starts, TurnPassed
from parcheesi.core.notation import compact
from parcheesi.core.state import IllegalAction, Phase
from parcheesi.games.parcheesi import board
from parcheesi.games.parcheesi.analysis import outcomes_after_roll
from parcheesi.games.parcheesi.choices import choices
from parcheesi.games.parcheesi.dice import seeded
from parcheesi.games.parcheesi.notation import (
    pieces_to_json,
    request_from_json,
    state_from_json,
    state_to_json,
)
from parcheesi.games.parcheesi.state import State
from parcheesi.games.parcheesi.turns import (
    Game,
    Move,
    Penalty,
    apply,
    legal_actions,
    legal_rewards,
    legal_steps,
)

# --- the reference model, from docs/rules/parcheesi.md only ---------------------------------------

START, HOME = -1, 71
LAST_TRACK = 63
SAFE = frozenset({0, 5, 12, 17, 22, 29, 34, 39, 46, 51, 56, 63})
COLOUR_SETS = [(0, 2), (1, 3), (0, 1, 2), (1, 2, 3), (0, 1, 3), (0, 2, 3), (0, 1, 2, 3)]

Pieces = tuple[tuple[int, ...], ...]
RefStep = tuple[int, tuple[int, ...]]
Metric = tuple[int, int]


def ref_square(colour: int, progress: int) -> int:
    """docs/rules/parcheesi.md 2: track square = (t + 5 + progress) mod 68, t = 17 * colour."""
    return (17 * colour + 5 + progress) % 68


def on_track_square(pieces: Pieces, square: int, skip: tuple[int, int] | None = None
                    ) -> list[tuple[int, int]]:
    return [(c, k) for c, own in enumerate(pieces) for k, p in enumerate(own)
            if 0 <= p <= LAST_TRACK and ref_square(c, p) == square and (c, k) != skip]


def occupants(pieces: Pieces, mover: int, progress: int, skip: int) -> list[tuple[int, int]]:
    """Pieces on the square the mover reaches at ``progress`` (0..70), the mover's piece
    ``skip`` excluded."""
    if progress <= LAST_TRACK:
        return on_track_square(pieces, ref_square(mover, progress), (mover, skip))
    return [(mover, k) for k, p in enumerate(pieces[mover]) if k != skip and p == progress]


def put(pieces: Pieces, colour: int, piece: int, value: int) -> Pieces:
    own = list(pieces[colour])
    own[piece] = value
    return (*pieces[:colour], tuple(own), *pieces[colour + 1:])


def ref_move(pieces: Pieces, mover: int, pairs: frozenset[frozenset[int]], i: int, n: int
             ) -> tuple[Pieces, list[int]] | None:
    """Piece ``i`` forward ``n`` squares (docs/rules/parcheesi.md 3.2, 3.4): new pieces and rewards
    earned."""
    p = pieces[mover][i]
    if p in (START, HOME):
        return None
    q = p + n
    if q > HOME:
        return None
    for x in range(p + 1, min(q, HOME - 1) + 1):  # passing and landing: no blockade
        if len(occupants(pieces, mover, x, i)) >= 2:
            return None
    earned: list[int] = []
    new = put(pieces, mover, i, q)
    if q == HOME:
        return new, [10]
    here = occupants(pieces, mover, q, i)
    if here:
        colour, k = here[0]
        if colour == mover:
            if frozenset((i, k)) in pairs:
                return None
        else:
            if ref_square(mover, q) in SAFE:
                return None
            new = put(new, colour, k, START)
            earned.append(20)
    return new, earned


def ref_enter(pieces: Pieces, mover: int, i: int) -> tuple[Pieces, list[int]] | None:
    """Piece ``i`` from START onto its entry square (docs/rules/parcheesi.md 3.1)."""
    here = on_track_square(pieces, ref_square(mover, 0))
    if len(here) >= 2:
        return None
    new = put(pieces, mover, i, 0)
    if here and here[0][0] != mover:
        return put(new, here[0][0], here[0][1], START), [20]
    return new, []


def ref_children(pieces: Pieces, mover: int, pairs: frozenset[frozenset[int]],
                 remaining: tuple[int, ...], four: bool
                 ) -> list[tuple[RefStep, Pieces, tuple[int, ...], list[int], bool]]:
    """Every single step: (step, pieces, remaining portions, rewards earned, entered)."""
    out = []
    own = pieces[mover]
    for i, p in enumerate(own):
        if p == START:
            spends = []
            if 5 in remaining:
                rest = list(remaining)
                rest.remove(5)
                spends.append(((5,), tuple(rest)))
            if not four and len(remaining) == 2 and sum(remaining) == 5:
                spends.append((tuple(sorted(remaining, reverse=True)), ()))
            for spent, rest_t in spends:
                result = ref_enter(pieces, mover, i)
                if result is not None:
                    out.append(((i, spent), result[0], rest_t, result[1], True))
        elif p != HOME:
            for v in sorted(set(remaining)):
                result = ref_move(pieces, mover, pairs, i, v)
                if result is not None:
                    rest = list(remaining)
                    rest.remove(v)
                    out.append(((i, (v,)), result[0], tuple(rest), result[1], False))
    return out


@dataclass
class RefRoll:
    best: Metric
    """The best (entries, portions used) of any complete sequence."""
    legal: bool
    """Some dice movement happens (docs/rules/parcheesi.md 3.3: four portions need all four)."""
    steps: set[RefStep]
    """First steps of the complete sequences reaching ``best`` (empty if not ``legal``)."""
    ends: set[tuple[Pieces, tuple[int, ...]]]
    """(pieces, pending rewards) at the end of every complete sequence reaching ``best``."""


def ref_roll(pieces: Pieces, mover: int, pairs: frozenset[frozenset[int]],
             portions: tuple[int, ...], four: bool) -> RefRoll:
    """Brute force over every sequence of single steps from this point of a roll."""

    def complete(pieces: Pieces, remaining: tuple[int, ...], rewards: tuple[int, ...]
                 ) -> set[tuple[Metric, Pieces, tuple[int, ...]]]:
        children = ref_children(pieces, mover, pairs, remaining, four)
        if not children:
            return {((0, 0), pieces, tuple(sorted(rewards)))}
        found = set()
        for _, after, rest, earned, entered in children:
            used = len(remaining) - len(rest)
            for (e, u), end, rw in complete(after, rest, (*rewards, *earned)):
                found.add(((e + entered, u + used), end, rw))
        return found

    by_step: dict[RefStep, set[tuple[Metric, Pieces, tuple[int, ...]]]] = {}
    for step, after, rest, earned, entered in ref_children(pieces, mover, pairs, portions, four):
        used = len(portions) - len(rest)
        by_step.setdefault(step, set()).update(
            ((e + entered, u + used), end, rw) for (e, u), end, rw in complete(after, rest,
                                                                                tuple(earned)))
    every = [m for found in by_step.values() for m, _, _ in found]
    best = max(every, default=(0, 0))
    legal = best[1] > 0 and (not four or best[1] == len(portions))
    if not legal:
        return RefRoll(best, False, set(), {(pieces, ())})
    steps = {s for s, found in by_step.items() if any(m == best for m, _, _ in found)}
    ends = {(end, rw) for found in by_step.values() for m, end, rw in found if m == best}
    return RefRoll(best, True, steps, ends)


def ref_reward_options(pieces: Pieces, mover: int, pairs: frozenset[frozenset[int]],
                       rewards: tuple[int, ...]) -> set[tuple[int, int]]:
    """(piece, amount) for every pending reward a piece can move in full (docs/rules/parcheesi.md
    3.5)."""
    return {(i, amount) for amount in set(rewards) for i in range(4)
            if ref_move(pieces, mover, pairs, i, amount) is not None}


def ref_settle(pieces: Pieces, mover: int, pairs: frozenset[frozenset[int]],
               rewards: tuple[int, ...], out: set[Pieces]) -> None:
    """Every end of the reward phase: one pending reward at a time, any order."""
    if all(p == HOME for p in pieces[mover]):
        out.add(canonical(pieces))  # the game ends at once
        return
    options = ref_reward_options(pieces, mover, pairs, rewards)
    if not options:
        out.add(canonical(pieces))
        return
    for i, amount in options:
        after, earned = ref_move(pieces, mover, pairs, i, amount)  # type: ignore[misc]
        rest = list(rewards)
        rest.remove(amount)
        ref_settle(after, mover, pairs, (*rest, *earned), out)


def ref_outcomes(pieces: Pieces, mover: int, pairs: frozenset[frozenset[int]],
                 dice: tuple[int, int], doubles_before: int) -> set[Pieces]:
    """Every position reachable by the end of a roll of ``dice`` (docs/rules/parcheesi.md 3, 3.5,
    3.6)."""
    a, b = dice
    if a == b and doubles_before == 2:
        return {canonical(ref_penalty(pieces, mover))}
    four = a == b and START not in pieces[mover]
    portions = (a, a, 7 - a, 7 - a) if four else (a, b)
    plan = ref_roll(pieces, mover, pairs, portions, four)
    found: set[Pieces] = set()
    for end, rewards in plan.ends:
        ref_settle(end, mover, pairs, rewards, found)
    return found


def ref_penalty(pieces: Pieces, mover: int) -> Pieces:
    """docs/rules/parcheesi.md 3.6: the unfinished piece closest to HOME returns to START (lowest
    index on a tie; nothing if no piece is out)."""
    out = [(p, i) for i, p in enumerate(pieces[mover]) if p not in (START, HOME)]
    if not out:
        return pieces
    _, victim = max(out, key=lambda pi: (pi[0], -pi[1]))
    return put(pieces, mover, victim, START)


def canonical(pieces: Pieces) -> Pieces:
    return tuple(tuple(sorted(own)) for own in pieces)


def pair_set(state: State) -> frozenset[frozenset[int]]:
    return frozenset(frozenset(pair) for pair in state.pairs)


def ref_roll_of(state: State) -> RefRoll:
    return ref_roll(state.pieces, state.turn, pair_set(state), state.portions, state.four)


# --- random games -----------------------------------------------------------------------------

@dataclass
class Ply:
    before: State
    action: object
    after: State
    events: list


def random_game(colours: tuple[int, ...], seed: int, choice_seed: int,
                max_actions: int = 2000) -> Iterator[Ply]:
    """Play random legal single-step actions until the game ends (at most ``max_actions``;
    random games have needed fewer than 800)."""
    rng = random.Random(choice_seed)
    dice = seeded(seed)
    state = Game(colours, seed).state
    for _ in range(max_actions):
        if state.phase is Phase.OVER:
            return
        actions = legal_actions(state)
        assert actions, f"no legal action in phase {state.phase}"
        action = rng.choice(actions)
        after, events = apply(state, action, dice)
        yield Ply(state, action, after, events)
        state = after
    raise AssertionError(f"the game has not ended after {max_actions} actions")


games = st.tuples(st.sampled_from(COLOUR_SETS), st.integers(0, 2**40),
                  st.integers(0, 2**32))
SLOW = settings(max_examples=12, deadline=None)
FAST = settings(max_examples=25, deadline=None)


def all_states(colours: tuple[int, ...], seed: int, choice_seed: int) -> Iterator[State]:
    """Every state of one random game, the first included."""
    first = True
    for ply in random_game(colours, seed, choice_seed):
        if first:
            yield ply.before
            first = False
        yield ply.after


# --- invariants -------------------------------------------------------------------------------

@FAST
@given(games)
def test_every_piece_is_accounted_for(game: tuple) -> None:
    colours, seed, choice_seed = game
    n = 0
    for state in all_states(colours, seed, choice_seed):
        n += 1
        assert state.colours == colours
        for c in range(4):
            own = state.pieces[c]
            if c in colours:
                assert len(own) == 4
                assert all(p in (START, HOME) or 0 <= p <= 70 for p in own), own
            else:
                assert own == ()
    assert state.phase is Phase.OVER  # the random game ran to its end
    assert n > 10


@FAST
@given(games)
def test_no_square_holds_more_than_two_pieces_or_two_colours(game: tuple) -> None:
    colours, seed, choice_seed = game
    for state in all_states(colours, seed, choice_seed):
        track: dict[int, list[int]] = {}
        for c, own in enumerate(state.pieces):
            lanes = Counter(p for p in own if board.FIRST_LANE <= p < HOME)
            assert all(n <= 2 for n in lanes.values()), (c, own)
            for p in own:
                if 0 <= p <= LAST_TRACK:
                    square = board.track_square(c, p)
                    assert square == ref_square(c, p)
                    track.setdefault(square, []).append(c)
        for square, there in track.items():
            assert len(there) <= 2, (square, there, state.pieces)
            assert len(set(there)) == 1, (square, there, state.pieces)


@SLOW
@given(games)
def test_every_offered_step_begins_a_complete_legal_sequence(game: tuple) -> None:
    colours, seed, choice_seed = game
    checked = 0
    for state in all_states(colours, seed, choice_seed):
        if state.phase is Phase.MOVE:
            offered = {(m.piece, m.portions) for m in legal_steps(state)}
            ref = ref_roll_of(state)
            assert offered == ref.steps, (state_to_json(state), offered, ref.steps)
            assert offered, "a MOVE phase with no legal step"
            assert set(legal_actions(state)) == set(legal_steps(state))
            # every other single step the dice allow is refused
            for step, *_ in ref_children(state.pieces, state.turn, pair_set(state),
                                         state.portions, state.four):
                if step not in ref.steps:
                    with pytest.raises(IllegalAction):
                        apply(state, Move(*step))
            checked += 1
        elif state.phase is Phase.REWARD:
            offered_rewards = {(r.piece, r.amount) for r in legal_rewards(state)}
            expected = ref_reward_options(state.pieces, state.turn, pair_set(state),
                                          state.rewards)
            assert offered_rewards == expected, state_to_json(state)
            assert offered_rewards
        else:
            assert legal_steps(state) == []
    assert checked > 0


def engine_sequences(state: State) -> list[tuple[list[Move], Metric, State]]:
    """Every complete sequence the engine accepts from a MOVE state: (moves, metric, end)."""
    out = []
    for move in legal_steps(state):
        entered = int(state.mover[move.piece] == START)
        after, _ = apply(state, move)
        if after.phase is Phase.MOVE and after.turn == state.turn:
            out.extend(([move, *rest], (e + entered, u + len(move.portions)), end)
                       for rest, (e, u), end in engine_sequences(after))
        else:
            out.append(([move], (entered, len(move.portions)), after))
    return out


def rolls_in_play(colours: tuple[int, ...], seed: int, choice_seed: int
                  ) -> Iterator[tuple[State, State, Rolled, list]]:
    """(state before, state after, Rolled event, events) for every roll after the opening."""
    for ply in random_game(colours, seed, choice_seed):
        if isinstance(ply.action, Roll) and ply.before.phase is Phase.ROLL:
            rolled = next(e for e in ply.events if isinstance(e, Rolled))
            yield ply.before, ply.after, rolled, ply.events


@SLOW
@given(games)
def test_two_portion_sequences_use_the_most_portions_among_the_most_entries(game: tuple
                                                                           ) -> None:
    colours, seed, choice_seed = game
    seen: Counter = Counter()
    for before, after, rolled, events in rolls_in_play(colours, seed, choice_seed):
        if len(rolled.portions) != 2:
            continue
        ref = ref_roll(before.pieces, before.turn, pair_set(before), rolled.portions, False)
        if any(isinstance(e, NoMove) for e in events):
            assert not ref.legal, (state_to_json(before), rolled.dice, ref.best)
            assert after.pieces == before.pieces
            seen["no move"] += 1
            continue
        assert after.phase is Phase.MOVE and after.portions == rolled.portions
        assert ref.legal, (state_to_json(before), rolled.dice)
        sequences = engine_sequences(after)
        assert sequences
        for moves, metric, _ in sequences:
            assert metric == ref.best, (state_to_json(after), moves, metric, ref.best)
        # the positions after the dice (rewards, if any, are still to be taken)
        engine_ends = {canonical(end.pieces) for _, _, end in sequences}
        assert engine_ends == {canonical(p) for p, _ in ref.ends}, state_to_json(after)
        seen[ref.best] += 1
    assert sum(seen.values()) > 0


@SLOW
@given(games)
def test_four_portion_rolls_move_all_four_or_nothing(game: tuple) -> None:
    colours, seed, choice_seed = game
    for before, after, rolled, events in rolls_in_play(colours, seed, choice_seed):
        if len(rolled.portions) != 4:
            continue
        a = rolled.dice[0]
        assert rolled.dice == (a, a)
        assert sorted(rolled.portions) == sorted((a, a, 7 - a, 7 - a))
        assert START not in before.mover
        ref = ref_roll(before.pieces, before.turn, pair_set(before), rolled.portions, True)
        if any(isinstance(e, NoMove) for e in events):
            assert ref.best[1] < 4, (state_to_json(before), rolled.dice, ref.best)
            assert after.pieces == before.pieces
            continue
        assert ref.best == (0, 4), (state_to_json(before), rolled.dice, ref.best)
        sequences = engine_sequences(after)
        assert sequences
        for moves, metric, _ in sequences:
            assert metric == (0, 4)
            assert sorted(v for m in moves for v in m.portions) == sorted(rolled.portions)


@FAST
@given(games)
def test_json_round_trips_are_exact(game: tuple) -> None:
    colours, seed, choice_seed = game
    record = Game(colours, seed)
    rng = random.Random(choice_seed)
    requests = 0
    while record.state.phase is not Phase.OVER:
        state = record.state
        text = json.dumps(state_to_json(state))
        back = state_from_json(json.loads(text))
        assert back == state
        assert json.dumps(state_to_json(back)) == text
        assert legal_actions(back) == legal_actions(state)  # the roll search is rebuilt
        if state.phase is Phase.ROLL:
            dice = record.dice(state.rolls)
            request = {"turn": board.COLOURS[state.turn], "pieces": pieces_to_json(state.pieces),
                       "dice": list(dice), "doubles": state.doubles}
            parsed, parsed_dice = request_from_json(json.loads(compact(request)))
            assert parsed_dice == dice
            assert canonical(parsed.pieces) == canonical(state.pieces)
            assert parsed.turn == state.turn and parsed.doubles == state.doubles
            assert parsed.colours == state.colours and parsed.phase is Phase.ROLL
            again = {"turn": board.COLOURS[parsed.turn], "pieces": pieces_to_json(parsed.pieces),
                     "dice": list(parsed_dice), "doubles": parsed.doubles}
            assert compact(again) == compact(request)
            # a request is the start of a turn: its blockades are the turn's blockade pairs
            squares = {p for p in parsed.mover if 0 <= p < HOME and parsed.mover.count(p) == 2}
            assert {parsed.mover[i] for pair in parsed.pairs for i in pair} == squares
            assert all(parsed.mover[i] == parsed.mover[j] for i, j in parsed.pairs)
            if state.doubles == 0:
                assert {state.mover[i] for pair in state.pairs for i in pair} == squares
            requests += 1
        record.play(rng.choice(legal_actions(state)))
    assert requests > 0
    loaded = through_json(record)
    assert loaded.state == record.state
    assert loaded.actions == record.actions


@FAST
@given(games, st.integers(0, 10_000))
def test_replaying_a_record_gives_the_same_state(game: tuple, cut: int) -> None:
    colours, seed, choice_seed = game
    record = Game(colours, seed)
    rng = random.Random(choice_seed)
    states = [record.state]
    while record.state.phase is not Phase.OVER:
        record.play(rng.choice(legal_actions(record.state)))
        states.append(record.state)
    replayed = Game.replay(colours, seed, record.actions)
    assert replayed.state == record.state
    assert replayed.state.winner is not None
    k = cut % len(states)
    partial = Game.replay(colours, seed, record.actions[:k])
    assert partial.state == states[k]
    assert legal_actions(partial.state) == legal_actions(states[k])


@settings(max_examples=10, deadline=None)
@given(games, st.integers(1, 6), st.integers(1, 6), st.integers(0, 10_000))
def test_outcomes_after_roll_match_the_reference(game: tuple, a: int, b: int,
                                                 pick: int) -> None:
    colours, seed, choice_seed = game
    samples = [(before, rolled.dice) for before, _, rolled, _ in
               rolls_in_play(colours, seed, choice_seed)]
    # every roll of the game with the dice actually rolled, and one with the drawn dice
    samples.append((samples[pick % len(samples)][0], (a, b)))
    for before, dice in samples:
        engine = {canonical(s.pieces) for s, _ in outcomes_after_roll(before, dice)}
        expected = ref_outcomes(before.pieces, before.turn, pair_set(before), dice,
                                before.doubles)
        assert engine == expected, (state_to_json(before), dice, engine ^ expected)
    assert len(samples) > 1


@SLOW
@given(games)
def test_the_position_played_at_the_end_of_each_roll_is_an_outcome(game: tuple) -> None:
    colours, seed, choice_seed = game
    roll_start: tuple[State, tuple[int, int]] | None = None
    rolls = 0
    for ply in random_game(colours, seed, choice_seed):
        if isinstance(ply.action, Roll) and ply.before.phase is Phase.ROLL:
            rolled = next(e for e in ply.events if isinstance(e, Rolled))
            roll_start = (ply.before, rolled.dice)
        if roll_start is not None and ply.after.phase in (Phase.ROLL, Phase.OVER):
            before, dice = roll_start
            if rolls % 5 == 0 or ply.after.phase is Phase.OVER:
                outcomes = outcomes_after_roll(before, dice)
                assert canonical(ply.after.pieces) in {canonical(s.pieces) for s, _ in outcomes}
                for end, actions in outcomes:  # each outcome's actions really reach it
                    state, _ = apply(before, Roll(), dice)
                    for action in actions:
                        state, _ = apply(state, action)
                    assert state.pieces == end.pieces
            rolls += 1
            roll_start = None
    assert rolls > 10


@FAST
@given(games, st.integers(1, 6), st.integers(0, 10_000))
def test_third_doubles_send_back_the_leading_piece(game: tuple, a: int, pick: int) -> None:
    colours, seed, choice_seed = game
    positions = []
    for before, after, rolled, events in rolls_in_play(colours, seed, choice_seed):
        positions.append(before)
        if any(isinstance(e, Penalty) for e in events):
            assert before.doubles == 2 and rolled.dice[0] == rolled.dice[1]
            assert after.pieces == ref_penalty(before.pieces, before.turn)
            assert after.turn != before.turn and after.phase is Phase.ROLL
        elif rolled.dice[0] == rolled.dice[1]:
            assert before.doubles < 2
    # a position from this game, asked as a request after two doubles
    before = positions[pick % len(positions)]
    request = {"turn": board.COLOURS[before.turn], "pieces": pieces_to_json(before.pieces),
               "dice": [a, a], "doubles": 2}
    state, dice = request_from_json(request)
    outcomes = outcomes_after_roll(state, dice)
    assert len(outcomes) == 1
    assert outcomes[0][0].pieces == ref_penalty(state.pieces, state.turn)
    assert outcomes[0][1] == []


# --- random positions (not only those reached in play) -------------------------------------------

def random_position(rng: random.Random, colours: tuple[int, ...]) -> Pieces:
    """Any legal-looking position: pieces anywhere, blockades likely, shared squares never."""
    pieces: list[list[int]] = [[] for _ in range(4)]
    track: dict[int, list[int]] = {}
    for c in colours:
        for _ in range(4):
            roll = rng.random()
            if roll < 0.2:
                p = START
            elif roll < 0.3:
                p = HOME
            elif roll < 0.45:
                p = rng.randint(64, 70)
            elif roll < 0.65 and pieces[c] and pieces[c][-1] != HOME:
                p = pieces[c][-1]  # a likely blockade
            else:
                p = rng.randint(0, LAST_TRACK)
            if 0 <= p <= LAST_TRACK:
                there = track.get(ref_square(c, p), [])
                if len(there) >= 2 or any(other != c for other in there):
                    p = START
                else:
                    track.setdefault(ref_square(c, p), []).append(c)
            elif p != START and p != HOME and pieces[c].count(p) >= 2:
                p = START
            pieces[c].append(p)
    return tuple(tuple(own) for own in pieces)


positions = st.tuples(st.sampled_from(COLOUR_SETS), st.integers(0, 2**32),
                      st.tuples(st.integers(1, 6), st.integers(1, 6)), st.integers(0, 2))


@settings(max_examples=300, deadline=None)
@given(positions)
def test_outcomes_of_random_requests_match_the_reference(position: tuple) -> None:
    colours, seed, dice, doubles = position
    rng = random.Random(seed)
    pieces = random_position(rng, colours)
    turn = rng.choice(colours)
    request = {"turn": board.COLOURS[turn],
               "pieces": {board.COLOURS[c]: [piece_json(p) for p in pieces[c]] for c in colours},
               "dice": list(dice), "doubles": doubles}
    state, parsed_dice = request_from_json(json.loads(json.dumps(request)))
    assert state.pieces == pieces and parsed_dice == dice
    pairs = pair_set(state)
    assert pairs == {frozenset((i, j)) for i in range(4) for j in range(i + 1, 4)
                     if pieces[turn][i] == pieces[turn][j] and 0 <= pieces[turn][i] < HOME}
    engine = {canonical(s.pieces) for s, _ in outcomes_after_roll(state, dice)}
    expected = ref_outcomes(pieces, turn, pairs, dice, doubles)
    assert engine == expected, (request, engine ^ expected)


@settings(max_examples=300, deadline=None)
@given(positions, st.integers(0, 2**32))
def test_steps_and_outcomes_with_turn_start_blockades_that_have_moved(position: tuple,
                                                                      pair_seed: int) -> None:
    """Mid-turn states: the pairs that stood together at the turn's start may now be apart
    (docs/rules/parcheesi.md 3.4), which no request can express."""
    colours, seed, dice, doubles = position
    rng = random.Random(seed)
    pieces = random_position(rng, colours)
    turn = rng.choice(colours)
    out = [i for i, p in enumerate(pieces[turn]) if START < p < HOME]
    random.Random(pair_seed).shuffle(out)
    pairs = tuple(tuple(sorted(out[k:k + 2])) for k in range(0, len(out) - 1, 2))
    if pair_seed % 3 == 0:
        pairs = pairs[:1]
    state = State(colours=colours, pieces=pieces, phase=Phase.ROLL, turn=turn,
                  doubles=doubles, pairs=pairs)  # type: ignore[arg-type]
    pair_sets = pair_set(state)
    engine = {canonical(s.pieces) for s, _ in outcomes_after_roll(state, dice)}
    assert engine == ref_outcomes(pieces, turn, pair_sets, dice, doubles), (
        state_to_json(state), dice)
    after, _ = apply(state, Roll(), dice)
    if after.phase is Phase.MOVE:
        ref = ref_roll_of(after)
        assert {(m.piece, m.portions) for m in legal_steps(after)} == ref.steps, (
            state_to_json(after))


def piece_json(p: int) -> str | int:
    return "start" if p == START else "home" if p == HOME else p


# --- turn order ------------------------------------------------------------------------------

@FAST
@given(games)
def test_the_opening_roll_and_the_turn_order(game: tuple) -> None:
    """docs/rules/parcheesi.md 1 and 3.6: highest opening total starts (only tied seats reroll);
    turns pass to the next active colour (once players are placed while the game plays on, the
    next one still racing); doubles roll again; the third doubles passes."""
    colours, seed, choice_seed = game
    contenders = list(colours)
    totals: list[tuple[int, int]] = []
    starter = None
    for ply in random_game(colours, seed, choice_seed):
        if ply.before.phase is Phase.OPENING:
            assert starter is None
            (rolled, *rest) = ply.events
            assert isinstance(rolled, OpeningRolled)
            assert rolled.colour == contenders[len(totals)]  # in turn order
            totals.append((rolled.colour, sum(rolled.dice)))
            if len(totals) < len(contenders):
                assert rest == [] and ply.after.phase is Phase.OPENING
                continue
            top = max(t for _, t in totals)
            tied = [c for c, t in totals if t == top]
            if len(tied) > 1:
                assert rest == [OpeningTied(tuple(tied))]
                contenders, totals = tied, []
            else:
                assert rest == [Starts(tied[0])]
                starter = tied[0]
                assert ply.after.phase is Phase.ROLL and ply.after.turn == starter
            continue
        assert starter is not None
        passed = [e for e in ply.events if isinstance(e, TurnPassed)]
        turn = ply.before.turn
        if Phase.PLAY_ON in (ply.before.phase, ply.after.phase):
            _check_play_on_turns(ply, passed)
            continue
        following = _following(colours, ply.after.places, turn)
        if passed:
            assert passed == [TurnPassed(following)]
            assert ply.after.turn == following and ply.after.doubles == 0
        elif ply.after.phase is not Phase.OVER:
            assert ply.after.turn == turn
        if isinstance(ply.action, Roll):
            rolled = next(e for e in ply.events if isinstance(e, Rolled))
            doubles = rolled.dice[0] == rolled.dice[1]
            if doubles and ply.before.doubles == 2:
                assert passed and any(isinstance(e, Penalty) for e in ply.events)
            elif doubles:
                assert not passed and ply.after.doubles == ply.before.doubles + 1
        if ply.after.phase is Phase.ROLL and ply.after.turn == turn and not passed:
            # the same player rolls again only after doubles
            assert ply.after.dice is not None and ply.after.dice[0] == ply.after.dice[1]
    assert starter is not None


def _following(colours: tuple[int, ...], placed: tuple[int, ...], turn: int) -> int:
    """The next colour after ``turn`` in turn order that is not placed (``turn`` when none
    is)."""
    k = colours.index(turn)
    return next((c for step in range(1, len(colours) + 1)
                 if (c := colours[(k + step) % len(colours)]) not in placed), turn)


def _check_play_on_turns(ply: Ply, passed: list[TurnPassed]) -> None:
    """The play-on question: a finish asks the racing colours in turn order after the
    finisher; each yes asks the next; the last yes passes the turn to the first colour still
    racing after the finisher."""
    before, after = ply.before, ply.after
    if after.phase is Phase.PLAY_ON:
        assert after.turn == after.asking[0] and not passed
        if before.phase is not Phase.PLAY_ON:  # a finish
            assert after.asking == tuple(_racing_after(after.colours, after.places, before.turn))
        else:
            assert after.asking == before.asking[1:]
    elif after.phase is not Phase.OVER:
        assert before.asking == (before.turn,) and after.asking == ()
        following = _following(after.colours, after.places, after.places[-1])
        assert passed == [TurnPassed(following)] and after.turn == following


def _racing_after(colours: tuple[int, ...], placed: tuple[int, ...], turn: int) -> list[int]:
    k = colours.index(turn)
    return [c for c in colours[k + 1:] + colours[:k] if c not in placed]


@SLOW
@given(games)
def test_every_choice_does_what_the_engine_then_does(game: tuple) -> None:
    """``choices``: each offered action is accepted and ends, captures and earns exactly as
    applying it does; the single steps are the legal steps, the bonuses the legal bonuses."""
    colours, seed, choice_seed = game
    for state in all_states(colours, seed, choice_seed):
        if state.phase not in (Phase.MOVE, Phase.REWARD):
            continue
        offered = choices(state)
        singles = [c.action for c in offered if not c.combined]
        assert singles == legal_steps(state) + legal_rewards(state)
        me = state.turn
        for choice in offered:
            after, _ = apply(state, choice.action)
            assert choice.start == state.pieces[me][choice.piece]
            assert choice.end == after.pieces[me][choice.piece] == choice.path[-1]
            walked = (choice.start, *choice.path)
            assert all(a < b for a, b in pairwise(walked))
            sent_back = {(c, k) for c in colours if c != me for k in range(4)
                         if state.pieces[c][k] != START and after.pieces[c][k] == START}
            assert {(v.colour, v.piece) for v in choice.captures} == sent_back
            for victim in choice.captures:
                assert state.pieces[victim.colour][victim.piece] == victim.progress
                assert ref_square(victim.colour, victim.progress) in {
                    ref_square(me, p) for p in choice.path if p <= LAST_TRACK}
            assert choice.home == (choice.end == HOME)
            assert choice.safe == (0 <= choice.end <= LAST_TRACK
                                   and ref_square(me, choice.end) in SAFE)
            assert choice.bonus == 20 * len(choice.captures) + 10 * choice.home
            # the first to finish wins (the game ends, or asks whether to play on)
            assert choice.wins == (state.winner is None and after.pieces[me] == (HOME,) * 4)
