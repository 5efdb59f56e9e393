"""One conformance suite for every game the server plays (OpenSpiel-style).

Every test is parametrized over :func:`conformance_games` (the registry's games, plus any of
:data:`TEST_GAMES`), so a game added to ``parcheesi/games/__init__.py`` is checked here with
no new test code. The games are seen only through the game-rules interface
(``parcheesi/core/rules.py``, ``docs/contracts.md``) and the shared values of
``parcheesi/core``; no listed game's own module is imported. Random games (random seeds,
random tables and house rules, random choices among the interface's own choices, drawn by
hypothesis) are played to the end and checked step by step:

1. they end within :data:`MAX_ACTIONS` actions, at every table size;
2. every offered choice is legal and does what it says, the roll is offered exactly when
   the player is to roll, and an action not offered is refused with ``IllegalAction``,
   changing nothing, unless it is another form of offered steps that reaches where they
   lead (Parcheesi accepts a roll's portions on one piece in any order);
3. states, actions and dice survive their JSON exactly, and the position just after a roll
   is an ``outcomes`` request whose outcomes hold the end of that roll;
4. the actions replay (through their JSON, and from any position's JSON) to the same states
   and events;
5. a game played on the server (``Hub``/``LiveGame``/``Store``) has a record that verifies
   and replays to the game's final state;
6. the motions of the events are moves the board can draw that lead to the new position, and
   their time is the board's;
7. the interface's facts hold: its registry key, colours, levels, paints, words, rules page,
   standings, places, progress, captures, rolls, the hint and the computers.

A known way a game does not conform yet is listed in :data:`KNOWN_GAPS` (the check, a
pattern its failure matches, where and why): such failures are counted instead of failing
the random games, and ``test_each_known_gap_still_shows`` fails once the gap is gone, so
the entry gets removed and the check is strict again.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from itertools import pairwise
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from race.game import GAME as RACE

from components.board_view import Board
from parcheesi.core.actions import PlayOn, Roll
from parcheesi.core.choices import Choice
from parcheesi.core.events import OpeningRolled, Placed, Rolled, Won
from parcheesi.core.notation import NotationError
from parcheesi.core.registry import AnyRules, games, plays, register, rules_for, unregister
from parcheesi.core.state import PIECES, IllegalAction, Phase
from parcheesi.server.live import HUMAN, Hub, Seat
from parcheesi.server.records import RecordError, read_record, replay, stored_record, verify
from parcheesi.server.store import Store

TEST_GAMES: tuple[AnyRules, ...] = (RACE,)
"""Games only the tests play (the race of ``tests/race/``), checked like the listed ones, each
registered for the length of each test: another is one more entry here."""


def conformance_games() -> list[AnyRules]:
    """The games this suite checks: every game of the registry, then :data:`TEST_GAMES`."""
    return [*games().values(), *TEST_GAMES]


GAMES = {rules.kind: rules for rules in conformance_games()}
"""The games checked, by kind: the tests are parametrized by kind (hypothesis shows a failing
example's arguments, and a kind reads better than a whole GameRules)."""
MAX_ACTIONS = 5000
"""Actions a random game may take before it must be over (random games of the listed games
take a few hundred; Ludo also ends itself as a draw after 1000 rolls without a finish)."""
UNOFFERED_TRIED = 6
"""Actions offered elsewhere in the game tried at each position where they are not offered
(besides the roll, the play-on answers, a bogus action and None)."""
HINTS_PER_GAME = 3
"""Positions of each random game where the hint and every computer are asked."""
CHOOSE_EVERY = 7
"""Every how many rolls the ``choose`` answer is checked against the ``outcomes`` one."""
GAP_GAMES = 80
"""Fixed games ``test_each_known_gap_still_shows`` plays at most to see a gap again."""

MOTIONS = "the motions lead to the new position"
OFFERED = "only the offered actions are accepted"
POSITION = "the position just after a roll is an outcomes request"
ROLL_END = "the end of a roll is among the outcomes of its request"

KNOWN_GAPS: dict[tuple[str, str], tuple[str, str]] = {
    ("parcheesi", MOTIONS): (
        r"Penalty\(colour=\d, piece=\d\)",
        "the third-doubles penalty sends the leading piece back to START with no motion: "
        "GameRules.motions reads Entered, Moved and Captured only, and Parcheesi reports the "
        "penalty as its own Penalty event (without the progress the piece stood on), so the "
        "board does not animate it and the computers do not wait for it"),
    ("parcheesi", ROLL_END): (
        r'"doubles": [12],',
        "after doubles, the position (Parcheesi's notation.position_to_json) cannot say "
        "which blockades stood at the start of the turn (the request has no field for it), "
        "and the request rebuilds them from the pieces: a blockade formed by the turn's "
        "first roll may move on together in the game but not in the request's outcomes"),
}
"""(kind, check) -> (a pattern every failure of that check in that game matches, what the
gap is and where)."""


class Bogus:
    """An action no game has."""

    def __repr__(self) -> str:
        return "Bogus()"


def table_sizes(rules: AnyRules) -> list[int]:
    """The numbers of players a table of the game may have."""
    return [n for n in range(1, len(rules.colours) + 1) if rules.colour_sets(n)]


SIZED = [pytest.param(kind, n, id=f"{kind}-{n}") for kind, rules in GAMES.items()
         for n in table_sizes(rules)]
seeds = st.integers(0, 2**32 - 1)


def each_game(test: Callable[..., Any]) -> Any:
    return pytest.mark.parametrize("kind", list(GAMES))(test)


@pytest.fixture(autouse=True)
def _registered(request: pytest.FixtureRequest) -> Iterator[None]:
    """A game of :data:`TEST_GAMES` is registered while a test checks it (the server finds
    games by kind); the listed games always are."""
    params = getattr(getattr(request.node, "callspec", None), "params", {})
    rules = GAMES.get(params.get("kind", ""))
    if rules is None or plays(rules.kind):
        yield
        return
    register(rules)
    try:
        yield
    finally:
        unregister(rules.kind)


def name(colour: int) -> str:
    """The seats' names the words are asked with."""
    return f"Seat{colour}"


def dice_values(rolled: Any) -> tuple[int, ...]:
    """One roll as the dice values an event reports (a game of one die rolls a number)."""
    return tuple(rolled) if isinstance(rolled, tuple | list) else (rolled,)


def as_json(value: Any) -> Any:
    """``value`` as it comes back from JSON text."""
    return json.loads(json.dumps(value))


def snapshot(rules: AnyRules, state: Any) -> str:
    return json.dumps(rules.state_to_json(state), sort_keys=True)


def placed(rules: AnyRules, state: Any) -> list[int]:
    return [colour for colour, _ in rules.places(state)]


class Checker:
    """Fails a check, unless the failure is a known gap of the game (then counts it)."""

    def __init__(self, rules: AnyRules) -> None:
        self.rules = rules
        self.gaps: Counter[str] = Counter()

    def fail(self, check: str, message: str) -> None:
        gap = KNOWN_GAPS.get((self.rules.kind, check))
        if gap is not None and re.search(gap[0], message):
            self.gaps[check] += 1
            return
        raise AssertionError(f"{self.rules.kind}: {check}: {message}")


# --- random games -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Table:
    """One random game: who plays, by which house rules, with which dice and choices."""

    colours: tuple[int, ...]
    house: tuple[str, ...]
    seed: int
    pick: int


@dataclass(frozen=True)
class Step:
    before: Any
    options: list[Choice]
    choice: Choice
    after: Any
    events: list[Any]


def table(rules: AnyRules, size: int, seed: int, pick: int) -> Table:
    """A table of ``size`` players (a random colour set), random house rules."""
    rng = random.Random(pick)
    colours = rng.choice(rules.colour_sets(size))
    house = tuple(h for h in rules.house_rules if rng.random() < 0.4)
    return Table(colours, house, seed, pick)


def any_table(rules: AnyRules, size: int, seed: int, pick: int) -> Table:
    """A table of any size the game allows (``size``: any number)."""
    sizes = table_sizes(rules)
    return table(rules, sizes[size % len(sizes)], seed, pick)


def random_game(rules: AnyRules, game: Table) -> Iterator[Step]:
    """Every action of a game of random choices among the offered ones, to its end; fails
    if it is not over after :data:`MAX_ACTIONS` actions."""
    state = rules.new_state(game.colours, game.house)
    dice, rng = rules.dice(game.seed), random.Random(game.pick)
    for _ in range(MAX_ACTIONS):
        if rules.over(state):
            return
        options = rules.choices(state)
        assert options, f"{rules.kind}: a game that is not over offers no choice"
        choice = rng.choice(options)
        after, events = rules.apply(state, choice.action, dice)
        yield Step(state, options, choice, after, events)
        state = after
    assert rules.over(state), f"{rules.kind}: {game} is not over after {MAX_ACTIONS} actions"


def played(rules: AnyRules, game: Table) -> list[Step]:
    steps = list(random_game(rules, game))
    assert steps, "a game starts with an action"
    return steps


CHECKS = settings(max_examples=10, deadline=None)
SLOW_CHECKS = settings(max_examples=6, deadline=None)


# --- 1. random games end ----------------------------------------------------------------------

@pytest.mark.parametrize(("kind", "size"), SIZED)
@settings(max_examples=8, deadline=None)
@given(seed=seeds, pick=seeds)
def test_random_games_end(kind: str, size: int, seed: int, pick: int) -> None:
    """At every table size, a game of random choices is over within MAX_ACTIONS actions, and
    then nobody can act: no choice, a roll refused."""
    rules = GAMES[kind]
    steps = played(rules, table(rules, size, seed, pick))
    final = steps[-1].after
    assert rules.over(final) and rules.choices(final) == []
    with pytest.raises(IllegalAction):
        rules.apply(final, Roll(), rules.dice(seed))
    assert rules.rolls(final) > 0


# --- 2. the offered choices are legal, and only they are -----------------------------------

def choice_checks(rules: AnyRules, checker: Checker, game: Table) -> None:
    dice, rng = rules.dice(game.seed), random.Random(~game.pick)
    shared = [Roll(), PlayOn(True), PlayOn(False)]
    seen: set[Any] = set(shared)
    for step in random_game(rules, game):
        state, options = step.before, step.options
        before = snapshot(rules, state)
        actions = [c.action for c in options]
        assert len(set(actions)) == len(actions), f"an action offered twice: {actions}"
        rolls = [a for a in actions if isinstance(a, Roll)]
        assert rules.rolling(state) == bool(rolls), (state.phase, actions)
        assert not rolls or len(options) == 1, "a roll is the only choice when offered"
        assert rules.turn(state) in state.colours
        assert rules.turn(state) not in placed(rules, state), "a placed colour is to act"
        reached = []
        for option in options:
            after, events = rules.apply(state, option.action, dice)
            check_preview(rules, state, option, after, events)
            reached.append((option.action, after))
        assert snapshot(rules, state) == before, "applying a choice changed the position"
        pool = sorted((a for a in seen if a not in set(actions) | set(shared)), key=repr)
        tried = [*shared, *rng.sample(pool, min(UNOFFERED_TRIED, len(pool))), Bogus(), None]
        for action in (a for a in tried if a not in actions):
            try:
                after, _ = rules.apply(state, action, dice)
            except IllegalAction:
                assert snapshot(rules, state) == before, f"refusing {action!r} changed it"
                continue
            # Another form of offered steps may be accepted (Parcheesi takes a roll's
            # portions on one piece in any order): only where offered choices lead.
            if not offered_chain(rules, state, after, dice):
                checker.fail(OFFERED, f"{action!r} was accepted although not offered, reaching "
                             f"a position no offered choices reach (offered: {actions})")
        seen.update(actions)


def offered_chain(rules: AnyRules, state: Any, target: Any, dice: Any, depth: int = 4
                  ) -> list[Any]:
    """Offered actions that the player to act can take one after another (within the same
    roll, each moving a piece that ``target`` has elsewhere) to reach ``target``; [] if
    none do."""
    mover = rules.turn(state)
    for option in rules.choices(state):
        if option.piece is None or (state.pieces[mover][option.piece]
                                    == target.pieces[mover][option.piece]):
            continue
        after, _ = rules.apply(state, option.action, dice)
        if after == target:
            return [option.action]
        if (depth > 1 and rules.turn(after) == mover and not rules.rolling(after)
                and not rules.over(after)):
            rest = offered_chain(rules, after, target, dice, depth - 1)
            if rest:
                return [option.action, *rest]
    return []


def check_preview(rules: AnyRules, state: Any, option: Choice, after: Any,
                  events: list[Any]) -> None:
    """A choice does what it says it does."""
    mover = rules.turn(state)
    assert rules.captures(events) == [(mover, c.colour) for c in option.captures], (
        option, events)
    if option.piece is None:
        assert option.start is None and option.end is None and option.path == ()
        return
    assert option.start == state.pieces[mover][option.piece], option
    assert option.path and option.path[-1] == option.end, option
    assert all(a < b for a, b in pairwise((option.start, *option.path))), option
    assert after.pieces[mover][option.piece] == option.end, (option, events)
    assert option.home == (option.end == rules.home), option
    assert option.wins == (rules.winner(state) is None and rules.winner(after) == mover), option
    for capture in option.captures:
        assert state.pieces[capture.colour][capture.piece] == capture.progress, option
    sent_back = {(c, k) for c, own in enumerate(state.pieces) if c != mover
                 for k, p in enumerate(own) if p != rules.start == after.pieces[c][k]}
    assert sent_back == {(c.colour, c.piece) for c in option.captures}, (option, events)


@each_game
@CHECKS
@given(size=st.integers(0, 99), seed=seeds, pick=seeds)
def test_every_offered_choice_is_legal_and_nothing_else_is(kind: str, size: int,
                                                           seed: int, pick: int) -> None:
    """Every choice applies and does what it says (piece, path, end, captures, HOME, win);
    the roll is offered exactly when the player is to roll, and alone; the colour to act
    plays and is not placed; an action not offered (one offered elsewhere in the game, a
    bogus one, None) raises IllegalAction and leaves the state as it was."""
    rules = GAMES[kind]
    choice_checks(rules, Checker(rules), any_table(rules, size, seed, pick))


# --- 3. JSON and the position as a request -----------------------------------------------------

def notation_checks(rules: AnyRules, checker: Checker, game: Table) -> None:
    steps = played(rules, game)
    states = [steps[0].before, *(s.after for s in steps)]
    for state in states:
        text = json.dumps(rules.state_to_json(state))
        back = rules.state_from_json(json.loads(text))
        assert back == state, text
        assert json.dumps(rules.state_to_json(back)) == text
    for step in steps:
        for option in step.options:
            raw = rules.action_to_json(option.action)
            assert rules.action_from_json(as_json(raw)) == option.action, raw
    dice = rules.dice(game.seed)
    for index in range(rules.rolls(states[-1])):
        rolled = dice(index)
        assert rules.dice_from_json(as_json(rules.dice_to_json(rolled))) == rolled
        assert len(dice_values(rolled)) == rules.dice_count
    position_checks(rules, checker, steps)


def request_of(rules: AnyRules, state: Any) -> dict[str, Any]:
    """The position as the command line reads it: JSON, its ``game`` taken out."""
    position = rules.position(state)
    assert position.get("game") == rules.kind, position
    request = as_json(position)
    request.pop("game")
    return request


def just_rolled(rules: AnyRules, step: Step) -> bool:
    """Whether the player has rolled and not moved yet after ``step``."""
    return (isinstance(step.choice.action, Roll) and rules.rolling(step.before)
            and not rules.rolling(step.after) and not rules.over(step.after)
            and rules.turn(step.after) == rules.turn(step.before))


def position_checks(rules: AnyRules, checker: Checker, steps: list[Step]) -> None:
    """Just after a roll the position carries the dice (keys it has only then) and its
    outcomes hold where the player's moves end the roll; ``choose`` picks one of them."""
    dice_keys: set[str] = set()
    without_dice = [request_of(rules, steps[0].before)]
    pending: tuple[int, dict[str, Any], list[Any]] | None = None
    rolls = 0
    for step in steps:
        request = request_of(rules, step.after)
        if not just_rolled(rules, step):
            without_dice.append(request)
        else:
            extra = set(request) - set(request_of(rules, step.before))
            assert extra, f"the position just after a roll has no dice: {request}"
            dice_keys |= extra
            try:
                answer = rules.outcomes(request)
            except NotationError as error:
                checker.fail(POSITION, f"outcomes refused {json.dumps(request)}: {error}")
                continue
            ends = [outcome["pieces"] for outcome in answer["outcomes"]]
            assert ends, f"no outcome for {request}"
            pending = (rules.turn(step.after), request, ends)
            if rolls % CHOOSE_EVERY == 0:
                chosen = rules.choose(as_json(request), rules.table_levels[0])
                assert as_json(chosen["pieces"]) in ends, (request, chosen)
            rolls += 1
        if pending is not None and (rules.rolling(step.after) or rules.over(step.after)
                                    or rules.turn(step.after) != pending[0]):
            _, asked, ends = pending
            pieces = request["pieces"]
            if pieces not in ends:
                checker.fail(ROLL_END, f"{json.dumps(asked)} ended at {json.dumps(pieces)}, "
                             f"not among its {len(ends)} outcomes")
            pending = None
    assert rolls, "no roll with a move to choose in a whole game"
    for request in without_dice:
        assert not dice_keys & set(request), f"dice in a position not just rolled: {request}"


@each_game
@CHECKS
@given(size=st.integers(0, 99), seed=seeds, pick=seeds)
def test_json_round_trips_are_exact_and_positions_are_requests(kind: str, size: int,
                                                               seed: int, pick: int) -> None:
    """Every state reached, every offered action and every die rolled come back equal from
    their JSON text; ``position`` names the game, carries the dice exactly while the player
    has rolled and not moved (the command line's request of that roll, ``game`` popped),
    its ``outcomes`` hold where the roll ended and ``choose`` picks one of them."""
    rules = GAMES[kind]
    notation_checks(rules, Checker(rules), any_table(rules, size, seed, pick))


# --- 4. replay -------------------------------------------------------------------------------

@each_game
@CHECKS
@given(size=st.integers(0, 99), seed=seeds, pick=seeds, cut=st.integers(0, 10**6))
def test_a_game_replays_identically(kind: str, size: int, seed: int, pick: int,
                                    cut: int) -> None:
    """The recorded actions (through their JSON) replayed with the same dice from the start,
    and from any position read back from its JSON, give the same states and events."""
    rules = GAMES[kind]
    game = any_table(rules, size, seed, pick)
    steps = played(rules, game)
    recorded = [as_json(rules.action_to_json(s.choice.action)) for s in steps]
    k = cut % len(steps)
    starts = [(0, rules.new_state(game.colours, game.house)),
              (k, rules.state_from_json(as_json(rules.state_to_json(steps[k].before))))]
    for first, state in starts:
        dice = rules.dice(game.seed)
        for step, raw in zip(steps[first:], recorded[first:], strict=True):
            assert state == step.before
            state, events = rules.apply(state, rules.action_from_json(raw), dice)
            assert events == step.events, (raw, events, step.events)
        assert state == steps[-1].after and rules.over(state)


# --- 5. records of games played on the server -------------------------------------------------

@each_game
async def test_a_game_played_on_the_server_has_a_record_that_verifies(kind: str,
                                                                      tmp_path) -> None:
    """A game created through the hub and played to its end through ``LiveGame.act``
    (every seat a person at one device, random choices) is stored; its record verifies,
    replays to the live game's final state with the same actions and events, and is
    refused once its last action is cut off."""
    rules = GAMES[kind]
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'conformance.sqlite3'}")
    await store.init()
    try:
        rng = random.Random(rules.kind)
        colours = rng.choice(rules.colour_sets(table_sizes(rules)[0]))
        house = tuple(h for h in rules.house_rules if rng.random() < 0.5)
        seats = [Seat(colour=c, kind=HUMAN, name=name(c)) for c in colours]
        game = await Hub(store).create_local("conformance", "same_device", seats,
                                             rules.kind, house)
        moves: list[tuple[Any, list[Any]]] = []
        while not game.over:
            assert len(moves) < MAX_ACTIONS, "the game on the server does not end"
            action = rng.choice(rules.choices(game.state)).action
            moves.append((action, await game.act(action, version=game.version)))
        record = await stored_record(store, game.id)
        assert record is not None and record["game"] == rules.kind
        assert record["result"]["over"] and sorted(record["house"]) == sorted(house)
        assert verify(read_record(as_json(record))).startswith("verified: ")
        steps = replay(read_record(as_json(record)))
        assert steps[-1].state == game.state
        assert [(s.action, s.events) for s in steps[1:]] == moves
        cut = {**as_json(record), "actions": record["actions"][:-1]}
        with pytest.raises(RecordError):
            verify(read_record(cut))
    finally:
        await store.close()


# --- 6. motions and the board ----------------------------------------------------------------

def board_ms(rules: AnyRules, before: Any, after: Any, motions: list[Any]) -> tuple[int, int]:
    """How long the board component plays ``motions`` (its own plans, asked of a stand-in
    for a board showing ``before``), and how many steps it plays."""
    shown = SimpleNamespace(layout=rules.look.layout, _shown=before.pieces)
    plans = Board._plans(shown, list(motions), after.pieces)  # type: ignore[arg-type]
    return (sum((len(points) - 1) * ms for _, _, points, ms, _, _ in plans),
            sum(len(points) - 1 for _, _, points, _, _, _ in plans))


def motion_checks(rules: AnyRules, checker: Checker, game: Table) -> None:
    layout = rules.look.layout
    moved = 0
    for step in random_game(rules, game):
        motions = rules.motions(step.events)
        pieces = [list(own) for own in step.before.pieces]
        total = 0
        for colour, piece, start, end in motions:
            assert pieces[colour][piece] == start, (motions, step.events)
            pieces[colour][piece] = end
            points = layout.path_points(colour, start, end, piece)
            assert len(points) >= 2, (colour, piece, start, end)
            total += (len(points) - 1) * layout.step_ms(end)
        if tuple(tuple(own) for own in pieces) != tuple(step.after.pieces):
            checker.fail(MOTIONS, f"the motions {motions} lead to {pieces}, the position is "
                         f"{step.after.pieces} (events {step.events})")
        expected = min(total, layout.MAX_ANIMATION_MS)
        assert rules.motion_ms(motions) == expected, (motions, expected)
        if not motions:
            continue
        moved += 1
        assert 0 < expected <= layout.MAX_ANIMATION_MS
        shown, squares = board_ms(rules, step.before, step.after, motions)
        if total <= layout.MAX_ANIMATION_MS:
            assert shown == expected, (motions, shown, expected)
        else:  # the board rounds each step's time once it plays faster
            assert abs(shown - expected) <= squares / 2, (motions, shown, expected)
    assert moved, "no piece moved in a whole game"


@each_game
@CHECKS
@given(size=st.integers(0, 99), seed=seeds, pick=seeds)
def test_motions_are_what_the_board_draws_and_waits_for(kind: str, size: int,
                                                         seed: int, pick: int) -> None:
    """The motions of every action's events start where their pieces stand and lead to the
    new position; each is a move the layout can draw (its path of at least two points), and
    ``motion_ms`` is the layout's time for them (steps times ``step_ms``, capped at
    ``MAX_ANIMATION_MS``), the time the board component's own plans take (to its rounding
    of each step's time when it plays faster)."""
    rules = GAMES[kind]
    motion_checks(rules, Checker(rules), any_table(rules, size, seed, pick))


# --- 7. the interface's facts ------------------------------------------------------------------

@each_game
def test_the_interface_facts_hold(kind: str) -> None:
    """What a game says of itself: its kind is its registry key; colours, levels, dice,
    START and HOME, paints, house rules' words, rules page; its tables; the position before
    the first roll; and the refusals its docstrings promise."""
    rules = GAMES[kind]
    assert rules_for(rules.kind) is rules and games()[rules.kind] is rules
    assert rules.title.strip() and len(rules.colours) == len(set(rules.colours)) >= 2
    assert all(isinstance(c, str) and c for c in rules.colours)
    assert rules.levels and set(rules.table_levels) <= set(rules.levels)
    assert list(rules.table_levels) == [lv for lv in rules.levels if lv in rules.table_levels]
    assert rules.dice_count >= 1 and rules.start < 0 < rules.home
    assert rules.full_progress == PIECES * (rules.home - rules.start)
    look = rules.look
    assert (rules.start, rules.home) == (look.layout.START, look.layout.HOME)
    assert len(look.paints) == len(rules.colours)
    assert len({paint.fill for paint in look.paints}) == len(rules.colours)
    assert look.board_label.strip()
    assert set(look.house_words) == set(rules.house_rules)
    assert all(short.strip() and says.strip() for short, says in look.house_words.values())
    text = rules.rules_text.strip()
    assert text and re.search(r"^#{1,6} \S", text, re.MULTILINE), "the rules page is Markdown"

    sizes = table_sizes(rules)
    assert sizes and rules.colour_sets(len(rules.colours) + 1) == []
    for size in sizes:
        for colours in rules.colour_sets(size):
            assert len(set(colours)) == size
            assert set(colours) <= set(range(len(rules.colours)))
            order = rules.check_colours(colours)
            assert sorted(order) == sorted(colours)
            state = rules.new_state(colours)
            assert state.colours == order and rules.turn(state) == order[0]
            assert len(state.pieces) == len(rules.colours)
            assert rules.rolling(state) and not rules.over(state)
            assert rules.winner(state) is None and rules.places(state) == []
            assert rules.rolls(state) == 0
            assert sorted(rules.standings(state)) == sorted(colours)
            assert all(rules.progress(state, c) == 0 for c in colours)
            assert [c.action for c in rules.choices(state)] == [Roll()]
            for first in colours:
                assert rules.turn(rules.new_state(colours, first=first)) == first
            for house_rule in rules.house_rules:
                assert rules.rolling(rules.new_state(colours, (house_rule,)))
    colours = rules.colour_sets(sizes[0])[0]
    missing = [c for c in range(len(rules.colours)) if c not in colours]
    bad_calls: list[Callable[[], Any]] = [
        lambda: rules.new_state((colours[0],) * 2),
        lambda: rules.new_state(tuple(range(len(rules.colours) + 1))),
        lambda: rules.new_state(colours, ("no such house rule",)),
        lambda: rules.decide(rules.new_state(colours), "no such level"),
    ]
    bad_calls += [partial(rules.new_state, (), ())]
    bad_calls += [partial(rules.new_state, colours, first=c) for c in missing]
    for call in bad_calls:
        with pytest.raises(ValueError):
            call()
    for junk in (None, [], "roll", {"type": "no such action"}):
        for read in (rules.state_from_json, rules.action_from_json, rules.dice_from_json):
            with pytest.raises(NotationError):
                read(junk)


def fact_checks(rules: AnyRules, game: Table) -> None:
    dice, rng = rules.dice(game.seed), random.Random(~game.pick)
    look = rules.look
    placed_by_events: list[tuple[int, int]] = []
    winners: list[int] = []
    asked: list[Any] = []
    for step in random_game(rules, game):
        before, after, events, mover = step.before, step.after, step.events, rules.turn(step.before)
        # the rolls among the events are the dice drawn, one per roll made
        drawn = [dice_values(dice(k)) for k in range(rules.rolls(before), rules.rolls(after))]
        assert [e.dice for e in events if isinstance(e, Rolled | OpeningRolled)] == drawn
        in_play = isinstance(step.choice.action, Roll) and before.phase is not Phase.OPENING
        assert rules.dice_rolled(events) == ([(mover, drawn[0])] if in_play else []), events
        assert rules.captures(events) == [(mover, c.colour) for c in step.choice.captures]
        assert all(by == mover != victim for by, victim in rules.captures(events))
        # places, winner, standings, progress
        placed_by_events += [(e.colour, e.place) for e in events if isinstance(e, Placed)]
        winners += [e.colour for e in events if isinstance(e, Won)]
        assert rules.places(after) == placed_by_events
        places = placed(rules, after)
        assert len(set(places)) == len(places) and set(places) <= set(after.colours)
        assert all(place >= 1 for _, place in rules.places(after))
        assert winners == ([] if rules.winner(after) is None else [rules.winner(after)])
        standings = rules.standings(after)
        assert sorted(standings) == sorted(game.colours) and standings[:len(places)] == places
        if rules.winner(after) is not None:
            assert rules.progress(after, rules.winner(after)) == rules.full_progress
            assert standings[0] == rules.winner(after)
        for colour in game.colours:
            progress = rules.progress(after, colour)
            assert 0 <= progress <= rules.full_progress
            assert all(rules.start <= p <= rules.home for p in after.pieces[colour])
            assert (progress == rules.full_progress) == (
                after.pieces[colour] == (rules.home,) * PIECES)
        if not rules.over(after):
            assert rules.turn(after) in after.colours and rules.turn(after) not in places
        # words
        for event in events:
            words = look.describe(event, name)
            assert words is None or (isinstance(words, str) and words.strip()), event
            if isinstance(event, Won):
                assert words and name(event.colour) in words, (event, words)
        for colour, piece, words in look.bonuses(events):
            assert colour in game.colours and 0 <= piece < PIECES and words
        for option in step.options:  # the buttons: moves, bonuses, answers (not the roll)
            assert isinstance(option.action, Roll) or look.option_label(option, name).strip()
        note = look.roll_note(before, name)
        assert note is None or note.strip()
        for piece, progress in enumerate(before.pieces[mover]):
            assert look.piece_label(name(mover), piece, progress).strip()
        if (not rules.rolling(before) and len(asked) < HINTS_PER_GAME
                and rng.random() < 0.05):
            asked.append(before)
            decision_checks(rules, before, dice)
    chances = rules.win_chances(asked)
    if chances is not None:
        assert len(chances) == len(asked)
        for state, chance in zip(asked, chances, strict=True):
            assert set(chance) == set(state.colours), chance
            assert all(0 <= v <= 1 for v in chance.values())
            assert abs(sum(chance.values()) - 1) < 1e-6, chance


def decision_checks(rules: AnyRules, state: Any, dice: Any) -> None:
    """The hint (with a reason) and every computer choose offered actions that finish the
    roll or answer the question, and reach the position they say."""
    decisions = [(rules.hint(state), True)]
    decisions += [(rules.decide(state, level), False) for level in rules.levels
                  if level != rules.table_levels[-1]]
    for decision, hint in decisions:
        assert decision.actions and (decision.reason.strip() or not hint), decision
        reached = state
        for action in decision.actions:
            assert action in [c.action for c in rules.choices(reached)], (action, decision)
            reached, _ = rules.apply(reached, action, dice)
        assert reached == decision.state
        assert (rules.rolling(reached) or rules.over(reached)
                or rules.turn(reached) != rules.turn(state)), decision


@each_game
@SLOW_CHECKS
@given(size=st.integers(0, 99), seed=seeds, pick=seeds)
def test_the_facts_of_a_game_agree_with_its_events(kind: str, size: int, seed: int,
                                                   pick: int) -> None:
    """Along a random game: the rolls among the events are the dice drawn (``dice_rolled``:
    those in play, by the colour to act), ``captures`` are the chosen choice's, ``places``
    are the Placed events, the one Won event names the winner, who has every piece HOME and
    stands first; ``standings`` is a permutation of the colours with the placed ones first;
    ``progress`` stays within 0..``full_progress`` and is full exactly with every piece
    HOME; the look words every event (a Won by the winner's name), every choice, piece and
    bonus; the hint and every computer choose legal actions finishing the roll; the learned
    chances (when the game has them) are each colour's and add up to one."""
    rules = GAMES[kind]
    fact_checks(rules, any_table(rules, size, seed, pick))


# --- the known gaps -------------------------------------------------------------------------

CHECKS_OF: dict[str, Callable[[AnyRules, Checker, Table], None]] = {
    MOTIONS: motion_checks, OFFERED: choice_checks, POSITION: notation_checks,
    ROLL_END: notation_checks}


@pytest.mark.parametrize(("kind", "check"),
                         [pytest.param(k, c, id=f"{k}-{c}") for k, c in KNOWN_GAPS])
def test_each_known_gap_still_shows(kind: str, check: str) -> None:
    """Every known gap still shows in fixed games: once it is fixed this fails, and its
    KNOWN_GAPS entry is to be removed (which makes the check strict for that game)."""
    if not plays(kind):
        pytest.skip(f"{kind} is not played here")
    rules = rules_for(kind)
    checker = Checker(rules)
    for n in range(GAP_GAMES):
        CHECKS_OF[check](rules, checker, any_table(rules, n, n, n))
        if checker.gaps[check]:
            return
    pytest.fail(f"{kind}: no longer seen in {GAP_GAMES} games: {KNOWN_GAPS[kind, check][1]}")
