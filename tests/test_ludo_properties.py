"""Property tests over random Ludo games with random house rules (docs/rules/ludo.md).

Random games are played with the engine's own choices; every invariant is then checked
against the rules text. The legality check compares the engine with a small, deliberately
naive reference written here from docs/rules/ludo.md alone: it works in absolute track squares
and lists every piece and every capture choice without any table or shortcut.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from parcheesi.core.actions import PlayOn, Roll
from parcheesi.core.events import Captured, Entered, Moved, Rolled
from parcheesi.core.state import IllegalAction, Phase
from parcheesi.games.ludo.actions import Move
from parcheesi.games.ludo.board import HOUSE_RULES
from parcheesi.games.ludo.choices import choices
from parcheesi.games.ludo.dice import ludo_dice
from parcheesi.games.ludo.game import GAME as LUDO_RULES
from parcheesi.games.ludo.moves import legal_moves
from parcheesi.games.ludo.notation import (
    action_from_json,
    action_to_json,
    state_from_json,
    state_to_json,
)
from parcheesi.games.ludo.state import LudoState, new_state
from parcheesi.games.ludo.turns import advance, apply, replay

# --- the reference, from docs/rules/ludo.md only --------------------------------------------------

YARD, HOME = -1, 56
STARTS = (0, 13, 26, 39)
STAR_SQUARES = {8, 21, 34, 47}
COLOUR_SETS = [(0, 2), (1, 3), (0, 1), (2, 3), (0, 1, 2), (1, 2, 3), (0, 1, 3), (0, 2, 3),
               (0, 1, 2, 3)]


def square(colour: int, progress: int) -> int | None:
    return (STARTS[colour] + progress) % 52 if 0 <= progress <= 50 else None


def reference_results(pieces: tuple[tuple[int, ...], ...], colour: int, die: int,
                      house: tuple[str, ...]) -> set[tuple[tuple[int, ...], ...]]:
    """Every position the roll can reach, each colour's pieces sorted."""
    found = set()
    for piece, at in enumerate(pieces[colour]):
        if at == HOME or (at == YARD and die != 6) or (at != YARD and at + die > HOME):
            continue
        end = 0 if at == YARD else at + die
        where = square(colour, end)
        victims: dict[int, list[int]] = {}
        for other, theirs in enumerate(pieces):
            for k, p in enumerate(theirs):
                if other == colour or where is None or square(other, p) != where:
                    continue
                if where == STARTS[other] or ("stars" in house and where in STAR_SQUARES):
                    continue  # safe where it stands
                victims.setdefault(other, []).append(k)
        if not victims:
            groups: list[list[tuple[int, int]]] = [[]]
        elif "capture_all" in house:
            groups = [[(o, k) for o, ks in victims.items() for k in ks]]
        else:
            groups = [[(o, ks[0])] for o, ks in victims.items()]
        for group in groups:
            after = [list(own) for own in pieces]
            after[colour][piece] = end
            for other, k in group:
                after[other][k] = YARD
            found.add(tuple(tuple(sorted(own)) for own in after))
    return found


def sorted_pieces(state: LudoState) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(sorted(own)) for own in state.pieces)


# --- checks of one step --------------------------------------------------------------------------

def check_state(state: LudoState, colours: tuple[int, ...]) -> None:
    """Pieces accounted for, fields in range and consistent."""
    for c in range(4):
        own = state.pieces[c]
        assert len(own) == (4 if c in colours else 0)
        assert all(YARD <= p <= HOME for p in own)
    assert state.colours == colours and state.turn in colours
    assert 0 <= state.race_rolls <= state.rolls
    assert len(set(state.places)) == len(state.places) == len(state.ranks)
    assert state.winner == (state.places[0] if state.places else None)
    assert (state.phase is Phase.MOVE) == bool(state.portions)
    if state.phase is Phase.MOVE:
        assert state.portions == state.dice and legal_moves(state)
    if state.phase is Phase.PLAY_ON:
        assert state.asking and state.asking[0] == state.turn
    if state.phase is Phase.OVER:
        assert state.draw or sorted(state.places) == sorted(colours)
    else:
        assert state.turn not in state.places or state.phase is Phase.OPENING
    finished = {c for c in colours if state.pieces[c] == (HOME,) * 4}
    assert finished <= set(state.places)  # a player with four pieces HOME has a place
    if state.phase is not Phase.OVER:  # ... and only they have, until the game ends
        assert finished == set(state.places)


def check_choices(state: LudoState) -> None:
    """Every choice is legal, applying it never raises, and the moves are the reference's."""
    options = choices(state)
    assert options or state.phase is Phase.OVER
    if state.phase is not Phase.MOVE:
        return
    reached = set()
    for option in options:
        after = advance(state, option.action)
        reached.add(sorted_pieces(after))
        assert after.pieces[state.turn][option.piece] == option.end
        for capture in option.captures:
            assert after.pieces[capture.colour][capture.piece] == YARD
        assert option.again == (after.phase is Phase.ROLL and after.turn == state.turn)
    assert reached == reference_results(state.pieces, state.turn, state.portions[0],
                                        state.house)


def check_events(before: LudoState, after: LudoState, events: list[object]) -> None:
    """The events say what changed: replaying their motions on the old pieces gives the
    new ones."""
    pieces = [list(own) for own in before.pieces]
    for colour, piece, start, end in LUDO_RULES.motions(events):
        assert pieces[colour][piece] == start
        pieces[colour][piece] = end
    assert tuple(tuple(own) for own in pieces) == after.pieces
    assert LUDO_RULES.captures(events) == [(e.by_colour, e.colour) for e in events
                                           if isinstance(e, Captured)]
    for event in events:
        if isinstance(event, Rolled):
            assert after.rolls == before.rolls + 1 and len(event.dice) == 1
        if isinstance(event, Entered):
            assert event.spent == (6,)
        if isinstance(event, Moved):
            assert event.count == before.portions[0]


def check_json(state: LudoState, action: object) -> None:
    raw = json.loads(json.dumps(state_to_json(state)))
    assert state_from_json(raw) == state
    assert action_from_json(json.loads(json.dumps(action_to_json(action)))) == action


def random_house(rng: random.Random) -> tuple[str, ...]:
    return tuple(name for name in HOUSE_RULES if rng.random() < 0.4)


# --- properties ----------------------------------------------------------------------------------

@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**62), pick=st.integers(0, 10**9))
def test_random_games_keep_every_invariant(seed: int, pick: int) -> None:
    rng = random.Random(pick)
    colours = rng.choice(COLOUR_SETS)
    house = random_house(rng)
    state, dice = new_state(colours, house), ludo_dice(seed)
    actions = []
    for _ in range(300):
        check_state(state, colours)
        check_choices(state)
        if state.phase is Phase.OVER:
            break
        action = rng.choice(choices(state)).action
        check_json(state, action)
        after, events = apply(state, action, dice)
        assert advance(state, action, dice) == after
        check_events(state, after, events)
        actions.append(action)
        state = after
    assert replay(colours, house, ludo_dice(seed), actions) == state


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**62), pick=st.integers(0, 10**9))
def test_whole_games_end_in_places_or_a_draw_and_replay_exactly(seed: int, pick: int
                                                               ) -> None:
    """Complete games, the play-on question answered at random; the record of actions
    (through its JSON) replays to the identical final state."""
    rng = random.Random(pick)
    colours = rng.choice(COLOUR_SETS)
    house = random_house(rng)
    state, dice = new_state(colours, house), ludo_dice(seed)
    actions = []
    while state.phase is not Phase.OVER:
        moves = legal_moves(state)
        if moves:
            action: object = rng.choice(moves)[4]
        elif state.phase is Phase.PLAY_ON:
            action = PlayOn(rng.random() < 0.7)
        else:
            action = Roll()
        state = advance(state, action, dice)  # type: ignore[arg-type]
        actions.append(action_to_json(action))  # type: ignore[arg-type]
    check_state(state, colours)
    assert state.race_rolls <= 1000
    if state.draw:
        assert state.winner is None and state.race_rolls == 1000
    else:
        assert state.pieces[state.winner] == (56,) * 4
        assert sorted(state.places) == sorted(colours)
        assert LUDO_RULES.standings(state) == list(state.places)
    again = replay(colours, house, ludo_dice(seed),
                   [action_from_json(json.loads(json.dumps(a))) for a in actions])
    assert again == state and state_from_json(state_to_json(state)) == state


def test_refused_actions_never_change_the_state() -> None:
    rng = random.Random(5)
    state, dice = new_state((0, 1, 2, 3), ("capture_all",)), ludo_dice(5)
    wrong = [Roll(), PlayOn(True), PlayOn(False), *(Move(p, c) for p in range(-1, 5)
                                                    for c in (None, 0, 1, 2, 3, 9))]
    refusals: Counter[str] = Counter()
    for _ in range(600):
        if state.phase is Phase.OVER:
            break
        legal = {c.action for c in choices(state)}
        copy = state.with_()
        for action in wrong:
            if action in legal:
                continue
            try:
                apply(state, action, dice)
            except IllegalAction as error:
                refusals[str(error).split(" ")[0]] += 1
            else:
                raise AssertionError(f"{action} was accepted in {state}")
            assert state == copy
        state, _ = apply(state, rng.choice(sorted(legal, key=repr)), dice)
    assert sum(refusals.values()) > 1000


def test_the_dice_are_fair_and_follow_from_the_seed() -> None:
    dice = ludo_dice(2024)
    values = [dice(k) for k in range(60_000)]
    counts = Counter(values)
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(abs(n - 10_000) < 400 for n in counts.values())  # about 4 sigma
    assert [ludo_dice(2024)(k) for k in (59_999, 0, 31, 32, 12_345)] == [
        values[59_999], values[0], values[31], values[32], values[12_345]]
    assert [ludo_dice(2025)(k) for k in range(50)] != values[:50]
